/* radeon family: the R600/R700 shader core's shared helpers (a leaf: the
 * executor's files call it, it calls none of them): fault records, the
 * budget, the lanes a loop or kill disabled, the output buffer
 * (docs/radeon-sq.md). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "radeon/gpu/sq.h"

int rd_sq_fault(rd_sq *s, cg_fault_kind kind, size_t dw, unsigned nw, const char *fmt, ...)
{
    cg_agent a = s->agent;
    a.stream_addr = s->env->gpu_addr + 4ull * dw;
    a.nwords = 0;
    for (unsigned i = 0; i < nw && i < CG_FAULT_MAX_WORDS && dw + i < s->env->ndw; i++)
        a.words[a.nwords++] = s->env->code[dw + i];
    char msg[CG_FAULT_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cg_fault_post(s->env->dev, &a, kind, 0, "%s", msg);
}

int rd_sq_tick(rd_sq *s, size_t dw, unsigned nw, const char *what)
{
    if (++s->used <= s->budget)
        return 0;
    return rd_sq_fault(s, CG_FAULT_HANG, dw, nw,
                       "budget radeon.sq-insns: %" PRIu64 " CF instructions, ALU groups and "
                       "fetches ran out at %s (dword %zu)",
                       s->budget, what, dw);
}

rd_sq_mask rd_sq_disabled(const rd_sq *s)
{
    rd_sq_mask m = s->killed;
    for (unsigned i = s->sp; i-- > 0;)
        if (s->stack[i].kind == SQF_LOOP) {
            m |= s->stack[i].brk | s->stack[i].cont;
            break;
        }
    return m;
}

void rd_sq_out_free(rd_sq_out *o)
{
    free(o->e);
    o->e = NULL;
    o->n = o->cap = 0;
}

const rd_sq_export *rd_sq_out_find(const rd_sq_out *o, unsigned type, unsigned base)
{
    for (size_t i = o->n; i-- > 0;)
        if (o->e[i].type == type && o->e[i].base == base)
            return &o->e[i];
    return NULL;
}

