#!/bin/sh
# Make sure the build dependencies of cmdgpu are present on a Debian-like
# system: a C compiler, make, cmake, pkg-config, libpng and zlib headers.
# Installs what is missing with apt-get when run as root (or with sudo);
# otherwise says exactly which packages to install. Extra packages can be
# asked for as arguments (e.g. clang for the fuzzers).
set -eu

missing=""
need() { # need PACKAGE TEST...
    pkg=$1; shift
    if ! "$@" >/dev/null 2>&1; then missing="$missing $pkg"; fi
}
need gcc        sh -c 'command -v cc'
need make       sh -c 'command -v make'
need cmake      sh -c 'command -v cmake'
need pkg-config sh -c 'command -v pkg-config'
need libpng-dev sh -c 'pkg-config --exists libpng'
need zlib1g-dev sh -c 'pkg-config --exists zlib'
for extra in "$@"; do
    case $extra in
        clang) need clang sh -c 'command -v clang' ;;
        libclang-rt-14-dev) need libclang-rt-14-dev sh -c 'ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' ;;
        *) need "$extra" sh -c "dpkg -s $extra" ;;
    esac
done

[ -z "$missing" ] && exit 0

echo "cmdgpu needs these Debian packages:$missing"
if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "Run as root:  apt-get update && apt-get install -y$missing" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -q --no-install-recommends $missing
    exit 0
fi
echo "No apt-get here: install the equivalents of:$missing" >&2
exit 1
