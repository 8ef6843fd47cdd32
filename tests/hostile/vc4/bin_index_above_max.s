# hostile: an indexed list whose index is above the record's maximum index; then a good job works
# fault: kind=bad-state unit=ct0 channel=0 gpu_addr=0x00020016 stream_addr=0x00020016 words=0x20,0x00000304
# message: above the record's maximum index 1
#
# Indexed_Primitive_List carries the largest index the list may use
# (research/vc4.md 1, opcode 32: "u32 max index"; the kernel's
# vc4_validate.c checks the vertex buffers against it, so the hardware is
# only ever given lists that respect it). Indices 0, 1, 2 with maximum 1:
# index 2 faults. The record is at 0x20016 (configuration 16, Start 1,
# NV_Shader_State 5 bytes); words: opcode 0x20, then mode 4 | 8-bit type
# (0 << 4) and length 3 << 8.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     NV_Shader_State NV_REC
     Indexed_Primitive_List Mode_Triangles + Index_Type_8, 3, IDX, 1
     Flush
BAD_END:
IDX: .byte 0, 1, 2

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
