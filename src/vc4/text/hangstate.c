/* vc4 family: the hang state as vc4-gpu-tools writes it (docs/captures.md).
 *
 * File layout (anholt/vc4-gpu-tools tools/vc4_dump_hang_state.c
 * write_hang_state, read back by tools/vc4_dump_parse.c parse_input):
 *   u32 version (0)
 *   struct drm_vc4_get_hang_state (include/uapi/drm/vc4_drm.h), 160 bytes:
 *     u64 bo; u32 bo_count; u32 start_bin, start_render; u32 ct0ca, ct0ea,
 *     ct1ca, ct1ea, ct0cs, ct1cs, ct0ra0, ct1ra0, bpca, bpcs, bpoa, bpos,
 *     vpmbase, dbge, fdbgo, fdbgb, fdbgr, fdbgs, errstat; u32 pad[16]
 *   bo_count x struct drm_vc4_get_hang_state_bo { u32 handle, paddr, size, pad; }
 *   the bytes of each BO, in table order.
 * vc4_dump_parse.c decodes the binner list from start_bin to ct0ea (skipped
 * when they are equal) and the render list from start_render to ct1ea. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "vc4/vc4_internal.h"
#include "core/capture_text.h"

#define HANG_HEADER 164u /* version + struct drm_vc4_get_hang_state */
#define HANG_BO 16u

int cg_vc4_hang_parse(const uint8_t *data, size_t size, cg_vc4_hang_state **out, cg_capture_error *err)
{
    if (!out || (!data && size))
        return CG_ERR_INVAL;
    *out = NULL;
    if (size < HANG_HEADER)
        return cg_capture_fail(err, size, CG_ERR_SYNTAX,
                    "truncated: a vc4 hang state starts with %u bytes (version + drm_vc4_get_hang_state), "
                    "the file has %zu", HANG_HEADER, size);
    uint32_t version = vc4_le32(data);
    if (version != 0)
        return cg_capture_fail(err, 0, CG_ERR_SYNTAX, "hang-state version %u (only version 0 is known)", version);
    uint32_t nbo = vc4_le32(data + 12);
    uint64_t table_end = HANG_HEADER + (uint64_t)HANG_BO * nbo;
    if (table_end > size)
        return cg_capture_fail(err, 12, CG_ERR_RANGE,
                    "bo_count %u needs a BO table up to byte %" PRIu64 ", the file has %zu bytes", nbo,
                    table_end, size);
    cg_vc4_hang_state *h = calloc(1, sizeof *h);
    if (!h)
        return CG_ERR_NOMEM;
    h->version = version;
    h->bo_count = nbo;
    const uint8_t *p = data + 16;
#define CG_X_READ(name, reg) h->name = vc4_le32(p), p += 4;
    CG_VC4_HANG_REGS(CG_X_READ)
#undef CG_X_READ
    h->bos = calloc(nbo ? nbo : 1, sizeof *h->bos); /* the table is in the file: bounded */
    if (!h->bos) {
        free(h);
        return CG_ERR_NOMEM;
    }
    uint64_t at = table_end;
    int rc = 0;
    for (uint32_t i = 0; i < nbo; i++) {
        const uint8_t *e = data + HANG_HEADER + (size_t)HANG_BO * i;
        cg_vc4_hang_bo *b = &h->bos[i];
        b->handle = vc4_le32(e);
        b->paddr = vc4_le32(e + 4);
        b->size = vc4_le32(e + 8);
        size_t eoff = (size_t)(e - data);
        if (b->size > size - at) {
            rc = cg_capture_fail(err, eoff + 8, CG_ERR_RANGE,
                      "BO %u (handle %u) declares %u bytes at file offset %" PRIu64 "; only %" PRIu64
                      " bytes are left in the file", i, b->handle, b->size, at, (uint64_t)size - at);
            goto bad;
        }
        if ((uint64_t)(b->paddr & 0x3FFFFFFFu) + b->size > (1u << 30)) {
            rc = cg_capture_fail(err, eoff + 4, CG_ERR_RANGE,
                      "BO %u at 0x%08x (%u bytes) runs past the 1 GiB of VideoCore SDRAM", i, b->paddr,
                      b->size);
            goto bad;
        }
        b->file_offset = (size_t)at;
        b->data = data + at;
        at += b->size;
    }
    if (at != size) {
        rc = cg_capture_fail(err, (size_t)at, CG_ERR_SYNTAX, "%" PRIu64 " bytes after the last BO (corrupt or not a hang state)",
                  (uint64_t)size - at);
        goto bad;
    }
    *out = h;
    return 0;
bad:
    cg_vc4_hang_free(h);
    return rc;
}

void cg_vc4_hang_free(cg_vc4_hang_state *h)
{
    if (!h)
        return;
    free(h->bos);
    free(h);
}

const cg_vc4_hang_bo *cg_vc4_hang_bo_at(const cg_vc4_hang_state *h, uint32_t addr)
{
    uint32_t a = addr & 0x3FFFFFFFu;
    for (uint32_t i = 0; h && i < h->bo_count; i++) {
        uint32_t p = h->bos[i].paddr & 0x3FFFFFFFu;
        if (a >= p && a - p < h->bos[i].size)
            return &h->bos[i];
    }
    return NULL;
}

static const char *nz(const char *s) { return s ? s : ""; }

/* Disassemble the list [start, end) of one thread, marking CTnCA. */
static int list_disasm(const cg_vc4_hang_state *h, const cg_vc4_disasm_opts *o, int t, uint32_t start,
                       uint32_t end, uint32_t ca, FILE *out)
{
    const char *cc = nz(o->c_comment), *cr = nz(o->c_reset), *ce = nz(o->c_err);
    const char *what = t ? "render" : "binner";
    const cg_vc4_hang_bo *b = cg_vc4_hang_bo_at(h, start);
    if (!b) {
        if (o->json)
            fputs("null", out);
        else
            fprintf(out, "%s// the %s list start 0x%08x is in no captured BO%s\n", ce, what, start, cr);
        return 0;
    }
    uint32_t off = (start & 0x3FFFFFFFu) - (b->paddr & 0x3FFFFFFFu);
    uint32_t len = b->size - off;
    bool clipped = true;
    if (end >= start && end - start <= len) {
        len = end - start;
        clipped = false;
    }
    cg_vc4_disasm_opts lo = *o;
    lo.base = start;
    lo.follow = false;
    if (o->json)
        return cg_vc4_cl_disasm(&lo, b->data + off, len, out);
    fprintf(out, "%s// ---- %s list (CT%d): 0x%08x .. CT%dEA 0x%08x, in BO handle %u ----%s\n", cc, what, t,
            start, t, end, b->handle, cr);
    if (clipped)
        fprintf(out, "%s// CT%dEA 0x%08x is not in the same BO: decoded to the BO's end (%u bytes)%s\n", ce, t,
                end, len, cr);
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    if (!f)
        return CG_ERR_NOMEM;
    int bad = cg_vc4_cl_disasm(&lo, b->data + off, len, f);
    fclose(f);
    bool marked = false;
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
        unsigned long addr;
        char colon;
        if (!marked && ca != end && sscanf(line, "// 0x%lx%c", &addr, &colon) == 2 && colon == ':' &&
            ((uint32_t)addr == ca || ((uint32_t)addr & 0x3FFFFFFFu) == (ca & 0x3FFFFFFFu))) {
            fprintf(out, "%s// >>> CT%dCA 0x%08x: the %s thread stood here (the next record it would "
                    "execute) <<<%s\n", ce, t, ca, what, cr);
            marked = true;
        }
        fwrite(line, 1, n, out);
        line += n;
    }
    free(buf);
    if (ca == end)
        fprintf(out, "%s// >>> CT%dCA 0x%08x == CT%dEA: the %s thread reached its end address <<<%s\n", cc, t, ca,
                t, what, cr);
    else if (!marked)
        fprintf(out, "%s// >>> CT%dCA 0x%08x is at no record of this list (a sub-list, a branch target, "
                "or mid-record) <<<%s\n", ce, t, ca, cr);
    return bad;
}

static void cs_flags(FILE *out, uint32_t cs)
{
    fprintf(out, " (%s%s%s%s%s%sRTSD %u)", cs & CG_VC4_CS_RUN ? "RUN " : "", cs & CG_VC4_CS_ERR ? "ERR " : "",
            cs & CG_VC4_CS_SUBS ? "SUBS " : "", cs & CG_VC4_CS_SEMA ? "SEMA " : "",
            cs & CG_VC4_CS_RESET ? "RESET " : "", cs & CG_VC4_CS_MODE ? "MODE " : "", (cs >> 8) & 3);
}

int cg_vc4_hang_disasm(const cg_vc4_hang_state *h, const cg_vc4_disasm_opts *o, FILE *out)
{
    if (!h || !o || !out)
        return CG_ERR_INVAL;
    const char *cc = nz(o->c_comment), *cr = nz(o->c_reset);
    int bad = 0, b;
    if (o->json) {
        fprintf(out, "{\"format\":\"vc4-hang-state\",\"version\":%u,\"registers\":{", h->version);
        int first = 1;
#define CG_X_JSON(name, reg)                                                                     \
    fprintf(out, "%s\"%s\":\"0x%08x\"", first ? "" : ",", reg ? cg_vc4_reg_name(reg) : #name, h->name); \
    first = 0;
        CG_VC4_HANG_REGS(CG_X_JSON)
#undef CG_X_JSON
        fprintf(out, "},\"bos\":[");
        for (uint32_t i = 0; i < h->bo_count; i++)
            fprintf(out, "%s{\"handle\":%u,\"paddr\":\"0x%08x\",\"size\":%u,\"file_offset\":%zu}", i ? "," : "",
                    h->bos[i].handle, h->bos[i].paddr, h->bos[i].size, h->bos[i].file_offset);
        fprintf(out, "],\"bin\":");
        if (h->start_bin != h->ct0ea) {
            if ((b = list_disasm(h, o, 0, h->start_bin, h->ct0ea, h->ct0ca, out)) < 0)
                return b;
            bad += b;
        } else {
            fputs("null", out);
        }
        fprintf(out, ",\"render\":");
        if ((b = list_disasm(h, o, 1, h->start_render, h->ct1ea, h->ct1ca, out)) < 0)
            return b;
        bad += b;
        fprintf(out, "}\n");
        return bad;
    }
    fprintf(out, "%s// vc4 hang state, version %u, %u BOs%s\n", cc, h->version, h->bo_count, cr);
#define CG_X_TEXT(name, reg)                                                                      \
    fprintf(out, "%s//   %-13s 0x%08x", cc, reg ? cg_vc4_reg_name(reg) : #name, h->name);          \
    if (reg == CG_VC4_CT0CS || reg == CG_VC4_CT1CS)                                              \
        cs_flags(out, h->name);                                                                   \
    fprintf(out, "%s\n", cr);
    CG_VC4_HANG_REGS(CG_X_TEXT)
#undef CG_X_TEXT
    for (uint32_t i = 0; i < h->bo_count; i++)
        fprintf(out, "%s//   BO %u: handle %u, 0x%08x..0x%08x (%u bytes, file offset %zu)%s\n", cc, i,
                h->bos[i].handle, h->bos[i].paddr, h->bos[i].paddr + (h->bos[i].size ? h->bos[i].size - 1 : 0),
                h->bos[i].size, h->bos[i].file_offset, cr);
    if (h->start_bin != h->ct0ea) {
        if ((b = list_disasm(h, o, 0, h->start_bin, h->ct0ea, h->ct0ca, out)) < 0)
            return b;
        bad += b;
    } else {
        fprintf(out, "%s// no binner list (start_bin == CT0EA)%s\n", cc, cr);
    }
    if ((b = list_disasm(h, o, 1, h->start_render, h->ct1ea, h->ct1ca, out)) < 0)
        return b;
    return bad + b;
}
