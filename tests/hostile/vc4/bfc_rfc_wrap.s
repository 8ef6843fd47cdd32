# hostile: BFC and RFC (8-bit frame counters) wrap: 257 flushes and 257 frames leave both at 1 (legal, no fault)
#
# BFC/RFC are 8-bit counts (research/vc4.md 2, widths from brcm_usrlib_dag
# v3d.h; the kernel compares only their low 8 bits): 257 = 0x101 wraps to 1.
# The binning list runs Start_Tile_Binning + Flush 1 + 16 x 16 times through
# two levels of sub-lists (the most the return stack holds), the render
# list stores 1 + 16 x 16 frames (Store_Multi_Sample_End) the same way.
# FLDONE and FRDONE (INTCTL bits 1 and 0) are set. The good job after it
# still bins and renders (its counters start from 0 after the write-1
# clears).
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Branch_To_Sub_List B16x16
     Start_Tile_Binning
     Flush
BAD_END:
.org 0x20100                           # sub-lists away from BAD_END (CA == EA stops a thread)
B16x16:
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Branch_To_Sub_List B16
     Return_From_Sub_List
B16:
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Start_Tile_Binning
     Flush
     Return_From_Sub_List
REND:
     Clear_Colors 0xFF00FF00, 0, 0, 0
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Branch_To_Sub_List R16x16
     Store_Multi_Sample_End
REND_END:
.org 0x20300
R16x16:
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Branch_To_Sub_List R16
     Return_From_Sub_List
R16:
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Store_Multi_Sample_End
     Return_From_Sub_List

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.wait bfc, 1
.kick 1, REND, REND_END
.wait rfc, 1
.expect_reg INTCTL, 0x00000003
.expect_reg CT0CA, BAD_END
.expect_reg CT1CA, REND_END
.include "good_job_run.inc"
