#!/usr/bin/env bash
# The round-trip promise, asm(disasm(x)) == x, as a property test on
# deterministic pseudo-random bytes of several sizes (whole words, partial
# words, one byte, empty) for the disassembler of every family that
# `cmdgpu help` lists with both disasm and asm (read from the help, so a new
# family is covered without editing this file), every generation of the
# families that take --gen (read from `disasm --help`), in text and with
# --color=always (escapes removed before assembling). The bytes are made by
# the assembler from an LCG, so every run tests the same inputs.
# fuzz/fuzz_roundtrip.c asserts the same promise on the library's
# disassemblers under libFuzzer.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
# scenes write files relative to the working directory: keep them in $tmp
bin=$(realpath "$bin") src=$(realpath "$src")
cd "$tmp" || exit 1

# gen SEED N MODE: N pseudo-random bytes as assembler source. MODE words:
# full-range 32-bit words (N/4 of them) then N%4 bytes; MODE headers: words
# biased towards nv/radeon packet headers (small counts, valid types), so
# the decoders walk long packets instead of skipping noise.
gen() {
    awk -v seed="$1" -v n="$2" -v mode="$3" 'BEGIN {
        x = seed
        for (i = 0; i + 4 <= n; i += 4) {
            x = (x * 1103515245 + 12345) % 2147483648; hi = int(x / 32768)
            x = (x * 1103515245 + 12345) % 2147483648; lo = int(x / 32768)
            w = (hi % 65536) * 65536 + lo % 65536
            if (mode == "headers" && lo % 3 == 0)      # nv: type, count, subch, method
                w = (hi % 8) * 536870912 + (hi % 5) * 65536 + (lo % 8) * 8192 + lo % 2048
            else if (mode == "headers" && lo % 3 == 1) # radeon: type 3, count, opcode
                w = 3221225472 + (hi % 4) * 65536 + (lo % 256) * 256
            printf ".word 0x%08x\n", w
        }
        for (; i < n; i++) {
            x = (x * 1103515245 + 12345) % 2147483648
            printf ".byte %d\n", int(x / 8388608)
        }
    }'
}

# The configurations: "FAMILY" or "FAMILY --gen GEN", from the help.
# `cmdgpu help` lists each family as "  NAME  description [ disasm asm ... ]";
# `disasm --help` gives "--gen GEN  g1 (default), g2, ... (check: ...)
# [fam1 fam2 only]".
families=$("$bin" help | awk '/^families/ { on = 1; next } on && /^$/ { exit }
    on && / disasm / && / asm / { print $1 }')
dhelp=$("$bin" disasm --help)
gens=$(printf '%s\n' "$dhelp" | sed -n 's/^ *--gen GEN *//p' | sed 's/(check.*//; s/([a-z]*)//g; s/,/ /g')
genfams=$(printf '%s\n' "$dhelp" | sed -n 's/^ *--gen GEN.*\[\(.*\) only\]$/\1/p')
configs=()
refused=()
for fam in $families; do
    if [[ " $genfams " == *" $fam "* ]]; then
        # a format may read only some generations (radeon-isa: r600, r700)
        # and refuse the others as a bad option (exit 2)
        for g in $gens; do
            "$bin" disasm -f "$fam" --gen "$g" /dev/null >/dev/null 2>&1
            if [ $? = 2 ]; then refused+=("$fam --gen $g"); else configs+=("$fam --gen $g"); fi
        done
    else
        configs+=("$fam")
    fi
done
# guard against a help text this parser no longer understands
[ "${#configs[@]}" -ge 12 ] && ok || bad "only ${#configs[@]} configurations from the help: ${configs[*]}"
for want in raw nv nv-macro vc4 vc4-qpu nv-sass nv-sass-sph "radeon --gen r500" \
    "radeon-isa --gen r600" "radeon-isa --gen r700"; do
    [[ " ${configs[*]} " == *" $want "* ]] && ok || bad "configuration '$want' missing"
done
[ "${refused[*]}" = "radeon-isa --gen evergreen radeon-isa --gen r500" ] && ok ||
    bad "refused configurations: '${refused[*]}'"

n=0
for size in 0 1 3 4 7 64 1021 4096 65536; do
    for seed in 1 2; do
        for mode in words headers; do
            [ "$size" -le 7 ] && [ "$seed" != 1 ] && continue
            [ "$size" -gt 4096 ] && [ "$mode" != words ] && continue
            gen "$seed" "$size" "$mode" >"$tmp/x.s"
            "$bin" asm -f raw -o "$tmp/x.bin" "$tmp/x.s" || { bad "make input"; continue; }
            [ "$(wc -c <"$tmp/x.bin")" = "$size" ] || bad "input size $size"
            for cfg in "${configs[@]}"; do
                read -r -a fa <<<"$cfg"
                for color in never always; do
                    [ "$color" = always ] && [ "$size" -gt 4096 ] && continue
                    what="$cfg size $size seed $seed $mode color=$color"
                    if ! "$bin" disasm -f "${fa[@]}" --color="$color" -o "$tmp/x.dis" "$tmp/x.bin" \
                        2>"$tmp/err"; then
                        bad "$what: disasm failed: $(head -c 200 "$tmp/err")"
                        continue
                    fi
                    # the assembler reads the escapes only if colour is off
                    [ "$color" = always ] && sed -i 's/\x1b\[[0-9;]*m//g' "$tmp/x.dis"
                    if ! "$bin" asm -f "${fa[@]}" -o "$tmp/y.bin" "$tmp/x.dis" 2>"$tmp/err"; then
                        bad "$what: asm of the disassembly failed: $(head -3 "$tmp/err")"
                    elif cmp -s "$tmp/x.bin" "$tmp/y.bin"; then
                        ok
                    else
                        bad "$what: asm(disasm(x)) != x at byte $(cmp "$tmp/x.bin" "$tmp/y.bin" | awk '{print $5}')"
                    fi
                    n=$((n + 1))
                done
            done
        done
    done
done
# standard input (a pipe, read as it arrives) gives the same text as the file
gen 7 70001 words >"$tmp/x.s"
"$bin" asm -f raw -o "$tmp/x.bin" "$tmp/x.s"
for cfg in "${configs[@]}"; do
    read -r -a fa <<<"$cfg"
    "$bin" disasm -f "${fa[@]}" --color=never -o "$tmp/a.dis" "$tmp/x.bin"
    cat "$tmp/x.bin" | "$bin" disasm -f "${fa[@]}" --color=never -o "$tmp/b.dis" -
    cmp -s "$tmp/a.dis" "$tmp/b.dis" && ok || bad "$cfg: disasm of a pipe differs"
    "$bin" asm -f "${fa[@]}" -o "$tmp/y.bin" - <"$tmp/a.dis" && cmp -s "$tmp/x.bin" "$tmp/y.bin" \
        && ok || bad "$cfg: round trip of 70001 bytes through stdin"
done
echo "cli_roundtrip: $n round trips over ${#configs[@]} configurations: ${configs[*]}"
finish cli_roundtrip
