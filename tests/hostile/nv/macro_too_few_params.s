# hostile: a macro that fetches a parameter the call never sent; channel 1 still works
# fault: kind=bad-length unit=mme channel=0 gpu_addr=0 stream_addr=0x100000024 words=0x00000201,0x00000000
# message: too few parameters
#
# Code: 0x00000201 = ADD_IMM (1), result op fetch (0), dst r2 (2 << 8):
# "parm r2", then exit (0x91) and its delay slot nop (0x11). The call
# CALL_MME_MACRO(0) = 7 (IMMD 0x80070e00 at +0x24: 3 code words) gives R1
# only; the FIFO is empty when word 0 fetches: TOO_FEW_PARAMS (envytools
# macro.rst). Record: {instruction 0x201, PC 0}.
# Words: SET_OBJECT B197 on subchannel 0 (0x20010000, 0xB197) at +0, +4;
# LOAD_MME_INSTRUCTION_RAM_POINTER (0x114, index 0x45) = 0 as IMMD
# 0x80000045 at +8; LOAD_MME_INSTRUCTION_RAM (index 0x46) NONINC count N
# (0x60000046 | N << 16) at +0xc with the code from +0x10;
# LOAD_MME_START_ADDRESS_RAM_POINTER = 0 (IMMD 0x80000047) and
# LOAD_MME_START_ADDRESS_RAM = 0 (IMMD 0x80000048): macro 0 starts at code
# word 0; CALL_MME_MACRO(0) (0x3800, index 0xe00) as IMMD. MME encoding
# (docs/nv-macro.md; envytools macro.rst): opcode 2:0, result op 6:4, exit
# 7, dst 10:8, srcA 13:11, immediate / branch offset 31:14; branch: bit 4
# NZ, bit 5 annul.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer cb,  0x100020000, 0x1000
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    mthd 0, LOAD_MME_INSTRUCTION_RAM_POINTER, 0
    hdr noninc 0, LOAD_MME_INSTRUCTION_RAM, 3
    .word 0x00000201                # parm r2
    .word 0x00000091                # exit
    .word 0x00000011                # nop (delay slot)
    mthd 0, LOAD_MME_START_ADDRESS_RAM_POINTER, 0
    mthd 0, LOAD_MME_START_ADDRESS_RAM, 0
    mthd 0, CALL_MME_MACRO(0), 7
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
