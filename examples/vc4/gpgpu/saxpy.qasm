# SAXPY on the QPUs: out[k] = a * x[k] + y[k], 16 floats per block.
# Each QPU reads its blocks with the TMU (x through TMU0, y through TMU1),
# computes, writes the block to its own VPM row and stores the row with a
# VDW DMA. At the end QPUs 1..N-1 release semaphore 0 and QPU 0 acquires it
# N-1 times (a barrier), then every QPU raises its host interrupt (the
# firmware's execute-QPU tag waits for one per program).
#
# Uniforms: blocks, a (float), x, y, out (this QPU's first block), the
# QPU's index (its VPM row), how many releases QPU 0 waits for (N-1 on QPU
# 0, ignored elsewhere). docs/vc4-gpgpu.md, section "Examples".
        mov ra0, unif                   # blocks left
        mov ra1, unif                   # a
        mov ra2, unif                   # x
        mov ra3, unif                   # y
        mov ra4, unif                   # out
        mov ra5, unif                   # index = VPM row
        mov ra6, unif                   # releases to wait for (QPU 0)
        mov r0, elem_num
        shl rb7, r0, 2                  # element * 4: the lane's byte offset
        ldi r1, 0x1a00                  # VPM write setup: h32, stride 1, Y = index
        or rb8, r1, ra5
        ldi r1, 0x80904000              # VDW: 1 unit of 16 words, horizontal, Y = index
        shl r2, ra5, 7
        or rb9, r1, r2
loop:
        add t0s, ra2, rb7               # x[lane]
        add t1s, ra3, rb7               # y[lane]
        ldtmu0
        fmul r0, r4, ra1                # a * x
        ldtmu1
        fadd r1, r0, r4                 # + y
        mov vw_setup, rb8
        mov vpm, r1
        mov vw_setup, rb9
        mov vw_addr, ra4                # store the row at out
        read vw_wait
        ldi r2, 64
        add ra2, ra2, r2
        add ra3, ra3, r2
        add ra4, ra4, r2
        sub.setf ra0, ra0, 1
        brr.anynz -, loop
        nop
        nop
        nop
        or.setf -, ra5, ra5             # QPU 0?
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
        or.setf r3, ra6, ra6
        brr.allz -, done
        nop
        nop
        nop
wait:
        sacq -, 0
        sub.setf r3, r3, 1
        brr.anynz -, wait
        nop
        nop
        nop
done:
        ldi irq, 1
        nop ; nop ; thrend
        nop
        nop
