# seed 003 FIRST TRIANGLE fragment shader
    nop : nop
    ldi tlbc, 0xffffffff
    nop : nop : sbdone
    nop : nop : thrend
    nop : nop
    nop : nop
