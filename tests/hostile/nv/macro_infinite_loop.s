# hostile: a macro that branches to itself forever; the MME instruction budget ends it as a hang, channel 1 still works
# fault: kind=hang unit=mme channel=0 gpu_addr=0 stream_addr=0x10000001c words=0x00000027,0x00000000
# message: macro 0 pc 0x0: budget nv.macro-insns: instruction budget of 16777216 ran out
#
# Code: 0x00000027 = BRANCH (7) | annul (0x20), .z on r0 (always 0, so
# always taken), offset 0: it jumps to itself with no delay slot, forever.
# The hardware MME has a watchdog (TIMEOUT trap, envytools macro.rst); the
# model's is 2^24 = 16777216 instructions per call (docs/nv-macro.md
# "Budget"). The record points at the CALL_MME_MACRO(0) word (IMMD
# 0x80000e00 at +0x1c) and holds {instruction, PC} = {0x27, 0}.
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
    hdr noninc 0, LOAD_MME_INSTRUCTION_RAM, 1
    .word 0x00000027                # loop: bra.z.a r0, loop
    mthd 0, LOAD_MME_START_ADDRESS_RAM_POINTER, 0
    mthd 0, LOAD_MME_START_ADDRESS_RAM, 0
    mthd 0, CALL_MME_MACRO(0), 0
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
