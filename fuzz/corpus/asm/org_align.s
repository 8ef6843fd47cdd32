.byte 1
.org 8
.align 16, 0xcc
.byte 2
.align 4
.org 0x40
