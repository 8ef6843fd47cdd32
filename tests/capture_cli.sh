#!/usr/bin/env bash
# Captures through the cmdgpu command (docs/captures.md): --input-format and
# detection for disasm and run, exact listings and replay results for the
# hand-made captures in tests/data/captures/, and one-line errors (exit 3)
# naming the byte offset for corrupt or mis-detected input.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
data=$src/tests/data/captures

# radeon debugfs ring dump: detected, decoded from rptr, reassembles
expect 0 "disasm ring dump" -- "$bin" disasm -f radeon -o "$tmp/r.s" "$data/radeon_ring_gfx.txt"
grep -q '^# radeon ring dump (current form): ring 64 dwords, rptr 36, wptr 48, driver.s wptr 48$' "$tmp/r.s" && ok || bad "ring dump header"
grep -A1 '^# r\[   36\] \*  rptr: the CP fetches this packet next$' "$tmp/r.s" | grep -q '^SET_CONFIG_REG SCRATCH_REG0, 0x1234  # 0x0090 c0016800 type 3, count 1$' && ok || bad "packet at rptr marked"
grep -q '^# r\[   45\] #  rptr next (saved): this packet$' "$tmp/r.s" && ok || bad "saved rptr marked"
expect 0 "reassemble the listing" -- "$bin" asm -f radeon -o "$tmp/r.bin" "$tmp/r.s"
[ "$(od -An -tx4 -v "$tmp/r.bin" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//' | wc -w)" = 45 ] && ok || bad "45 dumped dwords back"
[ "$(od -An -tx4 -j 128 -N 12 "$tmp/r.bin" | tr -s ' ')" = " c0016800 00000140 00001234" ] && ok || bad "the live packet's bytes"
expect 0 "disasm --json" -- "$bin" disasm -f radeon --json "$data/radeon_ring_gfx.txt"
grep -q '"format":"radeon-ring-dump","form":"current","ring_dw":64,"rptr":36,"wptr":48,"rptr_next":45' "$tmp/out" && ok || bad "ring dump json"
expect 0 "run ring dump" -- "$bin" run -f radeon "$data/radeon_ring_gfx.txt"
grep -q '^cp: idle rptr 48 wptr 48 ib_depth 0 packets 5 dwords 12$' "$tmp/out" && ok || bad "replayed to wptr"
grep -q '^SCRATCH_REG0 = 0x00001234$' "$tmp/out" && ok || bad "scratch after replay"
expect 0 "run old form" -- "$bin" run -f radeon --input-format radeon-ring-dump "$data/radeon_ring_gfx_old.txt"
grep -q '^SCRATCH_REG0 = 0x00001234$' "$tmp/out" && ok || bad "old form replay"
expect 1 "run ring dump with an IB" -- "$bin" run -f radeon "$data/radeon_ring_ib.txt"
grep -q '^fault #0 unmapped radeon/cp ch 0 addr 0x80000000 stream 0x80000000' "$tmp/out" && ok || bad "IB faults as unmapped"
grep -q '^note: a ring dump holds only the ring' "$tmp/out" && ok || bad "IB note"
cat "$data/radeon_ring_gfx.txt" | expect 0 "stdin with --input-format" -- "$bin" run -f radeon --input-format radeon-ring-dump -
grep -q '^SCRATCH_REG0 = 0x00001234$' "$tmp/out" && ok || bad "stdin replay"

# the hang report: after a failed replay, and after a failed scene run
expect 1 "run a ring dump that hangs" -- "$bin" run -f radeon --budget radeon.wait-polls=5 "$data/radeon_ring_wait.txt"
grep -q '^hang report: the CP stood at 0x100000024 WAIT_REG_MEM \[c0053c00 00000013 00003000 00000001\] when a fault (hang) ended the run' "$tmp/out" && ok || bad "report: where"
grep -q '^  it waited on memory 0x100003000; the GPU last wrote 0x4 there (packet at 0x10000000c)$' "$tmp/out" && ok || bad "report: what it waited on"
grep -A2 '^  the packets before it (oldest first):$' "$tmp/out" | grep -q '^    0x10000000c EVENT_WRITE_EOP (header 0xc0044700)$' && ok || bad "report: the packets before"
expect 1 "json report" -- "$bin" run -f radeon --json --budget radeon.wait-polls=5 "$data/radeon_ring_wait.txt"
grep -q '"report":{"hang":{"kind":"hang","unit":"cp","stream_addr":"0x100000024","packet":"WAIT_REG_MEM"' "$tmp/out" && ok || bad "json report"
cat > "$tmp/w.s" <<'S'
        .gen r600
        .section text, 0x100000
        SET_CONFIG_REG SCRATCH_REG2, 7
        WAIT_REG_MEM 0x13, 0x200000, 0, 1, 0xffffffff, 10
        .submit text
        .fence
        .wait
S
expect 1 "scene that hangs" -- "$bin" run -f radeon --budget radeon.wait-polls=5 "$tmp/w.s"
grep -q '^hang report: the CP stood at 0x10000004c WAIT_REG_MEM ' "$tmp/out" && ok || bad "scene report"
grep -q '^  it waited on memory 0x200000; no GPU write there in this run$' "$tmp/out" && ok || bad "scene report: waited on"
grep -q '^    0x100000040 SET_CONFIG_REG (header 0xc0016800)$' "$tmp/out" && ok || bad "scene report: packet before"
expect 1 "scene report --json" -- "$bin" run -f radeon --json --budget radeon.wait-polls=5 "$tmp/w.s"
grep -q '"hang":{"kind":"hang","unit":"cp","stream_addr":"0x10000004c","packet":"WAIT_REG_MEM"' "$tmp/out" && [ "$(wc -l < "$tmp/out")" = 1 ] && ok || bad "scene json report"

# vc4 hang state: registers named, CTnCA marked, re-run reproduces the hang
expect 0 "disasm hang state" -- "$bin" disasm -f vc4 "$data/vc4_hang_sema.bin"
grep -q '^//   CT1CS         0x00001020 (RUN SEMA RTSD 0)$' "$tmp/out" && ok || bad "CT1CS named"
grep -A1 '^// >>> CT0CA 0x00100001: the binner thread stood here' "$tmp/out" | grep -q 'Increment_Semaphore \[07\]$' && ok || bad "CT0CA marked"
grep -A1 '^// >>> CT1CA 0x00100010: the render thread stood here' "$tmp/out" | grep -q 'Wait_on_Semaphore \[08\]$' && ok || bad "CT1CA marked"
expect 1 "run hang state" -- "$bin" run -f vc4 "$data/vc4_hang_sema.bin"
grep -q '^fault #0 hang vc4/ct1 ch 1 addr 0x100010 .*Wait_on_Semaphore at 0x00100010 never satisfied' "$tmp/out" && ok || bad "the re-run hangs where the capture did"
grep -q '^CT0CA 0x00100003 (captured 0x00100001)  CT1CA 0x00100010 (captured 0x00100010)$' "$tmp/out" && ok || bad "CTnCA after the re-run"
expect 0 "hang state json" -- "$bin" disasm -f vc4 --json "$data/vc4_hang_sema.bin"
grep -q '"registers":{"start_bin":"0x00100000","start_render":"0x00100010","CT0CA":"0x00100001"' "$tmp/out" && ok || bad "hang state json"

# A hang state written here byte by byte: a one-tile render list (assembled
# by cmdgpu) that clears a 64x64 frame; its re-run frame must hash as the
# same list kicked directly in a scene, and -o writes it.
cat > "$tmp/rcl.s" <<'S'
.section text, 0x00100000
RCL_START:
     Clear_Colors 0xFF00FFFF, 0, 0, 0
     Tile_Rendering_Mode_Configuration 0x00200000, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Store_Tile_Buffer_General 0, 0, 0
     Tile_Coordinates 0, 0
     Store_Multi_Sample_End
RCL_END:
.kick 1, RCL_START, RCL_END
.wait rfc, 1
.png "direct.png", 0x00200000, 64, 64, 256, 32
S
expect 0 "assemble the render list" -- "$bin" asm -f vc4 -o "$tmp/rcl.bin" "$tmp/rcl.s"
n=$(wc -c < "$tmp/rcl.bin")
le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)); }
{
    printf "$(le32 0)"                                   # version
    printf "$(le32 0)$(le32 0)$(le32 2)"                 # bo (user pointer), bo_count
    printf "$(le32 0x100000)$(le32 0x100000)"            # start_bin, start_render
    printf "$(le32 0x100000)$(le32 0x100000)"            # ct0ca, ct0ea: no binner list
    printf "$(le32 0x100019)$(le32 $((0x100000 + n)))"   # ct1ca, ct1ea
    printf "$(le32 0)$(le32 0x20)"                       # ct0cs, ct1cs (RUN)
    for i in $(seq 29); do printf "$(le32 0)"; done      # ct0ra0 .. errstat, pad[16]
    printf "$(le32 1)$(le32 0x100000)$(le32 $n)$(le32 0)"  # BO 0: the render list
    printf "$(le32 2)$(le32 0x200000)$(le32 16384)$(le32 0)"  # BO 1: the frame
    cat "$tmp/rcl.bin"
    head -c 16384 /dev/zero
} > "$tmp/clear.hang"
[ "$(wc -c < "$tmp/clear.hang")" = $((164 + 32 + n + 16384)) ] && ok || bad "hang state size"
absbin=$(cd "$(dirname "$bin")" && pwd)/cmdgpu
(cd "$tmp" && "$absbin" run -f vc4 rcl.s > direct.out 2>&1)
want=$(sed -n 's/^png direct.png: 64x64, pixel hash \([0-9a-f]*\)$/\1/p' "$tmp/direct.out")
[ -n "$want" ] && ok || bad "direct run hash"
expect 0 "re-run a hang state with -o" -- "$bin" run -f vc4 -o "$tmp/frame.png" "$tmp/clear.hang"
grep -q "^frame 0x00200000 64x64x32: pixel hash $want\$" "$tmp/out" && ok || bad "re-run frame hashes as the direct run"
grep -q "^wrote $tmp/frame.png\$" "$tmp/out" && ok || bad "-o writes the frame"
cmp -s "$tmp/frame.png" "$tmp/direct.png" && ok || bad "the same PNG as the direct run"
grep -q '^CT0CA 0x00000000 (captured 0x00100000)  CT1CA 0x00100027 (captured 0x00100019)$' "$tmp/out" && ok || bad "CT1CA after the re-run"
expect 0 "disasm that hang state" -- "$bin" disasm -f vc4 "$tmp/clear.hang"
grep -q '^// no binner list (start_bin == CT0EA)$' "$tmp/out" && ok || bad "no binner list"
grep -A1 '^// >>> CT1CA 0x00100019: the render thread stood here' "$tmp/out" | grep -q 'Tile_Coordinates \[73 00 00\]$' && ok || bad "CT1CA at Tile_Coordinates"

# VC4_DEBUG=cl text: back to bytes, decoded by cmdgpu's own tables
expect 0 "disasm cl dump" -- "$bin" disasm -f vc4 "$data/vc4_cl_dump.txt"
grep -q '^// VC4_DEBUG=cl dump: 10 packets rebuilt, 53 bytes (hardware offsets)$' "$tmp/out" && ok || bad "cl dump header"
grep -q '^Viewport_Offset {Viewport_Centre_X_coordinate=5120, Viewport_Centre_Y_coordinate=-40}$' "$tmp/out" && ok || bad "s12.4 fields packed"
expect 2 "run cl dump" -- "$bin" run -f vc4 "$data/vc4_cl_dump.txt"

# nv raw words and NVK's text
printf '\001\040\000\040\000\000\000\000' > "$tmp/p.bin"
expect 0 "nv-push-raw" -- "$bin" disasm -f nv --input-format nv-push-raw "$tmp/p.bin"
printf '[0x00000000] HDR 20018000 subch 0 NINC\n\tmthd 0000 NV906F_SET_OBJECT\n' > "$tmp/nvk.txt"
expect 3 "NVK text refused" -- "$bin" disasm -f nv --input-format nv-push-raw "$tmp/nvk.txt"
grep -q "nv-push-raw at offset 0 (0x0): this is NVK_DEBUG=push_dump text" "$tmp/err" && ok || bad "NVK text message"
expect 2 "run raw words" -- "$bin" run -f nv --input-format nv-push-raw "$tmp/p.bin"
grep -q "raw pushbuffer words hold no GPFIFO" "$tmp/err" && ok || bad "run raw words message"
printf '\001\040\000\040\000' > "$tmp/odd.bin"
expect 3 "odd word count" -- "$bin" disasm -f nv --input-format nv-push-raw "$tmp/odd.bin"
grep -q "nv-push-raw at offset 4 (0x4): 5 bytes is not a whole number of 32-bit words" "$tmp/err" && ok || bad "odd size message"

# bad input: offsets, exit 3, wrong family, unknown format
printf 'wptr: 0x00000010 [   16]\nrptr: 0x00000000 [    0]\n16777216 free dwords in ring\n0 dwords in ring\n' > "$tmp/huge.txt"
expect 3 "huge ring" -- "$bin" disasm -f radeon "$tmp/huge.txt"
[ "$(wc -l < "$tmp/err")" = 1 ] && ok || bad "one line"
grep -q "huge.txt: radeon-ring-dump at offset 79 (0x4f): a ring of 16777216 dwords is larger than the model's 8388608" "$tmp/err" && ok || bad "huge ring message: $(cat "$tmp/err")"
head -c 100 "$data/vc4_hang_sema.bin" > "$tmp/trunc.bin"
expect 3 "truncated hang state" -- "$bin" disasm -f vc4 --input-format vc4-hang-state "$tmp/trunc.bin"
grep -q "vc4-hang-state at offset 100 (0x64): truncated" "$tmp/err" && ok || bad "truncated message"
expect 3 "ring dump given to vc4" -- "$bin" disasm -f vc4 "$data/radeon_ring_gfx.txt"
grep -q "looks like a radeon-ring-dump capture .*use -f radeon, or --input-format native" "$tmp/err" && ok || bad "wrong family message"
expect 2 "format of another family" -- "$bin" disasm -f nv --input-format vc4-hang-state "$data/vc4_hang_sema.bin"
expect 2 "unknown format" -- "$bin" disasm -f radeon --input-format pcap "$data/radeon_ring_gfx.txt"
grep -q "unknown format 'pcap' (auto, native, .*radeon-ring-dump.*cmdgpu-capture)" "$tmp/err" && ok || bad "format list"
expect 0 "native forces the bytes" -- "$bin" disasm -f vc4 --input-format native "$data/radeon_ring_gfx.txt"
finish capture_cli
