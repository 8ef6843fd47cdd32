# A general-purpose QPU program in vc4asm's syntax (written for cmdgpu's
# tests, after the kind of program vc4asm's sample/simple shows): add a
# uniform to each vector of the VPM, count down a uniform loop counter,
# then take semaphore 0 around a host interrupt and end.
# The 64-bit words are checked in tests/test_vc4_qpu_text.c.
.equ VPM_RD, 0x00101a00     // vr_setup: 1 vector per row, 32-bit, stride 1
mov ra0, unif               # number of vectors
mov ra1, unif               # the value to add
ldi vr_setup, VPM_RD
ldi vw_setup, 0x00001a00
loop:
mov r0, vpm
sub.setf ra0, ra0, 1
add vpm, r0, ra1
brr.anynz -, loop
nop
nop
nop
read vw_wait                # wait for the VPM writes
sacq -, 0
mov irq, 1
srel -, 0
nop;  thrend
nop
nop
