/* VideoCore IV QPU I/O units: VPM general reads and writes, VCD DMA (VDR,
 * VDW), TMU general memory lookups and the result FIFO, semaphores and the
 * mutex as blocking points between two QPUs stepped by hand, QPU number,
 * and every fault of these units with its exact kind, address and message.
 * Expected values are worked out by hand from the setup fields
 * (docs/vc4-gpgpu.md). */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "qpu_text.h"
#include "cmdgpu/cmdgpu.h"
#include "vc4/qpu.h"

#define CODE 0x10000u   /* first program */
#define CODE2 0x14000u  /* second program (two-QPU tests) */
#define UNIF 0x18000u
#define DATA 0x20000u   /* 64 KiB of data, read-write */
#define RO 0x40000u     /* 4 KiB read-only */

typedef struct env {
    cg_device *dev;
    cg_vas *bus;
    cg_mem *mem, *ro;
    vc4_v3d_units *u;
} env;

static void env_init(env *e)
{
    memset(e, 0, sizeof *e);
    CHECK_EQ(cg_device_create(&e->dev), 0);
    cg_vas_config cfg = {.va_bits = 32};
    CHECK_EQ(cg_vas_create(e->dev, &cfg, &e->bus), 0);
    CHECK_EQ(cg_mem_create(e->dev, 0x20000, 0, &e->mem), 0);
    CHECK_EQ(cg_mem_create(e->dev, 0x1000, 0, &e->ro), 0);
    uint64_t va;
    cg_map_params p = {.mem = e->mem, .va = CODE, .flags = CG_MAP_FIXED};
    CHECK_EQ(cg_vas_map(e->bus, &p, &va), 0);
    cg_map_params q = {.mem = e->ro, .va = RO, .flags = CG_MAP_FIXED | CG_MAP_READ_ONLY};
    CHECK_EQ(cg_vas_map(e->bus, &q, &va), 0);
    e->u = calloc(1, sizeof *e->u);
    vc4_v3d_units_init(e->u);
}

static void env_fini(env *e)
{
    free(e->u);
    cg_vas_destroy(e->bus);
    cg_mem_unref(e->mem);
    cg_mem_unref(e->ro);
    cg_device_destroy(e->dev);
}

static int bus_put(void *ctx, uint32_t at, const void *p, size_t n)
{
    return cg_vas_cpu_write(((env *)ctx)->bus, at, p, n);
}

/* Assemble `src` at `at` with a program end after it. */
static void load_at(env *e, uint32_t at, const char *src)
{
    qpu_text_load(at, src, "nop ; nop ; thrend\nnop\nnop\n", bus_put, e);
}

/* Run `src` (+ an end sequence) at CODE as QPU `qnum` on e->u. */
static int go(env *e, vc4_qpu_state *s, uint32_t qnum, bool strict, const char *src)
{
    load_at(e, CODE, src);
    vc4_qpu_init(s, e->dev, e->bus, NULL, CODE, UNIF, strict);
    vc4_qpu_set_units(s, e->u, qnum);
    return vc4_qpu_run(s, 1000);
}

static uint32_t rd32(env *e, uint32_t a)
{
    uint8_t b[4] = {0};
    cg_vas_cpu_read(e->bus, a, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void wr32(env *e, uint32_t a, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    CHECK_EQ(cg_vas_cpu_write(e->bus, a, b, 4), 0);
}

/* The only fault: its kind, instruction address, data address, message part. */
static void one_fault(env *e, cg_fault_kind kind, uint32_t at, uint64_t gpu_addr,
                      const char *part, int line)
{
    size_t n = cg_fault_count(e->dev);
    const cg_fault *f = n ? cg_fault_get(e->dev, 0) : NULL;
    check_count++;
    if (n != 1 || !f || f->kind != kind || f->stream_addr != at || f->gpu_addr != gpu_addr ||
        !strstr(f->message, part)) {
        check_failures++;
        fprintf(stderr, "line %d: %zu fault(s); first: kind %d at 0x%llx gpu 0x%llx: %s\n", line,
                n, f ? (int)f->kind : -1, f ? (unsigned long long)f->stream_addr : 0ull,
                f ? (unsigned long long)f->gpu_addr : 0ull, f ? f->message : "");
    }
    cg_fault_clear(e->dev);
}
#define ONE_FAULT(e, k, at, ga, part) one_fault(e, k, at, ga, part, __LINE__)

static void no_fault(env *e, int line)
{
    check_count++;
    if (cg_fault_count(e->dev)) {
        check_failures++;
        fprintf(stderr, "line %d: unexpected fault: %s\n", line, cg_fault_get(e->dev, 0)->message);
        cg_fault_clear(e->dev);
    }
}
#define NO_FAULT(e) no_fault(e, __LINE__)

/* ---- VPM general writes ---- */

static void test_vpm_writes(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    uint32_t *vpm = e.u->vpm;
    /* horizontal 32-bit, stride 1, row 2: two vectors, rows 2 and 3 */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0x1a02\n"
                "mov vpm, elem_num\n"
                "add vpm, elem_num, 15\n"), 0);
    NO_FAULT(&e);
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(vpm[2 * 16 + i], (uint32_t)i);
        CHECK_EQ(vpm[3 * 16 + i], (uint32_t)i + 15);
    }
    CHECK_EQ(s.vpm_wr_addr, 4);
    /* vertical 32-bit: Y = 16 (ADDR[5:4] = 1), X = 3; stride 1 moves to X = 4 */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0x1213\n"
                "add vpm, elem_num, 10\n"
                "add vpm, elem_num, 12\n"), 0);
    NO_FAULT(&e);
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(vpm[(16 + i) * 16 + 3], 10u + (uint32_t)i);
        CHECK_EQ(vpm[(16 + i) * 16 + 4], 12u + (uint32_t)i);
    }
    /* horizontal 16-bit laned (0xd00), Y = 40, H = 1: the high halves of row
     * 40; stride 1 then goes to Y:H = 41:0, the low halves of row 41 */
    memset(vpm + 40 * 16, 0xee, 2 * 16 * 4);
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0x1d51\n"
                "ldi r1, 0x12340000\n"
                "add vpm, elem_num, r1\n"
                "add vpm, elem_num, r1\n"), 0);
    NO_FAULT(&e);
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(vpm[40 * 16 + i], (uint32_t)i << 16 | 0xeeeeu);
        CHECK_EQ(vpm[41 * 16 + i], 0xeeee0000u | (uint32_t)i);
    }
    /* horizontal 8-bit laned (0xc00), Y = 44, B = 2, stride 2: bytes 2 of
     * row 44, then Y:B = 45:0 */
    memset(vpm + 44 * 16, 0, 2 * 16 * 4);
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0x2cb2\n"
                "add vpm, elem_num, -1\n"
                "add vpm, elem_num, 15\n"), 0);
    NO_FAULT(&e);
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(vpm[44 * 16 + i], (uint32_t)((i - 1) & 255) << 16);
        CHECK_EQ(vpm[45 * 16 + i], (uint32_t)(i + 15));
    }
    /* vertical 16-bit laned (0x500), Y = 32, X = 5, H = 0: (0x25 << 1) | 0 */
    memset(vpm + 32 * 16, 0, 16 * 16 * 4);
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0x154a\n"
                "ldi r1, 0xabcd0000\n"
                "or vpm, elem_num, r1\n"), 0);
    NO_FAULT(&e);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(vpm[(32 + i) * 16 + 5], (uint32_t)i);
    /* packed 16-bit (0x900): whole words, H ignored */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0x1901\n"
                "ldi r1, 0xabcd0000\n"
                "or vpm, elem_num, r1\n"), 0);
    NO_FAULT(&e);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(vpm[i], 0xabcd0000u | (uint32_t)i);
    /* a conditional write: only the lanes written (strict: a fault) */
    CHECK_EQ(go(&e, &s, 0, false,
                "ldi vw_setup, 0x1a06\n"
                "ldipeu.setf r0, [0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1]\n"
                "mov.ifz vpm, 7\n"), 0);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 16, 0, "conditional VPM write (lanes 0x5555)");
    for (int i = 0; i < 16; i++)
        CHECK_EQ(vpm[6 * 16 + i], i & 1 ? 0u : 7u);
    env_fini(&e);
}

/* ---- VPM general reads ---- */

static void test_vpm_reads(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    for (uint32_t i = 0; i < VC4_VPM_WORDS; i++)
        e.u->vpm[i] = 0x01000000u * (i & 0xff) + i;
    /* horizontal 32-bit, NUM 2, stride 3, row 5: rows 5 and 8 */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vr_setup, 0x203a05\n"
                "nop\nnop\n"
                "mov r0, vpm\n"
                "mov r1, vpm\n"), 0);
    NO_FAULT(&e);
    for (uint32_t i = 0; i < 16; i++) {
        CHECK_EQ(s.acc[0][i], e.u->vpm[5 * 16 + i]);
        CHECK_EQ(s.acc[1][i], e.u->vpm[8 * 16 + i]);
    }
    CHECK_EQ(s.vpm_rd_left, 0);
    /* vertical 32-bit, Y = 48 (ADDR[5:4] = 3), X = 9 */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_setup, 0x101239\nnop\nnop\nmov r2, vpm\n"), 0);
    NO_FAULT(&e);
    for (uint32_t i = 0; i < 16; i++)
        CHECK_EQ(s.acc[2][i], e.u->vpm[(48 + i) * 16 + 9]);
    /* horizontal 8-bit laned, Y = 7, B = 3: the top bytes, zero-extended */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_setup, 0x101c1f\nnop\nnop\nmov r3, vpm\n"), 0);
    NO_FAULT(&e);
    for (uint32_t i = 0; i < 16; i++)
        CHECK_EQ(s.acc[3][i], e.u->vpm[7 * 16 + i] >> 24);
    /* vertical 16-bit laned, Y = 16, X = 2, H = 1 */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_setup, 0x101525\nnop\nnop\nmov ra4, vpm\n"), 0);
    NO_FAULT(&e);
    for (uint32_t i = 0; i < 16; i++)
        CHECK_EQ(s.ra[4][i], e.u->vpm[(16 + i) * 16 + 2] >> 16);
    /* a third read of a NUM = 2 setup: the QPU would wait forever */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vr_setup, 0x201a00\nnop\nnop\nmov r0, vpm\nmov r0, vpm\nmov r0, vpm\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_HANG, CODE + 40, 0,
              "VPM read with no vector left from the read setup (setup 0x00201a00)");
    /* a new setup while two vectors are outstanding is ignored (addendum) */
    CHECK_EQ(go(&e, &s, 0, false,
                "ldi vr_setup, 0x201a00\nldi vr_setup, 0x101a09\nnop\nmov r0, vpm\n"), 0);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 8, 0,
              "VPM read setup 0x00101a09 ignored: 2 vectors of the last one are still outstanding");
    for (uint32_t i = 0; i < 16; i++)
        CHECK_EQ(s.acc[0][i], e.u->vpm[i]);
    /* busy and wait registers read 0 and never block */
    CHECK_EQ(go(&e, &s, 0, true,
                "mov r0, vr_busy\nmov r1, vw_busy\nmov r2, vr_wait\nmov r3, vw_wait\n"), 0);
    NO_FAULT(&e);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(s.acc[0][i] | s.acc[1][i] | s.acc[2][i] | s.acc[3][i], 0);
    env_fini(&e);
}

/* ---- VPM faults ---- */

static void test_vpm_faults(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    /* h32 from row 63 with stride 64 (field 0): rows 63, 127, 191, 255, 319 */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0xa3f\n"
                "mov vpm, 1\nmov vpm, 2\nmov vpm, 3\nmov vpm, 4\nmov vpm, 5\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_ADDR_RANGE, CODE + 40, 0,
              "VPM write at address counter 0x13f reaches row 319, past the VPM's 256 rows "
              "(setup 0x00000a3f)");
    CHECK_EQ(e.u->vpm[255 * 16 + 15], 4);
    /* reserved SIZE 3 */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_setup, 0x100b00\nnop\nnop\nmov r0, vpm\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 24, 0, "VPM read with reserved SIZE 3 (setup 0x00100b00)");
    /* reserved setup IDs */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vw_setup, 0x40000000\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE, 0, "VPM write setup 0x40000000: reserved ID 1");
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_setup, 0x40000000\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE, 0, "VPM read setup 0x40000000: reserved ID 1");
    /* no units (a fragment shader's private units) */
    load_at(&e, CODE, "mov vpm, 1\n");
    vc4_qpu_init(&s, e.dev, e.bus, NULL, CODE, UNIF, true);
    CHECK_EQ(vc4_qpu_run(&s, 100), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_UNSUPPORTED, CODE, 0, "not supported yet: VPM write without V3D units");
    env_fini(&e);
}

/* ---- VCD DMA ---- */

static void test_vdw(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    for (uint32_t i = 0; i < VC4_VPM_WORDS; i++)
        e.u->vpm[i] = 0xa0000000u + i;
    /* horizontal 32-bit, 2 units of depth 16 from row 3 (dma_h32(3, 0) =
     * 0x4180), stride 64 bytes: unit 1 starts 128 bytes after unit 0 */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0x81104180\n"
                "ldi vw_setup, 0xc0000040\n"
                "ldi vw_addr, 0x20100\n"
                "mov -, vw_wait\n"), 0);
    NO_FAULT(&e);
    for (uint32_t i = 0; i < 16; i++) {
        CHECK_EQ(rd32(&e, DATA + 0x100 + 4 * i), 0xa0000000u + 3 * 16 + i);
        CHECK_EQ(rd32(&e, DATA + 0x180 + 4 * i), 0xa0000000u + 4 * 16 + i);
    }
    CHECK_EQ(rd32(&e, DATA + 0x140), 0);
    CHECK_EQ(e.u->vdw_count, 1);
    CHECK_EQ(e.u->vdw_bytes, 128);
    /* vertical 32-bit: 3 units (columns 5, 6, 7) of depth 4 from row 20
     * (dma_v32(20, 5) = 20 << 7 | 5 << 3 = 0xa28), stride 0 */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vw_setup, 0x81840a28\n"
                "ldi vw_setup, 0xc0000000\n"
                "ldi vw_addr, 0x20400\n"), 0);
    NO_FAULT(&e);
    for (uint32_t u = 0; u < 3; u++)
        for (uint32_t d = 0; d < 4; d++)
            CHECK_EQ(rd32(&e, DATA + 0x400 + 16 * u + 4 * d), 0xa0000000u + (20 + d) * 16 + 5 + u);
    /* horizontal 16-bit from half 1 (dma_h16p(1, 2, 1) = 0x4093): 1 unit of
     * depth 3: halves 1 of word 2, 0 and 1 of word 3 of row 1 */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vw_setup, 0x80834093\nldi vw_addr, 0x20600\n"), 0);
    NO_FAULT(&e);
    CHECK_EQ(rd32(&e, DATA + 0x600), 0x0013a000u);
    CHECK_EQ(rd32(&e, DATA + 0x604) & 0xffff, 0xa000u);
    /* faults: read-only memory, unmapped memory, no setup, past the VPM */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vw_setup, 0x80904000\nldi vw_addr, 0x40000\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_READ_ONLY, CODE + 8, RO, "");
    CHECK_EQ(rd32(&e, RO), 0);
    CHECK_EQ(go(&e, &s, 0, true, "ldi vw_setup, 0x81104000\nldi vw_addr, 0x2fff0\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_UNMAPPED, CODE + 8, 0x30000, "");
    CHECK_EQ(rd32(&e, 0x2fff0), 0); /* the first unit, mapped, untouched too */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vw_addr, 0x20000\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE, 0, "VDW started (VPM_ST_ADDR = 0x00020000) with no VDW setup");
    CHECK_EQ(go(&e, &s, 0, true, "ldi vw_setup, 0x80a04040\nldi vw_addr, 0x20000\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_ADDR_RANGE, CODE + 8, 0,
              "VDW (setup 0x80a04040): row/unit 0 element 8 lies outside the VPM");
    CHECK_EQ(go(&e, &s, 0, true, "ldi vw_setup, 0x80904001\nldi vw_addr, 0x20000\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 8, 0, "VDW setup 0x80904001: reserved MODEW 1");
    env_fini(&e);
}

static void test_vdr(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    for (uint32_t i = 0; i < 256; i++)
        wr32(&e, DATA + 4 * i, 0xb0000000u + i);
    /* 32-bit, MPITCH 3 (64 bytes), ROWLEN 4, NROWS 2, VPITCH 1, horizontal,
     * Y 10, X 2: rows 10 and 11, columns 2-5 */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vr_setup, 0x834210a2\n"
                "ldi vr_addr, 0x20000\n"
                "mov -, vr_wait\n"), 0);
    NO_FAULT(&e);
    for (uint32_t k = 0; k < 4; k++) {
        CHECK_EQ(e.u->vpm[10 * 16 + 2 + k], 0xb0000000u + k);
        CHECK_EQ(e.u->vpm[11 * 16 + 2 + k], 0xb0000000u + 16 + k);
    }
    CHECK_EQ(e.u->vpm[10 * 16 + 6], 0);
    CHECK_EQ(e.u->vdr_count, 1);
    CHECK_EQ(e.u->vdr_bytes, 32);
    /* vertical, extended pitch 24 (MPITCH 0), ROWLEN 3, NROWS 2, VPITCH 2,
     * Y 32, X 1: column 1 rows 32-34 and column 3 rows 32-34 */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi vr_setup, 0x90000018\n"
                "ldi vr_setup, 0x80322a01\n"
                "ldi vr_addr, 0x20010\n"), 0);
    NO_FAULT(&e);
    for (uint32_t k = 0; k < 3; k++) {
        CHECK_EQ(e.u->vpm[(32 + k) * 16 + 1], 0xb0000004u + k);
        CHECK_EQ(e.u->vpm[(32 + k) * 16 + 3], 0xb000000au + k);
    }
    /* 8-bit from byte 1 (MODEW 5), ROWLEN 5, 1 row, horizontal, row 50 X 0 */
    memset(e.u->vpm + 50 * 16, 0, 64);
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_setup, 0xd3511320\nldi vr_addr, 0x20004\n"), 0);
    NO_FAULT(&e);
    /* memory 0x20004 holds 01 00 00 b0 02: bytes 1-3 of word 0, 0-1 of word 1 */
    CHECK_EQ(e.u->vpm[50 * 16 + 0], 0x00000100u);
    CHECK_EQ(e.u->vpm[50 * 16 + 1], 0x000002b0u);
    /* faults: unmapped source, no setup, outside the VPM */
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_setup, 0x83421000\nldi vr_addr, 0x2ffe0\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_UNMAPPED, CODE + 8, 0x30020, "");
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_addr, 0x20000\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE, 0, "VDR started (VPM_LD_ADDR = 0x00020000) with no VDR setup");
    CHECK_EQ(go(&e, &s, 0, true, "ldi vr_setup, 0x830110fe\nldi vr_addr, 0x20000\n"),
             CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_ADDR_RANGE, CODE + 8, 0, "VDR (setup 0x830110fe): row/unit 0 element 2");
    env_fini(&e);
}

/* ---- TMU general memory lookups ---- */

static void test_tmu(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    for (uint32_t i = 0; i < 64; i++)
        wr32(&e, DATA + 4 * i, 0xc0000000u + i);
    /* two requests on TMU0 (word i, word 16 + i), one on TMU1 (word 40 -
     * i), results in request order */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi r0, 0x20000\n"
                "shl r1, elem_num, 2\n"
                "add r2, r0, r1\n"
                "mov t0s, r2\n"
                "ldi r3, 64\n"
                "add t0s, r2, r3\n"
                "ldi r3, 160\n"
                "sub r3, r3, r1\n"
                "add t1s, r0, r3\n"
                "nop ; nop ; ldtmu0\n"
                "mov ra1, r4 ; nop ; ldtmu1\n"
                "mov ra2, r4 ; nop ; ldtmu0\n"
                "mov ra3, r4\n"), 0);
    NO_FAULT(&e);
    for (uint32_t i = 0; i < 16; i++) {
        CHECK_EQ(s.ra[1][i], 0xc0000000u + i);
        CHECK_EQ(s.ra[2][i], 0xc0000000u + 40 - i);
        CHECK_EQ(s.ra[3][i], 0xc0000010u + i);
    }
    CHECK_EQ(s.tmu_lookups, 3);
    CHECK_EQ(s.tmu_n[0] + s.tmu_n[1], 0);
    /* a conditional S write: lanes not written read nothing (0) */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldipeu.setf r0, [0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1]\n"
                "ldi r1, 0x20020\n"
                "mov.ifnz t0s, r1\n"
                "nop ; nop ; ldtmu0\n"
                "mov r2, r4\n"), 0);
    NO_FAULT(&e);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(s.acc[2][i], i & 1 ? 0xc0000008u : 0u);
    /* tmu_noswap: element 0, any non-zero value */
    CHECK_EQ(go(&e, &s, 0, true, "mov tmurs, 2\n"), 0);
    CHECK(s.tmu_noswap);
    /* an unmapped lookup: the lane's address */
    CHECK_EQ(go(&e, &s, 0, true,
                "ldi r0, 0x2fff8\n"
                "shl r1, elem_num, 2\n"
                "add t0s, r0, r1\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_UNMAPPED, CODE + 16, 0x30000, "");
    /* FIFO: 5 outstanding is a restriction (strict), 9 overflows */
    char prog[2048] = "ldi r0, 0x20000\n";
    for (int k = 0; k < 5; k++)
        strcat(prog, "mov t1s, r0\n");
    CHECK_EQ(go(&e, &s, 0, true, prog), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 40, 0, "TMU1: 5 requests outstanding (more than 4 is unreliable)");
    for (int k = 5; k < 9; k++)
        strcat(prog, "mov t1s, r0\n");
    CHECK_EQ(go(&e, &s, 0, false, prog), CG_ERR_FAULT);
    CHECK_EQ(cg_fault_count(e.dev), 5); /* four warnings, then the fault */
    const cg_fault *f = cg_fault_get(e.dev, 4);
    CHECK(f && f->kind == CG_FAULT_BAD_STATE && f->stream_addr == CODE + 72 &&
          strstr(f->message, "TMU1 request FIFO overflow: a 9th request with 8 results not yet "
                             "loaded (ldtmu1)"));
    cg_fault_clear(e.dev);
    /* T then S: a texture request; it takes parameters 0 and 1 from the
     * uniform stream and goes to vc4_tmu_texture, whose fault (texture at
     * bus address 0, or "not supported yet" before the sampler exists) is
     * raised with the prefix "TMU0: " */
    uint32_t zeros[4] = {0, 0, 0, 0};
    CHECK_EQ(cg_vas_cpu_write(e.bus, UNIF, zeros, sizeof zeros), 0);
    CHECK_EQ(go(&e, &s, 0, true, "mov t0t, 0\nmov t0s, 0\n"), CG_ERR_FAULT);
    CHECK_EQ(s.unif, UNIF + 8);
    f = cg_fault_get(e.dev, 0);
    CHECK(f && f->stream_addr == CODE + 8 && !strncmp(f->message, "TMU0: ", 6));
    cg_fault_clear(e.dev);
    /* ldtmu with nothing requested */
    CHECK_EQ(go(&e, &s, 0, true, "nop ; nop ; ldtmu1\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_HANG, CODE, 0, "ldtmu1 with no TMU1 request outstanding");
    env_fini(&e);
}

/* ---- semaphores, mutex, QPU number: two QPUs stepped by hand ---- */

static void test_sync(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state a, b;
    load_at(&e, CODE, "sacq -, 2\nmov r0, 1\nsacq -, 2\nmov r0, 2\n");
    load_at(&e, CODE2, "mov r1, qpu_num\nsrel -, 2\nnop\nnop\n");
    vc4_qpu_init(&a, e.dev, e.bus, NULL, CODE, UNIF, true);
    vc4_qpu_set_units(&a, e.u, 4);
    vc4_qpu_init(&b, e.dev, e.bus, NULL, CODE2, UNIF, true);
    vc4_qpu_set_units(&b, e.u, 9);
    CHECK_EQ(vc4_qpu_step(&a), VC4_QPU_BLOCKED);
    CHECK_EQ(a.pc, CODE);
    CHECK_EQ(a.wait.kind, VC4_QPU_WAIT_SEM_ACQUIRE);
    CHECK_EQ(a.wait.detail, 2);
    char txt[80];
    vc4_qpu_wait_text(&a, txt, sizeof txt);
    CHECK_STR(txt, "semaphore 2 acquire (count 0)");
    CHECK_EQ(vc4_qpu_step(&b), 0); /* qpu_num */
    CHECK_EQ(b.acc[1][7], 9);
    CHECK_EQ(vc4_qpu_step(&b), 0); /* srel 2 */
    CHECK_EQ(e.u->sems.count[2], 1);
    CHECK_EQ(vc4_qpu_step(&a), 0);
    CHECK_EQ(a.wait.kind, VC4_QPU_WAIT_NONE);
    CHECK_EQ(e.u->sems.count[2], 0);
    CHECK_EQ(vc4_qpu_step(&a), 0);
    CHECK_EQ(vc4_qpu_step(&a), VC4_QPU_BLOCKED);
    CHECK_EQ(a.stalls, 2);
    CHECK_EQ(a.pc, CODE + 16);
    NO_FAULT(&e);

    /* alone, a block ends in the budget's hang fault naming the wait */
    CHECK_EQ(vc4_qpu_run(&a, 20), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_HANG, CODE + 16, 0,
              "did not end within 20 instructions (pc 0x00010010; waits on semaphore 2 "
              "acquire (count 0))");

    /* mutex: b blocks while a holds it, goes on once a releases it */
    vc4_v3d_units_init(e.u);
    load_at(&e, CODE, "mov r0, mutex\nnop\nmov mutex, 0\nnop\n");
    load_at(&e, CODE2, "mov r1, mutex\nmov mutex, r1\n");
    vc4_qpu_init(&a, e.dev, e.bus, NULL, CODE, UNIF, true);
    vc4_qpu_set_units(&a, e.u, 1);
    vc4_qpu_init(&b, e.dev, e.bus, NULL, CODE2, UNIF, true);
    vc4_qpu_set_units(&b, e.u, 2);
    CHECK_EQ(vc4_qpu_step(&a), 0);
    CHECK_EQ(e.u->mutex_owner, 1);
    CHECK_EQ(vc4_qpu_step(&b), VC4_QPU_BLOCKED);
    CHECK_EQ(b.wait.kind, VC4_QPU_WAIT_MUTEX);
    vc4_qpu_wait_text(&b, txt, sizeof txt);
    CHECK_STR(txt, "mutex (held by QPU 1)");
    CHECK_EQ(vc4_qpu_step(&a), 0);
    CHECK_EQ(vc4_qpu_step(&b), VC4_QPU_BLOCKED);
    CHECK_EQ(vc4_qpu_step(&a), 0); /* release */
    CHECK_EQ(e.u->mutex_owner, -1);
    CHECK_EQ(vc4_qpu_step(&b), 0);
    CHECK_EQ(e.u->mutex_owner, 2);
    CHECK_EQ(vc4_qpu_step(&b), 0);
    CHECK_EQ(e.u->mutex_owner, -1);
    NO_FAULT(&e);

    /* semaphore faults: release past 15; bits 31:5 set (strict) */
    vc4_qpu_state s;
    char prog[1024] = "";
    for (int k = 0; k < 16; k++)
        strcat(prog, "srel -, 4\n");
    CHECK_EQ(go(&e, &s, 0, true, prog), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 120, 0, "semaphore 4 release past 15");
    CHECK_EQ(e.u->sems.count[4], 15);
    CHECK_EQ(go(&e, &s, 0, true, "ldi r0, 0x103 ; unpack=4\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE, 0,
              "semaphore instruction immediate 0x00000103: bits 31:5 are not 0");
    env_fini(&e);
}

/* ---- restrictions of these units (Guide, quoted in Mesa vc4_qpu_validate.c) ---- */

static void test_restrictions(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    /* a VPM write in a delay slot of the program end: warning, done anyway */
    load_at(&e, CODE, "ldi vw_setup, 0x1a00\nnop ; nop ; thrend\nmov vpm, 1\nnop\n");
    vc4_qpu_init(&s, e.dev, e.bus, NULL, CODE, UNIF, false);
    vc4_qpu_set_units(&s, e.u, 0);
    CHECK_EQ(vc4_qpu_run(&s, 100), 0);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 16, 0,
              "VPM, VDR or VDW access in the last three instructions");
    CHECK(cg_fault_count(e.dev) == 0);
    CHECK_EQ(e.u->vpm[5], 1);
    /* TMU_NOSWAP needs three instructions before the next TMU write */
    CHECK_EQ(go(&e, &s, 0, true, "mov tmurs, 1\nldi r0, 0x20000\nmov t0s, r0\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 16, 0,
              "TMU0 write 2 instruction(s) after a TMU_NOSWAP write (needs more than 3)");
    CHECK_EQ(go(&e, &s, 0, true, "mov tmurs, 1\nldi r0, 0x20000\nnop\nnop\nmov t0s, r0\n"
                                 "nop ; nop ; ldtmu0\n"), 0);
    NO_FAULT(&e);
    /* ldtmu within two instructions of an SFU write */
    CHECK_EQ(go(&e, &s, 0, true, "ldi r0, 0x20000\nmov t0s, r0\nmov recip, r0\n"
                                 "nop ; nop ; ldtmu0\n"), CG_ERR_FAULT);
    ONE_FAULT(&e, CG_FAULT_BAD_STATE, CODE + 24, 0,
              "ldtmu0 writes r4 within two instructions of an SFU write");
    CHECK_EQ(go(&e, &s, 0, true, "ldi r0, 0x20000\nmov t0s, r0\nmov recip, r0\nnop\nnop\n"
                                 "nop ; nop ; ldtmu0\n"), 0);
    NO_FAULT(&e);
    env_fini(&e);
}

int main(void)
{
    test_vpm_writes();
    test_vpm_reads();
    test_vpm_faults();
    test_vdw();
    test_vdr();
    test_tmu();
    test_sync();
    test_restrictions();
    return check_report("test_vc4_qpu_io");
}
