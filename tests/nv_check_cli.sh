#!/usr/bin/env bash
# `cmdgpu check -f nv`: every valid example passes (exit 0), a scene breaking
# several rules reports each of them in stream order (exit 1), --json, stdin,
# and input errors (exit 3). Rules and their sources: docs/nv-check.md.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"

"$bin" help | grep -qE '^  nv .*\[ disasm asm run check \]$' && ok || bad "help lists nv check"

for f in blit fence rects textured_square upload_copy; do
    expect 0 "$f.s passes" -- "$bin" check -f nv "$src/examples/nv/$f.s"
    grep -qE '^nv: [0-9]+ item\(s\) checked, 0 violation\(s\): ok$' "$tmp/out" && ok || bad "$f.s summary"
done
# faults.s breaks a rule on purpose: method 0x200 on unbound subchannel 5,
# an IMMD header (4 << 29 | 1 << 16 | 5 << 13 | 0x80) at the pushbuffer's start
expect 1 "faults.s" -- "$bin" check -f nv "$src/examples/nv/faults.s"
[ "$(head -1 "$tmp/out")" = "0x100000000: subch-unbound: method 0x0200 on subchannel 5, which has no object bound [word 0x00000001]" ] \
    && ok || bad "faults.s report: $(head -1 "$tmp/out")"

# Several rules in one scene, reported in stream order: an unbound
# subchannel (IMMD at 0x...000), a reserved opcode (0x...004), a class off
# the allow-list (IMMD data in the header at 0x...008), a semaphore release
# into a 4 KiB buffer 8 bytes before its end (16 bytes: 8 past it, SEMAPHORED
# at 0x...018), and a run of 3 words cut short after 1 (header at 0x...01c).
cat > "$tmp/bad.s" <<'E'
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
start:
    immd 5, 0x0200, 1
    .word 0xC0000000
    immd 1, SET_OBJECT, 0x1234
    immd 0, SEMAPHOREA, sem >> 32
    mthd 0, SEMAPHOREB, (sem + 0xff8) & 0xffffffff
    immd 0, SEMAPHORED, 2
    hdr inc 0, NOP, 3
    .word 0
end:
.submit start, end
E
expect 1 "bad.s" -- "$bin" check -f nv "$tmp/bad.s"
cat > "$tmp/want" <<'E'
0x100000000: subch-unbound: method 0x0200 on subchannel 5, which has no object bound [word 0x00000001]
0x100000004: pb-opcode: secondary opcode 6 is reserved (clb06f.h): the channel faults [word 0xc0000000]
0x100000008: class-allowed: SET_OBJECT: class 0x1234 on subchannel 1 is not one of B197, B1C0, A140, 902D, B0B5 [word 0x00001234]
0x100000018: access-unmapped: host semaphore release writes [0x0100010ff8, +0x10): 0x0100011000 is not mapped [word 0x00000002]
0x10000001c: pb-truncated: channel 0: the method run of this header still waits for 2 data word(s) after the last entry [word 0x20030002]
nv: 9 item(s) checked, 5 violation(s)
E
diff "$tmp/want" "$tmp/out" >/dev/null && ok || { bad "bad.s report"; diff "$tmp/want" "$tmp/out"; }
expect 1 "bad.s --json" -- "$bin" check -f nv --json "$tmp/bad.s"
grep -q '^{"family":"nv","checked":9,"violations":\[{"rule":"subch-unbound","where":"0x100000000","word":"0x1",' "$tmp/out" \
    && ok || bad "json head: $(cut -c1-160 "$tmp/out")"
grep -q '"dropped":0,"ok":false}$' "$tmp/out" && ok || bad "json tail"
expect 1 "stdin" -- "$bin" check -f nv - < "$tmp/bad.s"
grep -q '^nv: 9 item(s) checked, 5 violation(s)$' "$tmp/out" && ok || bad "stdin summary"

# input errors: exit 3
printf '.buffer pb\n' > "$tmp/syntax.s"
expect 3 "syntax error" -- "$bin" check -f nv "$tmp/syntax.s"
grep -q 'syntax.s:1:' "$tmp/err" && ok || bad "syntax error names the line: $(cat "$tmp/err")"
expect 3 "missing file" -- "$bin" check -f nv "$tmp/none.s"

finish nv_check_cli
