/* A float's bit pattern and back, the one defined way in C (memcpy; the
 * compilers turn it into a register move). Every interpreter and engine that
 * keeps floats in 32-bit registers or memory words uses these. Not
 * installed. */
#ifndef CMDGPU_CORE_BITS_H
#define CMDGPU_CORE_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t cg__fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float cg__bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#endif
