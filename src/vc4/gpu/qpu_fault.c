/* vc4 QPU: faults and diagnostics at the current instruction, and uniform
 * reads, for the kernels (qpu_run.c) and the I/O units (vpm.c,
 * tmu_fifo.c): a leaf of the QPU's files (qpu_io.h). */
#include "qpu_int.h"

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

int vc4__qpu_uniform(vc4_qpu_state *s, uint32_t *v)
{
    uint32_t t[LANES];
    int rc = read_uniform(s, t);
    *v = t[0];
    return rc;
}

