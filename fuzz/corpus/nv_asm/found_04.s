# evert
    .subch  B,0B;x1>pn, 0nt
