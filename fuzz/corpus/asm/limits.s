.section s, 0xfffffffffffffffe
.byte 1, 2, 3
.section t
.org 0x4000001
