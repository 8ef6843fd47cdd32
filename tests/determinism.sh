#!/usr/bin/env bash
# Determinism (issue 7): every example, run 20 times, gives one output hash.
# A run's output is its stdout and every file it writes (PNGs, dumps, draw
# records); the hash covers all of them. Scenes run through `cmdgpu run`,
# C examples as programs, each in a fresh directory. (That the radeon
# deterministic and threaded modes agree is test_radeon_threaded's
# test_same_results_both_modes.)
set -uo pipefail
build=$1 src=$2
bin=$build/cmdgpu
runs=${DETERMINISM_RUNS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# one run in a fresh directory; prints the hash of stdout + every file
run_once() {
    local dir=$1; shift
    rm -rf "$dir" && mkdir -p "$dir/out"
    (cd "$dir" && "$@" >stdout 2>stderr)
    echo "exit $?" >>"$dir/stdout"
    (cd "$dir" && find . -type f ! -name stderr -print0 | sort -z | xargs -0 sha256sum) |
        sha256sum | cut -d' ' -f1
}

check() {
    local name=$1; shift
    local first="" h i
    for i in $(seq 1 "$runs"); do
        h=$(run_once "$tmp/run" "$@")
        if [ -z "$first" ]; then
            first=$h
        elif [ "$h" != "$first" ]; then
            fail=$((fail+1)); echo "FAIL: $name: run $i gave another output hash"; return
        fi
    done
    pass=$((pass+1))
}

for f in "$src"/examples/nv/*.s; do
    check "nv/$(basename "$f")" "$bin" run -f nv "$f" --out out --draws out/draws.json \
        --dump-textures out/tex
done
for f in "$src"/examples/radeon/*.s; do
    check "radeon/$(basename "$f")" "$bin" run -f radeon "$f"
done
for f in "$src"/examples/vc4/*.s; do
    check "vc4/$(basename "$f")" "$bin" run -f vc4 "$f" -o out/fb.png
done
check "cmdgpu demo" "$bin" demo --out out
for e in "$build"/example_*; do
    [ -x "$e" ] && check "$(basename "$e")" "$e"
done
echo "determinism: $pass passed, $fail failed ($runs runs each)"
[ "$fail" = 0 ]
