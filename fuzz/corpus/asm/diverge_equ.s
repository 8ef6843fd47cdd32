.equ a, b + 1
.equ b, a + 1
