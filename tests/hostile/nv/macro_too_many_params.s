# hostile: a macro that exits with a parameter it never read; channel 1 still works
# fault: kind=bad-length unit=mme channel=0 gpu_addr=0 stream_addr=0x100000020 words=0x00000011,0x00000001
# message: too many parameters: 1 of 2 left unread at exit (TOO_MANY_PARAMS)
#
# Code: 0x00000091 = exit (ADD_IMM r0 + 0, mov, exit bit 7), 0x00000011 =
# nop, the exit's delay slot; the macro reads nothing past R1. The call
# CALL_MME_MACRO(0) = 0 (IMMD 0x80000e00 at +0x20: 2 code words) is followed
# by CALL_MME_DATA(0) = 9 (IMMD 0x80090e01 at +0x24), a second parameter.
# It is still in the FIFO at exit: TOO_MANY_PARAMS (envytools macro.rst),
# reported at the last instruction run, the delay slot: {0x11, PC 1}.
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
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    mthd 0, LOAD_MME_INSTRUCTION_RAM_POINTER, 0
    hdr noninc 0, LOAD_MME_INSTRUCTION_RAM, 2
    .word 0x00000091                # exit
    .word 0x00000011                # nop (delay slot)
    mthd 0, LOAD_MME_START_ADDRESS_RAM_POINTER, 0
    mthd 0, LOAD_MME_START_ADDRESS_RAM, 0
    mthd 0, CALL_MME_MACRO(0), 0
    mthd 0, CALL_MME_DATA(0), 9
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
