/* cmdgpu: VideoCore IV QPU instruction text, public API.
 *
 * The text is the dialect of vc4asm (maazl/vc4asm, the community assembler
 * that follows Broadcom's qasm) with ':' between the parts of one
 * instruction (cmdgpu's assembler reads ';' as a comment), cmdgpu's earlier
 * spellings accepted as aliases; docs/vc4-qpu.md describes it. Instructions
 * are 64-bit words, stored little-endian, low word first. Every 64-bit word
 * disassembles to text that assembles back to the same word. */
#ifndef CMDGPU_VC4_QPU_API_H
#define CMDGPU_VC4_QPU_API_H

#include <stddef.h>
#include <stdint.h>
#include "common.h"
#include "asm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How much of an instruction the Reference Guide defines. */
typedef enum cg_vc4_qpu_confidence {
    CG_VC4_QPU_KNOWN,   /* every field decoded from the reference */
    CG_VC4_QPU_PARTIAL, /* decoded, but a code the reference leaves reserved
                           or undefined (reserved op, load mode, condition,
                           read address, mul pack, set unused bits) */
    CG_VC4_QPU_UNKNOWN  /* no decode (not a whole instruction) */
} cg_vc4_qpu_confidence;
/* "known", "partial", "unknown" (JSON "confidence"). */
CG_API const char *cg_vc4_qpu_confidence_name(cg_vc4_qpu_confidence c);

/* The instruction stored at p[0..7]. */
CG_API uint64_t cg_vc4_qpu_word(const uint8_t *p);

/* Text of one instruction at bus address `addr` (no address, no raw words),
 * snprintf style; returns the text's length. Notes on reserved codes or
 * bits the text shows as field=value overrides go to `notes` ("" if none,
 * "; "-separated; may be NULL with ncap 0). *confidence may be NULL. */
CG_API int cg_vc4_qpu_disasm(uint64_t ins, uint32_t addr, char *buf, size_t cap, char *notes,
                             size_t ncap, cg_vc4_qpu_confidence *confidence);
/* Every whole instruction of data[0..size) (the first at `addr`), one line
 * "text\n" each, snprintf style; returns the length of the whole text. */
CG_API size_t cg_vc4_qpu_disasm_buffer(const uint8_t *data, size_t size, uint32_t addr,
                                       char *buf, size_t cap);

/* Assemble one instruction (one line of source, labels not allowed) as if
 * it stood at `addr`. 0 and *ins, or CG_ERR_SYNTAX with the message in
 * err (may be NULL). */
CG_API int cg_vc4_qpu_asm(const char *text, uint32_t addr, uint64_t *ins, char *err,
                          size_t errcap);
/* The assembler plug-in (cg_asm_create) for whole sources. */
CG_API const cg_asm_family *cg_vc4_qpu_asm_family(void);

/* Name sets (src/vc4/tables/qpu.def). */
typedef enum cg_vc4_qpu_set {
    CG_VC4_QPU_SET_SIG,     /* signals, bits 63:60 */
    CG_VC4_QPU_SET_ADD,     /* add ALU ops */
    CG_VC4_QPU_SET_MUL,     /* mul ALU ops */
    CG_VC4_QPU_SET_COND,    /* write conditions (ifz ...) */
    CG_VC4_QPU_SET_BCOND,   /* branch conditions (allz ...) */
    CG_VC4_QPU_SET_PACKA,   /* register file A packs (pm=0) */
    CG_VC4_QPU_SET_PACKM,   /* mul colour packs (pm=1) */
    CG_VC4_QPU_SET_UNPACK,  /* unpacks */
    CG_VC4_QPU_SET_LDI,     /* load-immediate modes */
    CG_VC4_QPU_SET_RADDR_A, /* I/O read addresses 32..63, file A */
    CG_VC4_QPU_SET_RADDR_B, /* file B */
    CG_VC4_QPU_SET_WADDR_A, /* I/O write addresses 32..63, file A */
    CG_VC4_QPU_SET_WADDR_B, /* file B */
    CG_VC4_QPU_NSETS
} cg_vc4_qpu_set;
/* The code `name` spells in `set` (vc4asm's spelling or an alias), or -1. */
CG_API int cg_vc4_qpu_lookup(cg_vc4_qpu_set set, const char *name);
/* The spelling the disassembler prints for `code`, NULL if reserved ("" for
 * the defaults: the always condition, no pack). */
CG_API const char *cg_vc4_qpu_name(cg_vc4_qpu_set set, uint32_t code);
/* The Reference Guide's name of `code` (SMALL_IMMEDIATE, TLB_COLOUR_ALL,
 * ...), NULL if reserved. */
CG_API const char *cg_vc4_qpu_guide_name(cg_vc4_qpu_set set, uint32_t code);

#ifdef __cplusplus
}
#endif
#endif
