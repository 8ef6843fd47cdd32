#!/bin/bash
# The ioctls Mesa's nouveau (Debian 12: Mesa 22.3.6) makes on the node for
# the `clear` case (tests/gl/gles_cases.c), from eglInitialize to
# eglTerminate, each with its result: exactly the committed list
# tests/gl/startup.ioctls. A change in what the interface answers, or in
# what the driver asks, shows here first.
#   ioctls.sh BUILD SOURCE
set -u
build=$1 src=$2
dri=$(ls /usr/lib/*/dri/nouveau_dri.so /usr/lib/dri/nouveau_dri.so 2>/dev/null | head -1)
if [ -z "$dri" ]; then
    echo "skipped: no nouveau_dri.so (Debian package libgl1-mesa-dri; scripts/deps.sh gl)"
    exit 77
fi
ver=$(dpkg-query -W -f '${Version}' libgl1-mesa-dri 2>/dev/null)
case $ver in
    22.3.6*) ;;
    *) echo "skipped: the list is Mesa 22.3.6's (Debian 12); this is Mesa '$ver'"; exit 77 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work
"$build/cmdgpu" exec --ioctls "$work/ioctls" -- "$build/tests/gles_cases" clear "$work/x.pam" \
    >"$work/out" 2>&1 || { cat "$work/out"; echo "FAIL: the program failed"; exit 1; }
if ! diff -u "$src/tests/gl/startup.ioctls" "$work/ioctls"; then
    echo "FAIL: the ioctls differ from tests/gl/startup.ioctls (above: - expected, + got)"
    exit 1
fi
echo "PASS: $(wc -l <"$work/ioctls") ioctls as listed"
