/* vc4 family: its descriptor (include/cmdgpu/family.h), the one way core
 * and the command reach it, and the glue of its text tools, check and hang
 * report to the contract's shapes. */
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/vc4_check.h"
#include "cmdgpu/vc4_qpu.h"
#include "core/internal.h"
#include "core/json.h"
#include "scene.h"

static const char *S(const char *s) { return s ? s : ""; }

/* ---- control lists ------------------------------------------------------------ */

static int cl_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    cg_vc4_disasm_opts d = {.base = (uint32_t)o->base, .prim_format = 0x12, .json = o->json,
                            .c_name = o->c_name, .c_num = o->c_num, .c_addr = o->c_addr,
                            .c_err = o->c_err, .c_comment = o->c_comment, .c_reset = o->c_reset};
    return cg_vc4_cl_disasm(&d, data, size, out);
}

/* `asm -f vc4`: the scene assembler without a scene. */
static int cl_assembler(const cg_text_opts *o, cg_asm **out)
{
    return vc4_scene_assembler(o, NULL, out);
}

/* ---- QPU code ------------------------------------------------------------------ */

/* vc4asm's dialect (docs/vc4-qpu.md), one instruction a line with its
 * words and the decoder's notes in a comment; bytes after the last whole
 * instruction as .byte. */
static int qpu_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    size_t n = size / 8;
    char text[512], notes[512];
    if (o->json)
        fprintf(out, "{\"family\":\"vc4-qpu\",\"size\":%zu,\"instructions\":[", size);
    else
        fprintf(out, "%s# vc4-qpu: %zu instructions (%zu bytes)%s\n", S(o->c_comment), n, size,
                S(o->c_reset));
    for (size_t i = 0; i < n; i++) {
        uint64_t ins = cg_vc4_qpu_word(data + 8 * i);
        uint32_t lo = (uint32_t)ins, hi = (uint32_t)(ins >> 32);
        cg_vc4_qpu_confidence conf;
        cg_vc4_qpu_disasm(ins, (uint32_t)(8 * i), text, sizeof text, notes, sizeof notes, &conf);
        if (o->json) {
            fprintf(out, "%s{\"offset\":%zu,\"words\":[\"0x%08x\",\"0x%08x\"],\"text\":",
                    i ? "," : "", 8 * i, lo, hi);
            cg_json_fput(out, text);
            fprintf(out, ",\"notes\":");
            cg_json_fput(out, notes);
            fprintf(out, ",\"confidence\":\"%s\"}", cg_vc4_qpu_confidence_name(conf));
        } else {
            fprintf(out, "    %s%-52s%s %s# 0x%04zx: 0x%08x 0x%08x%s%s%s\n", S(o->c_name), text,
                    S(o->c_reset), S(o->c_comment), 8 * i, lo, hi, notes[0] ? " [" : "", notes,
                    notes[0] ? "]" : "");
            if (notes[0] && S(o->c_reset)[0])
                fputs(o->c_reset, out);
        }
    }
    if (o->json) {
        fprintf(out, "],\"tail\":[");
        for (size_t i = n * 8; i < size; i++)
            fprintf(out, "%s%u", i > n * 8 ? "," : "", data[i]);
        fprintf(out, "]}\n");
        return 0;
    }
    if (size % 8) {
        fprintf(out, "    %s# %zu trailing bytes, not a whole instruction%s\n", S(o->c_comment),
                size % 8, S(o->c_reset));
        cg_text_tail(o, "    ", data, n * 8, size, out);
    }
    return 0;
}

static int qpu_assembler(const cg_text_opts *o, cg_asm **out)
{
    (void)o;
    return cg_asm_create(cg_vc4_qpu_asm_family(), NULL, out);
}

/* ---- check ----------------------------------------------------------------------- */

/* A DRM_IOCTL_VC4_SUBMIT_CL job written as a scene (docs/vc4-check.md), or
 * a bare-metal scene whose first `.kick 0` list is checked as the bin CL. */
static int check(const cg_text_opts *o, const char *path, cg_check_report *r, FILE *errors,
                 char *msg, size_t cap)
{
    cg_asm *as = NULL;
    cg_scene *sc = cg__scene_new(&cg_vc4_family);
    if (!sc)
        return CG_ERR_NOMEM;
    int rc = vc4_scene_assembler(o, sc, &as);
    if (rc == 0)
        cg__scene_set_sections(sc, as);
    if (rc == 0)
        rc = cg__asm_load(as, path, errors, msg, cap);
    if (rc == 0) {
        char err[256];
        rc = cg_vc4_check_scene(sc, r, err, sizeof err);
        if (rc)
            snprintf(msg, cap, "check: %s", err[0] ? err : cg_strerror(rc));
    }
    cg_scene_destroy(sc);
    return rc;
}

/* ---- hang report ------------------------------------------------------------------ */

static int hang_create(cg_device *dev, void **rec)
{
    return cg_vc4_hang_recorder_create(dev, (cg_vc4_hang_recorder **)rec);
}

static void hang_destroy(void *rec) { cg_vc4_hang_recorder_destroy(rec); }

static int hang_report(const void *rec, bool json, FILE *out)
{
    return cg_vc4_hang_report(rec, json, out);
}

static const cg_hang_ops hang = {hang_create, hang_destroy, hang_report};

/* ---- report ------------------------------------------------------------------------ */

static void group_title(const cg_stream_item *first, size_t count, char *buf, size_t cap)
{
    snprintf(buf, cap, "thread %s (%s) \u00b7 from 0x%08llx \u00b7 %zu record%s", first->unit,
             first->channel == 0 ? "binning" : "rendering", (unsigned long long)first->addr,
             count, count == 1 ? "" : "s");
}

/* Branch_to_sub_list (17) runs a sub-list until Return_from_sub_list (18). */
static int nest(const cg_stream_item *it, uint64_t *ret)
{
    *ret = 0;
    if (it->nbytes && it->bytes[0] == VC4_OP_Branch_to_sub_list)
        return 1;
    return it->nbytes && it->bytes[0] == VC4_OP_Return_from_sub_list ? -1 : 0;
}

static const cg_report_ops report = {group_title, nest, "sub-list", true};

/* ---- the descriptor ---------------------------------------------------------------- */

static const cg_text_format fmt_vc4 = {
    .name = "vc4",
    .description = "Broadcom VideoCore IV V3D: control lists, binner, renderer, scenes",
    .family = &cg_vc4_family,
    .disasm = cl_disasm,
    .assembler = cl_assembler,
    .scenes = true,
};

static const cg_text_format fmt_vc4_cl = {
    .name = "vc4-cl",
    .description = "Broadcom VideoCore IV V3D control lists (as vc4)",
    .family = &cg_vc4_family,
    .disasm = cl_disasm,
    .assembler = cl_assembler,
    .scenes = true,
};

static const cg_text_format fmt_vc4_qpu = {
    .name = "vc4-qpu",
    .description = "VideoCore IV QPU shader code (disasm/asm; run: user programs on N QPUs)",
    .family = &cg_vc4_family,
    .disasm = qpu_disasm,
    .assembler = qpu_assembler,
    .run_program = vc4_run_program,
};

static const cg_text_format *const formats[] = {&fmt_vc4, &fmt_vc4_cl, &fmt_vc4_qpu};
static const cg_capture_desc *const captures[] = {&vc4_hang_capture, &vc4_cl_dump_capture};

const cg_family_desc cg_vc4_family = {
    .id = CG_FAMILY_VC4,
    .name = "vc4",
    .description = "Broadcom VideoCore IV (Raspberry Pi): mailbox, control lists, binner, tiles, "
                   "QPUs",
    .formats = formats,
    .nformats = CG_ARRAY_SIZE(formats),
    .scene = &vc4_scene_ops,
    .captures = captures,
    .ncaptures = CG_ARRAY_SIZE(captures),
    .hang = &hang,
    .report = &report,
    .check = check,
    .demos = vc4_demos,
    .ndemos = 1,
    .report_scene = "vc4/first_triangle.s",
    .report_page = "first_triangle.html",
};
