#!/bin/bash
# One GL ES case (tests/gl/gles_cases.c) through Mesa's nouveau on the model
# (`cmdgpu exec`) and through llvmpipe (`cmdgpu exec --reference`), in the
# same run; the images must agree within TOL steps of 1/255 per channel
# (tests/gl/imgcmp.c: the coverage is then the same too). The model's run
# is recorded (--capture): the capture must replay with every buffer's
# final bytes identical (`cmdgpu run` checks them), list every submission
# decoded (`cmdgpu disasm`) and make a report page (`cmdgpu report`).
# With MODE "threaded" the model's GPU runs on its own thread
# (`cmdgpu exec --threaded`) and nothing is recorded.
#   gl_vs_llvmpipe.sh BUILD CASE TOL [threaded]
# Exit 77 (skipped, with the reason) where this machine cannot run it.
set -u
build=$1 case=$2 tol=$3 mode=${4:-}
dri=$(ls /usr/lib/*/dri/nouveau_dri.so /usr/lib/dri/nouveau_dri.so 2>/dev/null | head -1)
if [ -z "$dri" ]; then
    echo "skipped: no nouveau_dri.so (Debian package libgl1-mesa-dri; scripts/deps.sh gl)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
if [ "$mode" = threaded ]; then opts=(--threaded); else opts=(--capture "$work/s.cap"); fi
"$build/cmdgpu" exec --log "$work/log" "${opts[@]}" -- \
    "$build/tests/gles_cases" "$case" "$work/nv.pam" \
    >"$work/nv.out" 2>"$work/nv.err"
rc=$?
"$build/cmdgpu" exec --reference -- "$build/tests/gles_cases" "$case" "$work/ref.pam" \
    >"$work/ref.out" 2>"$work/ref.err"
rrc=$?
fail=0
if [ $rrc != 0 ] || ! grep -q '^renderer: llvmpipe' "$work/ref.out"; then
    echo "FAIL: the llvmpipe reference did not render (exit $rrc):"
    cat "$work/ref.out" "$work/ref.err"
    exit 1
fi
# Mesa falls back to llvmpipe silently when the driver does not load
if ! grep -q '^renderer: NV12B$' "$work/nv.out"; then
    echo "FAIL: GL_RENDERER is not nouveau's NV12B:"
    cat "$work/nv.out" "$work/nv.err"
    fail=1
fi
if [ $rc != 0 ]; then
    echo "FAIL: the program exited $rc on the model"
    cat "$work/nv.err"
    fail=1
fi
if [ -s "$work/log" ]; then
    echo "FAIL: the model logged faults or notes:"
    cat "$work/log"
    fail=1
fi
"$build/tests/imgcmp" "$work/nv.pam" "$work/ref.pam" "$tol" || fail=1
if [ "$mode" = threaded ]; then
    [ $fail = 0 ] && echo "PASS: $case on the model's GPU thread matches llvmpipe within $tol"
    exit $fail
fi
if ! "$build/cmdgpu" run "$work/s.cap" >"$work/replay.out" 2>&1 ||
    [ "$(tail -1 "$work/replay.out")" != "scene gles_cases: ok, 0 fault(s)" ]; then
    echo "FAIL: the recorded session does not replay to the same bytes:"
    grep -v '^buffer ' "$work/replay.out"
    fail=1
fi
"$build/cmdgpu" disasm "$work/s.cap" >"$work/s.txt" 2>&1
if [ $? != 0 ] || grep -q 'not decoded' "$work/s.txt" || ! grep -q '^# submission 1: ' "$work/s.txt"; then
    echo "FAIL: cmdgpu disasm of the capture:"
    grep -m5 'not decoded\|cmdgpu:' "$work/s.txt"
    fail=1
fi
if ! "$build/cmdgpu" report "$work/s.cap" -o "$work/s.html" >"$work/report.out" 2>&1 ||
    ! grep -q ', ok, 0 fault(s), ' "$work/report.out"; then
    echo "FAIL: cmdgpu report of the capture:"
    cat "$work/report.out"
    fail=1
fi
[ $fail = 0 ] && echo "PASS: $case on the model matches llvmpipe within $tol; its capture" \
    "($(stat -c %s "$work/s.cap") bytes) replays to the same bytes"
exit $fail
