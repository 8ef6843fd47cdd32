ÿÿÿFubch 1( R0x$2
    hdr nonin    # hooff r
 s