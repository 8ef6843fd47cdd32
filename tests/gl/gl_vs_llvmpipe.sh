#!/bin/bash
# One GL ES case (tests/gl/gles_cases.c) through Mesa's nouveau on the model
# (`cmdgpu exec`) and through llvmpipe (`cmdgpu exec --reference`), in the
# same run; the images must agree within TOL steps of 1/255 per channel
# (tests/gl/imgcmp.c: the coverage is then the same too).
#   gl_vs_llvmpipe.sh BUILD CASE TOL
# Exit 77 (skipped, with the reason) where this machine cannot run it.
set -u
build=$1 case=$2 tol=$3
dri=$(ls /usr/lib/*/dri/nouveau_dri.so /usr/lib/dri/nouveau_dri.so 2>/dev/null | head -1)
if [ -z "$dri" ]; then
    echo "skipped: no nouveau_dri.so (Debian package libgl1-mesa-dri; scripts/deps.sh gl)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
"$build/cmdgpu" exec --log "$work/log" -- "$build/tests/gles_cases" "$case" "$work/nv.pam" \
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
[ $fail = 0 ] && echo "PASS: $case on the model matches llvmpipe within $tol"
exit $fail
