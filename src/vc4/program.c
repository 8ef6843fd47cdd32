/* vc4 family: `cmdgpu run -f vc4-qpu PROG.s`: assembled QPU code run as a
 * user program on N QPUs through the V3D request queue, then what ran,
 * the faults and memory dumps (docs/vc4-gpgpu.md, "cmdgpu run -f
 * vc4-qpu"). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "core/image_internal.h"
#include "scene.h"

#define UNIF_BASE 0x01F00000u /* uniforms of QPU q at UNIF_BASE + 0x400 * q */
#define MAX_UNIFS 256

typedef struct gp_ctx {
    const cg_program_opts *o;
    cg_device *dev;
    cg_vc4 *v;
    unsigned nqpus;
    FILE *log;
} gp_ctx;

/* One uniform: a number (decimal, 0x hex, negative), a float with a '.'
 * or an exponent ("1.5", "-2e3") as its IEEE bits, or `q` (the QPU's index)
 * or `n` (the number of QPUs). */
static int parse_unif(const char *t, unsigned q, unsigned n, uint32_t *out)
{
    if (strcmp(t, "q") == 0) {
        *out = q;
        return 0;
    }
    if (strcmp(t, "n") == 0) {
        *out = n;
        return 0;
    }
    char *end;
    if (strpbrk(t, ".eE") && !strstr(t, "0x") && !strstr(t, "0X")) {
        float f = strtof(t, &end);
        if (*t && !*end) {
            memcpy(out, &f, 4);
            return 0;
        }
        return -1;
    }
    if (*t == '-') {
        long long x = strtoll(t, &end, 0);
        if (!*end && x >= INT32_MIN) {
            *out = (uint32_t)(int32_t)x;
            return 0;
        }
        return -1;
    }
    uint64_t u;
    if (cg_parse_u64(t, &u) != 0 || u > 0xFFFFFFFFu)
        return -1;
    *out = (uint32_t)u;
    return 0;
}

static int load_unifs(gp_ctx *c, unsigned q, uint32_t *n_out)
{
    const char *list = c->o->uniforms ? c->o->uniforms : "";
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    uint32_t n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        uint32_t u;
        if (n == MAX_UNIFS || parse_unif(t, q, c->nqpus, &u) != 0) {
            fprintf(c->log, "FAIL uniform '%s': not a number, float, q or n (at most %d)\n", t,
                    MAX_UNIFS);
            return 1;
        }
        cg_vc4_cpu_write32(c->v, UNIF_BASE + 0x400 * q + 4 * n, u);
        n++;
    }
    *n_out = n;
    return 0;
}

/* --dump ADDR:LEN:FILE ("-": the words in the log). */
static int dump(gp_ctx *c, const char *spec)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec);
    char *a = buf, *l = strchr(a, ':'), *f = l ? strchr(l + 1, ':') : NULL;
    uint64_t addr, len;
    if (!l || !f)
        goto bad;
    *l++ = 0, *f++ = 0;
    if (cg_parse_u64(a, &addr) || cg_parse_u64(l, &len) || addr > 0xFFFFFFFFu ||
        len > (64u << 20) || !*f)
        goto bad;
    uint8_t *data = malloc(len ? len : 1);
    if (!data)
        return -1;
    if (cg_vc4_cpu_read(c->v, (uint32_t)addr, data, len) != 0) {
        fprintf(c->log, "FAIL dump 0x%08x+%u: not in SDRAM\n", (unsigned)addr, (unsigned)len);
        free(data);
        return 1;
    }
    int ok = 1;
    if (strcmp(f, "-") == 0) {
        for (uint64_t k = 0; k + 4 <= len; k += 4) {
            uint32_t w = (uint32_t)data[k] | (uint32_t)data[k + 1] << 8 |
                         (uint32_t)data[k + 2] << 16 | (uint32_t)data[k + 3] << 24;
            if (k % 32 == 0)
                fprintf(c->log, "%sdump 0x%08x:", k ? "\n" : "", (unsigned)(addr + k));
            fprintf(c->log, " %08x", w);
        }
        fprintf(c->log, "\n");
    } else {
        FILE *out = cg__out_open(f);
        ok = out && fwrite(data, 1, len, out) == len;
        if (out && cg__out_close(out, f, ok ? 0 : CG_ERR_IO) != 0)
            ok = 0;
        fprintf(c->log, "%sdump 0x%08x+%u -> %s\n", ok ? "" : "FAIL ", (unsigned)addr,
                (unsigned)len, f);
    }
    free(data);
    return !ok;
bad:
    fprintf(c->log, "FAIL --dump '%s': want ADDR:LEN:FILE\n", spec);
    return 1;
}

/* What each QPU did: done, or blocked where and on what. */
static void report_qpus(gp_ctx *c, const cg_vc4_qpu_info *qi)
{
    for (unsigned q = 0; q < c->nqpus; q++) {
        const cg_vc4_qpu_info *i = &qi[q];
        fprintf(c->log, "qpu %u: %s", q, i->busy ? "blocked" : "done");
        if (i->busy)
            fprintf(c->log, " at 0x%08x on %s", i->pc, i->wait[0] ? i->wait : "?");
        fprintf(c->log, ", %" PRIu64 " instructions", i->insns);
        if (i->host_ints)
            fprintf(c->log, ", host_int 0x%08x (%u writes)", i->host_int_value, i->host_ints);
        fprintf(c->log, "\n");
    }
}

static int load(gp_ctx *c, const cg_asm *prog, uint32_t *code, size_t *ninsns)
{
    const char *name;
    uint64_t base = 0;
    const uint8_t *data;
    size_t size = 0;
    for (size_t i = 0; i < cg_asm_section_count(prog); i++) {
        cg_asm_section(prog, i, &name, &base, &data, &size);
        if (size && cg_vc4_cpu_write(c->v, (uint32_t)base, data, size) != 0) {
            fprintf(c->log, "FAIL section %s at 0x%08" PRIx64 ": not in SDRAM\n", name, base);
            return 1;
        }
    }
    cg_asm_section(prog, 0, &name, &base, &data, &size);
    *code = (uint32_t)base;
    *ninsns = size / 8;
    return 0;
}

static int run(gp_ctx *c, const cg_asm *prog)
{
    uint32_t code;
    size_t ninsns;
    if (load(c, prog, &code, &ninsns))
        return 1;
    fprintf(c->log, "program 0x%08x (%zu instructions) on %u QPUs\n", code, ninsns, c->nqpus);
    /* hold the scheduler, queue the requests, then start them all at once */
    cg_vc4_qpu_hold(c->v, true);
    cg_vc4_reg_write(c->v, CG_VC4_SRQCS, 1u << 7 | 1u << 8 | 1u << 16);
    for (unsigned q = 0; q < c->nqpus; q++) {
        uint32_t n;
        if (load_unifs(c, q, &n))
            return 1;
        cg_vc4_reg_write(c->v, CG_VC4_SRQUA, UNIF_BASE + 0x400 * q);
        cg_vc4_reg_write(c->v, CG_VC4_SRQUL, n);
        cg_vc4_reg_write(c->v, CG_VC4_SRQPC, code);
    }
    int rc = cg_vc4_qpu_hold(c->v, false);
    if (rc == CG_ERR_NOMEM)
        return rc;
    /* the per-QPU state before the watchdog frees blocked ones */
    cg_vc4_qpu_info qi[12];
    for (unsigned q = 0; q < 12; q++)
        cg_vc4_qpu_get(c->v, q, &qi[q]);
    int w = cg_vc4_wait_idle(c->v);
    report_qpus(c, qi);
    uint32_t cs = 0;
    cg_vc4_reg_read(c->v, CG_VC4_SRQCS, &cs);
    cg_vc4_qpu_stats st;
    cg_vc4_qpu_get_stats(c->v, &st);
    fprintf(c->log, "SRQCS 0x%08x: %u requested, %u completed; %" PRIu64 " instructions\n", cs,
            (cs >> 8) & 0xFF, (cs >> 16) & 0xFF, st.insns);
    for (size_t i = 0; !c->o->json && i < cg_fault_count(c->dev); i++) {
        char line[512];
        cg_fault_format(cg_fault_get(c->dev, i), line, sizeof line);
        fprintf(c->log, "fault: %s\n", line);
    }
    int fail = 0;
    for (size_t d = 0; d < c->o->ndumps; d++)
        fail |= dump(c, c->o->dumps[d]);
    if (w != 0 || cg_fault_count(c->dev) || ((cs >> 16) & 0xFF) != c->nqpus)
        fail = 1;
    return fail;
}

int vc4_run_program(const cg_program_opts *o, const cg_asm *prog, cg_device *dev)
{
    FILE *log = o->log ? o->log : stderr;
    uint64_t nq = 1;
    if (o->qpus && (cg_parse_u64(o->qpus, &nq) != 0 || nq < 1 || nq > 12)) {
        if (o->msg)
            snprintf(o->msg, o->msg_cap, "--qpus: want 1..12, got '%s'", o->qpus);
        return CG_ERR_INVAL;
    }
    if (!cg_asm_section_count(prog)) {
        if (o->msg)
            snprintf(o->msg, o->msg_cap, "run: '%s' holds no code", o->name ? o->name : "-");
        return CG_ERR_NOENT;
    }
    gp_ctx c = {.o = o, .dev = dev, .nqpus = (unsigned)nq, .log = log};
    cg_vc4_config cfg = {0};
    int rc = cg_vc4_create(dev, &cfg, &c.v);
    if (rc == 0)
        rc = run(&c, prog);
    cg_vc4_destroy(c.v);
    return rc;
}
