/* radeon family, GPU side: memory packets (MEM_WRITE, COPY_DW, CP_DMA). */
#include <stdlib.h>
#include <string.h>
#include "cp_internal.h"

static int check_reg(cg_radeon *rd, uint32_t reg, const char *what)
{
    if (reg >= CG_RADEON_REG_SPACE || (reg & 3))
        return rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                           "%s register 0x%x outside the register space", what, reg);
    return 0;
}

/* Registers first .. first + span (bytes): each inside the register space;
 * the fault names the first one outside it. */
static int check_reg_span(cg_radeon *rd, uint64_t first, uint64_t span, const char *what)
{
    if (first >= CG_RADEON_REG_SPACE || (first & 3))
        return check_reg(rd, (uint32_t)first, what); /* under 4 GiB: checked above */
    if (first + span >= CG_RADEON_REG_SPACE)
        return check_reg(rd, CG_RADEON_REG_SPACE, what);
    return 0;
}


static int cp_dma(cg_radeon *rd, const uint32_t *p)
{
    /* CP_DMA (research/radeon.md; Mesa r600_hw_context.c): dw1 src lo or
     * data, dw2 CP_SYNC/SRC_SEL/ENGINE/DST_SEL/src hi, dw3 dst lo, dw4 dst
     * hi, dw5 BYTE_COUNT and SAS/DAS (register spaces), SAIC/DAIC (no
     * increment). */
    uint32_t srcsel = PGET(p[2], CP_DMA_DW2, DMA_SRC_SEL);
    uint32_t dstsel = PGET(p[2], CP_DMA_DW2, DMA_DST_SEL);
    uint32_t bytes = PGET(p[5], CP_DMA_DW5, BYTE_COUNT);
    bool sas = PGET(p[5], CP_DMA_DW5, SAS), das = PGET(p[5], CP_DMA_DW5, DAS);
    bool saic = PGET(p[5], CP_DMA_DW5, SAIC), daic = PGET(p[5], CP_DMA_DW5, DAIC);
    uint64_t src = addr40(p[1], PGET(p[2], CP_DMA_DW2, DMA_SRC_HI));
    uint64_t dst = addr40(p[3], PGET(p[4], CP_DMA_DW4, DMA_DST_HI));
    if (srcsel == 1 || dstsel != 0)
        return rd_cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                           "CP_DMA to or from GDS is not supported yet");
    if (srcsel == 3)
        return rd_cp_fault(rd, CG_FAULT_BAD_STATE, 0, false, "CP_DMA SRC_SEL 3 is reserved");
    if (PGET(p[5], CP_DMA_DW5, SRC_SWAP) || PGET(p[5], CP_DMA_DW5, DST_SWAP))
        return rd_cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                           "CP_DMA byte swapping (big-endian) is not supported yet");
    if (bytes == 0)
        return EXEC_OK;
    bool data = srcsel == 2;
    bool simple = !sas && !das && !saic && !daic && !data;
    if (simple) {
        if (cg_vas_copy(rd->vas, dst, src, bytes, &rd->agent) != 0) {
            rd->stopped = true;
            return CG_ERR_FAULT;
        }
        uint64_t fend = rd->fbuf_va + 4ull * rd->fbuf_n;
        if (rd->fbuf_n && dst < fend && dst + bytes > rd->fbuf_va)
            rd->fbuf_n = 0;
        return EXEC_OK;
    }
    /* Dword-wise forms: registers, data fill, or a fixed address. */
    if (bytes % 4 || (!sas && !data && (src & 3)) || (!das && (dst & 3)))
        return rd_cp_fault(rd, CG_FAULT_BAD_ALIGN, dst, false,
                           "CP_DMA with registers, data or no-increment needs dword sizes and "
                           "addresses (%u bytes)", bytes);
    uint32_t n = bytes / 4;
    if (sas && (src > 0xFFFFFFFF))
        return rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, src, false,
                           "CP_DMA source register above 4 GiB");
    if (das && (dst > 0xFFFFFFFF))
        return rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, dst, false,
                           "CP_DMA destination register above 4 GiB");
    /* every register the copy touches, first to last, in 64 bits: a 32-bit
     * sum could wrap and let a register past the space through (found by
     * fuzz_radeon_pm4, corpus cp_dma_reg_wrap) */
    if (sas && check_reg_span(rd, src, saic ? 0 : 4ull * (n - 1), "CP_DMA source"))
        return CG_ERR_FAULT;
    if (das && check_reg_span(rd, dst, daic ? 0 : 4ull * (n - 1), "CP_DMA destination"))
        return CG_ERR_FAULT;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v;
        uint64_t s = src + (saic ? 0 : 4ull * i), d = dst + (daic ? 0 : 4ull * i);
        if (data)
            v = p[1];
        else if (sas)
            v = rd->regs[(uint32_t)s / 4];
        else if (rd_mem_read32(rd, s, &v) != 0)
            return CG_ERR_FAULT;
        int rc = das ? rd_cp_reg_write(rd, (uint32_t)d, v) : rd_gpu_write32(rd, d, v);
        if (rc != 0) {
            rd->stopped = true;
            return rc;
        }
    }
    return EXEC_OK;
}


int rd_exec_MEM_WRITE(cg_radeon *rd, const rd_pkt *x)
{
    uint64_t va = addr40(x->p[1], PGET(x->p[2], MEM_WRITE_DW2, MW_ADDR_HI));
    bool d32 = PGET(x->p[2], MEM_WRITE_DW2, MW_DATA32);
    /* r600_cs.c requires 8-byte alignment; DATA32 writes need 4. */
    if (va & (d32 ? 3 : 7))
        return rd_cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false, "MEM_WRITE address 0x%llx misaligned",
                           (unsigned long long)va);
    int rc = d32 ? rd_gpu_write32(rd, va, x->p[3])
                 : rd_gpu_write64(rd, va, (uint64_t)x->p[4] << 32 | x->p[3]);
    if (rc != 0)
        rd->stopped = true;
    return rc ? rc : EXEC_OK;
}

int rd_exec_CP_DMA(cg_radeon *rd, const rd_pkt *x)
{
    return cp_dma(rd, x->p);
}

int rd_exec_COPY_DW(cg_radeon *rd, const rd_pkt *x)
{
    /* r600_cs.c: dw1 bit0 source is memory, bit1 destination is memory;
     * dw2/dw3 source (lo, hi or register dword offset), dw4/dw5 dest. */
    uint32_t v;
    if (PGET(x->p[1], COPY_DW_DW1, COPY_SRC_MEM)) {
        uint64_t va = addr40(x->p[2], x->p[3]);
        if (va & 3)
            return rd_cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false, "COPY_DW source misaligned");
        if (rd_mem_read32(rd, va, &v) != 0)
            return CG_ERR_FAULT;
    } else {
        uint64_t reg = 4ull * x->p[2];
        if (reg >= CG_RADEON_REG_SPACE)
            return rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                               "COPY_DW source register outside the register space");
        rd_reg_read_nl(rd, (uint32_t)reg, &v);
    }
    if (PGET(x->p[1], COPY_DW_DW1, COPY_DST_MEM)) {
        uint64_t va = addr40(x->p[4], x->p[5]);
        if (va & 3)
            return rd_cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false, "COPY_DW destination misaligned");
        int rc = rd_gpu_write32(rd, va, v);
        if (rc != 0)
            rd->stopped = true;
        return rc ? rc : EXEC_OK;
    }
    uint64_t reg = 4ull * x->p[4];
    if (reg >= CG_RADEON_REG_SPACE)
        return rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                           "COPY_DW destination register outside the register space");
    return rd_cp_reg_write(rd, (uint32_t)reg, v) ? CG_ERR_FAULT : EXEC_OK;
}
