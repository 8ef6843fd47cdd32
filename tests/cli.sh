#!/usr/bin/env bash
# The cmdgpu command: help and exit codes, the raw family's asm/disasm round
# trip, error reporting, unsupported subcommands said plainly, the demo.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
# expect CODE DESCRIPTION -- command...

expect 0 "help"            -- "$bin" help
grep -q '^exit codes:' "$tmp/out" && ok || bad "help lists exit codes"
grep -q '  3  input error' "$tmp/out" && ok || bad "help documents exit 3"
expect 0 "help faults" -- "$bin" help faults
grep -qE '^  unmapped +access to a GPU address with no mapping$' "$tmp/out" && ok || bad "help faults"
expect 2 "no arguments"    -- "$bin"
expect 2 "unknown command" -- "$bin" frobnicate
grep -q "unknown subcommand 'frobnicate'" "$tmp/err" && ok || bad "unknown subcommand message"
for sub in run disasm asm check bench demo version help; do
    expect 0 "$sub --help" -- "$bin" "$sub" --help
    grep -q "^usage: cmdgpu $sub" "$tmp/out" && ok || bad "$sub --help prints usage on stdout"
done
expect 0 "version" -- "$bin" version
ver=$(sed -n 's/.*project(cmdgpu VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ "$(cat "$tmp/out")" = "cmdgpu $ver" ] && ok || bad "version text: $(cat "$tmp/out")"
expect 0 "version --json" -- "$bin" version --json
[ "$(cat "$tmp/out")" = "{\"name\":\"cmdgpu\",\"version\":\"$ver\"}" ] && ok || bad "version json"
expect 2 "bad option" -- "$bin" disasm --bogus
expect 2 "bad color"  -- "$bin" disasm --color=sometimes
expect 2 "no family"  -- "$bin" disasm x
expect 2 "bad family" -- "$bin" disasm -f z80 x
grep -q "unknown family 'z80'" "$tmp/err" && ok || bad "unknown family message"

# Families that have not landed a subcommand say so plainly (exit 2).
for fam in nv vc4 radeon; do
    for sub in run check; do
        if ! "$bin" help | grep -E "^  $fam .*\b$sub\b" >/dev/null; then
            expect 2 "$sub -f $fam unsupported" -- "$bin" "$sub" -f "$fam" x
            grep -q "$sub is not supported for family '$fam' yet" "$tmp/err" && ok \
                || bad "$sub -f $fam message: $(cat "$tmp/err")"
        fi
    done
done

# raw: assemble, disassemble, reassemble: identical bytes.
cat > "$tmp/a.s" <<'S'
        .equ MAGIC, 0xC0DE
start:  .word MAGIC << 16 | (end - start), 0xdeadbeef   # two words
        .half 0x1234
        .byte 1, 2, 0xff
end:
S
expect 0 "asm raw" -- "$bin" asm -f raw -o "$tmp/a.bin" "$tmp/a.s"
[ "$(od -An -tx1 -v "$tmp/a.bin" | tr -d ' \n')" = "0d00dec0efbeadde34120102ff" ] && ok \
  || bad "asm raw bytes: $(od -An -tx1 -v "$tmp/a.bin" | tr -d ' \n')"
expect 0 "disasm raw" -- "$bin" disasm -f raw --color=never -o "$tmp/a.dis" "$tmp/a.bin"
grep -q '^.word 0xc0de000d  # 0x0000$' "$tmp/a.dis" && ok || bad "disasm line: $(cat "$tmp/a.dis")"
grep -q '^.byte 0xff  # 0x000c$' "$tmp/a.dis" && ok || bad "disasm tail"
expect 0 "reassemble" -- "$bin" asm -f raw -o "$tmp/b.bin" "$tmp/a.dis"
cmp -s "$tmp/a.bin" "$tmp/b.bin" && ok || bad "asm(disasm(x)) != x"
expect 0 "disasm stdin json" -- sh -c "'$bin' disasm -f raw --json - < '$tmp/a.bin'"
grep -q '"words":\[{"offset":0,"value":"0xc0de000d"},{"offset":4,"value":"0xdeadbeef"},{"offset":8,"value":"0x02011234"}\],"tail":\[255\]' "$tmp/out" && ok || bad "disasm json: $(cat "$tmp/out")"
expect 0 "disasm color" -- "$bin" disasm -f raw --color=always "$tmp/a.bin"
grep -q $'\033\[' "$tmp/out" && ok || bad "--color=always gives escapes"

# Errors: file:line:column and exit 3; missing file exit 3.
printf '.word 1\n.word (2 +\n' > "$tmp/e.s"
expect 3 "asm syntax error" -- "$bin" asm -f raw -o "$tmp/e.bin" "$tmp/e.s"
grep -q "^$tmp/e.s:2:" "$tmp/err" && ok || bad "error position: $(cat "$tmp/err")"
expect 3 "missing input" -- "$bin" disasm -f raw "$tmp/nope.bin"

# Demo writes its files.
expect 0 "demo" -- "$bin" demo --out "$tmp/demo"
[ -s "$tmp/demo/core_flushed.png" ] && ok || bad "demo wrote core_flushed.png"
grep -q 'copy matches the CPU' "$tmp/out" && ok || bad "demo coherency result: $(cat "$tmp/out")"
# ... and one report page per scene, naming its images without the
# temporary directory they were written to (same scene, same page).
grep -q 'png square_rt.png: 64x64 hash 0b4c4baae76e3fc5' "$tmp/demo/textured_square.html" \
    && ok || bad "demo textured_square.html: no render-target line"
grep -q 'png first_triangle.png: 640x480, pixel hash ab4e631d2f5d14c4' "$tmp/demo/first_triangle.html" \
    && ok || bad "demo first_triangle.html: no frame line"
grep -q 'cmdgpu-report-' "$tmp/demo/textured_square.html" "$tmp/demo/first_triangle.html" \
    && bad "demo pages name the temporary directory" || ok
grep -q 'report .*/textured_square.html: .*, ok, 0 fault(s), 197 packet(s), 1 image(s)' "$tmp/out" \
    && ok || bad "demo report line: $(grep report "$tmp/out")"
expect 0 "bench mem" -- "$bin" bench mem --json
grep -q '"bench":"mem"' "$tmp/out" && ok || bad "bench json"

finish cli
