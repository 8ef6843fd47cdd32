/* nv: the assembler plug-in (statements in cmdgpu/nv.h and docs/nv.md). It
 * takes the disassembler's output back (asm(disasm(x)) == x) and the scene
 * directives it records into a scene (nv/scene.h). */
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "nv/scene.h"
#include "nv/tables/sass.h"

static const uint32_t nvn_default[8] = {CG_NV_CLASS_3D, CG_NV_CLASS_COMPUTE, CG_NV_CLASS_I2M,
                                        CG_NV_CLASS_TWOD, CG_NV_CLASS_COPY, 0, 0, 0};

int cg_nv_asm_new(const uint32_t subch_class[8], cg_nv_asm **out)
{
    if (!out)
        return CG_ERR_INVAL;
    cg_nv_asm *a = calloc(1, sizeof(*a));
    if (!a)
        return CG_ERR_NOMEM;
    memcpy(a->init_sc, subch_class ? subch_class : nvn_default, sizeof(a->init_sc));
    memcpy(a->sc, a->init_sc, sizeof(a->sc));
    *out = a;
    return 0;
}

void cg_nv_asm_free(cg_nv_asm *a)
{
    free(a);
}

static int want_comma(cg_asm *as)
{
    return cg_asm_expect(as, ',');
}

static int parse_u32(cg_asm *as, uint32_t *v, const char *what)
{
    int64_t x = 0;
    *v = 0;
    int rc = cg_asm_expr(as, &x);
    if (rc)
        return rc;
    if (x < -(int64_t)0x80000000 || x > (int64_t)0xFFFFFFFF)
        return cg_asm_error(as, "%s 0x%llx does not fit in 32 bits", what, (unsigned long long)x);
    *v = (uint32_t)x;
    return 0;
}

static int parse_subch(cg_asm *as, unsigned *s)
{
    uint32_t v;
    int rc = parse_u32(as, &v, "subchannel");
    if (rc)
        return rc;
    if (v > 7)
        return cg_asm_error(as, "subchannel %u is not 0..7", v);
    *s = v;
    return 0;
}

/* METHOD: a name in the subchannel's class (then the host class), NAME(i),
 * or a byte offset expression. */
static int parse_method(cg_asm *as, cg_nv_asm *a, unsigned subch, uint32_t *off)
{
    char id[96];
    if (cg_asm_peek_ident(as, id, sizeof(id))) {
        const cg_nv_method *m = cg_nv_method_named(cg_nv_class_find(a->sc[subch]), id);
        if (!m)
            m = cg_nv_method_named(cg_nv_class_find(CG_NV_CLASS_HOST), id);
        if (m) {
            cg_asm_ident(as, id, sizeof(id));
            int64_t idx = 0;
            if (cg_asm_accept(as, '(')) {
                int rc = cg_asm_expr(as, &idx);
                if (rc || (rc = cg_asm_expect(as, ')')))
                    return rc;
            }
            if (idx < 0 || idx >= m->count)
                return cg_asm_error(as, "%s(%lld): index out of 0..%u", m->name, (long long)idx,
                                    m->count - 1);
            *off = m->offset + (uint32_t)idx * (m->stride ? m->stride : 4);
            return 0;
        }
    }
    int64_t v;
    int rc = cg_asm_expr(as, &v);
    if (rc)
        return rc;
    if (v < 0 || v > 0x7FFC || (v & 3))
        return cg_asm_error(as, "method 0x%llx is not a 4-aligned byte offset below 0x8000 "
                            "(or a name of class %04X)", (unsigned long long)v, a->sc[subch]);
    *off = (uint32_t)v;
    return 0;
}

static void track_object(cg_nv_asm *a, unsigned subch, uint32_t mthd, uint32_t v)
{
    if (mthd == 0 && (v & 0xFFFF) != CG_NV_CLASS_HOST && cg_nv_class_find(v & 0xFFFF))
        a->sc[subch] = v & 0xFFFF;
}

/* A scene directive's action, in the final pass (its strings are copied). */
static int add_act(cg_asm *as, cg_nv_asm *a, cg_scene_action *x)
{
    if (!cg_asm_final_pass(as) || !a->scene)
        return 0;
    x->type = cg_scene_kind_of(&cg_nv_family, x->kind)->role;
    return cg_scene_add_action(a->scene, x) == 0 ? 0 : cg_asm_error(as, "out of memory");
}

static int parse_u64(cg_asm *as, uint64_t *v)
{
    int64_t x = 0;
    *v = 0;
    int rc = cg_asm_expr(as, &x);
    if (!rc)
        *v = (uint64_t)x;
    return rc;
}

static int directive_buffer(cg_asm *as, cg_nv_asm *a)
{
    char id[NV_NAME_MAX + 1];
    int rc;
    if ((rc = cg_asm_ident(as, id, sizeof(id))) || (rc = want_comma(as)))
        return rc;
    uint64_t va, size, kind = 0, cached = 0;
    if ((rc = parse_u64(as, &va)) || (rc = want_comma(as)) || (rc = parse_u64(as, &size)))
        return rc;
    if (cg_asm_accept(as, ',') && (rc = parse_u64(as, &kind)))
        return rc;
    if (cg_asm_accept(as, ',') && (rc = parse_u64(as, &cached)))
        return rc;
    if ((rc = cg_asm_define(as, id, (int64_t)va)))
        return rc;
    cg_scene_action x = {.kind = NV_SA_BUFFER, .a = (int64_t)va, .b = (int64_t)size,
                         .c = (int64_t)kind, .d = (int64_t)cached, .s1 = -1, .s2 = -1,
                         .str1 = id, .str1_len = strlen(id)};
    return add_act(as, a, &x);
}

/* .submit START, END [, wait=SLOT] [, fence=SLOT] */
static int directive_submit(cg_asm *as, cg_nv_asm *a)
{
    uint64_t s, e;
    int rc;
    if ((rc = parse_u64(as, &s)) || (rc = want_comma(as)) || (rc = parse_u64(as, &e)))
        return rc;
    int ws = -1, fs = -1;
    while (cg_asm_accept(as, ',')) {
        char id[16];
        uint64_t slot;
        if ((rc = cg_asm_ident(as, id, sizeof(id))) || (rc = cg_asm_expect(as, '=')) ||
            (rc = parse_u64(as, &slot)))
            return rc;
        if (slot >= NV_SCENE_FENCES)
            return cg_asm_error(as, "fence slot %llu is not 0..%d", (unsigned long long)slot,
                                NV_SCENE_FENCES - 1);
        if (strcmp(id, "wait") == 0)
            ws = (int)slot;
        else if (strcmp(id, "fence") == 0)
            fs = (int)slot;
        else
            return cg_asm_error(as, ".submit takes wait=SLOT and fence=SLOT, not '%s'", id);
    }
    if (e < s || (e - s) % 4 || (s & 3))
        return cg_asm_error(as, ".submit: [0x%llx, 0x%llx) is not a whole number of words",
                            (unsigned long long)s, (unsigned long long)e);
    cg_scene_action x = {.kind = NV_SA_SUBMIT, .a = (int64_t)s, .b = (int64_t)e, .s1 = ws,
                         .s2 = fs};
    return add_act(as, a, &x);
}

/* .png VA, W, H, PITCH, "FORMAT", "FILE" */
static int directive_png(cg_asm *as, cg_nv_asm *a)
{
    uint64_t va, w, h, pitch;
    char fmt[32], path[NV_PATH_MAX + 1];
    size_t len;
    int rc;
    if ((rc = parse_u64(as, &va)) || (rc = want_comma(as)) || (rc = parse_u64(as, &w)) ||
        (rc = want_comma(as)) || (rc = parse_u64(as, &h)) || (rc = want_comma(as)) ||
        (rc = parse_u64(as, &pitch)) || (rc = want_comma(as)) ||
        (rc = cg_asm_string(as, fmt, sizeof(fmt), &len)) || (rc = want_comma(as)) ||
        (rc = cg_asm_string(as, path, sizeof(path), &len)))
        return rc;
    cg_format f;
    if (cg_format_from_name(fmt, &f) != 0)
        return cg_asm_error(as, ".png: unknown format \"%s\"", fmt);
    if (w == 0 || h == 0 || w > 16384 || h > 16384 || pitch < w * cg_format_bpp(f) ||
        pitch > (1u << 20))
        return cg_asm_error(as, ".png: bad size %llux%llu or pitch %llu", (unsigned long long)w,
                            (unsigned long long)h, (unsigned long long)pitch);
    cg_scene_action x = {.kind = NV_SA_PNG, .a = (int64_t)va, .b = (int64_t)(w | h << 32),
                         .c = (int64_t)pitch, .d = f, .s1 = -1, .s2 = -1, .str2 = path,
                         .str2_len = strlen(path)};
    return add_act(as, a, &x);
}

static int scene_directive(cg_asm *as, cg_nv_asm *a, const char *name)
{
    int rc = 0;
    cg_scene_action x = {.s1 = -1, .s2 = -1};
    if (strcmp(name, ".buffer") == 0)
        return directive_buffer(as, a);
    if (strcmp(name, ".submit") == 0)
        return directive_submit(as, a);
    if (strcmp(name, ".png") == 0)
        return directive_png(as, a);
    if (strcmp(name, ".channel") == 0) {
        uint64_t n;
        if ((rc = parse_u64(as, &n)))
            return rc;
        if (n > 7)
            return cg_asm_error(as, ".channel %llu: at most 8 channels (0..7)", (unsigned long long)n);
        x.kind = NV_SA_CHANNEL, x.a = (int64_t)n;
    } else if (strcmp(name, ".close_channel") == 0) {
        uint64_t n;
        if ((rc = parse_u64(as, &n)))
            return rc;
        if (n > 7)
            return cg_asm_error(as, ".close_channel %llu: channels are 0..7", (unsigned long long)n);
        x.kind = NV_SA_CLOSE_CHANNEL, x.a = (int64_t)n;
    } else if (strcmp(name, ".unmap") == 0) {
        uint64_t va;
        if ((rc = parse_u64(as, &va)))
            return rc;
        x.kind = NV_SA_UNMAP, x.a = (int64_t)va;
    } else if (strcmp(name, ".expect_hash") == 0) {
        uint64_t va, size, hash;
        if ((rc = parse_u64(as, &va)) || (rc = want_comma(as)) || (rc = parse_u64(as, &size)) ||
            (rc = want_comma(as)) || (rc = parse_u64(as, &hash)))
            return rc;
        if (size > (4ull << 30))
            return cg_asm_error(as, ".expect_hash of %llu bytes: at most 4 GiB",
                                (unsigned long long)size);
        x.kind = NV_SA_EXPECT_HASH, x.a = (int64_t)va, x.b = (int64_t)size, x.c = (int64_t)hash;
    } else if (strcmp(name, ".nvsw") == 0) {
        /* a configuration value, not an action: the last pass's counts */
        if (a->scene && cg_scene_set_config(a->scene, NV_CFG_NVSW, 1) != 0)
            return cg_asm_error(as, "out of memory");
        return 0;
    } else if (strcmp(name, ".run") == 0 || strcmp(name, ".finish") == 0) {
        x.kind = name[1] == 'r' ? NV_SA_RUN : NV_SA_FINISH;
    } else if (strcmp(name, ".wait") == 0) {
        uint64_t slot, timeout = 1000;
        if ((rc = parse_u64(as, &slot)))
            return rc;
        if (cg_asm_accept(as, ',') && (rc = parse_u64(as, &timeout)))
            return rc;
        if (slot >= NV_SCENE_FENCES)
            return cg_asm_error(as, "fence slot %llu is not 0..%d", (unsigned long long)slot,
                                NV_SCENE_FENCES - 1);
        x.kind = NV_SA_WAIT, x.a = (int64_t)slot, x.b = (int64_t)timeout;
    } else if (strcmp(name, ".cpu_write32") == 0 || strcmp(name, ".expect32") == 0) {
        uint64_t va;
        uint32_t v;
        if ((rc = parse_u64(as, &va)) || (rc = want_comma(as)) || (rc = parse_u32(as, &v, "value")))
            return rc;
        x.kind = name[1] == 'c' ? NV_SA_CPU_WRITE32 : NV_SA_EXPECT32;
        x.a = (int64_t)va, x.b = v;
    } else if (strcmp(name, ".dump") == 0) {
        uint64_t va, size;
        char path[NV_PATH_MAX + 1];
        size_t len;
        if ((rc = parse_u64(as, &va)) || (rc = want_comma(as)) || (rc = parse_u64(as, &size)) ||
            (rc = want_comma(as)) || (rc = cg_asm_string(as, path, sizeof(path), &len)))
            return rc;
        if (size > (256u << 20))
            return cg_asm_error(as, ".dump of %llu bytes: at most 256 MiB", (unsigned long long)size);
        x.kind = NV_SA_DUMP, x.a = (int64_t)va, x.b = (int64_t)size;
        x.str2 = path, x.str2_len = strlen(path);
        return add_act(as, a, &x);
    } else {
        return CG_ERR_NOENT;
    }
    return add_act(as, a, &x);
}

static int emit_run(cg_asm *as, cg_nv_asm *a, unsigned secop, unsigned subch, uint32_t mthd)
{
    /* data words follow as `, value` operands */
    uint32_t vals[64];
    size_t n = 0, total = 0;
    /* Collect every operand first: the header needs the count. */
    uint32_t *all = NULL;
    size_t cap = 0;
    while (cg_asm_accept(as, ',')) {
        uint32_t v;
        int rc = parse_u32(as, &v, "data");
        if (rc) {
            free(all);
            return rc;
        }
        if (n < 64) {
            vals[n++] = v;
        } else {
            if (total == cap) {
                size_t nc = cap ? cap * 2 : 256;
                uint32_t *na = realloc(all, nc * 4);
                if (!na) {
                    free(all);
                    return cg_asm_error(as, "out of memory");
                }
                all = na;
                cap = nc;
            }
            all[total++] = v;
        }
    }
    size_t count = n + total;
    if (count > 0x1FFF) {
        free(all);
        return cg_asm_error(as, "%zu data words: at most 8191 per header", count);
    }
    cg_asm_emit32(as, cg_nv_hdr(secop, subch, mthd, (uint32_t)count));
    for (size_t i = 0; i < n; i++) {
        uint32_t m = secop == CG_NV_SEC_INC_METHOD ? mthd + 4 * (uint32_t)i
                     : (secop == CG_NV_SEC_ONE_INC && i) ? mthd + 4 : mthd;
        track_object(a, subch, m, vals[i]);
        cg_asm_emit32(as, vals[i]);
    }
    for (size_t i = 0; i < total; i++)
        cg_asm_emit32(as, all[i]);
    free(all);
    return 0;
}

static int nv_statement(cg_asm *as, void *user, const char *name)
{
    cg_nv_asm *a = user;
    int rc;
    unsigned subch = 0; /* set by parse_subch before any use (GCC -O3 cannot tell) */
    uint32_t mthd, v;
    /* .sass / .endsass: shader code in nv-sass assembly inside a scene
     * (docs/nv-pipeline.md); the nv-sass family assembles the lines between */
    if (a->in_sass) {
        if (strcmp(name, ".endsass") == 0) {
            a->in_sass = false;
            return 0;
        }
        return nv_sass_asm_family()->statement(as, a->sass_state, name);
    }
    if (strcmp(name, ".sass") == 0) {
        a->in_sass = true;
        nv_sass_asm_family()->begin_pass(as, a->sass_state, 0, false);
        return 0;
    }
    if (name[0] == '.') {
        if (strcmp(name, ".subch") == 0) {
            uint32_t cls;
            if ((rc = parse_subch(as, &subch)) || (rc = want_comma(as)) ||
                (rc = parse_u32(as, &cls, "class")))
                return rc;
            if (cls && (!cg_nv_class_find(cls) || cls == CG_NV_CLASS_HOST))
                return cg_asm_error(as, ".subch: class 0x%04X is not one of 902D, B197, B1C0, "
                                    "A140, B0B5 (or 0)", cls);
            a->sc[subch] = cls;
            return 0;
        }
        return scene_directive(as, a, name);
    }
    if (strcmp(name, "inc") == 0 || strcmp(name, "noninc") == 0 || strcmp(name, "oneinc") == 0) {
        unsigned sec = name[0] == 'i' ? CG_NV_SEC_INC_METHOD
                       : name[0] == 'n' ? CG_NV_SEC_NON_INC_METHOD : CG_NV_SEC_ONE_INC;
        if ((rc = parse_subch(as, &subch)) || (rc = want_comma(as)) ||
            (rc = parse_method(as, a, subch, &mthd)))
            return rc;
        return emit_run(as, a, sec, subch, mthd);
    }
    if (strcmp(name, "mthd") == 0 || strcmp(name, "immd") == 0) {
        if ((rc = parse_subch(as, &subch)) || (rc = want_comma(as)) ||
            (rc = parse_method(as, a, subch, &mthd)) || (rc = want_comma(as)) ||
            (rc = parse_u32(as, &v, "value")))
            return rc;
        track_object(a, subch, mthd, v);
        if (v <= 0x1FFF)
            return cg_asm_emit32(as, cg_nv_hdr(CG_NV_SEC_IMMD_DATA_METHOD, subch, mthd, v));
        if (name[0] == 'i')
            return cg_asm_error(as, "immd: 0x%x does not fit in 13 bits (use mthd or inc)", v);
        cg_asm_emit32(as, cg_nv_hdr(CG_NV_SEC_INC_METHOD, subch, mthd, 1));
        return cg_asm_emit32(as, v);
    }
    if (strcmp(name, "hdr") == 0) {
        char kind[16];
        if ((rc = cg_asm_ident(as, kind, sizeof(kind))))
            return rc;
        static const char *kinds[] = {"inc", "noninc", "oneinc", "old_inc", "old_noninc"};
        int k = -1;
        for (int i = 0; i < 5; i++)
            if (strcmp(kind, kinds[i]) == 0)
                k = i;
        if (k < 0)
            return cg_asm_error(as, "hdr: '%s' is not inc, noninc, oneinc, old_inc or old_noninc",
                                kind);
        uint32_t count;
        if ((rc = parse_subch(as, &subch)) || (rc = want_comma(as)) ||
            (rc = parse_method(as, a, subch, &mthd)) || (rc = want_comma(as)) ||
            (rc = parse_u32(as, &count, "count")))
            return rc;
        if (k >= 3) {
            if (count > 0x7FF || mthd > 0x1FFC)
                return cg_asm_error(as, "old-format header: count %u > 2047 or method 0x%x > 0x1ffc",
                                    count, mthd);
            return cg_asm_emit32(as, (k == 3 ? 0u : 2u << 29) | count << 18 | subch << 13 | mthd);
        }
        if (count > 0x1FFF)
            return cg_asm_error(as, "count %u: at most 8191", count);
        static const unsigned sec[] = {CG_NV_SEC_INC_METHOD, CG_NV_SEC_NON_INC_METHOD,
                                       CG_NV_SEC_ONE_INC};
        return cg_asm_emit32(as, cg_nv_hdr(sec[k], subch, mthd, count));
    }
    if (strcmp(name, "set_subdevice_mask") == 0 || strcmp(name, "store_subdevice_mask") == 0) {
        if ((rc = parse_u32(as, &v, "mask")))
            return rc;
        if (v > 0xFFF)
            return cg_asm_error(as, "sub-device mask 0x%x: 12 bits", v);
        return cg_asm_emit32(as, (name[1] == 'e' ? 1u : 2u) << 16 | v << 4);
    }
    if (strcmp(name, "use_subdevice_mask") == 0)
        return cg_asm_emit32(as, 3u << 16);
    if (strcmp(name, "end_pb_segment") == 0)
        return cg_asm_emit32(as, CG_NV_END_PB_SEGMENT);
    return CG_ERR_NOENT;
}

static void nv_begin_pass(cg_asm *as, void *user, int pass, bool final)
{
    (void)as;
    (void)pass;
    (void)final;
    cg_nv_asm *a = user;
    memcpy(a->sc, a->init_sc, sizeof(a->sc));
    a->in_sass = false;
    if (final)
        cg_scene_clear(a->scene);
}

static const cg_asm_family nv_family = {"nv", nv_statement, nv_begin_pass};

const cg_asm_family *cg_nv_asm_family(void)
{
    return &nv_family;
}

int nv_subch_of(const cg_text_opts *o, uint32_t sc[8], char *msg, size_t cap)
{
    memset(sc, 0, 8 * sizeof(uint32_t));
    if (!o || !o->subch)
        return 0;
    if (cg_nv_parse_subch(o->subch, sc) == 0)
        return 0;
    snprintf(msg, cap, "--subch '%s': want N=CLASS,... with N 0..7 and CLASS one of B197, B1C0, "
             "A140, 902D, B0B5", o->subch);
    return CG_ERR_INVAL;
}

static void free_state(void *a) { cg_nv_asm_free(a); }

int nv_scene_assembler(const cg_text_opts *o, cg_scene *sc, cg_asm **out)
{
    char msg[160];
    uint32_t subch[8];
    cg_nv_asm *a = NULL;
    int rc = nv_subch_of(o, subch, msg, sizeof msg);
    if (!rc)
        rc = cg_nv_asm_new(o && o->subch ? subch : NULL, &a);
    if (!rc && (rc = cg_asm_create(&nv_family, a, out)) != 0)
        cg_nv_asm_free(a);
    if (rc)
        return rc;
    a->scene = sc;
    cg_asm_own_user(*out, free_state);
    return 0;
}
