# Reduction on the QPUs: the sum of 32-bit integers (mod 2^32).
# Each QPU adds its blocks of 16 words lane by lane (TMU0 reads), stores its
# 16 partial sums with a VDW DMA at partials + 64 * index, then QPUs 1..N-1
# release semaphore 0; QPU 0 acquires it N-1 times, reads the other QPUs'
# partial rows with the TMU, adds them, folds the 16 lanes with vector
# rotations (8, 4, 2, 1) and stores the total (in every lane) at result.
# Every QPU raises its host interrupt at the end.
#
# Uniforms: blocks, data (this QPU's first block), partials, index, the
# QPUs to wait for (N-1 on QPU 0), result. docs/vc4-gpgpu.md.
        mov ra0, unif                   # blocks left
        mov ra1, unif                   # data
        mov ra2, unif                   # partials
        mov ra3, unif                   # index
        mov ra4, unif                   # releases to wait for (QPU 0)
        mov ra5, unif                   # result
        mov r0, elem_num
        shl rb7, r0, 2                  # lane byte offset
        ldi r1, 0x1a00                  # VPM write setup: h32, stride 1, Y = index
        or rb8, r1, ra3
        ldi r1, 0x80904000              # VDW: 1 x 16 words, horizontal, Y = index
        shl r2, ra3, 7
        or rb9, r1, r2
        shl r2, ra3, 6                  # this QPU's partial row: partials + 64 * index
        add rb10, ra2, r2
        mov r3, 0                       # the 16 lane sums
loop:
        add t0s, ra1, rb7
        ldtmu0
        add r3, r3, r4
        ldi r2, 64
        add ra1, ra1, r2
        sub.setf ra0, ra0, 1
        brr.anynz -, loop
        nop
        nop
        nop
        mov vw_setup, rb8
        mov vpm, r3
        mov vw_setup, rb9
        mov vw_addr, rb10
        read vw_wait
        or.setf -, ra3, ra3             # QPU 0?
        brr.allz -, master
        nop
        nop
        nop
        srel -, 0
        brr -, done
        nop
        nop
        nop
master:
        or.setf r2, ra4, ra4            # r2 = rows still to add
        brr.allz -, fold
        mov r1, ra2                     # delay slots: the next partial row
        ldi r0, 64
        add r1, r1, r0
more:
        sacq -, 0                       # one more QPU has stored its row
        add t0s, r1, rb7
        ldtmu0
        add r3, r3, r4
        add r1, r1, r0
        sub.setf r2, r2, 1
        brr.anynz -, more
        nop
        nop
        nop
fold:
        mov r0, r3
        nop
        mov r1, r0 >> 8
        add r0, r0, r1
        nop
        mov r1, r0 >> 4
        add r0, r0, r1
        nop
        mov r1, r0 >> 2
        add r0, r0, r1
        nop
        mov r1, r0 >> 1
        add r0, r0, r1
        mov vw_setup, rb8
        mov vpm, r0
        mov vw_setup, rb9
        mov vw_addr, ra5
        read vw_wait
done:
        ldi irq, 1
        nop ; nop ; thrend
        nop
        nop
