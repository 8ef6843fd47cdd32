/* radeon family: text of the R600/R700 shader ISA (docs/radeon-isa.md):
 * the disassembler (isa_text.c) and the assembler (isa_asm.c). */
#ifndef CMDGPU_RADEON_ISA_TEXT_H
#define CMDGPU_RADEON_ISA_TEXT_H

#include <stdio.h>
#include "cmdgpu/asm.h"
#include "radeon/isa.h"

/* Options of a listing (colours: ANSI sequences or NULL). */
typedef struct rd_isa_opts {
    r6_chip chip;
    bool json;
    const char *c_reset, *c_name, *c_num, *c_addr, *c_err, *c_comment;
} rd_isa_opts;

/* List a program: the CF instructions from word 0 and the clauses they
 * point to, every other byte as raw words; text the assembler turns back
 * into the same bytes. Returns the number of items marked unknown (raw
 * words the walk reached, faults) or a cg_err. */
int rd_isa_disasm(const rd_isa_opts *o, const uint8_t *data, size_t size, FILE *out);

/* The text of one instruction (without slot, offset or words), or false
 * when it has none (an opcode the chip lacks, reserved bits set): it then
 * lists as raw words. cls: R6_CLS_CF (any CF word pair), R6_CLS_ALU_OP2
 * (any ALU word pair), R6_CLS_TEX or R6_CLS_VTX. For ALU, lit[0..nlit)
 * are the group's literal dwords (shown in the operands; NULL: not
 * known). */
bool rd_isa_format(r6_chip c, r6_class cls, const uint32_t *w, const uint32_t *lit,
                   unsigned nlit, char *buf, size_t cap);

/* The assembler plug-in: the statements of docs/radeon-isa.md, `.chip`;
 * user is an rd_isa_asm_state. */
typedef struct rd_isa_asm_state {
    r6_chip chip, dflt;
} rd_isa_asm_state;
const cg_asm_family *rd_isa_asm_family(void);

#endif
