.section code, 0x1000
start: op data
.section data, 0x2000
data: .word start
.section code
.byte 0
.section text
op 1
