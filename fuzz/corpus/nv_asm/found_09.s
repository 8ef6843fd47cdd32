AC_INLINE_DATA, 7, 9
    oneinc(05
    im:d 1, LNCH_DMA, 0x182
    ein"nd_pb
_segment
