# hostile: a macro that sends CALL_MME_MACRO (a macro calling a macro); channel 1 still works
# fault: kind=bad-state unit=mme channel=0 gpu_addr=0 stream_addr=0x100000024 words=0x80000e00,0x00000001
# message: a macro cannot call a macro
#
# Code: 0x03800021 = ADD_IMM r0 + 0xe00 (0xe00 << 14 = 0x03800000), result
# op movm (2 << 4): method address = 0xe00, CALL_MME_MACRO(0); then
# 0x000040c1 = ADD_IMM r0 + 1 (1 << 14), movsend (4 << 4), exit (0x80):
# sends 1 to 0xe00; 0x11 nop for the exit's delay slot. A send re-enters
# the method stream (docs/nv-macro.md "io"), and the MME takes its input
# from that stream, so a macro cannot start a macro: the model faults. A
# send's fault is reported like a pushbuffer method at the call: stream
# address of CALL_MME_MACRO(0) (IMMD 0x80000e00 at +0x24: 3 code words), words {its
# header, the value sent}.
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
    .word 0x03800021                # addi.movm r0, r0, 0xe00
    .word 0x000040c1                # addi.movsend.exit r0, r0, 1
    .word 0x00000011                # nop
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
