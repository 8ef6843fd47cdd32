#!/bin/bash
# Run piglit GL ES tests through Mesa's nouveau on the model (`cmdgpu exec`)
# and through llvmpipe (`cmdgpu exec --reference`), and compare each result
# with the committed expectation.
#   run.sh BUILD LIST EXPECTED OUT [JOBS]
# LIST: NAME<TAB>PROGRAM ARGS lines (tests/piglit/list.sh writes them; paths
# are relative to the installed piglit). EXPECTED: NAME<TAB>LLVMPIPE<TAB>CMDGPU
# lines (tests/piglit/expected.tsv; after a change that moves results, the
# new ones are `cut -f1-3 OUT/results.tsv`). Writes OUT/results.tsv (name,
# llvmpipe, cmdgpu, GPU faults) and
# OUT/results.md (the table, with a summary), keeps each test's output under
# OUT/<n>/, and exits 1 when a result differs from its expectation.
# A result is piglit's (pass, fail, skip, warn, crash), or: timeout (over
# 60 s), gpu-fault (the model faulted: `cmdgpu exec --exit-on-fault` ended
# the test, its log has the fault), nodriver (the model's run made no ioctl
# yet did not skip: Mesa fell back to llvmpipe). Exit 77 where piglit is not
# installed.
set -u
build=$(cd "$1" && pwd) list=$2 expected=$3 out=$4 jobs=${5:-$(nproc)}
piglit=$(ls -d /usr/lib/*/piglit 2>/dev/null | head -1)
if [ -z "$piglit" ] || [ ! -x "$piglit/bin/shader_runner_gles2" ]; then
    echo "skipped: piglit is not installed (Debian package piglit; scripts/deps.sh)"
    exit 77
fi
# the expectations are those of Debian 12's Mesa and piglit
mesa=$(dpkg-query -W -f '${Version}' libgl1-mesa-dri 2>/dev/null)
pig=$(dpkg-query -W -f '${Version}' piglit 2>/dev/null)
case "$mesa/$pig" in
    22.3.6*/0~git20220119*) ;;
    *) echo "skipped: the expectations are Mesa 22.3.6's with piglit 0~git20220119 (Debian 12);"
       echo "this is Mesa '$mesa', piglit '$pig'"; exit 77 ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
export build piglit out

result_of() { # result_of DIR RC: piglit's verdict from DIR/stdout
    local r
    r=$(grep -o 'PIGLIT: {"result": "[a-z]*"' "$1/stdout" 2>/dev/null | tail -1 | sed 's/.*"\([a-z]*\)"$/\1/')
    if [ "$2" = 124 ]; then echo timeout
    elif [ "$2" = 86 ]; then echo gpu-fault
    elif [ -n "$r" ]; then echo "$r"
    elif [ "$2" -ge 128 ]; then echo crash
    else echo fail
    fi
}
run_one() { # run_one N NAME COMMAND...
    local n=$1 name=$2 d rc r faults
    shift 2
    for side in model reference; do
        d=$out/$n/$side
        mkdir -p "$d"
        local opt=--exit-on-fault
        [ $side = reference ] && opt=--reference
        (cd "$piglit" && TMPDIR=$d PIGLIT_PLATFORM=surfaceless_egl timeout 60 \
            "$build/cmdgpu" exec $opt --ioctls "$d/ioctls" --log "$d/log" -- "$@" \
            >"$d/stdout" 2>"$d/stderr")
        rc=$?
        r=$(result_of "$d" $rc)
        if [ $side = model ] && [ ! -s "$d/ioctls" ] && [ "$r" != skip ]; then r=nodriver; fi
        echo "$r" >"$d/result"
    done
    faults=$(grep -c 'GPU fault' "$out/$n/model/log" 2>/dev/null)
    printf '%s\t%s\t%s\t%s\n' "$name" "$(cat "$out/$n/reference/result")" \
        "$(cat "$out/$n/model/result")" "${faults:-0}" >"$out/$n/row"
}
export -f run_one result_of

grep -v '^$' "$list" | awk '{ print NR "\t" $0 }' | xargs -d '\n' -P "$jobs" -I{} bash -c \
    'IFS=$'"'"'\t'"'"' read -r n name cmd <<<"$1"; run_one "$n" "$name" $cmd' _ {}

: >"$out/results.tsv"
n=$(grep -vc '^$' "$list")
for ((i = 1; i <= n; i++)); do cat "$out/$i/row" >>"$out/results.tsv"; done

# the table, and the comparison with the expectation
fail=0
{
    echo "| test | llvmpipe | cmdgpu | GPU faults |"
    echo "|---|---|---|---|"
    awk -F'\t' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$out/results.tsv"
    echo
    echo "cmdgpu: $(cut -f3 "$out/results.tsv" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')"
    echo "llvmpipe: $(cut -f2 "$out/results.tsv" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')"
} >"$out/results.md"
while IFS=$'\t' read -r name ref model faults; do
    want=$(awk -F'\t' -v t="$name" '$1 == t { print $2 "\t" $3 }' "$expected")
    if [ -z "$want" ]; then
        echo "NEW: $name: llvmpipe $ref, cmdgpu $model (not in $expected)"
        fail=1
    elif [ "$want" != "$ref"$'\t'"$model" ]; then
        echo "CHANGED: $name: llvmpipe $ref, cmdgpu $model; expected $(echo "$want" | tr '\t' ' ')"
        fail=1
    fi
done <"$out/results.tsv"
tail -2 "$out/results.md"
echo "table: $out/results.md"
exit $fail
