/* Shared by the vc4 QPU tests: assemble QPU text (docs/vc4-qpu.md syntax)
 * placed at `at`; the bytes go to `put` (the test's bus or device). A
 * failed assembly prints the assembler's errors and counts as a failed
 * CHECK. Returns the bytes written. */
#ifndef CMDGPU_TEST_QPU_TEXT_H
#define CMDGPU_TEST_QPU_TEXT_H
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/asm.h"
#include "cmdgpu/vc4_qpu.h"

static inline size_t qpu_text_load(uint32_t at, const char *src, const char *tail,
                                   int (*put)(void *ctx, uint32_t at, const void *p, size_t n),
                                   void *ctx)
{
    cg_asm *as;
    CHECK_EQ(cg_asm_create(cg_vc4_qpu_asm_family(), NULL, &as), 0);
    char buf[8192];
    snprintf(buf, sizeof buf, ".section text, 0x%x\n%s\n%s", at, src, tail ? tail : "");
    cg_asm_add_source(as, "t.s", buf, strlen(buf));
    int rc = cg_asm_assemble(as);
    if (rc)
        fprintf(stderr, "%s", cg_asm_errors(as));
    CHECK_EQ(rc, 0);
    const char *name;
    uint64_t base;
    const uint8_t *data;
    size_t size = 0;
    if (!rc && cg_asm_section_count(as)) {
        cg_asm_section(as, 0, &name, &base, &data, &size);
        CHECK_EQ(base, at);
        CHECK_EQ(put(ctx, at, data, size), 0);
    }
    cg_asm_destroy(as);
    return size;
}

#endif
