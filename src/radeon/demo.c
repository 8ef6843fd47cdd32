/* radeon family: its part of `cmdgpu demo` (include/cmdgpu/family.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "scene.h"

/* seed 004's ring test and IB test through the Linux-shaped driver, then
 * the ring they wrote, disassembled. */
static int demo_ring(cg_demo_ctx *d)
{
    cg_device *dev = NULL;
    cg_radeon *rd = NULL;
    cg_radeon_drv *drv = NULL;
    uint8_t *ring = NULL;
    FILE *f = NULL;
    int rc = -1;
    char msg[256], path[1024];
    if (cg_device_create(&dev) != 0 || cg_radeon_create(dev, NULL, &rd) != 0 ||
        cg_radeon_drv_create(rd, NULL, &drv) != 0)
        goto out;
    fprintf(d->log, "radeon/ring: r600_ring_test and r600_ib_test (seed 004)\n");
    int r1 = cg_radeon_ring_test(drv, msg, sizeof(msg));
    fprintf(d->log, "  %s\n", msg);
    int r2 = cg_radeon_ib_test(drv, msg, sizeof(msg));
    fprintf(d->log, "  %s\n", msg);
    uint32_t size_dw, wptr, rptr, free_dw;
    cg_radeon_ring_info(drv, &size_dw, &wptr, &rptr, &free_dw);
    ring = malloc((size_t)wptr * 4 + 4);
    if (!ring || cg_radeon_cpu_read(rd, cg_radeon_ring_addr(drv), ring, (size_t)wptr * 4) != 0)
        goto out;
    snprintf(path, sizeof(path), "%s/radeon_ring.txt", d->dir);
    if (!(f = fopen(path, "w")))
        goto out;
    cg_radeon_disasm_opts dis = {.gen = CG_RADEON_R600, .base = cg_radeon_ring_addr(drv)};
    cg_radeon_disasm(&dis, ring, (size_t)wptr * 4, f);
    int closed = fclose(f);
    f = NULL;
    if (closed != 0) {
        fprintf(d->log, "  cannot write %s: %s\n", path, strerror(errno));
        goto out;
    }
    fprintf(d->log, "  wrote %-28s %u ring dwords disassembled (rptr %u)\n", path, wptr, rptr);
    cg_demo_faults(d, dev, "radeon");
    rc = (r1 == 0 && r2 == 0) ? 0 : -1;
out:
    if (f)
        fclose(f);
    free(ring);
    cg_radeon_drv_destroy(drv);
    cg_radeon_destroy(rd);
    cg_device_destroy(dev);
    return rc;
}

const cg_demo rd_demos[1] = {{"radeon/ring", demo_ring}};
