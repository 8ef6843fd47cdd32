reg r1, 5
str "a\tb\x00\"c"
flt -2e3
flt 0x1.8p-1
peek abc
peek (
peek
def lbl
opt
opt 3 // c
emit32 -1
fail
ndef q
