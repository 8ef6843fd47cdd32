#!/usr/bin/env bash
# `cmdgpu check -f radeon`: exit codes (0 clean, 1 violations, 2 usage, 3
# input), the text and JSON reports, a binary IB checked through .incbin,
# --section and --gen, and the examples (scenes, which are not user IBs: the
# checker says exactly why). Offsets are worked out in the comments.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
same() { # what, expected text; compares with $tmp/out
    if [ "$(cat "$tmp/out")" = "$2" ]; then ok; else bad "$1"; echo "got:"; cat "$tmp/out"; echo "want:"; echo "$2"; fi
}

# A valid user IB: 3 + 5 + 2 + 6 + 2 dwords, 5 packets.
cat > "$tmp/ok.s" <<'S'
        .bo color, 4096, vram
        .bo fence, 64, gtt, 0x100000000
        SET_CONFIG_REG WAIT_UNTIL, 1 << 15
        MEM_WRITE 0, 1 << 18, 0x1234, 0
        NOP fence
        EVENT_WRITE_EOP 0x514, 8, (1 << 29) | (2 << 24), 1, 0
        NOP fence
S
expect 0 "clean" -- "$bin" check -f radeon "$tmp/ok.s"
same "clean report" "radeon: 5 item(s) checked, 0 violation(s): ok"
expect 0 "clean --json" -- "$bin" check -f radeon --json "$tmp/ok.s"
same "clean json" '{"family":"radeon","checked":5,"violations":[],"dropped":0,"ok":true}'

# Violations, every one, in stream order:
#   0x00 MEM_WRITE 60 into fence (64 bytes): not 8-aligned, 60 + 8 > 64 (address dword at 0x04)
#   0x14 NOP fence
#   0x1c INDIRECT_BUFFER (4 dwords)
#   0x2c SET_CONFIG_REG SCRATCH_REG0: value at 0x34
#   0x38 WAIT_REG_MEM on memory (7 dwords) with no NOP after it: at 0x54, the IB end
cat > "$tmp/bad.s" <<'S'
        .bo color, 4096, vram
        .bo fence, 64, gtt, 0x100000000
        MEM_WRITE 60, 1 << 18, 1, 0
        NOP fence
        INDIRECT_BUFFER 0, 0, 4
        SET_CONFIG_REG SCRATCH_REG0, 1
        WAIT_REG_MEM 0x13, 0, 0, 1, 0xff, 10
S
expect 1 "violations" -- "$bin" check -f radeon "$tmp/bad.s"
same "violation report" "0x00000004: addr-align: MEM_WRITE: address 0x3c is not 8-byte aligned [word 0x0000003c]
0x00000004: bo-bounds: MEM_WRITE: offset 0x3c (GPU 0x10000003c) + 8 bytes is past the end of fence (64 bytes) [word 0x0000003c]
0x0000001c: indirect-buffer: INDIRECT_BUFFER in a user IB: only the kernel chains IBs [word 0xc0023200]
0x00000034: reg-safe: forbidden register SCRATCH_REG0 (0x08500) [word 0x00008500]
0x00000054: reloc-missing: WAIT_REG_MEM of the packet at 0x38 needs a relocation: a PACKET3 NOP must follow, found the end of the IB [word 0x00000000]
radeon: 5 item(s) checked, 5 violation(s)"
expect 1 "violations --json" -- "$bin" check -f radeon --json "$tmp/bad.s"
grep -q '^{"family":"radeon","checked":5,"violations":\[{"rule":"addr-align","where":"0x4","word":"0x3c",' "$tmp/out" \
    && ok || bad "json violations"
grep -q '{"rule":"reloc-missing","where":"0x54","word":"0x0","message":"WAIT_REG_MEM of the packet at 0x38 needs a relocation: a PACKET3 NOP must follow, found the end of the IB"}\],"dropped":0,"ok":false}$' "$tmp/out" \
    && ok || bad "json last violation"

# A binary IB (as captured) with its relocation chunk declared around it.
printf '        MEM_WRITE 16, 1 << 18, 7, 0\n        NOP 4\n' > "$tmp/ib.s"
expect 0 "asm binary ib" -- "$bin" asm -f radeon -o "$tmp/ib.bin" "$tmp/ib.s"
printf '        .bo color, 4096, vram\n        .bo fence, 16, gtt\n        .incbin "ib.bin"\n' > "$tmp/bin.s"
expect 1 "binary ib" -- "$bin" check -f radeon "$tmp/bin.s"
same "binary ib report" "0x00000004: bo-bounds: MEM_WRITE: offset 0x10 + 8 bytes is past the end of fence (16 bytes) [word 0x00000010]
radeon: 2 item(s) checked, 1 violation(s)"

# --section picks the IB; a missing one is an input error.
printf '.section a\nNOP 0\n.section b\nINDIRECT_BUFFER 0, 0, 1\n' > "$tmp/sec.s"
expect 1 "--section b" -- "$bin" check -f radeon --section b "$tmp/sec.s"
grep -q '^0x00000000: indirect-buffer: ' "$tmp/out" && ok || bad "section b checked"
expect 0 "first section" -- "$bin" check -f radeon "$tmp/sec.s"
same "first section report" "radeon: 1 item(s) checked, 0 violation(s): ok"
expect 3 "missing section" -- "$bin" check -f radeon --section zz "$tmp/sec.s"
grep -q "check: no section 'zz' in" "$tmp/err" && ok || bad "missing section message"

# Errors: syntax (3), .bo errors (3), generations not supported (2), usage (2).
printf 'MEM_WRITE 0,\n' > "$tmp/syn.s"
expect 3 "syntax error" -- "$bin" check -f radeon "$tmp/syn.s"
printf '.bo a, 0, vram\n' > "$tmp/bo.s"
expect 3 ".bo error" -- "$bin" check -f radeon "$tmp/bo.s"
grep -q 'bo.s:1:.*\.bo: size must be 1 byte to 1 TiB' "$tmp/err" && ok || bad ".bo message: $(cat "$tmp/err")"
expect 2 "--gen evergreen" -- "$bin" check -f radeon --gen evergreen "$tmp/ok.s"
grep -q 'evergreen and r500 checkers are not supported yet' "$tmp/err" && ok || bad "evergreen message"
expect 0 "--gen r700" -- "$bin" check -f radeon --gen r700 "$tmp/ok.s"
expect 2 "bad --gen" -- "$bin" check -f radeon --gen r900 "$tmp/ok.s"
expect 2 "no file" -- "$bin" check -f radeon
expect 0 "stdin" -- "$bin" check -f radeon - < "$tmp/ok.s"

# The examples are scenes: their streams go to the ring or run as the
# kernel's own IBs, so none is a valid user IB; the checker says why.
#   wait_handshake.s, section stream: WAIT_REG_MEM (7 dwords) on memory
#   without a NOP (0x1c holds MEM_WRITE); MEM_WRITE (5 dwords) takes the
#   trace-point NOP at 0x30 as its relocation, index 0xCAFE0001 at 0x34.
expect 1 "wait_handshake" -- "$bin" check -f radeon --section stream "$src/examples/radeon/wait_handshake.s"
same "wait_handshake report" "0x0000001c: reloc-missing: WAIT_REG_MEM of the packet at 0x0 needs a relocation: a PACKET3 NOP must follow, found another packet [word 0xc0033d00]
0x00000034: reloc-index: relocation 3405643777 for MEM_WRITE: there is no relocation chunk (no .bo declared) [word 0xcafe0001]
radeon: 3 item(s) checked, 2 violation(s)"
#   ib_chain.s, section ib1: scratch registers (values at 0x08, 0x24) and
#   the IB1 -> IB2 call at 0x0c.
expect 1 "ib_chain ib1" -- "$bin" check -f radeon --section ib1 "$src/examples/radeon/ib_chain.s"
same "ib_chain report" "0x00000008: reg-safe: forbidden register SCRATCH_REG4 (0x08510) [word 0x00008510]
0x0000000c: indirect-buffer: INDIRECT_BUFFER in a user IB: only the kernel chains IBs [word 0xc0023200]
0x00000024: reg-safe: forbidden register SCRATCH_REG6 (0x08518) [word 0x00008518]
radeon: 3 item(s) checked, 3 violation(s)"
# Every example that is a user IB (it declares its relocations with .bo)
# must pass; every scene (no .bo) must be refused with a reason.
while IFS= read -r s; do
    if grep -qE '^[[:space:]]*\.bo[[:space:]]' "$s"; then
        expect 0 "check $s" -- "$bin" check -f radeon "$s"
    else
        expect 1 "check $s" -- "$bin" check -f radeon "$s"
        grep -qE '^0x[0-9a-f]{8}: [a-z0-9-]+: ' "$tmp/out" && ok || bad "$s: no reason given"
    fi
done < <(find "$src/examples/radeon" -name '*.s' | sort)

finish radeon_check_cli
