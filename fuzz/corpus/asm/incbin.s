.incbin "fuzz_asm_missing.bin"
.incbin "/dev/null"
.incbin "data.s", 1, 2
.incbin "numbers.s", 4
.incbin "comments.s"
.incbin "data.s", 1000
.incbin "data.s", 0, 1000
.incbin ".."
