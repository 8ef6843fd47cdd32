 4, A0
.png 0e-
