#!/usr/bin/env bash
# `cmdgpu run -f vc4-qpu`: a program on 3 QPUs with per-QPU uniforms, a
# memory dump, the JSON form, a semaphore deadlock's HANG faults and
# option errors (docs/vc4-gpgpu.md).
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"

cat > "$tmp/add.s" <<'S'
mov r0, unif
mov r1, unif
add r0, r0, r1
mov irq, r0
nop ; nop ; thrend
nop
nop
S
expect 0 "run 3 QPUs" -- "$bin" run -f vc4-qpu "$tmp/add.s" --qpus 3 --uniforms q,40 \
    --dump 0x1F00400:8:-
cat > "$tmp/want" <<'T'
program 0x00000000 (7 instructions) on 3 QPUs
qpu 0: done, 7 instructions, host_int 0x00000028 (1 writes)
qpu 1: done, 7 instructions, host_int 0x00000029 (1 writes)
qpu 2: done, 7 instructions, host_int 0x0000002a (1 writes)
SRQCS 0x00030300: 3 requested, 3 completed; 21 instructions
dump 0x01f00400: 00000001 00000028
T
diff "$tmp/want" "$tmp/out" && ok || bad "run 3 QPUs output"

expect 0 "run --json" -- "$bin" run -f vc4-qpu "$tmp/add.s" --json --uniforms 0x10,-1.5
grep -q '"result":"ok","faults":\[\]' "$tmp/out" && ok || bad "json result"
# 0x10 + 0xbfc00000 (-1.5f) as integers
grep -q '"qpu 0: done, 7 instructions, host_int 0xbfc00010 (1 writes)"' "$tmp/out" && ok || bad "json log"

cat > "$tmp/dead.s" <<'S'
sacq -, 3
nop ; nop ; thrend
nop
nop
S
expect 1 "deadlock" -- "$bin" run -f vc4-qpu "$tmp/dead.s" --qpus 2
grep -q '^qpu 1: blocked at 0x00000000 on sacq 3 (count 0), 0 instructions$' "$tmp/out" && ok || bad "blocked line"
grep -q '^fault: fault #1 hang vc4/qpu ch 1 addr 0x0 stream 0x0: deadlock: every running QPU is blocked (budget vc4.qpu-insns): qpu 1 pc 0x00000000 waits on sacq 3 (count 0)' "$tmp/out" && ok || bad "hang fault"

expect 2 "--qpus 13" -- "$bin" run -f vc4-qpu "$tmp/add.s" --qpus 13
expect 2 "--qpus on vc4" -- "$bin" run -f vc4 "$tmp/add.s" --qpus 2
expect 1 "bad uniform" -- "$bin" run -f vc4-qpu "$tmp/add.s" --uniforms 1,zz
grep -q "FAIL uniform 'zz'" "$tmp/out" && ok || bad "bad uniform message"
finish vc4_gpgpu_cli
