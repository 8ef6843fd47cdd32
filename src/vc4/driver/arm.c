/* vc4 family: the ARM's view of memory (the CPU side of the device).
 *
 * The ARM sees SDRAM at bus & 0x3FFFFFFF (docs/vc4.md "Memory"): any of the
 * four bus aliases names the same byte. Its address space (cg_vc4's arm,
 * made by cg_vc4_create in gpu/v3d.c) carries the core's CPU cache model
 * when cg_vc4_config.cpu_cached is set (cg_vas_cpu_*): a GPU read of a
 * line the ARM has not flushed raises stale-gpu-read. The V3D side (the
 * device, its registers and the mailbox) stays in gpu/v3d.c. */
#include "vc4/vc4_internal.h"

static int arm_range(const cg_vc4 *v, uint32_t addr, size_t n, uint32_t *phys)
{
    if (!v)
        return CG_ERR_INVAL;
    uint32_t p = addr & 0x3FFFFFFFu;
    if ((uint64_t)p + n > v->cfg.sdram_size)
        return CG_ERR_RANGE;
    *phys = p;
    return 0;
}

int cg_vc4_cpu_write(cg_vc4 *v, uint32_t addr, const void *src, size_t n)
{
    uint32_t p;
    int rc = arm_range(v, addr, n, &p);
    return rc ? rc : cg_vas_cpu_write(v->arm, p, src, n);
}
int cg_vc4_cpu_read(cg_vc4 *v, uint32_t addr, void *dst, size_t n)
{
    uint32_t p;
    int rc = arm_range(v, addr, n, &p);
    return rc ? rc : cg_vas_cpu_read(v->arm, p, dst, n);
}
int cg_vc4_cpu_write32(cg_vc4 *v, uint32_t addr, uint32_t val)
{
    uint8_t b[4] = {(uint8_t)val, (uint8_t)(val >> 8), (uint8_t)(val >> 16), (uint8_t)(val >> 24)};
    return cg_vc4_cpu_write(v, addr, b, 4);
}
int cg_vc4_cpu_read32(cg_vc4 *v, uint32_t addr, uint32_t *val)
{
    uint8_t b[4];
    int rc = cg_vc4_cpu_read(v, addr, b, 4);
    if (rc == 0)
        *val = vc4_le32(b);
    return rc;
}
int cg_vc4_cpu_flush(cg_vc4 *v, uint32_t addr, size_t n)
{
    uint32_t p;
    int rc = arm_range(v, addr, n, &p);
    return rc ? rc : cg_vas_cpu_flush(v->arm, p, n);
}
int cg_vc4_cpu_invalidate(cg_vc4 *v, uint32_t addr, size_t n)
{
    uint32_t p;
    int rc = arm_range(v, addr, n, &p);
    return rc ? rc : cg_vas_cpu_invalidate(v->arm, p, n);
}
