/* Fuzz the QPU's I/O units: VPM general access, VDR/VDW DMA, TMU lookups,
 * semaphores and the mutex, with one QPU or two sharing vc4_v3d_units and
 * stepped in an interleave the input chooses. A prologue of load-immediate
 * instructions built from the header puts random setup words into the VPM
 * and DMA registers; then the input's own instruction words run. Each input
 * runs twice: the VPM, the DMA'd memory and the fault log must be the same
 * (determinism), and the units' invariants must hold (semaphore counts
 * 0..15, the mutex free or held by a running QPU, FIFO counts in range).
 *
 * Input: byte 0 flags (bit 0 strict, bit 1 two QPUs), byte 1 interleave
 * pattern, then 7 little-endian 32-bit setup values (read setup, write
 * setup, VDW setup, VDW stride, VDR setup, VDR address offset, VDW address
 * offset), then instruction words (code at 0x10000, the same bytes as the
 * uniform stream at 0x18000). Bus: 64 KiB of code/uniforms at 0x10000, 4
 * KiB read-write data at 0x20000 (seeded from the input), 4 KiB read-only
 * at 0x21000, nothing else mapped. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "vc4/qpu.h"

#define CODE 0x10000u
#define UNIF 0x18000u
#define DATA 0x20000u
#define RO 0x21000u
#define NPRO 7
#define MAX_STEPS 3000

static uint64_t ldi(uint32_t waddr, int file, uint32_t imm)
{
    return (uint64_t)VC4_QPU_SIG_LOAD_IMMEDIATE << VC4_QPU_F_ALU_sig_LO |
           (uint64_t)1 << VC4_QPU_F_LDI_cond_add_LO | (uint64_t)(file & 1) << VC4_QPU_F_LDI_ws_LO |
           (uint64_t)waddr << VC4_QPU_F_LDI_waddr_add_LO |
           (uint64_t)VC4_QPU_W_NOP << VC4_QPU_F_LDI_waddr_mul_LO | imm;
}

typedef struct result {
    uint32_t vpm_hash, mem_hash;
    size_t faults;
} result;

static uint32_t fnv(uint32_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

static void run_once(const uint8_t *data, size_t size, result *res)
{
    uint8_t flags = data[0], pattern = data[1];
    uint32_t hv[NPRO];
    for (int k = 0; k < NPRO; k++)
        hv[k] = (uint32_t)data[2 + 4 * k] | (uint32_t)data[3 + 4 * k] << 8 |
                (uint32_t)data[4 + 4 * k] << 16 | (uint32_t)data[5 + 4 * k] << 24;
    const uint8_t *code = data + 2 + 4 * NPRO;
    size_t ncode = size - (2 + 4 * NPRO);
    if (ncode > 0x7000)
        ncode = 0x7000;
    memset(res, 0, sizeof *res);

    cg_device *dev;
    if (cg_device_create(&dev))
        return;
    cg_vas *bus = NULL;
    cg_mem *mem = NULL, *dmem = NULL, *ro = NULL;
    vc4_v3d_units *u = calloc(1, sizeof *u);
    vc4_qpu_state *st = calloc(2, sizeof *st);
    cg_vas_config cfg = {.va_bits = 32};
    uint64_t va;
    if (!u || !st || cg_vas_create(dev, &cfg, &bus) || cg_mem_create(dev, 0x10000, 0, &mem) ||
        cg_mem_create(dev, 0x1000, 0, &dmem) || cg_mem_create(dev, 0x1000, 0, &ro))
        goto out;
    cg_map_params p = {.mem = mem, .va = CODE, .flags = CG_MAP_FIXED};
    cg_map_params q = {.mem = dmem, .va = DATA, .flags = CG_MAP_FIXED};
    cg_map_params r = {.mem = ro, .va = RO, .flags = CG_MAP_FIXED | CG_MAP_READ_ONLY};
    if (cg_vas_map(bus, &p, &va) || cg_vas_map(bus, &q, &va) || cg_vas_map(bus, &r, &va))
        goto out;
    /* the prologue, then the input's instructions */
    uint64_t pro[NPRO] = {
        ldi(VC4_QPU_W_VPMVCD_RD_SETUP, 0, hv[0] & 0x00ffffffu),
        ldi(VC4_QPU_W_VPMVCD_RD_SETUP, 1, hv[1] & 0x00ffffffu),
        ldi(VC4_QPU_W_VPMVCD_RD_SETUP, 1, 0x80000000u | (hv[2] & 0x3fffffffu)),
        ldi(VC4_QPU_W_VPMVCD_RD_SETUP, 1, 0xc0000000u | (hv[3] & 0x1ffffu)),
        ldi(VC4_QPU_W_VPMVCD_RD_SETUP, 0, 0x80000000u | hv[4]),
        ldi(VC4_QPU_W_VPM_LD_ADDR, 0, DATA + (hv[5] & 0x3fff) - 0x800),
        ldi(VC4_QPU_W_VPM_LD_ADDR, 1, DATA + (hv[6] & 0x3fff) - 0x800),
    };
    uint8_t w[8];
    for (int k = 0; k < NPRO; k++) {
        for (int b = 0; b < 8; b++)
            w[b] = (uint8_t)(pro[k] >> (8 * b));
        cg_vas_cpu_write(bus, CODE + 8u * (uint32_t)k, w, 8);
    }
    if (ncode) {
        cg_vas_cpu_write(bus, CODE + 8 * NPRO, code, ncode);
        cg_vas_cpu_write(bus, UNIF, code, ncode);
        cg_vas_cpu_write(bus, DATA, code, ncode < 0x1000 ? ncode : 0x1000);
    }
    vc4_v3d_units_init(u);
    int nq = flags & 2 ? 2 : 1;
    for (int k = 0; k < nq; k++) {
        vc4_qpu_init(&st[k], dev, bus, NULL, CODE, UNIF, flags & 1);
        vc4_qpu_set_units(&st[k], u, (uint32_t)k);
    }
    for (int n = 0; n < MAX_STEPS; n++) {
        int k = nq == 2 ? (pattern >> (n & 7)) & 1 : 0;
        if (st[k].ended)
            k ^= 1;
        if (k >= nq || st[k].ended)
            break;
        int rc = vc4_qpu_step(&st[k]);
        if (rc != 0 && rc != VC4_QPU_BLOCKED && rc != CG_ERR_FAULT)
            abort();
        if (rc == VC4_QPU_BLOCKED && st[k].wait.kind == VC4_QPU_WAIT_NONE)
            abort();
        /* invariants of the shared units and the FIFOs */
        for (int i = 0; i < 16; i++)
            if (u->sems.count[i] > 15)
                abort();
        if (u->mutex_owner < -1 || u->mutex_owner >= nq)
            abort();
        for (int t = 0; t < 2; t++)
            if (st[k].tmu_n[t] > VC4_TMU_FIFO_SLOTS || st[k].tmu_head[t] >= VC4_TMU_FIFO_SLOTS)
                abort();
        if (st[k].vpm_rd_left > 16)
            abort();
    }
    res->vpm_hash = fnv(2166136261u, u->vpm, sizeof u->vpm);
    uint8_t buf[0x1000];
    if (cg_vas_cpu_read(bus, DATA, buf, sizeof buf) == 0)
        res->mem_hash = fnv(2166136261u, buf, sizeof buf);
    res->faults = cg_fault_count(dev);
out:
    free(st);
    free(u);
    cg_vas_destroy(bus);
    cg_mem_unref(mem);
    cg_mem_unref(dmem);
    cg_mem_unref(ro);
    cg_device_destroy(dev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 + 4 * NPRO)
        return 0;
    result a, b;
    run_once(data, size, &a);
    run_once(data, size, &b);
    if (memcmp(&a, &b, sizeof a) != 0)
        abort();
    return 0;
}
