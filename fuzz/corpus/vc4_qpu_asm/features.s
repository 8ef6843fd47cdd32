start:
    fadd r0, r1, r2 : fmul ra1, r0, r0 : thrend
    add.zs.sf ra5.8as, unif, r2 : v8min.rot2 r1, r0, r1
    mov r0, elem_num : mov.rotr5 r3, r0
    nop : fmul rb20.c8c, r2, f1.0
    mov r1, ra6.16b : nop : loadc
    fadd r1, r4.8a, f0.0625 : nop : unpack=4 : pm=1
    ldis ra0, 0x00030005 : ldi.zc rb3
    ldiu r1, 0x12
    sacq nop, 3
    srel r0, 15
    brr.any_zc ra1, nop, start
    bra nop, rb2, ra3, 0x100
    mov r5quad, elem_num : nop
    mov r5rep, y_coord : nop
    mov sfu_recip, r0 : nop
    mov tlbz, rb15 : mov tlbc, r3
    nop : nop : op_add=9 : add_a=3
    ldiu ra2, [3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0]
