# hostile: an indexed list with the reserved index type 2; then a good job works
# fault: kind=bad-state unit=ct0 channel=0 gpu_addr=0x00020016 stream_addr=0x00020016 words=0x20,0x00000324
# message: index type 2
#
# Index type is 0 (8-bit) or 1 (16-bit) (research/vc4.md 1, opcode 32:
# "index type[7:4] (0 = 8-bit, 1 = 16-bit)"). The byte 0x24 is mode 4 with
# type 2. Record at 0x20016; words: 0x20, then 0x24 | length 3 << 8.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     NV_Shader_State NV_REC
     Indexed_Primitive_List 0x24, 3, IDX, 2
     Flush
BAD_END:
IDX: .byte 0, 1, 2

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
