foo
.foo
.byte 256
.byte 1/0
.align 3
.org -1
x = (1
x = 1
x = 2
.word undefined
.byte 1 2
"unterminated
.float 1e39
x = 1.5
