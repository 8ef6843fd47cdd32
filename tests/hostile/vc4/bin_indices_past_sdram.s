# hostile: 16-bit indices at the last two bytes of the uncached SDRAM alias; the second index is unmapped
# fault: kind=unmapped unit=ct0 channel=0 gpu_addr=0xc4000000 stream_addr=0x00020016 words=0x20,0x00000314
# message: read of 0x2 bytes at 0xc4000000
#
# The 0xC0000000 alias ends at 0xC3FFFFFF (64 MiB SDRAM). Index 0 is read
# at 0xC3FFFFFE (SDRAM there is zero), index 1 at 0xC4000000, where nothing
# is mapped: the fault names that address, the Indexed_Primitive_List
# record at 0x20016 and its words (0x20; mode 4 | 16-bit type 1 << 4 = 0x14,
# length 3 << 8).
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     NV_Shader_State NV_REC
     Indexed_Primitive_List Mode_Triangles + Index_Type_16, 3, 0xC3FFFFFE, 65535
     Flush
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
