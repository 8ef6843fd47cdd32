#!/usr/bin/env bash
# The radeon family through the cmdgpu command: asm/disasm round trip,
# --gen, error exits, scenes with `cmdgpu run` (passing and faulting).
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"

"$bin" help | grep -qE '^  radeon .*\[ disasm asm run check \]$' && ok || bad "help lists radeon disasm asm run check"

cat > "$tmp/a.s" <<'S'
        SET_CONFIG_REG SCRATCH_REG1, 0xdeadbeef
        SET_CONTEXT_REG CB_COLOR0_BASE+8, 0x100, 0x200
        packet0 CP_INT_STATUS, 0x80000000
        packet2
        NOP 0xCAFE0003
        EVENT_WRITE_EOP 0x514, 0x2000, 0x44000000, 5, 0
        packet3 0x18, 1
S
expect 0 "asm" -- "$bin" asm -f radeon -o "$tmp/a.bin" "$tmp/a.s"
[ "$(od -An -tx4 -N12 "$tmp/a.bin" | tr -s ' ')" = " c0016800 00000141 deadbeef" ] && ok || bad "asm bytes"
expect 0 "disasm" -- "$bin" disasm -f radeon -o "$tmp/a.dis" "$tmp/a.bin"
grep -q '^SET_CONFIG_REG SCRATCH_REG1, 0xdeadbeef  # 0x0000 c0016800 type 3, count 1$' "$tmp/a.dis" && ok || bad "disasm names the packet"
grep -q '^    # 0x0020 80000000  CP_INT_STATUS = 0x80000000 (RB_INT_STAT=0x1)$' "$tmp/a.dis" && ok || bad "disasm register fields"
grep -q 'UNKNOWN opcode 0x18 for r600' "$tmp/a.dis" && ok || bad "unknown opcode marked"
expect 0 "reassemble" -- "$bin" asm -f radeon -o "$tmp/b.bin" "$tmp/a.dis"
cmp -s "$tmp/a.bin" "$tmp/b.bin" && ok || bad "asm(disasm(x)) == x"
# Evergreen names 0x18 MODE_CONTROL; its disassembly round-trips too.
expect 0 "disasm --gen evergreen" -- "$bin" disasm -f radeon --gen evergreen -o "$tmp/e.dis" "$tmp/a.bin"
grep -q '^MODE_CONTROL 0x1  # ' "$tmp/e.dis" && ok || bad "evergreen MODE_CONTROL"
grep -q '^.gen evergreen$' "$tmp/e.dis" && ok || bad ".gen in the output"
expect 0 "reassemble evergreen" -- "$bin" asm -f radeon -o "$tmp/c.bin" "$tmp/e.dis"
cmp -s "$tmp/a.bin" "$tmp/c.bin" && ok || bad "evergreen round trip"
expect 0 "disasm --json" -- "$bin" disasm -f radeon --json "$tmp/a.bin"
grep -q '"name":"SET_CONFIG_REG"' "$tmp/out" && ok || bad "json output"
expect 2 "bad --gen" -- "$bin" disasm -f radeon --gen r900 "$tmp/a.bin"
grep -q "unknown radeon generation 'r900'" "$tmp/err" && ok || bad "bad --gen message"
printf 'SET_CONFIG_REG 0x28000, 1\n' > "$tmp/bad.s"
expect 3 "asm error" -- "$bin" asm -f radeon -o "$tmp/x.bin" "$tmp/bad.s"
grep -q 'bad.s:1:26: SET_CONFIG_REG: register 0x28000 is not in its window' "$tmp/err" && ok || bad "asm error text: $(cat "$tmp/err")"

# INDIRECT_BUFFER followed into the input (loaded at address 0), as comments.
printf 'INDIRECT_BUFFER ib, 0, (end - ib) / 4\n.align 64\nib: SET_CONFIG_REG SCRATCH_REG2, 5\nend:\n' > "$tmp/ib.s"
expect 0 "asm ib" -- "$bin" asm -f radeon -o "$tmp/ib.bin" "$tmp/ib.s"
expect 0 "disasm ib" -- "$bin" disasm -f radeon -o "$tmp/ib.dis" "$tmp/ib.bin"
grep -q '^    #| IB1 at 0x40, 3 dwords:$' "$tmp/ib.dis" && ok || bad "IB followed"
grep -q '^    #|   SET_CONFIG_REG SCRATCH_REG2, 0x5  # 0x0040 c0016800 type 3, count 1$' "$tmp/ib.dis" && ok \
    || bad "IB packets shown"
expect 0 "reassemble ib" -- "$bin" asm -f radeon -o "$tmp/ib2.bin" "$tmp/ib.dis"
cmp -s "$tmp/ib.bin" "$tmp/ib2.bin" && ok || bad "ib round trip"

# Scenes.
for s in "$src"/examples/radeon/*.s; do
    expect 0 "run $(basename "$s")" -- "$bin" run -f radeon "$s"
    grep -q '^cp: idle ' "$tmp/out" && ok || bad "$(basename "$s") ends idle"
done
expect 0 "run --trace" -- "$bin" run -f radeon --trace "$src/examples/radeon/wait_handshake.s"
grep -q '^packet    radeon/cp ch0 @0x100000040 WAIT_REG_MEM op 0x3c header 0xc0053c00$' "$tmp/out" && ok \
    || bad "trace names packets"
expect 2 "run --dump" -- "$bin" run -f radeon --dump 0:4:x "$src/examples/radeon/wait_handshake.s"
grep -q -- '--dump is not supported for radeon yet' "$tmp/err" && ok || bad "--dump message"
cat > "$tmp/fault.s" <<'S'
        .section s, 0x100000
        SET_CONFIG_REG SCRATCH_REG1, 1
        MEM_WRITE 0, 0x80 | (1 << 18), 5, 0      # 0x8000000000: unmapped
        .submit s
        .expect_reg SCRATCH_REG1, 1
S
expect 1 "run faulting scene" -- "$bin" run -f radeon "$tmp/fault.s"
grep -q '^fault #0 unmapped radeon/cp ch 0 addr 0x8000000000' "$tmp/out" && ok || bad "fault line: $(cat "$tmp/out")"
grep -q '^cp: stopped ' "$tmp/out" && ok || bad "cp stopped"
grep -q '^expect reg 0x8504 == 0x00000001: ok$' "$tmp/out" && ok || bad "expectation before the fault"

finish radeon_cli
