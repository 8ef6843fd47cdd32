/* A name -> number index over a static table (not installed): an
 * open-addressing hash built once, so assemblers find mnemonics, methods and
 * registers in one probe instead of a strcmp scan over the table.
 *
 * Build it once per table (cg_nameidx_once with a pthread_once_t, or at
 * device creation); after that it is read-only and safe from any thread.
 * Keys are not copied: they must outlive the index (static tables do). */
#ifndef CMDGPU_CORE_NAMEIDX_H
#define CMDGPU_CORE_NAMEIDX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cg_nameidx {
    uint32_t cap;         /* slots, a power of two over twice the keys; 0 = empty */
    const char **key;     /* NULL = free slot */
    uint32_t *len, *val;  /* key length; the number stored with it */
} cg_nameidx;

/* Add `n` keys: name_at(tab, i) gives key i (NULL to skip it), stored with
 * value i. On a duplicate key the first one stays (tables list preferred
 * spellings first). Returns 0, or -1 if out of memory (the index is then
 * empty and every lookup fails: callers fall back to their scan). */
int cg_nameidx_build(cg_nameidx *ix, size_t n, const char *(*name_at)(const void *tab, size_t i),
                     const void *tab);
void cg_nameidx_free(cg_nameidx *ix);
/* The value stored with the key equal to name[0..len), or false. */
bool cg_nameidx_find(const cg_nameidx *ix, const char *name, size_t len, uint32_t *val);

#endif
