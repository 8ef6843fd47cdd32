/* Name index: see nameidx.h. FNV-1a over the bytes, linear probing. */
#include "nameidx.h"
#include <stdlib.h>
#include <string.h>

static uint32_t hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

int cg_nameidx_build(cg_nameidx *ix, size_t n, const char *(*name_at)(const void *tab, size_t i),
                     const void *tab)
{
    *ix = (cg_nameidx){0};
    uint32_t cap = 16;
    while (cap < 2 * n + 1) {
        if (cap > (UINT32_MAX >> 2))
            return -1;
        cap *= 2;
    }
    ix->key = calloc(cap, sizeof *ix->key);
    ix->len = calloc(cap, sizeof *ix->len);
    ix->val = calloc(cap, sizeof *ix->val);
    if (!ix->key || !ix->len || !ix->val) {
        cg_nameidx_free(ix);
        return -1;
    }
    ix->cap = cap;
    for (size_t i = 0; i < n; i++) {
        const char *k = name_at(tab, i);
        if (!k)
            continue;
        size_t len = strlen(k);
        for (uint32_t h = hash(k, len);; h++) {
            h &= cap - 1;
            if (!ix->key[h]) {
                ix->key[h] = k;
                ix->len[h] = (uint32_t)len;
                ix->val[h] = (uint32_t)i;
                break;
            }
            if (ix->len[h] == len && memcmp(ix->key[h], k, len) == 0)
                break; /* duplicate: the first stays */
        }
    }
    return 0;
}

void cg_nameidx_free(cg_nameidx *ix)
{
    free(ix->key);
    free(ix->len);
    free(ix->val);
    *ix = (cg_nameidx){0};
}

bool cg_nameidx_find(const cg_nameidx *ix, const char *name, size_t len, uint32_t *val)
{
    if (!ix->cap || !name)
        return false;
    for (uint32_t h = hash(name, len);; h++) {
        h &= ix->cap - 1;
        if (!ix->key[h])
            return false;
        if (ix->len[h] == len && memcmp(ix->key[h], name, len) == 0) {
            *val = ix->val[h];
            return true;
        }
    }
}
