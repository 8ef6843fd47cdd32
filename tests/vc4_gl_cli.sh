#!/usr/bin/env bash
# vc4 GL shader mode through the cmdgpu command: examples/vc4/gl_cube.s
# (coordinate and vertex shaders on the QPU, depth test) renders with no
# fault to the golden pixel hash, and its image round-trips through
# asm/disasm. tests/test_vc4_gl.c checks the same frame per pixel against
# an independent reference. examples/vc4/gl_textured.s: the same geometry
# textured (pixel hash).
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"

(cd "$tmp" && "$bin" run -f vc4 -o "$tmp/cube.png" "$src/examples/vc4/gl_cube.s") >"$tmp/run" 2>&1
[ $? = 0 ] && ok || { bad "run gl_cube"; cat "$tmp/run"; }
grep -q 'png gl_cube.png: 256x256, pixel hash 1b01e2807ce7c3db' "$tmp/run" && ok || { bad "gl_cube hash"; cat "$tmp/run"; }
grep -q '^fault #' "$tmp/run" && bad "gl_cube faults" || ok
grep -q 'triangles binned 14, tile entries 85' "$tmp/run" && ok || bad "gl_cube binning stats"
expect 0 "asm gl_cube" -- "$bin" asm -f vc4 -o "$tmp/c.bin" "$src/examples/vc4/gl_cube.s"
expect 0 "disasm gl_cube" -- "$bin" disasm -f vc4 -o "$tmp/c.dis" "$tmp/c.bin"
expect 0 "re-asm gl_cube" -- "$bin" asm -f vc4 -o "$tmp/c2.bin" "$tmp/c.dis"
cmp -s "$tmp/c.bin" "$tmp/c2.bin" && ok || bad "round trip gl_cube"

# the textured scene (wip-vc4-tmu's sampler through the QPU's TMU FIFO):
# a mipmapped T-format texture on the cube, a raster one on the plane
(cd "$tmp" && "$bin" run -f vc4 -o "$tmp/tex.png" "$src/examples/vc4/gl_textured.s") >"$tmp/run2" 2>&1
[ $? = 0 ] && ok || { bad "run gl_textured"; cat "$tmp/run2"; }
grep -q 'png gl_textured.png: 256x256, pixel hash 3c6eeba892c24fcf' "$tmp/run2" && ok || { bad "gl_textured hash"; cat "$tmp/run2"; }
grep -q '^fault #' "$tmp/run2" && bad "gl_textured faults" || ok
# -o writes the frame the scene names when it allocated none through the
# mailbox: the same bytes as its own .png (a first version wrote an empty
# file and exited 0)
cmp -s "$tmp/tex.png" "$tmp/gl_textured.png" && ok || bad "-o is the scene's .png frame"
[ -s "$tmp/cube.png" ] && ok || bad "gl_cube -o is empty"
# a scene with no frame at all: -o is an output error (exit 3), no file left
printf '.section text, 0x00010000\n    NOP\n' > "$tmp/nofb.s"
expect 3 "-o without a frame buffer" -- "$bin" run -f vc4 -o "$tmp/nofb.png" "$tmp/nofb.s"
[ -e "$tmp/nofb.png" ] && bad "empty -o file left behind" || ok
finish vc4_gl_cli
