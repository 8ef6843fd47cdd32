/* VideoCore IV TMU request side of one QPU: coordinate writes (TMUn_S/T/R/B),
 * general memory lookups (S alone: a 32-bit bus address per lane), texture
 * requests handed to the sampler (src/vc4/gpu/tmu.h), the per-QPU result FIFO
 * that ldtmu0/ldtmu1 pop into r4, TMU_NOSWAP.
 *
 * Facts: VideoCore IV 3D Architecture Reference Guide, "Texture and Memory
 * Lookup Unit" (S retires a request; a request with S alone is a direct
 * memory lookup; configuration uniforms read at S); Linux
 * drivers/gpu/drm/vc4/vc4_validate_shaders.c (a direct lookup is S written
 * with no T/R/B since the last request, and it reads no uniforms; a texture
 * lookup reads parameters 0 and 1, and 2/3 as the parameters ask); Mesa
 * src/gallium/drivers/vc4/vc4_program.c (UBO loads through direct
 * lookups); maazl/vc4asm doc/VideoCoreIV-addendum.html (the request FIFO
 * holds 8 entries, more than 4 outstanding is unreliable; tmu_noswap counts
 * element 0 and any non-zero value). docs/vc4-gpgpu.md. */
#include <string.h>
#include "qpu_io.h"
#include "tmu.h"

static uint32_t *push_slot(vc4_qpu_state *s, int t)
{
    unsigned slot = (s->tmu_head[t] + s->tmu_n[t]) % VC4_TMU_FIFO_SLOTS;
    s->tmu_n[t]++;
    return s->tmu_res[t][slot];
}

static int request(vc4_qpu_state *s, int t, const uint32_t v[16], uint16_t mask)
{
    int rc;
    if (s->tmu_n[t] >= VC4_TMU_FIFO_SLOTS)
        return vc4__qpu_fault(s, CG_FAULT_BAD_STATE, 0,
                              "TMU%d request FIFO overflow: a %uth request with %u results not "
                              "yet loaded (ldtmu%d)", t, VC4_TMU_FIFO_SLOTS + 1u,
                              (unsigned)s->tmu_n[t], t);
    if (s->tmu_n[t] >= VC4_TMU_FIFO_SAFE &&
        (rc = vc4__qpu_diag(s, "TMU%d: %u requests outstanding (more than %u is unreliable)", t,
                            s->tmu_n[t] + 1u, VC4_TMU_FIFO_SAFE)))
        return rc;
    uint32_t out[16] = {0}, out_hi[16] = {0};
    unsigned words = 1;
    if (!s->tmu_has[t]) {
        /* general memory lookup: one 32-bit word per lane at S (bits 1:0
         * ignored); lanes outside the write mask read nothing */
        for (int i = 0; i < 16; i++) {
            if (!((mask >> i) & 1))
                continue;
            uint8_t b[4];
            if (cg_vas_read(s->bus, v[i] & ~3u, b, 4, &s->agent) != 0) {
                s->ended = true;
                return CG_ERR_FAULT;
            }
            out[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                     (uint32_t)b[3] << 24;
        }
    } else {
        vc4_tmu_req req;
        memset(&req, 0, sizeof req);
        req.dev = s->dev;
        req.bus = s->bus;
        req.who = &s->agent;
        req.lanes = mask;
        req.has_t = s->tmu_has[t] & 1;
        req.has_r = (s->tmu_has[t] >> 1) & 1;
        req.has_b = (s->tmu_has[t] >> 2) & 1;
        for (int i = 0; i < 16; i++) { /* coordinates not written are 0 */
            memcpy(&req.s[i], &v[i], 4);
            if (req.has_t)
                memcpy(&req.t[i], &s->tmu_coord[t][0][i], 4);
            if (req.has_r)
                memcpy(&req.r[i], &s->tmu_coord[t][1][i], 4);
            if (req.has_b)
                memcpy(&req.b[i], &s->tmu_coord[t][2][i], 4);
        }
        for (unsigned k = 0; k < 2; k++)
            if ((rc = vc4__qpu_uniform(s, &req.params[k])))
                return rc;
        unsigned need = vc4_tmu_params_needed(req.params[0], req.params[1], req.has_r, req.has_b);
        if (need > 4)
            need = 4;
        for (unsigned k = 2; k < need; k++)
            if ((rc = vc4__qpu_uniform(s, &req.params[k])))
                return rc;
        req.nparams = need < 2 ? 2 : need;
        /* a 64-bit texel (RGBA64) comes back as two words, each taking
         * a FIFO entry and an ldtmu: R | G first, then B | A (tmu.h) */
        words = vc4_tmu_result_words(req.params[0], req.params[1]);
        if (s->tmu_n[t] + words > VC4_TMU_FIFO_SLOTS)
            return vc4__qpu_fault(s, CG_FAULT_BAD_STATE, 0,
                                  "TMU%d result FIFO overflow: a 64-bit texture lookup needs 2 "
                                  "entries and %u of %u are taken (ldtmu%d)", t,
                                  (unsigned)s->tmu_n[t], VC4_TMU_FIFO_SLOTS, t);
        vc4_tmu_fault f;
        memset(&f, 0, sizeof f);
        if (vc4_tmu_texture2(&req, out, out_hi, &f) != 0) {
            f.msg[sizeof f.msg - 1] = 0;
            return vc4__qpu_fault(s, f.kind ? f.kind : CG_FAULT_BAD_STATE, f.addr, "TMU%d: %s",
                                  t, f.msg);
        }
    }
    memcpy(push_slot(s, t), out, sizeof out);
    if (words == 2)
        memcpy(push_slot(s, t), out_hi, sizeof out_hi);
    s->tmu_has[t] = 0;
    s->tmu_lookups++;
    return 0;
}

int vc4__tmu_write(vc4_qpu_state *s, uint32_t waddr, const uint32_t v[16], uint16_t mask)
{
    if (waddr == VC4_QPU_W_TMU_NOSWAP) {
        /* element 0 counts; any non-zero value disables the swap (addendum).
         * The swap only picks which TMU of the slice serves the QPU: results
         * come back through the ldtmu of the unit the program wrote. */
        if (mask & 1)
            s->tmu_noswap = v[0] != 0;
        s->tmu_noswap_at = s->executed;
        return 0;
    }
    int t = waddr >= VC4_QPU_W_TMU1_S;
    uint32_t c = waddr - (t ? VC4_QPU_W_TMU1_S : VC4_QPU_W_TMU0_S); /* 0 S, 1 T, 2 R, 3 B */
    if (c == 0) {
        /* "If TMU_NOSWAP is written, the write must be three instructions
         * before the first TMU write instruction" (Guide, quoted in Mesa
         * vc4_qpu_validate.c) */
        int rc;
        if (s->tmu_noswap_at && s->executed - s->tmu_noswap_at <= 3 &&
            (rc = vc4__qpu_diag(s, "TMU%d write %llu instruction(s) after a TMU_NOSWAP write "
                                   "(needs more than 3)", t,
                                (unsigned long long)(s->executed - s->tmu_noswap_at))))
            return rc;
        return request(s, t, v, mask);
    }
    bool fresh = !((s->tmu_has[t] >> (c - 1)) & 1);
    for (int i = 0; i < 16; i++)
        if ((mask >> i) & 1)
            s->tmu_coord[t][c - 1][i] = v[i];
        else if (fresh)
            s->tmu_coord[t][c - 1][i] = 0; /* lanes not written: 0, not a stale value */
    s->tmu_has[t] |= (uint8_t)(1u << (c - 1));
    return 0;
}

int vc4__tmu_pop(vc4_qpu_state *s, int tmu, uint32_t out[16])
{
    if (s->tmu_n[tmu] == 0)
        return vc4__qpu_fault(s, CG_FAULT_HANG, 0,
                              "ldtmu%d with no TMU%d request outstanding: the QPU would wait "
                              "forever", tmu, tmu);
    memcpy(out, s->tmu_res[tmu][s->tmu_head[tmu]], sizeof s->tmu_res[tmu][0]);
    s->tmu_head[tmu] = (uint8_t)((s->tmu_head[tmu] + 1) % VC4_TMU_FIFO_SLOTS);
    s->tmu_n[tmu]--;
    return 0;
}
