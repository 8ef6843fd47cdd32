/* vc4 control-list records: the table (cl.def) checked like every family's
 * table, record sizes against research/vc4.md section 1, the compressed
 * primitive codings byte for byte, field decoding, and the disassembler /
 * assembler round trip. */
#include <stdlib.h>
#include "check.h"
#include "core/def.h"
#include "vc4/vc4_internal.h"

static size_t assemble(const char *src, uint8_t *out, size_t cap)
{
    cg_vc4_asm *st;
    cg_asm *as;
    size_t n = 0;
    if (cg_vc4_asm_create(&st) || cg_asm_create(cg_vc4_asm_family(), st, &as))
        return 0;
    cg_asm_add_source(as, "t.s", src, strlen(src));
    if (cg_asm_assemble(as) == 0 && cg_asm_section_count(as) > 0) {
        const char *nm;
        uint64_t base;
        const uint8_t *d;
        cg_asm_section(as, 0, &nm, &base, &d, &n);
        if (n > cap)
            n = 0;
        else
            memcpy(out, d, n);
    } else {
        fputs(cg_asm_errors(as), stderr);
    }
    cg_asm_destroy(as);
    cg_vc4_asm_destroy(st);
    return n;
}

static void test_table(void)
{
    size_t n = vc4_record_count();
    cg_def_entry *e = calloc(n, sizeof *e);
    for (size_t i = 0; i < n; i++) {
        vc4_record r;
        CHECK(vc4_record_at(i, &r));
        e[i] = (cg_def_entry){r.name, r.opcode, 1, 0, 0, NULL, 0};
        /* fields inside the payload, no overlaps, unique names */
        unsigned bits = (r.size - 1) * 8u;
        for (unsigned f = 0; f < r.nfields; f++) {
            const vc4_field *a = &r.fields[f];
            CHECK(a->width >= 1 && a->width <= 64);
            if (a->bit + a->width > bits)
                fprintf(stderr, "%s.%s runs past the payload\n", r.name, a->name);
            CHECK(a->bit + a->width <= bits);
            for (unsigned g = 0; g < f; g++) {
                const vc4_field *b = &r.fields[g];
                CHECK(strcmp(a->name, b->name) != 0);
                CHECK(a->bit >= b->bit + b->width || b->bit >= a->bit + a->width);
                CHECK(a->bit > b->bit); /* payload order */
            }
        }
        for (unsigned s = 0; s < r.nslots; s++)
            CHECK(r.slots[s].bit + r.slots[s].width <= bits);
        /* lookups agree */
        vc4_record r2;
        CHECK(vc4_record_get(r.opcode, &r2) && strcmp(r2.name, r.name) == 0);
        CHECK_EQ(cg_vc4_cl_opcode(r.name), r.opcode);
    }
    char report[1024] = "";
    CHECK_EQ(cg_def_check("vc4_cl", e, n, report, sizeof report), 0);
    if (report[0])
        fputs(report, stderr);
    free(e);
    /* sizes: research/vc4.md section 1 (vc4_packet.h) */
    static const struct { uint8_t op, size; } sizes[] = {
        {0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1}, {16, 5},
        {17, 5}, {18, 1}, {24, 1}, {25, 1}, {26, 5}, {27, 5}, {28, 7}, {29, 7}, {32, 14},
        {33, 10}, {41, 10}, {48, 1}, {49, 5}, {56, 2}, {64, 5}, {65, 5}, {66, 5}, {67, 9},
        {96, 4}, {97, 5}, {98, 5}, {99, 5}, {100, 3}, {101, 5}, {102, 9}, {103, 5},
        {104, 9}, {105, 9}, {106, 9}, {112, 16}, {113, 11}, {114, 14}, {115, 3}, {254, 9}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        CHECK_EQ(cg_vc4_cl_size(sizes[i].op), sizes[i].size);
    CHECK_EQ(cg_vc4_cl_size(9), 0);
    CHECK_EQ(cg_vc4_cl_size(255), 0);
    CHECK(cg_vc4_cl_name(200) == NULL);
    CHECK_STR(cg_vc4_cl_name(115), "Tile_Coordinates");
}

static void test_codings(void)
{
    uint8_t b[7];
    uint32_t z[3] = {0, 0, 0};
    /* first triangle of a list: coding 2 (the seed's dump) */
    uint32_t t0[3] = {0, 1, 2};
    CHECK_EQ(cg_vc4_prim_encode(z, t0, true, b), 4);
    CHECK_EQ(b[0], 0x1F); /* 0xF | d1 = 1 << 4 */
    CHECK_EQ(b[1], 0x08); /* d2 = 2 at [15:10] */
    CHECK_EQ(b[2], 0);
    CHECK_EQ(b[3], 0);
    /* then (3,4,5) after (0,1,2): coding 1, deltas 3,3,3 (the dump's next items) */
    uint32_t t1[3] = {3, 4, 5};
    CHECK_EQ(cg_vc4_prim_encode(t0, t1, false, b), 2);
    CHECK_EQ(b[0], 0x33);
    CHECK_EQ(b[1], 0x33);
    cg_vc4_prim_item it;
    CHECK_EQ(cg_vc4_prim_decode(b, 2, t0, &it), 2);
    CHECK_EQ(it.kind, 1);
    CHECK(it.tri[0] == 3 && it.tri[1] == 4 && it.tri[2] == 5);
    /* strip continuation (2,1,3) after (0,1,2): coding 0, flag 0, d 1 */
    uint32_t t2[3] = {2, 1, 3};
    CHECK_EQ(cg_vc4_prim_encode(t0, t2, false, b), 1);
    CHECK_EQ(b[0], 0x04);
    CHECK_EQ(cg_vc4_prim_decode(b, 1, t0, &it), 1);
    CHECK(it.kind == 0 && it.tri[0] == 2 && it.tri[1] == 1 && it.tri[2] == 3);
    /* far apart: coding 3 */
    uint32_t t3[3] = {1000, 2000, 40000};
    CHECK_EQ(cg_vc4_prim_encode(t0, t3, false, b), 7);
    CHECK_EQ(b[0], 0x81);
    CHECK_EQ(cg_vc4_prim_decode(b, 7, t0, &it), 7);
    CHECK(it.kind == 3 && it.tri[0] == 1000 && it.tri[1] == 2000 && it.tri[2] == 40000);
    uint32_t big[3] = {0, 1, 70000};
    CHECK_EQ(cg_vc4_prim_encode(t0, big, false, b), 0);
    /* escape, branch, truncation */
    uint8_t esc = 0x80, br[3] = {0x82, 0x45, 0x00};
    CHECK_EQ(cg_vc4_prim_decode(&esc, 1, z, &it), 1);
    CHECK_EQ(it.kind, 4);
    CHECK_EQ(cg_vc4_prim_decode(br, 3, z, &it), 3);
    CHECK(it.kind == 5 && it.branch == 0x45);
    CHECK_EQ(cg_vc4_prim_decode(br, 2, z, &it), 0);
    /* every encodable triangle decodes back */
    uint32_t prev[3] = {100, 101, 102};
    for (uint32_t a = 90; a < 115; a += 3)
        for (uint32_t c = 95; c < 140; c += 5) {
            uint32_t tri[3] = {a, c, (a + c) / 2};
            unsigned n = cg_vc4_prim_encode(prev, tri, false, b);
            CHECK(n > 0 && cg_vc4_prim_decode(b, n, prev, &it) == n);
            CHECK(it.tri[0] == tri[0] && it.tri[1] == tri[1] && it.tri[2] == tri[2]);
        }
}

static const char *all_records =
    "Halt\nNo_Op\nMarker\nReset_Marker_Count\nFlush\nFlush_All_State\nStart_Tile_Binning\n"
    "Increment_Semaphore\nWait_On_Semaphore\nBranch 0x12345678\nBranch_To_Sub_List 0x400200\n"
    "Return_From_Sub_List\nStore_Multi_Sample\nStore_Multi_Sample_End\n"
    "Store_Full_Resolution Disable_Z_Stencil_Buffer_Write + Last_Tile_Of_Frame, 0x100000\n"
    "Re_Load_Full_Resolution Disable_Color_Buffer_Read, 0x200010\n"
    "Store_Tile_Buffer_General Store_Color + Format_LT + Color_Format_BGR565_No_Dither, "
    "Last_Tile_Of_Frame, 0xC1000000\n"
    "Load_Tile_Buffer_General Load_Z_Stencil, Disable_Color_Buffer_Load, 0x3000\n"
    "Indexed_Primitive_List Mode_Triangles + Index_Type_16, 6, 0x5000, 5\n"
    "Vertex_Array_Primitives Mode_Triangle_Strip, 4, 2\n"
    "VG_Coordinate_Array_Primitives 2, 3, 0x6000\n"
    "Compressed_Primitive_List\nCoding_2 7, 1, -2\nCoding_1 1, -1, 7\nCoding_0 2, -5\n"
    "Coding_3 1, 2, 65535\nEscape\n"
    "Clipped_Primitive_With_Compressed_Primitive_List 5, 0x7008\nEscape\n"
    "Primitive_List_Format Primitive_Type_Triangles + Data_Type_Index_16\n"
    "GL_Shader_State 3, 0x8000\nNV_Shader_State 0x9010\nVG_Shader_State 0x9020\n"
    "VG_Inline_Shader_Record 1, 0xA008, 0xB000\n"
    "Configuration_Bits Enable_Forward_Facing_Primitive + Clockwise_Primitives, "
    "Depth_Test_Function_LE + Z_Updates_Enable + Early_Z_Enable\n"
    "Flat_Shade_Flags 0x5\nPoint_Size 0x3f800000\nLine_Width 0x40000000\nRHT_X_Boundary -7\n"
    "Depth_Offset 0x3f80, 0x4000\nClip_Window 1, 2, 300, 400\nViewport_Offset -16, 32\n"
    "Z_Min_Max_Clipping_Planes 0, 0x3f800000\nClipper_XY_Scaling 0x45a00000, 0x45700000\n"
    "Clipper_Z_Scale_Offset 0x3f000000, 0x3f000000\n"
    "Tile_Binning_Mode_Configuration 0x400000, 0x8000, 0x500000, 10, 8, "
    "Auto_Init_Tile_State_Data + Tile_Allocation_Block_Size_128\n"
    "Tile_Rendering_Mode_Configuration 0xC2000000, 640, 480, "
    "Frame_Buffer_Color_Format_RGBA8888 + Memory_Format_LT_Format\n"
    "Clear_Colors 0xFF00FFFF, 0x123456, 0x78, 0x9A\nTile_Coordinates 6, 1\n"
    "GEM_Handles 1, 2\nCompressed_Primitive_List\nCoding_0 1, 3\nRelative_Branch -3\n";

static void test_asm_bytes(void)
{
    uint8_t b[64];
    size_t n = assemble("Tile_Binning_Mode_Configuration 0x400000, 0x8000, 0x500000, 10, 8, "
                        "Auto_Init_Tile_State_Data\n", b, sizeof b);
    static const uint8_t want[16] = {0x70, 0x00, 0x00, 0x40, 0x00, 0x00, 0x80, 0x00, 0x00,
                                     0x00, 0x00, 0x50, 0x00, 0x0a, 0x08, 0x04};
    CHECK_EQ(n, 16);
    CHECK_MEM(b, want, 16);
    n = assemble("Configuration_Bits Enable_Forward_Facing_Primitive + "
                 "Enable_Reverse_Facing_Primitive, Early_Z_Updates_Enable\n", b, sizeof b);
    static const uint8_t cfg[4] = {0x60, 0x03, 0x00, 0x02};
    CHECK_EQ(n, 4);
    CHECK_MEM(b, cfg, 4);
    /* named and positional forms agree */
    n = assemble("Clear_Colors 0xFF00FFFF, 0, 0, 0\n"
                 "Clear_Colors {Clear_Color=0xFF00FFFF}\n", b, sizeof b);
    CHECK_EQ(n, 28);
    CHECK_MEM(b, b + 14, 14);
    n = assemble("Store_Tile_Buffer_General 0, 0, 0\n", b, sizeof b);
    static const uint8_t sg[7] = {0x1c, 0, 0, 0, 0, 0, 0};
    CHECK_EQ(n, 7);
    CHECK_MEM(b, sg, 7);
    /* a field decodes with its shift */
    vc4_record r;
    CHECK(vc4_record_find("Store_Tile_Buffer_General", &r));
    n = assemble("Store_Tile_Buffer_General Store_Color, Last_Tile_Of_Frame, 0xC1000000\n", b,
                 sizeof b);
    CHECK_EQ(n, 7);
    for (unsigned i = 0; i < r.nfields; i++) {
        uint64_t v = vc4_field_value(&r.fields[i], b + 1);
        if (strcmp(r.fields[i].name, "Memory_base_address_of_frame_tile_dump_buffer") == 0)
            CHECK_EQ(v, 0xC1000000u);
        if (strcmp(r.fields[i].name, "Last_Tile_of_Frame") == 0)
            CHECK_EQ(v, 1);
        if (strcmp(r.fields[i].name, "Buffer_to_Store") == 0)
            CHECK_EQ(v, 1);
    }
    /* errors */
    CHECK_EQ(assemble("Tile_Coordinates 300, 0\n", b, sizeof b), 0);
    CHECK_EQ(assemble("Tile_Coordinates {Nope=1}\n", b, sizeof b), 0);
    CHECK_EQ(assemble("Branch_To_Sub_List\n", b, sizeof b), 5); /* no operands: zeros */
}

static void test_roundtrip(void)
{
    static uint8_t b1[4096], b2[4096];
    size_t n1 = assemble(all_records, b1, sizeof b1);
    CHECK(n1 > 200);
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    cg_vc4_disasm_opts o = {.base = 0x1000, .prim_format = 0x12};
    int bad = cg_vc4_cl_disasm(&o, b1, n1, f);
    fclose(f);
    CHECK_EQ(bad, 0);
    size_t n2 = assemble(text, b2, sizeof b2);
    CHECK_EQ(n2, n1);
    CHECK_MEM(b1, b2, n1);
    CHECK(strstr(text, "// 0x00001000: command number 0x00 (0), Halt") != NULL);
    CHECK(strstr(text, "Tile_Coordinates {Tile_Column_Number=6, Tile_Row_Number=1}") != NULL);
    CHECK(strstr(text, "coding 2, absolute index and two differences: triangle (7, 8, 5)") != NULL);
    if (n2 != n1 || memcmp(b1, b2, n1))
        fputs(text, stderr);
    free(text);
    /* unknown opcodes, reserved bits and truncation survive the round trip */
    static const uint8_t odd[] = {0x09, 0x73, 0x01, 0x02, 0x60, 0x00, 0x10, 0x00,
                                  0x1c, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x01};
    text = NULL;
    f = open_memstream(&text, &tlen);
    bad = cg_vc4_cl_disasm(&o, odd, sizeof odd, f);
    fclose(f);
    CHECK_EQ(bad, 2); /* unknown 0x09, truncated Branch */
    n2 = assemble(text, b2, sizeof b2);
    CHECK_EQ(n2, sizeof odd);
    CHECK_MEM(b2, odd, sizeof odd);
    free(text);
}

/* Every packet of Mesa's v3d_packet_v21.xml (the generator's list,
 * tests/data/vc4_cl_packets.txt) is in the compiled table once, with the
 * XML's opcode, name and length and every field at the XML's bit position,
 * size and type. */
static const struct { uint8_t op, size; const char *name; } xml_packets[] = {
#define P(op, size, name) {op, size, #name},
#define F(op, bit, width, type, name)
#include "data/vc4_cl_packets.txt"
#undef P
#undef F
};
static const struct { uint8_t op, bit, width, type; const char *name; } xml_fields[] = {
#define P(op, size, name)
#define F(op, bit, width, type, name) {op, bit, width, VC4_FT_##type, #name},
#include "data/vc4_cl_packets.txt"
#undef P
#undef F
};

static void test_xml(void)
{
    CHECK_EQ(CG_ARRAY_SIZE(xml_packets), 36);
    for (size_t i = 0; i < CG_ARRAY_SIZE(xml_packets); i++) {
        unsigned seen = 0;
        for (size_t k = 0; k < vc4_record_count(); k++) {
            vc4_record r;
            vc4_record_at(k, &r);
            seen += r.opcode == xml_packets[i].op;
        }
        CHECK_EQ(seen, 1);
        vc4_record r;
        CHECK(vc4_record_get(xml_packets[i].op, &r));
        CHECK_STR(r.name, xml_packets[i].name);
        CHECK_EQ(r.size, xml_packets[i].size);
    }
    for (size_t i = 0; i < CG_ARRAY_SIZE(xml_fields); i++) {
        vc4_record r;
        CHECK(vc4_record_get(xml_fields[i].op, &r));
        const vc4_field *f = NULL;
        for (unsigned k = 0; k < r.nfields; k++)
            if (strcmp(r.fields[k].name, xml_fields[i].name) == 0)
                f = &r.fields[k];
        CHECK(f != NULL);
        if (!f) {
            fprintf(stderr, "missing %u.%s\n", xml_fields[i].op, xml_fields[i].name);
            continue;
        }
        CHECK_EQ(f->bit, xml_fields[i].bit);
        CHECK_EQ(f->width, xml_fields[i].width);
        CHECK_EQ(f->type, xml_fields[i].type);
    }
    /* generated accessors agree with the table */
    static const uint8_t pl[15] = {0, 0, 0x40, 0, 0, 0x80, 0, 0, 0, 0, 0x50, 0, 10, 8, 0x84};
    CHECK_EQ(VC4_GET(pl, Tile_Binning_Mode_Configuration, Width_in_tiles), 10);
    CHECK_EQ(VC4_GET(pl, Tile_Binning_Mode_Configuration, Height_in_tiles), 8);
    CHECK_EQ(VC4_GET(pl, Tile_Binning_Mode_Configuration, Double_buffer_in_non_ms_mode), 1);
    CHECK_EQ(VC4_ADDR(pl, Tile_Binning_Mode_Configuration, Tile_State_Data_Array_Address),
             0x500000u);
    CHECK_EQ(VC4_OP_Tile_Binning_Mode_Configuration, 112);
    CHECK_EQ(VC4_SIZE_Tile_Binning_Mode_Configuration, 16);
    /* seed names stay aliases */
    vc4_record a, b;
    CHECK(vc4_record_find("Store_Multi_Sample", &a) &&
          vc4_record_find("Store_Multi_sample_Resolved_Tile_Color_Buffer", &b));
    CHECK(a.opcode == 24 && b.opcode == 24);
    CHECK_STR(a.alias, "Store_Multi_Sample");
    CHECK_EQ(cg_vc4_cl_opcode("GEM_Handles"), 254);
    CHECK_STR(cg_vc4_cl_name(254), "Gem_Relocations");
}

static char *dis_text(const char *src, bool json)
{
    static uint8_t b[256];
    size_t n = assemble(src, b, sizeof b);
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    cg_vc4_disasm_opts o = {.base = 0x1000, .prim_format = 0x12, .json = json};
    cg_vc4_cl_disasm(&o, b, n, f);
    fclose(f);
    return text;
}

/* Exact text: enum value names, addresses, floats, 12.4 fixed point, and
 * the named form (reference names, aliases, enum names) assembling back. */
static void test_disasm_text(void)
{
    char *t = dis_text("Vertex_Array_Primitives {Primitive_mode=TRIANGLE_STRIP, Length=4, "
                       "First_Vertex_Index=2}\n"
                       "Store_Tile_Buffer_General {Buffer_To_Store=Color, Format=LT, "
                       "Memory_Base_Address=0xC1000000}\n"
                       "Point_size 0x3fc00000\nViewport_Offset -24, 32\n"
                       "Branch_To_Sub_List 0x400200\n"
                       "Configuration_Bits {Depth_Test_Function=LEQUAL}\n", false);
    CHECK(strstr(t, "\nVertex_Array_Primitives {Primitive_mode=TRIANGLE_STRIP, Length=4, "
                    "Index_of_First_Vertex=2}\n") != NULL);
    CHECK(strstr(t, "//     Primitive_mode (uint8): 0x00000005 (TRIANGLE_STRIP)\n") != NULL);
    CHECK(strstr(t, "\nStore_Tile_Buffer_General {Buffer_to_Store=Color, Format=LT, "
                    "Mode=Sample_0, Pixel_Color_Format=rgba8888, Disable_Double_Buffer_Swap=0, "
                    "Disable_Color_buffer_clear_on_store_dump=0, "
                    "Disable_Z_Stencil_buffer_clear_on_store_dump=0, "
                    "Disable_VG_Mask_buffer_clear_on_store_dump=0, Disable_Color_buffer_dump=0, "
                    "Disable_Z_Stencil_buffer_dump=0, Disable_VG_Mask_buffer_dump=0, "
                    "Last_Tile_of_Frame=0, "
                    "Memory_base_address_of_frame_tile_dump_buffer=0xc1000000}\n") != NULL);
    CHECK(strstr(t, "//     Memory_base_address_of_frame_tile_dump_buffer (address): "
                    "0xc1000000\n") != NULL);
    CHECK(strstr(t, "//     Point_Size (float32): 0x3fc00000 (1.5)\n") != NULL);
    CHECK(strstr(t, "\nPoint_size {Point_Size=0x3fc00000}\n") != NULL);
    CHECK(strstr(t, "//     Viewport_Centre_X_coordinate (s12.4): 0xffffffe8 (-1.5)\n") != NULL);
    CHECK(strstr(t, "\nViewport_Offset {Viewport_Centre_X_coordinate=-24, "
                    "Viewport_Centre_Y_coordinate=32}\n") != NULL);
    CHECK(strstr(t, "command number 0x11 (17), Branch_to_sub_list [11 00 02 40 00]\n") != NULL);
    CHECK(strstr(t, "\nBranch_to_sub_list {Address=0x00400200}\n") != NULL);
    CHECK(strstr(t, "Depth_Test_Function=LEQUAL") != NULL);
    if (!strstr(t, "TRIANGLE_STRIP"))
        fputs(t, stderr);
    free(t);
    /* JSON confidence: every payload bit a field / reserved bits / no name */
    t = dis_text("Tile_Coordinates 1, 2\nStore_Tile_Buffer_General 0, 0, 0\n.byte 9\n", true);
    CHECK(strstr(t, "\"name\":\"Tile_Coordinates\",\"bytes\":\"73 01 02\",\"fields\":"
                    "{\"Tile_Column_Number\":1,\"Tile_Row_Number\":2},\"confidence\":\"known\"}") != NULL);
    CHECK(strstr(t, "\"name\":\"Store_Tile_Buffer_General\"") != NULL);
    CHECK(strstr(t, "\"confidence\":\"partial\"}") != NULL);
    CHECK(strstr(t, "\"raw\":true,\"bad\":true,\"confidence\":\"unknown\","
                    "\"why\":\"unknown opcode 9 (0x09)\",\"bytes\":\"09\"}") != NULL);
    free(t);
}

int main(void)
{
    test_table();
    test_codings();
    test_asm_bytes();
    test_roundtrip();
    test_xml();
    test_disasm_text();
    return check_report("test_vc4_cl");
}
