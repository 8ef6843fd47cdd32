# A fragment shader in vc4asm's syntax (written for cmdgpu's tests): two
# varyings make a texture coordinate, the texel is scaled by W (ra15) and
# written to the tile buffer as 8-bit colour; an unpack, a vector rotation
# and the scoreboard signals on the way. Words: tests/test_vc4_qpu_text.c.
fadd r0, vary, r5                   # s = varying + C (r5)
fadd r1, vary, r5;  mov t0t, r0     # t, and the s coordinate
mov t0s, r1                         # writing s starts the fetch
nop;  ldtmu0                        # texel -> r4
fmul r2, r4, ra15                   # (fmul is a mul op: the mul ALU)
nop;  sbwait
nop;  fmul tlbc.8abcdsf, r2, r2     # float [0,1] -> 8888 colour (pm=1)
mov r0, ra3.16a;  v8min rb4, r1<<4, r1<<4
nop;  thrend
nop;  sbdone
nop
