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
grep -q '^qpu 1: blocked at 0x00000000 on semaphore 3 acquire (count 0), 0 instructions$' "$tmp/out" && ok || bad "blocked line"
grep -q '^fault: fault #1 hang vc4/qpu ch 1 addr 0x0 stream 0x0: deadlock (budget vc4.qpu-insns): qpu 1 pc 0x00000000 waits on semaphore 3 acquire (count 0); others: none' "$tmp/out" && ok || bad "hang fault"

expect 2 "--qpus 13" -- "$bin" run -f vc4-qpu "$tmp/add.s" --qpus 13
expect 2 "--qpus on vc4" -- "$bin" run -f vc4 "$tmp/add.s" --qpus 2
expect 1 "bad uniform" -- "$bin" run -f vc4-qpu "$tmp/add.s" --uniforms 1,zz
grep -q "FAIL uniform 'zz'" "$tmp/out" && ok || bad "bad uniform message"

# The examples: QPU code tables as the assembler makes them, and their
# numbers (each also checks every value against the CPU's own computation).
for k in saxpy reduce; do
    expect 0 "asm $k" -- "$bin" asm -f vc4-qpu "$src/examples/vc4/gpgpu/$k.qasm" -o "$tmp/$k.bin"
    od -An -v -t x4 "$tmp/$k.bin" | awk '{for (i = 1; i <= NF; i += 2) printf "    0x%s, 0x%s,\n", $i, $(i + 1)}' >"$tmp/$k.words"
    sed -n '/^static const unsigned/,/^};/p' "$src/examples/vc4/gpgpu/${k}_code.h" | sed '1d;$d' >"$tmp/$k.table"
    diff "$tmp/$k.words" "$tmp/$k.table" >/dev/null && ok || bad "examples/vc4/gpgpu/${k}_code.h is not $k.qasm assembled"
done
expect 0 "saxpy example" -- "$build/example_vc4_gpgpu_saxpy"
[ "$(cat "$tmp/out")" = "saxpy: execute_qpu 0x0, 768 values, out[0] = 750, out[767] = -592.25, 0 wrong" ] && ok || bad "saxpy output: $(cat "$tmp/out")"
expect 0 "reduce example" -- "$build/example_vc4_gpgpu_reduce"
[ "$(cat "$tmp/out")" = "reduce: execute_qpu 0x0, 1536 words, sum 0x72290700, want 0x72290700, all 16 lanes agree" ] && ok || bad "reduce output: $(cat "$tmp/out")"
# The scene: the same kernel through the mailbox tag and the request queue.
expect 0 "saxpy scene" -- "$bin" run -f vc4 "$src/examples/vc4/gpgpu/saxpy.s"
[ "$(grep -c ': ok$' "$tmp/out")" = 8 ] && ok || bad "saxpy scene checks"
grep -q '^0x001302e0: 44350000 4434a000$' "$tmp/out" && ok || bad "saxpy scene dump"
finish vc4_gpgpu_cli
