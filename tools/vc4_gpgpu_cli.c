/* `cmdgpu run -f vc4-qpu PROG.s`: assemble QPU text, run it as a user
 * program on N QPUs through the V3D request queue, print what ran, the
 * faults and memory dumps (docs/vc4-gpgpu.md, section "cmdgpu run -f
 * vc4-qpu"). A client of the public API only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

#define UNIF_BASE 0x01F00000u /* uniforms of QPU q at UNIF_BASE + 0x400 * q */
#define MAX_UNIFS 256

typedef struct gp_ctx {
    const cli_opts *o;
    cg_device *dev;
    cg_vc4 *v;
    cg_asm *as;
    unsigned nqpus;
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
    if (cli_parse_u64(t, &u) != 0 || u > 0xFFFFFFFFu)
        return -1;
    *out = (uint32_t)u;
    return 0;
}

static int load_unifs(gp_ctx *c, unsigned q, uint32_t *n_out, FILE *log)
{
    const char *list = c->o->uniforms ? c->o->uniforms : "";
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    uint32_t n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        uint32_t u;
        if (n == MAX_UNIFS || parse_unif(t, q, c->nqpus, &u) != 0) {
            fprintf(log, "FAIL uniform '%s': not a number, float, q or n (at most %d)\n", t,
                    MAX_UNIFS);
            return 1;
        }
        cg_vc4_cpu_write32(c->v, UNIF_BASE + 0x400 * q + 4 * n, u);
        n++;
    }
    *n_out = n;
    return 0;
}

static int dump(gp_ctx *c, const char *spec, FILE *log)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec);
    char *a = buf, *l = strchr(a, ':'), *f = l ? strchr(l + 1, ':') : NULL;
    uint64_t addr, len;
    if (!l || !f)
        goto bad;
    *l++ = 0, *f++ = 0;
    if (cli_parse_u64(a, &addr) || cli_parse_u64(l, &len) || addr > 0xFFFFFFFFu ||
        len > (64u << 20) || !*f)
        goto bad;
    uint8_t *data = malloc(len ? len : 1);
    if (!data)
        return -1;
    if (cg_vc4_cpu_read(c->v, (uint32_t)addr, data, len) != 0) {
        fprintf(log, "FAIL dump 0x%08x+%u: not in SDRAM\n", (unsigned)addr, (unsigned)len);
        free(data);
        return 1;
    }
    if (strcmp(f, "-") == 0) {
        for (uint64_t k = 0; k + 4 <= len; k += 4) {
            uint32_t w = (uint32_t)data[k] | (uint32_t)data[k + 1] << 8 |
                         (uint32_t)data[k + 2] << 16 | (uint32_t)data[k + 3] << 24;
            if (k % 32 == 0)
                fprintf(log, "%sdump 0x%08x:", k ? "\n" : "", (unsigned)(addr + k));
            fprintf(log, " %08x", w);
        }
        fprintf(log, "\n");
    } else {
        FILE *out = cli_open_out(f, "wb");
        int ok = out && fwrite(data, 1, len, out) == len;
        if (out && cli_close_out(out, f) != EXIT_OK)
            ok = 0;
        fprintf(log, "%sdump 0x%08x+%u -> %s\n", ok ? "" : "FAIL ", (unsigned)addr,
                (unsigned)len, f);
        if (!ok) {
            free(data);
            return 1;
        }
    }
    free(data);
    return 0;
bad:
    fprintf(log, "FAIL --dump '%s': want ADDR:LEN:FILE\n", spec);
    return 1;
}

static int run_prog(void *ctx, FILE *log)
{
    gp_ctx *c = ctx;
    int fail = 0;
    const char *name;
    uint64_t base = 0;
    const uint8_t *data;
    size_t size = 0;
    for (size_t i = 0; i < cg_asm_section_count(c->as); i++) {
        cg_asm_section(c->as, i, &name, &base, &data, &size);
        if (size && cg_vc4_cpu_write(c->v, (uint32_t)base, data, size) != 0) {
            fprintf(log, "FAIL section %s at 0x%08" PRIx64 ": not in SDRAM\n", name, base);
            return 1;
        }
    }
    cg_asm_section(c->as, 0, &name, &base, &data, &size);
    uint32_t code = (uint32_t)base;
    fprintf(log, "program 0x%08x (%zu instructions) on %u QPUs\n", code, size / 8, c->nqpus);
    /* hold the scheduler, queue the requests, then start them all at once */
    cg_vc4_qpu_hold(c->v, true);
    cg_vc4_reg_write(c->v, CG_VC4_SRQCS, 1u << 7 | 1u << 8 | 1u << 16);
    for (unsigned q = 0; q < c->nqpus; q++) {
        uint32_t n;
        if (load_unifs(c, q, &n, log))
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
    for (unsigned q = 0; q < c->nqpus; q++) {
        const cg_vc4_qpu_info *i = &qi[q];
        fprintf(log, "qpu %u: %s", q, i->busy ? "blocked" : "done");
        if (i->busy)
            fprintf(log, " at 0x%08x on %s", i->pc, i->wait[0] ? i->wait : "?");
        fprintf(log, ", %" PRIu64 " instructions", i->insns);
        if (i->host_ints)
            fprintf(log, ", host_int 0x%08x (%u writes)", i->host_int_value, i->host_ints);
        fprintf(log, "\n");
    }
    uint32_t cs = 0;
    cg_vc4_reg_read(c->v, CG_VC4_SRQCS, &cs);
    cg_vc4_qpu_stats st;
    cg_vc4_qpu_get_stats(c->v, &st);
    fprintf(log, "SRQCS 0x%08x: %u requested, %u completed; %" PRIu64 " instructions\n", cs,
            (cs >> 8) & 0xFF, (cs >> 16) & 0xFF, st.insns);
    for (size_t i = 0; !c->o->json && i < cg_fault_count(c->dev); i++) {
        char line[512];
        cg_fault_format(cg_fault_get(c->dev, i), line, sizeof line);
        fprintf(log, "fault: %s\n", line);
    }
    for (int d = 0; d < c->o->ndumps; d++)
        fail |= dump(c, c->o->dumps[d], log);
    if (w != 0 || cg_fault_count(c->dev) || ((cs >> 16) & 0xFF) != c->nqpus)
        fail = 1;
    return fail;
}

int vc4_qpu_run_cli(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run: give one QPU source file (or - for stdin)");
    uint64_t nq = 1;
    if (o->qpus && (cli_parse_u64(o->qpus, &nq) != 0 || nq < 1 || nq > 12))
        return cli_error(EXIT_USAGE, "--qpus: want 1..12, got '%s'", o->qpus);
    gp_ctx c = {.o = o, .nqpus = (unsigned)nq};
    int rc = EXIT_OK;
    if (!(c.dev = cli_device_create(o)))
        return cli_error(EXIT_INPUT, "out of memory");
    cg_vc4_config cfg = {0};
    if (cg_vc4_create(c.dev, &cfg, &c.v) != 0) {
        rc = cli_error(EXIT_INPUT, "out of memory");
        goto out;
    }
    if (o->trace &&
        cg_trace_add(c.dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout) < 0) {
        rc = cli_error(EXIT_INPUT, "run: cannot attach the trace");
        goto out;
    }
    if ((rc = cli_asm_load(o->args[0], cg_vc4_qpu_asm_family(), NULL, &c.as)) != EXIT_OK)
        goto out;
    if (!cg_asm_section_count(c.as)) {
        rc = cli_error(EXIT_INPUT, "run: '%s' holds no code", o->args[0]);
        goto out;
    }
    rc = cli_run_scene(o, "vc4-qpu", c.dev, run_prog, NULL, &c);
out:
    cg_asm_destroy(c.as);
    cg_vc4_destroy(c.v);
    cg_device_destroy(c.dev);
    return rc;
}
