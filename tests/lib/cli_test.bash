# Shared set-up of the tests/*.sh command-line tests (sourced after
# `build=$1 src=$2`; not a test itself, so it lives outside tests/*.sh).
set -uo pipefail
bin=$build/cmdgpu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
# expect EXIT WHAT -- COMMAND...: run COMMAND (stdout in $tmp/out, stderr in
# $tmp/err) and count it passed when it exits with EXIT.
expect() {
    local want=$1 what=$2; shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
    if [ "$got" = "$want" ]; then ok; else
        bad "$what: exit $got, want $want"; cat "$tmp/err" "$tmp/out" | head -40
    fi
}
# finish NAME: print the tally; the script's exit status is the verdict.
finish() { echo "$1: $pass passed, $fail failed"; [ "$fail" = 0 ]; }
