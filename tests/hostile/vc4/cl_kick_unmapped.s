# hostile: CT1 kicked at a bus address no alias maps; after CT1CS reset a new bin+render job draws
# fault: kind=unmapped unit=ct1 channel=1 gpu_addr=0x10000000 stream_addr=0x10000000 words=-
# message: no mapping at 0x10000000
#
# The bus maps the 64 MiB of SDRAM four times, at 0x00000000, 0x40000000,
# 0x80000000 and 0xC0000000 (docs/vc4.md "Memory"; research/vc4.md 5), so
# 0x10000000 lies in the hole after the first alias. The thread's first
# fetch (the opcode byte at CT1CA) faults: gpu_addr and stream_addr are both
# CT1CA, and no word was read, so words=-.

.include "good_job.inc"

# ---- the scene ----
.kick 1, 0x10000000, 0x10000010
.expect_reg CT1CA, 0x10000000          # CA stays on the record it could not fetch
.expect_reg CT1CS, 0x00000008          # not running, error bit (3) set
.include "good_job_run.inc"
