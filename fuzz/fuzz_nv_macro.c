/* Fuzzes the MME interpreter and its text round trip. Input: byte 0 = number
 * of parameters (low 4 bits) and start PC (high 4 bits), bytes 1..2 = budget,
 * then little-endian words: the parameters first, the rest is code. The
 * macro runs with a dummy io (sends counted, reads return a function of the
 * method); then the code words are disassembled and assembled again and must
 * come back word for word (abort otherwise). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"
#include "nv/macro.h"

static int dummy_send(void *user, uint32_t method, uint32_t value)
{
    uint64_t *n = user;
    *n += method ^ value;
    return 0;
}

static int dummy_read(void *user, uint32_t method, uint32_t *value)
{
    (void)user;
    *value = method * 0x9E3779B1u;
    return 0;
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
    if (size < 3)
        return 0;
    size_t np = data[0] & 15u;
    uint32_t start = data[0] >> 4;
    uint64_t budget = (uint64_t)data[1] | (uint64_t)data[2] << 8;
    size_t nw = (size - 3) / 4;
    if (nw > 4096)
        nw = 4096;
    uint32_t *w = malloc((nw + 1) * 4);
    if (!w)
        return 0;
    for (size_t i = 0; i < nw; i++) {
        const uint8_t *p = data + 3 + 4 * i;
        w[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
               (uint32_t)p[3] << 24;
    }
    if (np > nw)
        np = nw;
    cg_device *dev;
    if (cg_device_create(&dev) == 0) {
        uint64_t sink = 0;
        nv_mme_io io = {&sink, dummy_send, dummy_read};
        nv_mme_result r;
        nv_mme_run(w + np, nw - np, start, w, np, &io, budget, NULL, dev, &r);
        /* the same code through the upload path and a call */
        nv_mme_state *s = malloc(sizeof *s);
        if (s) {
            nv_mme_state_init(s);
            nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM_POINTER, start);
            for (size_t i = np; i < nw; i++)
                nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM, w[i]);
            nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM_POINTER, start);
            nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM, start);
            nv_mme_call(s, start, w, np, &io, budget, NULL, dev, &r);
            free(s);
        }
        cg_device_destroy(dev);
    }
    roundtrip(w + np, nw - np);
    free(w);
    return 0;
}
