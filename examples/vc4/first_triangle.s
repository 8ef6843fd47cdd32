# FIRST TRIANGLE: seed 003 (JayStation2 dev blog, chapter 9) as written, as a
# cmdgpu vc4 scene. Run it with
#     cmdgpu run -f vc4 examples/vc4/first_triangle.s -o first_triangle.png
#
# Changes from the blog's GNU as source, all mechanical:
#   - `.align 4` (gas on ARM: 2^4) is `.align 16`, `.hword` is `.half`,
#     `.single 0e1.0` is `.float 1.0`;
#   - the BINNING_ENTRIES macro (the core assembler has no macros) is
#     expanded below, 10 x 8 tiles: Tile_Coordinates x, y;
#     Branch_To_Sub_List BIN_ADDRESS + ((y * 10 + x) * 32); Store_Multi_Sample,
#     or Store_Multi_Sample_End for the last tile;
#   - the blog leaves BIN_ADDRESS, BIN_MEM_SIZE and BIN_BASE to its headers:
#     the dump of a binner-written list puts tile lists at 0x00400000, and
#     the sizes are the kernel's minimums (research/vc4.md 1.2);
#   - Mode_Triangles is the hardware's 4 (research/vc4.md 5, "Caution").
# The bare-metal steps (mailbox calls, patching the frame buffer address,
# CT0CA/CT0EA then CT1CA/CT1EA, waiting on RFC) are the directives at the end.

.equ SCREEN_X, 640
.equ SCREEN_Y, 480
.equ BITS_PER_PIXEL, 32
.equ BIN_ADDRESS, 0x00400000
.equ BIN_MEM_SIZE, 0x00008000
.equ BIN_BASE, 0x00500000

.section text, 0x00010000

.align 16

FB_STRUCT:

     .word FB_STRUCT_END - FB_STRUCT

     .word 0x00000000

     // Sequence Of Concatenated Tags

     .word Get_Firmware_Revision
     .word 0x00000004
     .word 0x00000000
     firmware_revision:
     .word 0

     .word Get_Board_Model
     .word 0x00000004
     .word 0x00000000
     board_model:
     .word 0

     .word Set_Physical_Display
     .word 0x00000008
     .word 0x00000000
     physical_display_x: .word SCREEN_X
     physical_display_y: .word SCREEN_Y

     .word Set_Virtual_Buffer
     .word 0x00000008
     .word 0x00000008
     virtual_display_x: .word SCREEN_X
     virtual_display_y: .word SCREEN_Y

     .word Set_Depth
     .word 0x00000004
     .word 0x00000004
     bits_per_pixel: .word BITS_PER_PIXEL

     .word Set_Virtual_Offset
     .word 0x00000008
     .word 0x00000008
     .word 0
     .word 0

     .word Allocate_Buffer
     .word 0x00000008
     .word 0x00000008
fb_ptr: .word 0
fb_size: .word 0

     // confirmation commands for my own "sanity"
     .word Get_Pitch
     .word 4
     .word 0
     pitch: .word 0

     .word Get_Depth
     .word 4
     .word 0
     depth: .word 0

     .word Get_Physical_Display
     .word 0x00000008
     .word 0x00000000
     disp_x: .word 0
     disp_y: .word 0

// 0x0 (End Tag)
     .word 0x00000000

FB_STRUCT_END:

.align 16

// Mailbox Property Interface Buffer Structure
TAGS_STRUCT:
     // Buffer Size In Bytes (Including The Header Values, The End Tag And Padding)
     .word TAGS_END - TAGS_STRUCT
     // Buffer Request/Response Code
TAGS_STRUCT_RSP_0:
     .word 0x00000000

     // Tag Identifier
     .word Set_Clock_Rate
     // Value Buffer Size In Bytes
     .word 0x00000008
TAGS_STRUCT_RSP_1:
     .word 0x00000008
     // Value Buffer (V3D Clock ID)
     .word CLK_V3D_ID
     // Value Buffer (250MHz)
     .word 25000000

     // Tag Identifier
     .word Enable_QPU
     // Value Buffer Size In Bytes
     .word 0x00000004
TAGS_STRUCT_RSP_2:
     .word 0x00000004
     // Value Buffer (1 = Enable)
     .word 1
     // $0 (End Tag)
     .word 0x00000000
TAGS_END:

.equ NUM_TILES_X, 10
.equ NUM_TILES_Y, 8

.align 4
RENDER_COMMAND_BUFFER_START:
     Wait_On_Semaphore

     Clear_Colors 0xFF00FFFF, 0, 0, 0

TILE_MODE_ADDRESS:
     Tile_Rendering_Mode_Configuration 0x00000000, SCREEN_X, SCREEN_Y, Frame_Buffer_Color_Format_RGBA8888

     Tile_Coordinates 0, 0
     Store_Tile_Buffer_General 0, 0, 0 // Store Tile Buffer General (R)

     // BINNING_ENTRIES
     Tile_Coordinates 0, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 0) * 32)
     Store_Multi_Sample
     Tile_Coordinates 1, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 1) * 32)
     Store_Multi_Sample
     Tile_Coordinates 2, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 2) * 32)
     Store_Multi_Sample
     Tile_Coordinates 3, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 3) * 32)
     Store_Multi_Sample
     Tile_Coordinates 4, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 4) * 32)
     Store_Multi_Sample
     Tile_Coordinates 5, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 5) * 32)
     Store_Multi_Sample
     Tile_Coordinates 6, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 6) * 32)
     Store_Multi_Sample
     Tile_Coordinates 7, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 7) * 32)
     Store_Multi_Sample
     Tile_Coordinates 8, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 8) * 32)
     Store_Multi_Sample
     Tile_Coordinates 9, 0
     Branch_To_Sub_List BIN_ADDRESS + ((0 * NUM_TILES_X + 9) * 32)
     Store_Multi_Sample
     Tile_Coordinates 0, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 0) * 32)
     Store_Multi_Sample
     Tile_Coordinates 1, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 1) * 32)
     Store_Multi_Sample
     Tile_Coordinates 2, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 2) * 32)
     Store_Multi_Sample
     Tile_Coordinates 3, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 3) * 32)
     Store_Multi_Sample
     Tile_Coordinates 4, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 4) * 32)
     Store_Multi_Sample
     Tile_Coordinates 5, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 5) * 32)
     Store_Multi_Sample
     Tile_Coordinates 6, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 6) * 32)
     Store_Multi_Sample
     Tile_Coordinates 7, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 7) * 32)
     Store_Multi_Sample
     Tile_Coordinates 8, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 8) * 32)
     Store_Multi_Sample
     Tile_Coordinates 9, 1
     Branch_To_Sub_List BIN_ADDRESS + ((1 * NUM_TILES_X + 9) * 32)
     Store_Multi_Sample
     Tile_Coordinates 0, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 0) * 32)
     Store_Multi_Sample
     Tile_Coordinates 1, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 1) * 32)
     Store_Multi_Sample
     Tile_Coordinates 2, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 2) * 32)
     Store_Multi_Sample
     Tile_Coordinates 3, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 3) * 32)
     Store_Multi_Sample
     Tile_Coordinates 4, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 4) * 32)
     Store_Multi_Sample
     Tile_Coordinates 5, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 5) * 32)
     Store_Multi_Sample
     Tile_Coordinates 6, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 6) * 32)
     Store_Multi_Sample
     Tile_Coordinates 7, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 7) * 32)
     Store_Multi_Sample
     Tile_Coordinates 8, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 8) * 32)
     Store_Multi_Sample
     Tile_Coordinates 9, 2
     Branch_To_Sub_List BIN_ADDRESS + ((2 * NUM_TILES_X + 9) * 32)
     Store_Multi_Sample
     Tile_Coordinates 0, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 0) * 32)
     Store_Multi_Sample
     Tile_Coordinates 1, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 1) * 32)
     Store_Multi_Sample
     Tile_Coordinates 2, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 2) * 32)
     Store_Multi_Sample
     Tile_Coordinates 3, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 3) * 32)
     Store_Multi_Sample
     Tile_Coordinates 4, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 4) * 32)
     Store_Multi_Sample
     Tile_Coordinates 5, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 5) * 32)
     Store_Multi_Sample
     Tile_Coordinates 6, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 6) * 32)
     Store_Multi_Sample
     Tile_Coordinates 7, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 7) * 32)
     Store_Multi_Sample
     Tile_Coordinates 8, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 8) * 32)
     Store_Multi_Sample
     Tile_Coordinates 9, 3
     Branch_To_Sub_List BIN_ADDRESS + ((3 * NUM_TILES_X + 9) * 32)
     Store_Multi_Sample
     Tile_Coordinates 0, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 0) * 32)
     Store_Multi_Sample
     Tile_Coordinates 1, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 1) * 32)
     Store_Multi_Sample
     Tile_Coordinates 2, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 2) * 32)
     Store_Multi_Sample
     Tile_Coordinates 3, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 3) * 32)
     Store_Multi_Sample
     Tile_Coordinates 4, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 4) * 32)
     Store_Multi_Sample
     Tile_Coordinates 5, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 5) * 32)
     Store_Multi_Sample
     Tile_Coordinates 6, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 6) * 32)
     Store_Multi_Sample
     Tile_Coordinates 7, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 7) * 32)
     Store_Multi_Sample
     Tile_Coordinates 8, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 8) * 32)
     Store_Multi_Sample
     Tile_Coordinates 9, 4
     Branch_To_Sub_List BIN_ADDRESS + ((4 * NUM_TILES_X + 9) * 32)
     Store_Multi_Sample
     Tile_Coordinates 0, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 0) * 32)
     Store_Multi_Sample
     Tile_Coordinates 1, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 1) * 32)
     Store_Multi_Sample
     Tile_Coordinates 2, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 2) * 32)
     Store_Multi_Sample
     Tile_Coordinates 3, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 3) * 32)
     Store_Multi_Sample
     Tile_Coordinates 4, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 4) * 32)
     Store_Multi_Sample
     Tile_Coordinates 5, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 5) * 32)
     Store_Multi_Sample
     Tile_Coordinates 6, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 6) * 32)
     Store_Multi_Sample
     Tile_Coordinates 7, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 7) * 32)
     Store_Multi_Sample
     Tile_Coordinates 8, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 8) * 32)
     Store_Multi_Sample
     Tile_Coordinates 9, 5
     Branch_To_Sub_List BIN_ADDRESS + ((5 * NUM_TILES_X + 9) * 32)
     Store_Multi_Sample
     Tile_Coordinates 0, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 0) * 32)
     Store_Multi_Sample
     Tile_Coordinates 1, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 1) * 32)
     Store_Multi_Sample
     Tile_Coordinates 2, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 2) * 32)
     Store_Multi_Sample
     Tile_Coordinates 3, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 3) * 32)
     Store_Multi_Sample
     Tile_Coordinates 4, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 4) * 32)
     Store_Multi_Sample
     Tile_Coordinates 5, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 5) * 32)
     Store_Multi_Sample
     Tile_Coordinates 6, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 6) * 32)
     Store_Multi_Sample
     Tile_Coordinates 7, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 7) * 32)
     Store_Multi_Sample
     Tile_Coordinates 8, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 8) * 32)
     Store_Multi_Sample
     Tile_Coordinates 9, 6
     Branch_To_Sub_List BIN_ADDRESS + ((6 * NUM_TILES_X + 9) * 32)
     Store_Multi_Sample
     Tile_Coordinates 0, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 0) * 32)
     Store_Multi_Sample
     Tile_Coordinates 1, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 1) * 32)
     Store_Multi_Sample
     Tile_Coordinates 2, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 2) * 32)
     Store_Multi_Sample
     Tile_Coordinates 3, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 3) * 32)
     Store_Multi_Sample
     Tile_Coordinates 4, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 4) * 32)
     Store_Multi_Sample
     Tile_Coordinates 5, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 5) * 32)
     Store_Multi_Sample
     Tile_Coordinates 6, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 6) * 32)
     Store_Multi_Sample
     Tile_Coordinates 7, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 7) * 32)
     Store_Multi_Sample
     Tile_Coordinates 8, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 8) * 32)
     Store_Multi_Sample
     Tile_Coordinates 9, 7
     Branch_To_Sub_List BIN_ADDRESS + ((7 * NUM_TILES_X + 9) * 32)
     Store_Multi_Sample_End
RENDER_COMMAND_BUFFER_END:

.align 4
BINNING_COMMAND_BUFFER_START:
     Tile_Binning_Mode_Configuration BIN_ADDRESS, BIN_MEM_SIZE, BIN_BASE, NUM_TILES_X, NUM_TILES_Y, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     Increment_Semaphore
     Clip_Window 0, 0, SCREEN_X, SCREEN_Y
     Configuration_Bits Enable_Forward_Facing_Primitive + Enable_Reverse_Facing_Primitive, Early_Z_Updates_Enable
     Viewport_Offset 0, 0
     NV_Shader_State NV_SHADER_STATE_RECORD
     Vertex_Array_Primitives Mode_Triangles, 3, 0
     Flush
BINNING_COMMAND_BUFFER_END:

.align 16 // 128-Bit Align
NV_SHADER_STATE_RECORD:
     // Flag Bits: 0 = Single Threaded, Frag 1 = Point Size In Shaded Vert Data,
     // 2 = Enable Clipping, 3 = Clip Coordinates Header Included In Shaded Vertex Data
     .byte 0
     .byte 3 * 4 // Shaded Vertex Data Stride
     .byte 0 // Fragment Shader Number Of Uniforms (Not Used Currently)
     .byte 0 // Fragment Shader Number Of Varyings
     .word FRAGMENT_SHADER_CODE // Fragment Shader Code Address
     .word 0 // Fragment Shader Uniforms Address
     .word VERTEX_DATA // Shaded Vertex Data Address (128-Bit Aligned If Including Clip Coordinate Header)

.align 16 // 128-Bit Align
VERTEX_DATA:
     // Vertex: Top
     .half 320 * 16 // X In 12.4 Fixed Point
     .half  32 * 16 // Y In 12.4 Fixed Point
     .float 1.0 // Z
     .float 1.0 // 1 / W

     // Vertex: Bottom Left
     .half  32 * 16 // X In 12.4 Fixed Point
     .half 448 * 16 // Y In 12.4 Fixed Point
     .float 1.0 // Z
     .float 1.0 // 1 / W

     // Vertex: Bottom Right
     .half 608 * 16 // X In 12.4 Fixed Point
     .half 448 * 16 // Y In 12.4 Fixed Point
     .float 1.0 // Z
     .float 1.0 // 1 / W

.align 16 // 128-Bit Align
FRAGMENT_SHADER_CODE:
     // Fill Color Shader
     .word 0x009E7000
     .word 0x100009E7 // nop // nop // nop

     .word 0xFFFFFFFF // RGBA White
     .word 0xE0020BA7 // ldi tlbc, 0xFFFFFFFF
     .word 0x009E7000
     .word 0x500009E7 // nop // nop // sbdone
     .word 0x009E7000
     .word 0x300009E7 // nop // nop // thrend

     .word 0x009E7000
     .word 0x100009E7 // nop // nop // nop
     .word 0x009E7000
     .word 0x100009E7 // nop // nop // nop

# ---- what the bare-metal program does ----
.mailbox TAGS_STRUCT                   // V3D clock, enable the QPUs
.mailbox FB_STRUCT                     // the frame buffer (fb_ptr comes back as 0xC...)
.copy32 TILE_MODE_ADDRESS + 1, fb_ptr  // patch it into Tile_Rendering_Mode_Configuration
.expect_reg IDENT0, 0x02443356
.kick 0, BINNING_COMMAND_BUFFER_START, BINNING_COMMAND_BUFFER_END   // CT0CA, CT0EA
.kick 1, RENDER_COMMAND_BUFFER_START, RENDER_COMMAND_BUFFER_END     // CT1CA, CT1EA
.wait bfc, 1
.wait rfc, 1
.expect_reg CT0CA, BINNING_COMMAND_BUFFER_END
.expect_reg CT1CA, RENDER_COMMAND_BUFFER_END
// the tile list of tile (6, 1), as in the blog's dump
.dump_cl BIN_ADDRESS + (1 * NUM_TILES_X + 6) * 32
.png "first_triangle.png"
