#!/bin/sh
# Print the table of SUMMARY lines (bench/summary.h) found in the bench log
# given as $1 (or standard input): measure, value, comparison, ratio,
# target, met. sh and awk only.
awk -F '\t' '
$1 == "SUMMARY" {
    n++; m[n] = $2; v[n] = $3 " " $4; c[n] = $5; r[n] = $6; t[n] = $7; ok[n] = $8
    if (length(m[n]) > wm) wm = length(m[n])
    if (length(v[n]) > wv) wv = length(v[n])
    if (length(c[n]) > wc) wc = length(c[n])
    if (length(t[n]) > wt) wt = length(t[n])
}
END {
    if (!n) { print "no SUMMARY lines"; exit 1 }
    if (wm < 7) wm = 7; if (wv < 5) wv = 5; if (wc < 10) wc = 10; if (wt < 6) wt = 6
    fmt = "%-" wm "s  %" wv "s  %-" wc "s  %8s  %-" wt "s  %s\n"
    printf "\n== summary (docs/performance.md explains each figure)\n"
    printf fmt, "measure", "value", "comparison", "ratio", "target", "met?"
    for (i = 1; i <= n; i++) printf fmt, m[i], v[i], c[i], r[i], t[i], ok[i]
}' "${1:--}"
