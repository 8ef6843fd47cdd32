/* Budgets and watchdogs (device.h CG_BUDGET_TABLE): defaults, setting,
 * restoring, names. The families' use of them is tested with each family. */
#include "check.h"
#include "cmdgpu/cmdgpu.h"

int main(void)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);

    /* the table: every budget has a unique name, a description and a
     * default > 0, and the device starts at the defaults */
    for (int i = 0; i < CG_BUDGET_COUNT; i++) {
        cg_budget b = (cg_budget)i, back = CG_BUDGET_COUNT;
        CHECK(cg_budget_default(b) > 0);
        CHECK(cg_budget_description(b)[0] != 0);
        CHECK_EQ(cg_budget_from_name(cg_budget_name(b), &back), 0);
        CHECK_EQ(back, b);
        CHECK_EQ(cg_device_budget(dev, b), cg_budget_default(b));
        for (int j = 0; j < i; j++)
            CHECK(strcmp(cg_budget_name(b), cg_budget_name((cg_budget)j)) != 0);
    }
    /* documented defaults (docs/faults.md "Budgets") */
    CHECK_EQ(cg_budget_default(CG_BUDGET_NV_MACRO_INSNS), 1u << 24);
    CHECK_EQ(cg_budget_default(CG_BUDGET_NV_WAIT_RUNS), 2);
    CHECK_EQ(cg_budget_default(CG_BUDGET_NV_OP_BYTES), 256u << 20);
    CHECK_EQ(cg_budget_default(CG_BUDGET_RADEON_WAIT_POLLS), 1000);
    CHECK_EQ(cg_budget_default(CG_BUDGET_RADEON_RUN_DWORDS), 1u << 26);
    CHECK_EQ(cg_budget_default(CG_BUDGET_VC4_THREAD_UNITS), 1u << 24);
    CHECK_EQ(cg_budget_default(CG_BUDGET_VC4_QPU_INSNS), 1u << 16);
    CHECK_STR(cg_budget_name(CG_BUDGET_NV_MACRO_INSNS), "nv.macro-insns");

    /* set, read back, restore with 0; other budgets untouched */
    CHECK_EQ(cg_device_set_budget(dev, CG_BUDGET_VC4_QPU_INSNS, 77), 0);
    CHECK_EQ(cg_device_budget(dev, CG_BUDGET_VC4_QPU_INSNS), 77);
    CHECK_EQ(cg_device_budget(dev, CG_BUDGET_VC4_THREAD_UNITS), 1u << 24);
    CHECK_EQ(cg_device_set_budget(dev, CG_BUDGET_VC4_QPU_INSNS, 0), 0);
    CHECK_EQ(cg_device_budget(dev, CG_BUDGET_VC4_QPU_INSNS), 1u << 16);

    /* a second device is independent */
    cg_device *dev2 = NULL;
    CHECK_EQ(cg_device_create(&dev2), 0);
    CHECK_EQ(cg_device_set_budget(dev2, CG_BUDGET_NV_WAIT_RUNS, 9), 0);
    CHECK_EQ(cg_device_budget(dev, CG_BUDGET_NV_WAIT_RUNS), 2);
    CHECK_EQ(cg_device_budget(dev2, CG_BUDGET_NV_WAIT_RUNS), 9);
    cg_device_destroy(dev2);

    /* bad arguments */
    CHECK_EQ(cg_device_set_budget(NULL, CG_BUDGET_NV_WAIT_RUNS, 1), CG_ERR_INVAL);
    CHECK_EQ(cg_device_set_budget(dev, CG_BUDGET_COUNT, 1), CG_ERR_INVAL);
    CHECK_EQ(cg_device_set_budget(dev, (cg_budget)-1, 1), CG_ERR_INVAL);
    CHECK_EQ(cg_device_budget(NULL, CG_BUDGET_NV_WAIT_RUNS), 2);
    CHECK_EQ(cg_device_budget(dev, CG_BUDGET_COUNT), 0);
    CHECK_STR(cg_budget_name(CG_BUDGET_COUNT), "?");
    CHECK_STR(cg_budget_description(CG_BUDGET_COUNT), "");
    CHECK_EQ(cg_budget_default(CG_BUDGET_COUNT), 0);
    CHECK_EQ(cg_budget_from_name("nv.nothing", NULL), CG_ERR_NOENT);
    CHECK_EQ(cg_budget_from_name(NULL, NULL), CG_ERR_NOENT);

    cg_device_destroy(dev);
    return check_report("test_budget");
}
