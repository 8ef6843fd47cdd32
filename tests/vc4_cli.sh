#!/usr/bin/env bash
# The vc4 family through the cmdgpu command: control-list asm/disasm round
# trips (-f vc4-cl and -f vc4), the FIRST TRIANGLE scene with `cmdgpu run`
# (PNG and pixel hash), and a faulting scene's exit code.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"

cat > "$tmp/a.s" <<'S'
        Tile_Binning_Mode_Configuration 0x400000, 0x8000, 0x500000, 10, 8, Auto_Init_Tile_State_Data
        Start_Tile_Binning
        Clip_Window 0, 0, 640, 480
        Configuration_Bits Enable_Forward_Facing_Primitive + Enable_Reverse_Facing_Primitive, Early_Z_Updates_Enable
        Vertex_Array_Primitives Mode_Triangles, 3, 0
        Flush
S
expect 0 "asm" -- "$bin" asm -f vc4-cl -o "$tmp/a.bin" "$tmp/a.s"
[ "$(od -An -tx1 -N16 "$tmp/a.bin" | tr -s ' ')" = " 70 00 00 40 00 00 80 00 00 00 00 50 00 0a 08 04" ] && ok || bad "asm bytes"
expect 0 "disasm" -- "$bin" disasm -f vc4-cl -o "$tmp/a.dis" "$tmp/a.bin"
grep -q '^// 0x00000000: command number 0x70 (112), Tile_Binning_Mode_Configuration' "$tmp/a.dis" && ok || bad "disasm header line"
grep -q '^//     Width_in_tiles (uint8): 0x0000000a$' "$tmp/a.dis" && ok || bad "disasm field line"
expect 0 "re-asm" -- "$bin" asm -f vc4-cl -o "$tmp/b.bin" "$tmp/a.dis"
cmp -s "$tmp/a.bin" "$tmp/b.bin" && ok || bad "round trip a"

"$bin" disasm -f vc4-cl --json "$tmp/a.bin" >"$tmp/a.json" 2>&1 && ok || bad "disasm --json"
grep -q '"name":"Tile_Binning_Mode_Configuration","bytes":"70 00 00 40 00 00 80 00 00 00 00 50 00 0a 08 04","fields":{"Tile_Allocation_memory_address":4194304,' "$tmp/a.json" && ok || bad "json record"
grep -q '"bad":0}' "$tmp/a.json" && ok || bad "json trailer"

# the whole FIRST TRIANGLE image (lists, records, shader, data) round trips
expect 0 "asm first_triangle" -- "$bin" asm -f vc4 -o "$tmp/ft.bin" "$src/examples/vc4/first_triangle.s"
expect 0 "disasm first_triangle" -- "$bin" disasm -f vc4 -o "$tmp/ft.dis" "$tmp/ft.bin"
expect 0 "re-asm first_triangle" -- "$bin" asm -f vc4 -o "$tmp/ft2.bin" "$tmp/ft.dis"
cmp -s "$tmp/ft.bin" "$tmp/ft2.bin" && ok || bad "round trip first_triangle"

# run: PNG and the golden pixel hash
(cd "$tmp" && "$bin" run -f vc4 -o "$tmp/ft.png" "$src/examples/vc4/first_triangle.s") >"$tmp/run" 2>&1
[ $? = 0 ] && ok || { bad "run first_triangle"; cat "$tmp/run"; }
grep -q 'pixel hash ab4e631d2f5d14c4' "$tmp/run" && ok || bad "first_triangle hash"
[ -s "$tmp/ft.png" ] && ok || bad "first_triangle png"
grep -q '0x0040021c: relative branch, target 0x00400aa0' "$tmp/run" && ok || bad "tile list dump"

# the C example (library API, bare-metal style) draws the same picture
if [ -x "$build/example_vc4_first_triangle" ]; then
    "$build/example_vc4_first_triangle" "$tmp/api.png" >"$tmp/ex" 2>&1 && ok || { bad "C example"; cat "$tmp/ex"; }
    grep -q 'pixel hash ab4e631d2f5d14c4' "$tmp/ex" && ok || bad "C example hash"
fi

# a faulting scene exits 1 and prints the fault
cat > "$tmp/f.s" <<'S'
.section t, 0x1000
L: .byte 0x09
E:
.kick 0, L, E
S
expect 1 "faulting scene" -- "$bin" run -f vc4 "$tmp/f.s"
grep -q 'invalid-opcode vc4/ct0 ch 0 addr 0x1000' "$tmp/out" && ok || bad "fault line"
expect 3 "syntax error" -- "$bin" asm -f vc4-cl -o "$tmp/x.bin" /dev/stdin <<<'Tile_Coordinates 1'

# outputs that cannot be written exit 3 (input/output error), not 1 (issue 16)
mkdir -p "$tmp/o" && cd "$tmp/o" || exit 1
expect 3 "-o /dev/full" -- "$bin" run -f vc4 "$src/examples/vc4/first_triangle.s" -o /dev/full
grep -q '^FAIL wrote /dev/full: input/output error$' "$tmp/out" && ok || bad "-o /dev/full log line"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q -- '-o /dev/full, or a file the scene names, was not written' "$tmp/err" && ok || bad "-o /dev/full: one stderr line"
sed 's|^\.png "first_triangle.png"$|.png "/dev/full"|' "$src/examples/vc4/first_triangle.s" >"$tmp/full.s"
grep -q '^\.png "/dev/full"$' "$tmp/full.s" && ok || bad "scene with .png /dev/full"
expect 3 ".png /dev/full" -- "$bin" run -f vc4 "$tmp/full.s"
grep -q '^FAIL png /dev/full: input/output error$' "$tmp/out" && ok || bad ".png /dev/full log line"
grep -q 'pixel hash ab4e631d2f5d14c4$' "$tmp/out" && ok || bad ".png /dev/full: the run goes on"
# -o naming another file: both written, the same bytes; the same file: once
expect 0 "-o other file" -- "$bin" run -f vc4 "$src/examples/vc4/first_triangle.s" -o x.png
cmp -s x.png first_triangle.png && ok || bad "-o and .png files differ"
rm -f first_triangle.png
expect 0 "-o same file" -- "$bin" run -f vc4 "$src/examples/vc4/first_triangle.s" -o first_triangle.png
cmp -s x.png first_triangle.png && ok || bad "-o same file: bytes"
grep -q '^wrote first_triangle.png$' "$tmp/out" && ok || bad "-o same file: log"
cd - >/dev/null || exit 1

finish vc4_cli
