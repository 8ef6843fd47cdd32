#!/usr/bin/env bash
# The command-line contract (issue 16), derived from what the command itself
# says: every subcommand x family `cmdgpu help` lists, alone and with each
# option `cmdgpu SUBCOMMAND --help` lists for that family, against hostile
# inputs (missing, directory, empty, random, truncated, endless, a 3 GB
# sparse file) and unwritable output (/dev/full). Asserts the exit code the
# help documents, a one-line "cmdgpu: ..." message for input/output errors,
# valid JSON wherever --json is given (when python3 is there), and bounded
# memory (ulimit -v 512 MiB, skipped under sanitizers) and time (timeout).
# Options the help does not list for a subcommand or family exit 2 with a
# one-line message naming the option.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
# scenes write files relative to the working directory: keep them in $tmp
bin=$(realpath "$bin") src=$(realpath "$src") build=$(realpath "$build")
cd "$tmp" || exit 1

limit_kib=$((512 * 1024))
# (the build's own cache says so; ldd is the fallback for other builds)
if grep -qE '^CMDGPU_(SANITIZE|TSAN):BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null ||
   ldd "$bin" 2>/dev/null | grep -q 'libasan\|libtsan\|libubsan'; then
    limit_kib=unlimited # sanitizers reserve terabytes of address space
fi
have_json=0
command -v python3 >/dev/null 2>&1 && have_json=1
[ "$have_json" = 1 ] || echo "note: no python3; JSON validity not checked"

# bounded CMD...: run CMD under the memory and time bounds; $tmp/out and
# $tmp/err get its output; sets $code.
# ($wd: the working files of this job; the combinations run as 2 jobs)
wd=$tmp
bounded() {
    ( ulimit -v "$limit_kib"; exec timeout 20 "$@" ) >"$wd/out" 2>"$wd/err"
    code=$?
}
one_line() { # the stderr of the last run is one "cmdgpu: " line
    [ "$(wc -l <"$wd/err")" = 1 ] && grep -q '^cmdgpu: ' "$wd/err"
}
json_ok() { # stdout is one JSON document, or JSON Lines (one value a line)
    [ "$have_json" = 0 ] && return 0
    python3 -c 'import json,sys
t = sys.stdin.read()
try:
    json.loads(t)
except ValueError:
    for l in t.splitlines():
        if l.strip(): json.loads(l)' <"$wd/out" 2>/dev/null
}

# ---- inputs --------------------------------------------------------------
mkdir "$tmp/dir"
: >"$tmp/empty"
# 4 KiB of deterministic pseudo-random bytes, made by the assembler itself
awk 'BEGIN { x = 12345; for (i = 0; i < 1024; i++) {
    x = (x * 1103515245 + 12345) % 2147483648; printf ".word 0x%08x\n", x } }' >"$tmp/random.s"
"$bin" asm -f raw -o "$tmp/random" "$tmp/random.s" || bad "make random input"
truncate -s 3G "$tmp/sparse"
# truncated: the first half of a family's example (source) / 7 bytes (binary)
example() {
    case $1 in
    nv) echo "$src/examples/nv/rects.s" ;;
    vc4 | vc4-cl) echo "$src/examples/vc4/first_triangle.s" ;;
    radeon) echo "$src/examples/radeon/ib_chain.s" ;;
    *) echo "$tmp/random.s" ;;
    esac
}
half() { head -c $(($(wc -c <"$1") / 2)) "$1"; }
for f in raw nv nv-macro vc4 vc4-cl vc4-qpu radeon; do
    half "$(example $f)" >"$tmp/trunc-$f.s"
    head -c 7 "$tmp/random" >"$tmp/trunc-$f.bin"
done

# A value for each option that takes one.
value() {
    case $1 in
    -o | --output) echo "$wd/o.out" ;;
    --section) echo "text" ;;
    --gen) echo "r600" ;;
    --subch) echo "0=B197" ;;
    --input-format) echo "auto" ;;
    --out) echo "$wd/outdir" ;;
    --dump) echo "0x100000000:4:$wd/d.bin" ;;
    --draws) echo "$wd/draws.json" ;;
    --dump-textures) echo "$wd/tex" ;;
    --budget) echo "nv.macro-insns=1000" ;;
    --qpus) echo "2" ;;
    --uniforms) echo "1,q" ;;
    esac
}

# ---- what the help lists ----------------------------------------------------
"$bin" help >"$tmp/help" || bad "help"
families=$(sed -n '/^families (-f):/,/^$/p' "$tmp/help" | awk 'NF > 1 { print $1 }')
[ -n "$families" ] && ok || bad "help lists families"
# options SUB FAM: the options `SUB --help` lists for family FAM, one per
# line as "NAME [VALUE]" (-f and -h left out)
options() {
    "$bin" "$1" --help | awk -v fam="$2" '
        /^  (-[a-z], |    )--[a-z-]+/ {
            line = $0; sub(/^  (-[a-z], |    )/, "", line); split(line, w, " ")
            name = w[1]; arg = w[2]
            if (name == "--family" || name == "--help") next
            if (match($0, /\[[a-z0-9 -]* only\]$/)) {
                only = " " substr($0, RSTART + 1, RLENGTH - 7) " "
                if (index(only, " " fam " ") == 0) next
            }
            if (name ~ /=/) { sub(/=.*/, "=never", name); print name; next }
            print name (arg ~ /^[A-Z]/ ? " V" : "")
        }'
}
all_options() { # every option any subcommand lists
    for s in run disasm asm check bench demo version; do
        "$bin" "$s" --help | sed -n 's/^  \(-[a-z], \|    \)\(--[a-z-]*\).*/\2/p'
    done | sort -u | grep -v -e '^--family$' -e '^--help$'
}

# check SUB FAM OPT...: one combination against every hostile input
check() {
    local sub=$1 fam=$2; shift 2
    local what="$sub -f $fam $*" in
    local srcish=1
    [ "$sub" = disasm ] && srcish=0
    # endless input: reading up to the cap (256 MiB of sources) is the slow
    # case, and no option changes the reader, so only the base combination
    # of each subcommand x family takes it
    local inputs="missing dir sparse"
    [ "${endless:-1}" = 1 ] && inputs="$inputs endless"
    for in in $inputs; do
        case $in in
        missing) bounded "$bin" "$sub" -f "$fam" "$@" "$tmp/nope" ;;
        dir) bounded "$bin" "$sub" -f "$fam" "$@" "$tmp/dir" ;;
        sparse) bounded "$bin" "$sub" -f "$fam" "$@" "$tmp/sparse" ;;
        endless) bounded "$bin" "$sub" -f "$fam" "$@" /dev/zero ;;
        esac
        if [ "$code" = 3 ] && one_line; then ok; else
            bad "$what ($in): exit $code, want 3 and one line: $(head -c 300 "$wd/err")"
        fi
    done
    local t="$tmp/trunc-$fam.bin"
    [ "$srcish" = 1 ] && t="$tmp/trunc-$fam.s"
    for in in "$tmp/empty" "$tmp/random" "$t"; do
        bounded "$bin" "$sub" -f "$fam" "$@" "$in"
        case $code in
        0 | 1) ok ;;
        3) [ -s "$wd/err" ] && ok || bad "$what ($in): exit 3 with no message" ;;
        *) bad "$what (${in##*/}): exit $code: $(head -c 300 "$wd/err")" ;;
        esac
        case " $* " in
        *" --json "*)
            if [ "$code" -le 1 ] && ! json_ok; then
                bad "$what (${in##*/}): --json output is not JSON: $(head -c 300 "$wd/out")"
            else ok; fi ;;
        esac
    done
}

every_option=$(all_options)
# one job per subcommand x family, two at a time; each leaves its tally
pair() {
    local sub=$1 fam=$2 name v listed
    wd=$tmp/job-$sub-$fam
    mkdir -p "$wd"
    pass=0 fail=0 ncombos=0
    check "$sub" "$fam"
    ncombos=$((ncombos + 1)) endless=0
    while read -r name v; do
        [ -z "$name" ] && continue
        if [ -n "$v" ]; then check "$sub" "$fam" "$name" "$(value "$name")"
        else check "$sub" "$fam" "$name"; fi
        ncombos=$((ncombos + 1))
    done < <(options "$sub" "$fam")
    # every option the help does not list for SUB and FAM is refused
    listed=$(options "$sub" "$fam" | awk '{ sub(/=.*/, "", $1); print $1 }')
    for name in $every_option; do
        grep -qx -- "$name" <<<"$listed" && continue
        v=$(value "$name")
        if [ -n "$v" ]; then bounded "$bin" "$sub" -f "$fam" "$name" "$v" "$tmp/empty"
        else bounded "$bin" "$sub" -f "$fam" "$name" "$tmp/empty"; fi
        if [ "$code" = 2 ] && one_line && grep -q -- "$name" "$wd/err"; then ok; else
            bad "$sub -f $fam $name: exit $code, want 2 naming the option: $(cat "$wd/err")"
        fi
    done
    echo "$pass $fail $ncombos" >"$wd/tally"
}
for sub in run disasm asm check; do
    for fam in $families; do
        grep -E "^  $fam .*\[.* $sub( .*)?\]$" "$tmp/help" >/dev/null || continue
        [ "$(jobs -rp | wc -l)" -ge 2 ] && wait -n
        pair "$sub" "$fam" &
    done
done
wait
wd=$tmp
ncombos=0
for t in "$tmp"/job-*/tally; do
    read -r p f n <"$t"
    pass=$((pass + p)) fail=$((fail + f)) ncombos=$((ncombos + n))
done
[ "$ncombos" -ge 40 ] && ok || bad "only $ncombos combinations found in the help"
echo "cli_contract: $ncombos subcommand x family x option combinations"

# ---- output that cannot be written: exit 3, one line -------------------------
full() { # full WHAT CMD...: CMD writes to /dev/full
    bounded "$@"
    if [ "$code" = 3 ] && one_line; then ok; else
        bad "/dev/full: $*: exit $code: $(head -c 300 "$tmp/err")"
    fi
}
for fam in $families; do
    grep -E "^  $fam .*\[.* disasm( .*)?\]$" "$tmp/help" >/dev/null || continue
    full sh -c "exec '$bin' disasm -f $fam '$tmp/random' >/dev/full"
    full "$bin" disasm -f "$fam" -o /dev/full "$tmp/random"
    full "$bin" asm -f "$fam" -o /dev/full "$tmp/random.s"
    full sh -c "exec '$bin' asm -f $fam --json '$tmp/random.s' >/dev/full"
done
full "$bin" asm -f nv -o /dev/full "$src/examples/nv/rects.s"
full sh -c "exec '$bin' run -f nv '$src/examples/nv/fence.s' >/dev/full"
full "$bin" run -f nv --draws /dev/full "$src/examples/nv/textured_square.s"
full sh -c "exec '$bin' run -f radeon --json '$src/examples/radeon/ib_chain.s' >/dev/full"
full sh -c "exec '$bin' run -f vc4 '$src/examples/vc4/first_triangle.s' >/dev/full"
full sh -c "exec '$bin' check -f nv '$src/examples/nv/fence.s' >/dev/full"
full sh -c "exec '$bin' help >/dev/full"
full sh -c "exec '$bin' version --json >/dev/full"

# ---- the findings of issue 16, one by one ------------------------------------
expect 2 "disasm -f nv --gen" -- "$bin" disasm -f nv --gen r600 "$tmp/random"
grep -q -- '--gen is not supported for nv' "$tmp/err" && ok || bad "--gen message: $(cat "$tmp/err")"
expect 2 "disasm --budget" -- "$bin" disasm -f raw --budget nv.macro-insns=5 "$tmp/random"
grep -q -- 'option --budget does not apply' "$tmp/err" && ok || bad "--budget message"
# run -f nv -o writes render target 0 (issue 12); a scene without one exits 3
expect 3 "run -f nv -o, no target" -- "$bin" run -f nv -o "$tmp/x.png" "$src/examples/nv/fence.s"
grep -q -- "-o $tmp/x.png, or a file the scene names, was not written" "$tmp/err" && ok || bad "-o message: $(cat "$tmp/err")"
grep -q -- 'render target 0 is not a colour target' "$tmp/out" && ok || bad "-o log line: $(cat "$tmp/out")"
expect 0 "run -f nv -o" -- "$bin" run -f nv -o "$tmp/x.png" --out "$tmp" "$src/examples/nv/depth_blend.s"
[ -s "$tmp/x.png" ] && ok || bad "run -f nv -o wrote no PNG"
expect 3 "run -f nv -o unwritable" -- "$bin" run -f nv -o "$tmp/no/x.png" "$src/examples/nv/depth_blend.s"
# -o is rewritten in place, not truncated first (src/core/image_internal.h,
# cg__out_open): longer old bytes are cut to the new PNG, and a run that fails
# without writing it leaves no stale file behind, as when it was truncated
head -c 300000 /dev/urandom >"$tmp/old.png"
expect 0 "run -f nv -o over a longer file" -- "$bin" run -f nv -o "$tmp/old.png" --out "$tmp" \
    "$src/examples/nv/depth_blend.s"
cmp -s "$tmp/old.png" "$tmp/x.png" && ok || bad "run -f nv -o over a longer file: not the PNG"
expect 3 "run -f nv -o, no target, old file" -- "$bin" run -f nv -o "$tmp/old.png" \
    "$src/examples/nv/fence.s"
[ ! -e "$tmp/old.png" ] && ok || bad "a failed run -f nv left the old -o file"
mkdir -p "$tmp/v1" "$tmp/v2"
(cd "$tmp/v1" && "$bin" run -f vc4 -o fresh.png "$src/examples/vc4/first_triangle.s" >/dev/null) \
    && ok || bad "run -f vc4 -o fresh.png"
head -c 300000 /dev/urandom >"$tmp/v2/old.png"
head -c 300000 /dev/urandom >"$tmp/v2/first_triangle.png"
(cd "$tmp/v2" && "$bin" run -f vc4 -o old.png "$src/examples/vc4/first_triangle.s" >/dev/null) \
    && ok || bad "run -f vc4 -o over a longer file"
cmp -s "$tmp/v1/fresh.png" "$tmp/v2/old.png" && ok || bad "run -f vc4 -o over a longer file: not the PNG"
cmp -s "$tmp/v1/first_triangle.png" "$tmp/v2/first_triangle.png" && ok \
    || bad "run -f vc4 .png over a longer file: not the PNG"
"$bin" help run | grep -q -- '-o, --output FILE.*\[nv vc4 vc4-cl only\]' && ok || bad "help run lists -o"
expect 2 "--budget 010" -- "$bin" run -f nv --budget nv.macro-insns=010 "$src/examples/nv/fence.s"
expect 0 "--budget 0x10" -- "$bin" run -f nv --budget nv.macro-insns=0x10000 --out "$tmp" \
    "$src/examples/nv/fence.s"
expect 2 "--dump 65-bit" -- "$bin" run -f nv --dump 0x10000000000000000:4:f "$src/examples/nv/fence.s"
expect 2 "--dump size -1" -- "$bin" run -f nv --dump 0x100000000:-1:f "$src/examples/nv/fence.s"
expect 2 "--dump 08" -- "$bin" run -f nv --dump 0x100000000:08:f "$src/examples/nv/fence.s"
expect 0 "--dump" -- "$bin" run -f nv --dump 0x100010000:4:"$tmp/d.bin" "$src/examples/nv/fence.s"
expect 3 "--dump unwritable" -- "$bin" run -f nv --dump 0x100010000:4:"$tmp/no/d.bin" \
    "$src/examples/nv/fence.s"
expect 3 "--out unwritable" -- "$bin" run -f nv --out "$tmp/no/such/dir" "$src/examples/nv/fence.s"
one_line_err() { [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q '^cmdgpu: ' "$tmp/err"; }
one_line_err && ok || bad "--out message: $(cat "$tmp/err")"
expect 3 "run -f vc4 -o unwritable" -- "$bin" run -f vc4 -o "$tmp/no/x.png" \
    "$src/examples/vc4/first_triangle.s"
printf '.buffer 0x100000000, 0x1000\n.frobnicate 1\n' >"$tmp/bad.s"
expect 3 "run -f nv syntax error" -- "$bin" run -f nv "$tmp/bad.s"
grep -q "^$tmp/bad.s:2:1: unknown directive" "$tmp/err" && ok || bad "nv syntax error on stderr: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] && ok || bad "nv syntax error not on stdout: $(cat "$tmp/out")"
expect 3 "run -f nv -o, syntax error" -- "$bin" run -f nv -o "$tmp/syn.png" "$tmp/bad.s"
[ ! -e "$tmp/syn.png" ] && ok || bad "run -f nv -o with a syntax error left an -o file"
printf '.equ a, a\n.word a\n' >"$tmp/equ.s"
expect 3 ".equ a, a" -- "$bin" asm -f raw -o "$tmp/equ.bin" "$tmp/equ.s"
grep -q "^$tmp/equ.s:1:6: circular definition: 'a' depends on itself" "$tmp/err" && ok \
    || bad ".equ message: $(cat "$tmp/err")"

# The caps, exactly: a 4 MiB binary is read, one byte more is refused, from a
# file (measured first) and from a pipe (read as it arrives).
truncate -s 4M "$tmp/cap.bin"
expect 0 "disasm at the cap" -- "$bin" disasm -f raw -o /dev/null "$tmp/cap.bin"
expect 0 "disasm at the cap, pipe" -- sh -c "cat '$tmp/cap.bin' | '$bin' disasm -f raw -o /dev/null -"
truncate -s $((4 * 1024 * 1024 + 1)) "$tmp/cap.bin"
expect 3 "disasm over the cap" -- "$bin" disasm -f raw -o /dev/null "$tmp/cap.bin"
grep -q "larger than 4 MiB, the cap for this input" "$tmp/err" && ok || bad "cap message: $(cat "$tmp/err")"
expect 3 "disasm over the cap, pipe" -- sh -c "cat '$tmp/cap.bin' | '$bin' disasm -f raw -o /dev/null -"
rm -f "$tmp/cap.bin"

# The examples check rejects on purpose, and the help and README say why.
expect 1 "check first_triangle.s" -- "$bin" check -f vc4 "$src/examples/vc4/first_triangle.s"
grep -q '^vc4: 9 item(s) checked, 4 violation(s)$' "$tmp/out" && ok || bad "first_triangle violations"
expect 1 "check ib_chain.s" -- "$bin" check -f radeon "$src/examples/radeon/ib_chain.s"
grep -q 'forbidden register SCRATCH_REG5' "$tmp/out" && ok || bad "ib_chain violation"
"$bin" help check | grep -q 'they fail on purpose (README)' && ok || bad "help check says why"
grep -q 'rejects the vc4 and radeon example scenes on purpose' "$src/README.md" && ok \
    || bad "README says why the examples fail check"

# --json everywhere it is accepted: one object with the run's results.
expect 0 "run -f radeon --json" -- "$bin" run -f radeon --json "$src/examples/radeon/ib_chain.s"
json_ok && grep -q '^{"family":"radeon","scene":".*","result":"ok","faults":\[\],"log":\[' "$tmp/out" \
    && ok || bad "radeon json: $(head -c 300 "$tmp/out")"
grep -q '"fence 1 signalled (EOP interrupts 1)"' "$tmp/out" && ok || bad "radeon json log"
expect 0 "run -f vc4 --json" -- "$bin" run -f vc4 --json -o "$tmp/t.png" \
    "$src/examples/vc4/first_triangle.s"
json_ok && grep -q '"result":"ok"' "$tmp/out" && grep -q 'pixel hash ab4e631d2f5d14c4' "$tmp/out" \
    && ok || bad "vc4 json: $(head -c 300 "$tmp/out")"
expect 0 "demo --json" -- "$bin" demo --json --out "$tmp/demo"
json_ok && grep -q '^{"demo":{"dir":".*","scenes":\[{"name":"core/coherency","ok":true}' "$tmp/out" \
    && ok || bad "demo json: $(head -c 300 "$tmp/out")"
# without --json the text is unchanged
expect 0 "run -f radeon text" -- "$bin" run -f radeon "$src/examples/radeon/ib_chain.s"
grep -q '^fence 1 signalled (EOP interrupts 1)$' "$tmp/out" && ok || bad "radeon text"

# An output that is also the input is refused before anything is opened for
# writing (issue 34): exit 2, one line, the input as it was; the same file
# under another name (a symlink) too; an output that does not exist yet
# cannot alias.
cp "$src/examples/nv/fence.s" "$tmp/alias.s"
cp "$tmp/alias.s" "$tmp/alias.orig"
ln -sf "$tmp/alias.s" "$tmp/alias.link"
alias_refused() { # WHAT OPT COMMAND...
    local what=$1 opt=$2; shift 2
    bounded "$@"
    [ "$code" = 2 ] && one_line && grep -q "^cmdgpu: [a-z]*: $opt '.*' is the input '.*': refused" "$wd/err" \
        && cmp -s "$tmp/alias.s" "$tmp/alias.orig" && ok \
        || { bad "$what: exit $code: $(cat "$wd/err")"; cp "$tmp/alias.orig" "$tmp/alias.s"; }
}
alias_refused "run --capture of the scene" --capture "$bin" run -f nv "$tmp/alias.s" --capture "$tmp/alias.s"
alias_refused "run --capture through a symlink" --capture "$bin" run -f nv "$tmp/alias.s" --capture "$tmp/alias.link"
alias_refused "report -o the scene" -o "$bin" report -f nv "$tmp/alias.s" -o "$tmp/alias.s"
alias_refused "asm -o the source" -o "$bin" asm -f nv "$tmp/alias.s" -o "$tmp/alias.s"
alias_refused "disasm -o the input" -o "$bin" disasm -f nv "$tmp/alias.s" -o "$tmp/alias.s"
alias_refused "run --dump into the scene" --dump "$bin" run -f nv "$tmp/alias.s" --dump "0x100000000:16:$tmp/alias.s"
alias_refused "run --draws into the scene" --draws "$bin" run -f nv "$tmp/alias.s" --draws "$tmp/alias.s"
rm -f "$tmp/alias.cap"
expect 0 "a new --capture file is no alias" -- "$bin" run -f nv "$tmp/alias.s" --capture "$tmp/alias.cap"
alias_refused "run a capture -o itself" -o "$bin" run "$tmp/alias.cap" -o "$tmp/alias.cap"

# a missing file, a missing .include, a directory: the system's reason, not
# a library error string (issue 34)
mkdir -p "$tmp/adir"
printf '.include "nosuch.inc"\n' > "$tmp/inc.s"
says() { # WHAT LINE COMMAND...: exit 3 and exactly LINE on stderr
    local what=$1 line=$2; shift 2
    bounded "$@"
    [ "$code" = 3 ] && [ "$(cat "$wd/err")" = "$line" ] && ok || bad "$what: exit $code: $(cat "$wd/err")"
}
for f in nv vc4 radeon nv-sass vc4-qpu; do
    says "asm -f $f of a missing file" "cmdgpu: cannot read '$tmp/nosuch.s': No such file or directory" \
        "$bin" asm -f $f "$tmp/nosuch.s"
    says "asm -f $f of a directory" "cmdgpu: cannot read '$tmp/adir': Is a directory" "$bin" asm -f $f "$tmp/adir"
done
says "asm of a missing .include" "$tmp/inc.s:1:10: cannot read 'nosuch.inc': No such file or directory" \
    "$bin" asm -f nv "$tmp/inc.s"
says "run of a missing .include" "$tmp/inc.s:1:10: cannot read 'nosuch.inc': No such file or directory" \
    "$bin" run -f nv "$tmp/inc.s"
says "check -f nv of a missing file" "cmdgpu: cannot read '$tmp/nosuch.s': No such file or directory" \
    "$bin" check -f nv "$tmp/nosuch.s"
says "run -f vc4 of a directory" "cmdgpu: cannot read '$tmp/adir': Is a directory" "$bin" run -f vc4 "$tmp/adir"

finish cli_contract
