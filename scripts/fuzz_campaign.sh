#!/bin/sh
# A fuzzing campaign: every fuzz/fuzz_*.c harness (libFuzzer, ASan+UBSan)
# for SECONDS seconds, JOBS at a time, each from a copy of its seed corpus.
# Writes BUILD/campaign/<name>.log (libFuzzer's output with -print_final_stats)
# and BUILD/campaign/summary.txt (runs, coverage, features, corpus size, crashes
# per harness); crashing inputs land in BUILD/crashes/. docs/fuzzing.md records
# the results. Usage: scripts/fuzz_campaign.sh [SECONDS [JOBS [BUILD]]]
set -eu
secs=${1:-600}
jobs=${2:-2}
build=${3:-build-fuzz}
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMDGPU_FUZZ=ON -DCMDGPU_SANITIZE=ON >/dev/null
cmake --build "$build" -j"$jobs" >/dev/null
mkdir -p "$build/campaign" "$build/crashes"
for src in fuzz/fuzz_*.c; do basename "$src" .c; done |
    xargs -P "$jobs" -I{} sh -c '
        name={}; short=${name#fuzz_}; work='"$build"'/work/$short
        rm -rf "$work"; mkdir -p "$work"
        cp fuzz/corpus/$short/* "$work"/ 2>/dev/null || true
        ASAN_OPTIONS=detect_leaks=1 ./'"$build"'/fuzz/$name -max_total_time='"$secs"' \
            -print_final_stats=1 -artifact_prefix='"$build"'/crashes/$short- "$work" \
            >'"$build"'/campaign/$name.log 2>&1 || echo "$name: FAILED (see log)"'
{
    printf "%-24s %10s %8s %8s %8s %8s\n" harness runs cov ft corpus crashes
    for log in "$build"/campaign/fuzz_*.log; do
        name=$(basename "$log" .log); short=${name#fuzz_}
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        last=$(grep -E '^#[0-9]+' "$log" | tail -1)
        cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
        ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
        corp=$(ls "$build/work/$short" | wc -l)
        crashes=$(ls "$build/crashes" 2>/dev/null | grep -c "^$short-" || true)
        printf "%-24s %10s %8s %8s %8s %8s\n" "$name" "${runs:-?}" "${cov:-?}" "${ft:-?}" \
            "$corp" "$crashes"
    done
} | tee "$build/campaign/summary.txt"
