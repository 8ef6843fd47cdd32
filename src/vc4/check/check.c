/* vc4 family: the stream validator (include/cmdgpu/vc4_check.h).
 *
 * It follows the Linux vc4 kernel's checks of a DRM_IOCTL_VC4_SUBMIT_CL job
 * (research/vc4.md section 4), as they are in
 * anholt/mesa:src/gallium/drivers/vc4/kernel/vc4_validate.c and
 * vc4_validate_shaders.c (the copy of the kernel validator Mesa's simulator
 * runs) and torvalds/linux:drivers/gpu/drm/vc4/ (the same files):
 *   1. every shader BO, as vc4_validate_shader() walks it when the BO is
 *      created;
 *   2. the bin CL, vc4_validate_bin_cl() and its per-packet validate_*();
 *   3. the shader records, vc4_validate_shader_recs() / validate_gl_shader_rec().
 * The kernel stops at the first error; this validator reports every
 * violation and goes on wherever the stream still has a defined next item
 * (the next packet, the next record, the next instruction). Names, sizes and
 * fields of packets come from cl.def, of QPU signals and registers from
 * qpu.def; the allow-lists below are the validator's own policy.
 *
 * `where`: a byte offset in bin_cl (bin-CL rules), in shader_rec (record
 * rules) or in the shader BO named in the message (shader rules); `word`:
 * the packet's first 4 bytes (opcode in the low byte), the record field, or
 * the instruction's high word (signal and write addresses). */
#include <stdio.h>
#include <stdlib.h>
#include "cmdgpu/vc4_check.h"
#include "vc4/qpu.h"
#include "vc4/scene.h"

/* ---- QPU fields, from the one table (qpu.def QPU_FIELD) ----------------- */

#define QF(ins, cls, name) VC4_QPU_GET(ins, cls, name)

/* ---- shader BOs: vc4_validate_shaders.c vc4_validate_shader() ---------- */

/* A texture sample (vc4_validate_shaders.c vc4_texture_sample_info): the
 * byte offsets in the shader's uniforms of the parameters p0..p3 its TMU
 * writes consumed (~0: none). */
typedef struct tex_sample {
    uint32_t p_off[4];
} tex_sample;
#define MAX_TEX_SAMPLES 64 /* per shader; more is a not-supported report */

typedef struct shader_info {
    bool valid;         /* no violation: the kernel would have created the BO */
    bool threaded;      /* a thread switch signal */
    uint32_t uniforms;  /* bytes of uniforms it reads (uniforms_size; the
                         * submit holds 4 more per texture sample: its BO index) */
    uint32_t nsamples;
    tex_sample samples[MAX_TEX_SAMPLES];
} shader_info;

typedef struct shader_walk {
    cg_check_report *r;
    uint32_t bo;          /* BO-list index, for messages */
    const uint8_t *code;
    uint32_t nins;        /* instructions in the BO */
    uint32_t max_ip;      /* the instruction after the last one the program runs */
    uint8_t *target;      /* branch-target flags, one per instruction */
    size_t before;        /* violations before this shader */
    shader_info *info;
    bool needs_unif_update; /* a branch target with no uniforms address reset yet */
    uint32_t tmu_count[2];  /* parameters written to each TMU since its last submit */
    tex_sample tmu_setup[2];
} shader_walk;

static uint64_t ins_at(const shader_walk *w, uint32_t ip)
{
    const uint8_t *p = w->code + (size_t)ip * 8;
    return (uint64_t)vc4_le32(p + 4) << 32 | vc4_le32(p);
}

static void shader_violation(shader_walk *w, const char *rule, uint32_t ip, uint64_t ins,
                             const char *what)
{
    cg_check_add(w->r, rule, (uint64_t)ip * 8, (uint32_t)(ins >> 32), "shader%u ip %u: %s",
                 w->bo, ip, what);
}

/* vc4_validate_branches(): relative, aligned, inside the program, not in
 * the delay slots of another branch; records every target. */
static void shader_branches(shader_walk *w)
{
    /* as vc4_validate_branches(): last_branch starts at -2, so a branch
     * at ip 0 or 1 is refused too */
    int64_t last_branch = -2, max_target = 0;
    char msg[96];
    for (uint32_t ip = 0; ip < w->max_ip; ip++) {
        uint64_t ins = ins_at(w, ip);
        uint32_t sig = QF(ins, BRANCH, sig);
        if (sig == VC4_QPU_SIG_PROGRAM_END) {
            /* two delay slots still run (the kernel trusts them to be in
             * the BO; here the end is clamped to it, and the main walk
             * reports a program that runs off the end) */
            w->max_ip = ip + 3 < w->nins ? ip + 3 : w->nins;
            continue;
        }
        if (sig != VC4_QPU_SIG_BRANCH)
            continue;
        if ((int64_t)ip - last_branch < 4)
            shader_violation(w, "shader-branch", ip, ins,
                             "branch within 3 instructions of the program start or of the "
                             "previous branch");
        last_branch = ip;
        if (QF(ins, BRANCH, reg)) {
            shader_violation(w, "shader-branch", ip, ins, "branch relative to a register");
            continue;
        }
        if (!QF(ins, BRANCH, rel)) {
            shader_violation(w, "shader-branch", ip, ins, "absolute branch (must be relative)");
            continue;
        }
        int32_t imm = (int32_t)QF(ins, BRANCH, imm);
        if (imm % 8 != 0) {
            snprintf(msg, sizeof msg, "branch offset %d is not a multiple of 8", imm);
            shader_violation(w, "shader-branch", ip, ins, msg);
            continue;
        }
        /* the target counts from the instruction after the 3 delay slots */
        int64_t after = (int64_t)ip + 4, tgt = after + imm / 8;
        if (tgt < 0 || tgt >= w->max_ip) {
            snprintf(msg, sizeof msg, "branch target ip %lld outside the program (%u)",
                     (long long)tgt, w->max_ip);
            shader_violation(w, "shader-branch", ip, ins, msg);
            continue;
        }
        w->target[tgt] = 1;
        if (after >= w->max_ip) {
            snprintf(msg, sizeof msg, "the path past the branch (ip %lld) leaves the program",
                     (long long)after);
            shader_violation(w, "shader-branch", ip, ins, msg);
            continue;
        }
        w->target[after] = 1;
        if (after > max_target)
            max_target = after;
    }
    /* vc4_validate_branches: "Branch landed after QPU_SIG_PROG_END" */
    if (w->max_ip >= 3 && max_target > (int64_t)w->max_ip - 3) {
        snprintf(msg, sizeof msg, "a branch continues at ip %lld, after the program end",
                 (long long)max_target);
        shader_violation(w, "shader-branch", (uint32_t)max_target, 0, msg);
    }
}

/* check_tmu_write(): a write to a TMU's S, T, R or B register. Each
 * parameter of a texture sample is one uniform the TMU reads (p0..p3, in
 * the order of the writes); the write to S submits the sample. A write to
 * S with no parameter before it is a direct (general memory) read, which
 * the kernel accepts only as an add of a uniform (the UBO base) to an
 * offset clamped with min; that clamp tracking is not modelled. */
static void shader_tmu_write(shader_walk *w, uint32_t ip, uint64_t ins, uint32_t waddr,
                             bool is_mul)
{
    char msg[128];
    int tmu = waddr > VC4_QPU_W_TMU0_B;
    bool submit = waddr == VC4_QPU_W_TMU0_S || waddr == VC4_QPU_W_TMU1_S;
    uint32_t sig = QF(ins, ALU, sig);
    uint32_t ra = QF(ins, ALU, raddr_a), rb = QF(ins, ALU, raddr_b);
    if (submit && w->tmu_count[tmu] == 0) {
        snprintf(msg, sizeof msg, "direct TMU%d read (a write to t%ds with no parameters "
                 "before it): clamped UBO loads are not supported yet", tmu, tmu);
        shader_violation(w, "not-supported", ip, ins, msg);
        (void)is_mul;
        return;
    }
    if (ra == VC4_QPU_R_UNIFORM_READ ||
        (sig != VC4_QPU_SIG_SMALL_IMMEDIATE && rb == VC4_QPU_R_UNIFORM_READ)) {
        shader_violation(w, "shader-tmu", ip, ins,
                         "uniform read in the same instruction as texture setup");
        return;
    }
    if (w->tmu_count[tmu] >= 4) {
        snprintf(msg, sizeof msg, "TMU%d got too many parameters before dispatch", tmu);
        shader_violation(w, "shader-tmu", ip, ins, msg);
        return;
    }
    if (w->needs_unif_update) {
        shader_violation(w, "shader-uniform-address", ip, ins,
                         "texturing with an undefined uniform address (after a branch target)");
        return;
    }
    w->tmu_setup[tmu].p_off[w->tmu_count[tmu]++] = w->info->uniforms;
    w->info->uniforms += 4;
    if (!submit)
        return;
    if (w->info->nsamples >= MAX_TEX_SAMPLES) {
        snprintf(msg, sizeof msg, "more than %u texture samples in one shader: not supported "
                 "yet", MAX_TEX_SAMPLES);
        shader_violation(w, "not-supported", ip, ins, msg);
    } else {
        w->info->samples[w->info->nsamples++] = w->tmu_setup[tmu];
    }
    for (int i = 0; i < 4; i++)
        w->tmu_setup[tmu].p_off[i] = ~0u;
    w->tmu_count[tmu] = 0;
}

/* check_reg_write() for one ALU's write address. */
static void shader_write(shader_walk *w, uint32_t ip, uint64_t ins, uint32_t waddr, bool is_b,
                         bool *upper, bool is_mul)
{
    char msg[128];
    const char *name = vc4_qpu_waddrs[waddr].as[is_b] ? vc4_qpu_waddrs[waddr].as[is_b] : "?";
    if (waddr < 32) {
        if (waddr >= 16)
            *upper = true;
        return;
    }
    switch (waddr) {
    case VC4_QPU_W_HOST_INT:
    case VC4_QPU_W_TMU_NOSWAP:
    case VC4_QPU_W_TLB_ALPHA_MASK:
    case VC4_QPU_W_MUTEX_RELEASE:
        snprintf(msg, sizeof msg, "write to %s (waddr %u) is not allowed", name, waddr);
        shader_violation(w, "shader-waddr", ip, ins, msg);
        break;
    case VC4_QPU_W_VPM_LD_ADDR: /* vr_addr / vw_addr: general VPM DMA */
        snprintf(msg, sizeof msg, "write to %s (waddr %u): general VPM DMA is not allowed", name,
                 waddr);
        shader_violation(w, "shader-waddr", ip, ins, msg);
        break;
    case VC4_QPU_W_UNIFORMS_ADDRESS:
        /* The kernel accepts an absolute reset (an add of the expected
         * offset, a live ldi immediate, to a uniform) and records where the
         * uniform address goes in the stream; that tracking is not modelled. */
        shader_violation(w, "not-supported", ip, ins,
                         "uniforms address writes are not supported yet");
        break;
    case VC4_QPU_W_TMU0_S: case VC4_QPU_W_TMU0_T: case VC4_QPU_W_TMU0_R:
    case VC4_QPU_W_TMU0_B: case VC4_QPU_W_TMU1_S: case VC4_QPU_W_TMU1_T:
    case VC4_QPU_W_TMU1_R: case VC4_QPU_W_TMU1_B:
        shader_tmu_write(w, ip, ins, waddr, is_mul);
        break;
    default: /* accumulators, TLB, VPM set-up and data, SFU, nop: harmless */
        break;
    }
}

static shader_info shader_check(cg_check_report *r, uint32_t bo, const uint8_t *code,
                                uint32_t size)
{
    static const shader_info zero;
    shader_info info = zero;
    shader_walk w = {.r = r, .bo = bo, .code = code, .nins = size / 8, .before = r->n + r->dropped,
                     .info = &info};
    for (int i = 0; i < 4; i++)
        w.tmu_setup[0].p_off[i] = w.tmu_setup[1].p_off[i] = ~0u;
    w.max_ip = w.nins;
    w.target = calloc(w.nins ? w.nins : 1, 1);
    if (!w.target) {
        cg_check_add(r, "not-supported", 0, 0, "shader%u: out of memory", bo);
        return info;
    }
    shader_branches(&w);

    bool found_end = false, needs_unif_update = false, needs_unif_loop = false, upper = false;
    uint32_t end_ip = 0, ip;
    int64_t last_thrsw = -3;
    for (ip = 0; ip < w.max_ip; ip++) {
        uint64_t ins = ins_at(&w, ip);
        uint32_t sig = QF(ins, ALU, sig);
        r->checked++;
        /* vc4_handle_branch_target(): a block with several predecessors
         * must reset the uniform address before it reads a uniform */
        if (w.target[ip])
            needs_unif_update = true;
        switch (sig) {
        case VC4_QPU_SIG_NO_SIGNAL:
        case VC4_QPU_SIG_WAIT_FOR_SCOREBOARD:
        case VC4_QPU_SIG_SCOREBOARD_UNLOCK:
        case VC4_QPU_SIG_COLOUR_LOAD:
        case VC4_QPU_SIG_LOAD_TMU0:
        case VC4_QPU_SIG_LOAD_TMU1:
        case VC4_QPU_SIG_PROGRAM_END:
        case VC4_QPU_SIG_SMALL_IMMEDIATE:
        case VC4_QPU_SIG_THREAD_SWITCH:
        case VC4_QPU_SIG_LAST_THREAD_SWITCH: {
            bool ws = QF(ins, ALU, ws);
            w.needs_unif_update = needs_unif_update;
            shader_write(&w, ip, ins, QF(ins, ALU, waddr_add), ws, &upper, false);
            shader_write(&w, ip, ins, QF(ins, ALU, waddr_mul), !ws, &upper, true);
            /* check_instruction_reads(): one uniform per instruction that
             * reads unif (raddr_b is a small immediate with that signal) */
            uint32_t ra = QF(ins, ALU, raddr_a), rb = QF(ins, ALU, raddr_b);
            bool simm = sig == VC4_QPU_SIG_SMALL_IMMEDIATE;
            if (ra == VC4_QPU_R_UNIFORM_READ || (rb == VC4_QPU_R_UNIFORM_READ && !simm)) {
                info.uniforms += 4;
                if (needs_unif_update)
                    shader_violation(&w, "shader-uniform-address", ip, ins,
                                     "uniform read after a branch target, before a uniforms "
                                     "address reset");
            }
            if ((ra >= 16 && ra < 32) || (rb >= 16 && rb < 32 && !simm))
                upper = true;
            if (sig == VC4_QPU_SIG_PROGRAM_END && !found_end) {
                found_end = true;
                end_ip = ip;
            }
            if (sig == VC4_QPU_SIG_THREAD_SWITCH || sig == VC4_QPU_SIG_LAST_THREAD_SWITCH) {
                info.threaded = true;
                if ((int64_t)ip < last_thrsw + 3)
                    shader_violation(&w, "shader-thread-switch", ip, ins,
                                     "thread switch in the delay slots of the previous one");
                last_thrsw = ip;
            }
            break;
        }
        case VC4_QPU_SIG_LOAD_IMMEDIATE: {
            bool ws = QF(ins, LDI, ws);
            w.needs_unif_update = needs_unif_update;
            shader_write(&w, ip, ins, QF(ins, LDI, waddr_add), ws, &upper, false);
            shader_write(&w, ip, ins, QF(ins, LDI, waddr_mul), !ws, &upper, true);
            break;
        }
        case VC4_QPU_SIG_BRANCH:
            /* check_branch() */
            if ((int32_t)QF(ins, BRANCH, imm) < 0)
                needs_unif_loop = true;
            if (QF(ins, BRANCH, waddr_add) != VC4_QPU_W_NOP ||
                QF(ins, BRANCH, waddr_mul) != VC4_QPU_W_NOP)
                shader_violation(&w, "shader-branch", ip, ins, "branch writes a register");
            if ((int64_t)ip < last_thrsw + 3)
                shader_violation(&w, "shader-thread-switch", ip, ins,
                                 "branch in the delay slots of a thread switch");
            break;
        default: {
            char msg[80];
            snprintf(msg, sizeof msg, "signal %s (%u) is not allowed", vc4_qpu_sigs[sig].as, sig);
            shader_violation(&w, "shader-signal", ip, ins, msg);
            break;
        }
        }
        if (found_end && ip == end_ip + 2)
            break;
    }
    if (ip >= w.max_ip) {
        char msg[96];
        snprintf(msg, sizeof msg, "no program end (thrend and 2 delay slots) before the BO's end "
                 "(%u bytes)", size);
        shader_violation(&w, "shader-end", w.max_ip, 0, msg);
    }
    if (info.threaded && upper)
        cg_check_add(r, "shader-thread-regs", 0, 0,
                     "shader%u: threaded, but uses the upper half of the register files", bo);
    /* a backward branch may reset the uniform address: the stream must
     * hold one more uniform for it */
    if (needs_unif_loop)
        info.uniforms += 4;
    info.valid = r->n + r->dropped == w.before;
    free(w.target);
    return info;
}

/* ---- the bin CL: vc4_validate.c vc4_validate_bin_cl() ------------------- */

/* The packets vc4_validate.c's cmd_info[] accepts in a bin CL are the
 * records whose policy column in cl.def is KBIN: everything else (NV and VG
 * shader states, branches, render-only records, Z_min_and_max_clipping_planes
 * 104, ...) is rejected. Fields are read with VC4_GET (cl.def positions). */

typedef struct shader_state {
    uint32_t bits;       /* attribute count [2:0], extended [3] */
    uint32_t max_index;  /* the largest vertex index its primitives use */
    uint32_t where;      /* offset of the packet in bin_cl */
} shader_state;

typedef struct checker {
    const cg_vc4_submit *s;
    cg_check_report *r;
    shader_info *shaders;  /* per BO-list entry (shader BOs) */
    shader_state *states;
    uint32_t nstates, capstates;
    uint32_t bo_index[2];  /* GEM_Handles: BO-list indices of relocation 0 and 1 */
} checker;

/* vc4_use_bo(): a BO-list index for vertex or index data. */
static bool use_bo(checker *c, const char *rule, uint64_t where, uint32_t word, uint32_t index,
                   const char *what)
{
    if (index >= c->s->bo_count) {
        cg_check_add(c->r, rule, where, word, "%s: BO index %u is past the BO list (%u)", what,
                     index, c->s->bo_count);
        return false;
    }
    if (c->s->bo[index].shader) {
        cg_check_add(c->r, rule, where, word, "%s: BO %u is a shader BO", what, index);
        return false;
    }
    return true;
}

static uint32_t gl_shader_rec_size(uint32_t bits)
{
    uint32_t n = bits & 7 ? bits & 7 : 8;
    return bits & 8 ? 100 + 4 * n : 36 + 8 * n;
}

/* ---- per-record bin-CL rules: an opcode-indexed handler table, as
 * vc4_validate.c cmd_info[]; `found`: Flush, Increment_Semaphore,
 * Start_Tile_Binning, Tile_Binning_Mode_Configuration seen. */
/* k_gl_state: bits [3:0] are the attribute count and the extended flag,
 * the address starts at bit 4 */
_Static_assert(VC4_FB_GL_Shader_State_Address == 4 &&
                   VC4_FB_GL_Shader_State_Extended_shader_record == 3,
               "GL_Shader_State bits 3:0");

typedef void (*vc4_check_fn)(checker *c, uint32_t off, uint32_t word, const uint8_t *pl,
                             bool *found);

/* validate_flush() */
static void k_flush(checker *c, uint32_t off, uint32_t word, const uint8_t *pl, bool *found)
{
    (void)pl;
    cg_check_report *r = c->r;
    uint32_t size = c->s->bin_cl_size;
    if (off != size - 1)
        cg_check_add(r, "flush-last", off, word,
                     "Flush at 0x%x: it must be the last byte of the bin CL (0x%x)", off,
                     size - 1);
    else
        found[0] = true;
}

/* validate_increment_semaphore() */
static void k_inc_sem(checker *c, uint32_t off, uint32_t word, const uint8_t *pl, bool *found)
{
    (void)pl;
    cg_check_report *r = c->r;
    uint32_t size = c->s->bin_cl_size;
    if (size < 2 || off != size - 2)
        cg_check_add(r, "semaphore-second-last", off, word,
                     "Increment_Semaphore at 0x%x: it must be the second-last byte of the "
                     "bin CL", off);
    else
        found[1] = true;
}

/* validate_start_tile_binning() */
static void k_start(checker *c, uint32_t off, uint32_t word, const uint8_t *pl, bool *found)
{
    (void)pl;
    cg_check_report *r = c->r;
    if (found[2])
        cg_check_add(r, "start-binning-once", off, word, "a second Start_Tile_Binning");
    found[2] = true;
    if (!found[3])
        cg_check_add(r, "start-binning-config", off, word,
                     "Start_Tile_Binning before Tile_Binning_Mode_Configuration");
}

/* validate_tile_binning_config() */
static void k_config(checker *c, uint32_t off, uint32_t word, const uint8_t *pl, bool *found)
{
    cg_check_report *r = c->r;
    if (found[3])
        cg_check_add(r, "bin-config-once", off, word,
                     "a second Tile_Binning_Mode_Configuration");
    found[3] = true;
    uint32_t tw = (uint32_t)VC4_GET(pl, Tile_Binning_Mode_Configuration, Width_in_tiles);
    uint32_t th = (uint32_t)VC4_GET(pl, Tile_Binning_Mode_Configuration, Height_in_tiles);
    if (tw == 0 || th == 0)
        cg_check_add(r, "bin-config-tiles", off, word, "binning %ux%u tiles: none", tw, th);
    /* VC4_BIN_CONFIG_DB_NON_MS | VC4_BIN_CONFIG_TILE_BUFFER_64BIT; the
     * kernel rewrites the addresses, sizes and block sizes itself */
    bool db = VC4_GET(pl, Tile_Binning_Mode_Configuration, Double_buffer_in_non_ms_mode);
    bool c64 = VC4_GET(pl, Tile_Binning_Mode_Configuration, Tile_Buffer_64_bit_Color_Depth);
    if (db || c64)
        cg_check_add(r, "bin-config-flags", off, word, "binning flags not allowed:%s%s",
                     db ? " Double_Buffer_In_Non_MS_Mode" : "",
                     c64 ? " Buffer_Color_Depth_64" : "");
}

/* validate_gl_shader_state() */
static void k_gl_state(checker *c, uint32_t off, uint32_t word, const uint8_t *pl, bool *found)
{
    (void)found;
    cg_check_report *r = c->r;
    uint32_t v = vc4_le32(pl);
    if (c->nstates >= c->s->shader_rec_count) {
        cg_check_add(r, "shader-state-count", off, word,
                     "GL_Shader_State %u: only %u shader record(s) declared", c->nstates,
                     c->s->shader_rec_count);
        return;
    }
    if (v & ~0xfu) {
        /* the address bits index nothing: the kernel places records in
         * order; only the attribute count and the extended flag stay */
        cg_check_add(r, "shader-state-bits", off, word,
                     "GL_Shader_State 0x%08x: only bits 3:0 (attributes, extended) may be set",
                     v);
        return;
    }
    if (c->nstates == c->capstates) {
        uint32_t cap = c->capstates ? 2 * c->capstates : 8;
        shader_state *ns = realloc(c->states, cap * sizeof *ns);
        if (!ns) {
            r->dropped++;
            return;
        }
        c->states = ns;
        c->capstates = cap;
    }
    c->states[c->nstates++] = (shader_state){.bits = v, .max_index = 0, .where = off};
}

/* validate_indexed_prim_list() */
static void k_indexed(checker *c, uint32_t off, uint32_t word, const uint8_t *pl, bool *found)
{
    (void)found;
    cg_check_report *r = c->r;
    uint32_t length = (uint32_t)VC4_GET(pl, Indexed_Primitive_List, Length);
    /* Indices_Address: an offset in the index BO the kernel relocates */
    uint32_t ib_off = (uint32_t)VC4_GET(pl, Indexed_Primitive_List, Address_of_Indices_List);
    uint32_t max_index = (uint32_t)VC4_GET(pl, Indexed_Primitive_List, Maximum_Index);
    uint32_t isize = VC4_GET(pl, Indexed_Primitive_List, Index_type) ? 2 : 1;
    if (c->nstates == 0) {
        cg_check_add(r, "prim-shader-state", off, word,
                     "Indexed_Primitive_List before any GL_Shader_State");
        return;
    }
    shader_state *st = &c->states[c->nstates - 1];
    if (max_index > st->max_index)
        st->max_index = max_index;
    if (!use_bo(c, "bo-index", off, word, c->bo_index[0], "index buffer"))
        return;
    uint32_t bsize = c->s->bo[c->bo_index[0]].size;
    if (ib_off > bsize || (bsize - ib_off) / isize < length)
        cg_check_add(r, "ib-bounds", off, word,
                     "indices 0x%x + %u x %u bytes run past index BO %u (%u bytes)", ib_off,
                     length, isize, c->bo_index[0], bsize);
}

/* validate_gl_array_primitive() */
static void k_array(checker *c, uint32_t off, uint32_t word, const uint8_t *pl, bool *found)
{
    (void)found;
    cg_check_report *r = c->r;
    uint32_t length = (uint32_t)VC4_GET(pl, Vertex_Array_Primitives, Length);
    uint32_t first = (uint32_t)VC4_GET(pl, Vertex_Array_Primitives, Index_of_First_Vertex);
    if (c->nstates == 0) {
        cg_check_add(r, "prim-shader-state", off, word,
                     "Vertex_Array_Primitives before any GL_Shader_State");
        return;
    }
    if (length + first < length) {
        cg_check_add(r, "prim-count-overflow", off, word,
                     "first vertex %u + %u vertices overflows 32 bits", first, length);
        return;
    }
    /* as the kernel: length 0 makes max index first - 1 */
    uint32_t max_index = length + first - 1;
    shader_state *st = &c->states[c->nstates - 1];
    if (max_index > st->max_index)
        st->max_index = max_index;
}

static void k_gem(checker *c, uint32_t off, uint32_t word, const uint8_t *pl, bool *found)
{
    (void)off, (void)word, (void)found;
    /* validate_gem_handles(): the BO-list indices later packets use */
    c->bo_index[0] = (uint32_t)VC4_GET(pl, Gem_Relocations, buffer_0);
    c->bo_index[1] = (uint32_t)VC4_GET(pl, Gem_Relocations, buffer_1);
}

static const vc4_check_fn bin_rules[256] = {
    [VC4_OP_Flush] = k_flush,
    [VC4_OP_Increment_Semaphore] = k_inc_sem,
    [VC4_OP_Start_Tile_Binning] = k_start,
    [VC4_OP_Tile_Binning_Mode_Configuration] = k_config,
    [VC4_OP_GL_Shader_State] = k_gl_state,
    [VC4_OP_Indexed_Primitive_List] = k_indexed,
    [VC4_OP_Vertex_Array_Primitives] = k_array,
    [VC4_OP_Gem_Relocations] = k_gem,
};

static void bin_packet(checker *c, const vc4_record *rec, uint32_t off, uint32_t word,
                       const uint8_t *pl, bool *found)
{
    if (bin_rules[rec->opcode])
        bin_rules[rec->opcode](c, off, word, pl, found);
}

static void bin_cl_check(checker *c)
{
    const cg_vc4_submit *s = c->s;
    cg_check_report *r = c->r;
    bool found[4] = {false}; /* flush, semaphore, start binning, binning config */
    uint32_t off = 0;
    while (off < s->bin_cl_size) {
        const uint8_t *p = s->bin_cl + off;
        uint32_t left = s->bin_cl_size - off;
        uint8_t word_b[4] = {0};
        memcpy(word_b, p, left < 4 ? left : 4);
        uint32_t word = vc4_le32(word_b);
        vc4_record rec;
        r->checked++;
        if (!vc4_record_get(p[0], &rec)) {
            cg_check_add(r, "packet-allowed", off, word,
                         "unknown opcode %u: its length is unknown, the %u byte(s) from here "
                         "are not checked", p[0], left);
            break;
        }
        if (rec.size > left) {
            cg_check_add(r, "packet-length", off, word,
                         "%s (%u bytes) runs past the end of the bin CL (%u byte(s) left)",
                         rec.name, rec.size, left);
            break;
        }
        if (rec.policy != VC4_POL_KBIN)
            cg_check_add(r, "packet-allowed", off, word,
                         "%s (opcode %u) is not allowed in a bin CL", rec.name, rec.opcode);
        else
            bin_packet(c, &rec, off, word, p + 1, found);
        off += rec.size;
        /* the binning thread stops reading at Halt */
        if (rec.opcode == VC4_OP_Halt)
            break;
    }
    if (!found[2])
        cg_check_add(r, "start-binning-missing", s->bin_cl_size, 0,
                     "the bin CL has no Start_Tile_Binning");
    if (!found[0] || !found[1])
        cg_check_add(r, "end-semaphore-flush", s->bin_cl_size, 0,
                     "the bin CL must end with Increment_Semaphore, Flush");
}

/* ---- texture samples: vc4_validate.c reloc_tex() -----------------------
 * Parameter fields (Mesa src/gallium/drivers/vc4/kernel/vc4_packet.h): p0
 * offset [31:12], cube map mode [9], type [7:4], mip levels [3:0]; p1 type
 * bit 4 [31], height [30:20], width [18:8] (0 = 2048); p2/p3 parameter type
 * [31:30] (1 = cube map stride, [29:12]). */

static uint32_t utile_w(uint32_t cpp) { return cpp == 4 ? 4 : cpp == 8 ? 2 : 8; }
static uint32_t utile_h(uint32_t cpp) { return cpp == 1 ? 8 : 4; }
static bool size_is_lt(uint32_t w, uint32_t h, uint32_t cpp)
{
    return w <= 4 * utile_w(cpp) || h <= 4 * utile_h(cpp);
}
static uint32_t round_up(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

/* bytes of a width x height level in tiling 0 linear, 1 T, 2 LT */
static uint64_t level_bytes(uint32_t w, uint32_t h, uint32_t cpp, int tiling)
{
    uint32_t uw = utile_w(cpp), uh = utile_h(cpp);
    uint64_t aw = tiling == 1 ? round_up(w, uw * 8) : round_up(w, uw);
    uint64_t ah = tiling == 1 ? round_up(h, uh * 8) : tiling == 2 ? round_up(h, uh) : h;
    return aw * cpp * ah;
}

/* One texture sample of record `rec`'s shader `who`, whose uniforms start
 * at byte `unif` of the uniforms section: `where` is a byte offset there. */
static void tex_check(checker *c, uint32_t rec, const char *who, const shader_info *sh,
                      uint32_t ts, uint32_t unif)
{
    const cg_vc4_submit *s = c->s;
    const uint8_t *u = s->uniforms + unif;
    uint32_t hw = unif + 4 * ts, data = unif + 4 * sh->nsamples;
    uint32_t handle = vc4_le32(u + 4 * ts), p[4];
    for (int j = 0; j < 4; j++)
        p[j] = sh->samples[ts].p_off[j] != ~0u ? vc4_le32(s->uniforms + data +
                                                          sh->samples[ts].p_off[j]) : 0;
    uint32_t p0w = data + sh->samples[ts].p_off[0];
    char what[64];
    snprintf(what, sizeof what, "record %u %s texture sample %u", rec, who, ts);
    if (!use_bo(c, "tex-bo", hw, handle, handle, what))
        return;
    uint32_t bsize = s->bo[handle].size;
    uint32_t offset = p[0] & 0xFFFFF000u, mip = p[0] & 15;
    uint32_t width = (p[1] >> 8) & 0x7FF, height = (p[1] >> 20) & 0x7FF;
    if (!width)
        width = 2048;
    if (!height)
        height = 2048;
    uint32_t cms = 0;
    if (p[0] & (1u << 9)) {
        if (p[2] >> 30 == 1)
            cms = p[2] & 0x3FFFF000u;
        if (p[3] >> 30 == 1) {
            if (cms) {
                cg_check_add(c->r, "tex-cube-stride", p0w, p[0],
                             "%s: cube map stride set twice", what);
                return;
            }
            cms = p[3] & 0x3FFFF000u;
        }
        if (!cms) {
            cg_check_add(c->r, "tex-cube-stride", p0w, p[0], "%s: cube map stride not set",
                         what);
            return;
        }
    }
    uint32_t type = ((p[0] >> 4) & 15) | (p[1] >> 31) << 4, cpp;
    switch (type) {
    case 0: case 1: case 16: cpp = 4; break;            /* RGBA8888 RGBX8888 RGBA32R */
    case 2: case 3: case 4: case 7: case 9: case 11: cpp = 2; break; /* 4444 5551 565 LA S16F S16 */
    case 5: case 6: case 10: cpp = 1; break;            /* LUMINANCE ALPHA S8 */
    case 8: cpp = 8; width = (width + 3) >> 2; height = (height + 3) >> 2; break; /* ETC1 */
    default: {
        static const char *const names[18] = {
            "RGBA8888", "RGBX8888", "RGBA4444", "RGBA5551", "RGB565", "LUMINANCE", "ALPHA",
            "LUMALPHA", "ETC1", "S16F", "S8", "S16", "BW1", "A4", "A1", "RGBA64", "RGBA32R",
            "YUV422R"};
        cg_check_add(c->r, "tex-type", p0w, p[0], "%s: texture type %u (%s) is not allowed",
                     what, type, type < 18 ? names[type] : "reserved");
        return;
    }
    }
    int tiling = type == 16 ? 0 : size_is_lt(width, height, cpp) ? 2 : 1;
    uint64_t base = (uint64_t)offset + (uint64_t)cms * 5;
    uint64_t sz = level_bytes(width, height, cpp, tiling);
    if (base + sz > bsize) {
        cg_check_add(c->r, "tex-size", p0w, p[0],
                     "%s: %ux%u %s texture at offset 0x%llx needs %llu bytes, BO %u has %u",
                     what, width, height, tiling == 0 ? "linear" : tiling == 1 ? "T" : "LT",
                     (unsigned long long)base, (unsigned long long)sz, handle, bsize);
        return;
    }
    /* the mip levels lie below the base level, smallest first */
    uint32_t off = offset;
    for (uint32_t l = 1; l <= mip; l++) {
        uint32_t lw = width >> l ? width >> l : 1, lh = height >> l ? height >> l : 1;
        if (tiling == 1 && size_is_lt(lw, lh, cpp))
            tiling = 2;
        uint64_t ls = level_bytes(lw, lh, cpp, tiling);
        if (off < ls) {
            cg_check_add(c->r, "tex-miplevel", p0w, p[0],
                         "%s: mip level %u (%ux%u, %llu bytes) runs below the start of BO %u "
                         "(%u bytes left before the level above)", what, l, lw, lh,
                         (unsigned long long)ls, handle, off);
            return;
        }
        off -= (uint32_t)ls;
    }
}

/* ---- shader records: vc4_validate.c validate_gl_shader_rec() ------------ */

static void shader_recs_check(checker *c)
{
    const cg_vc4_submit *s = c->s;
    cg_check_report *r = c->r;
    /* offsets of the FS, VS and CS code addresses in a record */
    static const uint32_t code_off[3] = {4, 16, 28};
    static const char *const code_name[3] = {"FS", "VS", "CS"};
    uint32_t pos = 0, unif = 0;
    for (uint32_t i = 0; i < c->nstates; i++) {
        const shader_state *st = &c->states[i];
        uint32_t nattr = st->bits & 7 ? st->bits & 7 : 8;
        uint32_t psize = gl_shader_rec_size(st->bits), nrel = 3 + nattr;
        r->checked++;
        if (s->shader_rec_size - pos < nrel * 4) {
            cg_check_add(r, "shader-rec-overflow", pos, 0,
                         "record %u (GL_Shader_State at bin_cl 0x%x): %u BO indices need %u "
                         "bytes, %u left", i, st->where, nrel, nrel * 4, s->shader_rec_size - pos);
            return;
        }
        const uint8_t *h = s->shader_rec + pos;
        uint32_t hpos = pos;
        pos += nrel * 4;
        if (s->shader_rec_size - pos < psize) {
            cg_check_add(r, "shader-rec-overflow", pos, 0,
                         "record %u (GL_Shader_State at bin_cl 0x%x): %u bytes, %u left", i,
                         st->where, psize, s->shader_rec_size - pos);
            return;
        }
        const uint8_t *pkt = s->shader_rec + pos;
        uint32_t ppos = pos;
        pos += psize;

        /* the three shaders: shader BOs (the kernel: "Shader handle %d too
         * big", then a BO that is not a validated shader is refused) */
        const shader_info *sh[3] = {NULL, NULL, NULL};
        for (int k = 0; k < 3; k++) {
            uint32_t idx = vc4_le32(h + 4 * k);
            /* vc4_validate.c compares idx > bo_count; index bo_count is
             * past the list too, so >= here */
            if (idx >= s->bo_count)
                cg_check_add(r, "shader-rec-bo", hpos + 4 * k, idx,
                             "record %u: %s BO index %u is past the BO list (%u)", i,
                             code_name[k], idx, s->bo_count);
            else if (!s->bo[idx].shader)
                cg_check_add(r, "shader-rec-bo", hpos + 4 * k, idx,
                             "record %u: %s BO %u is not a shader BO", i, code_name[k], idx);
            else if (c->shaders[idx].valid)
                sh[k] = &c->shaders[idx];
            /* an invalid shader BO was reported when it was checked */
        }
        bool attr_ok[8];
        for (uint32_t a = 0; a < nattr; a++) {
            char what[48];
            snprintf(what, sizeof what, "record %u attribute %u", i, a);
            attr_ok[a] = use_bo(c, "bo-index", hpos + 12 + 4 * a, vc4_le32(h + 12 + 4 * a),
                                vc4_le32(h + 12 + 4 * a), what);
        }
        /* flag bit 0: FS single-threaded (vc4_drv.h VC4_SHADER_FLAG_FS_SINGLE_THREAD).
         * The Mesa snapshot's vc4_validate.c still refused threaded fragment
         * shaders; torvalds/linux vc4_validate.c compares the flag with the
         * shader: the newer rule, as research/vc4.md section 4 has it. */
        uint16_t flags = vc4_le16(pkt);
        if (sh[0] && sh[0]->threaded == ((flags & 1) != 0))
            cg_check_add(r, "shader-rec-threads", ppos, flags,
                         "record %u: the FS is %s but the record says %s", i,
                         sh[0]->threaded ? "threaded" : "single-threaded",
                         flags & 1 ? "single-threaded" : "threaded");
        for (int k = 1; k < 3; k++)
            if (sh[k] && sh[k]->threaded)
                cg_check_add(r, "shader-rec-threads", ppos + code_off[k],
                             vc4_le32(pkt + code_off[k]),
                             "record %u: the %s is threaded (only a FS may be)", i, code_name[k]);
        for (int k = 0; k < 3; k++) {
            uint32_t o = vc4_le32(pkt + code_off[k]);
            if (o != 0)
                cg_check_add(r, "shader-rec-offset", ppos + code_off[k], o,
                             "record %u: %s code at offset 0x%x of its BO (must be 0)", i,
                             code_name[k], o);
            if (!sh[k])
                continue;
            /* uniforms_src_size: a BO index per texture sample, then the
             * uniforms */
            uint32_t src = sh[k]->uniforms + 4 * sh[k]->nsamples;
            if (src > s->uniforms_size - unif) {
                cg_check_add(r, "uniforms-overflow", ppos + code_off[k] + 4, src,
                             "record %u: the %s reads %u bytes of uniforms, %u left", i,
                             code_name[k], src, s->uniforms_size - unif);
                unif = s->uniforms_size;
            } else {
                for (uint32_t ts = 0; ts < sh[k]->nsamples; ts++)
                    tex_check(c, i, code_name[k], sh[k], ts, unif);
                unif += src;
            }
        }
        for (uint32_t a = 0; a < nattr; a++) {
            if (!attr_ok[a])
                continue;
            uint32_t o = 36 + 8 * a;
            uint32_t bo = vc4_le32(h + 12 + 4 * a);
            uint32_t base = vc4_le32(pkt + o), asize = pkt[o + 4] + 1u, stride = pkt[o + 5];
            if (st->bits & 8) /* extended record: high stride bits */
                stride |= vc4_le32(pkt + 100 + 4 * a) & ~0xffu;
            uint32_t bsize = s->bo[bo].size;
            if (bsize < base || bsize - base < asize) {
                cg_check_add(r, "attr-bounds", ppos + o, base,
                             "record %u attribute %u: offset 0x%x + %u bytes run past BO %u "
                             "(%u bytes)", i, a, base, asize, bo, bsize);
                continue;
            }
            if (stride != 0 && st->max_index > (bsize - base - asize) / stride)
                cg_check_add(r, "attr-max-index", ppos + o, st->max_index,
                             "record %u attribute %u: primitives use index %u, BO %u holds "
                             "indices up to %u", i, a, st->max_index, bo,
                             (bsize - base - asize) / stride);
        }
    }
}

int cg_vc4_check(const cg_vc4_submit *s, cg_check_report *r)
{
    if (!s || !r || (s->bin_cl_size && !s->bin_cl) || (s->shader_rec_size && !s->shader_rec) ||
        (s->uniforms_size && !s->uniforms) || (s->bo_count && !s->bo))
        return CG_ERR_INVAL;
    for (uint32_t i = 0; i < s->bo_count; i++)
        if (s->bo[i].shader && s->bo[i].size && !s->bo[i].data)
            return CG_ERR_INVAL;
    checker c = {.s = s, .r = r};
    c.shaders = calloc(s->bo_count ? s->bo_count : 1, sizeof *c.shaders);
    if (!c.shaders)
        return CG_ERR_NOMEM;
    for (uint32_t i = 0; i < s->bo_count; i++)
        if (s->bo[i].shader)
            c.shaders[i] = shader_check(r, i, s->bo[i].data, s->bo[i].size);
    bin_cl_check(&c);
    shader_recs_check(&c);
    free(c.states);
    free(c.shaders);
    return 0;
}

/* ---- the source form ---------------------------------------------------- */

/* "bo<N>" / "shader<N>": the BO-list index, or -1. */
static long bo_section_index(const char *name, bool *shader)
{
    const char *d;
    if (strncmp(name, "bo", 2) == 0)
        d = name + 2, *shader = false;
    else if (strncmp(name, "shader", 6) == 0)
        d = name + 6, *shader = true;
    else
        return -1;
    if (*d < '0' || *d > '9' || (d[0] == '0' && d[1]))
        return -1;
    long v = 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9' || v > 100000)
            return -1;
        v = v * 10 + (*d - '0');
    }
    return v;
}

/* The bytes of [start, end) if one section holds them. */
static bool section_range(const cg_asm *as, int64_t start, int64_t end, const uint8_t **data,
                          uint32_t *size)
{
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *d;
        size_t n;
        cg_asm_section(as, i, &name, &base, &d, &n);
        if (start >= (int64_t)base && end >= start && (uint64_t)end <= base + n) {
            *data = d + (start - (int64_t)base);
            *size = (uint32_t)(end - start);
            return true;
        }
    }
    return false;
}

int cg_vc4_check_scene(const cg_scene *sc, cg_check_report *r, char *err,
                     size_t errcap)
{
    const cg_asm *as = cg_scene_sections(sc);
    if (!as || !r)
        return CG_ERR_INVAL;
    if (err && errcap)
        err[0] = 0;
    cg_vc4_submit s = {0};
    bool have_bin = false;
    size_t nsec = cg_asm_section_count(as);
    long max_bo = -1;
    for (size_t i = 0; i < nsec; i++) {
        const char *name;
        uint64_t base;
        const uint8_t *d;
        size_t n;
        cg_asm_section(as, i, &name, &base, &d, &n);
        bool shader;
        long bi = bo_section_index(name, &shader);
        if (n > UINT32_MAX) {
            snprintf(err, errcap, "section '%s' is over 4 GiB", name);
            return CG_ERR_INVAL;
        }
        if (strcmp(name, "bin_cl") == 0)
            s.bin_cl = d, s.bin_cl_size = (uint32_t)n, have_bin = true;
        else if (strcmp(name, "shader_rec") == 0)
            s.shader_rec = d, s.shader_rec_size = (uint32_t)n;
        else if (strcmp(name, "uniforms") == 0)
            s.uniforms = d, s.uniforms_size = (uint32_t)n;
        else if (bi > max_bo)
            max_bo = bi;
    }
    if (max_bo > 65535) {
        snprintf(err, errcap, "BO %ld: at most 65536 BOs (bo0 ... bo65535)", max_bo);
        return CG_ERR_INVAL;
    }
    cg_vc4_check_bo *bos = NULL;
    if (max_bo >= 0) {
        bos = calloc((size_t)max_bo + 1, sizeof *bos);
        bool *seen = calloc((size_t)max_bo + 1, 1);
        if (!bos || !seen) {
            free(bos);
            free(seen);
            return CG_ERR_NOMEM;
        }
        for (size_t i = 0; i < nsec; i++) {
            const char *name;
            uint64_t base;
            const uint8_t *d;
            size_t n;
            cg_asm_section(as, i, &name, &base, &d, &n);
            bool shader;
            long bi = bo_section_index(name, &shader);
            if (bi < 0)
                continue;
            if (seen[bi]) {
                snprintf(err, errcap, "BO %ld is given twice (bo%ld and shader%ld?)", bi, bi, bi);
                free(bos);
                free(seen);
                return CG_ERR_INVAL;
            }
            seen[bi] = true;
            bos[bi] = (cg_vc4_check_bo){.data = d, .size = (uint32_t)n, .shader = shader};
        }
        for (long i = 0; i <= max_bo; i++)
            if (!seen[i]) {
                snprintf(err, errcap, "BO %ld is missing: sections bo0/shader0 ... bo%ld/shader%ld "
                         "must all be there", i, max_bo, max_bo);
                free(bos);
                free(seen);
                return CG_ERR_INVAL;
            }
        free(seen);
        s.bo = bos;
        s.bo_count = (uint32_t)max_bo + 1;
    }
    if (!have_bin) {
        /* a bare-metal scene: its first binning kick */
        const cg_scene_action *kick = NULL;
        for (size_t i = 0; i < cg_scene_action_count(sc) && !kick; i++) {
            const cg_scene_action *a = cg_scene_action_at(sc, i);
            if (a->kind == VA_KICK && a->a == 0)
                kick = a;
        }
        if (!kick) {
            snprintf(err, errcap, "no 'bin_cl' section, and no `.kick 0` to take the bin CL from");
            free(bos);
            return CG_ERR_INVAL;
        }
        if (!section_range(as, kick->b, kick->c, &s.bin_cl, &s.bin_cl_size)) {
            snprintf(err, errcap, "`.kick 0, 0x%llx, 0x%llx`: no section holds those bytes",
                     (unsigned long long)kick->b, (unsigned long long)kick->c);
            free(bos);
            return CG_ERR_INVAL;
        }
    }
    int64_t count;
    if (cg_asm_symbol(as, "shader_rec_count", &count)) {
        if (count < 0 || count > UINT32_MAX) {
            snprintf(err, errcap, "shader_rec_count %lld is out of range", (long long)count);
            free(bos);
            return CG_ERR_INVAL;
        }
        s.shader_rec_count = (uint32_t)count;
    } else {
        /* what Mesa passes: one record per GL_Shader_State */
        uint32_t n = 0;
        for (uint32_t off = 0; off < s.bin_cl_size;) {
            unsigned sz = cg_vc4_cl_size(s.bin_cl[off]);
            if (sz == 0 || sz > s.bin_cl_size - off || s.bin_cl[off] == VC4_OP_Halt)
                break;
            n += s.bin_cl[off] == VC4_OP_GL_Shader_State;
            off += sz;
        }
        s.shader_rec_count = n;
    }
    int rc = cg_vc4_check(&s, r);
    free(bos);
    return rc;
}
