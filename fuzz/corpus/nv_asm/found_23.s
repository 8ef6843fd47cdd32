# 0x2000
    immd 0, VERTEX_BEGIN_GL, seLOice_mfer# ever pb, 0x100000000, 0x10000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
s release the CPU waits for
.buffer pb, 0x10000000, 1, 2
    
    set_subdevice_mask 0xFFF
    store_subdevice_m  mthd 0, SEMAPHORE0xB0B5
    immd 1B,, LAUNCH_DMA, sem & 0xffffffff
    mth      # 0x0130:, 0y statx1234
    cl0, SEMAPHORE0xB0B5
 .channel   immd 1B,, LAUNCH_DMA, sem & 0xffffffff
    mth      # 0x0130:, 0x1234
 ement
 