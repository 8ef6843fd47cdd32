inc 9, 0x100, 1
immd 0, BOGUS, 1
.submit 4, 0
.png 0, 0, 0, 0, "x", "y"
hdr old_inc 0, 0x2000, 3000
