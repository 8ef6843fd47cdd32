/* Fuzzer for the Maxwell warp interpreter (src/nv/sass_exec*.c).
 *
 * Input: 4 bytes active-lane mask, 4 bytes budget (at most 20000), 64 bytes
 * of constant buffer (bound as banks 0 and 1, bank 1 also holding texture
 * handles), then up to 64 KiB of memory mapped at MAP_VA: the program (SPH
 * at MAP_VA, code after it), the TIC and TSC pools (16 entries each at
 * MAP_VA + 0x1000 and + 0x1200), texture data and global memory (LDG/STG).
 * Attributes and planes are derived from the constant buffer words. The
 * program region is the first page, or (bit 0 of constant buffer word 1)
 * the mapping plus an unmapped page after it. With bit 1 of constant buffer
 * word 1 the draw's texture cache is on and the warp runs twice more with it
 * (the second time on cached headers), under the same invariants.
 *
 * Invariants (abort() otherwise): build and run return 0 or CG_ERR_FAULT;
 * a fault has a kind other than NONE, a non-empty message and a pc inside
 * the decoded program; executed never passes the budget by more than the
 * straight-line program length; no fault is posted on the device (the
 * interpreter only reports them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "nv/gpu/sass_exec.h"

#define MAP_VA 0x10000000ull
#define MAX_MEM (1u << 16)

static uint32_t le32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 72 + 0x58)
        return 0;
    static uint32_t in[NV_WARP][NV_ATTR_WORDS], out[NV_WARP][NV_ATTR_WORDS];
    static nv_sass_plane planes[NV_ATTR_WORDS];
    static nv_sass_warp w;
    static uint32_t local[NV_WARP * 64];
    uint32_t cb[16];
    uint32_t active = le32(data), budget = le32(data + 4) % 20000;
    for (unsigned i = 0; i < 16; i++)
        cb[i] = le32(data + 8 + 4 * i);
    const uint8_t *mem_bytes = data + 72;
    size_t mem_n = size - 72 > MAX_MEM ? MAX_MEM : size - 72;

    cg_device *dev = NULL;
    cg_vas *vas = NULL;
    cg_mem *mem = NULL;
    if (cg_device_create(&dev) || cg_vas_create(dev, NULL, &vas))
        abort();
    size_t map_n = (mem_n + 0xFFF) & ~(size_t)0xFFF;
    cg_map_params mp = {.size = map_n, .va = MAP_VA, .flags = CG_MAP_FIXED};
    uint64_t va;
    if (cg_mem_create(dev, map_n, 0, &mem) || cg_mem_write(mem, 0, mem_bytes, mem_n))
        abort();
    mp.mem = mem;
    if (cg_vas_map(vas, &mp, &va))
        abort();

    nv_sass_env env;
    memset(&env, 0, sizeof env);
    env.dev = dev;
    env.vas = vas;
    env.agent.unit = "sm";
    env.cb[0] = cb;
    env.cb_size[0] = sizeof cb;
    env.cb[1] = cb;
    env.cb_size[1] = sizeof cb;
    env.tex = (nv_sass_tex_env){MAP_VA + 0x1000, MAP_VA + 0x1200, 15, 15, (cb[0] & 1) != 0, 1};
    env.attr_in = in;
    env.attr_out = out;
    env.planes = planes;
    env.budget = budget ? budget : 1;
    for (unsigned l = 0; l < NV_WARP; l++) {
        env.vertex_id[l] = l;
        env.frag_x[l] = 0.5f + (float)(l % 8);
        env.frag_y[l] = 0.5f + (float)(l / 8);
        for (unsigned k = 0; k < NV_ATTR_WORDS; k++)
            in[l][k] = cb[(l + k) % 16] ^ k;
    }
    for (unsigned k = 0; k < NV_ATTR_WORDS; k++) {
        planes[k].a = (float)(cb[k % 16] & 0xff) / 16.0f;
        planes[k].b = (float)(cb[(k + 1) % 16] & 0xff) / 16.0f;
        planes[k].c = (float)(k & 7);
        planes[k].flat = cb[(k + 2) % 16];
    }

    nv_sass_prog *p = NULL;
    nv_sass_fault f;
    memset(&f, 0, sizeof f);
    /* The region: the first page (fast to decode), or with bit 0 of cb
     * word 1 the whole mapping and an unmapped page after it. */
    uint64_t region = (cb[1] & 1) ? map_n + 0x1000 : 0x1000;
    int r = nv_sass_prog_build(vas, &env.agent, MAP_VA, region, MAP_VA, NV_STAGE_FRAGMENT, &p,
                               &f);
    if (r == 0) {
        nv_sass_prog_info info;
        nv_sass_prog_get_info(p, &info);
        unsigned runs = (cb[1] & 2) ? 3 : 1;
        for (unsigned run = 0; run < runs; run++) {
            if (run == 1 && !(env.tcache = nv_sass_tex_cache_new()))
                abort();
            memset(&w, 0, sizeof w);
            w.active = active;
            w.local = local;
            w.local_bytes = 256;
            memset(&f, 0, sizeof f);
            r = nv_sass_run(p, &env, &w, &f);
            if (getenv("FUZZ_NV_SASS_EXEC_VERBOSE"))
                fprintf(stderr, "run %u: %d executed %llu exited %08x killed %08x %s\n", run, r,
                        (unsigned long long)w.executed, w.exited, w.killed, r ? f.msg : "");
            if (r != 0 && r != CG_ERR_FAULT)
                abort();
            if (r == CG_ERR_FAULT && (f.kind == CG_FAULT_NONE || !f.msg[0] || f.pc < 0x58))
                abort();
            if (w.executed > (uint64_t)env.budget + info.insns + 1)
                abort();
        }
        nv_sass_tex_cache_free(env.tcache);
        nv_sass_prog_free(p);
    } else if (r != CG_ERR_FAULT || p || f.kind == CG_FAULT_NONE) {
        abort();
    }
    if (cg_fault_count(dev) != 0)
        abort();

    cg_vas_destroy(vas);
    cg_mem_unref(mem);
    cg_device_destroy(dev);
    return 0;
}
