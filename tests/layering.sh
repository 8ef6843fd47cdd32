#!/bin/sh
# The layering rules of docs/design.md ("Rooms and rules"), checked on the
# source tree: core (and src/drm) names no family; families never include one another;
# a family's GPU side includes no text or check code and prints nothing;
# the command reaches families only through their descriptors; one file,
# src/registry.c, names the three descriptors.
src=${2:-${1:-.}}
cd "$src" || exit 1
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# grep that prints what it found and says whether it found anything
found() { grep -nE "$@" && return 0; return 1; }
# The code of a C file without its comments and string literals (what a
# rule about names looks at: prose and messages may name anything).
code() {
    for f in "$@"; do
        cc -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null | sed 's/"\([^"\\]\|\\.\)*"/""/g' |
            sed "s|^|$f: |"
    done
}

families="nv vc4 radeon"
# every family's public headers, and the umbrella that includes them all
famhdr='cmdgpu/(nv|nv3d|nv_check|nv_macro|nv_sass|vc4|vc4_check|vc4_qpu|vcio|radeon|radeon_check|cmdgpu)\.h'
corehdr="include/cmdgpu/common.h include/cmdgpu/device.h include/cmdgpu/mem.h
 include/cmdgpu/fault.h include/cmdgpu/trace.h include/cmdgpu/image.h include/cmdgpu/asm.h
 include/cmdgpu/check.h include/cmdgpu/capture.h include/cmdgpu/capfile.h
 include/cmdgpu/scene.h include/cmdgpu/family.h include/cmdgpu/core.h"

# 1. core (and libcmdgpu-drm's node, which reaches the families' kernel
#    interfaces through their descriptors) includes no family and names
#    none of their functions or ids
found "#include \"($famhdr|(nv|vc4|radeon)/)" src/core/* src/drm/* $corehdr &&
    bad "core includes a family"
# (the family ids themselves are declared in common.h, the one enum of them)
code src/core/* src/drm/*.c src/drm/*.h $corehdr | grep -v '^include/cmdgpu/common.h: *CG_FAMILY_[A-Z0-9]*,$' |
    found '\b(cg_(nv|vc4|radeon)_[a-z0-9_]+|CG_FAMILY_(NV|VC4|RADEON))\b' && bad "core names a family"

# 2. families never include each other
for f in $families; do
    for o in $families; do
        [ "$f" = "$o" ] && continue
        case $o in
        nv) pat='cmdgpu/nv(3d|_check|_macro|_sass)?\.h|"nv/' ;;
        vc4) pat='cmdgpu/(vc4(_check|_qpu)?|vcio)\.h|"vc4/' ;;
        radeon) pat='cmdgpu/radeon(_check)?\.h|"radeon/' ;;
        esac
        found "#include .*($pat|cmdgpu/cmdgpu\.h)" $(find src/$f -type f) && bad "$f includes $o"
    done
done

# 3. the GPU side (front ends, engines, shader cores) includes no text or
#    check code and writes no text: no FILE, no printf-family output
found '#include "([a-z0-9]+/)?(text|check)/' src/*/gpu/* && bad "a gpu room includes text or check code"
found '\bFILE\b|\b(v?fprintf|printf|puts|fputs|fputc|putchar|fwrite)\(' src/*/gpu/* &&
    bad "a gpu room writes text"

# 4. the command reaches families only through the contract
found '#include "(src/|core/|nv/|vc4/|radeon/)' tools/* && bad "the command includes library internals"
found "#include \"$famhdr" tools/* && bad "the command includes a family's header"
code tools/*.c tools/*.h |
    found '\b(cg_(nv|vc4|radeon)_[a-z0-9_]+|CG_FAMILY_(NV|VC4|RADEON)|CG_RADEON_[A-Z0-9_]+|CG_VC4_[A-Z0-9_]+|CG_NV_[A-Z0-9_]+)\b' &&
    bad "the command names a family's function or constant"

# 5. one registry
for f in $families; do
    found "\bcg_${f}_family\b" $(find src tools -type f | grep -v "^src/$f/" | grep -v '^src/registry\.c$') &&
        bad "cg_${f}_family named outside src/$f and the registry"
done

[ $fails = 0 ] && echo "layering: ok" && exit 0
echo "layering: $fails rule(s) broken"
exit 1
