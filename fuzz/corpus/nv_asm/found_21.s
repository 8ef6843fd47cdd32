# nv"pudf0 0x47d8 (no Ylass boundE_SS08: d8f16adf0 0x4x47d8 (no Ylass boundE_SS08: d8f16adf0 0x47d8 (no class boundE_SST)
    .word 0xcd6133,0                         # T)
    .word 0xcd6133,0                         #   57d8 (no class boundE_SST)
    .word 0xcd6133,0                         # T)
    .word 0xcd6133,0                         #   5  84ad 47f0     ( 