#!/bin/bash
# tests/gl/drm_hostile.c under `cmdgpu exec`: garbage ioctls, threads and a
# fork on the node get the kernel's errnos; the log holds exactly the two
# notes (an unknown ioctl, a non-DRM ioctl) and the one GPU fault the
# program provokes, with its hang report. No Mesa needed.
#   drm_hostile.sh BUILD
set -u
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
"$build/cmdgpu" exec --log "$work/log" -- "$build/tests/drm_hostile" || {
    echo "FAIL: drm_hostile failed"; cat "$work/log"; exit 1; }
fail=0
check() { # check COUNT PATTERN
    local n
    n=$(grep -c "$2" "$work/log")
    [ "$n" = "$1" ] || { echo "FAIL: $n log lines match '$2', want $1"; fail=1; }
}
check 1 "^libcmdgpu-drm: ioctl 0xc010647f (nr 0x7f): no such nouveau ioctl: EINVAL$"
check 1 "^libcmdgpu-drm: ioctl 0xc0107801 is not a DRM ioctl: ENOTTY$"
check 1 "^libcmdgpu-drm: GPU fault: fault #0 invalid-class nv/host .*SET_OBJECT: class 0xdead"
check 1 "^hang report: channel 0 stood at "
check 1 "GPU fault"
[ $fail = 0 ] || { cat "$work/log"; exit 1; }
# --exit-on-fault: the program ends (86) at the fault it provokes, the log
# has the fault, its hang report and the reason, and nothing after
"$build/cmdgpu" exec --exit-on-fault --log "$work/log2" -- "$build/tests/drm_hostile" >/dev/null
rc=$?
[ $rc = 86 ] || { echo "FAIL: --exit-on-fault: status $rc, want 86"; exit 1; }
[ "$(tail -1 "$work/log2")" = "libcmdgpu-drm: exiting (status 86) at the GPU fault" ] &&
    grep -q "^libcmdgpu-drm: GPU fault: fault #0 invalid-class" "$work/log2" ||
    { echo "FAIL: --exit-on-fault log:"; cat "$work/log2"; exit 1; }
echo "PASS: drm_hostile, and the log as the kernel would write it; --exit-on-fault"
