/* radeon family: its descriptor (include/cmdgpu/family.h), the one way
 * core and the command reach it, and the glue of its text tools, check
 * and hang report to the contract's shapes. */
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/radeon_check.h"
#include "core/internal.h"
#include "scene.h"
#include "text/isa_text.h"

/* radeon-isa reads R600 and R700 code only. */
static int isa_chip(const cg_text_opts *o, r6_chip *c, char *msg, size_t cap)
{
    cg_radeon_gen g;
    int rc = rd_gen_of(o, &g, msg, cap);
    if (rc)
        return rc;
    if (g != CG_RADEON_R600 && g != CG_RADEON_R700) {
        snprintf(msg, cap, "--gen: radeon-isa is the R600/R700 shader ISA (r600, r700), not %s",
                 cg_radeon_gen_name(g));
        return CG_ERR_INVAL;
    }
    *c = g == CG_RADEON_R700 ? R6_R700 : R6_R600;
    return 0;
}

static int check_opts(const cg_text_opts *o, char *msg, size_t cap)
{
    cg_radeon_gen g;
    r6_chip c;
    if (o && o->family && strcmp(o->family, "radeon-isa") == 0)
        return isa_chip(o, &c, msg, cap);
    return rd_gen_of(o, &g, msg, cap);
}

/* The input is also the memory image, loaded at GPU address 0: an
 * INDIRECT_BUFFER pointing inside it is followed. */
static int disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    char msg[128];
    cg_radeon_gen g;
    if (rd_gen_of(o, &g, msg, sizeof msg) != 0)
        return CG_ERR_INVAL;
    cg_radeon_disasm_opts d = {.gen = g, .json = o->json, .base = o->base, .image = data,
                               .image_size = size, .image_base = 0, .c_name = o->c_name,
                               .c_num = o->c_num, .c_addr = o->c_addr, .c_err = o->c_err,
                               .c_comment = o->c_comment, .c_reset = o->c_reset};
    return cg_radeon_disasm(&d, data, size, out);
}

/* `asm -f radeon`: the scene assembler without a scene (directives are
 * read and checked, nothing is recorded). */
static int assembler(const cg_text_opts *o, cg_asm **out)
{
    return rd_scene_assembler(o, NULL, out);
}

/* `disasm -f radeon-isa`: a shader program from its first CF instruction
 * (docs/radeon-isa.md). */
static int isa_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    char msg[128];
    r6_chip c;
    if (isa_chip(o, &c, msg, sizeof msg) != 0)
        return CG_ERR_INVAL;
    rd_isa_opts d = {.chip = c, .json = o->json, .c_name = o->c_name, .c_num = o->c_num,
                     .c_addr = o->c_addr, .c_err = o->c_err, .c_comment = o->c_comment,
                     .c_reset = o->c_reset};
    return rd_isa_disasm(&d, data, size, out);
}

/* `asm -f radeon-isa`: the chip from `.chip`, else --gen. */
static int isa_assembler(const cg_text_opts *o, cg_asm **out)
{
    char msg[128];
    r6_chip c;
    if (isa_chip(o, &c, msg, sizeof msg) != 0)
        return CG_ERR_INVAL;
    rd_isa_asm_state *st = calloc(1, sizeof *st);
    if (!st)
        return CG_ERR_NOMEM;
    st->chip = st->dflt = c;
    int rc = cg_asm_create(rd_isa_asm_family(), st, out);
    if (rc) {
        free(st);
        return rc;
    }
    cg_asm_own_user(*out, free);
    return 0;
}

/* ---- check ------------------------------------------------------------------- */

/* The source's .bo directives declare the relocation chunk (a binary IB
 * comes in with .incbin); the IB is the section o->section names, else the
 * first one (docs/radeon-check.md). */
static int check(const cg_text_opts *o, const char *path, cg_check_report *r, FILE *errors,
                 char *msg, size_t cap)
{
    cg_radeon_gen g;
    int rc = rd_gen_of(o, &g, msg, cap);
    cg_radeon_check_src *s = NULL;
    cg_asm *as = NULL;
    if (rc == 0 && (rc = cg_radeon_check_src_create(g, &s)) == 0 &&
        (rc = cg_asm_create(cg_radeon_check_asm_family(), s, &as)) == 0)
        rc = cg__asm_load(as, path, errors, msg, cap);
    if (rc == 0) {
        rc = cg_radeon_check_src_run(s, as, o->section, r);
        if (rc == CG_ERR_NOENT && o->section)
            snprintf(msg, cap, "check: no section '%s' in '%s'", o->section, path);
        else if (rc == CG_ERR_NOENT)
            snprintf(msg, cap, "check: '%s' holds no IB (no section)", path);
        else if (rc == CG_ERR_UNSUPPORTED)
            snprintf(msg, cap, "check: only r600 and r700 streams can be checked; the evergreen "
                               "and r500 checkers are not supported yet");
        else if (rc < 0)
            snprintf(msg, cap, "check: %s", cg_strerror(rc));
    }
    cg_asm_destroy(as);
    cg_radeon_check_src_destroy(s);
    return rc;
}

/* ---- hang report ------------------------------------------------------------- */

static int hang_create(cg_device *dev, void **rec)
{
    return cg_radeon_hang_recorder_create(dev, (cg_radeon_hang_recorder **)rec);
}

static void hang_destroy(void *rec) { cg_radeon_hang_recorder_destroy(rec); }

static int hang_report(const void *rec, bool json, FILE *out)
{
    return cg_radeon_hang_report(rec, json, out);
}

static const cg_hang_ops hang = {hang_create, hang_destroy, hang_report};

/* ---- report ---------------------------------------------------------------------- */

static void group_title(const cg_stream_item *first, size_t count, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s ring %d \u00b7 from 0x%llx \u00b7 %zu packet%s", first->unit,
             (int)first->channel, (unsigned long long)first->addr, count, count == 1 ? "" : "s");
}

/* An INDIRECT_BUFFER (or _CONST) runs its IB, then the ring goes on right
 * after the 4-dword packet. */
static int nest(const cg_stream_item *it, uint64_t *ret)
{
    if (!it->name || strncmp(it->name, "INDIRECT_BUFFER", 15) != 0 ||
        strcmp(it->name, "INDIRECT_BUFFER_END") == 0)
        return 0;
    *ret = it->addr + 16;
    return 1;
}

static const cg_report_ops report = {group_title, nest, "indirect buffer", false};

/* ---- the descriptor ------------------------------------------------------------ */

static const cg_text_format fmt_radeon = {
    .name = "radeon",
    .description = "ATI/AMD R600-class CP: ring, PM4, indirect buffers",
    .family = &cg_radeon_family,
    .disasm = disasm,
    .assembler = assembler,
    .scenes = true,
    .takes = CG_TEXT_TAKES_GEN | CG_TEXT_TAKES_SECTION,
};

static const cg_text_format fmt_radeon_isa = {
    .name = "radeon-isa",
    .description = "R600/R700 shader code: CF, ALU, TEX and VTX clauses (--gen r600|r700)",
    .family = &cg_radeon_family,
    .disasm = isa_disasm,
    .assembler = isa_assembler,
    .takes = CG_TEXT_TAKES_GEN,
};

static const cg_text_format *const formats[] = {&fmt_radeon, &fmt_radeon_isa};
static const cg_capture_desc *const captures[] = {&rd_ringdump_capture};

const cg_family_desc cg_radeon_family = {
    .id = CG_FAMILY_RADEON,
    .name = "radeon",
    .description = "ATI/AMD R600/R700: ring, PM4 packets, indirect buffers, fences, interrupts",
    .formats = formats,
    .nformats = CG_ARRAY_SIZE(formats),
    .scene = &rd_scene_ops,
    .captures = captures,
    .ncaptures = CG_ARRAY_SIZE(captures),
    .hang = &hang,
    .report = &report,
    .check = check,
    .check_opts = check_opts,
    .demos = rd_demos,
    .ndemos = 1,
};
