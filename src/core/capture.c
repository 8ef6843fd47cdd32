/* core: the capture format table and format detection (include/cmdgpu/capture.h,
 * docs/captures.md). The loaders themselves live in their families. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "capture_text.h"

static const struct {
    const char *name, *desc;
    cg_family fam;
} formats[] = {
#define CG_X_ROW(id, name, fam, desc) {name, desc, fam},
    CG_CAPTURE_FORMAT_TABLE(CG_X_ROW)
#undef CG_X_ROW
};

const char *cg_capture_format_name(cg_capture_format f)
{
    return (unsigned)f < CG_CAPTURE_FORMAT_COUNT ? formats[f].name : "?";
}

const char *cg_capture_format_description(cg_capture_format f)
{
    return (unsigned)f < CG_CAPTURE_FORMAT_COUNT ? formats[f].desc : "";
}

cg_family cg_capture_format_family(cg_capture_format f)
{
    return (unsigned)f < CG_CAPTURE_FORMAT_COUNT ? formats[f].fam : CG_FAMILY_NONE;
}

int cg_capture_format_from_name(const char *name, cg_capture_format *out)
{
    for (unsigned i = 0; name && i < CG_CAPTURE_FORMAT_COUNT; i++)
        if (strcmp(name, formats[i].name) == 0) {
            *out = (cg_capture_format)i;
            return 0;
        }
    return CG_ERR_NOENT;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

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
    return hex_at(data, size, 8) && size > 11 && data[10] == ' ' && hex_at(data + 11, size - 11, 8) &&
           size > 23 && data[21] == ':' && data[22] == ' ' &&
           (hex_at(data + 23, size - 23, 2) || (size >= 30 && memcmp(data + 23, "Unknown", 7) == 0));
}

cg_capture_format cg_capture_detect(const uint8_t *data, size_t size)
{
    if (!data)
        return CG_CAPTURE_NATIVE;
    if (size >= 10 && memcmp(data, "CMDGPUCAP", 10) == 0) /* the magic and its NUL */
        return CG_CAPTURE_CMDGPU;
    /* radeon_debugfs_ring_info: the first line is the wptr, in either form */
    if ((size >= 8 && memcmp(data, "wptr: 0x", 8) == 0) ||
        (size >= 7 && memcmp(data, "wptr(0x", 7) == 0))
        return CG_CAPTURE_RADEON_RING_DUMP;
    /* vc4_cl_dump: "0x%08x 0x%08x: 0x%02x ", maybe after a label line
     * such as "BCL:" (vc4_job.c prints one before each list) */
    const uint8_t *d0 = data;
    size_t s0 = size;
    for (size_t i = 0; i < size && i < 16; i++) {
        if (data[i] == ' ')
            break;
        if (data[i] == '\n') {
            if (i > 1 && data[i - 1] == ':')
                d0 = data + i + 1, s0 = size - i - 1;
            break;
        }
    }
    if (cl_dump_line(d0, s0))
        return CG_CAPTURE_VC4_CL_DUMP;
    /* vc4_dump_hang_state: version 0, then the state, the BO table and the
     * BO bytes, and nothing else */
    if (size >= 164 && le32(data) == 0) {
        uint32_t nbo = le32(data + 4 + 8);
        uint64_t want = 164 + 16ull * nbo;
        if (nbo >= 1 && want <= size) {
            for (uint32_t i = 0; i < nbo && want <= size; i++)
                want += le32(data + 164 + 16ull * i + 8);
            if (want == size)
                return CG_CAPTURE_VC4_HANG_STATE;
        }
    }
    return CG_CAPTURE_NATIVE;
}

int cg_capture_fail(cg_capture_error *err, size_t off, int rc, const char *fmt, ...)
{
    if (err) {
        err->offset = off;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return rc;
}

int cg_capture_line(const uint8_t *data, size_t size, size_t *pos, char *line, size_t cap,
                    size_t *start, cg_capture_error *err)
{
    size_t p = *pos, n = 0;
    if (p >= size)
        return 0;
    *start = p;
    while (p < size && data[p] != '\n') {
        if (data[p] == 0)
            return cg_capture_fail(err, p, CG_ERR_SYNTAX, "NUL byte in a text capture");
        if (n + 1 < cap)
            line[n] = (char)data[p];
        n++;
        p++;
    }
    *pos = p + 1;
    if (n >= cap)
        return cg_capture_fail(err, *start, CG_ERR_SYNTAX, "line of %zu bytes is too long", n);
    if (n && line[n - 1] == '\r')
        n--;
    line[n] = 0;
    return 1;
}

bool cg_capture_hex(const char **s, uint64_t *v)
{
    const char *p = *s;
    if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
        return false;
    p += 2;
    uint64_t x = 0;
    int n = 0;
    for (;; p++, n++) {
        int d;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else
            break;
        if (n == 16)
            return false;
        x = x << 4 | (uint64_t)d;
    }
    if (n == 0)
        return false;
    *v = x;
    *s = p;
    return true;
}
