/* cmdgpu: Maxwell shader code (SM50/SM52, Tegra X1) as text, and the shader
 * program header (SPH). Dialect, control words and sources: docs/nv-sass.md.
 *
 * Code is a sequence of 32-byte bundles: one 64-bit scheduling control word,
 * then three 64-bit instructions. Disassembly is valid assembler input, and
 * assembling it gives back the same bytes for any input. */
#ifndef CMDGPU_NV_SASS_H
#define CMDGPU_NV_SASS_H

#include <stdio.h>
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One instruction word at byte address pc (branch targets print absolute),
 * e.g. "FFMA R0, R1, c[0x0][0x20], R2;". Returns 0, or 1 when the word has
 * no text form and prints as ".dword 0x...;" (still valid input).
 * The text is truncated to cap. */
CG_API int cg_nv_sass_disasm_insn(uint64_t word, uint64_t pc, char *buf, size_t cap);
/* One control word: ".sched {stall=N ...}, {...}, {...};". */
CG_API int cg_nv_sass_disasm_sched(uint64_t word, char *buf, size_t cap);
/* A code buffer (the bundle starts at offset 0; base is the address of
 * code[0]): one line per 64-bit word, its text then (after the ';' that
 * starts a comment) its address and value; any tail bytes as `.byte`. */
CG_API int cg_nv_sass_disasm(const uint8_t *code, size_t size, uint64_t base, FILE *out);

/* The same text as one malloc'd string (free() it; NULL when out of
 * memory). with_sph: the first 0x50 bytes (or all, if fewer) are a shader
 * program header, printed as cg_nv_sph_print does, and the code follows. */
CG_API char *cg_nv_sass_disasm_string(const uint8_t *code, size_t size, bool with_sph);

/* Assemble text into *out (malloc'd, free() it). On CG_ERR_SYNTAX, *errors
 * (if errors is not NULL) is a malloc'd string of every error line.
 * An instruction not preceded by a .sched for its bundle gets a default
 * control word (stall=15, no barriers) inserted before it. */
CG_API int cg_nv_sass_assemble(const char *text, size_t len, uint8_t **out, size_t *out_size,
                               char **errors);
/* The assembler plug-in for cg_asm_create (user = a zeroed buffer of
 * cg_nv_sass_asm_state_size() bytes, or NULL: then every instruction starts
 * a bundle of its own). */
struct cg_asm_family;
CG_API const struct cg_asm_family *cg_nv_sass_asm_family(void);
CG_API size_t cg_nv_sass_asm_state_size(void);

/* ---- shader program header (open-gpu-doc Shader-Program-Header) ---- */
#define CG_NV_SPH_SIZE 0x50

/* Print the 20 header words as `.word` lines, each with its decoded fields
 * in a comment (text that assembles back to the same bytes), or as one JSON
 * object. Returns 0, or 1 when the header is malformed (bad SPH type or
 * version; the problem is printed as "PROBLEM: ..."). size < 0x50: the
 * words present are printed and the header is reported truncated. */
CG_API int cg_nv_sph_print(const uint8_t *sph, size_t size, FILE *out, bool json);

#ifdef __cplusplus
}
#endif
#endif
