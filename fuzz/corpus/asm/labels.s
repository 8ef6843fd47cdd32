back: .word back, fwd
lab1: lab2:
only_label:
fwd: .half . , .+2
.equ size, end - start
start: .byte 1,2,3
end:
sz = size * 2
.byte sz
