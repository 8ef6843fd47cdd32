# hostile: a tile list triangle whose vertex address wraps past 4 GiB (index 65535, stride 255); then a frame renders
# fault: kind=addr-range unit=ct1 channel=1 gpu_addr=0xffff0000 stream_addr=0x00020016 words=0xfeffff81,0x00fffdff
# message: vertex 65535 lies past the 32-bit bus
#
# The NV record puts the vertices at 0xFFFF0000 with a 255-byte stride.
# The coding-3 item 0x81 + u16 65535, 65534, 65533 (research/vc4.md 1.3)
# at 0x20016 (configuration 11 bytes, Tile_Coordinates 3,
# Primitive_List_Format 2, NV_Shader_State 5, the 0x30 1) names vertex
# 65535 first: 0xFFFF0000 + 65535 * 255 = 0x100FEFF01, past the bus. The
# model faults addr-range with the vertex array base (the binner does the
# same, bin_vertex_addr_wraps.s); the words are the item's 7 bytes,
# little-endian: 81 FF FF FE, FF FD FF.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Primitive_List_Format 0x12
     NV_Shader_State BAD_NV
     .byte 0x30
     .byte 0x81, 0xFF, 0xFF, 0xFE, 0xFF, 0xFD, 0xFF
     .byte 0x80
     Store_Multi_Sample_End
BAD_END:
.align 16
BAD_NV:
     .byte 0, 255, 0, 0
     .word SHADER, 0, 0xFFFF0000

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
