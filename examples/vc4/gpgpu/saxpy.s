# SAXPY on 12 QPUs as a cmdgpu vc4 scene: out[k] = 0.5 * x[k] + y[k] for
# 192 floats (one 16-float block per QPU), started through the mailbox
# (enable QPU, then execute QPU with the 12 (uniforms, code) pairs), then
# again through the V3D request queue (SRQUA/SRQPC), checked with .expect32.
# Run it with
#     cmdgpu run -f vc4 examples/vc4/gpgpu/saxpy.s
# The code section is saxpy.qasm assembled (saxpy_code.h); x[k] = k and
# y[k] = 1000 - 2k are written as .float lists. docs/vc4-gpgpu.md.

.equ CODE, 0x00100000
.equ UNIFS, 0x00101000
.equ CTRL, 0x00102000
.equ X, 0x00110000
.equ Y, 0x00120000
.equ OUT, 0x00130000
.equ OUT2, 0x00140000

.section code, CODE
    .word 0x15827d80, 0x10020027
    .word 0x15827d80, 0x10020067
    .word 0x15827d80, 0x100200a7
    .word 0x15827d80, 0x100200e7
    .word 0x15827d80, 0x10020127
    .word 0x15827d80, 0x10020167
    .word 0x15827d80, 0x100201a7
    .word 0x159a7d80, 0x10020827
    .word 0x119c21c0, 0xd00211e7
    .word 0x00001a00, 0xe0020867
    .word 0x15167380, 0x10021227
    .word 0x80904000, 0xe0020867
    .word 0x11147dc0, 0xd00208a7
    .word 0x159e7280, 0x10021267
    .word 0x0c087dc0, 0x10020e27
    .word 0x0c0c7dc0, 0x10020f27
    .word 0x009e7000, 0xa00009e7
    .word 0x20067026, 0x100049e0
    .word 0x009e7000, 0xb00009e7
    .word 0x019e7100, 0x10020867
    .word 0x159c8fc0, 0x10021c67
    .word 0x159e7240, 0x10020c27
    .word 0x159c9fc0, 0x10021c67
    .word 0x15127d80, 0x10021ca7
    .word 0x009f2000, 0x100009e7
    .word 0x00000040, 0xe00208a7
    .word 0x0c0a7c80, 0x100200a7
    .word 0x0c0e7c80, 0x100200e7
    .word 0x0c127c80, 0x10020127
    .word 0x0d001dc0, 0xd0022027
    .word 0xffffff60, 0xf03809e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x15167d80, 0x100229e7
    .word 0x00000028, 0xf00809e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x00000000, 0xe80209e7
    .word 0x00000058, 0xf0f809e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x151a7d80, 0x100228e7
    .word 0x00000030, 0xf00809e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x00000010, 0xe80209e7
    .word 0x0d9c17c0, 0xd00228e7
    .word 0xffffffd0, 0xf03809e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7
    .word 0x00000001, 0xe00209a7
    .word 0x009e7000, 0x300009e7
    .word 0x009e7000, 0x100009e7
    .word 0x009e7000, 0x100009e7

# per QPU: blocks, a = 0.5, x, y, out, index (VPM row), releases QPU 0 waits for
.section unifs, UNIFS
    .word 1, 0x3f000000, X + 0, Y + 0, OUT + 0, 0, 11, 0
    .word 1, 0x3f000000, X + 64, Y + 64, OUT + 64, 1, 11, 0
    .word 1, 0x3f000000, X + 128, Y + 128, OUT + 128, 2, 11, 0
    .word 1, 0x3f000000, X + 192, Y + 192, OUT + 192, 3, 11, 0
    .word 1, 0x3f000000, X + 256, Y + 256, OUT + 256, 4, 11, 0
    .word 1, 0x3f000000, X + 320, Y + 320, OUT + 320, 5, 11, 0
    .word 1, 0x3f000000, X + 384, Y + 384, OUT + 384, 6, 11, 0
    .word 1, 0x3f000000, X + 448, Y + 448, OUT + 448, 7, 11, 0
    .word 1, 0x3f000000, X + 512, Y + 512, OUT + 512, 8, 11, 0
    .word 1, 0x3f000000, X + 576, Y + 576, OUT + 576, 9, 11, 0
    .word 1, 0x3f000000, X + 640, Y + 640, OUT + 640, 10, 11, 0
    .word 1, 0x3f000000, X + 704, Y + 704, OUT + 704, 11, 11, 0
# the same with the second output
    .word 1, 0x3f000000, X + 0, Y + 0, OUT2 + 0, 0, 11, 0
    .word 1, 0x3f000000, X + 64, Y + 64, OUT2 + 64, 1, 11, 0
    .word 1, 0x3f000000, X + 128, Y + 128, OUT2 + 128, 2, 11, 0
    .word 1, 0x3f000000, X + 192, Y + 192, OUT2 + 192, 3, 11, 0
    .word 1, 0x3f000000, X + 256, Y + 256, OUT2 + 256, 4, 11, 0
    .word 1, 0x3f000000, X + 320, Y + 320, OUT2 + 320, 5, 11, 0
    .word 1, 0x3f000000, X + 384, Y + 384, OUT2 + 384, 6, 11, 0
    .word 1, 0x3f000000, X + 448, Y + 448, OUT2 + 448, 7, 11, 0
    .word 1, 0x3f000000, X + 512, Y + 512, OUT2 + 512, 8, 11, 0
    .word 1, 0x3f000000, X + 576, Y + 576, OUT2 + 576, 9, 11, 0
    .word 1, 0x3f000000, X + 640, Y + 640, OUT2 + 640, 10, 11, 0
    .word 1, 0x3f000000, X + 704, Y + 704, OUT2 + 704, 11, 11, 0

# execute QPU's control list: (uniforms, code) per QPU
.section ctrl, CTRL
    .word UNIFS + 0, CODE
    .word UNIFS + 32, CODE
    .word UNIFS + 64, CODE
    .word UNIFS + 96, CODE
    .word UNIFS + 128, CODE
    .word UNIFS + 160, CODE
    .word UNIFS + 192, CODE
    .word UNIFS + 224, CODE
    .word UNIFS + 256, CODE
    .word UNIFS + 288, CODE
    .word UNIFS + 320, CODE
    .word UNIFS + 352, CODE

.section mbox, 0x00103000
.align 16
TAGS:
    .word TAGS_END - TAGS, 0
    .word 0x30012, 4, 4, 1                      // enable QPU
    .word 0x30011, 16, 16                       // execute QPU:
exec_status:                                    //   the answer replaces num_qpus
    .word 12, CTRL, 0, 1000                     //   12 QPUs, control, noflush, 1 s
    .word 0
TAGS_END:

.section x, X
    .float 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0
    .float 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0
    .float 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0
    .float 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0
    .float 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0
    .float 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0
    .float 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0
    .float 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0
    .float 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0
    .float 72.0, 73.0, 74.0, 75.0, 76.0, 77.0, 78.0, 79.0
    .float 80.0, 81.0, 82.0, 83.0, 84.0, 85.0, 86.0, 87.0
    .float 88.0, 89.0, 90.0, 91.0, 92.0, 93.0, 94.0, 95.0
    .float 96.0, 97.0, 98.0, 99.0, 100.0, 101.0, 102.0, 103.0
    .float 104.0, 105.0, 106.0, 107.0, 108.0, 109.0, 110.0, 111.0
    .float 112.0, 113.0, 114.0, 115.0, 116.0, 117.0, 118.0, 119.0
    .float 120.0, 121.0, 122.0, 123.0, 124.0, 125.0, 126.0, 127.0
    .float 128.0, 129.0, 130.0, 131.0, 132.0, 133.0, 134.0, 135.0
    .float 136.0, 137.0, 138.0, 139.0, 140.0, 141.0, 142.0, 143.0
    .float 144.0, 145.0, 146.0, 147.0, 148.0, 149.0, 150.0, 151.0
    .float 152.0, 153.0, 154.0, 155.0, 156.0, 157.0, 158.0, 159.0
    .float 160.0, 161.0, 162.0, 163.0, 164.0, 165.0, 166.0, 167.0
    .float 168.0, 169.0, 170.0, 171.0, 172.0, 173.0, 174.0, 175.0
    .float 176.0, 177.0, 178.0, 179.0, 180.0, 181.0, 182.0, 183.0
    .float 184.0, 185.0, 186.0, 187.0, 188.0, 189.0, 190.0, 191.0

.section y, Y
    .float 1000.0, 998.0, 996.0, 994.0, 992.0, 990.0, 988.0, 986.0
    .float 984.0, 982.0, 980.0, 978.0, 976.0, 974.0, 972.0, 970.0
    .float 968.0, 966.0, 964.0, 962.0, 960.0, 958.0, 956.0, 954.0
    .float 952.0, 950.0, 948.0, 946.0, 944.0, 942.0, 940.0, 938.0
    .float 936.0, 934.0, 932.0, 930.0, 928.0, 926.0, 924.0, 922.0
    .float 920.0, 918.0, 916.0, 914.0, 912.0, 910.0, 908.0, 906.0
    .float 904.0, 902.0, 900.0, 898.0, 896.0, 894.0, 892.0, 890.0
    .float 888.0, 886.0, 884.0, 882.0, 880.0, 878.0, 876.0, 874.0
    .float 872.0, 870.0, 868.0, 866.0, 864.0, 862.0, 860.0, 858.0
    .float 856.0, 854.0, 852.0, 850.0, 848.0, 846.0, 844.0, 842.0
    .float 840.0, 838.0, 836.0, 834.0, 832.0, 830.0, 828.0, 826.0
    .float 824.0, 822.0, 820.0, 818.0, 816.0, 814.0, 812.0, 810.0
    .float 808.0, 806.0, 804.0, 802.0, 800.0, 798.0, 796.0, 794.0
    .float 792.0, 790.0, 788.0, 786.0, 784.0, 782.0, 780.0, 778.0
    .float 776.0, 774.0, 772.0, 770.0, 768.0, 766.0, 764.0, 762.0
    .float 760.0, 758.0, 756.0, 754.0, 752.0, 750.0, 748.0, 746.0
    .float 744.0, 742.0, 740.0, 738.0, 736.0, 734.0, 732.0, 730.0
    .float 728.0, 726.0, 724.0, 722.0, 720.0, 718.0, 716.0, 714.0
    .float 712.0, 710.0, 708.0, 706.0, 704.0, 702.0, 700.0, 698.0
    .float 696.0, 694.0, 692.0, 690.0, 688.0, 686.0, 684.0, 682.0
    .float 680.0, 678.0, 676.0, 674.0, 672.0, 670.0, 668.0, 666.0
    .float 664.0, 662.0, 660.0, 658.0, 656.0, 654.0, 652.0, 650.0
    .float 648.0, 646.0, 644.0, 642.0, 640.0, 638.0, 636.0, 634.0
    .float 632.0, 630.0, 628.0, 626.0, 624.0, 622.0, 620.0, 618.0

.mailbox TAGS
.expect32 exec_status, 0              // the firmware's answer: success
.expect32 OUT, 0x447a0000             // out[0] = 1000.0
.expect32 OUT + 4 * 100, 0x44548000   // out[100] = 50 + 800 = 850.0
.expect32 OUT + 4 * 191, 0x44326000   // out[191] = 95.5 + 618 = 713.5
.expect_reg DBQITC, 0xfff             // every QPU raised its host interrupt
# the same through the request queue: 12 requests, all complete
.reg SRQCS, 0x10180
.reg SRQUA, UNIFS + 384
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 416
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 448
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 480
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 512
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 544
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 576
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 608
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 640
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 672
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 704
.reg SRQPC, CODE
.reg SRQUA, UNIFS + 736
.reg SRQPC, CODE
.wait idle
.expect_reg SRQCS, 0x0c0c00           // 12 requested, 12 completed, queue empty
.expect32 OUT2 + 4 * 191, 0x44326000
.dump OUT + 4 * 184, 8
