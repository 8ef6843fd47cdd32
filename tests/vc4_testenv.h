/* Shared by the vc4 renderer tests: assemble a scene's source and place its
 * sections in SDRAM, read its symbols, kick a control-list thread. */
#ifndef CMDGPU_TEST_VC4_TESTENV_H
#define CMDGPU_TEST_VC4_TESTENV_H
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"

static inline cg_asm *load(cg_vc4 *v, const char *src)
{
    cg_vc4_asm *st;
    cg_asm *as;
    if (cg_vc4_asm_create(&st) || cg_asm_create(cg_vc4_asm_family(), st, &as))
        return NULL;
    cg_asm_add_source(as, "t.s", src, strlen(src));
    if (cg_asm_assemble(as) != 0)
        fputs(cg_asm_errors(as), stderr);
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *nm;
        uint64_t base;
        const uint8_t *d;
        size_t n;
        cg_asm_section(as, i, &nm, &base, &d, &n);
        if (n)
            cg_vc4_cpu_write(v, (uint32_t)base, d, n);
    }
    cg_vc4_asm_destroy(st);
    return as;
}

static inline uint32_t sym(cg_asm *as, const char *name)
{
    int64_t x = 0;
    CHECK(cg_asm_symbol(as, name, &x));
    return (uint32_t)x;
}

static inline void kick(cg_vc4 *v, int t, uint32_t s, uint32_t e)
{
    cg_vc4_reg_write(v, t ? CG_VC4_CT1CA : CG_VC4_CT0CA, s);
    cg_vc4_reg_write(v, t ? CG_VC4_CT1EA : CG_VC4_CT0EA, e);
}

/* Hard faults (not warnings) from index `from` of the device's log on,
 * each printed on stderr when `print`. */
static inline size_t vc4_hard_faults(cg_device *dev, size_t from, bool print)
{
    size_t n = 0;
    for (size_t i = from; i < cg_fault_count(dev); i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        if (!(f->flags & CG_FAULT_F_WARNING)) {
            char line[512];
            cg_fault_format(f, line, sizeof line);
            if (print)
                fprintf(stderr, "%s\n", line);
            n++;
        }
    }
    return n;
}

#endif
