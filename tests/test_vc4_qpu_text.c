/* VideoCore IV QPU text in vc4asm's dialect, through the public API
 * (include/cmdgpu/vc4_qpu.h): exact text of instructions of every kind,
 * vc4asm-style sources assembled to words computed by hand from the
 * Reference Guide's field layout (research/vc4.md section 3), cmdgpu's
 * earlier spellings as aliases, and asm(disasm(x)) == x over a few hundred
 * thousand words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"

typedef struct tcase {
    uint32_t lo, hi;
    const char *text;
} tcase;

/* Text <-> word, both ways. Words: tmp encoder from the field layout
 * sig[63:60] unpack[59:57] pm[56] pack[55:52] cond_add[51:49]
 * cond_mul[48:46] sf[45] ws[44] waddr_add[43:38] waddr_mul[37:32]
 * op_mul[31:29] op_add[28:24] raddr_a[23:18] raddr_b[17:12] add_a[11:9]
 * add_b[8:6] mul_a[5:3] mul_b[2:0]; ldi imm[31:0]; branch cond[55:52]
 * rel[51] reg[50] raddr_a[49:45]. E.g. the first: sig 2 (thrsw),
 * cond_add 2 (ifz), cond_mul 3 (ifnz), sf, waddr_add 1, waddr_mul 2,
 * op_mul 1 (fmul), op_add 1 (fadd), raddr 39/39, muxes 0 1 2 3. */
static const tcase cases[] = {
    {0x219e7053, 0x2004e042, "fadd.setf.ifz ra1, r0, r1;  fmul.ifnz rb2, r2, r3;  thrsw"},
    {0x95826dbf, 0x10024e05, "mov t0s, unif;  mov rb5, qpu_num"},
    {0x95cb2ff6, 0x10025c71, "mov vw_setup, vw_wait;  mov vr_setup, vr_wait"},
    {0x11983dc0, 0xd0020827, "shl r0, elem_num, 3"},
    {0x209f0002, 0xd00049e1, "nop;  fmul r1, r0>>r5, r2>>r5"},
    {0x809fe003, 0xd00049e1, "nop;  v8min r1, r0<<2, r3<<2"},
    {0x12345678, 0xe0028001, "ldi ra0, rb1.ifz, 0x12345678"},
    {0x000c8006, 0xe2020827, "ldipes r0, [0,1,-1,-2,0,0,0,0,0,0,0,0,0,0,0,1]"},
    {0x80010001, 0xe60211e7, "ldipeu rb7, [3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2]"},
    {0x00000017, 0xe80209e7, "sacq -, 7"},
    {0x00000003, 0xe80209e7, "srel -, 3"},
    {0x00000000, 0xf0f449e7, "bra -, ra2"},
    {0x00000040, 0xf0f80067, "brr ra1, +64"},
    {0xffffffe0, 0xf0380067, "brr.anynz ra1, -32"},
    {0x00000100, 0xf0848042, "bra.allc ra1, rb2, ra4, 0x100"},
    {0x15072d80, 0x10020827, "mov r0, ra1;  read vw_wait"},
    {0x009e7000, 0xa00009e7, "nop;  ldtmu0"},
    {0x009e7000, 0x800009e7, "nop;  loadc"},
    {0x019e7040, 0x101200a7, "fadd ra2.16a, r0, r1"},
    {0x209e700a, 0x114049e0, "nop;  fmul r0.8asf, r1, r2"},
    {0x01067d00, 0x18020827, "fadd r0, ra1.8a, r4"},
    {0x209e7021, 0x1b0049e0, "nop;  fmul r0, r4.8b, r1"},
    {0x8d9e729b, 0x10096000, "sub.setf.ifn ra0, r1, r2;  mov.ifnn rb0, r3"},
    {0xcc9e728a, 0x100dc821, "add.ifc r0, r1, r2;  v8adds.ifcc r1, r1, r2"},
    {0xfe9e728a, 0x10020821, "av8adds r0, r1, r2;  v8subs.never r1, r1, r2"},
    {0x95a41ff6, 0xd00249a4, "mov irq, 1;  mov tmurs, x_coord"},
    {0x95aaadbf, 0x10024ac3, "mov stencil, ms_mask;  mov rb3, rev_flag"},
    {0x959e7009, 0x10024d3f, "mov recip, r0;  mov t1b, r1"},
    {0x159e7000, 0x10021a27, "mov unif_addr_rel, r0"},
    {0x959e7009, 0x10025a69, "mov y_coord, r0;  mov x_coord, r1"},
    {0x959e7009, 0x30024b2e, "mov tlbz, r0;  mov tlbc, r1;  thrend"},
    {0x15ce7d80, 0x10020ce7, "mov mutex, mutex"},
    {0x958f0dbf, 0x10024c21, "mov vpm, vary;  mov r1, vpm"},
    /* issue 33: file B reads of the names both files have, as vc4asm
     * prints them; raddr_a= when file A is not spelled otherwise */
    {0x159e0fc0, 0x10020827, "mov r0, unif;  raddr_a=39"},
    {0x01070f80, 0x10020827, "fadd r0, vpm, ra1"},
    {0x01823f80, 0x10020827, "fadd r0, vary, unif;  raddr_a=32"},
    {0x009f3000, 0x100009e7, "nop;  read mutex;  raddr_a=39"},
    {0x01820dc0, 0x10020827, "fadd r0, unif, rb32"},
};

/* cmdgpu's earlier spellings and vc4asm's other names: the same words as
 * cases[k]. */
static const struct {
    int k;
    const char *text;
} aliases[] = {
    {33, "mov r0, rb32"}, /* the old spelling of a file B uniform read */
    {35, "fadd r0, rb35, unif"},
    {36, "nop; read rb51"},
    {0, "fadd.zs.sf ra1, r0, r1 : fmul.zc rb2, r2, r3 : thrsw"},
    {0, "fadd.ifzs.sf ra1, r0, r1 ; fmul.ifzc rb2, r2, r3 ; tswitch"},
    {0, "thrsw; fmul rb2.ifnz, r2, r3; fadd.setf ra1.ifz, r0, r1"},
    {1, "mov tmu0s, unif : mov rb5, qpu_num"},
    {1, "mov tmu0_s, uniform_read; mov rb5, qpu_number"},
    {4, "nop : mov.rotr5 r1, r0 : mul_b=2 : op_mul=1"},
    {4, "fmul r1, r0>>r5, r2>>r5"},
    {5, "nop : v8min.rot14 r1, r0, r3"},
    {6, "ldi ra0, 0x12345678 : ldi.zs rb1"},
    {7, "ldis r0, [0, 1, -1, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]"},
    {7, "ldipes r0, 0x000c8006"},
    {8, "ldiu rb7, 0x80010001"},
    {9, "sacq nop, 7"},
    {10, "srel nop, 3"},
    {11, "bra nop, nop, ra2, 0"},
    {12, "brr ra1, nop, 96"}, /* cmdgpu's absolute target: 96 - (0 + 32) */
    {13, "brr.any_zc ra1, nop, 0"},
    {14, "bra.all_cs ra1, rb2, ra4, 0x100"},
    {14, "bra.allcs ra1, rb2, ra4, 256"},
    {16, "nop : nop : ldtmu0"},
    {16, "ldtmu0"},
    {17, "loadc"},
    {17, "ldcotlb"},
    {18, "fadd ra2.16af, r0, r1"},
    {19, "nop : fmul r0.c8a, r1, r2"},
    {20, "fadd r0, ra1.8ai, r4"},
    {21, "fmul r0, r4.8bf, r1"},
    {22, "sub.ns.sf ra0, r1, r2 : mov.nc rb0, r3"},
    {22, "sub.setf.ifns ra0, r1, r2 ; mov.ifnc rb0, r3"},
    {23, "add.cs r0, r1, r2 : v8adds.cc r1, r1, r2"},
    {24, "v8adds r0, r1, r2 : mv8subs.never r1, r1, r2"},
    {25, "mov host_int, 1 : mov tmu_noswap, x_coord"},
    {25, "mov interrupt, 1; mov tmu_noswap, x_pixel_coord"},
    {26, "mov tlb_stencil, ms_flags : mov rb3, rev_flag"},
    {27, "mov sfu_recip, r0 : mov tmu1_b, r1"},
    {27, "mov sfu_recip, r0 : mov tmu1b, r1"},
    {28, "mov unif_addr_rel, r0 : nop"},
    {29, "mov quad_y, r0 : mov quad_x, r1"},
    {30, "mov tlb_z, r0; mov tlb_colour_all, r1; thrend"},
    {30, "mov tlbz, r0 : mov tlbc, r1 : tend"},
    {31, "mov mutex_release, mutex_acquire"},
    {32, "mov vpm_write, varying_read; mov r1, vpm_read"},
};

static const uint32_t vpm_add_words[] = {
    0x15827d80, 0x10020027,
    0x15827d80, 0x10020067,
    0x00101a00, 0xe0020c67,
    0x00001a00, 0xe0021c67,
    0x15c27d80, 0x10020827,
    0x0d001dc0, 0xd0022027,
    0x0c067180, 0x10020c27,
    0xffffffc8, 0xf03809e7,
    0x009e7000, 0x100009e7,
    0x009e7000, 0x100009e7,
    0x009e7000, 0x100009e7,
    0x009f2000, 0x100009e7,
    0x00000010, 0xe80209e7,
    0x159c1fc0, 0xd00209a7,
    0x00000000, 0xe80209e7,
    0x009e7000, 0x300009e7,
    0x009e7000, 0x100009e7,
    0x009e7000, 0x100009e7,
};
static const uint32_t frag_words[] = {
    0x018e7d40, 0x10020827,
    0x818e7d40, 0x10024879,
    0x159e7240, 0x10020e27,
    0x009e7000, 0xa00009e7,
    0x203e7026, 0x100049e2,
    0x009e7000, 0x400009e7,
    0x209e7012, 0x113049ee,
    0x950fcd89, 0xd2024804,
    0x009e7000, 0x300009e7,
    0x009e7000, 0x500009e7,
    0x009e7000, 0x100009e7,
};

static uint64_t word(uint32_t lo, uint32_t hi) { return (uint64_t)hi << 32 | lo; }

static uint64_t asm1(const char *text, uint32_t addr)
{
    uint64_t w = 0;
    char err[512];
    int rc = cg_vc4_qpu_asm(text, addr, &w, err, sizeof err);
    if (rc)
        fprintf(stderr, "'%s': %s", text, err);
    CHECK_EQ(rc, 0);
    return w;
}

static void test_cases(void)
{
    char text[512], notes[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t w = word(cases[i].lo, cases[i].hi);
        CHECK_EQ(asm1(cases[i].text, 0), w);
        cg_vc4_qpu_confidence conf = CG_VC4_QPU_UNKNOWN;
        cg_vc4_qpu_disasm(w, 0, text, sizeof text, notes, sizeof notes, &conf);
        CHECK_STR(text, cases[i].text);
        CHECK_STR(notes, "");
        CHECK_EQ(conf, CG_VC4_QPU_KNOWN);
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        const tcase *c = &cases[aliases[i].k];
        uint64_t got = asm1(aliases[i].text, 0);
        if (got != word(c->lo, c->hi))
            fprintf(stderr, "alias '%s' -> 0x%016llx\n", aliases[i].text,
                    (unsigned long long)got);
        CHECK_EQ(got, word(c->lo, c->hi));
    }
    /* a label (any value without a sign) is brr's target address: the
     * assembler stores target - (address + 32); a signed number is the
     * offset itself (vc4asm) */
    CHECK_EQ(asm1("brr ra1, 0x160", 0x100), word(cases[12].lo, cases[12].hi));
    CHECK_EQ(asm1("brr ra1, +64", 0x100), word(cases[12].lo, cases[12].hi));
}

/* Assemble a file (text NULL) or text; the first section's bytes. */
static cg_asm *assemble(const char *name, const char *text, size_t len, const uint8_t **data,
                        size_t *size)
{
    cg_asm *as = NULL;
    CHECK_EQ(cg_asm_create(cg_vc4_qpu_asm_family(), NULL, &as), 0);
    CHECK_EQ(text ? cg_asm_add_source(as, name, text, len) : cg_asm_add_file(as, name), 0);
    if (cg_asm_assemble(as) != 0) {
        fprintf(stderr, "%s: %s", name, cg_asm_errors(as));
        CHECK(!"assembles");
        return as;
    }
    const char *sect;
    uint64_t base;
    CHECK_EQ(cg_asm_section(as, 0, &sect, &base, data, size), 0);
    return as;
}

/* vc4asm-style sources (tests/data/vc4_qpu_*.s) to words computed by hand */
static void test_sources(void)
{
    static const struct {
        const char *file;
        const uint32_t *words;
        size_t n;
    } progs[] = {
        {"vc4_qpu_vpm_add.s", vpm_add_words, sizeof vpm_add_words / 4},
        {"vc4_qpu_frag.s", frag_words, sizeof frag_words / 4},
    };
    for (size_t p = 0; p < sizeof progs / sizeof progs[0]; p++) {
        char path[512];
        snprintf(path, sizeof path, "%s/tests/data/%s", CMDGPU_SOURCE_DIR, progs[p].file);
        const uint8_t *data = NULL;
        size_t size = 0;
        cg_asm *as = assemble(path, NULL, 0, &data, &size);
        CHECK_EQ(size, progs[p].n * 4);
        for (size_t i = 0; data && i < progs[p].n && i * 4 < size; i++) {
            uint32_t v = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 |
                         (uint32_t)data[4 * i + 2] << 16 | (uint32_t)data[4 * i + 3] << 24;
            if (v != progs[p].words[i])
                fprintf(stderr, "%s word %zu\n", progs[p].file, i);
            CHECK_EQ(v, progs[p].words[i]);
        }
        /* and the disassembly of the words assembles back to them */
        char *text = malloc(1 << 16);
        CHECK(text != NULL);
        if (text && data) {
            size_t len = cg_vc4_qpu_disasm_buffer(data, size, 0, text, 1 << 16);
            CHECK(len < (1 << 16));
            const uint8_t *d2 = NULL;
            size_t s2 = 0;
            cg_asm *back = assemble("back.s", text, len, &d2, &s2);
            CHECK(s2 == size && d2 && memcmp(d2, data, size) == 0);
            cg_asm_destroy(back);
        }
        free(text);
        cg_asm_destroy(as);
    }
}

/* ---- asm(disasm(x)) == x ---- */

/* splitmix64: deterministic words */
static uint64_t rng;
static uint64_t next_rand(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Disassemble n words as one source, assemble it, compare; returns the
 * number of words that did not come back. */
static int round_trip(const uint64_t *w, size_t n)
{
    size_t cap = n * 200 + 64, len = 0;
    char *src = malloc(cap);
    if (!src)
        return (int)n;
    for (size_t i = 0; i < n; i++) {
        int k = cg_vc4_qpu_disasm(w[i], (uint32_t)(8 * i), src + len, cap - len - 1, NULL, 0,
                                  NULL);
        if (k < 0 || (size_t)k >= cap - len - 2) {
            free(src);
            return (int)n;
        }
        len += (size_t)k;
        src[len++] = '\n';
    }
    cg_asm *as;
    int bad = 0;
    if (cg_asm_create(cg_vc4_qpu_asm_family(), NULL, &as) != 0) {
        free(src);
        return (int)n;
    }
    cg_asm_add_source(as, "rt.s", src, len);
    const uint8_t *data = NULL;
    size_t size = 0;
    if (cg_asm_assemble(as) == 0) {
        const char *name;
        uint64_t base;
        cg_asm_section(as, 0, &name, &base, &data, &size);
    } else {
        fprintf(stderr, "%.*s", 400, cg_asm_errors(as));
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t got = (data && size == 8 * n) ? cg_vc4_qpu_word(data + 8 * i) : ~w[i];
        if (got != w[i] && bad++ < 5) {
            char t[512];
            cg_vc4_qpu_disasm(w[i], (uint32_t)(8 * i), t, sizeof t, NULL, 0, NULL);
            fprintf(stderr, "round trip 0x%016llx -> 0x%016llx: '%s'\n",
                    (unsigned long long)w[i], (unsigned long long)got, t);
        }
    }
    cg_asm_destroy(as);
    free(src);
    return bad;
}

#define BATCH 20000
static uint64_t batch[BATCH];
static size_t nbatch, total;
static int bad_total;

static void push(uint64_t w)
{
    batch[nbatch++] = w;
    total++;
    if (nbatch == BATCH) {
        bad_total += round_trip(batch, nbatch);
        nbatch = 0;
    }
}

static uint64_t set(uint64_t w, int hi, int lo, uint64_t v)
{
    uint64_t m = ((((uint64_t)1) << (hi - lo + 1)) - 1) << lo;
    return (w & ~m) | ((v << lo) & m);
}

typedef struct dim {
    int hi, lo;
    unsigned n; /* values 0..n-1; 0 ends the row */
} dim;

static void combos(const dim *d, int nd)
{
    uint64_t count = 1;
    for (int i = 0; i < nd && d[i].n; i++)
        count *= d[i].n;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t w = next_rand(), idx = k;
        for (int i = 0; i < nd && d[i].n; i++) {
            w = set(w, d[i].hi, d[i].lo, idx % d[i].n);
            idx /= d[i].n;
        }
        push(w);
    }
}

static void test_round_trip(void)
{
    /* 300000 pseudo-random words, a quarter forced to each of the ldi and
     * branch forms and an eighth to small immediates */
    for (int i = 0; i < 300000; i++) {
        uint64_t w = next_rand();
        if (i % 4 == 1)
            w = set(w, 63, 60, 14);
        else if (i % 4 == 2)
            w = set(w, 63, 60, 15);
        else if (i % 8 == 3)
            w = set(w, 63, 60, 13);
        push(w);
    }
    /* every combination of the fields of each row (the others random):
     * signal x add op x mul op x add condition; signal x pack x pm x
     * unpack (ldi mode, branch condition) x ws x sf; signal x both write
     * addresses; signal x both read addresses (raddr_a, small immediate) */
    static const dim rows[][6] = {
        {{63, 60, 16}, {28, 24, 32}, {31, 29, 8}, {51, 49, 8}},
        {{63, 60, 16}, {55, 52, 16}, {56, 56, 2}, {59, 57, 8}, {44, 44, 2}, {45, 45, 2}},
        {{63, 60, 16}, {43, 38, 64}, {37, 32, 64}},
        {{63, 60, 16}, {23, 18, 64}, {17, 12, 64}},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        combos(rows[r], 6);
    if (nbatch)
        bad_total += round_trip(batch, nbatch);
    nbatch = 0;
    CHECK_EQ(total, 480224); /* 300000 random, 180224 combinations */
    CHECK_EQ(bad_total, 0);
}

/* ---- names, one-instruction calls, confidence ---- */

static void test_api(void)
{
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_A, "tmu0_s"), 56);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_B, "t0s"), 56);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_A, "vw_setup"), -1);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_B, "vw_setup"), 49);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_RADDR_B, "qpu_num"), 38);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_RADDR_A, "qpu_num"), -1);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_COND, "ifnc"), 5);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_BCOND, "anync"), 11);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_SIG, "ldtmu1"), 11);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_PACKM, "8dsf"), 7);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_SET_LDI, "ldipeu"), 3);
    CHECK_EQ(cg_vc4_qpu_lookup(CG_VC4_QPU_NSETS, "nop"), -1);
    CHECK_STR(cg_vc4_qpu_name(CG_VC4_QPU_SET_WADDR_B, 40), "unif_addr_rel");
    CHECK_STR(cg_vc4_qpu_name(CG_VC4_QPU_SET_RADDR_A, 42), "ms_mask");
    CHECK_STR(cg_vc4_qpu_name(CG_VC4_QPU_SET_BCOND, 9), "allcc");
    CHECK(cg_vc4_qpu_name(CG_VC4_QPU_SET_ADD, 9) == NULL);
    CHECK(cg_vc4_qpu_name(CG_VC4_QPU_SET_RADDR_A, 33) == NULL);
    CHECK_STR(cg_vc4_qpu_guide_name(CG_VC4_QPU_SET_WADDR_A, 46), "TLB_COLOUR_ALL");
    CHECK_STR(cg_vc4_qpu_guide_name(CG_VC4_QPU_SET_SIG, 13), "SMALL_IMMEDIATE");

    char err[256];
    uint64_t w = 1;
    CHECK_EQ(cg_vc4_qpu_asm("fadd r0, r1", 0, &w, err, sizeof err), CG_ERR_SYNTAX);
    CHECK(strstr(err, "expected") != NULL);
    CHECK_EQ(cg_vc4_qpu_asm("nop\nnop", 0, &w, err, sizeof err), CG_ERR_INVAL);
    CHECK_EQ(cg_vc4_qpu_asm("nop", 0, &w, NULL, 0), 0);
    CHECK_EQ(w, 0x100009e7009e7000ull);
    /* the parts of an instruction take ';' (vc4asm) and ':'; '#' and '//'
     * are comments */
    CHECK_EQ(asm1("fadd r0, r1, r2; fmul r3, r1, r2 # both ALUs", 0),
             asm1("fadd r0, r1, r2 : fmul r3, r1, r2 // both ALUs", 0));
    CHECK_EQ(cg_vc4_qpu_asm("fadd r0, r1, r2; fadd r3, r1, r2", 0, &w, err, sizeof err),
             CG_ERR_SYNTAX);
    CHECK(strstr(err, "add ALU is already used") != NULL);

    /* vc4asm: `mov dst, constant` is an ldi when no small immediate holds
     * the constant; with a small immediate it stays an ALU mov */
    CHECK_EQ(asm1("mov rb0, 16*2*4-4", 0), 0xe00210270000007cull);
    CHECK_EQ(asm1("mov rb0, 16*2*4-4", 0), asm1("ldi rb0, 124", 0));
    CHECK_EQ(asm1("mov.setf ra1.ifz, 0x12345678", 0), asm1("ldi.setf ra1.ifz, 0x12345678", 0));
    CHECK_EQ(asm1("mov r0, 5", 0), 0xd0020827159c5fc0ull);
    CHECK_EQ(cg_vc4_qpu_asm("mov r0, 0x100; fmul r1, r2, r3", 0, &w, err, sizeof err),
             CG_ERR_SYNTAX);
    CHECK_EQ(cg_vc4_qpu_asm("nop; mov r0, 100", 0, &w, err, sizeof err), CG_ERR_SYNTAX);

    /* vc4asm: a mov whose source rotates takes the mul ALU */
    CHECK_EQ(asm1("mov r1, r0>>1", 0), asm1("nop; mov r1, r0>>1", 0));
    CHECK_EQ(asm1("mov r1, r0>>1", 0), 0xd00049e1809f1000ull);
    CHECK_EQ(asm1("mov.ifz ra1.16a, r0<<3", 0), 0xd01099c1809fd000ull);
    CHECK_EQ(asm1("mov rb1, r0>>r5; fadd r2, r0, r1", 0),
             asm1("fadd r2, r0, r1; mov rb1, r0>>r5", 0));

    /* confidence: a reserved add op, load mode, branch condition or mul
     * pack makes a decode partial */
    char text[256], notes[256];
    cg_vc4_qpu_confidence conf;
    cg_vc4_qpu_disasm(0x100009e7009e7000ull, 0, text, sizeof text, notes, sizeof notes, &conf);
    CHECK_EQ(conf, CG_VC4_QPU_KNOWN);
    CHECK_STR(cg_vc4_qpu_confidence_name(conf), "known");
    cg_vc4_qpu_disasm(0x100009e7099e7000ull, 0, text, sizeof text, notes, sizeof notes, &conf);
    CHECK_EQ(conf, CG_VC4_QPU_PARTIAL);
    CHECK_STR(text, "nop;  op_add=9");
    CHECK_STR(notes, "reserved add op 9; fields the text does not show are set");
    cg_vc4_qpu_disasm(0xe40009e700000005ull, 0, text, sizeof text, notes, sizeof notes, &conf);
    CHECK_EQ(conf, CG_VC4_QPU_PARTIAL);
    CHECK_STR(text, "ldi -.never, 5;  unpack=2");
    cg_vc4_qpu_disasm(0xf0c009e700000000ull, 0, text, sizeof text, notes, sizeof notes, &conf);
    CHECK_EQ(conf, CG_VC4_QPU_PARTIAL);
    CHECK_STR(text, "bra -, 0x0;  cond_br=12");
    cg_vc4_qpu_disasm(0x111009e7009e7000ull, 0, text, sizeof text, notes, sizeof notes, &conf);
    CHECK_EQ(conf, CG_VC4_QPU_PARTIAL);
    CHECK_STR(cg_vc4_qpu_confidence_name(conf), "partial");
    CHECK_STR(cg_vc4_qpu_confidence_name(CG_VC4_QPU_UNKNOWN), "unknown");
    /* set fields of a nop's muxes are decoded (ignored by the hardware) */
    cg_vc4_qpu_disasm(0x100009e7009e7a00ull, 0, text, sizeof text, notes, sizeof notes, &conf);
    CHECK_EQ(conf, CG_VC4_QPU_KNOWN);
    CHECK_STR(text, "nop;  add_a=5");
}

int main(void)
{
    test_cases();
    test_sources();
    test_api();
    test_round_trip();
    return check_report("test_vc4_qpu_text");
}
