# vc4asm's dialect (docs/vc4-qpu.md); the programs of tests/data/vc4_qpu_*.s
# and the exact-text cases of tests/test_vc4_qpu_text.c in short
loop:
fadd.setf.ifz ra1, r0, r1;  fmul.ifnz rb2, r2, r3;  thrsw
mov t0s, unif;  mov rb5, qpu_num
mov vw_setup, vw_wait;  mov vr_setup, vr_wait
shl r0, elem_num, 3
fmul r1, r0>>r5, r2>>r5
nop;  v8min r1, r0<<2, r3<<2
ldi ra0, rb1.ifz, 0x12345678
ldipes r0, [0,1,-1,-2,0,0,0,0,0,0,0,0,0,0,0,1]
sacq -, 7
srel -, 3
bra -, ra2
brr.anynz ra1, loop
bra.allc ra1, rb2, ra4, 0x100
mov r0, ra1;  read vw_wait
nop;  fmul tlbc.8abcdsf, r2, r2
mov r0, ra3.16a;  v8min rb4, r1<<4, r1<<4
mov irq, 1;  mov tmurs, x_coord
mov stencil, ms_mask;  mov rb3, rev_flag;;
nop;  thrend
nop
nop
