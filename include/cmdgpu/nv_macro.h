/* cmdgpu: the text of NVIDIA Maxwell macro (MME) code, the programs a
 * driver uploads with LOAD_MME_INSTRUCTION_RAM and starts with
 * CALL_MME_MACRO. Syntax and semantics: docs/nv-macro.md. The instruction
 * set is src/nv/tables/macro.def (research/nv.md section 4). */
#ifndef CMDGPU_NV_MACRO_H_PUBLIC
#define CMDGPU_NV_MACRO_H_PUBLIC

#include <stddef.h>
#include <stdint.h>
#include "asm.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Disassemble one instruction word `w` at instruction index `pc` (branch
 * targets are printed as byte addresses, pc * 4 + offset) into buf, without
 * newline or comment, as snprintf does; returns the snprintf length. When
 * the word has no instruction text (an illegal encoding, or unused bits
 * set) the text is `.word 0x...` and *note (when note is not NULL) says
 * why; otherwise *note is NULL. The text assembles back to `w`. */
CG_API int cg_nv_macro_disasm_word(uint32_t w, uint32_t pc, char *buf, size_t cap,
                                   const char **note);

/* The assembler family of macro source (name "nv-macro"), for
 * cg_asm_create (asm.h): every statement assembles to one 32-bit word. */
CG_API const cg_asm_family *cg_nv_macro_asm_family(void);

#ifdef __cplusplus
}
#endif
#endif
