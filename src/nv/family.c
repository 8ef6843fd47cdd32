/* nv family: its descriptor (include/cmdgpu/family.h), the one way core
 * and the command reach it, and the glue of its text tools (pushbuffers,
 * macros, shader code), check and hang report to the contract's shapes. */
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/nv_check.h"
#include "cmdgpu/nv_macro.h"
#include "cmdgpu/nv_sass.h"
#include "core/internal.h"
#include "scene.h"

static const char *S(const char *s) { return s ? s : ""; }

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int check_opts(const cg_text_opts *o, char *msg, size_t cap)
{
    uint32_t sc[8];
    return nv_subch_of(o, sc, msg, cap);
}

/* ---- pushbuffers ------------------------------------------------------------- */

/* Methods by name per class; bytes after the last whole word as a .byte
 * line, or with JSON a "tail" member spliced into the listing's object, so
 * that asm(disasm(x)) == x for any bytes. */
static int pb_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    char msg[160];
    cg_nv_disasm_opts d = {.base = o->base, .json = o->json, .c_reset = o->c_reset,
                           .c_name = o->c_name, .c_num = o->c_num, .c_addr = o->c_addr,
                           .c_err = o->c_err, .c_comment = o->c_comment};
    if (nv_subch_of(o, d.subch_class, msg, sizeof msg))
        return CG_ERR_INVAL;
    size_t n = size / 4;
    uint32_t *w = malloc(n ? n * 4 : 4);
    if (!w)
        return CG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        w[i] = le32(data + 4 * i);
    char *js = NULL;
    size_t jlen = 0;
    FILE *dst = o->json && size % 4 ? open_memstream(&js, &jlen) : out;
    if (!dst) {
        free(w);
        return CG_ERR_NOMEM;
    }
    int rc = cg_nv_disasm(w, n, &d, dst);
    free(w);
    if (dst != out) {
        bool ok = fclose(dst) == 0 && jlen >= 2 && js[jlen - 2] == '}';
        if (ok && rc >= 0) {
            fwrite(js, 1, jlen - 2, out);
            fputs(",\"tail\":[", out);
            for (size_t i = n * 4; i < size; i++)
                fprintf(out, "%s%u", i > n * 4 ? "," : "", data[i]);
            fputs("]}\n", out);
        }
        free(js);
        if (!ok && rc >= 0)
            rc = CG_ERR_NOMEM;
    } else if (rc >= 0 && !o->json) {
        cg_text_tail(o, "", data, n * 4, size, out);
    }
    return rc;
}

/* `asm -f nv`: the scene assembler without a scene. */
static int pb_assembler(const cg_text_opts *o, cg_asm **out)
{
    return nv_scene_assembler(o, NULL, out);
}

/* ---- macros -------------------------------------------------------------------- */

static int macro_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    size_t n = size / 4;
    char text[128];
    if (o->json)
        fprintf(out, "{\"family\":\"nv-macro\",\"size\":%zu,\"instructions\":[", size);
    else
        fprintf(out, "%s# nv-macro: %zu instructions (%zu bytes)%s\n", S(o->c_comment), n, size,
                S(o->c_reset));
    for (size_t i = 0; i < n; i++) {
        uint32_t w = le32(data + 4 * i);
        const char *note;
        cg_nv_macro_disasm_word(w, (uint32_t)i, text, sizeof text, &note);
        if (o->json) /* the text has no characters that need escaping */
            fprintf(out, "%s{\"offset\":%zu,\"word\":\"0x%08x\",\"text\":\"%s\",\"note\":\"%s\"}",
                    i ? "," : "", 4 * i, w, text, note ? note : "");
        else
            fprintf(out, "    %s%-44s%s %s# 0x%04zx: 0x%08x%s%s%s\n", S(o->c_name), text,
                    S(o->c_reset), S(o->c_comment), 4 * i, w, note ? " [" : "", note ? note : "",
                    note ? "]" : "");
    }
    if (o->json) {
        fprintf(out, "],\"tail\":[");
        for (size_t i = n * 4; i < size; i++)
            fprintf(out, "%s%u", i > n * 4 ? "," : "", data[i]);
        fprintf(out, "]}\n");
    } else {
        cg_text_tail(o, "    ", data, n * 4, size, out);
    }
    return 0;
}

static int macro_assembler(const cg_text_opts *o, cg_asm **out)
{
    (void)o;
    return cg_asm_create(cg_nv_macro_asm_family(), NULL, out);
}

/* ---- shader code ----------------------------------------------------------------- */

static void sass_json(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out,
                      bool sph)
{
    size_t start = 0;
    fprintf(out, "{\"family\":\"%s\",\"size\":%zu,", sph ? "nv-sass-sph" : "nv-sass", size);
    if (sph) {
        fprintf(out, "\"sph\":");
        cg_nv_sph_print(data, size, out, true);
        fprintf(out, ",");
        start = size < CG_NV_SPH_SIZE ? size : CG_NV_SPH_SIZE;
    }
    fprintf(out, "\"code\":[");
    char text[256];
    size_t n = (size - start) / 8;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = data + start + 8 * i;
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--)
            w = w << 8 | p[b];
        uint64_t pc = start + 8 * i;
        if (i % 4 == 0)
            cg_nv_sass_disasm_sched(w, text, sizeof text);
        else
            cg_nv_sass_disasm_insn(w, pc, text, sizeof text);
        /* the text has no characters that need escaping */
        fprintf(out, "%s{\"offset\":%llu,\"word\":\"0x%016llx\",\"kind\":\"%s\",\"text\":\"%s\"}",
                i ? "," : "", (unsigned long long)pc, (unsigned long long)w,
                i % 4 ? "insn" : "sched", text);
    }
    fprintf(out, "],\"tail\":[");
    for (size_t i = start + n * 8; i < size; i++)
        fprintf(out, "%s%u", i > start + n * 8 ? "," : "", data[i]);
    fprintf(out, "]}\n");
    (void)o;
}

static int sass_text(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out,
                     bool sph)
{
    if (o->json) {
        sass_json(o, data, size, out, sph);
        return 0;
    }
    size_t start = 0;
    fprintf(out, "%s# %s: %zu bytes%s\n", S(o->c_comment), sph ? "nv-sass-sph" : "nv-sass", size,
            S(o->c_reset));
    if (sph) {
        start = size < CG_NV_SPH_SIZE ? size : CG_NV_SPH_SIZE;
        cg_nv_sph_print(data, start, out, false);
    }
    cg_nv_sass_disasm(data + start, size - start, start, out);
    return 0;
}

static int sass_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    return sass_text(o, data, size, out, false);
}

/* -f nv-sass-sph reads and prints the 0x50-byte shader program header first. */
static int sass_sph_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    return sass_text(o, data, size, out, true);
}

static int sass_assembler(const cg_text_opts *o, cg_asm **out)
{
    (void)o;
    void *state = calloc(1, cg_nv_sass_asm_state_size());
    if (!state)
        return CG_ERR_NOMEM;
    int rc = cg_asm_create(cg_nv_sass_asm_family(), state, out);
    if (rc) {
        free(state);
        return rc;
    }
    cg_asm_own_user(*out, free);
    return 0;
}

/* ---- check ------------------------------------------------------------------------- */

/* An nv scene (the .s files `cmdgpu run -f nv` takes): its .buffer
 * mappings, .section bytes and .submit entries, without running anything
 * (docs/nv-check.md). */
static int check(const cg_text_opts *o, const char *path, cg_check_report *r, FILE *errors,
                 char *msg, size_t cap)
{
    (void)o;
    int rc = cg_nv_check_scene(path, NULL, 0, r, errors);
    char why[128];
    if (rc && rc != CG_ERR_SYNTAX)
        snprintf(msg, cap, "cannot read '%s': %s", path, cg_file_why(path, rc, why, sizeof why));
    return rc;
}

/* ---- hang report ------------------------------------------------------------------ */

static int hang_create(cg_device *dev, void **rec)
{
    return cg_nv_hang_recorder_create(dev, (cg_nv_hang_recorder **)rec);
}

static void hang_destroy(void *rec) { cg_nv_hang_recorder_destroy(rec); }

static int hang_report(const void *rec, bool json, FILE *out)
{
    return cg_nv_hang_report(rec, json, out);
}

static const cg_hang_ops hang = {hang_create, hang_destroy, hang_report};

/* ---- the descriptor ---------------------------------------------------------------- */

static const cg_text_format fmt_nv = {
    .name = "nv",
    .description = "NVIDIA Maxwell (Tegra X1): GPFIFO, pushbuffers, classes",
    .family = &cg_nv_family,
    .disasm = pb_disasm,
    .assembler = pb_assembler,
    .scenes = true,
    .takes = CG_TEXT_TAKES_SUBCH,
};

static const cg_text_format fmt_macro = {
    .name = "nv-macro",
    .description = "NVIDIA Maxwell macro engine (MME) code (disasm/asm)",
    .family = &cg_nv_family,
    .disasm = macro_disasm,
    .assembler = macro_assembler,
};

static const cg_text_format fmt_sass = {
    .name = "nv-sass",
    .description = "NVIDIA Maxwell shader code, SM50/SM52 (disasm/asm)",
    .family = &cg_nv_family,
    .disasm = sass_disasm,
    .assembler = sass_assembler,
};

static const cg_text_format fmt_sass_sph = {
    .name = "nv-sass-sph",
    .description = "NVIDIA Maxwell shader program header + code (disasm/asm)",
    .family = &cg_nv_family,
    .disasm = sass_sph_disasm,
    .assembler = sass_assembler,
};

static const cg_text_format *const formats[] = {&fmt_nv, &fmt_macro, &fmt_sass, &fmt_sass_sph};
static const cg_capture_desc *const captures[] = {&nv_push_raw_capture};

const cg_family_desc cg_nv_family = {
    .id = CG_FAMILY_NV,
    .name = "nv",
    .description = "NVIDIA Maxwell as in the Tegra X1: nvmap, GPFIFO, pushbuffers, classes, "
                   "macros, SASS",
    .formats = formats,
    .nformats = CG_ARRAY_SIZE(formats),
    .scene = &nv_scene_ops,
    .captures = captures,
    .ncaptures = CG_ARRAY_SIZE(captures),
    .hang = &hang,
    .kernel = &nv_kernel_ops,
    .check = check,
    .check_opts = check_opts,
    .demos = nv_demos,
    .ndemos = CG_ARRAY_SIZE(nv_demos),
    .report_scene = "nv/textured_square.s",
    .report_page = "textured_square.html",
};
