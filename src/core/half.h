/* IEEE 754 binary16 -> float, exactly (denormals kept, Inf and NaN
 * preserved): the one conversion the texture and surface readers share
 * (nv texture/2D/ROP/shader textures, vc4 TMU). The QPU's own unpack
 * flushes denormals and keeps its own (src/vc4/gpu/qpu_run.c). Not installed. */
#ifndef CMDGPU_CORE_HALF_H
#define CMDGPU_CORE_HALF_H

#include <math.h>
#include <stdint.h>

static inline float cg__half_to_float(uint32_t h)
{
    unsigned e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 1024), (int)e - 25);
    return (h & 0x8000) ? -v : v;
}

#endif
