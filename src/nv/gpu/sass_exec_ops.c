/* Maxwell warp interpreter: what every instruction handler uses (operand
 * reads, constant-buffer words, register writes) and the fault it posts.
 * A leaf of the interpreter's files: the handlers (sass_exec_alu.c,
 * sass_exec_mem.c, sass_exec_tex.c) and the warp loop (sass_exec.c) call
 * here, and nothing here calls them back. */
#include <stdarg.h>
#include <stdio.h>
#include "sass_exec_internal.h"
#include "sass_lanes.h"

const uint32_t nv_xzeros[NV_WARP];

/* ---- faults ---------------------------------------------------------------- */

int nv_xfault(xctx *c, cg_fault_kind kind, uint64_t va, const char *fmt, ...)
{
    nv_sass_fault *f = c->fault;
    if (f) {
        f->kind = kind;
        f->pc = nv_xpc_bytes(c->pc);
        f->va = va ? va : c->p->start_va + f->pc;
        f->word = c->in ? c->in->word : 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->msg, sizeof f->msg, fmt, ap);
        va_end(ap);
    }
    return CG_ERR_FAULT;
}

/* The message names the instruction as the disassembler prints it
 * (src/nv/text/sass_text.c), or its word when it has no text. */
int nv_xunsupported(xctx *c)
{
    char t[128];
    if (nv_sass_format(c->in->word, nv_xpc_bytes(c->pc), t, sizeof t) < 0)
        snprintf(t, sizeof t, "0x%016llx", (unsigned long long)c->in->word);
    size_t n = strlen(t);
    if (n && t[n - 1] == ';')
        t[n - 1] = 0;
    return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0, "not supported yet: %s at 0x%llx", t,
                     (unsigned long long)nv_xpc_bytes(c->pc));
}

/* ---- operands -------------------------------------------------------------- */

int nv_xcb_word(xctx *c, unsigned bank, int64_t off, uint32_t *v)
{
    const nv_sass_env *e = c->env;
    if (bank >= NV_SASS_CB_SLOTS || !e->cb[bank])
        return nv_xfault(c, CG_FAULT_BAD_STATE, 0,
                         "c[0x%x][0x%llx]: constant buffer not bound at 0x%llx", bank,
                         (unsigned long long)off, (unsigned long long)nv_xpc_bytes(c->pc));
    if (off < 0 || (off & 3) || (uint64_t)off + 4 > e->cb_size[bank])
        return nv_xfault(c, CG_FAULT_BAD_LENGTH, 0,
                         "c[0x%x][0x%llx] read past the constant buffer's 0x%x bytes at 0x%llx",
                         bank, (unsigned long long)off, e->cb_size[bank],
                         (unsigned long long)nv_xpc_bytes(c->pc));
    *v = e->cb[bank][off / 4];
    return 0;
}

const uint32_t *nv_xsrc(xctx *c, int i, uint32_t tmp[NV_WARP])
{
    const xopnd *o = &c->in->o[i];
    uint32_t v;
    switch (o->kind) {
    case XO_REG:
        return o->reg == 255 ? nv_xzeros : c->w->r[o->reg];
    case XO_IMM:
        v = o->val;
        break;
    case XO_CB:
        if (nv_xcb_word(c, o->bank, o->val, &v))
            return NULL;
        break;
    default:
        return nv_xzeros;
    }
    LANES tmp[l] = v;
    return tmp;
}

void nv_xwrite(nv_sass_warp *w, unsigned reg, uint32_t m, const uint32_t *v)
{
    if (reg >= 255)
        return;
    uint32_t *r = w->r[reg];
    if (m == 0xffffffffu) {
        memcpy(r, v, sizeof w->r[0]);
        return;
    }
    nv_lanes()->select(m, v, r); /* r[l] = v[l] for the lanes of m */
}
