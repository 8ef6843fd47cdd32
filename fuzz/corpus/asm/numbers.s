# numbers of every form
x = 123
.byte 0x7f, 0X7F, 0b1010, 0B1, 'c', '\n', '\x41', 007
.dword 0xffffffffffffffff, 18446744073709551615, -9223372036854775807-1
