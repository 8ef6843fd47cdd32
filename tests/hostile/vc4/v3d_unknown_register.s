# hostile: writes to V3D register offsets with nothing behind them: ignored, read 0, no fault; the GPU works on
#
# Offsets inside the 4 KiB V3D block that name no register (0xF00, and
# 0x00C between IDENT2 at 0x008 and SCRATCH at 0x010) read 0 and ignore
# writes (docs/vc4.md "Registers": "Unknown offsets read 0";
# research/vc4.md 2 lists the registers, from vc4_regs.h). The write is
# not an error the V3D can report, so no fault is logged; IDENT0 still
# reads 0x02443356 and the next job bins and renders.
.section bad, 0x00020000
     .word 0

.include "good_job.inc"

# ---- the scene ----
.reg 0xF00, 0x12345678
.reg 0x00C, 0xFFFFFFFF
.expect_reg 0xF00, 0
.expect_reg 0x00C, 0
.expect_reg IDENT0, 0x02443356
.include "good_job_run.inc"
