/* libcmdgpu-vcio's firmware allocator (issue 34): mem_alloc reuses what
 * mem_free released, as the firmware's heap does. The heap is the upper
 * half of the model's 256 MiB SDRAM (bus 0x08000000; flags 0x4, DIRECT,
 * lock to the 0xC... alias): a thousand alloc/free rounds of one block, of
 * two blocks of mixed sizes, more than 16 live blocks, and a fragmented heap
 * whose holes are filled first fit and coalesce when neighbours are freed,
 * each checked to the exact handle (they grow, never reused: a stale one
 * names no newer block) and bus address. Exit 0: pass; else the
 * number of failed checks. */
#include <stdio.h>
#include "mailbox.h"

#define BASE 0xC8000000u /* the heap's start in the DIRECT alias */
#define HEAP (128u << 20)

static int fails, mb;
static unsigned next_handle; /* handles grow: 1, 2, ... */

static void check(int ok, const char *what, unsigned got, unsigned want)
{
    if (!ok && fails++ < 20)
        fprintf(stderr, "FAIL %s: got 0x%08x, want 0x%08x\n", what, got, want);
}

/* Allocate and lock: the next handle, at this bus address. */
static unsigned alloc_at(unsigned size, unsigned align, unsigned want_bus, const char *what)
{
    unsigned h = mem_alloc(mb, size, align, 0x4);
    next_handle++;
    check(h == next_handle, what, h, next_handle);
    unsigned bus = h ? mem_lock(mb, h) : 0;
    check(bus == want_bus, what, bus, want_bus);
    return h;
}

static void release(unsigned h, const char *what)
{
    unsigned r = mem_unlock(mb, h);
    check(r == 0, what, r, 0);
    r = mem_free(mb, h);
    check(r == 0, what, r, 0);
}

int main(void)
{
    mb = mbox_open();
    if (mb < 0)
        return 1;
    /* one block a thousand times: the same address each time */
    for (int i = 0; i < 1000; i++)
        release(alloc_at(4096, 4096, BASE, "alloc/free round"), "free round");
    /* two blocks of mixed sizes, freed in either order */
    for (int i = 0; i < 1000; i++) {
        unsigned a = alloc_at(16u * (1 + (unsigned)i % 200), 16, BASE, "mixed: small block");
        unsigned b = alloc_at(4096u * (1 + (unsigned)i % 3), 4096, BASE + 4096,
                              "mixed: page-aligned block");
        release(i & 1 ? a : b, "mixed: first free");
        release(i & 1 ? b : a, "mixed: second free");
    }
    /* a released handle is no longer valid */
    unsigned r = mem_free(mb, next_handle);
    check(r != 0, "release of a released handle", r, 1);
    /* more than 16 live blocks */
    unsigned hs[40];
    for (unsigned i = 0; i < 40; i++)
        hs[i] = alloc_at(4096, 4096, BASE + 4096 * i, "forty blocks");
    for (unsigned i = 0; i < 40; i++)
        release(hs[i], "forty blocks: free");
    /* fragmentation: a hole is filled first fit; freed neighbours coalesce */
    unsigned A = alloc_at(4096, 4096, BASE, "A");
    unsigned B = alloc_at(8192, 4096, BASE + 0x1000, "B");
    unsigned C = alloc_at(4096, 4096, BASE + 0x3000, "C");
    unsigned D = alloc_at(100, 16, BASE + 0x4000, "D");
    release(B, "free B");
    unsigned E = alloc_at(4096, 4096, BASE + 0x1000, "E in B's hole");
    unsigned F = alloc_at(4096, 4096, BASE + 0x2000, "F in the rest of it");
    unsigned G = alloc_at(64, 16, BASE + 0x4070, "G after D, aligned");
    unsigned H = alloc_at(4096, 4096, BASE + 0x5000, "H past the aligned end");
    release(A, "free A");
    release(E, "free E");
    unsigned AE = alloc_at(8192, 4096, BASE, "A and E coalesced");
    unsigned S = alloc_at(16, 16, BASE + 0x40b0, "a small one after G");
    unsigned all[] = {AE, S, C, D, F, G, H};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; i++)
        release(all[i], "free all");
    unsigned W = alloc_at(HEAP, 4096, BASE, "the whole heap, once everything is free");
    unsigned h = mem_alloc(mb, 16, 16, 0x4);
    check(h == 0, "a full heap", h, 0);
    release(W, "free the heap");
    mbox_close(mb);
    if (fails)
        fprintf(stderr, "vcio_alloc: %d check(s) failed\n", fails);
    else
        printf("vcio_alloc: ok\n");
    return fails;
}
