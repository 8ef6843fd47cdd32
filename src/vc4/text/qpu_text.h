/* VideoCore IV QPU: the instruction image shared by the disassembler and the
 * assembler (internal to src/vc4/text/qpu_text.c and qpu_asm.c).
 *
 * Both sides describe an instruction the same way: the fields the text
 * states ("given"), then qpu_img_finalize() fills every other field with its
 * default, then explicit `field=value` overrides apply. The disassembler
 * builds the image its text will produce, finalizes it, and prints an
 * override for each field that still differs from the real word, so
 * asm(disasm(x)) == x for every 64-bit x. */
#ifndef CMDGPU_VC4_QPU_TEXT_H
#define CMDGPU_VC4_QPU_TEXT_H

#include "vc4/qpu.h"

enum { QPU_CLS_ALU, QPU_CLS_LDI, QPU_CLS_BRANCH };

#define QF_ENUM_ALU(name) QF_ALU_##name,
#define QF_ENUM_LDI(name)
#define QF_ENUM_BRANCH(name)
enum {
#define QPU_FIELD(cls, name, hi, lo) QF_ENUM_##cls(name)
#include "vc4/tables/qpu.def"
    QF_ALU_N
};
#undef QF_ENUM_ALU
#undef QF_ENUM_LDI
#define QF_ENUM_ALU(name)
#define QF_ENUM_LDI(name) QF_LDI_##name,
enum {
#define QPU_FIELD(cls, name, hi, lo) QF_ENUM_##cls(name)
#include "vc4/tables/qpu.def"
    QF_LDI_N
};
#undef QF_ENUM_LDI
#undef QF_ENUM_BRANCH
#define QF_ENUM_LDI(name)
#define QF_ENUM_BRANCH(name) QF_BRANCH_##name,
enum {
#define QPU_FIELD(cls, name, hi, lo) QF_ENUM_##cls(name)
#include "vc4/tables/qpu.def"
    QF_BRANCH_N
};
#undef QF_ENUM_ALU
#undef QF_ENUM_LDI
#undef QF_ENUM_BRANCH

#define QF_MAX 18

typedef struct qpu_fieldpos {
    const char *name;
    uint8_t hi, lo;
} qpu_fieldpos;

typedef struct qpu_img {
    int cls;
    uint32_t v[QF_MAX];
    uint32_t given;        /* bit i: field i stated by the text */
    bool act_add, act_mul; /* the add / mul side does something */
    bool has_simm;         /* a small-immediate operand, value simm_bits */
    uint32_t simm_bits;
    int rot;               /* vector rotation 0 (r5) .. 15, or -1 */
} qpu_img;

const qpu_fieldpos *qpu_fields(int cls, int *n);
int qpu_cls_of(uint64_t ins);
void qpu_img_from_word(qpu_img *m, uint64_t ins);
uint64_t qpu_img_encode(const qpu_img *m);
/* Fill the fields that are not given with their defaults. 0, or -1 when the
 * given fields contradict each other (a rotation and a small immediate). */
int qpu_img_finalize(qpu_img *m);
int qpu_smallimm_code(uint32_t bits); /* first code reading as `bits`, or -1 */

#endif
