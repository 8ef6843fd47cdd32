#!/usr/bin/env bash
# Install to a temporary prefix, then build and run a small program against the
# installed library through pkg-config, shared and static. Also checks that the
# shared library exports only the public cg_ API.
set -euo pipefail
build=$1 src=$2
if grep -qE '^CMDGPU_(SANITIZE|TSAN):BOOL=ON' "$build/CMakeCache.txt"; then
    echo "skipped: sanitizer build (the installed library would need the sanitizer runtime)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null

pc=$(find "$tmp/prefix" -name cmdgpu.pc | head -1)
[ -n "$pc" ] || { echo "no cmdgpu.pc installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir cmdgpu)
[ -x "$tmp/prefix/bin/cmdgpu" ] || { echo "cmdgpu command not installed"; exit 1; }
[ -f "$tmp/prefix/include/cmdgpu/cmdgpu.h" ] || { echo "headers not installed"; exit 1; }

cat > "$tmp/hello.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <cmdgpu/cmdgpu.h>
int main(void)
{
    cg_device *dev;
    cg_vas *vas;
    cg_mem *mem;
    uint64_t va;
    uint32_t v = 0;
    cg_vas_config cfg = {.va_bits = 40};
    if (cg_device_create(&dev) || cg_vas_create(dev, &cfg, &vas) ||
        cg_mem_create(dev, 4096, 0, &mem))
        return 1;
    cg_map_params mp = {.mem = mem};
    if (cg_vas_map(vas, &mp, &va) || cg_vas_write32(vas, va + 8, 0xcafe1234u, NULL) ||
        cg_mem_read(mem, 8, &v, 4))
        return 2;
    printf("cmdgpu %s value 0x%08x\n", cg_version(), v);
    cg_mem_unref(mem);
    cg_device_destroy(dev);
    return v == 0xcafe1234u ? 0 : 3;
}
C
want="cmdgpu $(sed -n 's/.*project(cmdgpu VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt") value 0xcafe1234"

cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags cmdgpu) "$tmp/hello.c" -o "$tmp/hello" \
    $(pkg-config --libs cmdgpu)
got=$(LD_LIBRARY_PATH=$libdir "$tmp/hello")
[ "$got" = "$want" ] || { echo "shared: got '$got', want '$want'"; exit 1; }

cc -std=c11 $(pkg-config --cflags cmdgpu) "$tmp/hello.c" -o "$tmp/hello_static" \
    "$libdir/libcmdgpu.a" $(pkg-config --libs-only-other --static cmdgpu) \
    $(pkg-config --libs --static cmdgpu | sed 's/-lcmdgpu//')
got=$("$tmp/hello_static")
[ "$got" = "$want" ] || { echo "static: got '$got', want '$want'"; exit 1; }

# The command itself is a client of the public API: its sources build
# against the installed headers and shared library alone.
cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $(pkg-config --cflags cmdgpu) \
    "$src"/tools/*.c -o "$tmp/cmdgpu_installed" $(pkg-config --libs cmdgpu)
got=$(LD_LIBRARY_PATH=$libdir "$tmp/cmdgpu_installed" version)
case "$got" in
"cmdgpu "*) ;;
*) echo "the command built against the installed library says '$got'"; exit 1 ;;
esac

# SONAME and exports.
soname=$(objdump -p "$libdir/libcmdgpu.so" | awk '/SONAME/ {print $2}')
[ "$soname" = "libcmdgpu.so.0" ] || { echo "SONAME is '$soname'"; exit 1; }
bad=$(nm -D --defined-only "$libdir/libcmdgpu.so" | awk '$2 ~ /[TDBR]/ {print $3}' \
      | grep -v '^cg_[a-z0-9]' || true)
[ -z "$bad" ] || { echo "non-API symbols exported:"; echo "$bad"; exit 1; }
n=$(nm -D --defined-only "$libdir/libcmdgpu.so" | awk '$2 == "T"' | wc -l)
echo "install: ok ($n exported functions, SONAME $soname, shared and static programs ran)"
