/* nv: the Maxwell macro engine (MME), standalone (internal, not installed).
 *
 * A macro machine that knows nothing of channels: the pushbuffer executor
 * owns one nv_mme_state per channel (the MME RAM is per channel, shared by
 * its subchannels: research/nv.md section 3, Ryujinx GPFifoClass.cs), feeds
 * it methods 0x114..0x124 through nv_mme_method(), and runs calls through
 * nv_mme_call() with an nv_mme_io that turns sends into 3D method writes.
 * The ISA is in macro.def; docs/nv-macro.md has the semantics and syntax. */
#ifndef CMDGPU_NV_MACRO_H
#define CMDGPU_NV_MACRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"
#include "nv/tables/methods.h"

/* Code RAM: 0x800 words (envytools envydis/macro.c, Fermi; research/nv.md
 * section 4 -- Mesa's mme_fermi.h uses 0xC00, we keep the documented 0x800).
 * 128 entry points: CALL_MME_MACRO(j) for j < 0x80 (clb197.h via
 * research/nv.md section 4). */
#define NV_MME_CODE_WORDS 0x800u
#define NV_MME_ENTRIES 128u
#define NV_MME_METHODS 0x1000u /* 12-bit method index space of a class */

/* Upload and shadow-RAM methods (byte offsets): MAXWELL_B's rows of the
 * class table (threed_b197.def, clb197.h), the rows whose ACTION column
 * sends them here. The 2D class (twod_902d.def, cl902d.h) lists the same
 * five methods at the same offsets (there they are only stored); the
 * assert keeps the two tables in step. */
#define NV_MME_M_INSTRUCTION_RAM_POINTER NVB197_LOAD_MME_INSTRUCTION_RAM_POINTER
#define NV_MME_M_INSTRUCTION_RAM NVB197_LOAD_MME_INSTRUCTION_RAM
#define NV_MME_M_START_ADDRESS_RAM_POINTER NVB197_LOAD_MME_START_ADDRESS_RAM_POINTER
#define NV_MME_M_START_ADDRESS_RAM NVB197_LOAD_MME_START_ADDRESS_RAM
#define NV_MME_M_SHADOW_RAM_CONTROL NVB197_SET_MME_SHADOW_RAM_CONTROL
#define NV_MME_SAME_(name) ((int)NV902D_##name == (int)NVB197_##name)
_Static_assert(NV_MME_SAME_(LOAD_MME_INSTRUCTION_RAM_POINTER) &&
                   NV_MME_SAME_(LOAD_MME_INSTRUCTION_RAM) &&
                   NV_MME_SAME_(LOAD_MME_START_ADDRESS_RAM_POINTER) &&
                   NV_MME_SAME_(LOAD_MME_START_ADDRESS_RAM) &&
                   NV_MME_SAME_(SET_MME_SHADOW_RAM_CONTROL),
               "the 2D and 3D classes load the MME at the same offsets");
#undef NV_MME_SAME_

enum nv_mme_op {
#define NV_MME_OP(id, value, mn) NV_MME_OP_##id = value,
#include "nv/tables/macro.def"
};
enum nv_mme_alu {
#define NV_MME_ALU(id, value, mn) NV_MME_ALU_##id = value,
#include "nv/tables/macro.def"
};
enum nv_mme_res {
#define NV_MME_RES(id, value, sfx, desc) NV_MME_RES_##id = value,
#include "nv/tables/macro.def"
};
enum nv_mme_shadow_mode {
    NV_MME_SHADOW_TRACK = 0,
    NV_MME_SHADOW_TRACK_WITH_FILTER = 1,
    NV_MME_SHADOW_PASSTHROUGH = 2,
    NV_MME_SHADOW_REPLAY = 3,
};

/* Instruction fields, from macro.def's NV_MME_FIELD rows (research/nv.md
 * section 4): NV_MME_GET(DST, w) reads a field, NV_MME_PUT(DST, r) places a
 * value in it, NV_MME_MASK(DST) is its bits in place. */
enum nv_mme_field {
#define NV_MME_FIELD(id, hi, lo, desc) NV_MME_FLD_##id##_LO = lo, NV_MME_FLD_##id##_HI = hi,
#include "nv/tables/macro.def"
};
#define NV_MME_FLD_BITS(id) (0xFFFFFFFFu >> (31 - NV_MME_FLD_##id##_HI + NV_MME_FLD_##id##_LO))
#define NV_MME_GET(id, w) (((uint32_t)(w) >> NV_MME_FLD_##id##_LO) & NV_MME_FLD_BITS(id))
#define NV_MME_PUT(id, v) (((uint32_t)(v) & NV_MME_FLD_BITS(id)) << NV_MME_FLD_##id##_LO)
#define NV_MME_MASK(id) (NV_MME_FLD_BITS(id) << NV_MME_FLD_##id##_LO)
#define NV_MME_F_OP(w) NV_MME_GET(OP, w)
#define NV_MME_F_RES(w) NV_MME_GET(RES, w)
#define NV_MME_F_EXIT(w) NV_MME_GET(EXIT, w)
#define NV_MME_F_DST(w) NV_MME_GET(DST, w)
#define NV_MME_F_SRCA(w) NV_MME_GET(SRCA, w)
#define NV_MME_F_SRCB(w) NV_MME_GET(SRCB, w)
#define NV_MME_F_ALU(w) NV_MME_GET(ALU, w)
#define NV_MME_F_BSRC(w) NV_MME_GET(BSRC, w)
#define NV_MME_F_BSIZE(w) NV_MME_GET(BSIZE, w)
#define NV_MME_F_BDST(w) NV_MME_GET(BDST, w)
#define NV_MME_F_BNZ(w) NV_MME_GET(BNZ, w)
#define NV_MME_F_BANNUL(w) NV_MME_GET(BANNUL, w)
/* Signed 18-bit immediate, bits 31:14 (the IMM field). */
_Static_assert(NV_MME_FLD_IMM_HI == 31 && NV_MME_FLD_IMM_LO == 14, "IMM is bits 31:14");
static inline int32_t nv_mme_imm(uint32_t w)
{
    int32_t v = (int32_t)NV_MME_GET(IMM, w);
    return v >= 0x20000 ? v - 0x40000 : v;
}

/* Method address register: bits 11:0 method index, increment 4 bits 15:12.
 * Width of the increment: 4 bits, after Mesa's simulator
 * (src/nouveau/mme/mme_fermi_sim.c set_mthd: `(val >> 12) & 0xf`), the one
 * source checked against hardware (mme_fermi_sim_hw_test.cpp); envytools and
 * dekotools say 6 bits (17:12). Result op 7 still sends bits 17:12. */
#define NV_MME_MADDR(v) ((v) & 0xFFFu)
#define NV_MME_MINC(v) (((v) >> 12) & 0xFu)

/* How a macro reaches the 3D engine. Both return 0 or an error that stops the
 * macro (returned from nv_mme_run as is; the callback posts its own fault).
 * `method` is a method index (byte offset / 4). read may be NULL (reads 0). */
typedef struct nv_mme_io {
    void *user;
    int (*send)(void *user, uint32_t method, uint32_t value);
    int (*read)(void *user, uint32_t method, uint32_t *value);
} nv_mme_io;

typedef struct nv_mme_result {
    uint32_t regs[8];     /* r0 reads 0 */
    uint32_t carry;
    uint32_t maddr, minc; /* method address register */
    uint32_t pc;          /* PC of the last instruction executed (or faulting) */
    uint64_t steps;       /* instructions executed */
    uint64_t sends;       /* method writes sent */
    size_t params_used;   /* parameters consumed, counting R1 */
} nv_mme_result;

/* Run one macro call at code[start]: R1 = params[0], `fetch` result ops read
 * params[1..]. Returns 0, CG_ERR_FAULT after posting a fault to dev (unit
 * "mme", stream_addr = PC, words[0] = the instruction), or an io error.
 * Faults: BAD_LENGTH (too few parameters / too many left at exit / PC past
 * ncode), INVALID_OPCODE (illegal opcode or ALU op), BAD_STATE (branch in a
 * delay slot), HANG (budget instructions ran out). `who` may be NULL; dev must
 * not be NULL. out may be NULL. The code is predecoded into a heap copy
 * first: CG_ERR_NOMEM (nothing run, out untouched) if that fails. */
int nv_mme_run(const uint32_t *code, size_t ncode, uint32_t start, const uint32_t *params,
               size_t nparams, const nv_mme_io *io, uint64_t budget, const cg_agent *who,
               cg_device *dev, nv_mme_result *out);

/* One instruction, predecoded (macro.c): what the interpreter runs, so no
 * field is extracted twice. Register indices are ready to index a 9-entry
 * file whose entry 8 takes writes to r0 (r0 stays 0 without a store per
 * step); `seg` counts the instructions from this one through the next
 * branch (or the end of the code), the stretch run between budget checks. */
typedef struct nv_mme_insn {
    uint8_t kop;        /* macro.c's operation kind (opcode and ALU operation) * 8
                         * + result operation (for a branch: annul * 2 + bnz) */
    uint8_t op;         /* what the hot loop dispatches on: kop, or macro.c's
                         * K_SLOW * 8 for what its general path runs */
    uint8_t dst, a, b;  /* register indices; dst 8 for r0 */
    uint8_t bsrc, bdst; /* bitfield source and destination bit */
    uint8_t flags;      /* exit, branch-if-nonzero, annul */
    uint32_t imm;       /* signed immediate, bitfield mask, or branch target */
    uint32_t seg;
} nv_mme_insn;

/* The MME's upload state, per channel. `dec` holds code[], predecoded on
 * upload (nv_mme_method), plus an end marker at dec[NV_MME_CODE_WORDS]; the
 * segment lengths are recomputed on the first call after a write. Write
 * the code RAM only through nv_mme_method. */
typedef struct nv_mme_state {
    uint32_t code[NV_MME_CODE_WORDS];
    nv_mme_insn dec[NV_MME_CODE_WORDS + 1];
    bool seg_stale;
    uint32_t entry[NV_MME_ENTRIES];
    uint32_t code_ptr;   /* INSTRUCTION_RAM_POINTER, auto-incremented */
    uint32_t entry_ptr;  /* START_ADDRESS_RAM_POINTER, auto-incremented */
    uint32_t shadow_mode;
    uint32_t shadow[NV_MME_METHODS]; /* shadow RAM, by method index */
} nv_mme_state;

void nv_mme_state_init(nv_mme_state *s);
/* Handle a write to 0x114..0x124 (byte offset). Returns true if it was one
 * of them. Pointers wrap at the RAM size. */
bool nv_mme_method(nv_mme_state *s, uint32_t method, uint32_t value);
/* Pass a class method write (index) through the shadow RAM: TRACK and
 * TRACK_WITH_FILTER record value and return it; PASSTHROUGH returns it
 * without recording; REPLAY returns the recorded value instead. The executor
 * applies the returned value; MME READ sees the engine registers. */
uint32_t nv_mme_shadow(nv_mme_state *s, uint32_t method, uint32_t value);
/* Run macro `macro` (0..127, masked) from its START_ADDRESS_RAM entry with the
 * whole code RAM (the PC wraps at NV_MME_CODE_WORDS); the hang fault names
 * the macro. When `who` has a nonzero stream_addr (the executor passes the
 * address of the CALL_MME_MACRO word), faults keep it and carry words =
 * {instruction, PC}, nwords 2; otherwise as nv_mme_run (stream_addr = PC). */
int nv_mme_call(nv_mme_state *s, uint32_t macro, const uint32_t *params, size_t nparams,
                const nv_mme_io *io, uint64_t budget, const cg_agent *who, cg_device *dev,
                nv_mme_result *out);

/* Text (macro_text.c). Disassemble one word at instruction index pc into buf
 * (no newline, no comment); returns the snprintf length. For a `.word`
 * (illegal encoding, or unused bits set) *note says why, else it is NULL. */
int nv_mme_disasm_word(uint32_t w, uint32_t pc, char *buf, size_t cap, const char **note);
/* The assembler plug-in (family name "nv-macro"). */
struct cg_asm_family;
const struct cg_asm_family *nv_mme_asm_family(void);

#endif
