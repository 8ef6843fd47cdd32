/* vc4 family: its capture formats (include/cmdgpu/family.h,
 * docs/captures.md): the hang state vc4-gpu-tools writes (listed and
 * re-run from its BOs) and Mesa's VC4_DEBUG=cl text (listed), over the
 * parsers in text/hangstate.c and text/cl_textdump.c. */
#include <inttypes.h>
#include <string.h>
#include "core/json.h"
#include "scene.h"

static const char *S(const char *s) { return s ? s : ""; }

/* ---- re-running a hang state ----------------------------------------------------- */

/* The first Tile_Rendering_Mode_Configuration of the render list (a linear
 * walk through the captured bytes, cl.def sizes). */
static void find_frame(const cg_vc4_hang_state *h, cg_vc4_hang_result *res)
{
    const cg_vc4_hang_bo *b = cg_vc4_hang_bo_at(h, h->start_render);
    if (!b)
        return;
    uint32_t off = (h->start_render & 0x3FFFFFFFu) - (b->paddr & 0x3FFFFFFFu);
    uint32_t lim = b->size;
    if (h->ct1ea >= h->start_render && h->ct1ea - h->start_render < lim - off)
        lim = off + (h->ct1ea - h->start_render);
    int op_trmc = cg_vc4_cl_opcode("Tile_Rendering_Mode_Configuration");
    while (off < lim) {
        uint8_t op = b->data[off];
        unsigned n = cg_vc4_cl_size(op);
        if (!n || n > lim - off)
            return;
        if ((int)op == op_trmc) {
            const uint8_t *p = b->data + off + 1;
            res->have_frame = true;
            res->fb_addr = vc4_le32(p);
            res->fb_width = (uint32_t)p[4] | (uint32_t)p[5] << 8;
            res->fb_height = (uint32_t)p[6] | (uint32_t)p[7] << 8;
            /* byte 9: bits 2-3 Frame_Buffer_Color_Format (1 RGBA8888, else
             * BGR565), bits 6-7 Memory_Format (0 linear) -- cl.def */
            res->fb_format = (p[8] >> 2) & 3;
            res->fb_depth = res->fb_format == 1 ? 32 : 16;
            res->fb_pitch = res->fb_width * res->fb_depth / 8;
            res->fb_linear = ((p[8] >> 6) & 3) == 0;
            return;
        }
        off += n;
    }
}

int cg_vc4_hang_replay(const cg_vc4_hang_state *h, cg_device *dev, cg_vc4_hang_result *res, cg_vc4 **out)
{
    if (!h || !dev || !res)
        return CG_ERR_INVAL;
    if (out)
        *out = NULL;
    memset(res, 0, sizeof *res);
    uint64_t top = 64u << 20;
    for (uint32_t i = 0; i < h->bo_count; i++) {
        uint64_t e = (uint64_t)(h->bos[i].paddr & 0x3FFFFFFFu) + h->bos[i].size;
        if (e > top)
            top = e;
    }
    top = (top + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
    if (top > (1u << 30))
        return CG_ERR_RANGE;
    cg_vc4_config c = {.sdram_size = (uint32_t)top};
    cg_vc4 *v;
    size_t faults0 = cg_fault_count(dev);
    int rc = cg_vc4_create(dev, &c, &v);
    if (rc != 0)
        return rc;
    for (uint32_t i = 0; i < h->bo_count && rc == 0; i++)
        if (h->bos[i].size)
            rc = cg_vc4_cpu_write(v, h->bos[i].paddr, h->bos[i].data, h->bos[i].size);
    if (rc == 0)
        rc = cg_vc4_reg_write(v, CG_VC4_BPOA, h->bpoa);
    if (rc == 0)
        rc = cg_vc4_reg_write(v, CG_VC4_BPOS, h->bpos);
    if (rc == 0 && h->start_bin != h->ct0ea) {
        rc = cg_vc4_reg_write(v, CG_VC4_CT0CA, h->start_bin);
        if (rc == 0)
            rc = cg_vc4_reg_write(v, CG_VC4_CT0EA, h->ct0ea);
    }
    if (rc == 0)
        rc = cg_vc4_reg_write(v, CG_VC4_CT1CA, h->start_render);
    if (rc == 0)
        rc = cg_vc4_reg_write(v, CG_VC4_CT1EA, h->ct1ea);
    if (rc != 0) {
        cg_vc4_destroy(v);
        return rc;
    }
    res->wait_rc = cg_vc4_wait_idle(v);
    cg_vc4_reg_read(v, CG_VC4_CT0CA, &res->ct0ca);
    cg_vc4_reg_read(v, CG_VC4_CT1CA, &res->ct1ca);
    cg_vc4_reg_read(v, CG_VC4_CT0CS, &res->ct0cs);
    cg_vc4_reg_read(v, CG_VC4_CT1CS, &res->ct1cs);
    res->faults = cg_fault_count(dev) - faults0;
    find_frame(h, res);
    if (out)
        *out = v;
    else
        cg_vc4_destroy(v);
    return 0;
}

/* ---- the hang state ------------------------------------------------------------- */

/* vc4_dump_hang_state: version 0, then the state, the BO table and the BO
 * bytes, and nothing else. */
static bool hang_detect(const uint8_t *data, size_t size)
{
    if (size < 164 || vc4_le32(data) != 0)
        return false;
    uint32_t nbo = vc4_le32(data + 4 + 8);
    uint64_t want = 164 + 16ull * nbo;
    if (nbo < 1 || want > size)
        return false;
    for (uint32_t i = 0; i < nbo && want <= size; i++)
        want += vc4_le32(data + 164 + 16ull * i + 8);
    return want == size;
}

static cg_vc4_disasm_opts disasm_opts(const cg_text_opts *o)
{
    return (cg_vc4_disasm_opts){.prim_format = 0x12, .json = o->json, .c_name = o->c_name,
                                .c_num = o->c_num, .c_addr = o->c_addr, .c_err = o->c_err,
                                .c_comment = o->c_comment, .c_reset = o->c_reset};
}

static int hang_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out,
                       cg_capture_error *err)
{
    cg_vc4_hang_state *h;
    int rc = cg_vc4_hang_parse(data, size, &h, err);
    if (rc)
        return rc;
    cg_vc4_disasm_opts d = disasm_opts(o);
    rc = cg_vc4_hang_disasm(h, &d, out);
    cg_vc4_hang_free(h);
    return rc;
}

static void print_faults(cg_device *dev, bool json, const cg_text_opts *o, FILE *out)
{
    char line[512];
    for (size_t i = 0; i < cg_fault_count(dev); i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        if (json) {
            cg_fault_format_json(f, line, sizeof line);
            fprintf(out, "%s%s", i ? "," : "", line);
        } else {
            cg_fault_format(f, line, sizeof line);
            fprintf(out, "%s%s%s\n", S(o->c_err), line, S(o->c_reset));
        }
    }
}

static void hang_print(const cg_text_opts *o, const cg_vc4_hang_state *h,
                       const cg_vc4_hang_result *res, cg_device *dev, int hr, uint64_t hash,
                       const char *png, int pr, bool failed, FILE *out)
{
    if (o->json) {
        fputs("{\"capture\":", out);
        cg_json_fput(out, S(o->name));
        fprintf(out, ",\"format\":\"vc4-hang-state\",\"CT0CA\":\"0x%08x\",\"CT1CA\":\"0x%08x\","
                "\"CT0CS\":\"0x%08x\",\"CT1CS\":\"0x%08x\",\"faults\":[", res->ct0ca, res->ct1ca,
                res->ct0cs, res->ct1cs);
        print_faults(dev, true, o, out);
        fprintf(out, "]");
        if (hr == 0)
            fprintf(out, ",\"frame\":{\"addr\":\"0x%08x\",\"width\":%u,\"height\":%u,\"depth\":%u,"
                    "\"hash\":\"%016" PRIx64 "\"}", res->fb_addr, res->fb_width, res->fb_height,
                    res->fb_depth, hash);
        fprintf(out, ",\"result\":\"%s\"}\n", failed ? "failed" : "ok");
        return;
    }
    fprintf(out, "hang state %s: %u BOs re-run (bin 0x%08x..0x%08x, render 0x%08x..0x%08x)\n",
            S(o->name), h->bo_count, h->start_bin, h->ct0ea, h->start_render, h->ct1ea);
    print_faults(dev, false, o, out);
    fprintf(out, "CT0CA 0x%08x (captured 0x%08x)  CT1CA 0x%08x (captured 0x%08x)\n", res->ct0ca,
            h->ct0ca, res->ct1ca, h->ct1ca);
    if (hr == 0)
        fprintf(out, "frame 0x%08x %ux%ux%u: pixel hash %016" PRIx64 "\n", res->fb_addr,
                res->fb_width, res->fb_height, res->fb_depth, hash);
    else if (res->have_frame)
        fprintf(out, "frame 0x%08x %ux%u: not readable as a linear image (%s)\n", res->fb_addr,
                res->fb_width, res->fb_height, res->fb_linear ? cg_strerror(hr) : "T or LT tiled");
    else
        fprintf(out, "no Tile_Rendering_Mode_Configuration in the render list: no frame\n");
    if (png && hr == 0)
        fprintf(out, "%swrote %s\n", pr ? "FAIL " : "", png);
    fprintf(out, "re-run: %s, %zu fault(s)\n", failed ? "failed" : "ok", res->faults);
}

/* Re-run from the captured memory (cg_vc4_hang_replay); png gets the
 * frame when it is linear. */
static int hang_run(const cg_text_opts *o, const uint8_t *data, size_t size, cg_device *dev,
                    const char *png, FILE *out, cg_capture_error *err)
{
    cg_vc4_hang_state *h;
    int rc = cg_vc4_hang_parse(data, size, &h, err);
    if (rc)
        return rc;
    cg_vc4_hang_result res;
    cg_vc4 *v = NULL;
    rc = cg_vc4_hang_replay(h, dev, &res, &v);
    if (rc != 0) {
        snprintf(err->msg, sizeof err->msg, "cannot set up the vc4 model: %s", cg_strerror(rc));
        cg_vc4_hang_free(h);
        return rc;
    }
    uint64_t hash = 0;
    int hr = CG_ERR_NOENT, pr = 0;
    if (res.have_frame && res.fb_linear)
        hr = cg_vc4_fb_hash(v, res.fb_addr, res.fb_width, res.fb_height, res.fb_pitch,
                            res.fb_depth, &hash);
    if (png && hr == 0)
        pr = cg_vc4_fb_png(v, res.fb_addr, res.fb_width, res.fb_height, res.fb_pitch,
                           res.fb_depth, png);
    bool failed = res.faults > 0 || res.wait_rc != 0;
    hang_print(o, h, &res, dev, hr, hash, png, pr, failed, out);
    rc = failed || pr ? 1 : 0;
    if (png && hr != 0) {
        snprintf(err->msg, sizeof err->msg, "run -o %s: there is no linear frame to write", png);
        rc = 1;
    }
    cg_vc4_destroy(v);
    cg_vc4_hang_free(h);
    return rc;
}

const cg_capture_desc vc4_hang_capture = {
    .name = "vc4-hang-state",
    .description = "vc4-gpu-tools vc4_dump_hang_state file (VC4_GET_HANG_STATE)",
    .family = &cg_vc4_family,
    .detect = hang_detect,
    .disasm = hang_disasm,
    .run = hang_run,
};

/* ---- Mesa's VC4_DEBUG=cl text ---------------------------------------------------- */

static bool is_hex(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "0x" and n hex digits at p (within size). */
static bool hex_at(const uint8_t *p, size_t left, unsigned n)
{
    if (left < 2 + n || p[0] != '0' || p[1] != 'x')
        return false;
    for (unsigned i = 0; i < n; i++)
        if (!is_hex(p[2 + i]))
            return false;
    return true;
}

static bool cl_dump_line(const uint8_t *data, size_t size)
{
    return hex_at(data, size, 8) && size > 11 && data[10] == ' ' &&
           hex_at(data + 11, size - 11, 8) && size > 23 && data[21] == ':' && data[22] == ' ' &&
           (hex_at(data + 23, size - 23, 2) || (size >= 30 && memcmp(data + 23, "Unknown", 7) == 0));
}

/* vc4_cl_dump: "0x%08x 0x%08x: 0x%02x ", maybe after a label line such as
 * "BCL:" (vc4_job.c prints one before each list). */
static bool cl_detect(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size && i < 16; i++) {
        if (data[i] == ' ')
            break;
        if (data[i] == '\n') {
            if (i > 1 && data[i - 1] == ':')
                return cl_dump_line(data + i + 1, size - i - 1);
            break;
        }
    }
    return cl_dump_line(data, size);
}

/* The list rebuilt in hardware offsets, listed as control-list bytes. */
static int cl_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out,
                     cg_capture_error *err)
{
    cg_vc4_cl_textdump *t;
    int rc = cg_vc4_cl_textdump_parse(data, size, &t, err);
    if (rc)
        return rc;
    if (!o->json)
        fprintf(out, "%s// VC4_DEBUG=cl dump: %zu packets rebuilt, %zu bytes (hardware offsets)%s\n",
                S(o->c_comment), t->npackets, t->size, S(o->c_reset));
    if (t->more_lists && !o->json)
        fprintf(out, "%s// %zu more list(s) follow in the file: only the first is decoded%s\n",
                S(o->c_comment), t->more_lists, S(o->c_reset));
    if (t->unknown_at != SIZE_MAX && !o->json)
        fprintf(out, "%s// the dump stopped at an unknown packet at hardware offset 0x%zx%s\n",
                S(o->c_err), t->unknown_at, S(o->c_reset));
    cg_vc4_disasm_opts d = disasm_opts(o);
    d.prim_format = 0x12;
    rc = cg_vc4_cl_disasm(&d, t->bytes, t->size, out);
    cg_vc4_cl_textdump_free(t);
    return rc;
}

const cg_capture_desc vc4_cl_dump_capture = {
    .name = "vc4-cl-dump",
    .description = "Mesa VC4_DEBUG=cl text dump",
    .family = &cg_vc4_family,
    .detect = cl_detect,
    .disasm = cl_disasm,
    .why_not = "a VC4_DEBUG=cl dump holds one control list and none of the memory it refers "
               "to: it cannot be run (disasm it, or capture a hang state)",
};
