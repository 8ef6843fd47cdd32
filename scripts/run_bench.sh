#!/bin/sh
# Run every bench given on the command line, in order, showing its output
# and keeping it in $BENCH_LOG (default bench.log), then print the summary
# table of their SUMMARY lines. Used by `make bench` (target run_bench).
log=${BENCH_LOG:-bench.log}
: > "$log" || exit 1
status=0
for b in "$@"; do
    echo "== $(basename "$b")" | tee -a "$log"
    "$b" > "$log.part" 2>&1 || status=1
    cat "$log.part" | tee -a "$log" | grep -v '^SUMMARY' || true
done
rm -f "$log.part"
sh "$(dirname "$0")/bench_summary.sh" "$log"
exit $status
