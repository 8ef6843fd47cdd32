#!/usr/bin/env bash
# `cmdgpu run -f nv --draws FILE --dump-textures DIR`: the seed-000 textured
# square (16 attribute formats, stride 0x1C, TRIANGLE_STRIP, FIRST 0, COUNT 4)
# with a 2x2 A8B8G8R8 pitch texture reached through the fragment stage's
# texture constant buffer. Checks: the JSON parses (python3) and holds the
# draw, its vertices and the texture; the PNG holds the texels; --draws -
# keeps stdout pure JSON; bad uses exit with the documented codes.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
if ! command -v python3 >/dev/null; then
    echo "python3 not found: cannot check the JSON"
    exit 77
fi

cat >"$tmp/square.s" <<'EOF'
.buffer pb,  0x100000000, 0x10000
.buffer vb,  0x100100000, 0x1000
.buffer cb,  0x100200000, 0x1000
.buffer tic, 0x100300000, 0x1000
.buffer tsc, 0x100400000, 0x1000
.buffer tex, 0x100500000, 0x1000

# x, y, z, u, v (floats), colour (4 halves): 0x1C bytes a vertex
.section vdata, vb
    .float -1.0, -1.0, 0.0, 0.0, 0.0
    .half 0x3C00, 0, 0, 0x3C00
    .float 1.0, -1.0, 0.0, 1.0, 0.0
    .half 0, 0x3C00, 0, 0x3C00
    .float -1.0, 1.0, 0.0, 0.0, 1.0
    .half 0, 0, 0x3C00, 0x3C00
    .float 1.0, 1.0, 0.0, 1.0, 1.0
    .half 0x3800, 0x3400, 0xC000, 0x3C00
# handles from word 8: TIC 1, TSC 0
.section cbdata, cb
    .word 0, 0, 0, 0, 0, 0, 0, 0, 1
# TIC 1: A8B8G8R8 (0x08) UNORM, swizzle RGBA, pitch header, pitch 32, 2x2, 2D
.section ticdata, tic + 32
    .word 0x08 | 2 << 7 | 2 << 10 | 2 << 13 | 2 << 16 | 2 << 19 | 3 << 22 | 4 << 25 | 5 << 28
    .word tex & 0xffffffff, (tex >> 32) | 2 << 21, 1, 1 | 1 << 23, 1 | 1 << 31, 0, 0
.section texels, tex
    .word 0xff0000ff, 0xff00ff00
    .org tex + 32
    .word 0xffff0000, 0x80ffffff

.section pb, pb
start:
    inc 0, SET_OBJECT, 0xB197
    inc 0, VERTEX_ATTRIB_FORMAT(0), 7 << 27 | 2 << 21, 7 << 27 | 4 << 21 | 12 << 7, 7 << 27 | 3 << 21 | 20 << 7
    inc 0, VERTEX_ATTRIB_FORMAT(3), 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21, 7 << 27 | 1 << 21
    inc 0, VERTEX_ARRAY_FETCH(0), 0x1C | 1 << 12
    inc 0, VERTEX_ARRAY_START_HIGH(0), vb >> 32, vb & 0xffffffff
    inc 0, VERTEX_ARRAY_LIMIT_HIGH(0), vb >> 32, (vb + 4 * 0x1C - 1) & 0xffffffff
    inc 0, TIC_ADDRESS_HIGH, tic >> 32, tic & 0xffffffff, 1
    inc 0, TSC_ADDRESS_HIGH, tsc >> 32, tsc & 0xffffffff, 0
    inc 0, CB_SIZE, 0x100, cb >> 32, cb & 0xffffffff
    inc 0, CB_BIND(4), 1 | 0 << 4
    inc 0, TEX_CB_INDEX, 0
    inc 0, VERTEX_BEGIN_GL, 5
    inc 0, VERTEX_BUFFER_FIRST, 0, 4
    inc 0, VERTEX_END_GL, 0
end:
.submit start, end
.finish
EOF

expect 0 "square --draws" -- "$bin" run -f nv --draws "$tmp/d.json" --dump-textures "$tmp/tex" "$tmp/square.s"
grep -q "scene $tmp/square.s: ok, 0 fault(s)" "$tmp/out" && ok || bad "scene summary"
python3 - "$tmp/d.json" <<'EOF' && ok || bad "draw JSON contents"
import json, sys
d = json.load(open(sys.argv[1]))["draws"]
assert len(d) == 1, d
d = d[0]
assert d["topology"] == "TRIANGLE_STRIP" and d["first"] == 0 and d["count"] == 4, d
assert [a["attrib"] for a in d["attribs"]] == list(range(16))
assert d["streams"][0]["stride"] == 0x1C and d["streams"][0]["start"] == "0x100100000"
v = d["vertices"]
assert [x["index"] for x in v] == [0, 1, 2, 3]
assert v[0]["attribs"][0]["f"] == [-1, -1, 0, 1], v[0]["attribs"][0]
assert v[3]["attribs"][1]["f"] == [1, 1, 0, 1]
assert v[3]["attribs"][2]["f"] == [0.5, 0.25, -2, 1]
assert v[1]["attribs"][15]["f"] == [1, -1, 0, 1]
t = d["textures"]
assert len(t) == 1 and t[0]["stage"] == 4 and t[0]["slot"] == 8 and t[0]["tic_index"] == 1, t
assert t[0]["tic_ok"] and t[0]["tsc_ok"], t
assert d["constant_buffers"] == [{"stage": 4, "slot": 0, "addr": "0x100200000", "size": 256}]
EOF
[ -f "$tmp/tex/tic_1.png" ] && ok || bad "tic_1.png written"
python3 - "$tmp/tex/tic_1.png" <<'EOF' && ok || bad "tic_1.png texels"
import sys, zlib, struct
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, ihdr = 8, b"", None
while pos < len(b):
    n, kind = struct.unpack(">I4s", b[pos:pos + 8])
    data = b[pos + 8:pos + 8 + n]
    if kind == b"IHDR": ihdr = struct.unpack(">IIBBBBB", data)
    if kind == b"IDAT": idat += data
    pos += 12 + n
assert ihdr[:4] == (2, 2, 8, 6), ihdr  # 2x2, 8-bit RGBA
raw, rows, prev, bpp, stride = zlib.decompress(idat), [], bytes(8), 4, 8
for y in range(2):  # undo the PNG row filters (none, sub, up, average, Paeth)
    ft, line, out = raw[y * 9], raw[y * 9 + 1:y * 9 + 9], bytearray()
    for i, x in enumerate(line):
        a = out[i - bpp] if i >= bpp else 0
        b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
        p = a + b - c
        pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
        out.append((x + [0, a, b, (a + b) // 2, pr][ft]) & 0xff)
    rows.append(bytes(out))
    prev = bytes(out)
want = [bytes([0xff, 0, 0, 0xff, 0, 0xff, 0, 0xff]), bytes([0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80])]
assert rows == want, rows
EOF

# --draws - : the JSON alone on stdout, the summary on stderr
expect 0 "square --draws -" -- "$bin" run -f nv --draws - "$tmp/square.s"
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["draws"]) == 1' "$tmp/out" && ok || bad "--draws - output is JSON"
grep -q "ok, 0 fault(s)" "$tmp/err" && ok || bad "--draws - summary on stderr"

# a scene without draws gives an empty list
expect 0 "fence --draws" -- "$bin" run -f nv --out "$tmp" --draws "$tmp/e.json" "$src/examples/nv/fence.s"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1])) == {"draws": []}' "$tmp/e.json" && ok || bad "empty draw list"

# a texture that cannot be read is reported in the run's log, not fatal
sed 's/^    .word tex & 0xffffffff, (tex >> 32) | 2 << 21/    .word 0x700000000 \& 0xffffffff, 7 | 2 << 21/' "$tmp/square.s" >"$tmp/hole.s"
expect 0 "unmapped texture" -- "$bin" run -f nv --dump-textures "$tmp/tex2" "$tmp/hole.s"
grep -q "^--dump-textures: tic 1 " "$tmp/out" && ok || bad "unreadable texture message"
[ ! -f "$tmp/tex2/tic_1.png" ] && ok || bad "no PNG for an unreadable texture"

# a draw the pipeline renders and records (examples/nv/textured_square.s):
# the draw callback's full vertex records and the pipeline's compact vertex
# inputs are filled from one fetch (draw.c); asking for the records changes
# neither the picture nor the record (hashes as on main before wip-nvsmall)
if command -v sha256sum >/dev/null; then
    expect 0 "textured square --draws -o" -- "$bin" run -f nv --out "$tmp" \
        --draws "$tmp/sq.json" -o "$tmp/sq_d.png" "$src/examples/nv/textured_square.s"
    expect 0 "textured square -o" -- "$bin" run -f nv --out "$tmp" \
        -o "$tmp/sq.png" "$src/examples/nv/textured_square.s"
    cmp -s "$tmp/sq.png" "$tmp/sq_d.png" && ok || bad "--draws changes the picture"
    [ "$(sha256sum <"$tmp/sq.png" | cut -c1-64)" = \
      74d46d4ef36dd4b35311eeebbd527eec82dfdd7d768c77bc3cf42f31a0bb58e8 ] && ok ||
        bad "textured square picture hash"
    [ "$(sha256sum <"$tmp/sq.json" | cut -c1-64)" = \
      567989c40629ee16df3fe2a6416ae597b5f808b7b0d59455937284d3a3c847c9 ] && ok ||
        bad "textured square draw record hash"
fi

expect 2 "--draws without a value" -- "$bin" run -f nv "$tmp/square.s" --draws
expect 3 "--draws into a missing directory" -- "$bin" run -f nv --draws "$tmp/no/such/d.json" "$tmp/square.s"

finish nv_draw_cli
