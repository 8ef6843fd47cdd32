# hostile: a compressed-list triangle in a render list that never set NV_Shader_State; CT1 reset, a frame renders
# fault: kind=bad-state unit=ct1 channel=1 gpu_addr=0x00020011 stream_addr=0x00020011 words=0x01000081,0x00000200
# message: primitive before NV_Shader_State
#
# The renderer reads vertices and the shader through the NV shader record
# named by the last NV_Shader_State (research/vc4.md 1.1); on a fresh device
# there is none. The coding-3 item (0x81, u16 0, 1, 2: research/vc4.md 1.3)
# at 0x20011 (configuration 11 bytes, Tile_Coordinates 3,
# Primitive_List_Format 2, the 0x30 1) is named by both addresses; its 7
# bytes are the words, little-endian: 81 00 00 01, 00 02 00.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Primitive_List_Format 0x12
     .byte 0x30
     .byte 0x81, 0, 0, 1, 0, 2, 0
     .byte 0x80
     Store_Multi_Sample_End
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
