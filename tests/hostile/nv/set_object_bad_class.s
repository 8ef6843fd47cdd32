# hostile: SET_OBJECT with a class this GPU has no engine for (FERMI_A 0x9097); channel 1 still works
# fault: kind=invalid-class unit=host channel=0 gpu_addr=0 stream_addr=0x100000004 words=0x20016000,0x00009097
# message: class 0x9097 on subchannel 3 is not one of
#
# The model's channel binds the Maxwell classes of the Tegra X1, 902D, B197,
# B1C0, A140 and B0B5 (docs/nv.md "Host class"; the classes NVN binds, as
# yuzu and Ryujinx wire them); 0x9097 (FERMI_A 3D) is not one of them. INC header: SEC_OP 1
# (0x20000000), count 1 (0x00010000), subchannel 3 (3 << 13 = 0x6000),
# method SET_OBJECT 0: 0x20016000 at 0x100000000; its data word 0x9097 is
# at 0x100000004, the word that faults.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 3, SET_OBJECT, 0x9097
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
