; comment
# comment
// comment
.byte 1 ; c
.byte 2 # c
.byte 8 // 2
  
	
