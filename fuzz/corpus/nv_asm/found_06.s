# fÿ(00xFFF
  .align  0x1, SEe000((((((((((((em.bin"
