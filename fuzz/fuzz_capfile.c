/* Fuzzes the CMDGPUCAP container (include/cmdgpu/capfile.h): random bytes
 * through the reader, the listing (text and JSON), and the replay of what
 * parses, on a device with small budgets (the capture's own budgets are
 * overridden) and with every file the scene would write (nv .dump/.png,
 * vc4 .png) sent to /dev/null. Any input must give a parse error, a replay
 * refusal (CG_ERR_SYNTAX) or a defined run: never a crash, a leak, or an
 * allocation beyond what the file holds. Captures with more than 64 actions
 * are parsed and listed but not replayed (bounded time per input). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "cmdgpu/cmdgpu.h"

static void small_budgets(cg_device *dev)
{
    cg_device_set_budget(dev, CG_BUDGET_NV_WAIT_RUNS, 2);
    cg_device_set_budget(dev, CG_BUDGET_NV_OP_BYTES, 1u << 20);
    cg_device_set_budget(dev, CG_BUDGET_NV_MACRO_INSNS, 1u << 12);
    cg_device_set_budget(dev, CG_BUDGET_RADEON_RUN_DWORDS, 1u << 14);
    cg_device_set_budget(dev, CG_BUDGET_RADEON_WAIT_POLLS, 3);
    cg_device_set_budget(dev, CG_BUDGET_VC4_THREAD_UNITS, 1u << 14);
    cg_device_set_budget(dev, CG_BUDGET_VC4_QPU_INSNS, 1u << 10);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    FILE *out = fopen("/dev/null", "w");
    if (!out)
        return 0;
    cg_capfile *c = NULL;
    cg_capture_error e;
    if (cg_capfile_parse(data, size, &c, &e) == 0) {
        cg_capfile_disasm_opts o = {0};
        cg_capfile_disasm(c, &o, out);
        o.json = true;
        cg_capfile_disasm(c, &o, out);
        bool big = false;
        for (size_t i = 0; i < c->nact; i++) {
            cg_capfile_action *a = &c->act[i];
            bool file = (c->family == CG_FAMILY_NV && (a->kind == 8 || a->kind == 9)) ||
                        (c->family == CG_FAMILY_VC4 && a->kind == 12);
            if (file && c->family == CG_FAMILY_NV)
                a->str2 = "/dev/null", a->str2_len = 9;
            else if (file)
                a->str1 = "/dev/null", a->str1_len = 9;
            /* dumps print to the log: keep them short */
            if ((c->family == CG_FAMILY_RADEON && a->kind == 10 && a->b > 256) ||
                (c->family == CG_FAMILY_VC4 && a->kind == 10 && a->b > 1024))
                big = true;
        }
        cg_device *dev = NULL;
        if (c->nact <= 64 && !big && cg_capfile_device(c, &dev) == 0) {
            small_budgets(dev);
            cg_scene_opts so = {.log = out};
            cg_capfile_run(c, dev, &so);
            cg_capfile_fault_hash(dev, 0);
        }
        cg_device_destroy(dev);
        cg_capfile_free(c);
    }
    fclose(out);
    return 0;
}
