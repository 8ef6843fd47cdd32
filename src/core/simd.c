/* Run-time selection of the vector variants (simd.h). */
#include "simd.h"

#include <stdlib.h>
#include <string.h>

#ifndef CG_SIMD_HAVE_VARIANTS
#define CG_SIMD_HAVE_VARIANTS 0
#endif

static int host_level(void)
{
#if CG_SIMD_HAVE_VARIANTS && (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        return CG_SIMD_AVX512;
    if (__builtin_cpu_supports("avx2"))
        return CG_SIMD_AVX2;
#endif
    return CG_SIMD_BASE;
}

const char *cg__simd_name(int level)
{
    switch (level) {
    case CG_SIMD_AVX512: return "avx512";
    case CG_SIMD_AVX2: return "avx2";
    default: return "base";
    }
}

static int decide(void)
{
    int lv = host_level();
    const char *cap = getenv("CMDGPU_SIMD");
    if (cap && *cap) {
        int c = CG_SIMD_AVX512;
        if (!strcmp(cap, "base"))
            c = CG_SIMD_BASE;
        else if (!strcmp(cap, "avx2"))
            c = CG_SIMD_AVX2;
        if (c < lv)
            lv = c;
    }
    return lv;
}

int cg__simd_level(void)
{
    /* Racing first calls compute the same value; the store is atomic. */
    static _Atomic int cached = -1;
    int v = cached;
    if (v < 0) {
        v = decide();
        cached = v;
    }
    return v;
}
