/* Shared by the QPU interpreter tests: one device with a 32-bit bus and a
 * 128 KiB object mapped at CODE (uniforms at UNIF inside it). */
#ifndef CMDGPU_TEST_VC4_QPU_ENV_H
#define CMDGPU_TEST_VC4_QPU_ENV_H
#include <string.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"

#define CODE 0x10000u
#define UNIF 0x20000u

typedef struct env {
    cg_device *dev;
    cg_vas *bus;
    cg_mem *mem;
} env;

static inline void env_init(env *e)
{
    memset(e, 0, sizeof *e);
    CHECK_EQ(cg_device_create(&e->dev), 0);
    cg_vas_config cfg = {.va_bits = 32};
    CHECK_EQ(cg_vas_create(e->dev, &cfg, &e->bus), 0);
    CHECK_EQ(cg_mem_create(e->dev, 0x20000, 0, &e->mem), 0);
    cg_map_params p = {.mem = e->mem, .va = CODE, .flags = CG_MAP_FIXED};
    uint64_t va;
    CHECK_EQ(cg_vas_map(e->bus, &p, &va), 0);
}

static inline void env_fini(env *e)
{
    cg_vas_destroy(e->bus);
    cg_mem_unref(e->mem);
    cg_device_destroy(e->dev);
}

#endif
