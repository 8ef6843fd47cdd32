/* Fuzzes the radeon stream validator (radeon_check.h). Byte 0 bit 0 picks
 * the input form:
 *   0: binary. Byte 0 bit 1: the generation (r600, r700); byte 1 bits 3:0:
 *      the number of buffers; each buffer is 6 bytes (size: 4 bytes
 *      little-endian, domain: 1 byte, GPU address flag and bits 31:24: 1
 *      byte); the rest is the IB.
 *   1: the rest is assembler source with .bo directives (the first section
 *      is checked).
 * Invariants (a breach aborts): every violation has a rule id, a message and
 * a `where` inside the IB or at its end (for reloc-domain: inside the
 * relocation chunk), and the items checked never exceed the IB's dwords. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/radeon_check.h"

static void verify(const cg_check_report *r, size_t ib_size, size_t nbos)
{
    if (r->checked > ib_size / 4 + 1) {
        fprintf(stderr, "checked %zu items in %zu bytes\n", r->checked, ib_size);
        abort();
    }
    for (size_t i = 0; i < r->n; i++) {
        const cg_check_violation *v = &r->v[i];
        /* IB rules may point at the IB end (a relocation NOP missing there,
         * an empty IB); reloc-domain points at a relocation. */
        bool reloc = strcmp(v->rule, "reloc-domain") == 0;
        uint64_t limit = reloc ? 16 * (uint64_t)nbos - 1 : ib_size;
        if (!v->rule[0] || v->where > limit || !v->message[0]) {
            fprintf(stderr, "bad violation %s at 0x%llx (limit 0x%llx): %s\n", v->rule,
                    (unsigned long long)v->where, (unsigned long long)limit, v->message);
            abort();
        }
    }
}

static void binary(const uint8_t *data, size_t size)
{
    if (size < 2)
        return;
    cg_radeon_check_opts o = {.gen = data[0] & 2 ? CG_RADEON_R700 : CG_RADEON_R600};
    size_t nbos = data[1] & 15, off = 2;
    cg_radeon_check_bo bos[16];
    for (size_t i = 0; i < nbos; i++, off += 6) {
        if (off + 6 > size)
            return;
        const uint8_t *b = data + off;
        bos[i] = (cg_radeon_check_bo){
            .size = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
                    (uint64_t)b[3] << 24,
            .domains = b[4], .has_gpu_addr = b[5] & 1, .gpu_addr = (uint64_t)b[5] << 24};
    }
    o.bos = bos;
    o.nbos = nbos;
    cg_check_report r;
    cg_check_report_init(&r);
    if (cg_radeon_check(&o, data + off, size - off, &r) != 0)
        abort();
    verify(&r, size - off, nbos);
    cg_check_report_free(&r);
}

static void source(const uint8_t *data, size_t size)
{
    cg_radeon_check_src *s;
    cg_asm *as;
    if (cg_radeon_check_src_create(CG_RADEON_R600, &s) != 0)
        return;
    if (cg_asm_create(cg_radeon_check_asm_family(), s, &as) != 0) {
        cg_radeon_check_src_destroy(s);
        return;
    }
    cg_asm_add_source(as, "fuzz.s", (const char *)data, size);
    if (cg_asm_assemble(as) == 0) {
        cg_check_report r;
        cg_check_report_init(&r);
        int rc = cg_radeon_check_src_run(s, as, NULL, &r);
        const char *name;
        uint64_t base;
        const uint8_t *bytes;
        size_t n = 0;
        if (cg_asm_section_count(as))
            cg_asm_section(as, 0, &name, &base, &bytes, &n);
        if (rc == 0)
            verify(&r, n, cg_radeon_check_src_bo_count(s));
        else if (rc != CG_ERR_NOENT && rc != CG_ERR_UNSUPPORTED)
            abort();
        cg_check_report_free(&r);
    }
    cg_asm_destroy(as);
    cg_radeon_check_src_destroy(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    if (data[0] & 1)
        source(data + 1, size - 1);
    else
        binary(data, size);
    return 0;
}
