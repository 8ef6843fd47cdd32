/* Run-time choice of a wider vector build for the hot interpreter loops.
 *
 * The library is built for baseline x86-64 (SSE2) so it runs anywhere.
 * A source listed with cmdgpu_simd_variants() in CMakeLists.txt is also
 * compiled twice more, with -mavx2 and with AVX-512 (F, BW, DQ, VL), each
 * time with CG_SIMD_VARIANT set to the level and -ffp-contract=off (no
 * fused multiply-add: every variant must give the same bits as the
 * baseline). In such a source, CG_SIMD_FN(name) names a function per
 * variant (name_base, name_avx2, name_avx512); everything static stays
 * private to its variant. The caller picks one with cg__simd_level().
 *
 * On other architectures or compilers only the baseline is built and
 * CG_SIMD_HAVE_VARIANTS is 0. */
#ifndef CMDGPU_CORE_SIMD_H
#define CMDGPU_CORE_SIMD_H

/* Macros, not enum constants: the variant tests below are #if's, where an
 * enum constant would read as 0. */
#define CG_SIMD_BASE 0   /* the build's baseline (SSE2 on x86-64) */
#define CG_SIMD_AVX2 1   /* AVX2 */
#define CG_SIMD_AVX512 2 /* AVX-512 F+BW+DQ+VL */

#ifndef CG_SIMD_VARIANT
#define CG_SIMD_VARIANT CG_SIMD_BASE
#endif

#if CG_SIMD_VARIANT == CG_SIMD_AVX512
#define CG_SIMD_FN(name) name##_avx512
#elif CG_SIMD_VARIANT == CG_SIMD_AVX2
#define CG_SIMD_FN(name) name##_avx2
#else
#define CG_SIMD_FN(name) name##_base
#endif

/* The highest level this host runs and the build has, capped by the
 * environment variable CMDGPU_SIMD ("base", "avx2" or "avx512"; tests use
 * it to run every variant). Decided once per process; thread-safe. */
int cg__simd_level(void);

/* The name of a level: "base", "avx2", "avx512". */
const char *cg__simd_name(int level);

#endif
