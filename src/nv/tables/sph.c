/* The shader program header (SPH): decoder and printer over src/nv/tables/sph.def. */
#include <stdio.h>
#include <string.h>
#include "cmdgpu/nv_sass.h"
#include "sph.h"

enum { SPH_ALL, SPH_VTG, SPH_PS };

typedef struct sph_field {
    uint8_t scope;
    const char *name;
    uint16_t hi, lo, count, stride;
} sph_field;

static const sph_field sph_fields[] = {
#define NV_SPH(scope, name, hi, lo, count, stride) {SPH_##scope, #name, hi, lo, count, stride},
#include "sph.def"
};

static uint32_t sph_bits(const uint32_t w[20], unsigned hi, unsigned lo)
{
    uint32_t v = 0;
    for (unsigned b = hi + 1; b-- > lo;)
        v = v << 1 | (w[b / 32] >> (b % 32) & 1);
    return v;
}

static const char *const shader_types[16] = {
    [1] = "VERTEX", [2] = "TESSELLATION_INIT", [3] = "TESSELLATION", [4] = "GEOMETRY",
    [5] = "PIXEL",
};

/* Problems with a header, "" if none. */
static void sph_problem(const uint32_t w[20], size_t size, char *buf, size_t cap)
{
    unsigned type = w[0] & 31, version = w[0] >> 5 & 31, st = w[0] >> 10 & 15;
    buf[0] = 0;
    if (size < CG_NV_SPH_SIZE)
        snprintf(buf, cap, "truncated header: %zu of %d bytes", size, CG_NV_SPH_SIZE);
    else if (type != 1 && type != 2)
        snprintf(buf, cap, "SPH_TYPE %u is neither 1 (VTG) nor 2 (PS)", type);
    else if (version != 3)
        snprintf(buf, cap, "VERSION %u, expected 3 (SPHV3, cla097sph.h)", version);
    else if (type == 2 ? st != 5 : (st < 1 || st > 4))
        snprintf(buf, cap, "SHADER_TYPE %u does not fit SPH_TYPE %u", st, type);
}

static bool in_scope(const sph_field *f, unsigned type)
{
    return f->scope == SPH_ALL || (f->scope == SPH_VTG && type == 1) ||
           (f->scope == SPH_PS && type == 2);
}

static size_t sph_words(const uint8_t *sph, size_t size, uint32_t w[20])
{
    size_t n = size < CG_NV_SPH_SIZE ? size : CG_NV_SPH_SIZE;
    memset(w, 0, 20 * sizeof w[0]);
    for (size_t i = 0; i < n; i++)
        w[i / 4] |= (uint32_t)sph[i] << (8 * (i % 4));
    return n;
}

int nv_sph_decode(const uint8_t *sph, size_t size, nv_sph *out)
{
    uint32_t w[20];
    memset(out, 0, sizeof *out);
    if (!sph)
        size = 0;
    sph_words(sph, size, w);
#define NV_SPH(scope, name, hi, lo, count, stride)                             \
    for (unsigned i = 0; i < count; i++)                                       \
        out->scope##_##name[i] = sph_bits(w, hi + i * stride, lo + i * stride);
#include "sph.def"
    sph_problem(w, size, out->problem, sizeof out->problem);
    return out->problem[0] ? 1 : 0;
}

int cg_nv_sph_print(const uint8_t *sph, size_t size, FILE *out, bool json)
{
    if ((!sph && size) || !out)
        return CG_ERR_INVAL;
    uint32_t w[20];
    size_t n = sph_words(sph, size, w);
    char problem[128];
    sph_problem(w, size, problem, sizeof problem);
    unsigned type = w[0] & 31;
    const char *st = shader_types[w[0] >> 10 & 15];
    if (json) {
        fprintf(out, "{\"type\":%u,\"shader_type\":\"%s\",\"words\":[", type, st ? st : "?");
        for (int i = 0; i < 20; i++)
            fprintf(out, "%s%u", i ? "," : "", w[i]);
        fprintf(out, "],\"fields\":{");
        int k = 0;
        for (size_t f = 0; f < sizeof sph_fields / sizeof sph_fields[0]; f++) {
            const sph_field *d = &sph_fields[f];
            if (!in_scope(d, type))
                continue;
            for (unsigned i = 0; i < d->count; i++) {
                uint32_t v = sph_bits(w, d->hi + i * d->stride, d->lo + i * d->stride);
                if (d->count > 1)
                    fprintf(out, "%s\"%s[%u]\":%u", k++ ? "," : "", d->name, i, v);
                else
                    fprintf(out, "%s\"%s\":%u", k++ ? "," : "", d->name, v);
            }
        }
        fprintf(out, "},\"problem\":\"%s\"}\n", problem);
        return problem[0] ? 1 : 0;
    }
    fprintf(out, "    # SPH: type %u (%s), shader %s\n", type,
            type == 1 ? "VTG" : type == 2 ? "PS" : "?", st ? st : "?");
    if (problem[0])
        fprintf(out, "    # PROBLEM: %s\n", problem);
    for (unsigned word = 0; word < n / 4; word++) {
        fprintf(out, "    .word 0x%08x    # %02u:", w[word], word);
        for (size_t f = 0; f < sizeof sph_fields / sizeof sph_fields[0]; f++) {
            const sph_field *d = &sph_fields[f];
            if (!in_scope(d, type))
                continue;
            for (unsigned i = 0; i < d->count; i++) {
                unsigned lo = d->lo + i * d->stride;
                if (lo / 32 != word)
                    continue;
                uint32_t v = sph_bits(w, d->hi + i * d->stride, lo);
                /* scalars always, array elements and reserved bits when set */
                if (d->count > 1 || strncmp(d->name, "RESERVED", 8) == 0) {
                    if (v)
                        fprintf(out, " %s[%u]=%u", d->name, i, v);
                } else {
                    fprintf(out, " %s=%u", d->name, v);
                }
            }
        }
        fprintf(out, "\n");
    }
    if (n % 4) { /* a partial last word: its bytes, so the text assembles back */
        fprintf(out, "    .byte");
        for (size_t i = n / 4 * 4; i < n; i++)
            fprintf(out, "%s0x%02x", i > n / 4 * 4 ? ", " : " ", sph[i]);
        fprintf(out, "\n");
    }
    return problem[0] ? 1 : 0;
}
