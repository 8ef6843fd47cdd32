#!/usr/bin/env bash
# The nv family through the cmdgpu command: every example scene runs with the
# expected exit code, asm(disasm(x)) == x for every example's pushbuffer (with
# and without --subch), --json and --trace output, and error exits.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"

expect 0 "fence scene" -- "$bin" run -f nv --out "$tmp" "$src/examples/nv/fence.s"
grep -q "fence 0 reached" "$tmp/out" && ok || bad "fence scene output"
grep -q "expect32 0x0100010000: 0x00001234 ok" "$tmp/out" && ok || bad "fence expect"
cmp -s "$tmp/sem.bin" <(printf '\x34\x12\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00') && ok || bad "sem.bin contents"
expect 0 "upload_copy scene" -- "$bin" run -f nv --out "$tmp" "$src/examples/nv/upload_copy.s"
grep -q "png $tmp/roundtrip.png: 16x16 hash 3fd68bf1a40648e5" "$tmp/out" && ok || bad "round-trip image hash"
grep -q "png $tmp/upload.png: 16x16 hash 3fd68bf1a40648e5" "$tmp/out" && ok || bad "upload image hash"
expect 0 "blit scene" -- "$bin" run -f nv --out "$tmp" "$src/examples/nv/blit.s"
grep -q "png $tmp/blit_point.png: 64x64 hash 9e0d8531c7a68645" "$tmp/out" && ok || bad "point blit hash"
grep -q "png $tmp/blit_bilinear.png: 64x64 hash ecd7835886c5e8c5" "$tmp/out" && ok || bad "bilinear blit hash"
expect 0 "rects scene" -- "$bin" run -f nv --out "$tmp" "$src/examples/nv/rects.s"
grep -q "png $tmp/rects.png: 64x64 hash 650824d1e560dd0c" "$tmp/out" && ok || bad "rects hash"
expect 1 "faults scene" -- "$bin" run -f nv --out "$tmp" "$src/examples/nv/faults.s"
grep -q "unbound-subchannel nv/pfifo ch 0 .*stream 0x100000000 words 0x8001a080 0x00000001: method 0x0200 on subchannel 5, which has no object bound" "$tmp/out" && ok || bad "fault line"
grep -q "expect32 0x0100010000: 0x0000600d ok" "$tmp/out" && ok || bad "second channel still works"
expect 0 "run --dump" -- "$bin" run -f nv --out "$tmp" --dump 0x100010000:4:d.bin "$src/examples/nv/fence.s"
cmp -s "$tmp/d.bin" <(printf '\x34\x12\x00\x00') && ok || bad "--dump contents"
expect 2 "bad --dump" -- "$bin" run -f nv --dump 12 "$src/examples/nv/fence.s"
expect 0 "run --json" -- "$bin" run -f nv --json --out "$tmp" "$src/examples/nv/fence.s"
grep -q '"result":"ok"' "$tmp/out" && ok || bad "run --json result"
expect 0 "run --trace" -- "$bin" run -f nv --trace --out "$tmp" "$src/examples/nv/fence.s"
grep -q "SEMAPHORED \[0x001c\] = 0x01000002" "$tmp/out" && ok || bad "trace line"
expect 1 "faults --json" -- "$bin" run -f nv --json --out "$tmp" "$src/examples/nv/faults.s"
grep -q '"kind":"unbound-subchannel"' "$tmp/out" && ok || bad "fault json"

# the directives a recorded session uses (docs/nv.md)
expect 0 "session directives" -- "$bin" run -f nv "$src/tests/data/nv_session.s"
grep -q "^PBDMA0: 00800000 \[DEVICE\] ch 0 subc 7 mthd 0600 data 00000005 (a software method the kernel does not take)$" "$tmp/out" && ok || bad "nvsw line"
grep -q "^scene .*nv_session.s: ok, 0 fault(s)$" "$tmp/out" && ok || bad "session ok"
sed 's/0x05b334f6f5410fcb/0x05b334f6f5410fca/' "$src/tests/data/nv_session.s" > "$tmp/badhash.s"
expect 1 "expect_hash mismatch" -- "$bin" run -f nv "$tmp/badhash.s"
grep -q "^FAIL expect_hash 0x0100010000 +0x1000: 05b334f6f5410fcb, expected 05b334f6f5410fca$" "$tmp/out" && ok || bad "expect_hash message"
grep -v '^.nvsw' "$src/tests/data/nv_session.s" > "$tmp/nonvsw.s"
expect 1 "no .nvsw: subchannel 7 has no object" -- "$bin" run -f nv "$tmp/nonvsw.s"
grep -q "unbound-subchannel nv/pfifo ch 0 .*method 0x0500 on subchannel 7" "$tmp/out" && ok || bad "no nvsw fault"
printf '.buffer b, 0x100000000, 0x1000\n.unmap b\n.unmap b\n' > "$tmp/unmap2.s"
expect 1 "unmap twice" -- "$bin" run -f nv "$tmp/unmap2.s"
grep -q "action #2 (.unmap: no .buffer at that address) failed" "$tmp/out" && ok || bad "unmap twice message"

# round trips on every example
for s in "$src"/examples/nv/*.s "$src"/fuzz/corpus/nv_asm/statements.s; do
    name=$(basename "$s" .s)
    expect 0 "asm $name" -- "$bin" asm -f nv -o "$tmp/$name.bin" "$s"
    expect 0 "disasm $name" -- "$bin" disasm -f nv -o "$tmp/$name.dis" "$tmp/$name.bin"
    expect 0 "re-asm $name" -- "$bin" asm -f nv -o "$tmp/$name.bin2" "$tmp/$name.dis"
    cmp -s "$tmp/$name.bin" "$tmp/$name.bin2" && ok || bad "round trip $name"
    expect 0 "disasm --subch $name" -- "$bin" disasm -f nv --subch 0=B0B5,5=A140 -o "$tmp/$name.dis2" "$tmp/$name.bin"
    expect 0 "re-asm --subch $name" -- "$bin" asm -f nv -o "$tmp/$name.bin3" "$tmp/$name.dis2"
    cmp -s "$tmp/$name.bin" "$tmp/$name.bin3" && ok || bad "round trip --subch $name"
    expect 0 "disasm --json $name" -- "$bin" disasm -f nv --json "$tmp/$name.bin"
    head -c 20 "$tmp/out" | grep -q '^{"family":"nv"' && ok || bad "json header $name"
done
expect 0 "disasm listing" -- "$bin" disasm -f nv "$tmp/upload_copy.bin"
grep -q "hdr noninc 2, LOAD_INLINE_DATA, 256" "$tmp/out" && ok || bad "listing names LOAD_INLINE_DATA"
grep -q "LAUNCH_DMA DATA_TRANSFER_TYPE=NON_PIPELINED FLUSH_ENABLE=FALSE SEMAPHORE_TYPE=RELEASE_ONE_WORD_SEMAPHORE" "$tmp/out" && ok || bad "listing decodes LAUNCH_DMA"
expect 2 "bad --subch" -- "$bin" disasm -f nv --subch 9=zz "$tmp/fence.bin"
printf 'inc 0, NOPE, 1\n' > "$tmp/bad.s"
expect 3 "asm error" -- "$bin" asm -f nv -o "$tmp/x" "$tmp/bad.s"
grep -q "bad.s:1:" "$tmp/err" && ok || bad "asm error location"
expect 3 "run syntax error" -- "$bin" run -f nv "$tmp/bad.s"
printf '\x01\x02\x03' > "$tmp/odd.bin"
# bytes after the last whole word come out as .byte (asm(disasm(x)) == x)
expect 0 "disasm odd size" -- "$bin" disasm -f nv --color=never "$tmp/odd.bin"
grep -q '^.byte 0x01, 0x02, 0x03  # 0x0000$' "$tmp/out" && ok || bad "odd size tail: $(cat "$tmp/out")"

# outputs that cannot be written exit 3 (issue 16): a small --dump is only
# refused by fclose, a .png by the encoder
expect 3 "--dump /dev/full" -- "$bin" run -f nv --dump 0x100010000:4:/dev/full "$src/examples/nv/fence.s"
grep -q 'input/output error' "$tmp/out" "$tmp/err" && ok || bad "--dump /dev/full message"
sed 's|"rects.png"|"/dev/full"|' "$src/examples/nv/rects.s" >"$tmp/full.s"
expect 3 ".png /dev/full" -- "$bin" run -f nv "$tmp/full.s"
sed 's|"sem.bin"|"/dev/full"|' "$src/examples/nv/fence.s" >"$tmp/fulld.s"
expect 3 ".dump /dev/full" -- "$bin" run -f nv "$tmp/fulld.s"

finish nv_cli
