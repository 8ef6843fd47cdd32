#!/bin/sh
# Make sure the dependencies of cmdgpu are present on a Debian-like system:
# to build, a C compiler, make, cmake, pkg-config, libpng and zlib headers;
# for the tests that run real drivers on the model (docs/drm.md), Mesa's DRI
# drivers, EGL and GLES with their development files, and piglit. Installs
# what is missing with apt-get when run as root (or with sudo); otherwise
# says exactly which packages to install, and fails only when the build
# itself cannot go on (without the test packages those tests skip and say
# why). Extra packages can be asked for as arguments (e.g. clang for the
# fuzzers).
set -eu

missing=""
wanted=""   # the tests' packages: missing ones do not stop the build
need() { # need PACKAGE TEST...
    pkg=$1; shift
    if ! "$@" >/dev/null 2>&1; then missing="$missing $pkg"; fi
}
want() { # want PACKAGE: a Debian package the tests use
    if ! dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q "ok installed"; then
        wanted="$wanted $1"
    fi
}
need gcc        sh -c 'command -v cc'
need make       sh -c 'command -v make'
need cmake      sh -c 'command -v cmake'
need pkg-config sh -c 'command -v pkg-config'
need libpng-dev sh -c 'pkg-config --exists libpng'
need zlib1g-dev sh -c 'pkg-config --exists zlib'
if command -v dpkg-query >/dev/null 2>&1; then
    # libcapstone-dev: libcmdgpu-vcio's peripheral window decodes the trapped
    # instruction with it (without it that mapmem fails and its test skips)
    for pkg in libgl1-mesa-dri libegl1 libegl-mesa0 libgles2 libegl-dev libgles-dev piglit \
               libcapstone-dev; do
        want $pkg
    done
fi
for extra in "$@"; do
    case $extra in
        clang) need clang sh -c 'command -v clang' ;;
        libclang-rt-14-dev) need libclang-rt-14-dev sh -c 'ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' ;;
        *) need "$extra" sh -c "dpkg -s $extra" ;;
    esac
done

[ -z "$missing$wanted" ] && exit 0

[ -n "$missing" ] && echo "cmdgpu needs these Debian packages:$missing"
[ -n "$wanted" ] && echo "cmdgpu's tests of real drivers use these Debian packages:$wanted"
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "Run as root:  apt-get update && apt-get install -y$missing$wanted" >&2
        [ -z "$missing" ] && { echo "(building without them: those tests will skip)" >&2; exit 0; }
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    # shellcheck disable=SC2086
    if [ -n "$missing" ]; then
        $SUDO apt-get install -y -q --no-install-recommends $missing
    fi
    if [ -n "$wanted" ] && ! $SUDO apt-get install -y -q --no-install-recommends $wanted; then
        echo "(the tests' packages could not be installed: those tests will skip)" >&2
    fi
    exit 0
fi
echo "No apt-get here: install the equivalents of:$missing$wanted" >&2
[ -z "$missing" ] && exit 0
exit 1
