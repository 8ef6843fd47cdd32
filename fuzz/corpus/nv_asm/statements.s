# every statement
    inc 4, SET_OBJECT, 0xB0B5
    inc 4, OFFSET_IN_UPPER, 1, 2, 3
    noninc 2, LOAD_INLINE_DATA, 7, 8
    oneinc 0, LOAD_CONSTANT_BUFFER_OFFSET, 0x20, 1, 2
    mthd 0, CB_POS, 0x1FFF
    mthd 0, CB_POS, 0x2000
    immd 0, VERTEX_BEGIN_GL, 5
    immd 3, SET_DST_FORMAT, 0xCF
    hdr inc 0, VERTEX_ARRAY_START_HIGH(1), 2
    hdr noninc 0, LOAD_CONSTANT_BUFFER(3), 0x10
    hdr old_inc 2, 0x1B4, 3
    hdr old_noninc 1, 0x1C, 1
    set_subdevice_mask 0xFFF
    store_subdevice_mask 1
    use_subdevice_mask
    mthd 5, SEMAPHORED, 0x01000002   # host method on any subchannel
    immd 0, 0x0008, 0                # host NOP by offset
    .subch 1, 0xB0B5
    immd 1, LAUNCH_DMA, 0x182
    end_pb_segment
