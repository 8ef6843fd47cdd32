/* Maxwell warp interpreter internals shared by sass_exec.c (ALU, memory,
 * control flow) and sass_exec_tex.c (texture instructions). */
#ifndef CMDGPU_NV_SASS_EXEC_INTERNAL_H
#define CMDGPU_NV_SASS_EXEC_INTERNAL_H

#include "nv/tables/sass.h"
#include "sass_exec.h"

#define NV_SASS_MAX_INSNS 65536u /* decoded instructions per program */
#define NV_SASS_STACK 64u        /* reconvergence stack entries */

/* Operand kinds after predecoding. */
enum { XO_NONE, XO_REG, XO_IMM, XO_CB, XO_PRED, XO_MEM, XO_CBX, XO_ATTR, XO_SR, XO_TARGET };

typedef struct xopnd {
    uint8_t kind;
    uint8_t neg, abs, inv, pnot; /* attribute bits of the operand */
    uint8_t reg;                 /* XO_REG/XO_PRED number; Ra of MEM/CBX/ATTR */
    uint8_t bank;                /* XO_CB/XO_CBX */
    uint32_t val;                /* immediate (expanded), cb byte offset, SR, attr offset */
    int32_t off;                 /* MEM/CBX signed offset, TARGET byte offset */
} xopnd;

/* Modifier slots: every enumerated/flag field of a form lands in one slot,
 * chosen at build time from its suffix names in sass.def. */
enum {
    M_RND, M_CMP, M_BOP, M_BOP2, M_LOP, M_FTZ, M_SCALE, M_MUFU, M_SIGNED, M_XSIGN, M_XMODE,
    M_XSEL, M_DTYPE, M_STYPE, M_BSEL, M_PRMT, M_IPA, M_SAMPLE, M_ASIZE, M_MSIZE, M_TEXS,
    M_TEXDIM, M_LOD, M_CC, M_PMODE, M_SHIFT3, M_AH, M_BH, M_CH, M_COMP, M_TOFF, M_PRCC,
    M_LDCMODE, M_IGNORE, M_COUNT
};

/* Flags (one bit each), by suffix name. */
#define NV_XFLAGS(F_) \
    F_(SAT) F_(X) F_(CC) F_(BF) F_(PSL) F_(MRG) F_(A_H1) F_(B_H1) F_(W) F_(BREV) F_(SH) F_(E) F_(O) \
    F_(P) F_(NODEP) F_(U) F_(LMT) F_(KEEPREFCOUNT) F_(AOFFI) F_(DC) F_(MS) F_(CL) F_(NDV) F_(ARRAY) \
    F_(F16) F_(TRIG) F_(LUT) F_(IDX)
enum {
#define XF_ENUM(n) XFB_##n,
    NV_XFLAGS(XF_ENUM)
#undef XF_ENUM
    XFB_COUNT
};
#define XF(n) (1u << XFB_##n)

/* Handlers, one per mnemonic (sass_exec.c maps the form's mnemonic). */
enum {
    H_UNSUPPORTED, H_MOV, H_SEL, H_PRMT, H_FADD, H_FMUL, H_FFMA, H_FMNMX, H_FSET, H_FSETP,
    H_FCMP, H_MUFU, H_RRO, H_F2F, H_F2I, H_I2F, H_I2I, H_IADD, H_IADD3, H_ISCADD, H_XMAD,
    H_IMNMX, H_ISETP, H_ISET, H_SHL, H_SHR, H_LOP, H_LOP3, H_BFE, H_BFI, H_FLO, H_POPC,
    H_PSETP, H_PSET, H_P2R, H_R2P, H_LDC, H_LD, H_ST, H_LDL, H_STL, H_ALD, H_AST, H_IPA,
    H_S2R, H_TEX, H_TEXS, H_TLD, H_TLDS, H_TLD4, H_TXQ, H_SSY, H_PBK, H_BRA, H_SYNC, H_BRK,
    H_EXIT, H_KIL, H_NOP, H_COUNT
};

typedef struct xins {
    uint8_t handler, guard, gnot, nop;
    int16_t form;
    uint8_t mod[M_COUNT];
    uint32_t flags;
    xopnd o[6];
    uint64_t word;
    bool bad;        /* a modifier value the interpreter does not model */
} xins;

struct nv_sass_prog {
    nv_sph sph;
    uint64_t start_va, code_va, region_va, region_size;
    uint32_t n;            /* decoded instructions */
    xins *ins;
    uint64_t end_fault_va; /* first unreadable code byte, 0 = none */
    nv_sass_prog_info info;
};

typedef struct xstack {
    uint8_t type; /* 0 divergence, 1 SSY, 2 PBK */
    uint32_t pc;
    uint32_t mask;
} xstack;

typedef struct xctx {
    const nv_sass_prog *p;
    const nv_sass_env *env;
    nv_sass_warp *w;
    nv_sass_fault *fault;
    const xins *in;
    uint32_t pc;   /* current instruction index */
    uint32_t m;    /* lanes running this instruction (active and guard true) */
} xctx;

/* Instruction index <-> byte offset from the program start (SPH). */
static inline uint64_t nv_xpc_bytes(uint32_t i)
{
    return 0x50 + ((uint64_t)(i / 3) * 4 + i % 3 + 1) * 8;
}

int nv_xfault(xctx *c, cg_fault_kind kind, uint64_t va, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
int nv_xunsupported(xctx *c);
/* Operand i's 32 lane values (registers by pointer, others in tmp). NULL on
 * fault (constant-buffer bounds). */
const uint32_t *nv_xsrc(xctx *c, int i, uint32_t tmp[NV_WARP]);
void nv_xwrite(nv_sass_warp *w, unsigned reg, uint32_t m, const uint32_t *v);

/* sass_exec_tex.c */
int nv_xtex(xctx *c);

#endif
