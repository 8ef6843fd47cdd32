/* Fuzzes every capture loader (include/cmdgpu/capture.h). Byte 0 picks the
 * loader: 0 detection (cg_capture_detect) then the loader it names, 1 the
 * radeon debugfs ring dump, 2 the vc4 hang state, 3 the VC4_DEBUG=cl text,
 * 4 raw nv pushbuffer words; the rest is the file. A file that loads is
 * also disassembled and, for ring dumps and hang states, replayed with small
 * budgets. Any input must give a load error or a defined run: never a
 * crash, a leak, or an allocation beyond what the file holds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/capture.h"

static cg_device *small_device(void)
{
    cg_device *dev;
    if (cg_device_create(&dev) != 0)
        return NULL;
    cg_device_set_budget(dev, CG_BUDGET_RADEON_RUN_DWORDS, 1u << 14);
    cg_device_set_budget(dev, CG_BUDGET_RADEON_WAIT_POLLS, 3);
    cg_device_set_budget(dev, CG_BUDGET_VC4_THREAD_UNITS, 1u << 14);
    cg_device_set_budget(dev, CG_BUDGET_VC4_QPU_INSNS, 1u << 10);
    return dev;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20))
        return 0;
    /* hang states replay with the vc4 tile pool from the first frame (the
     * host's CPUs), so its pre-pass follows the hostile lists too */
    setenv("CMDGPU_VC4_POOL_AT_ONCE", "1", 0);
    int which = data[0] % 5;
    const uint8_t *d = data + 1;
    size_t n = size - 1;
    FILE *out = fopen("/dev/null", "w");
    if (!out)
        return 0;
    cg_capture_error e;
    if (which == 0) {
        /* the detected format through its family's descriptor: what
         * `cmdgpu disasm` and `cmdgpu run` do with it */
        const cg_capture_desc *f = cg_capture_detect(d, n);
        which = f == cg_capture_find("radeon-ring-dump") ? 1
                : f == cg_capture_find("vc4-hang-state") ? 2
                : f == cg_capture_find("vc4-cl-dump")    ? 3
                                                         : 4;
        if (f && f->family) {
            cg_text_opts t = {.name = "fuzz", .json = n & 1};
            f->disasm(&t, d, n, out, &e);
            cg_device *dev = f->run ? small_device() : NULL;
            if (dev)
                f->run(&t, d, n, dev, NULL, out, &e);
            cg_device_destroy(dev);
        }
    }
    if (which == 1) {
        cg_radeon_ringdump *r;
        if (cg_radeon_ringdump_parse(d, n, &r, &e) == 0) {
            cg_radeon_disasm_opts o = {.gen = (cg_radeon_gen)(n % CG_RADEON_GEN_COUNT)};
            cg_radeon_ringdump_disasm(r, &o, out);
            o.json = true;
            cg_radeon_ringdump_disasm(r, &o, out);
            cg_device *dev = small_device();
            cg_radeon_ringdump_result res;
            if (dev)
                cg_radeon_ringdump_replay(r, dev, CG_RADEON_R600, &res, NULL);
            cg_device_destroy(dev);
            cg_radeon_ringdump_free(r);
        }
    } else if (which == 2) {
        cg_vc4_hang_state *h;
        if (cg_vc4_hang_parse(d, n, &h, &e) == 0) {
            cg_vc4_disasm_opts o = {.prim_format = 0x12, .max_records = 4096};
            cg_vc4_hang_disasm(h, &o, out);
            o.json = true;
            cg_vc4_hang_disasm(h, &o, out);
            cg_device *dev = small_device();
            cg_vc4_hang_result res;
            if (dev)
                cg_vc4_hang_replay(h, dev, &res, NULL);
            cg_device_destroy(dev);
            cg_vc4_hang_free(h);
        }
    } else if (which == 3) {
        cg_vc4_cl_textdump *t;
        if (cg_vc4_cl_textdump_parse(d, n, &t, &e) == 0) {
            cg_vc4_disasm_opts o = {.prim_format = 0x12};
            cg_vc4_cl_disasm(&o, t->bytes, t->size, out);
            cg_vc4_cl_textdump_free(t);
        }
    } else {
        uint32_t *w;
        size_t nw;
        if (cg_nv_pushdump_load(d, n, &w, &nw, &e) == 0) {
            cg_nv_disasm_opts o = {0};
            cg_nv_disasm(w, nw, &o, out);
            free(w);
        }
    }
    fclose(out);
    return 0;
}
