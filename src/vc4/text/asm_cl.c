/* vc4 family: the assembler plug-in for control lists and scenes.
 *
 * Records take the operands of the seed's macros (JayStation2 / the
 * PeterLemon/RaspberryPi CONTROL_LIST.INC macros it uses), one per field or
 * per macro slot (cl.def A lines: `address + data` operands add into one
 * word), or the disassembler's named form `{Field=value, ...}`. Compressed
 * list items: Coding_0 flag, d | Coding_1 d0, d1, d2 | Coding_2 i0, d1, d2 |
 * Coding_3 i0, i1, i2 | Escape | Relative_Branch n.
 *
 * Predefined symbols: the seed's mailbox tag names, clock ids and the
 * CONTROL_LIST.INC constants. Where CONTROL_LIST.INC writes enums as
 * one-hot masks (Mode_Triangles = $10, Primitive_Type_Triangles = $04), the
 * values here follow the hardware numbering of Mesa's v3d_packet_v21.xml,
 * hackdriver and the blob (research/vc4.md section 5, "Caution"). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "vc4/scene.h"

/* Mnemonic lookup (issue 17 part 5): an open-addressing hash table of every
 * record's name and alias, built once from the cl.def table through
 * vc4_record_at, so a statement costs one hash and about one strcmp instead
 * of a scan over every record. A name found twice keeps its first record,
 * as the scan did. */
enum { NAME_SLOTS = 1024 }; /* a power of two, over twice the names */
static struct {
    const char *name;
    size_t rec;
} name_tab[NAME_SLOTS];
static pthread_once_t name_once = PTHREAD_ONCE_INIT;
static bool name_tab_off; /* the table outgrew NAME_SLOTS: scan instead */

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* 32-bit FNV-1a */
    while (*s)
        h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}

static void name_insert(const char *s, size_t rec)
{
    if (!s || !*s)
        return;
    for (uint32_t h = name_hash(s);; h++) {
        h &= NAME_SLOTS - 1;
        if (!name_tab[h].name) {
            name_tab[h].name = s;
            name_tab[h].rec = rec;
            return;
        }
        if (strcmp(name_tab[h].name, s) == 0)
            return;
    }
}

static void name_tab_build(void)
{
    size_t n = vc4_record_count();
    if (2 * n >= NAME_SLOTS) {
        name_tab_off = true;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        vc4_record r;
        if (vc4_record_at(i, &r)) {
            name_insert(r.name, i);
            name_insert(r.alias, i);
        }
    }
}

static bool record_by_name(const char *name, vc4_record *out)
{
    pthread_once(&name_once, name_tab_build);
    if (name_tab_off)
        return vc4_record_find(name, out);
    for (uint32_t h = name_hash(name);; h++) {
        h &= NAME_SLOTS - 1;
        if (!name_tab[h].name)
            return false;
        if (strcmp(name_tab[h].name, name) == 0)
            return vc4_record_at(name_tab[h].rec, out);
    }
}

static const struct {
    const char *name;
    int64_t value;
} vc4_syms[] = {
    /* mailbox property tags (research/vc4.md section 5) */
    {"Get_Firmware_Revision", 0x1}, {"Get_Board_Model", 0x10001}, {"Get_Board_Revision", 0x10002},
    {"Allocate_Memory", 0x3000C}, {"Lock_Memory", 0x3000D}, {"Unlock_Memory", 0x3000E},
    {"Release_Memory", 0x3000F}, {"Execute_QPU", 0x30011}, {"Enable_QPU", 0x30012},
    {"Get_Clock_Rate", 0x30002}, {"Set_Clock_Rate", 0x38002}, {"Allocate_Buffer", 0x40001},
    {"Get_Physical_Display", 0x40003}, {"Get_Virtual_Buffer", 0x40004}, {"Get_Depth", 0x40005},
    {"Get_Pitch", 0x40008}, {"Get_Virtual_Offset", 0x40009}, {"Release_Buffer", 0x48001},
    {"Set_Physical_Display", 0x48003}, {"Set_Virtual_Buffer", 0x48004}, {"Set_Depth", 0x48005},
    {"Set_Virtual_Offset", 0x48009},
    {"CLK_ARM_ID", 3}, {"CLK_CORE_ID", 4}, {"CLK_V3D_ID", 5},
    {"MAIL_TAGS", 8}, {"MAIL_BASE", 0xB880}, {"V3D_BASE", 0xC00000},
    /* primitive modes: hardware numbering (0 points .. 6 triangle fan) */
    {"Mode_Points", 0}, {"Mode_Lines", 1}, {"Mode_Line_Loop", 2}, {"Mode_Line_Strip", 3},
    {"Mode_Triangles", 4}, {"Mode_Triangle_Strip", 5}, {"Mode_Triangle_Fan", 6},
    {"Index_Type_8", 0x00}, {"Index_Type_16", 0x10},
    {"Primitive_Type_Points", 0}, {"Primitive_Type_Lines", 1}, {"Primitive_Type_Triangles", 2},
    {"Primitive_Type_RHT", 3}, {"Data_Type_Index_16", 0x10}, {"Data_Type_XY_32", 0x30},
    /* Tile_Binning_Mode_Configuration flags */
    {"Multisample_Mode_4X", 1}, {"Buffer_Color_Depth_64", 2},
    {"Auto_Initialise_Tile_State_Data_Array", 4}, {"Auto_Init_Tile_State_Data", 4},
    {"Tile_Allocation_Initial_Block_Size_32", 0x00}, {"Tile_Allocation_Initial_Block_Size_64", 0x08},
    {"Tile_Allocation_Initial_Block_Size_128", 0x10}, {"Tile_Allocation_Initial_Block_Size_256", 0x18},
    {"Tile_Allocation_Block_Size_32", 0x00}, {"Tile_Allocation_Block_Size_64", 0x20},
    {"Tile_Allocation_Block_Size_128", 0x40}, {"Tile_Allocation_Block_Size_256", 0x60},
    {"Double_Buffer_In_Non_MS_Mode", 0x80},
    /* Tile_Rendering_Mode_Configuration flags */
    {"Frame_Buffer_Color_Format_BGR565_Dithered", 0x0}, {"Frame_Buffer_Color_Format_RGBA8888", 0x4},
    {"Frame_Buffer_Color_Format_BGR565_No_Dither", 0x8}, {"Decimate_Mode_1X", 0},
    {"Decimate_Mode_4X", 0x10}, {"Decimate_Mode_16X", 0x20}, {"Memory_Format_Linear", 0},
    {"Memory_Format_T_Format", 0x40}, {"Memory_Format_LT_Format", 0x80},
    {"Enable_VG_Mask_Buffer", 0x100}, {"Select_Coverage_Mode", 0x200},
    {"Early_Z_Update_Direction_LT_LE", 0}, {"Early_Z_Update_Direction_GT_GE", 0x400},
    {"Early_Z_Early_Cov_Disable", 0x800},
    /* Configuration_Bits: first operand (bits 7:0), second (bits 23:8) */
    {"Enable_Forward_Facing_Primitive", 0x01}, {"Enable_Reverse_Facing_Primitive", 0x02},
    {"Clockwise_Primitives", 0x04}, {"Enable_Depth_Offset", 0x08},
    {"Antialiased_Points_Lines", 0x10}, {"Coverage_Read_Type_Level_4_8", 0},
    {"Coverage_Read_Type_Mask_16", 0x20}, {"Rasteriser_Oversample_Mode_None", 0},
    {"Rasteriser_Oversample_Mode_4X", 0x40}, {"Rasteriser_Oversample_Mode_16X", 0x80},
    {"Coverage_Pipe_Select", 0x1}, {"Coverage_Read_Mode_Clear_On_Read", 0},
    {"Coverage_Read_Mode_Leave_On_Read", 0x8},
    {"Depth_Test_Function_Never", 0x00}, {"Depth_Test_Function_LT", 0x10},
    {"Depth_Test_Function_EQ", 0x20}, {"Depth_Test_Function_LE", 0x30},
    {"Depth_Test_Function_GT", 0x40}, {"Depth_Test_Function_NE", 0x50},
    {"Depth_Test_Function_GE", 0x60}, {"Depth_Test_Function_Always", 0x70},
    {"Z_Updates_Enable", 0x80}, {"Early_Z_Enable", 0x100}, {"Early_Z_Updates_Enable", 0x200},
    /* Store/Load_Tile_Buffer_General */
    {"Store_None", 0}, {"Store_Color", 1}, {"Store_Z_Stencil", 2}, {"Store_Z_Only", 3},
    {"Store_VG_Mask", 4}, {"Store_Full_Dump", 5}, {"Load_None", 0}, {"Load_Color", 1},
    {"Load_Z_Stencil", 2}, {"Load_VG_Mask", 4}, {"Load_Full_Reload", 5},
    {"Format_Raster", 0}, {"Format_T", 0x10}, {"Format_LT", 0x20}, {"Mode_Sample", 0},
    {"Mode_Decimate_4X", 0x40}, {"Mode_Decimate_16X", 0x80}, {"Color_Format_RGBA8888", 0},
    {"Color_Format_BGR565_Dithered", 0x100}, {"Color_Format_BGR565_No_Dither", 0x200},
    {"Disable_Double_Buffer_Swap", 0x1000}, {"Disable_Color_Buffer_Clear", 0x2000},
    {"Disable_Z_Stencil_Buffer_Clear", 0x4000}, {"Disable_VG_Mask_Buffer_Clear", 0x8000},
    {"Disable_Color_Buffer_Dump", 1}, {"Disable_Z_Stencil_Buffer_Dump", 2},
    {"Disable_VG_Mask_Buffer_Dump", 4}, {"Last_Tile_Of_Frame", 8},
    {"Disable_Color_Buffer_Load", 1}, {"Disable_Z_Stencil_Buffer_Load", 2},
    {"Disable_VG_Mask_Buffer_Load", 4},
    /* Store_Full_Resolution / Re_Load_Full_Resolution */
    {"Disable_Color_Buffer_Write", 1}, {"Disable_Z_Stencil_Buffer_Write", 2},
    {"Disable_Clear_On_Write", 4}, {"Disable_Color_Buffer_Read", 1},
    {"Disable_Z_Stencil_Buffer_Read", 2},
};

int cg_vc4_asm_create(cg_vc4_asm **out)
{
    if (!out)
        return CG_ERR_INVAL;
    *out = calloc(1, sizeof **out);
    return *out ? 0 : CG_ERR_NOMEM;
}

void cg_vc4_asm_destroy(cg_vc4_asm *st)
{
    free(st);
}

static void begin_pass(cg_asm *as, void *user, int pass, bool final)
{
    cg_vc4_asm *st = user;
    (void)pass;
    st->final = final;
    st->nacts = 0;
    st->cpu_cached = false;
    if (final && st->scene) {
        cg_scene_clear(st->scene);
        cg_scene_set_config(st->scene, VC4_CFG_CPU_CACHED, 0);
    }
    for (size_t i = 0; i < CG_ARRAY_SIZE(vc4_syms); i++)
        cg_asm_define(as, vc4_syms[i].name, vc4_syms[i].value);
}

static bool fits(int64_t v, unsigned width)
{
    if (width >= 64)
        return true;
    return v >= -(int64_t)(1ull << (width - 1)) && v < (int64_t)(1ull << width);
}

/* A directive's action, in the final pass (a's strings are copied). */
static int add_action(cg_asm *as, cg_vc4_asm *st, cg_scene_action *a)
{
    if (!st->final)
        return 0;
    /* the limit of the list this replaced: its growth stopped at 2^16 */
    if (st->nacts == 65536)
        return cg_asm_error(as, "too many scene directives");
    st->nacts++;
    if (!st->scene)
        return 0;
    a->type = cg_scene_kind_of(&cg_vc4_family, a->kind)->role;
    return cg_scene_add_action(st->scene, a) == 0 ? 0 : cg_asm_error(as, "out of memory");
}

static int record(cg_asm *as, const vc4_record *r)
{
    uint8_t rec[16] = {0};
    rec[0] = r->opcode;
    uint8_t *pl = rec + 1;
    if (cg_asm_eol(as))
        goto emit;
    char id[256];
    if (cg_asm_accept(as, '{')) {
        /* named form: {Field=value, ...} */
        if (!cg_asm_accept(as, '}')) {
            do {
                int rc = cg_asm_ident(as, id, sizeof id);
                if (rc)
                    return rc;
                const vc4_field *f = NULL;
                for (unsigned i = 0; i < r->nfields; i++)
                    if (strcmp(r->fields[i].name, id) == 0 || strcmp(r->fields[i].alias, id) == 0)
                        f = &r->fields[i];
                if (!f)
                    return cg_asm_error(as, "%s has no field '%s'", r->name, id);
                if ((rc = cg_asm_expect(as, '=')))
                    return rc;
                int64_t v;
                uint64_t ev;
                char en[64];
                if (cg_asm_peek_ident(as, en, sizeof en) && vc4_field_enum_value(f, en, &ev)) {
                    cg_asm_ident(as, en, sizeof en); /* the field's enum value name */
                    v = (int64_t)ev;
                } else if ((rc = cg_asm_expr(as, &v))) {
                    return rc;
                }
                if (f->type == VC4_FT_A && f->width < 32) {
                    unsigned sh = 32 - f->width;
                    if (v & ((1ll << sh) - 1))
                        return cg_asm_error(as, "%s=0x%llx is not a multiple of %u", f->name,
                                            (unsigned long long)v, 1u << sh);
                    v = (int64_t)((uint64_t)v >> sh);
                }
                if (!fits(v, f->width))
                    return cg_asm_error(as, "%s=%lld does not fit in %u bits", f->name,
                                        (long long)v, f->width);
                vc4_bits_set(pl, f->bit, f->width, (uint64_t)v);
            } while (cg_asm_accept(as, ','));
            int rc = cg_asm_expect(as, '}');
            if (rc)
                return rc;
        }
        goto emit;
    }
    {
        /* positional: one operand per slot (or per field) */
        unsigned n = r->slots ? r->nslots : r->nfields;
        for (unsigned i = 0; i < n; i++) {
            if (i && cg_asm_expect(as, ',') != 0)
                return CG_ERR_SYNTAX;
            int64_t v;
            int rc = cg_asm_expr(as, &v);
            if (rc)
                return rc;
            unsigned bit, width;
            if (r->slots)
                bit = r->slots[i].bit, width = r->slots[i].width;
            else
                bit = r->fields[i].bit, width = r->fields[i].width;
            if (!fits(v, width))
                return cg_asm_error(as, "operand %u of %s (%lld) does not fit in %u bits", i + 1,
                                    r->name, (long long)v, width);
            uint64_t cur = vc4_bits_get(pl, bit, width);
            vc4_bits_set(pl, bit, width, cur + (uint64_t)v);
        }
        if (!cg_asm_eol(as))
            return cg_asm_error(as, "%s takes %u operands", r->name, n);
    }
emit:
    return cg_asm_emit(as, rec, r->size);
}

static int exprs(cg_asm *as, int64_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i && cg_asm_expect(as, ',') != 0)
            return CG_ERR_SYNTAX;
        int rc = cg_asm_expr(as, &v[i]);
        if (rc)
            return rc;
    }
    return 0;
}

static int coding(cg_asm *as, const char *name)
{
    int64_t v[3] = {0, 0, 0};
    uint8_t b[7];
    unsigned n;
    int rc;
    if (strcmp(name, "Escape") == 0) {
        b[0] = 0x80;
        return cg_asm_emit(as, b, 1);
    }
    if (strcmp(name, "Relative_Branch") == 0) {
        if ((rc = exprs(as, v, 1)))
            return rc;
        if (v[0] < -32768 || v[0] > 32767)
            return cg_asm_error(as, "relative branch %lld out of s16 range", (long long)v[0]);
        b[0] = 0x82, b[1] = (uint8_t)v[0], b[2] = (uint8_t)((uint64_t)v[0] >> 8);
        return cg_asm_emit(as, b, 3);
    }
    int c = name[7] - '0';
    if ((rc = exprs(as, v, c == 0 ? 2 : 3)))
        return rc;
    switch (c) {
    case 0:
        if (v[0] < 0 || v[0] > 2 || v[1] < -31 || v[1] > 31 || (v[0] == 0 && v[1] == -32))
            return cg_asm_error(as, "Coding_0 takes flag 0..2 and d -31..31");
        b[0] = (uint8_t)(v[0] | (((uint64_t)v[1] & 0x3F) << 2));
        n = 1;
        break;
    case 1:
        for (int i = 0; i < 3; i++)
            if (v[i] < -8 || v[i] > 7)
                return cg_asm_error(as, "Coding_1 deltas are -8..7");
        {
            uint32_t w = 3u | ((uint32_t)v[0] & 0xF) << 4 | ((uint32_t)v[1] & 0xF) << 8 |
                         ((uint32_t)v[2] & 0xF) << 12;
            b[0] = (uint8_t)w, b[1] = (uint8_t)(w >> 8);
        }
        n = 2;
        break;
    case 2:
        if (v[0] < 0 || v[0] > 0xFFFF || v[1] < -32 || v[1] > 31 || v[2] < -32 || v[2] > 31)
            return cg_asm_error(as, "Coding_2 takes i0 0..65535 and d1, d2 -32..31");
        {
            uint32_t w = 0xFu | ((uint32_t)v[1] & 0x3F) << 4 | ((uint32_t)v[2] & 0x3F) << 10 |
                         (uint32_t)v[0] << 16;
            for (int k = 0; k < 4; k++)
                b[k] = (uint8_t)(w >> (8 * k));
        }
        n = 4;
        break;
    default:
        for (int i = 0; i < 3; i++)
            if (v[i] < 0 || v[i] > 0xFFFF)
                return cg_asm_error(as, "Coding_3 indices are 0..65535");
        b[0] = 0x81;
        for (int i = 0; i < 3; i++)
            b[1 + 2 * i] = (uint8_t)v[i], b[2 + 2 * i] = (uint8_t)((uint64_t)v[i] >> 8);
        n = 7;
        break;
    }
    return cg_asm_emit(as, b, n);
}

static int reg_operand(cg_asm *as, int64_t *v)
{
    char id[64];
    uint32_t off;
    if (cg_asm_peek_ident(as, id, sizeof id) && cg_vc4_reg_from_name(id, &off) == 0) {
        cg_asm_ident(as, id, sizeof id);
        *v = off;
        return 0;
    }
    return cg_asm_expr(as, v);
}

static int directive(cg_asm *as, cg_vc4_asm *st, const char *name)
{
    cg_scene_action a;
    memset(&a, 0, sizeof a);
    char text[VC4_TEXT_MAX + 1];
    int rc;
    if (strcmp(name, ".mailbox") == 0) {
        /* .mailbox ADDR [, CODE]: CODE is the response code the call must
         * leave in the buffer (default 0x80000000, success) */
        a.kind = VA_MAILBOX;
        a.b = 0x80000000u;
        if ((rc = exprs(as, &a.a, 1)) == 0 && cg_asm_accept(as, ','))
            rc = cg_asm_expr(as, &a.b);
    } else if (strcmp(name, ".reg") == 0 || strcmp(name, ".expect_reg") == 0) {
        a.kind = name[1] == 'r' ? VA_REG : VA_EXPECT_REG;
        if ((rc = reg_operand(as, &a.a)) == 0 && (rc = cg_asm_expect(as, ',')) == 0)
            rc = cg_asm_expr(as, &a.b);
    } else if (strcmp(name, ".kick") == 0) {
        a.kind = VA_KICK;
        int64_t v[3];
        if ((rc = exprs(as, v, 3)) == 0) {
            a.a = v[0], a.b = v[1], a.c = v[2];
            if (a.a != 0 && a.a != 1)
                return cg_asm_error(as, ".kick: thread 0 (binning) or 1 (rendering)");
        }
    } else if (strcmp(name, ".wait") == 0) {
        a.kind = VA_WAIT;
        char id[16];
        if ((rc = cg_asm_ident(as, id, sizeof id)))
            return rc;
        if (strcmp(id, "idle") == 0) {
            a.a = 2;
        } else if (strcmp(id, "bfc") == 0 || strcmp(id, "rfc") == 0) {
            a.a = id[0] == 'r';
            if ((rc = cg_asm_expect(as, ',')) || (rc = cg_asm_expr(as, &a.b)))
                return rc;
        } else {
            return cg_asm_error(as, ".wait bfc, N | .wait rfc, N | .wait idle");
        }
    } else if (strcmp(name, ".copy32") == 0 || strcmp(name, ".write32") == 0 ||
               strcmp(name, ".flush") == 0 || strcmp(name, ".expect32") == 0 ||
               strcmp(name, ".dump") == 0) {
        a.kind = name[1] == 'c' ? VA_COPY32 : name[1] == 'w' ? VA_WRITE32
                 : name[1] == 'f' ? VA_FLUSH : name[2] == 'x' ? VA_EXPECT32 : VA_DUMP;
        int64_t v[2];
        if ((rc = exprs(as, v, 2)) == 0)
            a.a = v[0], a.b = v[1];
    } else if (strcmp(name, ".dump_cl") == 0) {
        a.kind = VA_DUMP_CL;
        if ((rc = cg_asm_expr(as, &a.a)) == 0) {
            a.b = 4096;
            if (cg_asm_accept(as, ','))
                rc = cg_asm_expr(as, &a.b);
        }
    } else if (strcmp(name, ".png") == 0) {
        a.kind = VA_PNG;
        size_t len;
        if ((rc = cg_asm_string(as, text, sizeof text, &len)))
            return rc;
        a.str1 = text;
        a.str1_len = strlen(text);
        if (cg_asm_accept(as, ',')) {
            int64_t v[5];
            if ((rc = exprs(as, v, 5)))
                return rc;
            a.a = v[0], a.b = v[1], a.c = v[2], a.d = v[3], a.e = v[4];
            a.n = 5;
        }
    } else if (strcmp(name, ".expect_hash") == 0) {
        a.kind = VA_EXPECT_HASH;
        rc = cg_asm_expr(as, &a.a);
    } else if (strcmp(name, ".cpu_cache") == 0) {
        int64_t v;
        if ((rc = cg_asm_expr(as, &v)) == 0) {
            st->cpu_cached = v != 0;
            if (st->final && st->scene)
                cg_scene_set_config(st->scene, VC4_CFG_CPU_CACHED, st->cpu_cached);
        }
        return rc;
    } else {
        return CG_ERR_NOENT;
    }
    if (rc)
        return rc;
    return add_action(as, st, &a);
}

static int statement(cg_asm *as, void *user, const char *name)
{
    cg_vc4_asm *st = user;
    if (name[0] == '.')
        return st ? directive(as, st, name) : CG_ERR_NOENT;
    vc4_record r;
    if (record_by_name(name, &r))
        return record(as, &r);
    if (strcmp(name, "Escape") == 0 || strcmp(name, "Relative_Branch") == 0 ||
        (strncmp(name, "Coding_", 7) == 0 && name[7] >= '0' && name[7] <= '3' && !name[8]))
        return coding(as, name);
    return CG_ERR_NOENT;
}

static void begin_pass_any(cg_asm *as, void *user, int pass, bool final)
{
    if (user)
        begin_pass(as, user, pass, final);
    else
        for (size_t i = 0; i < CG_ARRAY_SIZE(vc4_syms); i++)
            cg_asm_define(as, vc4_syms[i].name, vc4_syms[i].value);
}

static const cg_asm_family vc4_family = {"vc4-cl", statement, begin_pass_any};

const cg_asm_family *cg_vc4_asm_family(void) { return &vc4_family; }

static void free_state(void *st) { cg_vc4_asm_destroy(st); }

int vc4_scene_assembler(const cg_text_opts *o, cg_scene *sc, cg_asm **out)
{
    (void)o;
    cg_vc4_asm *st = NULL;
    int rc = cg_vc4_asm_create(&st);
    if (!rc && (rc = cg_asm_create(&vc4_family, st, out)) != 0)
        cg_vc4_asm_destroy(st);
    if (rc)
        return rc;
    st->scene = sc;
    cg_asm_own_user(*out, free_state);
    return 0;
}
