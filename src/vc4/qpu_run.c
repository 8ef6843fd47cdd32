/* VideoCore IV QPU interpreter: 16 lanes, register files A and B,
 * accumulators r0-r5, flags, pack/unpack, signals, load immediate,
 * semaphores, branches, SFU, TLB and fragment I/O.
 *
 * Facts: research/vc4.md section 3 (encodings, registers, restrictions);
 * maazl/vc4asm doc/VideoCoreIV-addendum.html ("addendum": flags only where
 * the condition holds and from the mul ALU only when the add op is nop,
 * denormals flushed to zero, r5quad/r5rep, branch register from element 15,
 * branch link and flags only when taken, rotation within quads unless both
 * mul inputs are r0-r3); anholt/mesa vc4_program.c (C flag = carry of add,
 * borrow of sub: nir_op_uadd_carry / nir_op_usub_borrow); doe300/VC4C
 * src/asm/OpCodes.h (C flag per op, float edge cases, ftoi range, and the
 * Guide on semaphores: stall below 0 and above 15, otherwise "behaves like
 * a 32-bit load immediate"). Every other modelling choice is listed in
 * docs/vc4-qpu.md. */
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/mem_internal.h"
#include "qpu_io.h"

#define LANES 16
#define ALL_LANES 0xffffu

static inline float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Denormals are flushed to zero, keeping the sign (addendum: "no support
 * for denormal numbers. They are just truncated to 0"). NaN results come
 * out as the default quiet NaN 0x7fc00000 (model choice). */
static inline uint32_t ftz(uint32_t u)
{
    if ((u & 0x7f800000u) == 0)
        return u & 0x80000000u;
    return u;
}
static inline uint32_t fres(float f)
{
    if (f != f)
        return 0x7fc00000u;
    return ftz(f2u(f));
}
/* A float operand: denormals flushed; a NaN acts as the infinity of its
 * sign (addendum: hardware "uses the binary representation of +-Inf";
 * doe300/VC4C src/asm/OpCodes.h measured fmul(NaN, x) = +-Inf,
 * NaN + 1.0-style sums = +Inf). */
static inline float fin(uint32_t u)
{
    u = ftz(u);
    if ((u & 0x7f800000u) == 0x7f800000u)
        u &= 0xff800000u;
    return u2f(u);
}

/* Order of fmin/fmax: sign-magnitude comparison of the bit patterns, so
 * -Inf < ... < -0 < +0 < ... < +Inf < NaN (VC4C OpCodes.h: "NaN
 * (0x7F8xxxxx) > Inf (0x7F800000)"). */
static inline bool fgreater(uint32_t a, uint32_t b)
{
    int64_t x = (a & 0x80000000u) ? -(int64_t)(a & 0x7fffffffu) - 1 : (int64_t)a;
    int64_t y = (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) - 1 : (int64_t)b;
    return x > y;
}

/* ---- faults ---- */

static int post(vc4_qpu_state *s, cg_fault_kind kind, bool warning, uint64_t gpu_addr,
                const char *fmt, va_list ap)
{
    char msg[CG_FAULT_MSG_LEN];
    vsnprintf(msg, sizeof msg, fmt, ap);
    cg_fault f;
    cg_fault_init(&f, &s->agent, kind, gpu_addr, "%s", msg);
    if (warning)
        f.flags |= CG_FAULT_F_WARNING;
    return cg_fault_raise(s->dev, &f);
}

static int fault(vc4_qpu_state *s, cg_fault_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fault(vc4_qpu_state *s, cg_fault_kind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    post(s, kind, false, 0, fmt, ap);
    va_end(ap);
    s->ended = true;
    return CG_ERR_FAULT;
}

int vc4__qpu_fault(vc4_qpu_state *s, cg_fault_kind kind, uint64_t gpu_addr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    post(s, kind, false, gpu_addr, fmt, ap);
    va_end(ap);
    s->ended = true;
    return CG_ERR_FAULT;
}

/* A documented restriction broken: a warning, or in strict mode a fault. */
static int diag(vc4_qpu_state *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int diag(vc4_qpu_state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = post(s, CG_FAULT_BAD_STATE, !s->strict, 0, fmt, ap);
    va_end(ap);
    if (s->strict) {
        s->ended = true;
        return CG_ERR_FAULT;
    }
    return rc < 0 ? rc : 0;
}

int vc4__qpu_diag(vc4_qpu_state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = post(s, CG_FAULT_BAD_STATE, !s->strict, 0, fmt, ap);
    va_end(ap);
    if (s->strict) {
        s->ended = true;
        return CG_ERR_FAULT;
    }
    return rc < 0 ? rc : 0;
}

/* Note a register row the run writes (reinit clears it for the next run). */
static inline void dirty_ab(vc4_qpu_state *s, int file, uint32_t n)
{
    unsigned row = (unsigned)file * 32 + n;
    if (!(s->dirty_ab >> row & 1)) {
        s->dirty_ab |= 1ull << row;
        s->dirty_list[s->ndirty++] = (uint8_t)row;
    }
}
static inline void dirty_acc(vc4_qpu_state *s, unsigned n)
{
    if (!(s->dirty_acc >> n & 1)) {
        s->dirty_acc |= (uint8_t)(1u << n);
        s->dirty_list[s->ndirty++] = (uint8_t)(64 + n);
    }
}

/* Everything vc4_qpu_init sets besides zeroing the state. */
static void set_env(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                    uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    s->dev = dev;
    s->bus = bus;
    s->agent.family = CG_FAMILY_VC4;
    s->agent.unit = "qpu";
    s->agent.channel = -1;
    if (who) {
        s->agent.family = who->family;
        s->agent.channel = who->channel;
    }
    s->pc = code_addr;
    s->unif = unif_addr;
    s->strict = strict;
    s->end_wait = -1;
    s->since_branch = 100;
    s->sems = &s->own_sems;
}

void vc4_qpu_init(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                  uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    memset(s, 0, sizeof *s);
    set_env(s, dev, bus, who, code_addr, unif_addr, strict);
}

void vc4_qpu_set_units(vc4_qpu_state *s, vc4_v3d_units *units, uint32_t qpu_num)
{
    s->units = units;
    s->qpu_num = qpu_num;
    s->sems = units ? &units->sems : &s->own_sems;
}

int vc4_qpu_wait_text(const vc4_qpu_state *s, char *buf, size_t cap)
{
    switch (s->wait.kind) {
    case VC4_QPU_WAIT_SEM_ACQUIRE:
        return snprintf(buf, cap, "semaphore %u acquire (count 0)", s->wait.detail & 15);
    case VC4_QPU_WAIT_MUTEX:
        return snprintf(buf, cap, "mutex (held by QPU %u)", s->wait.detail);
    default:
        return snprintf(buf, cap, "nothing");
    }
}

/* vc4_qpu_init for a state that ran before: the same zeroed state, but only
 * the register rows the last run wrote are cleared (the register files and
 * accumulators are 4.4 KiB of the state's 4.6; they come first in it). */
static void reinit(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                   uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    for (unsigned i = 0; i < s->ndirty; i++) {
        unsigned row = s->dirty_list[i];
        uint32_t *p = row < 32 ? s->ra[row] : row < 64 ? s->rb[row - 32] : s->acc[row - 64];
        memset(p, 0, sizeof s->ra[0]);
    }
    memset(&s->zf, 0, sizeof *s - offsetof(vc4_qpu_state, zf));
    set_env(s, dev, bus, who, code_addr, unif_addr, strict);
}

/* ---- the ALUs ---- */

static bool is_float_add(uint32_t op)
{
    return op >= VC4_QPU_A_FADD && op <= VC4_QPU_A_FTOI; /* float inputs */
}

static uint32_t sat8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }

static uint32_t v8op(uint32_t a, uint32_t b, int kind)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i += 8) {
        int32_t x = (int32_t)((a >> i) & 255), y = (int32_t)((b >> i) & 255), v;
        switch (kind) {
        case 0: v = (int32_t)sat8(x + y); break;          /* v8adds */
        case 1: v = (int32_t)sat8(x - y); break;          /* v8subs */
        case 2: v = x < y ? x : y; break;                 /* v8min */
        case 3: v = x > y ? x : y; break;                 /* v8max */
        default: v = (x * y + 127) / 255; break;          /* v8muld: rounded x*y/255 */
        }
        r |= (uint32_t)v << i;
    }
    return r;
}

/* One lane of the add ALU; *carry gets the C flag. */
static uint32_t add_op(uint32_t op, uint32_t a, uint32_t b, bool *carry)
{
    *carry = false;
    float fa, fb;
    switch (op) {
    case VC4_QPU_A_FADD:
    case VC4_QPU_A_FSUB: {
        /* C: the result is positive (VC4C OpCodes.h CARRY_POSITIVE) */
        fa = fin(a);
        fb = fin(b);
        float r = op == VC4_QPU_A_FADD ? fa + fb : fa - fb;
        /* Inf - Inf gives -Inf, not NaN (VC4C OpCodes.h measurements) */
        uint32_t u = r != r ? 0xff800000u : fres(r);
        *carry = !(u & 0x80000000u) && (u & 0x7fffffffu);
        return u;
    }
    case VC4_QPU_A_FMIN:
    case VC4_QPU_A_FMAX:
    case VC4_QPU_A_FMINABS:
    case VC4_QPU_A_FMAXABS: {
        /* C: first operand greater (of the absolute values for *abs)
         * (VC4C OpCodes.h CARRY_FIRST_GREATER_SECOND) */
        uint32_t x = ftz(a), y = ftz(b);
        if (op >= VC4_QPU_A_FMINABS) {
            x &= 0x7fffffffu;
            y &= 0x7fffffffu;
        }
        bool gt = fgreater(x, y);
        *carry = gt;
        if (op == VC4_QPU_A_FMIN || op == VC4_QPU_A_FMINABS)
            return gt ? y : x;
        return gt ? x : y;
    }
    case VC4_QPU_A_FTOI:
        fa = fin(a);
        /* truncation toward zero; NaN, infinities and values outside the
         * int32 range give 0 (VC4C OpCodes.h: "any out-of-bounds value is
         * flushed to zero") */
        if (fa != fa || fa >= 2147483648.0f || fa < -2147483648.0f)
            return 0;
        return (uint32_t)(int32_t)fa;
    case VC4_QPU_A_ITOF: return fres((float)(int32_t)a);
    case VC4_QPU_A_ADD:
        *carry = (uint32_t)(a + b) < a;
        return a + b;
    case VC4_QPU_A_SUB:
        *carry = a < b;
        return a - b;
    /* shifts use b[4:0] (VC4C OpCodes.h); C: non-zero bits shifted out of
     * the bottom (shr, asr) or the top (shl), our reading of VC4C's
     * CARRY_WORD_UNDERFLOW / CARRY_WORD_OVERFLOW */
    case VC4_QPU_A_SHR:
        *carry = (b & 31) && (a & ((1u << (b & 31)) - 1));
        return a >> (b & 31);
    case VC4_QPU_A_ASR:
        *carry = (b & 31) && (a & ((1u << (b & 31)) - 1));
        return (a & 0x80000000u) ? ~(~a >> (b & 31)) : a >> (b & 31);
    case VC4_QPU_A_ROR: return (b & 31) ? (a >> (b & 31)) | (a << (32 - (b & 31))) : a;
    case VC4_QPU_A_SHL:
        *carry = (((uint64_t)a << (b & 31)) >> 32) != 0;
        return a << (b & 31);
    case VC4_QPU_A_MIN: /* C: first operand greater */
        *carry = (int32_t)a > (int32_t)b;
        return (int32_t)a < (int32_t)b ? a : b;
    case VC4_QPU_A_MAX:
        *carry = (int32_t)a > (int32_t)b;
        return (int32_t)a > (int32_t)b ? a : b;
    case VC4_QPU_A_AND: return a & b;
    case VC4_QPU_A_OR: return a | b;
    case VC4_QPU_A_XOR: return a ^ b;
    case VC4_QPU_A_NOT: return ~a;
    case VC4_QPU_A_CLZ: {
        uint32_t n = 0;
        while (n < 32 && !(a & (0x80000000u >> n)))
            n++;
        return n;
    }
    case VC4_QPU_A_V8ADDS: return v8op(a, b, 0);
    case VC4_QPU_A_V8SUBS: return v8op(a, b, 1);
    default: return 0;
    }
}

static uint32_t mul_op(uint32_t op, uint32_t a, uint32_t b, bool *carry)
{
    *carry = false;
    switch (op) {
    case VC4_QPU_M_FMUL: return fres(fin(a) * fin(b));
    case VC4_QPU_M_MUL24: { /* C: the product needs more than 32 bits (VC4C) */
        uint64_t p = (uint64_t)(a & 0xffffffu) * (b & 0xffffffu);
        *carry = p > 0xffffffffu;
        return (uint32_t)p;
    }
    case VC4_QPU_M_V8MULD: return v8op(a, b, 4);
    case VC4_QPU_M_V8MIN: return v8op(a, b, 2);
    case VC4_QPU_M_V8MAX: return v8op(a, b, 3);
    case VC4_QPU_M_V8ADDS: return v8op(a, b, 0);
    case VC4_QPU_M_V8SUBS: return v8op(a, b, 1);
    default: return 0;
    }
}

/* ---- half floats (16a/16b pack and unpack) ---- */

static float half_to_float(uint32_t h)
{
    uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    if (e == 0)
        return s ? -0.0f : 0.0f; /* denormals flush to zero */
    if (e == 31)
        return u2f((s << 31) | 0x7f800000u | (m << 13));
    return u2f((s << 31) | ((e - 15 + 127) << 23) | (m << 13));
}

static uint32_t float_to_half(uint32_t u)
{
    uint32_t s = (u >> 16) & 0x8000u;
    int32_t e = (int32_t)((u >> 23) & 255);
    uint32_t m = u & 0x7fffffu;
    if (e == 255)
        return s | 0x7c00u | (m ? 0x200u : 0);
    e = e - 127 + 15;
    if (e >= 31)
        return s | 0x7c00u; /* overflow: infinity */
    if (e <= 0)
        return s; /* too small for a normal half: zero (no denormals) */
    uint32_t h = s | ((uint32_t)e << 10) | (m >> 13);
    uint32_t rest = m & 0x1fffu; /* round to nearest even */
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
        h++;
    return h;
}

/* Unpack a regfile-A (or r4) value for a consumer of type float or int
 * (Table 4). */
static uint32_t unpack(uint32_t mode, uint32_t v, bool fl)
{
    switch (mode) {
    case 1: return fl ? f2u(half_to_float(v & 0xffff)) : (uint32_t)(int32_t)(int16_t)(v & 0xffff);
    case 2: return fl ? f2u(half_to_float(v >> 16)) : (uint32_t)(int32_t)(int16_t)(v >> 16);
    case 3: /* 8d replicated */
        if (fl)
            return f2u((float)(v >> 24) / 255.0f);
        return (v >> 24) * 0x01010101u;
    case 4: case 5: case 6: case 7: {
        uint32_t byte = (v >> (8 * (mode - 4))) & 255;
        return fl ? f2u((float)byte / 255.0f) : byte;
    }
    default: return v;
    }
}

static uint32_t sat16(int32_t v) { return (uint32_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v) & 0xffff; }

/* Regfile-A pack (pm=0, Table 3): the new value of the register given its
 * old value; 16- and 8-bit packs leave the other bits alone. */
static uint32_t pack_a(uint32_t mode, uint32_t v, uint32_t old, bool fl, bool ovf_pos, bool ovf_neg)
{
    uint32_t lo16, b8;
    switch (mode) {
    case 0: return v;
    case 8: /* 32-bit saturate: an add/sub that overflowed clamps */
        if (ovf_pos)
            return 0x7fffffffu;
        if (ovf_neg)
            return 0x80000000u;
        return v;
    case 1: case 2: case 9: case 10:
        if (fl)
            lo16 = float_to_half(v);
        else
            lo16 = mode >= 9 ? sat16((int32_t)v) : (v & 0xffff);
        return (mode == 1 || mode == 9) ? (old & 0xffff0000u) | lo16 : (old & 0xffffu) | (lo16 << 16);
    case 3: case 11:
        b8 = mode == 11 ? sat8((int32_t)v) : (v & 255);
        return b8 * 0x01010101u;
    default: { /* 4-7 8a-8d, 12-15 saturated */
        int sh = 8 * (int)((mode & 3));
        b8 = mode >= 12 ? sat8((int32_t)v) : (v & 255);
        return (old & ~(0xffu << sh)) | (b8 << sh);
    }
    }
}

/* Mul colour pack (pm=1): float [0,1] to 8 bits, rounded. */
static uint32_t color8(uint32_t v)
{
    float f = fin(v);
    if (!(f > 0.0f))
        return 0;
    if (f >= 1.0f)
        return 255;
    return (uint32_t)(f * 255.0f + 0.5f);
}
static uint32_t pack_m(uint32_t mode, uint32_t v, uint32_t old)
{
    uint32_t c = color8(v);
    if (mode == 3)
        return c * 0x01010101u;
    int sh = 8 * (int)(mode - 4);
    return (old & ~(0xffu << sh)) | (c << sh);
}

static uint16_t cond_mask(const vc4_qpu_state *s, uint32_t cond)
{
    switch (cond) {
    case 0: return 0;
    case 1: return ALL_LANES;
    case 2: return s->zf;
    case 3: return (uint16_t)~s->zf;
    case 4: return s->nf;
    case 5: return (uint16_t)~s->nf;
    case 6: return s->cf;
    default: return (uint16_t)~s->cf;
    }
}

/* ---- register reads ---- */

typedef struct rd {
    uint32_t v[LANES];
    bool r5_pending;
    uint32_t r5[LANES];
} rd;

static int read_uniform(vc4_qpu_state *s, uint32_t *out)
{
    uint32_t v;
    if (cg_vas_read(s->bus, s->unif, &v, 4, &s->agent) != 0) {
        s->ended = true;
        return CG_ERR_FAULT;
    }
    s->unif += 4;
    for (int i = 0; i < LANES; i++)
        out[i] = v;
    return 0;
}

int vc4__qpu_uniform(vc4_qpu_state *s, uint32_t *v)
{
    uint32_t t[LANES];
    int rc = read_uniform(s, t);
    *v = t[0];
    return rc;
}

/* Read regfile `file` address n into out (I/O side effects included). */
static int read_reg(vc4_qpu_state *s, int file, uint32_t n, rd *r, uint32_t *out, uint64_t ins)
{
    int rc;
    if (n < 32) {
        uint64_t prev = file ? s->prev_phys_b : s->prev_phys_a;
        if ((prev >> n) & 1) {
            rc = diag(s, "reads r%c%u, written by the previous instruction", file ? 'b' : 'a', n);
            if (rc)
                return rc;
        }
        memcpy(out, file ? s->rb[n] : s->ra[n], sizeof(uint32_t) * LANES);
        return 0;
    }
    const vc4_qpu_reginfo *ri = &vc4_qpu_raddrs[n];
    vc4_frag_batch *fb = s->frag;
    switch (ri->kind[file]) {
    case VC4_QPU_IO_NOP:
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    case VC4_QPU_IO_UNIF:
        return read_uniform(s, out);
    case VC4_QPU_IO_VARY: {
        uint32_t k = s->nvary_read++;
        if (!fb || k >= fb->nvary || k >= VC4_QPU_MAX_VARYINGS) {
            memset(out, 0, sizeof(uint32_t) * LANES);
            memset(r->r5, 0, sizeof r->r5);
            r->r5_pending = true;
            return diag(s, "varying read %u but only %u varyings are available", k,
                        fb ? fb->nvary : 0);
        }
        for (int i = 0; i < LANES; i++) {
            out[i] = ftz(f2u(fb->vary[k][i]));
            r->r5[i] = ftz(f2u(fb->vary_c[k][i]));
        }
        r->r5_pending = true;
        return 0;
    }
    case VC4_QPU_IO_ELEM:
        for (int i = 0; i < LANES; i++)
            out[i] = (uint32_t)i;
        return 0;
    case VC4_QPU_IO_QPUNUM:
        for (int i = 0; i < LANES; i++)
            out[i] = s->qpu_num; /* 0 unless vc4_qpu_set_units named another */
        return 0;
    case VC4_QPU_IO_XCOORD:
    case VC4_QPU_IO_YCOORD:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? (ri->kind[file] == VC4_QPU_IO_XCOORD ? fb->x[i] : fb->y[i]) : 0;
        return 0;
    case VC4_QPU_IO_MSFLAGS:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? fb->ms_flags[i] : 0;
        return 0;
    case VC4_QPU_IO_REVFLAG:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? (fb->rev_flag & 1) : 0;
        return 0;
    case VC4_QPU_IO_MUTEX:
        if (s->mutex_held) /* nothing else can release it: the QPU stalls for good */
            return fault(s, CG_FAULT_HANG, "mutex acquire while this QPU holds the mutex");
        /* another holder was caught before the instruction issued (blocked) */
        s->mutex_held = true;
        if (s->units)
            s->units->mutex_owner = (int)s->qpu_num;
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    case VC4_QPU_IO_VPM:
        (void)ins;
        if (n == VC4_QPU_R_VPM_READ)
            return vc4__vpm_read(s, out);
        /* VPM_LD_BUSY / VPM_ST_BUSY, VPM_LD_WAIT / VPM_ST_WAIT: a DMA
         * completes when it starts, so never busy and nothing to wait for */
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    default:
        memset(out, 0, sizeof(uint32_t) * LANES);
        return diag(s, "read of reserved register r%c%u", file ? 'b' : 'a', n);
    }
}

/* ---- register writes ---- */

typedef struct wr {
    bool add;       /* add side (else mul) */
    uint32_t waddr;
    int file;       /* 0 A, 1 B */
    uint16_t mask;  /* lanes written */
    uint32_t v[LANES];
} wr;

static int write_reg(vc4_qpu_state *s, const wr *w, uint64_t ins, bool *sfu_started)
{
    uint32_t n = w->waddr;
    uint16_t m = w->mask;
    if (n < 32) {
        uint32_t *dst = w->file ? s->rb[n] : s->ra[n];
        dirty_ab(s, w->file, n);
        for (int i = 0; i < LANES; i++)
            if ((m >> i) & 1)
                dst[i] = w->v[i];
        return 0;
    }
    const vc4_qpu_reginfo *ri = &vc4_qpu_waddrs[n];
    vc4_frag_batch *fb = s->frag;
    uint32_t addr = (uint32_t)s->agent.stream_addr;
    switch (ri->kind[w->file]) {
    case VC4_QPU_IO_NOP:
        return 0;
    case VC4_QPU_IO_ACC:
        dirty_acc(s, n - 32);
        for (int i = 0; i < LANES; i++)
            if ((m >> i) & 1)
                s->acc[n - 32][i] = w->v[i];
        return 0;
    case VC4_QPU_IO_R5QUAD: /* element 0/4/8/12 to its quad (addendum) */
        dirty_acc(s, 5);
        for (int i = 0; i < LANES; i++)
            if ((m >> i) & 1)
                s->acc[5][i] = w->v[i & ~3];
        return 0;
    case VC4_QPU_IO_R5REP: /* element 0 to every element (addendum) */
        dirty_acc(s, 5);
        for (int i = 0; i < LANES; i++)
            if ((m >> i) & 1)
                s->acc[5][i] = w->v[0];
        return 0;
    case VC4_QPU_IO_HOSTINT:
        if ((m & 1) && w->v[0]) /* a non-zero value interrupts (addendum) */
            s->host_int = w->v[0];
        return 0;
    case VC4_QPU_IO_UNIFADDR:
        if (m & 1)
            s->unif = w->v[0];
        return 0;
    case VC4_QPU_IO_MSFLAGS:
        if (fb)
            for (int i = 0; i < LANES; i++)
                if ((m >> i) & 1 & (fb->mask >> i)) {
                    fb->ms_flags[i] = w->v[i] & 15;
                    fb->ms_mask_written |= (uint16_t)(1u << i);
                }
        return 0;
    case VC4_QPU_IO_TLBS:
        if (fb && (m & 1)) {
            fb->stencil_setup = w->v[0];
            fb->stencil_writes++;
        }
        return 0;
    case VC4_QPU_IO_TLBZ:
    case VC4_QPU_IO_TLBC:
    case VC4_QPU_IO_TLBM:
    case VC4_QPU_IO_TLBAM:
        if (!fb)
            return diag(s, "TLB write (%s) outside a fragment shader", ri->name[w->file]);
        {
            uint16_t lanes = m & fb->mask;
            uint32_t *dst;
            uint16_t *written;
            switch (ri->kind[w->file]) {
            case VC4_QPU_IO_TLBZ: dst = fb->z_out, written = &fb->z_mask; break;
            case VC4_QPU_IO_TLBAM: dst = fb->alpha_mask, written = &fb->alpha_mask_written; break;
            default: dst = fb->color, written = &fb->color_mask; break;
            }
            for (int i = 0; i < LANES; i++)
                if ((lanes >> i) & 1)
                    dst[i] = w->v[i];
            *written |= lanes;
        }
        return 0;
    case VC4_QPU_IO_MUTEX:
        if (!s->mutex_held)
            return diag(s, "mutex release while the mutex is not held");
        s->mutex_held = false;
        if (s->units && s->units->mutex_owner == (int)s->qpu_num)
            s->units->mutex_owner = -1;
        return 0;
    case VC4_QPU_IO_SFU: {
        if (*sfu_started) {
            int rc = diag(s, "both ALUs write the SFU in one instruction");
            if (rc)
                return rc;
        }
        *sfu_started = true;
        for (int i = 0; i < LANES; i++) {
            float x = fin(w->v[i]);
            float r;
            switch (n) {
            case VC4_QPU_W_SFU_RECIP: r = 1.0f / x; break;
            case VC4_QPU_W_SFU_RECIPSQRT: r = 1.0f / sqrtf(x); break;
            case VC4_QPU_W_SFU_EXP: r = exp2f(x); break;
            default: r = log2f(x); break;
            }
            s->sfu_result[i] = fres(r);
        }
        s->sfu_wait = 3; /* lands in r4 after the next two instructions */
        return 0;
    }
    case VC4_QPU_IO_QUAD:
    case VC4_QPU_IO_REVFLAG:
        return fault(s, CG_FAULT_UNSUPPORTED, "not supported yet: write to %s at 0x%08x",
                     ri->name[w->file], addr);
    case VC4_QPU_IO_TMU:
        return vc4__tmu_write(s, n, w->v, m);
    case VC4_QPU_IO_VPM:
        (void)ins;
        if (n == VC4_QPU_W_VPM_WRITE)
            return vc4__vpm_write(s, w->v, m);
        /* setups and DMA addresses take element 0 */
        if (!(m & 1))
            return 0;
        if (n == VC4_QPU_W_VPMVCD_RD_SETUP)
            return vc4__vpm_setup(s, w->file, w->v[0]);
        return vc4__vpm_dma(s, w->file, w->v[0]);
    default:
        return fault(s, CG_FAULT_UNSUPPORTED, "not supported yet: write to %s at 0x%08x",
                     ri->name[w->file], addr);
    }
}

/* Two writes of one instruction to the same place? */
static bool same_target(const wr *a, const wr *b)
{
    if (a->waddr == VC4_QPU_W_NOP || b->waddr == VC4_QPU_W_NOP)
        return false;
    if (a->waddr < 32 || b->waddr < 32)
        return a->waddr == b->waddr && a->file == b->file;
    return a->waddr == b->waddr;
}

static void flags_from(vc4_qpu_state *s, const uint32_t *v, const bool *carry, uint16_t lanes,
                       bool fl)
{
    for (int i = 0; i < LANES; i++) {
        if (!((lanes >> i) & 1))
            continue;
        uint16_t bit = (uint16_t)(1u << i);
        bool z = fl ? (v[i] & 0x7fffffffu) == 0 : v[i] == 0;
        bool nn = (v[i] >> 31) & 1;
        s->zf = (uint16_t)(z ? s->zf | bit : s->zf & ~bit);
        s->nf = (uint16_t)(nn ? s->nf | bit : s->nf & ~bit);
        s->cf = (uint16_t)(carry[i] ? s->cf | bit : s->cf & ~bit);
    }
}

/* ---- one instruction ---- */

static int exec_writes(vc4_qpu_state *s, uint64_t ins, wr *w, int nw, uint32_t *phys_a,
                       uint32_t *phys_b, uint8_t *accw)
{
    bool sfu = false;
    if (nw == 2 && (w[0].mask & w[1].mask) && same_target(&w[0], &w[1])) {
        int rc = diag(s, "both ALUs write %s in one instruction",
                      w[0].waddr < 32 ? (w[0].file ? "the same rb register" : "the same ra register")
                                      : vc4_qpu_waddrs[w[0].waddr].name[w[0].file]);
        if (rc)
            return rc;
    }
    for (int k = 0; k < nw; k++) {
        if (w[k].waddr == VC4_QPU_W_NOP || !w[k].mask)
            continue;
        if (w[k].waddr < 32) {
            if (w[k].file)
                *phys_b |= 1u << w[k].waddr;
            else
                *phys_a |= 1u << w[k].waddr;
        } else if (w[k].waddr <= 35) {
            *accw |= (uint8_t)(1u << (w[k].waddr - 32));
        } else if (w[k].waddr == 37) {
            *accw |= 1u << 5;
        }
        int rc = write_reg(s, &w[k], ins, &sfu);
        if (rc)
            return rc;
    }
    return 0;
}

static int exec_alu(vc4_qpu_state *s, uint64_t ins, uint32_t sig, uint32_t *phys_a,
                    uint32_t *phys_b, uint8_t *accw, rd *r)
{
    uint32_t unpk = VC4_QPU_GET(ins, ALU, unpack), pm = VC4_QPU_GET(ins, ALU, pm);
    uint32_t pack = VC4_QPU_GET(ins, ALU, pack);
    uint32_t cond_add = VC4_QPU_GET(ins, ALU, cond_add);
    uint32_t cond_mul = VC4_QPU_GET(ins, ALU, cond_mul);
    bool sf = VC4_QPU_GET(ins, ALU, sf), ws = VC4_QPU_GET(ins, ALU, ws);
    uint32_t waddr_add = VC4_QPU_GET(ins, ALU, waddr_add);
    uint32_t waddr_mul = VC4_QPU_GET(ins, ALU, waddr_mul);
    uint32_t op_mul = VC4_QPU_GET(ins, ALU, op_mul), op_add = VC4_QPU_GET(ins, ALU, op_add);
    uint32_t raddr_a = VC4_QPU_GET(ins, ALU, raddr_a), raddr_b = VC4_QPU_GET(ins, ALU, raddr_b);
    uint32_t mux[4] = {VC4_QPU_GET(ins, ALU, add_a), VC4_QPU_GET(ins, ALU, add_b),
                       VC4_QPU_GET(ins, ALU, mul_a), VC4_QPU_GET(ins, ALU, mul_b)};
    int rc;

    if (op_add && !vc4_qpu_add_ops[op_add].name)
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved add op %u", op_add);
    if (pm && pack && !vc4_qpu_packm[pack].name)
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved mul pack %u", pack);

    /* The register-file ports read whenever raddr names something, used by
     * a mux or not (the kernel validator counts uniforms this way). */
    uint32_t va[LANES], vb[LANES];
    if ((rc = read_reg(s, 0, raddr_a, r, va, ins)))
        return rc;
    bool simm = sig == VC4_QPU_SIG_SMALL_IMMEDIATE;
    if (simm) {
        for (int i = 0; i < LANES; i++)
            vb[i] = vc4_qpu_smallimm_bits[raddr_b];
    } else if ((rc = read_reg(s, 1, raddr_b, r, vb, ins))) {
        return rc;
    }
    bool uses_r4 = false;
    for (int k = 0; k < 4; k++) {
        bool used = k < 2 ? op_add != 0 : op_mul != 0;
        if (used && mux[k] == 4)
            uses_r4 = true;
    }
    if (uses_r4 && s->sfu_wait > 0) {
        if ((rc = diag(s, "reads r4 within two instructions of an SFU write")))
            return rc;
    }

    /* Operands per consumer: unpack depends on float or int use. Inactive
     * sides (nop) compute nothing. */
    bool add_fl = is_float_add(op_add), mul_fl = op_mul == VC4_QPU_M_FMUL;
    uint32_t in[4][LANES];
    for (int k = 0; k < 4; k++) {
        if (!(k < 2 ? op_add : op_mul))
            continue;
        bool fl = k < 2 ? add_fl : mul_fl;
        const uint32_t *src = mux[k] < 6 ? s->acc[mux[k]] : mux[k] == 6 ? va : vb;
        if ((mux[k] == 4 && unpk && pm) || (mux[k] == 6 && unpk && !pm)) {
            for (int i = 0; i < LANES; i++)
                in[k][i] = unpack(unpk, src[i], fl);
        } else {
            memcpy(in[k], src, sizeof in[k]);
        }
    }

    /* Vector rotation of the mul inputs (small immediates 48-63). */
    if (simm && raddr_b >= 48 && op_mul) {
        uint32_t n = raddr_b == 48 ? (s->acc[5][0] & 15) : raddr_b - 48;
        if (raddr_b == 48 && (s->prev_acc & (1u << 5)))
            if ((rc = diag(s, "rotates by r5 right after an instruction that writes r5")))
                return rc;
        for (int k = 2; k < 4; k++)
            if (mux[k] < 4 && (s->prev_acc & (1u << mux[k])))
                if ((rc = diag(s, "rotates r%u right after an instruction that writes it", mux[k])))
                    return rc;
        bool full = mux[2] < 4 && mux[3] < 4;
        for (int k = 2; k < 4; k++) {
            uint32_t t[LANES];
            for (int i = 0; i < LANES; i++) {
                int from = full ? (int)((i - (int)n) & 15) : ((i & ~3) | ((i - (int)n) & 3));
                t[i] = in[k][from];
            }
            memcpy(in[k], t, sizeof t);
        }
    }

    uint32_t ra_res[LANES], rm_res[LANES];
    bool carry_a[LANES], carry_m[LANES];
    bool ovp[LANES], ovn[LANES];
    if (op_add) {
        for (int i = 0; i < LANES; i++) {
            ra_res[i] = add_op(op_add, in[0][i], in[1][i], &carry_a[i]);
            ovp[i] = ovn[i] = false;
            if (op_add == VC4_QPU_A_ADD || op_add == VC4_QPU_A_SUB) {
                int64_t x = (int32_t)in[0][i], y = (int32_t)in[1][i];
                int64_t t = op_add == VC4_QPU_A_ADD ? x + y : x - y;
                ovp[i] = t > INT32_MAX;
                ovn[i] = t < INT32_MIN;
            }
        }
    }
    if (op_mul) {
        for (int i = 0; i < LANES; i++) {
            rm_res[i] = mul_op(op_mul, in[2][i], in[3][i], &carry_m[i]);
        }
    }

    uint16_t madd = op_add ? cond_mask(s, cond_add) : 0;
    uint16_t mmul = op_mul ? cond_mask(s, cond_mul) : 0;

    wr w[2];
    w[0].add = true;
    w[0].waddr = waddr_add;
    w[0].file = ws ? 1 : 0;
    w[0].mask = madd;
    w[1].add = false;
    w[1].waddr = waddr_mul;
    w[1].file = ws ? 0 : 1;
    w[1].mask = mmul;
    /* pack: regfile A write (pm=0) or the mul result (pm=1) */
    for (int k = 0; k < 2; k++) {
        if (!w[k].mask || w[k].waddr == VC4_QPU_W_NOP)
            continue;
        const uint32_t *res = k == 0 ? ra_res : rm_res;
        bool fl = k == 0 ? (add_fl && op_add != VC4_QPU_A_FTOI) || op_add == VC4_QPU_A_ITOF : mul_fl;
        uint32_t n = w[k].waddr;
        bool pa = !pm && pack && w[k].file == 0, pmul = pm && pack && k == 1;
        if (!pa && !pmul) {
            memcpy(w[k].v, res, sizeof w[k].v);
            continue;
        }
        for (int i = 0; i < LANES; i++) {
            uint32_t old = n < 32 ? (w[k].file ? s->rb[n][i] : s->ra[n][i])
                         : (n <= 35 ? s->acc[n - 32][i] : 0);
            w[k].v[i] = pa ? pack_a(pack, res[i], old, fl, k == 0 && ovp[i], k == 0 && ovn[i])
                           : pack_m(pack, res[i], old);
        }
    }
    if (pm && pack >= 4 && mmul && waddr_mul >= 36 && waddr_mul != VC4_QPU_W_NOP &&
        waddr_mul != VC4_QPU_W_ACC5_QUAD)
        if ((rc = diag(s, "byte pack of the mul result into I/O register %s",
                       vc4_qpu_waddrs[waddr_mul].name[w[1].file])))
            return rc;

    if ((rc = exec_writes(s, ins, w, 2, phys_a, phys_b, accw)))
        return rc;

    if (sf) {
        /* flags from the add ALU unless it is a nop, then from the mul ALU;
         * only lanes whose condition holds (addendum) */
        if (op_add)
            flags_from(s, ra_res, carry_a, madd, add_fl && op_add != VC4_QPU_A_FTOI ? true : op_add == VC4_QPU_A_ITOF);
        else if (op_mul)
            flags_from(s, rm_res, carry_m, mmul, mul_fl);
    }
    return 0;
}

static int exec_ldi(vc4_qpu_state *s, uint64_t ins, uint32_t *phys_a, uint32_t *phys_b,
                    uint8_t *accw, bool *stalled)
{
    uint32_t imm = VC4_QPU_GET(ins, LDI, imm), mode = VC4_QPU_GET(ins, LDI, unpack);
    uint32_t pm = VC4_QPU_GET(ins, LDI, pm), pack = VC4_QPU_GET(ins, LDI, pack);
    uint32_t cond_add = VC4_QPU_GET(ins, LDI, cond_add);
    uint32_t cond_mul = VC4_QPU_GET(ins, LDI, cond_mul);
    bool sf = VC4_QPU_GET(ins, LDI, sf), ws = VC4_QPU_GET(ins, LDI, ws);
    uint32_t v[LANES];
    switch (mode) {
    case VC4_QPU_LDI_LOAD_32:
        for (int i = 0; i < LANES; i++)
            v[i] = imm;
        break;
    case VC4_QPU_LDI_PER_ELEMENT_SIGNED:
    case VC4_QPU_LDI_PER_ELEMENT_UNSIGNED:
        /* element i: LSB from bit i, MSB from bit 16+i (vc4asm Disassembler.cpp) */
        for (int i = 0; i < LANES; i++) {
            uint32_t x = ((imm >> i) & 1) | (((imm >> (16 + i)) & 1) << 1);
            v[i] = mode == VC4_QPU_LDI_PER_ELEMENT_SIGNED && (x & 2) ? x | 0xfffffffcu : x;
        }
        break;
    case VC4_QPU_LDI_SEMAPHORE: {
        int rc;
        uint32_t n = imm & 15;
        uint8_t *cnt = &s->sems->count[n];
        if (imm & 16) { /* acquire: waits while the count is 0 */
            if (*cnt == 0) {
                *stalled = true;
                return 0;
            }
            (*cnt)--;
        } else { /* release: a 4-bit counter; past 15 is a fault (the Guide
                  * stalls; nothing in the model could then release it) */
            if (*cnt == 15)
                return fault(s, CG_FAULT_BAD_STATE, "semaphore %u release past 15", n);
            (*cnt)++;
        }
        if ((imm & ~0x1fu) && (rc = diag(s, "semaphore instruction immediate 0x%08x: bits 31:5 "
                                            "are not 0", imm)))
            return rc;
        /* "otherwise behaves like a 32-bit load immediate" (Guide, quoted
         * in VC4C OpCodes.h) */
        for (int i = 0; i < LANES; i++)
            v[i] = imm;
        break;
    }
    default:
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved load-immediate mode %u", mode);
    }
    if (pm && pack && !vc4_qpu_packm[pack].name)
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved mul pack %u", pack);
    wr w[2];
    w[0].add = true;
    w[1].add = false;
    w[0].waddr = VC4_QPU_GET(ins, LDI, waddr_add);
    w[0].file = ws ? 1 : 0;
    w[0].mask = cond_mask(s, cond_add);
    w[1].waddr = VC4_QPU_GET(ins, LDI, waddr_mul);
    w[1].file = ws ? 0 : 1;
    w[1].mask = cond_mask(s, cond_mul);
    for (int k = 0; k < 2; k++) {
        uint32_t n = w[k].waddr;
        bool pa = !pm && pack && w[k].file == 0, pmul = pm && pack && k == 1;
        if (!w[k].mask || n == VC4_QPU_W_NOP)
            continue; /* not written (exec_writes skips it) */
        if (!pa && !pmul) {
            memcpy(w[k].v, v, sizeof v);
            continue;
        }
        for (int i = 0; i < LANES; i++) {
            uint32_t x = v[i];
            if (pa)
                x = pack_a(pack, x, n < 32 ? s->ra[n][i] : 0, false, false, false);
            else
                x = pack_m(pack, x, n < 32 ? (w[k].file ? s->rb[n][i] : s->ra[n][i]) : 0);
            w[k].v[i] = x;
        }
    }
    int rc = exec_writes(s, ins, w, 2, phys_a, phys_b, accw);
    if (rc)
        return rc;
    if (sf) {
        bool carry[LANES] = {0};
        flags_from(s, v, carry, w[0].mask, false);
    }
    return 0;
}

static int exec_branch(vc4_qpu_state *s, uint64_t ins, uint32_t addr, uint32_t *phys_a,
                       uint32_t *phys_b, uint8_t *accw)
{
    uint32_t c = VC4_QPU_GET(ins, BRANCH, cond_br);
    bool rel = VC4_QPU_GET(ins, BRANCH, rel), reg = VC4_QPU_GET(ins, BRANCH, reg);
    uint32_t raddr = VC4_QPU_GET(ins, BRANCH, raddr_a);
    bool ws = VC4_QPU_GET(ins, BRANCH, ws);
    uint32_t imm = VC4_QPU_GET(ins, BRANCH, imm);
    int rc;
    if (!vc4_qpu_bconds[c].name)
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved branch condition %u", c);
    if (s->since_branch < 3)
        if ((rc = diag(s, "branch within two instructions of another branch")))
            return rc;
    if (s->end_wait >= 0)
        if ((rc = diag(s, "branch in the delay slots of a program end")))
            return rc;
    uint16_t f = 0;
    bool any = false, all = false;
    switch (c >> 2) {
    case 0: f = s->zf; break;
    case 1: f = s->nf; break;
    default: f = s->cf; break;
    }
    if (c != 15) {
        if (c & 1)
            f = (uint16_t)~f;
        any = f != 0;
        all = f == ALL_LANES;
    }
    bool taken = c == 15 || ((c & 2) ? any : all);
    s->since_branch = 0;
    if (!taken)
        return 0;
    uint32_t target = rel ? addr + 32 + imm : imm;
    if (reg) {
        if ((s->prev_phys_a >> raddr) & 1)
            if ((rc = diag(s, "branch reads ra%u, written by the previous instruction", raddr)))
                return rc;
        target += s->ra[raddr][15]; /* element 15 (addendum) */
    }
    /* link: the return address, after the three delay slots */
    wr w[2];
    memset(w, 0, sizeof w);
    w[0].waddr = VC4_QPU_GET(ins, BRANCH, waddr_add);
    w[0].file = ws ? 1 : 0;
    w[1].waddr = VC4_QPU_GET(ins, BRANCH, waddr_mul);
    w[1].file = ws ? 0 : 1;
    for (int k = 0; k < 2; k++) {
        w[k].mask = ALL_LANES;
        for (int i = 0; i < LANES; i++)
            w[k].v[i] = addr + 32;
    }
    if ((rc = exec_writes(s, ins, w, 2, phys_a, phys_b, accw)))
        return rc;
    if (raddr & 1) { /* an odd raddr_a sets the flags from the link value (addendum) */
        bool carry[LANES] = {0};
        flags_from(s, w[0].v, carry, ALL_LANES, false);
    }
    s->branch_wait = 4; /* counts this instruction and its three delay slots */
    s->branch_target = target;
    return 0;
}

/* ---- decoded programs ---- */

/* What an instruction needs from the executor, decided once per word. */
enum { K_SIGNAL, K_ALU, K_LDI, K_BRANCH };

static uint8_t classify(uint64_t ins)
{
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    if (sig == VC4_QPU_SIG_LOAD_IMMEDIATE)
        return K_LDI;
    if (sig == VC4_QPU_SIG_BRANCH)
        return K_BRANCH;
    /* both ops nop and nothing read: only the signal matters */
    if (VC4_QPU_GET(ins, ALU, op_mul) || VC4_QPU_GET(ins, ALU, op_add) ||
        VC4_QPU_GET(ins, ALU, pm) ||
        VC4_QPU_GET(ins, ALU, raddr_a) != VC4_QPU_R_NOP ||
        (sig != VC4_QPU_SIG_SMALL_IMMEDIATE && VC4_QPU_GET(ins, ALU, raddr_b) != VC4_QPU_R_NOP))
        return K_ALU;
    return K_SIGNAL;
}

#define PROG_MAX_INS 4096 /* instructions one cached program holds */
#define CACHE_PROGS 8     /* programs (start addresses) a cache holds */

/* The instructions fetched from [start, start + 8n), in fetch order from the
 * start address: the code bytes as they were read and their decoding. */
typedef struct vc4_qpu_prog {
    uint32_t start, n, cap;
    uint8_t *bytes;
    uint64_t *ins;
    uint8_t *kind;
    uint64_t last_use;
    /* vc4_qpu_cache_payload_use's answer for the first use_n instructions */
    uint32_t use_n;
    bool use_w, use_z;
} vc4_qpu_prog;

struct vc4_qpu_cache {
    vc4_qpu_prog prog[CACHE_PROGS];
    uint64_t tick;
    bool st_ready;
    vc4_qpu_state st;
};

vc4_qpu_cache *vc4_qpu_cache_create(void)
{
    return calloc(1, sizeof(vc4_qpu_cache));
}

void vc4_qpu_cache_destroy(vc4_qpu_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < CACHE_PROGS; i++) {
        free(c->prog[i].bytes);
        free(c->prog[i].ins);
        free(c->prog[i].kind);
    }
    free(c);
}

/* Compare the cached code with memory: the program keeps the instructions
 * before the first changed byte. False (and nothing kept) when some page
 * cannot be read directly (unmapped, or with CPU-cached lines the coherency
 * model must check at every fetch): then this run must not use the cache. */
static bool prog_validate(vc4_qpu_prog *pg, cg_vas *bus)
{
    uint64_t len = 8ull * pg->n, off = 0;
    while (off < len) {
        uint8_t *p;
        size_t got = cg__vas_span(bus, (uint64_t)pg->start + off, (size_t)(len - off), false, &p);
        if (got == 0) {
            pg->n = 0;
            pg->use_n = UINT32_MAX;
            return false;
        }
        if (memcmp(p, pg->bytes + off, got) != 0) {
            size_t i = 0;
            while (p[i] == pg->bytes[off + i])
                i++;
            pg->n = (uint32_t)((off + i) / 8);
            pg->use_n = UINT32_MAX;
            return true;
        }
        off += got;
    }
    return true;
}

/* The program entry for code at `start`, validated; NULL: run uncached. */
static vc4_qpu_prog *prog_for(vc4_qpu_cache *c, cg_vas *bus, uint32_t start)
{
    vc4_qpu_prog *pg = NULL, *lru = &c->prog[0];
    for (int i = 0; i < CACHE_PROGS; i++) {
        vc4_qpu_prog *q = &c->prog[i];
        if (q->cap && q->start == start) {
            pg = q;
            break;
        }
        if (q->last_use < lru->last_use)
            lru = q;
    }
    if (!pg) {
        pg = lru;
        pg->start = start;
        pg->n = 0;
        pg->use_n = UINT32_MAX;
    }
    pg->last_use = ++c->tick;
    if (!pg->cap) {
        pg->cap = 64;
        pg->bytes = malloc(8 * pg->cap);
        pg->ins = malloc(sizeof *pg->ins * pg->cap);
        pg->kind = malloc(pg->cap);
        if (!pg->bytes || !pg->ins || !pg->kind) {
            free(pg->bytes), free(pg->ins), free(pg->kind);
            pg->bytes = NULL, pg->ins = NULL, pg->kind = NULL;
            pg->cap = 0;
            return NULL;
        }
    }
    return prog_validate(pg, bus) ? pg : NULL;
}

/* Does the instruction name ra15 (file 0) or rb15 (file 1) as a read, a
 * write or a pack destination? */
static bool names_15(uint64_t ins, uint8_t kind, int file)
{
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    bool ws = VC4_QPU_GET(ins, ALU, ws);
    uint32_t wa = VC4_QPU_GET(ins, ALU, waddr_add), wm = VC4_QPU_GET(ins, ALU, waddr_mul);
    /* the add result goes to file A unless ws, the mul result the other way */
    if ((wa == 15 && (int)ws == file) || (wm == 15 && (int)!ws == file))
        return true;
    if (kind != K_ALU) /* ldi reads nothing; a branch ends the analysis */
        return false;
    if (file == 0)
        return VC4_QPU_GET(ins, ALU, raddr_a) == 15;
    return sig != VC4_QPU_SIG_SMALL_IMMEDIATE && VC4_QPU_GET(ins, ALU, raddr_b) == 15;
}

void vc4_qpu_cache_payload_use(vc4_qpu_cache *c, cg_vas *bus, uint32_t code_addr, bool *w,
                               bool *z)
{
    *w = *z = true;
    vc4_qpu_prog *pg = c ? prog_for(c, bus, code_addr) : NULL;
    if (!pg || pg->n == 0)
        return;
    if (pg->use_n != pg->n) {
        pg->use_w = pg->use_z = true;
        pg->use_n = pg->n;
        bool w15 = false, z15 = false;
        for (uint32_t i = 0; i < pg->n; i++) {
            if (pg->kind[i] == K_BRANCH)
                break; /* control flow: not followed */
            w15 |= names_15(pg->ins[i], pg->kind[i], 0);
            z15 |= names_15(pg->ins[i], pg->kind[i], 1);
            uint32_t sig = VC4_QPU_GET(pg->ins[i], ALU, sig);
            if (sig == VC4_QPU_SIG_PROGRAM_END || sig == VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END) {
                /* the program ends after two delay slots */
                if (i + 2 >= pg->n)
                    break;
                bool br = false;
                for (uint32_t k = i + 1; k <= i + 2; k++) {
                    br |= pg->kind[k] == K_BRANCH;
                    w15 |= names_15(pg->ins[k], pg->kind[k], 0);
                    z15 |= names_15(pg->ins[k], pg->kind[k], 1);
                }
                if (!br) {
                    pg->use_w = w15;
                    pg->use_z = z15;
                }
                break;
            }
        }
    }
    *w = pg->use_w;
    *z = pg->use_z;
}

/* Append the instruction fetched at start + 8n (if there is room). */
static void prog_append(vc4_qpu_prog *pg, const uint32_t wv[2], uint64_t ins, uint8_t kind)
{
    if (pg->n >= PROG_MAX_INS || (uint64_t)pg->start + 8ull * (pg->n + 1) > 0x100000000ull)
        return;
    if (pg->n == pg->cap) {
        uint32_t cap = pg->cap * 2;
        uint8_t *b = realloc(pg->bytes, 8 * (size_t)cap);
        if (b)
            pg->bytes = b;
        uint64_t *in = realloc(pg->ins, sizeof *in * cap);
        if (in)
            pg->ins = in;
        uint8_t *k = realloc(pg->kind, cap);
        if (k)
            pg->kind = k;
        if (!b || !in || !k)
            return;
        pg->cap = cap;
    }
    for (int k = 0; k < 8; k++)
        pg->bytes[8 * pg->n + k] = (uint8_t)(wv[k >> 2] >> (8 * (k & 3)));
    pg->ins[pg->n] = ins;
    pg->kind[pg->n] = kind;
    pg->n++;
}

/* Fetch the instruction at addr: from the program cache, or from memory
 * (faults as the bus decides). */
static int fetch(vc4_qpu_state *s, uint32_t addr, uint64_t *ins, uint8_t *kind)
{
    vc4_qpu_prog *pg = s->prog;
    uint32_t off = addr - (pg ? pg->start : 0);
    if (pg && !(off & 7) && off / 8 < pg->n) {
        *ins = pg->ins[off / 8];
        *kind = pg->kind[off / 8];
    } else {
        uint32_t wv[2];
        if (cg_vas_read(s->bus, addr, wv, 8, &s->agent) != 0) {
            s->ended = true;
            return CG_ERR_FAULT;
        }
        /* bus memory is little-endian */
        uint8_t *b = (uint8_t *)wv;
        uint32_t lo = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                      (uint32_t)b[3] << 24;
        uint32_t hi = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
                      (uint32_t)b[7] << 24;
        wv[0] = lo, wv[1] = hi;
        *ins = (uint64_t)hi << 32 | lo;
        *kind = classify(*ins);
        if (pg && off == 8 * pg->n && addr >= pg->start)
            prog_append(pg, wv, *ins, *kind);
    }
    s->agent.words[0] = (uint32_t)*ins;
    s->agent.words[1] = (uint32_t)(*ins >> 32);
    s->agent.nwords = 2;
    return 0;
}

/* Would the instruction wait on another QPU? Checked before it issues, so a
 * blocked instruction has no effect (no uniform read, no write). */
static bool blocks(vc4_qpu_state *s, uint64_t ins, uint8_t kind)
{
    if (kind == K_LDI) {
        uint32_t imm = VC4_QPU_GET(ins, LDI, imm);
        if (VC4_QPU_GET(ins, LDI, unpack) == VC4_QPU_LDI_SEMAPHORE && (imm & 16) &&
            s->sems->count[imm & 15] == 0) {
            s->wait.kind = VC4_QPU_WAIT_SEM_ACQUIRE;
            s->wait.detail = imm & 15;
            return true;
        }
        return false;
    }
    if (kind != K_ALU || !s->units || s->units->mutex_owner < 0 ||
        s->units->mutex_owner == (int)s->qpu_num)
        return false;
    bool simm = VC4_QPU_GET(ins, ALU, sig) == VC4_QPU_SIG_SMALL_IMMEDIATE;
    if (VC4_QPU_GET(ins, ALU, raddr_a) == VC4_QPU_R_MUTEX_ACQUIRE ||
        (!simm && VC4_QPU_GET(ins, ALU, raddr_b) == VC4_QPU_R_MUTEX_ACQUIRE)) {
        s->wait.kind = VC4_QPU_WAIT_MUTEX;
        s->wait.detail = (uint32_t)s->units->mutex_owner;
        return true;
    }
    return false;
}

int vc4_qpu_step(vc4_qpu_state *s)
{
    if (s->ended)
        return 0;
    uint32_t addr = s->pc;
    s->agent.stream_addr = addr;
    s->agent.nwords = 0;
    uint64_t ins;
    uint8_t kind;
    if (fetch(s, addr, &ins, &kind) != 0)
        return CG_ERR_FAULT;
    if (kind != K_SIGNAL && kind != K_BRANCH && blocks(s, ins, kind)) {
        s->stalls++;
        s->executed++; /* a stall cycle */
        return VC4_QPU_BLOCKED;
    }
    s->wait.kind = VC4_QPU_WAIT_NONE;
    s->wait.detail = 0;
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    uint32_t phys_a = 0, phys_b = 0;
    uint8_t accw = 0;
    bool stalled = false;
    rd r;
    r.r5_pending = false;
    int rc = 0;
    s->executed++;

    /* signals that stop here */
    switch (sig) {
    case VC4_QPU_SIG_SOFTWARE_BREAKPOINT:
        return fault(s, CG_FAULT_TRAP, "software breakpoint at 0x%08x", addr);
    case VC4_QPU_SIG_ALPHA_MASK_LOAD:
        return fault(s, CG_FAULT_UNSUPPORTED, "not supported yet: loadam (alpha-mask load) at 0x%08x",
                     addr);
    case VC4_QPU_SIG_WAIT_FOR_SCOREBOARD:
        if (s->executed <= 2 && (rc = diag(s, "scoreboard wait in the first two instructions")))
            return rc;
        s->sbwait_done = true;
        break;
    default:
        break;
    }
    bool is_end = sig == VC4_QPU_SIG_PROGRAM_END || sig == VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END;
    if (is_end && s->end_wait >= 0 && (rc = diag(s, "program end in the delay slots of a program end")))
        return rc;
    if (is_end && s->branch_wait > 0 && (rc = diag(s, "program end in the delay slots of a branch")))
        return rc;

    if (kind == K_LDI)
        rc = exec_ldi(s, ins, &phys_a, &phys_b, &accw, &stalled);
    else if (kind == K_BRANCH)
        rc = exec_branch(s, ins, addr, &phys_a, &phys_b, &accw);
    else if (kind == K_ALU)
        rc = exec_alu(s, ins, sig, &phys_a, &phys_b, &accw, &r);
    if (rc)
        return rc;
    if (stalled) /* semaphore: the same instruction again next cycle */
        return 0;

    /* Rules on the last three instructions (thrend and its delay slots). */
    if (sig != VC4_QPU_SIG_LOAD_IMMEDIATE && sig != VC4_QPU_SIG_BRANCH &&
        (is_end || s->end_wait >= 0)) {
        uint32_t ra = VC4_QPU_GET(ins, ALU, raddr_a), rb = VC4_QPU_GET(ins, ALU, raddr_b);
        bool rb_used = sig != VC4_QPU_SIG_SMALL_IMMEDIATE;
        if (ra == VC4_QPU_R_UNIFORM_READ || ra == VC4_QPU_R_VARYING_READ ||
            (rb_used && (rb == VC4_QPU_R_UNIFORM_READ || rb == VC4_QPU_R_VARYING_READ)))
            if ((rc = diag(s, "uniform or varying read in the last three instructions")))
                return rc;
    }
    if (is_end && (phys_a || phys_b))
        if ((rc = diag(s, "program end instruction writes a register-file register")))
            return rc;

    /* results that land at the end of this instruction */
    if (r.r5_pending) {
        memcpy(s->acc[5], r.r5, sizeof r.r5);
        dirty_acc(s, 5);
    }
    vc4_frag_batch *fb = s->frag;
    if (sig == VC4_QPU_SIG_COLOUR_LOAD || sig == VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END) {
        dirty_acc(s, 4);
        for (int i = 0; i < LANES; i++)
            s->acc[4][i] = fb ? fb->tlb_color_in[i] : 0;
        if (!fb && (rc = diag(s, "colour load outside a fragment shader")))
            return rc;
    } else if (sig == VC4_QPU_SIG_COVERAGE_LOAD) {
        dirty_acc(s, 4);
        for (int i = 0; i < LANES; i++)
            s->acc[4][i] = fb ? fb->coverage_in[i] : 0;
        if (!fb && (rc = diag(s, "coverage load outside a fragment shader")))
            return rc;
    }
    if (sig == VC4_QPU_SIG_LOAD_TMU0 || sig == VC4_QPU_SIG_LOAD_TMU1) {
        /* the oldest result of that TMU lands in r4 for the next instruction */
        if ((rc = vc4__tmu_pop(s, (int)(sig - VC4_QPU_SIG_LOAD_TMU0), s->acc[4])))
            return rc;
        dirty_acc(s, 4);
    }
    if (s->sfu_wait > 0 && --s->sfu_wait == 0) {
        memcpy(s->acc[4], s->sfu_result, sizeof s->sfu_result);
        dirty_acc(s, 4);
    }

    s->prev_phys_a = phys_a;
    s->prev_phys_b = phys_b;
    s->prev_acc = accw;
    if (s->since_branch < 100)
        s->since_branch++;

    /* control flow: end after two delay slots, branch after three */
    if (s->end_wait >= 0) {
        if (s->end_wait == 0 || --s->end_wait == 0) {
            s->ended = true;
            return 0;
        }
    }
    if (is_end && s->end_wait < 0)
        s->end_wait = 2;
    if (s->branch_wait > 0 && --s->branch_wait == 0) {
        s->pc = s->branch_target;
        return 0;
    }
    s->pc = addr + 8;
    return 0;
}

int vc4_qpu_run(vc4_qpu_state *s, uint64_t budget)
{
    uint64_t start = s->executed;
    while (!s->ended) {
        if (s->executed - start >= budget) {
            cg_fault f;
            char what[96] = "";
            if (s->wait.kind != VC4_QPU_WAIT_NONE) {
                memcpy(what, "; waits on ", 11);
                vc4_qpu_wait_text(s, what + 11, sizeof what - 11);
            }
            cg_fault_init(&f, &s->agent, CG_FAULT_HANG, 0,
                          "budget %s: QPU program did not end within %llu instructions "
                          "(pc 0x%08x%s)", cg_budget_name(CG_BUDGET_VC4_QPU_INSNS),
                          (unsigned long long)budget, s->pc, what);
            f.stream_addr = s->pc;
            f.nwords = 0;
            cg_fault_raise(s->dev, &f);
            s->ended = true;
            return CG_ERR_FAULT;
        }
        int rc = vc4_qpu_step(s);
        if (rc == VC4_QPU_BLOCKED)
            continue; /* alone, nothing ends the wait: the budget will */
        if (rc)
            return rc;
    }
    return 0;
}

int vc4_qpu_run_fragment(cg_device *dev, cg_vas *bus, const cg_agent *who,
                         uint32_t code_addr, uint32_t unif_addr,
                         vc4_frag_batch *b, uint64_t budget, bool strict)
{
    return vc4_qpu_run_fragment_cached(NULL, dev, bus, who, code_addr, unif_addr, b, budget,
                                       strict);
}

int vc4_qpu_run_fragment_cached(vc4_qpu_cache *c, cg_device *dev, cg_vas *bus,
                                const cg_agent *who, uint32_t code_addr, uint32_t unif_addr,
                                vc4_frag_batch *b, uint64_t budget, bool strict)
{
    if (!dev || !bus || !b)
        return CG_ERR_INVAL;
    vc4_qpu_state st;
    vc4_qpu_state *s = &st;
    if (c) {
        s = &c->st;
        if (c->st_ready)
            reinit(s, dev, bus, who, code_addr, unif_addr, strict);
        else
            vc4_qpu_init(s, dev, bus, who, code_addr, unif_addr, strict);
        c->st_ready = true;
        s->prog = prog_for(c, bus, code_addr);
    } else {
        vc4_qpu_init(s, dev, bus, who, code_addr, unif_addr, strict);
    }
    s->frag = b;
    if (b->sems)
        s->sems = b->sems;
    /* the fragment payload: ra15 = W, rb15 = Z (research/vc4.md section 3) */
    memcpy(s->ra[15], b->frag_w, sizeof b->frag_w);
    memcpy(s->rb[15], b->frag_z, sizeof b->frag_z);
    dirty_ab(s, 0, 15);
    dirty_ab(s, 1, 15);
    for (int i = 0; i < LANES; i++)
        b->ms_flags[i] = (b->mask >> i) & 1 ? 15 : 0;
    /* outputs start empty for each batch */
    b->color_mask = b->z_mask = b->ms_mask_written = b->alpha_mask_written = 0;
    b->stencil_writes = 0;
    int rc = vc4_qpu_run(s, budget);
    b->host_int = s->host_int;
    return rc;
}
