# every stanemet
 t   inc 4, SET_OECT, 0xB0B5
    inc 4, OFGSET_IN_UPPER, 1, 2, 3
    noninc 2, LOAD_INLINE_DATAÎß7,8
 inc 0, VERTEX_ARRAYA_START_HIGH(1), 2
    hdr noninc  4, SET_OBJECT, 0xB0B5
    inc 4, OFFSET_IN_UPPER, 1, 2, 3
    noninc d_pb_segment
