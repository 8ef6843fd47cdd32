# nv pdf  und)
    .word 0xcd613e3  # 0-x0c: cd0: 7e2e3d4)
    .word 0xcd613e3  # 1-x0c: own me ( 