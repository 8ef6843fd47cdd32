#!/usr/bin/env bash
# `cmdgpu check -f vc4`: a kernel-style submit (DRM_IOCTL_VC4_SUBMIT_CL) in
# assembler source, accepted and rejected (text and --json reports, exit
# codes), input errors, and every example under examples/vc4/: a submit
# (a `bin_cl` section) must pass, a bare-metal scene gets the kernel's
# verdict on its binning list.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
same() { # same FILE WHAT: $tmp/out must equal FILE
    if cmp -s "$tmp/out" "$1"; then ok; else bad "$2"; diff "$1" "$tmp/out"; fi
}

"$bin" help | grep -qE '^  vc4 .*\[ disasm asm run check \]$' && ok || bad "help lists vc4 check"

# One triangle, drawn as a vertex array and as an indexed list, through one
# GL shader record. BO list: 0 the FS, 1 the VS and CS, 2 vertices (3 x 12
# bytes), 3 indices (3 x u16).
cat > "$tmp/ok.s" <<'S'
.section bin_cl, 0
    Tile_Binning_Mode_Configuration 0, 0, 0, 10, 8, Auto_Init_Tile_State_Data
    Start_Tile_Binning
    Clip_Window 0, 0, 640, 480
    Configuration_Bits Enable_Forward_Facing_Primitive + Enable_Reverse_Facing_Primitive, 0
    Viewport_Offset 0, 0
    GL_Shader_State 0, 1
    Vertex_Array_Primitives Mode_Triangles, 3, 0
    GEM_Handles 3, 0
    Indexed_Primitive_List Index_Type_16 + Mode_Triangles, 3, 0, 2
    Increment_Semaphore
    Flush
.section shader_rec, 0
    .word 0, 1, 1, 2
    .half 1
    .byte 1, 0
    .word 0, 0
    .half 0
    .byte 1, 12
    .word 0, 0
    .half 0
    .byte 1, 12
    .word 0, 0
    .word 0
    .byte 11, 12, 0, 0
.section uniforms, 0
    .word 0xffffffff
.section shader0, 0
    .word 0x15827d80, 0x10020ba7, 0x009e7000, 0x300009e7
    .word 0x009e7000, 0x100009e7, 0x009e7000, 0x500009e7
.section shader1, 0
    .word 0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7
.section bo2, 0
    .float 0, 0, 0, 1, 0, 0, 0, 1, 0
.section bo3, 0
    .half 0, 1, 2
S
# 11 packets + 1 record + 4 + 3 shader instructions
echo 'vc4: 19 item(s) checked, 0 violation(s): ok' > "$tmp/want"
expect 0 "check ok" -- "$bin" check -f vc4 "$tmp/ok.s"
same "$tmp/want" "ok report"
expect 0 "check ok (vc4-cl, stdin)" -- sh -c "\"$bin\" check -f vc4-cl - < \"$tmp/ok.s\""
same "$tmp/want" "stdin report"
echo '{"family":"vc4","checked":19,"violations":[],"dropped":0,"ok":true}' > "$tmp/want"
expect 0 "check ok --json" -- "$bin" check -f vc4 --json "$tmp/ok.s"
same "$tmp/want" "ok json"

# Three rules broken: a Branch in place of Viewport_Offset (bin_cl 30), the
# index BO past the 4-entry list, and no uniforms for the FS (record field
# FS uniforms at shader_rec 24).
sed -e 's/Viewport_Offset 0, 0/Branch 0/' -e 's/GEM_Handles 3, 0/GEM_Handles 4, 0/' \
    -e 's/    .word 0xffffffff//' "$tmp/ok.s" > "$tmp/bad.s"
cat > "$tmp/want" <<'W'
0x0000001e: packet-allowed: Branch (opcode 16) is not allowed in a bin CL [word 0x00000010]
0x0000003b: bo-index: index buffer: BO index 4 is past the BO list (4) [word 0x00031420]
0x00000018: uniforms-overflow: record 0: the FS reads 4 bytes of uniforms, 0 left [word 0x00000004]
vc4: 19 item(s) checked, 3 violation(s)
W
expect 1 "check bad" -- "$bin" check -f vc4 "$tmp/bad.s"
same "$tmp/want" "bad report"
expect 1 "check bad --json" -- "$bin" check -f vc4 --json "$tmp/bad.s"
cat > "$tmp/want" <<'W'
{"family":"vc4","checked":19,"violations":[{"rule":"packet-allowed","where":"0x1e","word":"0x10","message":"Branch (opcode 16) is not allowed in a bin CL"},{"rule":"bo-index","where":"0x3b","word":"0x31420","message":"index buffer: BO index 4 is past the BO list (4)"},{"rule":"uniforms-overflow","where":"0x18","word":"0x4","message":"record 0: the FS reads 4 bytes of uniforms, 0 left"}],"dropped":0,"ok":false}
W
same "$tmp/want" "bad json"

# Input errors: exit 3 (syntax, no bin CL, a gap in the BO list); usage: 2.
printf '.section bin_cl, 0\nNo_Such_Record 1\n' > "$tmp/syn.s"
expect 3 "syntax error" -- "$bin" check -f vc4 "$tmp/syn.s"
grep -q 'syn.s:2:' "$tmp/err" && ok || bad "syntax error position: $(cat "$tmp/err")"
printf '.section text, 0\n.word 1\n' > "$tmp/nobin.s"
expect 3 "no bin_cl" -- "$bin" check -f vc4 "$tmp/nobin.s"
grep -qx "cmdgpu: check: no 'bin_cl' section, and no \`.kick 0\` to take the bin CL from" "$tmp/err" \
    && ok || bad "no bin_cl message: $(cat "$tmp/err")"
printf '.section bin_cl, 0\nFlush\n.section bo1, 0\n.word 0\n' > "$tmp/gap.s"
expect 3 "BO gap" -- "$bin" check -f vc4 "$tmp/gap.s"
grep -q 'BO 0 is missing' "$tmp/err" && ok || bad "BO gap message"
expect 3 "missing file" -- "$bin" check -f vc4 "$tmp/none.s"
expect 2 "no file" -- "$bin" check -f vc4

# The examples. A bare-metal scene is checked through its first `.kick 0`.
# FIRST TRIANGLE's binning list is not a kernel submit: offsets from its
# records (Tile_Binning_Mode_Configuration 16 bytes, Start_Tile_Binning 1,
# Increment_Semaphore at 17, Clip_Window 9, Configuration_Bits 4,
# Viewport_Offset 5, NV_Shader_State at 36 (5), Vertex_Array_Primitives at
# 41 (10), Flush at 51; 52 bytes): Increment_Semaphore is not second-last,
# NV shader state is refused, no GL shader state precedes the primitives, and
# the list does not end with Increment_Semaphore, Flush. (NV_Shader_State's
# word holds the low bytes of the scene's record address.)
cat > "$tmp/want_first_triangle" <<'W'
0x00000011: semaphore-second-last: Increment_Semaphore at 0x11: it must be the second-last byte of the bin CL [word 0x00006607]
0x00000024: packet-allowed: NV_Shader_State (opcode 65) is not allowed in a bin CL [word 0x01042041]
0x00000029: prim-shader-state: Vertex_Array_Primitives before any GL_Shader_State [word 0x00030421]
0x00000034: end-semaphore-flush: the bin CL must end with Increment_Semaphore, Flush [word 0x00000000]
vc4: 9 item(s) checked, 4 violation(s)
W
for ex in "$src"/examples/vc4/*.s; do
    name=$(basename "$ex" .s)
    if grep -q '^\.section bin_cl' "$ex"; then
        expect 0 "example $name (a submit) passes" -- "$bin" check -f vc4 "$ex"
    elif [ -f "$tmp/want_$name" ]; then
        expect 1 "example $name (bare metal)" -- "$bin" check -f vc4 "$ex"
        same "$tmp/want_$name" "example $name report"
    else
        # another bare-metal scene: a report (exit 0 or 1), not an input error
        "$bin" check -f vc4 "$ex" >"$tmp/out" 2>"$tmp/err"; got=$?
        if [ "$got" -le 1 ] && tail -1 "$tmp/out" | grep -qE '^vc4: [0-9]+ item\(s\) checked'; then
            ok
        else
            bad "example $name: exit $got, no report"; cat "$tmp/err"
        fi
    fi
done

finish vc4_check_cli
