#!/usr/bin/env bash
# cmdgpu's own capture container through the command (docs/capture-format.md):
# for each family an example scene run with --capture, then replayed with
# `cmdgpu run FILE`: the text and --json output, the files the run writes
# (PNG frames, --dump memory) byte for byte the same, faulting and hanging
# scenes to the same fault records and hang report; `disasm FILE`; -f
# detection and mismatch; unwritable and corrupt files (exit 3); no
# progress line when stderr is not a terminal, one under a pty.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
ex=$src/examples
mkdir -p "$tmp/a" "$tmp/b"
cd "$tmp/b" # the files replays write (.dump, .png) stay in $tmp

# same FAMILY SCENE NAME [run options...]: run the scene in $tmp/a with
# --capture, replay it in $tmp/b, and compare stdout and the exit code;
# then the same with --json.
same() {
    local fam=$1 scene=$2 name=$3; shift 3
    (cd "$tmp/a" && "$bin" run -f "$fam" "$scene" --capture "$tmp/$name.cap" "$@" >"$tmp/$name.a" 2>"$tmp/$name.ae"); local ra=$?
    (cd "$tmp/b" && "$bin" run "$tmp/$name.cap" "$@" >"$tmp/$name.b" 2>"$tmp/$name.be"); local rb=$?
    [ "$ra" = "$rb" ] && ok || bad "$name: exit $ra, replay $rb"
    cmp -s "$tmp/$name.a" "$tmp/$name.b" && ok || { bad "$name: replay output differs"; diff "$tmp/$name.a" "$tmp/$name.b" | head; }
    [ -s "$tmp/$name.a" ] && ok || bad "$name: no output"
    [ ! -s "$tmp/$name.be" ] && ok || { bad "$name: replay stderr"; cat "$tmp/$name.be"; }
    (cd "$tmp/a" && "$bin" run -f "$fam" "$scene" --json "$@" >"$tmp/$name.ja" 2>/dev/null)
    (cd "$tmp/b" && "$bin" run "$tmp/$name.cap" --json "$@" >"$tmp/$name.jb" 2>/dev/null)
    cmp -s "$tmp/$name.ja" "$tmp/$name.jb" && ok || { bad "$name: replay json differs"; diff "$tmp/$name.ja" "$tmp/$name.jb" | head; }
    return $ra
}

# nv: the frame (.png), a --dump of the frame buffer, the fence lines
# (--out o: the scene's own files; a replay writes a capture's only there)
same nv "$ex/nv/rects.s" rects --dump 0x100100000:0x4000:fb.bin --out o
cmp -s "$tmp/a/o/rects.png" "$tmp/b/o/rects.png" && ok || bad "nv: the PNG differs"
cmp -s "$tmp/a/o/fb.bin" "$tmp/b/o/fb.bin" && ok || bad "nv: the memory dump differs"
[ "$(od -An -tx1 -N4 -j 264 "$tmp/b/o/fb.bin" | tr -d ' ')" = "$(od -An -tx1 -N4 -j 264 "$tmp/a/o/fb.bin" | tr -d ' ')" ] && ok || bad "nv: dump bytes"
grep -q '^png .*rects.png: 64x64 hash ' "$tmp/rects.b" && ok || bad "nv: png line"
same nv "$ex/nv/fence.s" fence --out o
grep -q 'fence 0 reached' "$tmp/fence.b" && ok || bad "nv: fence reached on replay"
same nv "$ex/nv/faults.s" faults; [ $? = 1 ] && ok || bad "nv faults: exit 1"
grep -q '^fault #0 ' "$tmp/faults.b" && ok || bad "nv: the fault record replays"

# radeon: IBs and register checks; a hang with a budget (the budget is in
# the capture: the replay needs no --budget) and its hang report
same radeon "$ex/radeon/ib_chain.s" ib_chain
grep -q '^expect reg 0x8518 == 0x00001c1c: ok$' "$tmp/ib_chain.b" && ok || bad "radeon: expect after replay"
same radeon "$ex/radeon/wait_handshake.s" wait_handshake
cat > "$tmp/w.s" <<'S'
        .gen r600
        .section text, 0x100000
        SET_CONFIG_REG SCRATCH_REG2, 7
        WAIT_REG_MEM 0x13, 0x200000, 0, 1, 0xffffffff, 10
        .submit text
        .fence
        .wait
S
(cd "$tmp/a" && "$bin" run -f radeon "$tmp/w.s" --budget radeon.wait-polls=5 --capture "$tmp/w.cap" >"$tmp/w.a"); ra=$?
(cd "$tmp/b" && "$bin" run "$tmp/w.cap" >"$tmp/w.b"); rb=$?
[ "$ra$rb" = 11 ] && ok || bad "radeon hang: exits $ra $rb, want 1 1"
cmp -s "$tmp/w.a" "$tmp/w.b" && ok || { bad "radeon hang: replay differs"; diff "$tmp/w.a" "$tmp/w.b" | head; }
grep -q '^hang report: the CP stood at ' "$tmp/w.b" && ok || bad "radeon: hang report on replay"
grep -q 'budget radeon.wait-polls' "$tmp/w.b" && ok || bad "radeon: the captured budget applies"

# vc4: the frame through -o, the scene's own .png, the pixel hash
same vc4 "$ex/vc4/first_triangle.s" tri -o frame.png --out o
cmp -s "$tmp/a/frame.png" "$tmp/b/frame.png" && ok || bad "vc4: -o PNG differs"
cmp -s "$tmp/a/o/first_triangle.png" "$tmp/b/o/first_triangle.png" && ok || bad "vc4: .png differs"
grep -q 'pixel hash ab4e631d2f5d14c4' "$tmp/tri.b" && ok || bad "vc4: the frame's pixel hash"

# captures are data (docs/capture-format.md): the file names a capture
# records are written only under --out, as safe base names; report writes
# only its page. The scene (trusted: it is the user's) names an absolute
# path and ones with '..'; its capture replays without writing any of them.
mkdir -p "$tmp/h/s/t" && cd "$tmp/h/s/t"
sed -e "s|\"rects.png\"|\"$tmp/h/abs.png\"|" "$ex/nv/rects.s" > "$tmp/h/evil.s"
printf '.png fb, 64, 64, 256, "rgba8888", "../up.png"\n.dump fb, 16, "../../d/../dump.bin"\n' >> "$tmp/h/evil.s"
mkdir -p "$tmp/h/d"
expect 0 "capture the scene" -- "$bin" run -f nv "$tmp/h/evil.s" --capture "$tmp/evil.cap"
rm -f "$tmp/h/abs.png" "$tmp/h/s/up.png" "$tmp/h/dump.bin"
expect 0 "replay without --out" -- "$bin" run "$tmp/evil.cap"
[ -z "$(find "$tmp/h" -type f ! -name evil.s)" ] && ok || bad "replay wrote: $(find "$tmp/h" -type f)"
grep -qx "png $tmp/h/abs.png: 64x64 hash [0-9a-f]*, not written: a recorded output (--out DIR writes it there)" "$tmp/out" \
    && ok || bad "not-written line: $(grep png "$tmp/out")"
grep -qx 'dump 0x0100100000 +0x10 -> ../../d/../dump.bin: not written: a recorded output (--out DIR writes it there)' "$tmp/out" \
    && ok || bad "dump not-written line: $(grep dump "$tmp/out")"
expect 0 "replay with --out" -- "$bin" run "$tmp/evil.cap" --out "$tmp/h/o"
[ "$(cd "$tmp/h" && find . -type f ! -name evil.s | sort | tr '\n' ' ')" = "./o/abs.png ./o/dump.bin ./o/up.png " ] \
    && ok || bad "--out files: $(cd "$tmp/h" && find . -type f)"
[ "$(wc -c < "$tmp/h/o/dump.bin")" = 16 ] && ok || bad "the dump under --out"
rm -rf "$tmp/h/o"
expect 0 "report of the capture" -- "$bin" report "$tmp/evil.cap" -o "$tmp/evil.html"
[ -z "$(find "$tmp/h" -type f ! -name evil.s)" ] && ok || bad "report wrote: $(find "$tmp/h" -type f)"
grep -q "report $tmp/evil.html: .*, ok, 0 fault(s), .*, [23] image(s)" "$tmp/out" && ok || bad "report line: $(cat "$tmp/out")"
cd "$tmp/b"
# recorded budgets lower the watchdogs, never raise them: radeon.wait-polls
# (budget 3, key 259) patched from 5 to 2^62 waits the default 1000 polls
off=$(LC_ALL=C grep -obUaP '\x03\x01\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00' "$tmp/w.cap" | head -1 | cut -d: -f1)
cp "$tmp/w.cap" "$tmp/w62.cap"
printf '\000\000\000\000\000\000\000\100' | dd of="$tmp/w62.cap" bs=1 seek=$((off + 4)) conv=notrunc 2>/dev/null
expect 1 "a capture's budget of 2^62" -- timeout 20 "$bin" run "$tmp/w62.cap"
grep -q 'WAIT_REG_MEM not satisfied after 1000 polls' "$tmp/out" && ok || bad "the default budget applies"
grep -qx "cmdgpu: replay: the capture's budget radeon.wait-polls=4611686018427387904 is above the default (1000), which applies: give --budget radeon.wait-polls=4611686018427387904 to use it" "$tmp/err" \
    && ok || bad "budget note: $(cat "$tmp/err")"
expect 1 "report of it" -- timeout 20 "$bin" report "$tmp/w62.cap" -o "$tmp/w62.html"
grep -q 'above the default (1000), which applies' "$tmp/err" && ok || bad "report budget note"
expect 1 "--budget wins" -- "$bin" run "$tmp/w62.cap" --budget radeon.wait-polls=7
grep -q 'WAIT_REG_MEM not satisfied after 7 polls' "$tmp/out" && ok || bad "--budget applies"
! grep -q 'above the default' "$tmp/err" && ok || bad "no note with --budget"

# disasm: the header, the memory, each submission decoded
expect 0 "disasm a capture" -- "$bin" disasm "$tmp/tri.cap"
grep -q '^# cmdgpu capture 1.1, family vc4, scene ".*first_triangle.s": 1 memory range(s), 12 action(s), 2 submission(s)$' "$tmp/out" && ok || bad "disasm header"
grep -q '^# submission 0: 52 bytes at 0x103e4$' "$tmp/out" && ok || bad "disasm: the binner list"
grep -q '^Tile_Binning_Mode_Configuration {' "$tmp/out" && ok || bad "disasm: decoded records"
expect 0 "disasm -f radeon" -- "$bin" disasm -f radeon "$tmp/ib_chain.cap"
grep -q '^INDIRECT_BUFFER 0x300000, 0x0, 0x5  # 0x20000c ' "$tmp/out" && ok || bad "disasm: the IB"
expect 0 "disasm --json" -- "$bin" disasm --json "$tmp/rects.cap"
grep -q '^{"format":"cmdgpu-capture","version":"1.1","family":"nv",' "$tmp/out" && ok || bad "disasm json"
grep -q '"record":"submit","kind":2,"name":"NV_ACT_SUBMIT"' "$tmp/out" && ok || bad "disasm json: submit"

# the end record: a replay whose final memory differs is reported (exit 1)
cp "$tmp/rects.cap" "$tmp/bad.cap"
printf '\231' | dd of="$tmp/bad.cap" bs=1 seek=$(( $(wc -c < "$tmp/rects.cap") - 1 )) conv=notrunc 2>/dev/null
expect 1 "a different memory hash" -- "$bin" run "$tmp/bad.cap"
grep -q "^cmdgpu: replay: the replay's results differ from the capture's: .*memory hash \([0-9a-f]*\) (captured 99" "$tmp/err" && ok || bad "memory hash message"
# without its end record (the last 40 bytes: 8 of header, 32 of results) a
# capture is still valid (the record is optional), and a replay says that
# nothing was checked
head -c $(( $(wc -c < "$tmp/rects.cap") - 40 )) "$tmp/rects.cap" > "$tmp/noend.cap"
expect 0 "a capture without its end record" -- "$bin" run "$tmp/noend.cap"
grep -q '^cmdgpu: replay: the capture has no end record (cut short, or written without results): its results were not checked$' "$tmp/err" \
    && ok || bad "no end record note: $(cat "$tmp/err")"
expect 0 "disasm shows the end record" -- "$bin" disasm "$tmp/rects.cap"
grep -q '^# end: result 0, 0 fault(s), fault hash cbf29ce484222325, memory hash [0-9a-f]\{16\}$' "$tmp/out" && ok || bad "end line"

# -f: optional, a matching one is fine, another family is an error
expect 0 "run with a matching -f" -- "$bin" run -f radeon "$tmp/ib_chain.cap"
expect 2 "run with another -f" -- "$bin" run -f vc4 "$tmp/ib_chain.cap"
grep -q 'is a cmdgpu capture of family radeon, not vc4' "$tmp/err" && ok || bad "mismatch message"
expect 0 "--input-format cmdgpu-capture" -- "$bin" run -f nv --input-format cmdgpu-capture "$tmp/fence.cap"
expect 2 "--capture of a capture" -- "$bin" run "$tmp/fence.cap" --capture "$tmp/x.cap"
expect 2 "--capture of a ring dump" -- "$bin" run -f radeon "$src/tests/data/captures/radeon_ring_gfx.txt" --capture "$tmp/x.cap"
grep -q 'is a radeon-ring-dump capture: --capture records scenes' "$tmp/err" && ok || bad "ring dump --capture message"

# errors: an unwritable capture, truncated and corrupt files, a newer version
expect 3 "unwritable --capture" -- "$bin" run -f radeon "$ex/radeon/ib_chain.s" --capture "$tmp/no/such/dir/x.cap"
grep -q "^cmdgpu: --capture: cannot create '$tmp/no/such/dir/x.cap'" "$tmp/err" && ok || bad "unwritable message"
head -c 300 "$tmp/ib_chain.cap" > "$tmp/cut.cap"
expect 3 "truncated capture" -- "$bin" run "$tmp/cut.cap"
grep -q 'cmdgpu-capture at offset .*: record of .* bytes runs past the end of the file' "$tmp/err" && ok || bad "truncated message"
[ "$(wc -l < "$tmp/err")" = 1 ] && ok || bad "one line"
{ head -c 24 "$tmp/ib_chain.cap"; printf '\002\000\000\000\377\377\377\177'; } > "$tmp/huge.cap"
expect 3 "huge record" -- "$bin" disasm "$tmp/huge.cap"
grep -q 'at offset 28 (0x1c): record of 2147483647 bytes runs past the end of the file (0 bytes left)' "$tmp/err" && ok || bad "huge message"
{ head -c 10 "$tmp/ib_chain.cap"; printf '\002\000'; tail -c +13 "$tmp/ib_chain.cap"; } > "$tmp/v2.cap"
expect 3 "newer major version" -- "$bin" run "$tmp/v2.cap"
grep -q 'at offset 10 (0xa): format version 2.1 is newer than this reader.s 1.1: use a newer cmdgpu' "$tmp/err" && ok || bad "version message"

# records that make no scene (issue 34): run and report print the same one
# line naming the record's offset, exit 3, no "results differ", no page
off=$("$bin" disasm "$tmp/fence.cap" | sed -n 's/^# #3 sync .*(record at offset \([0-9]*\))$/\1/p')
corrupt() { # KIND NAME MESSAGE: the sync record #3 given action code KIND
    cp "$tmp/fence.cap" "$tmp/$2.cap"
    printf "\\$(printf %o "$1")" | dd of="$tmp/$2.cap" bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null
    local want
    want="cmdgpu: $tmp/$2.cap: cmdgpu-capture at offset $off ($(printf 0x%x "$off")): $3"
    expect 3 "$2: run" -- "$bin" run "$tmp/$2.cap"
    [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ] && ok || bad "$2: run says: $(cat "$tmp/err" "$tmp/out")"
    expect 3 "$2: report" -- "$bin" report "$tmp/$2.cap" -o "$tmp/$2.html"
    [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ] && ok || bad "$2: report says: $(cat "$tmp/err" "$tmp/out")"
    [ ! -e "$tmp/$2.html" ] && ok || bad "$2: report left a page"
}
corrupt 99 badcode "sync record: nv has no action code 99"
corrupt 7 badrole "sync record: action 7 (NV_ACT_EXPECT32) belongs in a check record"

# progress: nothing on stderr unless it is a terminal
"$bin" run -f radeon "$tmp/w.s" --budget radeon.wait-polls=5 >/dev/null 2>"$tmp/perr"
[ ! -s "$tmp/perr" ] && ok || bad "progress printed to a non-terminal"
cat > "$tmp/loop.s" <<'S'
.section text, 0x00010000
loop:
        Branch loop
end:
.kick 0, loop, end
.wait idle
S
if command -v script >/dev/null 2>&1; then
    # a branch loop of 16 Mi records (about 2 s) under a pty: the line shows
    # what ran and how fast, is rewritten in place, and is cleared at the end
    script -qec "$bin run -f vc4 $tmp/loop.s >/dev/null" /dev/null > "$tmp/pty" 2>&1
    if grep -q 'cmdgpu run: [0-9]* packets/methods, 0 KiB written by the GPU, [0-9]*/s, [0-9]* s' "$tmp/pty"; then
        ok
        [ "$(tail -c 4 "$tmp/pty" | od -An -tx1 | tr -d ' ')" = 0d1b5b4b ] && ok || bad "progress line not cleared"
    else
        echo "note: the loop took under a second here; no progress line to see"
    fi
    # a 4 MB listing: the line counts the listing's bytes; the listing is
    # the same as without a terminal
    head -c 4000000 /dev/urandom > "$tmp/rnd.bin"
    "$bin" disasm -f nv "$tmp/rnd.bin" > "$tmp/rnd.a" 2>"$tmp/rnd.err"
    [ ! -s "$tmp/rnd.err" ] && ok || bad "disasm progress printed to a non-terminal"
    script -qec "$bin disasm -f nv $tmp/rnd.bin > $tmp/rnd.b" /dev/null > "$tmp/pty2" 2>&1
    cmp -s "$tmp/rnd.a" "$tmp/rnd.b" && ok || bad "the listing differs under a terminal"
    if grep -q 'cmdgpu disasm: [0-9]* bytes of listing, [0-9]*/s, [0-9]* s' "$tmp/pty2"; then
        ok
        [ "$(tail -c 4 "$tmp/pty2" | od -An -tx1 | tr -d ' ')" = 0d1b5b4b ] && ok || bad "disasm progress not cleared"
    else
        echo "note: the listing took under a second here; no progress line to see"
    fi
else
    echo "note: no util-linux script: the progress line under a terminal is not tested"
fi
finish capfile_cli
