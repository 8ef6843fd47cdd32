/* The round-trip promise of every library disassembler, asm(disasm(x)) == x
 * for any bytes x, through the public text APIs and the shared assembler
 * (cmdgpu/asm.h) with the family's plug-in, as `cmdgpu asm` does.
 *
 * Input: byte 0 picks the disassembler, the rest is x.
 *   bits 6:0 mod 10: 0 nv (pushbuffer, cg_nv_disasm), 1 nv-macro
 *     (cg_nv_macro_disasm_word), 2 nv-sass (cg_nv_sass_disasm), 3 nv-sass-sph
 *     (cg_nv_sass_disasm_string with the header), 4 vc4 control list
 *     (cg_vc4_cl_disasm), 5 vc4-qpu (cg_vc4_qpu_disasm_buffer), 6..9 radeon
 *     (cg_radeon_disasm; r600, r700, evergreen, r500; x is also the memory
 *     image at 0, so INDIRECT_BUFFERs into it are followed as the CLI does)
 *   bit 7: colour escapes on (nv, vc4, radeon take them); they are removed
 *     before assembling, as a terminal user copying the text would.
 * nv, nv-macro and vc4-qpu disassemble whole words only; the bytes after
 * the last whole word are written as a `.byte` line, as the CLI front ends
 * (tools/) do. The raw family's disassembler exists only in tools/ and is
 * covered by tests/cli_roundtrip.sh.
 *
 * Any difference (the assembler rejecting the text, more than one section,
 * other bytes) prints the text and aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"

enum { D_NV, D_MACRO, D_SASS, D_SPH, D_VC4, D_QPU, D_RADEON, NDIS = D_RADEON + 4 };

static const char *const dis_name[NDIS] = {"nv",     "nv-macro",    "nv-sass",
                                           "nv-sass-sph", "vc4", "vc4-qpu",
                                           "radeon r600", "radeon r700",
                                           "radeon evergreen", "radeon r500"};
static const cg_radeon_gen radeon_gen[4] = {CG_RADEON_R600, CG_RADEON_R700,
                                            CG_RADEON_EVERGREEN, CG_RADEON_R500};

/* Colours: distinct escapes so that a misplaced one shows. */
#define C_NAME "\x1b[1;34m"
#define C_NUM "\x1b[36m"
#define C_ADDR "\x1b[33m"
#define C_ERR "\x1b[1;31m"
#define C_COMMENT "\x1b[2m"
#define C_RESET "\x1b[0m"

static void print_tail(FILE *out, const uint8_t *x, size_t from, size_t size)
{
    if (from >= size)
        return;
    fputs(".byte ", out);
    for (size_t i = from; i < size; i++)
        fprintf(out, "%s0x%02x", i > from ? ", " : "", x[i]);
    fputc('\n', out);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Write the disassembly of x to out. */
static void disassemble(int d, bool color, const uint8_t *x, size_t size, FILE *out)
{
    switch (d) {
    case D_NV: {
        size_t n = size / 4;
        uint32_t *w = malloc(n ? n * 4 : 4);
        if (!w)
            abort();
        for (size_t i = 0; i < n; i++)
            w[i] = le32(x + 4 * i);
        cg_nv_disasm_opts o = {.base = 0};
        if (color)
            o.c_name = C_NAME, o.c_num = C_NUM, o.c_addr = C_ADDR, o.c_err = C_ERR,
            o.c_comment = C_COMMENT, o.c_reset = C_RESET;
        cg_nv_disasm(w, n, &o, out);
        free(w);
        print_tail(out, x, n * 4, size);
        break;
    }
    case D_MACRO: {
        char text[128];
        size_t n = size / 4;
        for (size_t i = 0; i < n; i++) {
            const char *note;
            cg_nv_macro_disasm_word(le32(x + 4 * i), (uint32_t)i, text, sizeof text, &note);
            fprintf(out, "    %s  # 0x%04zx%s%s\n", text, 4 * i, note ? " " : "",
                    note ? note : "");
        }
        print_tail(out, x, n * 4, size);
        break;
    }
    case D_SASS:
        cg_nv_sass_disasm(x, size, 0, out);
        break;
    case D_SPH: {
        char *text = cg_nv_sass_disasm_string(x, size, true);
        if (!text)
            abort();
        fputs(text, out);
        free(text);
        break;
    }
    case D_VC4: {
        cg_vc4_disasm_opts o = {.base = 0, .prim_format = 0x12};
        if (color)
            o.c_name = C_NAME, o.c_num = C_NUM, o.c_addr = C_ADDR, o.c_err = C_ERR,
            o.c_comment = C_COMMENT, o.c_reset = C_RESET;
        cg_vc4_cl_disasm(&o, x, size, out);
        break;
    }
    case D_QPU: {
        size_t len = cg_vc4_qpu_disasm_buffer(x, size, 0, NULL, 0);
        char *text = malloc(len + 1);
        if (!text)
            abort();
        cg_vc4_qpu_disasm_buffer(x, size, 0, text, len + 1);
        fputs(text, out);
        free(text);
        print_tail(out, x, size / 8 * 8, size);
        break;
    }
    default: {
        cg_radeon_disasm_opts o = {.gen = radeon_gen[d - D_RADEON], .image = x,
                                   .image_size = size, .image_base = 0};
        if (color)
            o.c_name = C_NAME, o.c_num = C_NUM, o.c_addr = C_ADDR, o.c_err = C_ERR,
            o.c_comment = C_COMMENT, o.c_reset = C_RESET;
        cg_radeon_disasm(&o, x, size, out);
        break;
    }
    }
}

/* Remove every ESC [ ... m sequence in place; returns the new length. */
static size_t strip_escapes(char *t, size_t len)
{
    size_t j = 0;
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '\x1b' && i + 1 < len && t[i + 1] == '[') {
            size_t k = i + 2;
            while (k < len && ((t[k] >= '0' && t[k] <= '9') || t[k] == ';'))
                k++;
            if (k < len && t[k] == 'm') {
                i = k;
                continue;
            }
        }
        t[j++] = t[i];
    }
    t[j] = '\0';
    return j;
}

static void fail(int d, bool color, const char *why, const char *text, size_t size)
{
    fprintf(stderr, "round trip of %s%s (%zu bytes) failed: %s\n--- text ---\n%s",
            dis_name[d], color ? " with colour" : "", size, why, text);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int d = (data[0] & 0x7f) % NDIS;
    bool color = (data[0] & 0x80) != 0;
    const uint8_t *x = data + 1;
    size--;

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return 0;
    disassemble(d, color, x, size, out);
    if (fclose(out) != 0 || !text)
        abort();
    if (color)
        len = strip_escapes(text, len);

    /* The family's assembler state, as `cmdgpu asm -f FAMILY` makes it. */
    const cg_asm_family *fam;
    void *user = NULL;
    cg_nv_asm *nv = NULL;
    cg_vc4_asm *vc4 = NULL;
    cg_radeon_asm *rad = NULL;
    switch (d) {
    case D_NV:
        if (cg_nv_asm_new(NULL, &nv) != 0)
            abort();
        fam = cg_nv_asm_family(), user = nv;
        break;
    case D_MACRO:
        fam = cg_nv_macro_asm_family();
        break;
    case D_SASS:
    case D_SPH:
        user = calloc(1, cg_nv_sass_asm_state_size());
        if (!user)
            abort();
        fam = cg_nv_sass_asm_family();
        break;
    case D_VC4:
        if (cg_vc4_asm_create(&vc4) != 0)
            abort();
        fam = cg_vc4_asm_family(), user = vc4;
        break;
    case D_QPU:
        fam = cg_vc4_qpu_asm_family();
        break;
    default:
        if (cg_radeon_asm_create(radeon_gen[d - D_RADEON], &rad) != 0)
            abort();
        fam = cg_radeon_asm_family(), user = rad;
        break;
    }

    cg_asm *as;
    if (cg_asm_create(fam, user, &as) != 0 || cg_asm_add_source(as, "x.s", text, len) != 0)
        abort();
    if (cg_asm_assemble(as) != 0)
        fail(d, color, cg_asm_errors(as), text, size);
    const uint8_t *y = NULL;
    size_t m = 0;
    size_t nsec = cg_asm_section_count(as);
    if (nsec > 1)
        fail(d, color, "more than one section", text, size);
    if (nsec == 1) {
        const char *name;
        uint64_t base;
        cg_asm_section(as, 0, &name, &base, &y, &m);
        if (base != 0)
            fail(d, color, "section base is not 0", text, size);
    }
    if (m != size || (size && memcmp(x, y, size) != 0)) {
        size_t i = 0;
        while (i < size && i < m && x[i] == y[i])
            i++;
        char why[96];
        snprintf(why, sizeof why, "%zu bytes back, first difference at byte %zu", m, i);
        fail(d, color, why, text, size);
    }
    cg_asm_destroy(as);
    if (d == D_SASS || d == D_SPH)
        free(user);
    cg_nv_asm_free(nv);
    cg_vc4_asm_destroy(vc4);
    cg_radeon_asm_destroy(rad);
    free(text);
    return 0;
}
