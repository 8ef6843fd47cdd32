.byte 1, -1, 255
.half 0x1234, -32768
.word 0x12345678
.dword -1
.float 1.5, -2e3, 0x1p4, 1, 0.1
