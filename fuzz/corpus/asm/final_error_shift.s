op x
lab:
.byte lab
