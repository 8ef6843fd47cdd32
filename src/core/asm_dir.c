/* cmdgpu core: the assembler's core directives.
 *
 *   .org ADDR                 absolute address in the current section; the gap
 *                             is zero-filled; moving backwards is an error
 *   .align N[,FILL]           pad the address to a multiple of N (a power of two)
 *   .byte/.half/.word/.dword  1/2/4/8-byte little-endian values
 *   .float F,...              IEEE-754 single precision, little-endian
 *   .incbin "file"[,OFFSET[,LENGTH]]
 *   .include "file"           assemble another source file here (relative to
 *                             the including file's directory; nesting is
 *                             limited to ASM_MAX_INCLUDE_DEPTH)
 *   .section NAME[,BASE]
 *   .equ NAME, EXPR
 *
 * Each handler reads its operands at the cursor and returns 0 (the caller then
 * requires the end of the line) or an error already reported. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "asm_internal.h"

/* An expression with the position of its first token, for messages. */
static int expr_at(cg_asm *as, int64_t *v, const char **pos)
{
    asm_skip_blanks(as);
    *pos = as->cur;
    return asm_expr(as, v);
}

static void put_le(uint8_t *dst, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        dst[i] = (uint8_t)(v >> (8 * i));
}

/* Skip `gap` bytes, filled with `fill`, as .org and .align do. */
static int emit_gap(cg_asm *as, uint64_t gap, uint8_t fill, const char *what,
                    const char *pos)
{
    if (gap > ASM_MAX_GAP)
        return asm_error_at(as, pos, "%s would skip %llu bytes (more than %zu MiB)", what,
                            (unsigned long long)gap, ASM_MAX_GAP >> 20);
    uint8_t *dst;
    int rc = asm_reserve(as, (size_t)gap, &dst);
    if (rc == 0 && dst)
        memset(dst, fill, (size_t)gap);
    return rc;
}

static int dir_org(cg_asm *as)
{
    const char *pos;
    int64_t v;
    int rc = expr_at(as, &v, &pos);
    if (rc)
        return rc;
    const struct asm_section *sec = asm_cur_section(as, false);
    uint64_t base = sec ? sec->base : 0, size = sec ? sec->size : 0;
    uint64_t target = (uint64_t)v;
    if (target < base)
        return asm_error_at(as, pos, ".org 0x%llx is below the base 0x%llx of section '%s'",
                            (unsigned long long)target, (unsigned long long)base,
                            cg_asm_current_section(as));
    if (target - base < size)
        return asm_error_at(as, pos, ".org 0x%llx moves backwards from 0x%llx",
                            (unsigned long long)target, (unsigned long long)(base + size));
    return emit_gap(as, target - base - size, 0, ".org", pos);
}

static int dir_align(cg_asm *as)
{
    const char *pos, *fpos;
    int64_t n, fill = 0;
    int rc = expr_at(as, &n, &pos);
    if (rc)
        return rc;
    if (n <= 0 || (n & (n - 1)) != 0)
        return asm_error_at(as, pos, "alignment %lld is not a power of two", (long long)n);
    if (cg_asm_accept(as, ',')) {
        rc = expr_at(as, &fill, &fpos);
        if (rc)
            return rc;
        if (fill < -128 || fill > 255)
            return asm_error_at(as, fpos, "fill value %lld does not fit in 8 bits",
                                (long long)fill);
    }
    uint64_t pad = (0 - cg_asm_pc(as)) & ((uint64_t)n - 1);
    return emit_gap(as, pad, (uint8_t)fill, ".align", pos);
}

/* .byte/.half/.word/.dword: `width` bytes per value. A value must fit the
 * width as a signed or as an unsigned number (so .byte accepts -128..255). */
static int dir_data(cg_asm *as, unsigned width)
{
    do {
        const char *pos;
        int64_t v;
        int rc = expr_at(as, &v, &pos);
        if (rc)
            return rc;
        uint8_t *dst;
        rc = asm_reserve(as, width, &dst);
        if (rc)
            return rc;
        if (dst)
            put_le(dst, (uint64_t)v, width);
        if (width < 8) {
            int64_t min = -((int64_t)1 << (width * 8 - 1));
            int64_t max = ((int64_t)1 << (width * 8)) - 1;
            /* Reported after emitting, so the layout does not depend on it. */
            if (v < min || v > max)
                return asm_error_at(as, pos, "value %lld does not fit in %u bits",
                                    (long long)v, width * 8);
        }
    } while (cg_asm_accept(as, ','));
    return 0;
}

static int dir_float(cg_asm *as)
{
    do {
        asm_skip_blanks(as);
        const char *pos = as->cur;
        double d;
        int rc = cg_asm_float(as, &d);
        if (rc)
            return rc;
        uint8_t *dst;
        rc = asm_reserve(as, 4, &dst);
        if (rc)
            return rc;
        /* Converting a double outside float's range is undefined in C. */
        if (isfinite(d) && fabs(d) > FLT_MAX)
            return asm_error_at(as, pos, "value %g does not fit in a 32-bit float", d);
        float f = (float)d;
        uint32_t bits;
        memcpy(&bits, &f, sizeof(bits));
        if (dst)
            put_le(dst, bits, 4);
    } while (cg_asm_accept(as, ','));
    return 0;
}

/* Copy `len` bytes at `off` of the open file into dst. */
static int read_range(int fd, uint8_t *dst, uint64_t off, size_t len)
{
    while (len > 0) {
        ssize_t got = pread(fd, dst, len, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return errno;
        if (got == 0)
            return EIO; /* the file shrank since fstat */
        dst += got;
        off += (uint64_t)got;
        len -= (size_t)got;
    }
    return 0;
}

static int dir_include(cg_asm *as)
{
    char file[ASM_MAX_PATH], q[300];
    size_t flen;
    asm_skip_blanks(as);
    const char *fpos = as->cur;
    int rc = cg_asm_string(as, file, sizeof(file), &flen);
    if (rc)
        return rc;
    asm_quote(file, flen, q, sizeof(q));
    if (flen == 0)
        return asm_error_at(as, fpos, "empty file name");
    if (memchr(file, 0, flen))
        return asm_error_at(as, fpos, "file name '%s' contains a NUL byte", q);
    if (!cg_asm_eol(as)) {
        asm_skip_blanks(as);
        return asm_error_at(as, as->cur, "unexpected text after the file name");
    }
    const char *dir = file[0] == '/' ? "" : as->srcs[as->src].dir;
    size_t dlen = strlen(dir);
    char *path = malloc(dlen + flen + 1);
    if (!path)
        return asm_oom(as);
    memcpy(path, dir, dlen);
    memcpy(path + dlen, file, flen + 1);
    rc = asm_include(as, path, fpos, q);
    free(path);
    return rc;
}

static int dir_incbin(cg_asm *as)
{
    char file[ASM_MAX_PATH], q[300], ebuf[128];
    size_t flen;
    asm_skip_blanks(as);
    const char *fpos = as->cur, *opos = NULL, *lpos = NULL;
    int rc = cg_asm_string(as, file, sizeof(file), &flen);
    if (rc)
        return rc;
    asm_quote(file, flen, q, sizeof(q));
    if (flen == 0)
        return asm_error_at(as, fpos, "empty file name");
    if (memchr(file, 0, flen))
        return asm_error_at(as, fpos, "file name '%s' contains a NUL byte", q);
    int64_t off = 0, len = -1;
    if (cg_asm_accept(as, ',')) {
        if ((rc = expr_at(as, &off, &opos)) != 0)
            return rc;
        if (off < 0)
            return asm_error_at(as, opos, "negative offset %lld", (long long)off);
        if (cg_asm_accept(as, ',')) {
            if ((rc = expr_at(as, &len, &lpos)) != 0)
                return rc;
            if (len < 0)
                return asm_error_at(as, lpos, "negative length %lld", (long long)len);
        }
    }

    /* Relative to the directory of the source that includes it. */
    const char *dir = file[0] == '/' ? "" : as->srcs[as->src].dir;
    size_t dlen = strlen(dir);
    char *path = malloc(dlen + flen + 1);
    if (!path)
        return asm_oom(as);
    memcpy(path, dir, dlen);
    memcpy(path + dlen, file, flen + 1);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; only regular
     * files are accepted below. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    free(path);
    if (fd < 0) {
        int e = errno;
        if (strerror_r(e, ebuf, sizeof(ebuf)) != 0)
            snprintf(ebuf, sizeof(ebuf), "error %d", e);
        return asm_error_at(as, fpos, "cannot open '%s': %s", q, ebuf);
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return asm_error_at(as, fpos, "cannot read '%s': not a regular file", q);
    }
    uint64_t size = (uint64_t)st.st_size;
    if ((uint64_t)off > size) {
        close(fd);
        return asm_error_at(as, opos, "offset %lld is past the end of '%s' (%llu bytes)",
                            (long long)off, q, (unsigned long long)size);
    }
    if (len < 0) {
        len = (int64_t)(size - (uint64_t)off);
    } else if ((uint64_t)len > size - (uint64_t)off) {
        close(fd);
        return asm_error_at(as, lpos,
                            "offset %lld + length %lld is past the end of '%s' (%llu bytes)",
                            (long long)off, (long long)len, q, (unsigned long long)size);
    }
    if ((uint64_t)len > ASM_MAX_OUTPUT) {
        close(fd);
        return asm_error_at(as, as->stmt_pos, "output larger than %zu MiB",
                            ASM_MAX_OUTPUT >> 20);
    }
    uint8_t *dst;
    rc = asm_reserve(as, (size_t)len, &dst);
    if (rc == 0 && dst) { /* bytes are only needed in the final pass */
        int e = read_range(fd, dst, (uint64_t)off, (size_t)len);
        if (e) {
            if (strerror_r(e, ebuf, sizeof(ebuf)) != 0)
                snprintf(ebuf, sizeof(ebuf), "error %d", e);
            rc = asm_error_at(as, fpos, "cannot read '%s': %s", q, ebuf);
        }
    }
    close(fd);
    return rc;
}

static int dir_section(cg_asm *as)
{
    char name[ASM_MAX_IDENT + 1];
    const char *npos, *bpos = NULL;
    int rc = asm_lex_ident(as, name, sizeof(name), &npos);
    if (rc)
        return rc;
    int64_t base = 0;
    bool has_base = cg_asm_accept(as, ',');
    if (has_base && (rc = expr_at(as, &base, &bpos)) != 0)
        return rc;
    return asm_section_switch(as, name, has_base, (uint64_t)base, bpos ? bpos : npos);
}

static int dir_equ(cg_asm *as)
{
    char name[ASM_MAX_IDENT + 1];
    const char *npos, *vpos;
    int rc = asm_lex_ident(as, name, sizeof(name), &npos);
    if (rc == 0)
        rc = cg_asm_expect(as, ',');
    int64_t v;
    size_t first = as->nedges;
    as->equ_rec = as->final;
    if (rc == 0)
        rc = expr_at(as, &v, &vpos);
    as->equ_rec = false;
    if (rc == 0)
        rc = asm_define(as, name, strlen(name), v, npos);
    asm_equ_done(as, rc == 0 ? first : as->nedges, name, strlen(name));
    return rc;
}

int asm_directive(cg_asm *as, const char *name)
{
    if (strcmp(name, ".org") == 0)
        return dir_org(as);
    if (strcmp(name, ".align") == 0)
        return dir_align(as);
    if (strcmp(name, ".byte") == 0)
        return dir_data(as, 1);
    if (strcmp(name, ".half") == 0)
        return dir_data(as, 2);
    if (strcmp(name, ".word") == 0)
        return dir_data(as, 4);
    if (strcmp(name, ".dword") == 0)
        return dir_data(as, 8);
    if (strcmp(name, ".float") == 0)
        return dir_float(as);
    if (strcmp(name, ".incbin") == 0)
        return dir_incbin(as);
    if (strcmp(name, ".include") == 0)
        return dir_include(as);
    if (strcmp(name, ".section") == 0)
        return dir_section(as);
    if (strcmp(name, ".equ") == 0)
        return dir_equ(as);
    return CG_ERR_NOENT;
}
