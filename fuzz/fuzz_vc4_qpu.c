/* Fuzz the VideoCore IV QPU interpreter and disassembler: the input is a
 * small header then instruction words, run from a bounded memory image
 * (code and uniforms in one 64 KiB object) with a budget, as a fragment
 * shader or a plain program; every word also goes through the disassembler
 * (text and notes must stay terminated and bounded).
 *
 * Input: byte 0 flags (bit 0 strict, bit 1 fragment, bit 2 shared
 * semaphores), byte 1 lane mask low, byte 2 lane mask high, byte 3 number of
 * varyings; then little-endian instruction words (code at 0x10000; the same
 * bytes double as the uniform stream at 0x18000). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "vc4/qpu.h"

#define CODE 0x10000u
#define UNIF 0x18000u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    uint8_t flags = data[0];
    uint16_t mask = (uint16_t)(data[1] | data[2] << 8);
    uint32_t nvary = data[3] % (VC4_QPU_MAX_VARYINGS + 4);
    data += 4;
    size -= 4;
    if (size > 0x8000)
        size = 0x8000;

    char text[512], notes[512];
    for (size_t i = 0; i + 8 <= size; i += 8) {
        uint64_t ins;
        memcpy(&ins, data + i, 8);
        int n = vc4_qpu_disasm(ins, (uint32_t)(CODE + i), text, sizeof text, notes, sizeof notes);
        if (n < 0 || strlen(text) >= sizeof text || strlen(notes) >= sizeof notes)
            abort();
    }

    cg_device *dev;
    if (cg_device_create(&dev))
        return 0;
    cg_vas *bus = NULL;
    cg_mem *mem = NULL;
    cg_vas_config cfg = {.va_bits = 32};
    uint64_t va;
    if (cg_vas_create(dev, &cfg, &bus) || cg_mem_create(dev, 0x10000, 0, &mem))
        goto out;
    cg_map_params p = {.mem = mem, .va = CODE, .flags = CG_MAP_FIXED};
    if (cg_vas_map(bus, &p, &va))
        goto out;
    if (size) {
        cg_vas_cpu_write(bus, CODE, data, size);
        cg_vas_cpu_write(bus, UNIF, data, size);
    }
    if (flags & 2) {
        vc4_frag_batch *b = calloc(1, sizeof *b);
        vc4_qpu_sems sems = {{0}};
        if (b) {
            b->mask = mask;
            b->nvary = nvary;
            for (int i = 0; i < 16; i++) {
                b->x[i] = (uint32_t)i;
                b->y[i] = (uint32_t)(i * 3);
                b->tlb_color_in[i] = 0x01020304u * (uint32_t)i;
                b->frag_w[i] = 0x3f800000u;
                for (uint32_t k = 0; k < VC4_QPU_MAX_VARYINGS; k++) {
                    b->vary[k][i] = (float)k - (float)i;
                    b->vary_c[k][i] = 0.5f;
                }
            }
            if (flags & 4)
                b->sems = &sems;
            vc4_frag_batch *in = malloc(sizeof *in);
            if (in)
                memcpy(in, b, sizeof *in);
            /* fault counts are compared per run, so each run starts with an
             * empty log: the log keeps 4096 records, and a run full of
             * diagnostics would otherwise leave the next one less room */
            cg_fault_clear(dev);
            int rc = vc4_qpu_run_fragment(dev, bus, NULL, CODE, UNIF, b, 4096, flags & 1);
            uint64_t nf = cg_fault_count(dev) + cg_fault_dropped(dev);
            /* TLB outputs only in covered lanes; semaphores stay 4-bit */
            if ((b->color_mask | b->z_mask | b->ms_mask_written | b->alpha_mask_written) &
                ~mask)
                abort();
            for (int i = 0; i < 16; i++)
                if (sems.count[i] > 15)
                    abort();
            /* the decoded-program cache changes nothing: two runs through one
             * cache (the second from decoded code) give the uncached results
             * and the same faults (private semaphores only: shared ones carry
             * state from run to run) */
            vc4_qpu_cache *qc = vc4_qpu_cache_create();
            vc4_frag_batch *c = malloc(sizeof *c);
            for (int run = 0; run < 2 && in && qc && c && !(flags & 4); run++) {
                memcpy(c, in, sizeof *c);
                cg_fault_clear(dev);
                int rc2 = vc4_qpu_run_fragment_cached(qc, dev, bus, NULL, CODE, UNIF, c, 4096,
                                                      flags & 1);
                if (rc2 != rc || cg_fault_count(dev) + cg_fault_dropped(dev) != nf ||
                    c->color_mask != b->color_mask || c->z_mask != b->z_mask ||
                    c->ms_mask_written != b->ms_mask_written || c->host_int != b->host_int ||
                    c->alpha_mask_written != b->alpha_mask_written ||
                    c->stencil_writes != b->stencil_writes)
                    abort();
                for (int i = 0; i < 16; i++)
                    if (((c->color_mask >> i) & 1 && c->color[i] != b->color[i]) ||
                        ((c->z_mask >> i) & 1 && c->z_out[i] != b->z_out[i]) ||
                        c->ms_flags[i] != b->ms_flags[i])
                        abort();
            }
            vc4_qpu_cache_destroy(qc);
            free(c);
            free(in);
            free(b);
        }
    } else {
        vc4_qpu_state *s = malloc(sizeof *s);
        if (s) {
            vc4_qpu_init(s, dev, bus, NULL, CODE, UNIF, flags & 1);
            vc4_qpu_run(s, 4096);
            free(s);
        }
    }
out:
    cg_vas_destroy(bus);
    cg_mem_unref(mem);
    cg_device_destroy(dev);
    return 0;
}
