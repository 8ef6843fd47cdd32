/* vc4 stream validator (src/vc4/check/check.c): every rule rejects a stream that
 * breaks it and accepts one on the right side of the line, with the exact
 * report (rule, where, word, message).
 *
 * The streams are a DRM_IOCTL_VC4_SUBMIT_CL job in assembler source (the
 * form `cmdgpu check -f vc4` reads), built from six parts that each test may
 * replace. Offsets below are worked out by hand from the record sizes of
 * research/vc4.md section 1 (vc4_packet.h): in the base bin CL,
 * Tile_Binning_Mode_Configuration 0 (16 bytes), Start_Tile_Binning 16 (1),
 * Clip_Window 17 (9), Configuration_Bits 26 (4), Viewport_Offset 30 (5),
 * GL_Shader_State 35 (5), Vertex_Array_Primitives 40 (10), GEM_Handles 50
 * (9), Indexed_Primitive_List 59 (14), Increment_Semaphore 73, Flush 74;
 * 75 bytes. In shader_rec: 4 BO indices (0..15), then the record at 16: flags
 * 16, FS code 20 and uniforms 24, VS code 32, CS code 44, attribute 0 at 52
 * (base), 56 (size - 1), 57 (stride); 60 bytes. A `word` is the first 4
 * bytes of a packet, little-endian. QPU words: checked with
 * `cmdgpu disasm -f vc4-qpu` and research/vc4.md section 3. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/vc4_check.h"

#define NOP ".word 0x009e7000, 0x100009e7\n"
#define THREND ".word 0x009e7000, 0x300009e7\n"
#define SBDONE ".word 0x009e7000, 0x500009e7\n"
#define THRSW ".word 0x009e7000, 0x200009e7\n"
#define MOV_TLBC_UNIF ".word 0x15827d80, 0x10020ba7\n"
#define BRR(imm) ".word " #imm ", 0xf0f809e7\n" /* brr nop, nop: relative, always */

static const char BIN[] =
    ".section bin_cl, 0\n"
    "Tile_Binning_Mode_Configuration 0, 0, 0, 10, 8, Auto_Init_Tile_State_Data\n"
    "Start_Tile_Binning\n"
    "Clip_Window 0, 0, 640, 480\n"
    "Configuration_Bits Enable_Forward_Facing_Primitive + Enable_Reverse_Facing_Primitive, 0\n"
    "Viewport_Offset 0, 0\n"
    "GL_Shader_State 0, 1\n"
    "Vertex_Array_Primitives Mode_Triangles, 3, 0\n"
    "GEM_Handles 3, 0\n"
    "Indexed_Primitive_List Index_Type_16 + Mode_Triangles, 3, 0, 2\n"
    "Increment_Semaphore\n"
    "Flush\n";
static const char REC[] =
    ".section shader_rec, 0\n"
    ".word 0, 1, 1 # FS VS CS\n"
    ".word 2 # attribute 0\n"
    ".half 1 # flags\n"
    ".byte 1, 0\n"
    ".word 0, 0 # FS code, uniforms\n"
    ".half 0\n.byte 1, 12\n.word 0, 0\n"
    ".half 0\n.byte 1, 12\n.word 0, 0\n"
    ".word 0 # attribute 0 offset\n"
    ".byte 11, 12, 0, 0 # size - 1, stride\n";
static const char UNIF[] = ".section uniforms, 0\n.word 0xffffffff\n";
static const char SH0[] = ".section shader0, 0\n" MOV_TLBC_UNIF THREND NOP SBDONE;
static const char SH1[] = ".section shader1, 0\n" THREND NOP NOP;
static const char BOS[] = ".section bo2, 0\n.float 0, 0, 0, 1, 0, 0, 0, 1, 0\n"
                          ".section bo3, 0\n.half 0, 1, 2\n";

/* `part` with its first `old` replaced by `rep` (static buffer, one at a time). */
static const char *edit(const char *part, const char *old, const char *rep)
{
    static char buf[4][4096];
    static int k;
    char *out = buf[k++ & 3];
    const char *p = strstr(part, old);
    CHECK(p != NULL);
    if (!p)
        return part;
    snprintf(out, sizeof buf[0], "%.*s%s%s", (int)(p - part), part, rep, p + strlen(old));
    return out;
}

typedef struct want {
    const char *rule;
    uint64_t where;
    uint32_t word;
    const char *msg;
} want;

/* Assemble the parts (NULL: the base part) and check the report. */
/* The source as a vc4 scene (the scene directives recorded). */
static cg_scene *scene(const char *name, const char *src)
{
    cg_scene *sc = NULL;
    int rc = cg_scene_assemble(cg_family_get(CG_FAMILY_VC4), NULL, name, src, strlen(src), &sc);
    CHECK_EQ(rc, 0);
    if (rc == CG_ERR_SYNTAX)
        fputs(cg_scene_errors(sc), stderr);
    return sc;
}

static void expect(const char *name, const char *bin, const char *rec, const char *unif,
                   const char *sh0, const char *sh1, const char *bos, const want *w, size_t n)
{
    static char src[16384];
    snprintf(src, sizeof src, "%s%s%s%s%s%s", bin ? bin : BIN, rec ? rec : REC,
             unif ? unif : UNIF, sh0 ? sh0 : SH0, sh1 ? sh1 : SH1, bos ? bos : BOS);
    int before = check_failures;
    cg_scene *sc = scene(name, src);
    cg_check_report r;
    cg_check_report_init(&r);
    char err[256];
    CHECK_EQ(cg_vc4_check_scene(sc, &r, err, sizeof err), 0);
    CHECK_EQ(r.n, n);
    for (size_t i = 0; i < n && i < r.n; i++) {
        CHECK_STR(r.v[i].rule, w[i].rule);
        CHECK_EQ(r.v[i].where, w[i].where);
        CHECK_EQ(r.v[i].word, w[i].word);
        CHECK_STR(r.v[i].message, w[i].msg);
    }
    if (check_failures != before) {
        fprintf(stderr, "  in test '%s'; the report:\n", name);
        cg_check_print(stderr, &r, "vc4", false);
    }
    cg_check_report_free(&r);
    cg_scene_destroy(sc);
}

#define ACCEPT(name, bin, rec, unif, sh0, sh1, bos) \
    expect(name, bin, rec, unif, sh0, sh1, bos, NULL, 0)
#define REJECT(name, bin, rec, unif, sh0, sh1, bos, ...)                                  \
    do {                                                                                 \
        static const want w_[] = {__VA_ARGS__};                                          \
        expect(name, bin, rec, unif, sh0, sh1, bos, w_, sizeof w_ / sizeof w_[0]);       \
    } while (0)

static void test_base(void)
{
    ACCEPT("base", NULL, NULL, NULL, NULL, NULL, NULL);
    /* items: 11 packets, 1 record, 4 + 3 shader instructions */
    char src[8192];
    snprintf(src, sizeof src, "%s%s%s%s%s%s", BIN, REC, UNIF, SH0, SH1, BOS);
    cg_scene *sc = scene("base", src);
    cg_check_report r;
    cg_check_report_init(&r);
    CHECK_EQ(cg_vc4_check_scene(sc, &r, NULL, 0), 0);
    CHECK_EQ(r.checked, 11 + 1 + 4 + 3);
    cg_check_report_free(&r);
    cg_scene_destroy(sc);
}

static void test_packets(void)
{
    /* packet-allowed: a known packet outside the kernel's list is skipped by
     * its size and the walk goes on; Z_Min_Max_Clipping_Planes (104) is not
     * in vc4_validate.c's cmd_info[] although 105 and 106 are */
    REJECT("branch", edit(BIN, "Viewport_Offset 0, 0", "Branch 0"), NULL, NULL, NULL, NULL, NULL,
           {"packet-allowed", 30, 0x10, "Branch (opcode 16) is not allowed in a bin CL"});
    REJECT("z clip", edit(BIN, "Clip_Window 0, 0, 640, 480", "Z_Min_Max_Clipping_Planes {}"),
           NULL, NULL, NULL, NULL, NULL,
           {"packet-allowed", 17, 0x68,
            "Z_min_and_max_clipping_planes (opcode 104) is not allowed in a bin CL"});
    ACCEPT("clipper z", edit(BIN, "Clip_Window 0, 0, 640, 480", "Clipper_Z_Scale_Offset {}"),
           NULL, NULL, NULL, NULL, NULL);
    /* an unknown opcode ends the walk: no GL_Shader_State, no end */
    REJECT("unknown", edit(BIN, "Viewport_Offset 0, 0", ".byte 9, 0, 0, 0, 0"), NULL, NULL,
           NULL, NULL, NULL,
           {"packet-allowed", 30, 9,
            "unknown opcode 9: its length is unknown, the 45 byte(s) from here are not checked"},
           {"end-semaphore-flush", 75, 0, "the bin CL must end with Increment_Semaphore, Flush"});
    /* packet-length: a 5-byte Branch with 2 bytes left (76-byte CL) */
    REJECT("length", edit(BIN, "Flush\n", ".byte 0x10, 0\n"), NULL, NULL, NULL, NULL, NULL,
           {"semaphore-second-last", 73, 0x00001007,
            "Increment_Semaphore at 0x49: it must be the second-last byte of the bin CL"},
           {"packet-length", 74, 0x10,
            "Branch (5 bytes) runs past the end of the bin CL (2 byte(s) left)"},
           {"end-semaphore-flush", 76, 0, "the bin CL must end with Increment_Semaphore, Flush"});
    /* flush-last; the real Flush at the end still counts */
    REJECT("early flush",
           edit(BIN, "Viewport_Offset 0, 0", "Flush\nNo_Op\nNo_Op\nNo_Op\nNo_Op"), NULL, NULL,
           NULL, NULL, NULL,
           {"flush-last", 30, 0x01010104,
            "Flush at 0x1e: it must be the last byte of the bin CL (0x4a)"});
    /* semaphore-second-last and flush-last: swapped */
    REJECT("swapped end", edit(BIN, "Increment_Semaphore\nFlush\n", "Flush\nIncrement_Semaphore\n"),
           NULL, NULL, NULL, NULL, NULL,
           {"flush-last", 73, 0x0704,
            "Flush at 0x49: it must be the last byte of the bin CL (0x4a)"},
           {"semaphore-second-last", 74, 0x07,
            "Increment_Semaphore at 0x4a: it must be the second-last byte of the bin CL"},
           {"end-semaphore-flush", 75, 0, "the bin CL must end with Increment_Semaphore, Flush"});
    REJECT("no end", edit(BIN, "Increment_Semaphore\nFlush\n", "No_Op\nNo_Op\n"), NULL, NULL,
           NULL, NULL, NULL,
           {"end-semaphore-flush", 75, 0, "the bin CL must end with Increment_Semaphore, Flush"});
    /* Halt stops the walk: what follows is not read */
    REJECT("halt", edit(BIN, "Increment_Semaphore\n", "Halt\n"), NULL, NULL, NULL, NULL, NULL,
           {"end-semaphore-flush", 75, 0, "the bin CL must end with Increment_Semaphore, Flush"});
}

static void test_binning(void)
{
    REJECT("start twice",
           edit(BIN, "Viewport_Offset 0, 0", "Start_Tile_Binning\nNo_Op\nNo_Op\nNo_Op\nNo_Op"),
           NULL, NULL, NULL, NULL, NULL,
           {"start-binning-once", 30, 0x01010106, "a second Start_Tile_Binning"});
    REJECT("start first",
           edit(BIN, "Tile_Binning_Mode_Configuration 0, 0, 0, 10, 8, Auto_Init_Tile_State_Data\n"
                     "Start_Tile_Binning\n",
                "Start_Tile_Binning\n"
                "Tile_Binning_Mode_Configuration 0, 0, 0, 10, 8, Auto_Init_Tile_State_Data\n"),
           NULL, NULL, NULL, NULL, NULL,
           {"start-binning-config", 0, 0x00007006,
            "Start_Tile_Binning before Tile_Binning_Mode_Configuration"});
    REJECT("no start", edit(BIN, "Start_Tile_Binning", "No_Op"), NULL, NULL, NULL, NULL, NULL,
           {"start-binning-missing", 75, 0, "the bin CL has no Start_Tile_Binning"});
    /* a second configuration 16 bytes later shifts the end: still right */
    REJECT("config twice",
           edit(BIN, "Viewport_Offset 0, 0",
                "Viewport_Offset 0, 0\nTile_Binning_Mode_Configuration 0, 0, 0, 1, 1, 0"),
           NULL, NULL, NULL, NULL, NULL,
           {"bin-config-once", 35, 0x70, "a second Tile_Binning_Mode_Configuration"});
    REJECT("no tiles", edit(BIN, "0, 0, 0, 10, 8,", "0, 0, 0, 0, 8,"), NULL, NULL, NULL, NULL,
           NULL, {"bin-config-tiles", 0, 0x70, "binning 0x8 tiles: none"});
    ACCEPT("one tile", edit(BIN, "0, 0, 0, 10, 8,", "0, 0, 0, 1, 1,"), NULL, NULL, NULL, NULL,
           NULL);
    REJECT("flags", edit(BIN, "Auto_Init_Tile_State_Data", "Buffer_Color_Depth_64 + 0x80"), NULL,
           NULL, NULL, NULL, NULL,
           {"bin-config-flags", 0, 0x70,
            "binning flags not allowed: Double_Buffer_In_Non_MS_Mode Buffer_Color_Depth_64"});
    /* the kernel rewrites the block sizes and sets auto-initialise itself;
     * 4x multisample is allowed */
    ACCEPT("allowed flags",
           edit(BIN, "Auto_Init_Tile_State_Data",
                "Multisample_Mode_4X + Tile_Allocation_Block_Size_256"),
           NULL, NULL, NULL, NULL, NULL);
}

static void test_shader_state(void)
{
    /* declared 0 records: the state is refused, so primitives have none */
    REJECT("count",
           edit(BIN, "Start_Tile_Binning\n", "Start_Tile_Binning\n.equ shader_rec_count, 0\n"),
           NULL, NULL, NULL, NULL, NULL,
           {"shader-state-count", 35, 0x140, "GL_Shader_State 0: only 0 shader record(s) declared"},
           {"prim-shader-state", 40, 0x00030421,
            "Vertex_Array_Primitives before any GL_Shader_State"},
           {"prim-shader-state", 59, 0x00031420,
            "Indexed_Primitive_List before any GL_Shader_State"});
    ACCEPT("count 2",
           edit(BIN, "Start_Tile_Binning\n", "Start_Tile_Binning\n.equ shader_rec_count, 2\n"),
           NULL, NULL, NULL, NULL, NULL);
    REJECT("bits", edit(BIN, "GL_Shader_State 0, 1", "GL_Shader_State 0x10, 1"), NULL, NULL, NULL,
           NULL, NULL,
           {"shader-state-bits", 35, 0x1140,
            "GL_Shader_State 0x00000011: only bits 3:0 (attributes, extended) may be set"},
           {"prim-shader-state", 40, 0x00030421,
            "Vertex_Array_Primitives before any GL_Shader_State"},
           {"prim-shader-state", 59, 0x00031420,
            "Indexed_Primitive_List before any GL_Shader_State"});
    /* the extended form: 100 + 4 bytes for one attribute, high stride bits
     * at +100 (stride 0x100 + 12 = 268: index 2 needs 2 * 268 + 12 bytes) */
    static char ext[2048];
    snprintf(ext, sizeof ext, "%s.org 116\n.word 0x100\n", REC);
    REJECT("extended", edit(BIN, "GL_Shader_State 0, 1", "GL_Shader_State 0, 9"), ext, NULL, NULL,
           NULL, NULL,
           {"attr-max-index", 52, 2,
            "record 0 attribute 0: primitives use index 2, BO 2 holds indices up to 0"});
    ACCEPT("extended fits", edit(BIN, "GL_Shader_State 0, 1", "GL_Shader_State 0, 9"), ext, NULL,
           NULL, NULL, ".section bo2, 0\n.org 548\n.section bo3, 0\n.half 0, 1, 2\n");
}

static void test_primitives(void)
{
    REJECT("no state", edit(BIN, "GL_Shader_State 0, 1", "No_Op\nNo_Op\nNo_Op\nNo_Op\nNo_Op"),
           NULL, NULL, NULL, NULL, NULL,
           {"prim-shader-state", 40, 0x00030421,
            "Vertex_Array_Primitives before any GL_Shader_State"},
           {"prim-shader-state", 59, 0x00031420,
            "Indexed_Primitive_List before any GL_Shader_State"});
    REJECT("count overflow", edit(BIN, "Mode_Triangles, 3, 0\n", "Mode_Triangles, 3, 0xfffffffe\n"),
           NULL, NULL, NULL, NULL, NULL,
           {"prim-count-overflow", 40, 0x00030421,
            "first vertex 4294967294 + 3 vertices overflows 32 bits"});
    /* 0xfffffffc + 3 does not wrap: max index 0xfffffffe, past BO 2 */
    REJECT("count edge", edit(BIN, "Mode_Triangles, 3, 0\n", "Mode_Triangles, 3, 0xfffffffc\n"),
           NULL, NULL, NULL, NULL, NULL,
           {"attr-max-index", 52, 0xfffffffe,
            "record 0 attribute 0: primitives use index 4294967294, BO 2 holds indices up to 2"});
    /* index buffer: 3 x 2 bytes fit BO 3 (6 bytes) exactly; 4 do not */
    REJECT("ib", edit(BIN, "Mode_Triangles, 3, 0, 2", "Mode_Triangles, 4, 0, 2"), NULL, NULL,
           NULL, NULL, NULL,
           {"ib-bounds", 59, 0x00041420,
            "indices 0x0 + 4 x 2 bytes run past index BO 3 (6 bytes)"});
    ACCEPT("ib offset", edit(BIN, "Mode_Triangles, 3, 0, 2", "Mode_Triangles, 2, 2, 2"), NULL,
           NULL, NULL, NULL, NULL);
    REJECT("ib offset past", edit(BIN, "Mode_Triangles, 3, 0, 2", "Mode_Triangles, 0, 7, 2"),
           NULL, NULL, NULL, NULL, NULL,
           {"ib-bounds", 59, 0x00001420,
            "indices 0x7 + 0 x 2 bytes run past index BO 3 (6 bytes)"});
    ACCEPT("ib 8-bit", edit(BIN, "Index_Type_16 + Mode_Triangles, 3, 0, 2",
                            "Index_Type_8 + Mode_Triangles, 6, 0, 2"),
           NULL, NULL, NULL, NULL, NULL);
    REJECT("ib index", edit(BIN, "GEM_Handles 3, 0", "GEM_Handles 4, 0"), NULL, NULL, NULL, NULL,
           NULL,
           {"bo-index", 59, 0x00031420, "index buffer: BO index 4 is past the BO list (4)"});
    REJECT("ib shader", edit(BIN, "GEM_Handles 3, 0", "GEM_Handles 0, 0"), NULL, NULL, NULL, NULL,
           NULL, {"bo-index", 59, 0x00031420, "index buffer: BO 0 is a shader BO"});
    REJECT("attr shader", NULL, edit(REC, ".word 2 # attribute 0", ".word 1"), NULL, NULL, NULL,
           NULL, {"bo-index", 12, 1, "record 0 attribute 0: BO 1 is a shader BO"});
}

static void test_records(void)
{
    REJECT("rec short", NULL, edit(REC, ".byte 11, 12, 0, 0 # size - 1, stride\n", ""), NULL,
           NULL, NULL, NULL,
           {"shader-rec-overflow", 16, 0,
            "record 0 (GL_Shader_State at bin_cl 0x23): 44 bytes, 40 left"});
    REJECT("rec handles", NULL, ".section shader_rec, 0\n.word 0, 1\n", NULL, NULL, NULL, NULL,
           {"shader-rec-overflow", 0, 0,
            "record 0 (GL_Shader_State at bin_cl 0x23): 4 BO indices need 16 bytes, 8 left"});
    REJECT("fs not shader", NULL, edit(REC, ".word 0, 1, 1", ".word 2, 1, 1"), NULL, NULL, NULL,
           NULL, {"shader-rec-bo", 0, 2, "record 0: FS BO 2 is not a shader BO"});
    REJECT("cs past", NULL, edit(REC, ".word 0, 1, 1", ".word 0, 1, 7"), NULL, NULL, NULL, NULL,
           {"shader-rec-bo", 8, 7, "record 0: CS BO index 7 is past the BO list (4)"});
    /* thread mode: flag bit 0 says single-threaded; a FS with a thread
     * switch is threaded */
    REJECT("fs threads", NULL, edit(REC, ".half 1 # flags", ".half 0"), NULL, NULL, NULL, NULL,
           {"shader-rec-threads", 16, 0,
            "record 0: the FS is single-threaded but the record says threaded"});
    static char thr_fs[512];
    snprintf(thr_fs, sizeof thr_fs, "%s", ".section shader0, 0\n" MOV_TLBC_UNIF THRSW NOP NOP
             THREND NOP SBDONE);
    ACCEPT("fs threaded", NULL, edit(REC, ".half 1 # flags", ".half 0"), NULL, thr_fs, NULL, NULL);
    REJECT("fs threaded flag", NULL, NULL, NULL, thr_fs, NULL, NULL,
           {"shader-rec-threads", 16, 1,
            "record 0: the FS is threaded but the record says single-threaded"});
    REJECT("vs threaded", NULL, NULL, NULL, NULL, ".section shader1, 0\n" THRSW THREND NOP NOP,
           NULL,
           {"shader-rec-threads", 32, 0, "record 0: the VS is threaded (only a FS may be)"},
           {"shader-rec-threads", 44, 0, "record 0: the CS is threaded (only a FS may be)"});
    REJECT("offset", NULL, edit(REC, ".word 0, 0 # FS code, uniforms", ".word 8, 0"), NULL, NULL,
           NULL, NULL,
           {"shader-rec-offset", 20, 8, "record 0: FS code at offset 0x8 of its BO (must be 0)"});
    REJECT("uniforms", NULL, NULL, ".section uniforms, 0\n", NULL, NULL, NULL,
           {"uniforms-overflow", 24, 4, "record 0: the FS reads 4 bytes of uniforms, 0 left"});
    /* a VS reading 2 uniforms after the FS's 1: 12 bytes needed, 8 given */
    REJECT("uniforms sum", NULL, NULL, ".section uniforms, 0\n.word 1, 2\n", NULL,
           ".section shader1, 0\n" MOV_TLBC_UNIF MOV_TLBC_UNIF THREND NOP NOP, NULL,
           {"uniforms-overflow", 36, 8, "record 0: the VS reads 8 bytes of uniforms, 4 left"},
           {"uniforms-overflow", 48, 8, "record 0: the CS reads 8 bytes of uniforms, 0 left"});
    ACCEPT("uniforms sum fits", NULL, NULL, ".section uniforms, 0\n.word 1, 2, 3, 4, 5\n", NULL,
           ".section shader1, 0\n" MOV_TLBC_UNIF MOV_TLBC_UNIF THREND NOP NOP, NULL);
    REJECT("attr bounds", NULL, edit(REC, ".word 0 # attribute 0 offset", ".word 36"), NULL, NULL,
           NULL, NULL,
           {"attr-bounds", 52, 36,
            "record 0 attribute 0: offset 0x24 + 12 bytes run past BO 2 (36 bytes)"});
    REJECT("attr index", edit(BIN, "Mode_Triangles, 3, 0\n", "Mode_Triangles, 3, 1\n"), NULL,
           NULL, NULL, NULL, NULL,
           {"attr-max-index", 52, 3,
            "record 0 attribute 0: primitives use index 3, BO 2 holds indices up to 2"});
    /* the indexed list's Maximum_Index counts too */
    REJECT("attr index ib", edit(BIN, "Mode_Triangles, 3, 0, 2", "Mode_Triangles, 3, 0, 3"),
           NULL, NULL, NULL, NULL, NULL,
           {"attr-max-index", 52, 3,
            "record 0 attribute 0: primitives use index 3, BO 2 holds indices up to 2"});
    /* stride 0: every vertex reads the same bytes */
    ACCEPT("stride 0", edit(BIN, "Mode_Triangles, 3, 0\n", "Mode_Triangles, 3, 1000\n"),
           edit(REC, ".byte 11, 12, 0, 0", ".byte 11, 0, 0, 0"), NULL, NULL, NULL, NULL);
}

static void test_shaders(void)
{
    /* shader-end: thrend needs its 2 delay slots inside the BO */
    REJECT("no end", NULL, NULL, NULL, NULL, ".section shader1, 0\n" NOP NOP NOP, NULL,
           {"shader-end", 24, 0,
            "shader1 ip 3: no program end (thrend and 2 delay slots) before the BO's end (24 "
            "bytes)"});
    REJECT("short end", NULL, NULL, NULL, NULL, ".section shader1, 0\n" NOP NOP THREND NOP, NULL,
           {"shader-end", 32, 0,
            "shader1 ip 4: no program end (thrend and 2 delay slots) before the BO's end (32 "
            "bytes)"});
    REJECT("bkpt", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n.word 0x009e7000, 0x000009e7\n" THREND NOP NOP, NULL,
           {"shader-signal", 0, 0x000009e7, "shader1 ip 0: signal bkpt (0) is not allowed"});
    REJECT("loadcv", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP ".word 0x009e7000, 0x700009e7\n" THREND NOP NOP, NULL,
           {"shader-signal", 8, 0x700009e7, "shader1 ip 1: signal loadcv (7) is not allowed"});
    ACCEPT("sbwait loadc", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n.word 0x009e7000, 0x400009e7\n.word 0x009e7000, 0x800009e7\n"
           THREND NOP NOP, NULL);
    /* after the program end nothing is read */
    ACCEPT("after end", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" THREND NOP NOP ".word 0x009e7000, 0x000009e7\n", NULL);
    /* forbidden write addresses (mov X, r0) */
    REJECT("host_int", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n.word 0x159e7000, 0x100209a7\n" THREND NOP NOP, NULL,
           {"shader-waddr", 0, 0x100209a7,
            "shader1 ip 0: write to irq (waddr 38) is not allowed"});
    REJECT("vpm dma", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n.word 0x159e7000, 0x10020ca7\n" THREND NOP NOP, NULL,
           {"shader-waddr", 0, 0x10020ca7,
            "shader1 ip 0: write to vr_addr (waddr 50): general VPM DMA is not allowed"});
    REJECT("noswap mutex tlbam", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n.word 0x159e7000, 0x10020927\n.word 0x159e7000, 0x10020ce7\n"
           ".word 0x159e7000, 0x10020be7\n" THREND NOP NOP, NULL,
           {"shader-waddr", 0, 0x10020927,
            "shader1 ip 0: write to tmurs (waddr 36) is not allowed"},
           {"shader-waddr", 8, 0x10020ce7,
            "shader1 ip 1: write to mutex (waddr 51) is not allowed"},
           {"shader-waddr", 16, 0x10020be7,
            "shader1 ip 2: write to tlbam (waddr 47) is not allowed"});
    ACCEPT("vpm setup tlbz", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n.word 0x159e7000, 0x10020c67\n.word 0x159e7000, 0x10020b27\n"
           THREND NOP NOP, NULL);
    /* not modelled: TMU and uniform-address writes */
    REJECT("tmu", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n.word 0x159e7000, 0x10020e27\n" THREND NOP NOP, NULL,
           {"not-supported", 0, 0x10020e27,
            "shader1 ip 0: direct TMU0 read (a write to t0s with no parameters before it): "
            "clamped UBO loads are not supported yet"});
    REJECT("unif_addr", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n.word 0x159e7000, 0x10020a27\n" THREND NOP NOP, NULL,
           {"not-supported", 0, 0x10020a27,
            "shader1 ip 0: uniforms address writes are not supported yet"});
}

/* Texture samples (vc4_validate.c reloc_tex): the FS writes t0t then t0s
 * (p0 and p1 from its uniforms), loads r4 and writes it to the TLB. Its
 * uniforms: the texture's BO index, then p0, p1; `where` of a texture rule
 * is a byte offset in `uniforms` (p0 is at 4, the BO index at 0). */
#define TEX_FS ".section shader0, 0\n.word 0x159e7000, 0x10020e67\n.word 0x159e7240, 0x10020e27\n" \
               ".word 0x009e7000, 0xa00009e7\n.word 0x159e7900, 0x10020ba7\n" THREND NOP SBDONE
static const char TEX_BOS[] = ".section bo2, 0\n.float 0, 0, 0, 1, 0, 0, 0, 1, 0\n"
                              ".section bo3, 0\n.half 0, 1, 2\n.section bo4, 0\n.org %s\n";

static const char *tex_bos(const char *size)
{
    static char b[2][512];
    static int k;
    char *o = b[k++ & 1];
    snprintf(o, sizeof b[0], TEX_BOS, size);
    return o;
}

static void test_textures(void)
{
    /* 16x16 RGBA8888 is LT (16 <= 4 utiles of 4 pixels): 16 * 16 * 4 bytes */
    ACCEPT("tex lt", NULL, NULL, ".section uniforms, 0\n.word 4, 0, 0x01001000\n", TEX_FS, NULL,
           tex_bos("1024"));
    REJECT("tex lt short", NULL, NULL, ".section uniforms, 0\n.word 4, 0, 0x01001000\n",
           TEX_FS, NULL, tex_bos("1020"),
           {"tex-size", 4, 0,
            "record 0 FS texture sample 0: 16x16 LT texture at offset 0x0 needs 1024 bytes, BO "
            "4 has 1020"});
    /* 64x64 RGBA8888 is T (32 x 32-pixel tiles): 16384 bytes; mip level 1
     * (32x32, still T) needs 4096 bytes below the base */
    ACCEPT("tex t mip", NULL, NULL, ".section uniforms, 0\n.word 4, 0x1001, 0x04004000\n",
           TEX_FS, NULL, tex_bos("20480"));
    REJECT("tex t mip below", NULL, NULL, ".section uniforms, 0\n.word 4, 0x1, 0x04004000\n",
           TEX_FS, NULL, tex_bos("20480"),
           {"tex-miplevel", 4, 1,
            "record 0 FS texture sample 0: mip level 1 (32x32, 4096 bytes) runs below the "
            "start of BO 4 (0 bytes left before the level above)"});
    REJECT("tex t short", NULL, NULL, ".section uniforms, 0\n.word 4, 0x1001, 0x04004000\n",
           TEX_FS, NULL, tex_bos("20479"),
           {"tex-size", 4, 0x1001,
            "record 0 FS texture sample 0: 64x64 T texture at offset 0x1000 needs 16384 bytes, "
            "BO 4 has 20479"});
    /* types the kernel refuses: BW1 (12), and type bit 4 from p1 (17, YUV422R) */
    REJECT("tex bw1", NULL, NULL, ".section uniforms, 0\n.word 4, 0xc0, 0x01001000\n", TEX_FS,
           NULL, tex_bos("1024"),
           {"tex-type", 4, 0xc0,
            "record 0 FS texture sample 0: texture type 12 (BW1) is not allowed"});
    REJECT("tex yuv", NULL, NULL, ".section uniforms, 0\n.word 4, 0x10, 0x81001000\n", TEX_FS,
           NULL, tex_bos("1024"),
           {"tex-type", 4, 0x10,
            "record 0 FS texture sample 0: texture type 17 (YUV422R) is not allowed"});
    /* cube map mode without a stride in p2/p3 */
    REJECT("tex cube", NULL, NULL, ".section uniforms, 0\n.word 4, 0x200, 0x01001000\n",
           TEX_FS, NULL, tex_bos("1024"),
           {"tex-cube-stride", 4, 0x200,
            "record 0 FS texture sample 0: cube map stride not set"});
    REJECT("tex bo", NULL, NULL, ".section uniforms, 0\n.word 9, 0, 0x01001000\n", TEX_FS,
           NULL, tex_bos("1024"),
           {"tex-bo", 0, 9,
            "record 0 FS texture sample 0: BO index 9 is past the BO list (5)"});
    REJECT("tex shader bo", NULL, NULL, ".section uniforms, 0\n.word 1, 0, 0x01001000\n",
           TEX_FS, NULL, tex_bos("1024"),
           {"tex-bo", 0, 1, "record 0 FS texture sample 0: BO 1 is a shader BO"});
    /* the uniforms hold the BO index and p0 but not p1 */
    REJECT("tex uniforms", NULL, NULL, ".section uniforms, 0\n.word 4, 0\n", TEX_FS, NULL,
           tex_bos("1024"),
           {"uniforms-overflow", 24, 12,
            "record 0: the FS reads 12 bytes of uniforms, 8 left"});
    /* mov t0t, unif: a uniform read in the instruction that sets up the TMU */
    REJECT("tex unif read", NULL, NULL, NULL,
           ".section shader0, 0\n.word 0x15827d80, 0x10020e67\n" THREND NOP SBDONE, NULL, NULL,
           {"shader-tmu", 0, 0x10020e67,
            "shader0 ip 0: uniform read in the same instruction as texture setup"});
}

static void test_branches(void)
{
    /* brr at ip 2 with offset 0 goes to ip 6 (after 3 delay slots) */
    ACCEPT("branch", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP BRR(0) NOP NOP NOP THREND NOP NOP, NULL);
    REJECT("branch at start", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP BRR(0) NOP NOP NOP THREND NOP NOP, NULL,
           {"shader-branch", 8, 0xf0f809e7,
            "shader1 ip 1: branch within 3 instructions of the program start or of the "
            "previous branch"});
    REJECT("branch pair", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP BRR(0) BRR(0) NOP NOP NOP THREND NOP NOP, NULL,
           {"shader-branch", 24, 0xf0f809e7,
            "shader1 ip 3: branch within 3 instructions of the program start or of the "
            "previous branch"});
    REJECT("absolute", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP ".word 0, 0xf0f009e7\n" NOP NOP NOP THREND NOP NOP,
           NULL,
           {"shader-branch", 16, 0xf0f009e7, "shader1 ip 2: absolute branch (must be relative)"});
    REJECT("register", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP ".word 0, 0xf0fc09e7\n" NOP NOP NOP THREND NOP NOP,
           NULL,
           {"shader-branch", 16, 0xf0fc09e7, "shader1 ip 2: branch relative to a register"});
    REJECT("unaligned", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP BRR(4) NOP NOP NOP THREND NOP NOP, NULL,
           {"shader-branch", 16, 0xf0f809e7,
            "shader1 ip 2: branch offset 4 is not a multiple of 8"});
    /* the program is ip 0..8 (thrend at 6): a target of ip 6 + 8 is outside */
    REJECT("outside", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP BRR(64) NOP NOP NOP THREND NOP NOP, NULL,
           {"shader-branch", 16, 0xf0f809e7,
            "shader1 ip 2: branch target ip 14 outside the program (9)"});
    /* a branch in the program end's delay slots continues past the end */
    REJECT("past end", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP THREND BRR(-40) NOP, NULL,
           {"shader-branch", 24, 0xf0f809e7,
            "shader1 ip 3: the path past the branch (ip 7) leaves the program"});
    REJECT("branch write", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP ".word 0, 0xf0f80827\n" NOP NOP NOP THREND NOP NOP,
           NULL, {"shader-branch", 16, 0xf0f80827, "shader1 ip 2: branch writes a register"});
    /* a uniform read at a branch target needs a uniform address reset */
    REJECT("unif after target", NULL, NULL, NULL, NULL,
           ".section shader1, 0\n" NOP NOP BRR(0) NOP NOP NOP MOV_TLBC_UNIF THREND NOP NOP, NULL,
           {"shader-uniform-address", 48, 0x10020ba7,
            "shader1 ip 6: uniform read after a branch target, before a uniforms address reset"});
    ACCEPT("unif before branch", NULL, NULL, ".section uniforms, 0\n.word 1, 2, 3\n", NULL,
           ".section shader1, 0\n" MOV_TLBC_UNIF NOP BRR(0) NOP NOP NOP THREND NOP NOP, NULL);
    /* a backward branch needs one more uniform (for its reset): the VS and
     * CS read 4 bytes each, the FS 4, so 12 bytes are too few... */
    static const char loop[] = ".section shader1, 0\n" NOP NOP NOP NOP NOP NOP BRR(-72) NOP NOP
                               NOP THREND NOP NOP;
    ACCEPT("loop", NULL, NULL, ".section uniforms, 0\n.word 1, 2, 3\n", NULL, loop, NULL);
    REJECT("loop uniforms", NULL, NULL, ".section uniforms, 0\n.word 1, 2\n", NULL, loop, NULL,
           {"uniforms-overflow", 48, 4, "record 0: the CS reads 4 bytes of uniforms, 0 left"});
}

static void test_threads(void)
{
    REJECT("thrsw pair", NULL, NULL, NULL, ".section shader0, 0\n" THRSW THRSW THREND NOP NOP,
           NULL, NULL,
           /* the FS BO is refused, so the record's thread mode is not compared */
           {"shader-thread-switch", 8, 0x200009e7,
            "shader0 ip 1: thread switch in the delay slots of the previous one"});
    ACCEPT("thrsw spaced", NULL, edit(REC, ".half 1 # flags", ".half 0"), ".section uniforms, 0\n",
           ".section shader0, 0\n" THRSW NOP NOP THRSW THREND NOP NOP, NULL, NULL);
    REJECT("branch after thrsw", NULL, edit(REC, ".half 1 # flags", ".half 0"), NULL,
           ".section shader0, 0\n" NOP NOP THRSW BRR(0) NOP NOP NOP THREND NOP NOP, NULL, NULL,
           {"shader-thread-switch", 24, 0xf0f809e7,
            "shader0 ip 3: branch in the delay slots of a thread switch"});
    /* threaded shaders use only ra0-15 / rb0-15: mov r0, ra16 */
    REJECT("upper regs", NULL, edit(REC, ".half 1 # flags", ".half 0"), ".section uniforms, 0\n",
           ".section shader0, 0\n" THRSW ".word 0x15427d80, 0x10020827\n" THREND NOP NOP, NULL,
           NULL,
           {"shader-thread-regs", 0, 0,
            "shader0: threaded, but uses the upper half of the register files"});
    ACCEPT("lower regs", NULL, edit(REC, ".half 1 # flags", ".half 0"), ".section uniforms, 0\n",
           ".section shader0, 0\n" THRSW ".word 0x153e7d80, 0x10020827\n" THREND NOP NOP, NULL,
           NULL);
    /* unthreaded shaders may use them */
    ACCEPT("upper unthreaded", NULL, NULL, ".section uniforms, 0\n",
           ".section shader0, 0\n.word 0x159e7000, 0x10020427\n" THREND NOP NOP, NULL, NULL);
}

/* Many rules broken at once: all reported, shader BOs first (the kernel
 * checks them when they are created), then the bin CL, then the records,
 * each in stream order. */
static void test_many(void)
{
    const char *bin = edit(BIN, "Viewport_Offset 0, 0", "Branch 0");
    bin = edit(bin, "0, 0, 0, 10, 8,", "0, 0, 0, 0, 8,");
    bin = edit(bin, "GEM_Handles 3, 0", "GEM_Handles 9, 0");
    REJECT("many", bin, edit(REC, ".word 0 # attribute 0 offset", ".word 36"),
           ".section uniforms, 0\n", NULL,
           ".section shader1, 0\n.word 0x009e7000, 0x000009e7\n" THREND NOP NOP, NULL,
           {"shader-signal", 0, 0x000009e7, "shader1 ip 0: signal bkpt (0) is not allowed"},
           {"bin-config-tiles", 0, 0x70, "binning 0x8 tiles: none"},
           {"packet-allowed", 30, 0x10, "Branch (opcode 16) is not allowed in a bin CL"},
           {"bo-index", 59, 0x00031420, "index buffer: BO index 9 is past the BO list (4)"},
           {"uniforms-overflow", 24, 4, "record 0: the FS reads 4 bytes of uniforms, 0 left"},
           {"attr-bounds", 52, 36,
            "record 0 attribute 0: offset 0x24 + 12 bytes run past BO 2 (36 bytes)"});
}

/* The C API directly, and input errors of the source form. */
static void test_api(void)
{
    cg_check_report r;
    cg_check_report_init(&r);
    CHECK_EQ(cg_vc4_check(NULL, &r), CG_ERR_INVAL);
    cg_vc4_submit s = {.bin_cl_size = 4};
    CHECK_EQ(cg_vc4_check(&s, &r), CG_ERR_INVAL); /* size without data */
    cg_vc4_check_bo bo = {.data = NULL, .size = 8, .shader = true};
    s = (cg_vc4_submit){.bo = &bo, .bo_count = 1};
    CHECK_EQ(cg_vc4_check(&s, &r), CG_ERR_INVAL);
    /* an empty submit: no Start_Tile_Binning, no end */
    s = (cg_vc4_submit){0};
    CHECK_EQ(cg_vc4_check(&s, &r), 0);
    CHECK_EQ(r.n, 2);
    CHECK_STR(r.v[0].rule, "start-binning-missing");
    CHECK_STR(r.v[1].rule, "end-semaphore-flush");
    cg_check_report_free(&r);

    /* 5000 Branch packets: 5000 + 2 violations, the report keeps
     * CG_CHECK_MAX and counts the rest */
    static uint8_t cl[5000 * 5];
    for (size_t i = 0; i < sizeof cl; i += 5)
        cl[i] = 16;
    s = (cg_vc4_submit){.bin_cl = cl, .bin_cl_size = sizeof cl};
    cg_check_report_init(&r);
    CHECK_EQ(cg_vc4_check(&s, &r), 0);
    CHECK_EQ(r.n, CG_CHECK_MAX);
    CHECK_EQ(r.dropped, 5002 - CG_CHECK_MAX);
    CHECK_EQ(r.checked, 5000);
    CHECK_EQ(r.v[4095].where, 4095 * 5);
    CHECK_STR(r.v[4095].rule, "packet-allowed");
    cg_check_report_free(&r);

    static const struct {
        const char *src, *err;
    } bad[] = {
        {".section text, 0\n.word 1\n",
         "no 'bin_cl' section, and no `.kick 0` to take the bin CL from"},
        {".section bin_cl, 0\nFlush\n.section bo1, 0\n.word 0\n",
         "BO 0 is missing: sections bo0/shader0 ... bo1/shader1 must all be there"},
        {".section bin_cl, 0\nFlush\n.section bo0, 0\n.section shader0, 0\n.word 0\n",
         "BO 0 is given twice (bo0 and shader0?)"},
        {".section bin_cl, 0\nFlush\n.equ shader_rec_count, -1\n",
         "shader_rec_count -1 is out of range"},
        {".section bin_cl, 0\nFlush\n.section bo65536, 0\n",
         "BO 65536: at most 65536 BOs (bo0 ... bo65535)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cg_scene *sc = scene("bad", bad[i].src);
        char err[256];
        cg_check_report_init(&r);
        CHECK_EQ(cg_vc4_check_scene(sc, &r, err, sizeof err), CG_ERR_INVAL);
        CHECK_STR(err, bad[i].err);
        cg_check_report_free(&r);
        cg_scene_destroy(sc);
    }
}

int main(void)
{
    test_base();
    test_packets();
    test_binning();
    test_shader_state();
    test_primitives();
    test_records();
    test_shaders();
    test_textures();
    test_branches();
    test_threads();
    test_many();
    test_api();
    return check_report("test_vc4_check");
}
