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

# libcmdgpu-drm: the installed command finds it in the prefix; a program it
# runs sees the render node (its stat: a character device 226:128) and the
# sysfs entries of the GPU, and no host node.
[ -f "$libdir/libcmdgpu-drm.so" ] || { echo "libcmdgpu-drm.so not installed"; exit 1; }
got=$("$tmp/prefix/bin/cmdgpu" exec --gpu gm204 -- sh -c \
    'stat -c "%F %t:%T" /dev/dri/renderD128; ls /dev/dri;
     cat /sys/dev/char/226:128/device/vendor /sys/dev/char/226:128/device/device')
want="character special file e2:80
renderD128
0x10de
0x13c0"
[ "$got" = "$want" ] || { echo "drm: got '$got', want '$want'"; exit 1; }
echo "drm: ok"

# libcmdgpu-vcio: a program written for the Pi's mailbox.h builds against
# the installed library through pkg-config and behaves as on a Pi 1.
[ -f "$libdir/pkgconfig/cmdgpu-vcio.pc" ] || { echo "no cmdgpu-vcio.pc installed"; exit 1; }
[ -f "$tmp/prefix/include/cmdgpu/vcio/mailbox.h" ] || { echo "mailbox.h not installed"; exit 1; }
cat > "$tmp/vcio.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "mailbox.h"
int main(void)
{
    /* ldi irq, 1 ; nop ; thrend ; nop ; nop (cmdgpu asm -f vc4-qpu) */
    static const unsigned code[8] = {0x00000001, 0xe00209a7, 0x009e7000, 0x300009e7,
                                     0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7};
    int mb = mbox_open();
    if (mb < 0 || qpu_enable(mb, 1) != 0)
        return 1;
    unsigned h = mem_alloc(mb, 4096, 4096, 0x4);
    unsigned bus = mem_lock(mb, h);
    unsigned *p = mapmem(bus & ~0xC0000000u, 4096);
    if (!h || (bus >> 30) != 3 || !p)
        return 2;
    memcpy(p, code, sizeof code);
    for (unsigned q = 0; q < 12; q++) {
        p[64 + 2 * q] = bus + 512; /* uniforms (none read) */
        p[64 + 2 * q + 1] = bus;   /* code */
    }
    unsigned ok = execute_qpu(mb, 12, bus + 256, 1, 100);
    p[1] = 0xe00209e7; /* ldi -, 1: no host interrupt -> the firmware times out */
    unsigned late = execute_qpu(mb, 1, bus + 256, 1, 1);
    void *peri = mapmem(0x20000000, 4096);
    unsigned vpu = execute_code(mb, bus, 0, 0, 0, 0, 0, 0);
    printf("ok 0x%x late 0x%x peri %s vpu 0x%x version %u\n", ok, late, peri ? "mapped" : "NULL",
           vpu, get_version(mb));
    unmapmem(p, 4096);
    mem_unlock(mb, h);
    mem_free(mb, h);
    mbox_close(mb);
    return 0;
}
C
cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags cmdgpu-vcio) "$tmp/vcio.c" -o "$tmp/vcio" \
    $(pkg-config --libs cmdgpu-vcio)
got=$(CMDGPU_VCIO_FAULTS="$tmp/faults.txt" LD_LIBRARY_PATH=$libdir "$tmp/vcio" 2>"$tmp/vcio.err")
# The peripheral window needs capstone at build time (vcio_window.c).
if grep -q '^CAPSTONE_FOUND:INTERNAL=1' "$build/CMakeCache.txt"; then
    window=1 want="ok 0x0 late 0x80000000 peri mapped vpu 0xffffffff version 0" lines=1
else
    window=0 want="ok 0x0 late 0x80000000 peri NULL vpu 0xffffffff version 0" lines=2
fi
[ "$got" = "$want" ] || { echo "vcio: got '$got', want '$want'"; cat "$tmp/vcio.err"; exit 1; }
[ "$(wc -l < "$tmp/vcio.err")" = $lines ] || { echo "vcio stderr:"; cat "$tmp/vcio.err"; exit 1; }
[ $window = 1 ] || grep -q "mapmem(0x20000000, 4096): the peripheral window needs capstone" \
    "$tmp/vcio.err" || exit 1
grep -q "execute_code(0x" "$tmp/vcio.err" || exit 1
grep -q "hang vc4/mailbox.*execute QPU: timeout 1 ms: 1 of 1 programs ended, 0 host interrupts" \
    "$tmp/faults.txt" || { echo "vcio faults:"; cat "$tmp/faults.txt"; exit 1; }
echo "vcio: ok ($got)"
# The peripheral window (issue 33): tests/vcio_window.c drives the V3D
# registers through mapmem of the peripheral base, built as a user would.
cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags cmdgpu-vcio) -I"$src/examples/vc4/gpgpu" \
    "$src/tests/vcio_window.c" -o "$tmp/vcio_window" $(pkg-config --libs cmdgpu-vcio) -lpthread
rc=0
got=$(LD_LIBRARY_PATH=$libdir "$tmp/vcio_window" 2>"$tmp/window.err") || rc=$?
if [ $window = 1 ]; then
    [ $rc = 0 ] && [ "$got" = "vcio_window: ok" ] ||
        { echo "vcio_window: rc $rc, '$got'"; cat "$tmp/window.err"; exit 1; }
else
    [ $rc = 77 ] || { echo "vcio_window without capstone: rc $rc, '$got'"; exit 1; }
fi
echo "vcio window: ${got}"
# The SAXPY example, unchanged, against the installed library.
cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags cmdgpu-vcio) \
    "$src/examples/vc4/gpgpu/saxpy.c" -o "$tmp/saxpy" $(pkg-config --libs cmdgpu-vcio)
got=$(LD_LIBRARY_PATH=$libdir "$tmp/saxpy")
want="saxpy: execute_qpu 0x0, 768 values, out[0] = 750, out[767] = -592.25, 0 wrong"
[ "$got" = "$want" ] || { echo "installed saxpy: got '$got', want '$want'"; exit 1; }

# SONAME and exports.
soname=$(objdump -p "$libdir/libcmdgpu.so" | awk '/SONAME/ {print $2}')
[ "$soname" = "libcmdgpu.so.0" ] || { echo "SONAME is '$soname'"; exit 1; }
bad=$(nm -D --defined-only "$libdir/libcmdgpu.so" | awk '$2 ~ /[TDBR]/ {print $3}' \
      | grep -v '^cg_[a-z0-9]' || true)
[ -z "$bad" ] || { echo "non-API symbols exported:"; echo "$bad"; exit 1; }
n=$(nm -D --defined-only "$libdir/libcmdgpu.so" | awk '$2 == "T"' | wc -l)
echo "install: ok ($n exported functions, SONAME $soname, shared and static programs ran)"
