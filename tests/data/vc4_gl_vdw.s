// tests/data/vc4_gl_vdw.s: examples/vc4/gl_cube.s with a vertex shader
// that also writes memory. After its VPM outputs it DMAs VPM row 0 (the
// packed screen X, Y of the batch's 16 lanes) with a VDW over the ground
// plane's first vertices (VERTS + 576), in every batch of every tile, so
// later batches shade what earlier ones wrote: the ground is gone. The
// tile pool's workers must not run it ahead of the render thread (their
// bus is read-only: the VDW faults there and the segment has no result);
// with any number of render threads the tiles render as with one, in list
// order (test_vc4_pool scene_examples checks the pixels and these words).
.section text, 0x00010000
BIN:
     Tile_Binning_Mode_Configuration 0x00400000, 0x8000, 0x00500000, 4, 4, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     Increment_Semaphore
     Clip_Window 0, 0, 256, 256
     Configuration_Bits Enable_Forward_Facing_Primitive + Enable_Reverse_Facing_Primitive, Depth_Test_Function_LT + Z_Updates_Enable
     Viewport_Offset 2048, 2048    // the frame's centre, 12.4
     GL_Shader_State GL_REC, 2
     Indexed_Primitive_List Index_Type_16 + Mode_Triangles, 42, IDX, 27
     Flush
BIN_END:
REND:
     Wait_On_Semaphore
     Clear_Colors 0xFF202830, 0xFFFFFF, 0, 0
     Tile_Rendering_Mode_Configuration 0x00100000, 256, 256, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Store_Tile_Buffer_General 0, 0, 0
     Tile_Coordinates 0, 0
     Branch_To_Sub_List 0x00400000
     Store_Multi_Sample
     Tile_Coordinates 1, 0
     Branch_To_Sub_List 0x00400020
     Store_Multi_Sample
     Tile_Coordinates 2, 0
     Branch_To_Sub_List 0x00400040
     Store_Multi_Sample
     Tile_Coordinates 3, 0
     Branch_To_Sub_List 0x00400060
     Store_Multi_Sample
     Tile_Coordinates 0, 1
     Branch_To_Sub_List 0x00400080
     Store_Multi_Sample
     Tile_Coordinates 1, 1
     Branch_To_Sub_List 0x004000a0
     Store_Multi_Sample
     Tile_Coordinates 2, 1
     Branch_To_Sub_List 0x004000c0
     Store_Multi_Sample
     Tile_Coordinates 3, 1
     Branch_To_Sub_List 0x004000e0
     Store_Multi_Sample
     Tile_Coordinates 0, 2
     Branch_To_Sub_List 0x00400100
     Store_Multi_Sample
     Tile_Coordinates 1, 2
     Branch_To_Sub_List 0x00400120
     Store_Multi_Sample
     Tile_Coordinates 2, 2
     Branch_To_Sub_List 0x00400140
     Store_Multi_Sample
     Tile_Coordinates 3, 2
     Branch_To_Sub_List 0x00400160
     Store_Multi_Sample
     Tile_Coordinates 0, 3
     Branch_To_Sub_List 0x00400180
     Store_Multi_Sample
     Tile_Coordinates 1, 3
     Branch_To_Sub_List 0x004001a0
     Store_Multi_Sample
     Tile_Coordinates 2, 3
     Branch_To_Sub_List 0x004001c0
     Store_Multi_Sample
     Tile_Coordinates 3, 3
     Branch_To_Sub_List 0x004001e0
     Store_Multi_Sample_End
REND_END:

.align 16
GL_REC:  // flags: FS single-threaded, clipping enabled; FS varyings 3
     .byte 5, 0, 0, 3
     .word FS, 0
     .half 0
     .byte 3, 24    // VS: attributes 0 and 1, 24 bytes
     .word VS, UNIF
     .half 0
     .byte 1, 12    // CS: attribute 0, 12 bytes
     .word CS, UNIF
     .word VERTS
     .byte 11, 24, 0, 0     // position: 12 bytes, stride 24, VPM rows 0-2
     .word VERTS + 12
     .byte 11, 24, 12, 0    // colour: 12 bytes, VS VPM rows 3-5
.align 16
UNIF:  // the matrix row by row, then Xs, Ys scale (1/16 pixel), Zs scale, offset
     .float 1.9776079654693604, 0.0, 1.3847360610961914, 0.0
     .float 0.5852147340774536, 2.1880204677581787, -0.835773229598999, 0.0
     .float 0.635356068611145, -0.5165334343910217, -0.9073824882507324, 3.8888888359069824
     .float 0.5198367834091187, -0.4226182699203491, -0.7424038648605347, 5.0
     .float 2048.0, -2048.0, 0.5, 0.5
.align 16
VERTS:  // x, y, z, r, g, b
     .float 1.0, -1.0, -1.0, 0.550000011920929, 0.13750000298023224, 0.10999999940395355
     .float 1.0, 1.0, -1.0, 0.699999988079071, 0.17499999701976776, 0.14000000059604645
     .float 1.0, -1.0, 1.0, 0.8500000238418579, 0.21250000596046448, 0.17000000178813934
     .float 1.0, 1.0, 1.0, 1.0, 0.25, 0.20000000298023224
     .float -1.0, -1.0, -1.0, 0.10999999940395355, 0.4399999976158142, 0.16500000655651093
     .float -1.0, 1.0, -1.0, 0.14000000059604645, 0.5600000023841858, 0.20999999344348907
     .float -1.0, -1.0, 1.0, 0.17000000178813934, 0.6800000071525574, 0.2549999952316284
     .float -1.0, 1.0, 1.0, 0.20000000298023224, 0.800000011920929, 0.30000001192092896
     .float -1.0, 1.0, -1.0, 0.13750000298023224, 0.2475000023841858, 0.550000011920929
     .float 1.0, 1.0, -1.0, 0.17499999701976776, 0.3149999976158142, 0.699999988079071
     .float -1.0, 1.0, 1.0, 0.21250000596046448, 0.3824999928474426, 0.8500000238418579
     .float 1.0, 1.0, 1.0, 0.25, 0.44999998807907104, 1.0
     .float -1.0, -1.0, -1.0, 0.550000011920929, 0.4675000011920929, 0.10999999940395355
     .float 1.0, -1.0, -1.0, 0.699999988079071, 0.5950000286102295, 0.14000000059604645
     .float -1.0, -1.0, 1.0, 0.8500000238418579, 0.7225000262260437, 0.17000000178813934
     .float 1.0, -1.0, 1.0, 1.0, 0.8500000238418579, 0.20000000298023224
     .float -1.0, -1.0, 1.0, 0.4950000047683716, 0.16500000655651093, 0.4950000047683716
     .float 1.0, -1.0, 1.0, 0.6299999952316284, 0.20999999344348907, 0.6299999952316284
     .float -1.0, 1.0, 1.0, 0.7649999856948853, 0.2549999952316284, 0.7649999856948853
     .float 1.0, 1.0, 1.0, 0.8999999761581421, 0.30000001192092896, 0.8999999761581421
     .float -1.0, -1.0, -1.0, 0.10999999940395355, 0.4950000047683716, 0.4950000047683716
     .float 1.0, -1.0, -1.0, 0.14000000059604645, 0.6299999952316284, 0.6299999952316284
     .float -1.0, 1.0, -1.0, 0.17000000178813934, 0.7649999856948853, 0.7649999856948853
     .float 1.0, 1.0, -1.0, 0.20000000298023224, 0.8999999761581421, 0.8999999761581421
     .float -2.200000047683716, -0.30000001192092896, -2.200000047683716, 0.3499999940395355, 0.3499999940395355, 0.3499999940395355
     .float 2.200000047683716, -0.30000001192092896, -2.200000047683716, 0.550000011920929, 0.550000011920929, 0.550000011920929
     .float -2.200000047683716, -0.30000001192092896, 2.200000047683716, 0.75, 0.75, 0.75
     .float 2.200000047683716, -0.30000001192092896, 2.200000047683716, 0.949999988079071, 0.949999988079071, 0.949999988079071
.align 16
IDX:
     .half 0, 1, 2, 2, 1, 3
     .half 4, 5, 6, 6, 5, 7
     .half 8, 9, 10, 10, 9, 11
     .half 12, 13, 14, 14, 13, 15
     .half 16, 17, 18, 18, 17, 19
     .half 20, 21, 22, 22, 21, 23
     .half 24, 25, 26, 26, 25, 27
.align 16
VS:
     .word 0x00601a00, 0xe0020c67    // ldi vr_setup, 0x00601a00
     .word 0x00001a00, 0xe0021c67    // ldi vw_setup, 0x00001a00
     .word 0x15c27d80, 0x10020027    // mov ra0, vpm
     .word 0x15c27d80, 0x10020067    // mov ra1, vpm
     .word 0x15c27d80, 0x100200a7    // mov ra2, vpm
     .word 0x15c27d80, 0x100200e7    // mov ra3, vpm
     .word 0x15c27d80, 0x10020127    // mov ra4, vpm
     .word 0x15c27d80, 0x10020167    // mov ra5, vpm
     .word 0x20020037, 0x100049e0    // fmul r0, ra0, unif
     .word 0x20060037, 0x100049e1    // fmul r1, ra1, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x200a0037, 0x100049e1    // fmul r1, ra2, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x01827180, 0x100201a7    // fadd ra6, r0, unif
     .word 0x20020037, 0x100049e0    // fmul r0, ra0, unif
     .word 0x20060037, 0x100049e1    // fmul r1, ra1, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x200a0037, 0x100049e1    // fmul r1, ra2, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x01827180, 0x100201e7    // fadd ra7, r0, unif
     .word 0x20020037, 0x100049e0    // fmul r0, ra0, unif
     .word 0x20060037, 0x100049e1    // fmul r1, ra1, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x200a0037, 0x100049e1    // fmul r1, ra2, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x01827180, 0x10020227    // fadd ra8, r0, unif
     .word 0x20020037, 0x100049e0    // fmul r0, ra0, unif
     .word 0x20060037, 0x100049e1    // fmul r1, ra1, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x200a0037, 0x100049e1    // fmul r1, ra2, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x01827180, 0x10020267    // fadd ra9, r0, unif
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x15267d80, 0x10020d27    // mov sfu_recip, ra9
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x159e7900, 0x100202a7    // mov ra10, r4
     .word 0x201a0037, 0x100049e0    // fmul r0, ra6, unif
     .word 0x202a7006, 0x100049e0    // fmul r0, r0, ra10
     .word 0x079e7000, 0x100202e7    // ftoi ra11, r0
     .word 0x201e0037, 0x100049e0    // fmul r0, ra7, unif
     .word 0x202a7006, 0x100049e0    // fmul r0, r0, ra10
     .word 0x079e7000, 0x10020867    // ftoi r1, r0
     .word 0x112d0dc0, 0xd0020827    // shl r0, ra11, -16
     .word 0x0e9d01c0, 0xd0020827    // shr r0, r0, -16
     .word 0x119d03c0, 0xd0020867    // shl r1, r1, -16
     .word 0x159e7040, 0x10020c27    // or vpm, r0, r1
     .word 0x20220037, 0x100049e0    // fmul r0, ra8, unif
     .word 0x202a7006, 0x100049e0    // fmul r0, r0, ra10
     .word 0x01827180, 0x10020c27    // fadd vpm, r0, unif
     .word 0x152a7d80, 0x10020c27    // mov vpm, ra10
     .word 0x150e7d80, 0x10020c27    // mov vpm, ra3
     .word 0x15127d80, 0x10020c27    // mov vpm, ra4
     .word 0x15167d80, 0x10020c27    // mov vpm, ra5
     .word 0x80904000, 0xe0021c67    // ldi vw_setup, 0x80904000 (VDW: 1 row of 16 words, VPM row 0)
     .word VERTS + 576, 0xe0021ca7   // ldi vw_addr, VERTS + 576 (over vertices 24 and 25: the ground)
     .word 0x159f2fc0, 0x100209e7    // mov -, vw_wait
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x009e7000, 0x300009e7    // nop;  thrend
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x009e7000, 0x100009e7    // nop
.align 16
CS:
     .word 0x00301a00, 0xe0020c67    // ldi vr_setup, 0x00301a00
     .word 0x00001a00, 0xe0021c67    // ldi vw_setup, 0x00001a00
     .word 0x15c27d80, 0x10020027    // mov ra0, vpm
     .word 0x15c27d80, 0x10020067    // mov ra1, vpm
     .word 0x15c27d80, 0x100200a7    // mov ra2, vpm
     .word 0x20020037, 0x100049e0    // fmul r0, ra0, unif
     .word 0x20060037, 0x100049e1    // fmul r1, ra1, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x200a0037, 0x100049e1    // fmul r1, ra2, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x01827180, 0x100201a7    // fadd ra6, r0, unif
     .word 0x20020037, 0x100049e0    // fmul r0, ra0, unif
     .word 0x20060037, 0x100049e1    // fmul r1, ra1, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x200a0037, 0x100049e1    // fmul r1, ra2, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x01827180, 0x100201e7    // fadd ra7, r0, unif
     .word 0x20020037, 0x100049e0    // fmul r0, ra0, unif
     .word 0x20060037, 0x100049e1    // fmul r1, ra1, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x200a0037, 0x100049e1    // fmul r1, ra2, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x01827180, 0x10020227    // fadd ra8, r0, unif
     .word 0x20020037, 0x100049e0    // fmul r0, ra0, unif
     .word 0x20060037, 0x100049e1    // fmul r1, ra1, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x200a0037, 0x100049e1    // fmul r1, ra2, unif
     .word 0x019e7040, 0x10020827    // fadd r0, r0, r1
     .word 0x01827180, 0x10020267    // fadd ra9, r0, unif
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x15267d80, 0x10020d27    // mov sfu_recip, ra9
     .word 0x151a7d80, 0x10020c27    // mov vpm, ra6
     .word 0x151e7d80, 0x10020c27    // mov vpm, ra7
     .word 0x159e7900, 0x100202a7    // mov ra10, r4
     .word 0x15227d80, 0x10020c27    // mov vpm, ra8
     .word 0x15267d80, 0x10020c27    // mov vpm, ra9
     .word 0x201a0037, 0x100049e0    // fmul r0, ra6, unif
     .word 0x202a7006, 0x100049e0    // fmul r0, r0, ra10
     .word 0x079e7000, 0x100202e7    // ftoi ra11, r0
     .word 0x201e0037, 0x100049e0    // fmul r0, ra7, unif
     .word 0x202a7006, 0x100049e0    // fmul r0, r0, ra10
     .word 0x079e7000, 0x10020867    // ftoi r1, r0
     .word 0x112d0dc0, 0xd0020827    // shl r0, ra11, -16
     .word 0x0e9d01c0, 0xd0020827    // shr r0, r0, -16
     .word 0x119d03c0, 0xd0020867    // shl r1, r1, -16
     .word 0x159e7040, 0x10020c27    // or vpm, r0, r1
     .word 0x20220037, 0x100049e0    // fmul r0, ra8, unif
     .word 0x202a7006, 0x100049e0    // fmul r0, r0, ra10
     .word 0x01827180, 0x10020c27    // fadd vpm, r0, unif
     .word 0x152a7d80, 0x10020c27    // mov vpm, ra10
     .word 0x009e7000, 0x300009e7    // nop;  thrend
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x009e7000, 0x100009e7    // nop
.align 16
FS:
     .word 0x158e7d80, 0x10020827    // mov r0, vary
     .word 0x019e7140, 0x10020827    // fadd r0, r0, r5
     .word 0x158e7d80, 0x10020867    // mov r1, vary
     .word 0x019e7340, 0x10020867    // fadd r1, r1, r5
     .word 0x158e7d80, 0x100208a7    // mov r2, vary
     .word 0x019e7540, 0x100208a7    // fadd r2, r2, r5
     .word 0xff000000, 0xe00208e7    // ldi r3, 0xff000000
     .word 0x209e0007, 0xd16049e3    // fmul r3.8csf, r0, f1.0
     .word 0x209e000f, 0xd15049e3    // fmul r3.8bsf, r1, f1.0
     .word 0x209e0017, 0xd14049e3    // fmul r3.8asf, r2, f1.0
     .word 0x159cffc0, 0x10020b27    // mov tlbz, rb15
     .word 0x159e76c0, 0x30020ba7    // mov tlbc, r3;  thrend
     .word 0x009e7000, 0x100009e7    // nop
     .word 0x009e7000, 0x100009e7    // nop

// ---- the scene ----
.kick 0, BIN, BIN_END
.kick 1, REND, REND_END
.wait bfc, 1
.wait rfc, 1
.png "gl_vdw.png", 0x00100000, 256, 256, 1024, 32

.dump VERTS + 576, 64
.expect32 VERTS + 576, 0
.expect32 VERTS + 580, 0
.expect32 VERTS + 584, 0x02150cc2
.expect32 VERTS + 588, 0
