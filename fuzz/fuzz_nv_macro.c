/* Fuzzes the MME interpreter against the reference interpreter
 * (tests/nv_mme_ref.h), the upload path, and the text round trip.
 *
 * Input:
 *   byte 0     low 4 bits: number of parameters; high 4 bits: start PC
 *   bytes 1-2  instruction budget (little-endian)
 *   byte 3     options: bit 0 = pass an executor's agent (channel 5,
 *              nonzero stream address: a call's faults keep the address and
 *              carry words = {instruction, PC}; nv_mme_run's faults take
 *              the channel only);
 *              bit 1 = upload the code to the end of the code RAM (0x7F8) so
 *              that it wraps; bits 7:2 = macro number
 *   byte 4     io failure: 0 = none, k = the k-th io call (sends and reads
 *              counted together) returns CG_ERR_IO; 255 = no io at all (a
 *              NULL nv_mme_io: sends go nowhere, reads give 0)
 *   then       little-endian words: the parameters first, the rest is code.
 *
 * Each input runs twice in each interpreter: nv_mme_run on the code as a
 * plain array from the start PC, and nv_mme_call of the macro through a code
 * RAM filled by nv_mme_method (checked word for word against the RAM the
 * harness builds itself). A recording io logs every send (method, value)
 * and read (method, value returned; reads return a function of the method).
 * Any difference between the interpreters aborts: the io log (sends and
 * reads, in order), return code, fault kind / PC / instruction word, the
 * documented fault fields (unit "mme", family nv, not a warning, stream
 * address and words as docs/nv-macro.md says), registers, carry, method
 * address and increment, last PC, instructions executed, sends, parameters
 * consumed. Then the code words are disassembled and assembled again and
 * must come back word for word. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../tests/nv_mme_ref.h"
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"
#include "nv/gpu/macro.h"

/* An io log: 3 words per event {kind (1 send, 2 read), method, value}.
 * Events <= instructions <= budget < 2^16, so the log never fills; the cap
 * is a guard. */
#define LOG_EVENTS (1u << 16)

typedef struct rec {
    uint32_t ev[3 * LOG_EVENTS];
    size_t n;       /* events logged */
    unsigned calls; /* io calls so far */
    unsigned fail_at;
} rec;

static rec real_log, ref_log;

static int rec_event(rec *r, uint32_t kind, uint32_t method, uint32_t value)
{
    if (r->n < LOG_EVENTS) {
        r->ev[3 * r->n] = kind;
        r->ev[3 * r->n + 1] = method;
        r->ev[3 * r->n + 2] = value;
        r->n++;
    }
    return ++r->calls == r->fail_at ? CG_ERR_IO : 0;
}

static int rec_send(void *user, uint32_t method, uint32_t value)
{
    return rec_event(user, 1, method, value);
}

/* A register file of mixed magnitudes: large values, small ones, 0 and 1. */
static int rec_read(void *user, uint32_t method, uint32_t *value)
{
    *value = (method * 0x9E3779B1u) >> (method & 31);
    return rec_event(user, 2, method, *value);
}

static void mismatch(const char *what, const char *mode, const uint32_t *code, size_t n)
{
    fprintf(stderr, "fuzz_nv_macro: %s: %s differs from the reference\n", mode, what);
    for (size_t i = 0; i < n && i < 64; i++) {
        char line[128];
        const char *note;
        nv_mme_disasm_word(code[i], (uint32_t)i, line, sizeof line, &note);
        fprintf(stderr, "  %04zx: %08x  %s\n", i, code[i], line);
    }
    abort();
}

/* Compare one real run (rc, r, faults logged after `before`) with the
 * reference s. who: the agent passed, or NULL; keep: a call that keeps the
 * agent's stream address. */
static void compare(const char *mode, const nv_mme_ref *s, int rc, const nv_mme_result *r,
                    cg_device *dev, size_t before, const cg_agent *who, bool keep,
                    int32_t macro, const uint32_t *code, size_t n)
{
    if (real_log.n != ref_log.n || memcmp(real_log.ev, ref_log.ev, real_log.n * 12) != 0)
        mismatch("io log (sends and reads)", mode, code, n);
    if (rc != (s->kind ? CG_ERR_FAULT : s->io_rc))
        mismatch("return code", mode, code, n);
    if (cg_fault_count(dev) - before != (s->kind ? 1u : 0u))
        mismatch("number of faults", mode, code, n);
    if (s->kind) {
        const cg_fault *f = cg_fault_get(dev, cg_fault_count(dev) - 1);
        if ((int)f->kind != s->kind)
            mismatch("fault kind", mode, code, n);
        if (strcmp(f->unit, "mme") != 0 || f->family != CG_FAMILY_NV ||
            (f->flags & CG_FAULT_F_WARNING) || f->gpu_addr != 0)
            mismatch("fault unit/family/flags/address", mode, code, n);
        if (f->words[0] != s->fword)
            mismatch("fault instruction word", mode, code, n);
        if (f->channel != (who ? who->channel : -1) ||
            (keep ? f->stream_addr != who->stream_addr || f->nwords != 2 || f->words[1] != s->fpc
                  : f->stream_addr != s->fpc || f->nwords != 1))
            mismatch("fault PC/stream address/words/channel", mode, code, n);
        char prefix[48];
        if (macro >= 0)
            snprintf(prefix, sizeof prefix, "macro %d pc 0x%x: ", (int)macro, s->fpc);
        else
            snprintf(prefix, sizeof prefix, "pc 0x%x: ", s->fpc);
        if (strncmp(f->message, prefix, strlen(prefix)) != 0)
            mismatch("fault message prefix", mode, code, n);
    }
    if (memcmp(r->regs, s->r, sizeof s->r) != 0 || r->carry != s->carry)
        mismatch("registers or carry", mode, code, n);
    if (r->maddr != s->maddr || r->minc != s->minc)
        mismatch("method address", mode, code, n);
    if (r->pc != s->last || r->steps != s->steps)
        mismatch("last PC or instruction count", mode, code, n);
    if (r->sends != s->sends || r->params_used != s->pi)
        mismatch("sends or parameters used", mode, code, n);
}

static void reset_logs(unsigned fail_at)
{
    real_log.n = ref_log.n = 0;
    real_log.calls = ref_log.calls = 0;
    real_log.fail_at = ref_log.fail_at = fail_at;
}

static void ref_init(nv_mme_ref *s, const uint32_t *code, size_t n, uint32_t mask,
                     uint32_t pc, const uint32_t *par, size_t np, uint64_t budget, bool no_io)
{
    memset(s, 0, sizeof *s);
    s->code = code;
    s->n = n;
    s->pc_mask = mask;
    s->pc = pc;
    s->par = par;
    s->np = np;
    s->budget = budget;
    s->user = &ref_log;
    s->send = rec_send;
    s->read = rec_read;
    if (no_io)
        s->send = NULL, s->read = NULL;
}

static void roundtrip(const uint32_t *w, size_t n)
{
    size_t cap = n * 80 + 1, len = 0;
    char *text = malloc(cap);
    if (!text)
        return;
    for (size_t i = 0; i < n; i++) {
        const char *note;
        char line[128];
        nv_mme_disasm_word(w[i], (uint32_t)i, line, sizeof line, &note);
        len += (size_t)snprintf(text + len, cap - len, "%s ; 0x%08x\n", line, w[i]);
    }
    cg_asm *as;
    if (cg_asm_create(nv_mme_asm_family(), NULL, &as)) {
        free(text);
        return;
    }
    cg_asm_add_source(as, "fuzz.s", text, len);
    if (cg_asm_assemble(as) != 0) {
        fprintf(stderr, "round trip: assembly failed:\n%s", cg_asm_errors(as));
        abort();
    }
    const char *name;
    uint64_t base;
    const uint8_t *data = NULL;
    size_t size = 0;
    if (cg_asm_section_count(as))
        cg_asm_section(as, 0, &name, &base, &data, &size);
    if (size != n * 4 || (size && memcmp(data, w, size) != 0)) {
        fprintf(stderr, "round trip mismatch\n");
        abort();
    }
    cg_asm_destroy(as);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return 0;
    size_t np = data[0] & 15u;
    uint32_t start = data[0] >> 4;
    uint64_t budget = (uint64_t)data[1] | (uint64_t)data[2] << 8;
    unsigned opt = data[3], fail_at = data[4];
    size_t nw = (size - 5) / 4;
    if (nw > 4096)
        nw = 4096;
    uint32_t *w = malloc((nw + 1) * 4);
    if (!w)
        return 0;
    for (size_t i = 0; i < nw; i++) {
        const uint8_t *p = data + 5 + 4 * i;
        w[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
               (uint32_t)p[3] << 24;
    }
    if (np > nw)
        np = nw;
    const uint32_t *code = w + np;
    size_t ncode = nw - np;
    cg_device *dev;
    nv_mme_state *st = malloc(sizeof *st);
    uint32_t *ram = calloc(NV_MME_CODE_WORDS, 4);
    if (st && ram && cg_device_create(&dev) == 0) {
        nv_mme_io rio = {&real_log, rec_send, rec_read};
        const nv_mme_io *io = fail_at == 255 ? NULL : &rio;
        cg_agent who = {CG_FAMILY_NV, "pfifo", 5, 0x100000040ull + 4 * start, {0}, 0};
        const cg_agent *agent = opt & 1 ? &who : NULL;
        nv_mme_result r;
        nv_mme_ref s;

        /* a plain array from the start PC */
        reset_logs(fail_at);
        size_t before = cg_fault_count(dev);
        int rc = nv_mme_run(code, ncode, start, w, np, io, budget, agent, dev, &r);
        ref_init(&s, code, ncode, 0xFFFFFFFFu, start, w, np, budget, !io);
        nv_mme_ref_run(&s);
        compare("nv_mme_run", &s, rc, &r, dev, before, agent, false, -1, code, ncode);

        /* a call through the code RAM; uploads past its end wrap */
        uint32_t at = opt & 2 ? NV_MME_CODE_WORDS - 8 : 0, macro = opt >> 2;
        uint32_t entry = (at + start) & (NV_MME_CODE_WORDS - 1);
        nv_mme_state_init(st);
        nv_mme_method(st, NV_MME_M_INSTRUCTION_RAM_POINTER, at);
        for (size_t i = 0; i < ncode; i++) {
            nv_mme_method(st, NV_MME_M_INSTRUCTION_RAM, code[i]);
            ram[(at + i) & (NV_MME_CODE_WORDS - 1)] = code[i];
        }
        nv_mme_method(st, NV_MME_M_START_ADDRESS_RAM_POINTER, macro);
        nv_mme_method(st, NV_MME_M_START_ADDRESS_RAM, entry);
        if (memcmp(st->code, ram, NV_MME_CODE_WORDS * 4) != 0 || st->entry[macro] != entry)
            mismatch("uploaded code RAM or entry", "nv_mme_method", code, ncode);
        reset_logs(fail_at);
        before = cg_fault_count(dev);
        rc = nv_mme_call(st, macro, w, np, io, budget, agent, dev, &r);
        ref_init(&s, ram, NV_MME_CODE_WORDS, NV_MME_CODE_WORDS - 1, entry, w, np, budget, !io);
        nv_mme_ref_run(&s);
        compare("nv_mme_call", &s, rc, &r, dev, before, agent, agent != NULL, (int32_t)macro,
                code, ncode);
        cg_device_destroy(dev);
    }
    free(ram);
    free(st);
    roundtrip(code, ncode);
    free(w);
    return 0;
}
