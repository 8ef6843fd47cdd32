# fence round trip: a semaphore x, 0x10000
.buffer sem, 0x100010000, 0x1000
.section p# f›‘œ’ robu, npb