/* Maxwell shader instructions: the form table (sass.def), its spec compiler,
 * the decoder and the scheduling control words. */
#include "sass.h"
#include <string.h>

const nv_sass_form nv_sass_forms[NV_SASS_COUNT] = {
#define NV_SASS(id, mn, handler, value, mask, spec) {mn, value, mask, spec},
#include "sass.def"
};

/* The modifier field names, NV_SASS_M_* order. */
static const char *const mod_names[NV_SASS_M_COUNT] = {
#define NV_SASS_MOD_(name) #name,
    NV_SASS_MODS(NV_SASS_MOD_)
#undef NV_SASS_MOD_
};

/* The field named by [s, s + n): its NV_SASS_M_* number, or -1. */
static int mod_of(const char *s, size_t n)
{
    for (int i = 0; i < NV_SASS_M_COUNT; i++)
        if (strlen(mod_names[i]) == n && memcmp(mod_names[i], s, n) == 0)
            return i;
    return -1;
}

uint64_t nv_sass_get(uint64_t w, const nv_sass_bits *b)
{
    uint64_t v = 0;
    for (int i = 0; i < b->nseg; i++)
        v = v << b->len[i] | ((w >> b->lo[i]) & ((1ull << b->len[i]) - 1));
    return v;
}

uint64_t nv_sass_put(uint64_t w, const nv_sass_bits *b, uint64_t v)
{
    for (int i = b->nseg - 1; i >= 0; i--) {
        uint64_t m = ((1ull << b->len[i]) - 1) << b->lo[i];
        w = (w & ~m) | ((v << b->lo[i]) & m);
        v >>= b->len[i];
    }
    return w;
}

unsigned nv_sass_width(const nv_sass_bits *b)
{
    unsigned n = 0;
    for (int i = 0; i < b->nseg; i++)
        n += b->len[i];
    return n;
}

static uint64_t bits_mask(const nv_sass_bits *b)
{
    return nv_sass_put(0, b, ~0ull);
}

/* "h:l" or "b", joined by ','; stops at anything else. */
static int parse_bits(const char **sp, nv_sass_bits *b)
{
    const char *s = *sp;
    b->nseg = 0;
    for (;;) {
        unsigned hi = 0, lo;
        if (*s < '0' || *s > '9')
            return -1;
        while (*s >= '0' && *s <= '9')
            hi = hi * 10 + (unsigned)(*s++ - '0');
        lo = hi;
        if (*s == ':') {
            s++;
            if (*s < '0' || *s > '9')
                return -1;
            lo = 0;
            while (*s >= '0' && *s <= '9')
                lo = lo * 10 + (unsigned)(*s++ - '0');
        }
        if (hi > 63 || lo > hi || b->nseg == NV_SASS_MAX_SEGS)
            return -1;
        b->lo[b->nseg] = (uint8_t)lo;
        b->len[b->nseg++] = (uint8_t)(hi - lo + 1);
        if (nv_sass_width(b) > 32 && b->nseg > 1)
            return -1;
        if (*s != ',')
            break;
        s++;
    }
    *sp = s;
    return 0;
}

static int parse_bit(const char **sp, int8_t *out)
{
    nv_sass_bits b;
    if (parse_bits(sp, &b) || b.nseg != 1 || b.len[0] != 1)
        return -1;
    *out = (int8_t)b.lo[0];
    return 0;
}

static int compile_field(const char *s, const char *end, nv_sass_field *f)
{
    memset(f, 0, sizeof *f);
    f->neg = f->abs = f->inv = f->pnot = -1;
    f->mod = NV_SASS_M_NONE;
    const char *dot = memchr(s, '.', (size_t)(end - s));
    if (dot) { /* modifier: FIELD.A/B@bits, .NAME@bit or .NAME */
        const char *field = s;
        size_t nfield = (size_t)(dot - s);
        const char *at = memchr(dot, '@', (size_t)(end - dot));
        const char *ne = at ? at : end;
        s = dot + 1;
        if (*s == '/') /* an X-macro list spells itself "/A/B/C" */
            s++;
        while (s <= ne) {
            const char *q = s;
            while (q < ne && *q != '/')
                q++;
            if (f->nnames == NV_SASS_MAX_NAMES || q - s >= 16 || q == s)
                return -1;
            char *n = f->names[f->nnames++];
            if (!(q - s == 1 && *s == '-'))
                memcpy(n, s, (size_t)(q - s));
            s = q + 1;
        }
        /* a flag or a fixed suffix is the field of its name; an
         * enumeration names its field before the dot */
        int m = nfield ? mod_of(field, nfield) : mod_of(f->names[0], strlen(f->names[0]));
        if (m < 0 || (nfield && f->nnames == 1) || (!nfield && f->nnames != 1))
            return -1;
        f->mod = (uint8_t)m;
        if (!at) {
            f->kind = NV_SASS_K_FIXED;
            return f->nnames == 1 && f->names[0][0] ? 0 : -1;
        }
        const char *p = at + 1;
        if (parse_bits(&p, &f->bits) || p != end)
            return -1;
        unsigned w = nv_sass_width(&f->bits);
        if (w > 5)
            return -1;
        if (f->nnames == 1) { /* a flag: value 1 prints the name */
            if (w != 1 || !f->names[0][0])
                return -1;
            f->kind = NV_SASS_K_FLAG;
            memmove(f->names[1], f->names[0], sizeof f->names[0]);
            memset(f->names[0], 0, sizeof f->names[0]);
            f->nnames = 2;
            return 0;
        }
        f->kind = NV_SASS_K_ENUM;
        return f->nnames <= (1u << w) ? 0 : -1;
    }
    static const char kinds[] = "RDPISFGTCXMAYQ";
    const char *k = strchr(kinds, *s);
    if (!k || !*s)
        return -1;
    f->kind = (uint8_t)(NV_SASS_K_R + (k - kinds));
    f->operand = true;
    s++;
    if (f->kind == NV_SASS_K_A && s == end)
        return 0; /* a[Ra] with no offset */
    if (*s++ != '@')
        return -1;
    if (f->kind == NV_SASS_K_C || f->kind == NV_SASS_K_X) {
        nv_sass_bits two;
        if (parse_bits(&s, &two) || two.nseg != 2)
            return -1;
        f->bank.nseg = f->bits.nseg = 1;
        f->bank.lo[0] = two.lo[0], f->bank.len[0] = two.len[0];
        f->bits.lo[0] = two.lo[1], f->bits.len[0] = two.len[1];
    } else if (parse_bits(&s, &f->bits)) {
        return -1;
    }
    while (s < end) {
        char a = *s++;
        if (a == '=') { /* default value, hex */
            if (s == end || f->has_def)
                return -1;
            f->has_def = true;
            for (; s < end; s++) {
                int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
                if (d < 0 || f->def >> 60)
                    return -1;
                f->def = f->def << 4 | (uint64_t)d;
            }
            break;
        }
        int8_t *dst = a == '-' ? &f->neg : a == '|' ? &f->abs : a == '~' ? &f->inv
                    : a == '!' ? &f->pnot : NULL;
        if (!dst || *dst >= 0 || parse_bit(&s, dst))
            return -1;
    }
    unsigned w = nv_sass_width(&f->bits);
    switch (f->kind) {
    case NV_SASS_K_R: case NV_SASS_K_D: case NV_SASS_K_Q:
        return w == 8 ? 0 : -1;
    case NV_SASS_K_P:
        return w == 3 ? 0 : -1;
    case NV_SASS_K_F: case NV_SASS_K_G:
        return w == 20 || w == 32 ? 0 : -1;
    default:
        return w >= 1 && w <= 32 ? 0 : -1;
    }
}

int nv_sass_layout_of(int op, nv_sass_layout *out)
{
    if (op < 0 || op >= NV_SASS_COUNT)
        return -1;
    const char *s = nv_sass_forms[op].spec;
    out->guard = true;
    out->nfields = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        const char *e = s;
        while (*e && *e != ' ')
            e++;
        if (e - s == 2 && s[0] == 'N' && s[1] == 'G') {
            out->guard = false;
        } else {
            if (out->nfields == NV_SASS_MAX_FIELDS ||
                compile_field(s, e, &out->f[out->nfields]))
                return -1;
            for (int i = 0; i < out->nfields; i++) /* a field appears once */
                if (out->f[i].mod != NV_SASS_M_NONE && out->f[i].mod == out->f[out->nfields].mod)
                    return -1;
            out->nfields++;
        }
        s = e;
    }
    return 0;
}

static uint64_t attr_bit(int8_t b)
{
    return b >= 0 ? 1ull << b : 0;
}

uint64_t nv_sass_claimed(const nv_sass_layout *l, int op)
{
    uint64_t m = nv_sass_forms[op].mask;
    if (l->guard)
        m |= 0xfull << 16;
    for (int i = 0; i < l->nfields; i++) {
        const nv_sass_field *f = &l->f[i];
        if (f->kind == NV_SASS_K_FIXED || f->kind == NV_SASS_K_D)
            continue;
        if (!(f->kind == NV_SASS_K_A && f->bits.nseg == 0))
            m |= bits_mask(&f->bits);
        if (f->kind == NV_SASS_K_C || f->kind == NV_SASS_K_X)
            m |= bits_mask(&f->bank);
        if (f->kind == NV_SASS_K_X || f->kind == NV_SASS_K_M || f->kind == NV_SASS_K_A)
            m |= 0xffull << 8; /* Ra */
        m |= attr_bit(f->neg) | attr_bit(f->abs) | attr_bit(f->inv) | attr_bit(f->pnot);
    }
    return m;
}

static int find_form(uint64_t w)
{
    for (int i = 0; i < NV_SASS_COUNT; i++)
        if ((w & nv_sass_forms[i].mask) == nv_sass_forms[i].value)
            return i;
    return NV_SASS_RAW;
}

int nv_sass_decode(uint64_t w, nv_sass_insn *out, nv_sass_layout *layout)
{
    nv_sass_layout local;
    nv_sass_layout *l = layout ? layout : &local;
    memset(out, 0, sizeof *out);
    out->word = w;
    out->op = NV_SASS_RAW;
    int op = find_form(w);
    if (op < 0 || nv_sass_layout_of(op, l))
        return NV_SASS_RAW;
    if (w & ~nv_sass_claimed(l, op))
        return NV_SASS_RAW;
    for (int i = 0; i < l->nfields; i++) {
        const nv_sass_field *f = &l->f[i];
        uint64_t v = f->kind == NV_SASS_K_FIXED ? 0 : nv_sass_get(w, &f->bits);
        if (f->kind == NV_SASS_K_ENUM &&
            (v >= f->nnames || strcmp(f->names[v], "?") == 0))
            return NV_SASS_RAW;
        out->fval[i] = v;
        out->fbank[i] = (uint32_t)nv_sass_get(w, &f->bank);
        out->fneg[i] = f->neg >= 0 && (w >> f->neg & 1);
        out->fabs[i] = f->abs >= 0 && (w >> f->abs & 1);
        out->finv[i] = f->inv >= 0 && (w >> f->inv & 1);
        out->fpnot[i] = f->pnot >= 0 && (w >> f->pnot & 1);
    }
    out->nfields = l->nfields;
    out->guard_pred = l->guard ? (uint8_t)(w >> 16 & 7) : 7;
    out->guard_not = l->guard && (w >> 19 & 1);
    out->op = op;
    return op;
}

void nv_sass_sched_decode(uint64_t w, nv_sass_sched out[3], bool *bit63)
{
    for (int i = 0; i < 3; i++) {
        uint32_t g = (uint32_t)(w >> (21 * i)) & 0x1fffff;
        out[i].stall = g & 15;
        out[i].yield = g >> 4 & 1;
        out[i].wbar = g >> 5 & 7;
        out[i].rbar = g >> 8 & 7;
        out[i].wait = g >> 11 & 63;
        out[i].reuse = g >> 17 & 15;
    }
    if (bit63)
        *bit63 = w >> 63 & 1;
}

uint64_t nv_sass_sched_encode(const nv_sass_sched s[3], bool bit63)
{
    uint64_t w = (uint64_t)bit63 << 63;
    for (int i = 0; i < 3; i++) {
        uint64_t g = (uint64_t)(s[i].stall & 15) | (uint64_t)s[i].yield << 4 |
                     (uint64_t)(s[i].wbar & 7) << 5 | (uint64_t)(s[i].rbar & 7) << 8 |
                     (uint64_t)(s[i].wait & 63) << 11 | (uint64_t)(s[i].reuse & 15) << 17;
        w |= g << (21 * i);
    }
    return w;
}
