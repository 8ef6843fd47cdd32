/* A growing byte buffer for the vc4 benches to build control lists and
 * vertex data in, little-endian. */
#ifndef CMDGPU_BENCH_CL_BUF_H
#define CMDGPU_BENCH_CL_BUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct cl {
    uint8_t *b;
    size_t n, cap;
} cl;

static inline void put(cl *c, const void *p, size_t n)
{
    if (c->n + n > c->cap) {
        c->cap = (c->cap + n) * 2;
        c->b = realloc(c->b, c->cap);
        if (!c->b)
            exit(1);
    }
    memcpy(c->b + c->n, p, n);
    c->n += n;
}
static inline void u8(cl *c, uint8_t v) { put(c, &v, 1); }
static inline void u16(cl *c, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(c, b, 2);
}
static inline void u32(cl *c, uint32_t v)
{
    u16(c, (uint16_t)v);
    u16(c, (uint16_t)(v >> 16));
}
static inline void f32(cl *c, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u32(c, u);
}

#endif
