# every stRRAY_STATR_HIG, 2
    hdr noninc 0, LOAD_CONSTANT_BUFFER(LOAD_CONSTANT_BUFFER_OFFSET3), 0x....................., 3
     set_subdevice_mask 0xFFF
 ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ