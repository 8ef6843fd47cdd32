#!/usr/bin/env bash
# Hang reports (nv, vc4) and `cmdgpu report` (docs/report.md): the exact
# text and JSON of a hanging and a faulting run of each family, and the
# HTML page's parts, caps, escaping and errors. The browser test is
# tests/browser_report.sh.
build=$1 src=$2
source "$src/tests/lib/cli_test.bash"
srcdir=$(cd "$src" && pwd)
bin=$(cd "$(dirname "$bin")" && pwd)/cmdgpu
cd "$srcdir" || exit 1
d=tests/data/report

# ---- hang reports: exact text and JSON ---------------------------------------
for c in "nv nv_hang $d/nv_hang.s" "nv nv_fault examples/nv/faults.s" \
         "vc4 vc4_hang $d/vc4_hang.s" "vc4 vc4_fault $d/vc4_fault.s"; do
    set -- $c
    expect 1 "run $2" -- "$bin" run -f "$1" "$3"
    cmp -s "$tmp/out" "$d/$2.txt" && ok || { bad "$2 text"; diff "$d/$2.txt" "$tmp/out" | head; }
    expect 1 "run --json $2" -- "$bin" run -f "$1" --json "$3"
    cmp -s "$tmp/out" "$d/$2.json" && ok || { bad "$2 json"; diff "$d/$2.json" "$tmp/out" | head; }
done
# the lines that matter, spelled out
grep -qx '  it waited on semaphore 0x100010000: ACQUIRE (==) 0x00000002, memory holds 0x00000001; the GPU last released 0x00000001 there (channel 0 at 0x100000010)' "$d/nv_hang.txt" && ok || bad "nv semaphore line"
grep -q '^hang report: channel 1 stood at 0x100000030 (GPFIFO entry 0: pushbuffer 0x100000018, 7 words) subch 0 class B06F SEMAPHORED = 0x01000001 \[20010007 01000001\]' "$d/nv_hang.txt" && ok || bad "nv hang line"
grep -q '"waited_on":{"what":"semaphore","increments_by_ct0":0,"flushes_by_ct0":0,"waits_by_ct1":1}' "$d/vc4_hang.json" && ok || bad "vc4 semaphore json"
grep -q '^hang report: thread ct0 (bin) stood at CT0CA 0x00020002 (no record decoded there: byte 0x1e)' "$d/vc4_fault.txt" && ok || bad "vc4 fault line"
# a run that succeeds prints no report
expect 0 "fence ok" -- "$bin" run -f nv --out "$tmp" examples/nv/fence.s
grep -q "hang report" "$tmp/out" && bad "report after a good run" || ok

# ---- cmdgpu report -------------------------------------------------------------
expect 1 "report nv_hang" -- "$bin" report -f nv -o "$tmp/h.html" "$d/nv_hang.s"
grep -qx "report $tmp/h.html: $d/nv_hang.s, failed, 1 fault(s), 9 packet(s), 0 image(s)" "$tmp/out" && ok || bad "report line"
h=$tmp/h.html
grep -q '<td id="result" class="failed">failed</td>' "$h" && ok || bad "result"
grep -q '<td id="fault-count">1</td>' "$h" && ok || bad "fault count"
grep -q '<li id="f0" class="fault"><a href="#p8">fault #0 hang nv/host ch 1' "$h" && ok || bad "fault links to its method"
grep -q '<div class="pk fault hang" id="p8"><a id="hang"></a>' "$h" && ok || bad "hang point"
grep -q 'SEMAPHORED</b> <span class="m">\[0x001c\]</span> = <span class="n">0x01000001</span>' "$h" && ok || bad "method fields"
grep -q 'submission 1: channel 1 &middot; GPFIFO entry 0 &middot; pushbuffer 0x100000018, 7 words &middot; 5 methods' "$h" && ok || bad "submission"
[ "$(grep -c '<details class="sub' "$h")" = 2 ] && ok || bad "two submissions"
grep -q '<svg id="timeline-svg"' "$h" && ok || bad "timeline"
grep -q '<polygon .* class="fence"><title>fence semaphore release addr 0x100010000 value 0x1</title>' "$h" && ok || bad "fence on the timeline"
grep -q '<h3 id="hang-report">Hang report</h3>' "$h" && ok || bad "hang report in the page"
# images: every PNG the run wrote, embedded
expect 0 "report upload_copy" -- "$bin" report -f nv --json -o "$tmp/u.html" examples/nv/upload_copy.s
grep -q '"result":"ok",.*"items":300,"items_more":0,.*"faults":0,"hang":false,"images":2,' "$tmp/out" && ok || bad "report --json"
[ "$(grep -c '<img class="rt" alt="[a-z_]*.png" src="data:image/png;base64,iVBORw0KGgo' "$tmp/u.html")" = 2 ] && ok || bad "two embedded PNGs"
expect 0 "report vc4" -- "$bin" report -f vc4 -o "$tmp/v.html" examples/vc4/first_triangle.s
grep -q '<details class="nest" open><summary>sub-list called from 0x' "$tmp/v.html" && ok || bad "vc4 sub-list nested"
grep -q 'alt="framebuffer.png" src="data:image/png;base64,' "$tmp/v.html" && ok || bad "vc4 framebuffer image"
expect 0 "report radeon" -- "$bin" report -f radeon -o "$tmp/r.html" examples/radeon/ib_chain.s
grep -q '<details class="nest" open><summary>indirect buffer called from 0x' "$tmp/r.html" && ok || bad "radeon IB nested"
grep -q '<span class="a">0x200000</span> <b>SET_CONFIG_REG SCRATCH_REG4, 0x1b1b</b> <span class="m">00 68 01 c0 44 01 00 00 1b 1b 00 00</span>' "$tmp/r.html" && ok || bad "radeon packet fields"
grep -q '<b>Clip_Window {Clip_Window_Left_Pixel_Coordinate=0, Clip_Window_Bottom_Pixel_Coordinate=0, Clip_Window_Width_in_pixels=0x280, Clip_Window_Height_in_pixels=0x1e0}</b>' "$tmp/v.html" && ok || bad "vc4 record fields"
expect 2 "bad --gen" -- "$bin" report -f radeon --gen r9000 -o "$tmp/n.html" examples/radeon/ib_chain.s
expect 1 "report vc4 fault" -- "$bin" report -f vc4 -o "$tmp/vf.html" "$d/vc4_fault.s"
grep -q 'stood at CT0CA 0x00020002 (no record decoded there: byte 0x1e)' "$tmp/vf.html" && ok || bad "vc4 hang report in page"
grep -q 'class="sem"><title>semaphore: Increment_Semaphore at 0x20001 addr 0x0 value 0x7</title>' "$tmp/vf.html" && ok || bad "vc4 semaphore on the timeline"
grep -q '<li id="f1" class="fault"><a href="#p2">fault #1 hang vc4/ct1 ch 1' "$tmp/vf.html" && ok || bad "vc4 hang linked to its record"
# escaping: a scene whose name and log carry markup
mkdir -p "$tmp/x"
cp examples/nv/faults.s "$tmp/x/<b>&x.s"
expect 1 "report escaped name" -- "$bin" report -f nv -o "$tmp/e.html" "$tmp/x/<b>&x.s"
grep -q '&lt;b&gt;&amp;x.s' "$tmp/e.html" && ok || bad "name escaped"
grep -q '<b>&x' "$tmp/e.html" && bad "raw markup from the input" || ok
# the cap: a stream longer than 20000 methods shows 20000 and says how many more
{ echo '.buffer pb, 0x100000000, 0x40000'; echo '.section pb, pb'; echo 's:';
  for i in $(seq 1 25000); do echo '    mthd 0, SET_REFERENCE, 1'; done; echo 'e:'; echo '.submit s, e'; echo '.run'; } > "$tmp/big.s"
expect 0 "report big" -- "$bin" report -f nv --json -o "$tmp/big.html" "$tmp/big.s"
grep -q '"items":20000,"items_more":5000,' "$tmp/out" && ok || bad "cap in --json"
grep -q '<p class="more">5000 more packets not shown (the page shows at most 20000; docs/report.md)</p>' "$tmp/big.html" && ok || bad "N more line"
[ "$(stat -c %s "$tmp/big.html")" -lt 8000000 ] && ok || bad "capped page size"
# captures (docs/capture-format.md): the family from the header, the same stream
expect 1 "capture nv_hang" -- "$bin" run -f nv --capture "$tmp/hang.cap" "$d/nv_hang.s"
expect 1 "report capture" -- "$bin" report -o "$tmp/c.html" "$tmp/hang.cap"
grep -qx "report $tmp/c.html: $tmp/hang.cap, failed, 1 fault(s), 9 packet(s), 0 image(s)" "$tmp/out" && ok || bad "capture report line"
cmp -s <(sed -n '/<section id="stream">/,/<\/section>/p' "$tmp/h.html") \
       <(sed -n '/<section id="stream">/,/<\/section>/p' "$tmp/c.html") && ok || bad "capture stream == scene stream"
grep -q '<div class="pk fault hang" id="p8">' "$tmp/c.html" && ok || bad "capture hang point"
# (in $tmp: the scene's .png directive writes into the current directory)
cd "$tmp" || exit 1
expect 0 "capture vc4" -- "$bin" run -f vc4 --capture "$tmp/ft.cap" -o "$tmp/ft.png" "$srcdir/examples/vc4/first_triangle.s"
cd "$srcdir" || exit 1
expect 0 "report vc4 capture" -- "$bin" report --json -o "$tmp/cv.html" "$tmp/ft.cap"
grep -q '"family":"vc4","result":"ok",.*"items":666,.*"images":2,' "$tmp/out" && ok || bad "vc4 capture summary"
expect 2 "capture of another family" -- "$bin" report -f radeon -o "$tmp/n.html" "$tmp/ft.cap"
grep -q "is a vc4 capture, not radeon" "$tmp/err" && ok || bad "family mismatch message"
# cut inside the last record (the end record), whatever the capture's size:
# a cut that fell on a record boundary would leave a valid capture without
# an end record (the scene's path is in the capture, so its size varies)
head -c $(( $(wc -c < "$tmp/ft.cap") - 1 )) "$tmp/ft.cap" > "$tmp/trunc.cap"
expect 3 "truncated capture" -- "$bin" report -o "$tmp/n.html" "$tmp/trunc.cap"
# one line, `run`'s, with the offset; no page left (issue 34)
grep -qx "cmdgpu: $tmp/trunc.cap: cmdgpu-capture at offset [0-9]* (0x[0-9a-f]*): .*" "$tmp/err" \
    && [ "$(wc -l < "$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] && ok || bad "truncated capture message: $(cat "$tmp/err")"
[ ! -e "$tmp/n.html" ] && ok || bad "a page left for a truncated capture"
cp "$tmp/err" "$tmp/report.err"
expect 3 "run of it" -- "$bin" run "$tmp/trunc.cap"
cmp -s "$tmp/err" "$tmp/report.err" && ok || bad "run and report say different things: $(cat "$tmp/err")"
# interrupted (SIGINT, SIGTERM): the temporary directory and the page go
# (a branch loop with a budget far beyond the default runs until killed)
printf '.section text, 0x00010000\nloop:\n        Branch loop\nend:\n.kick 0, loop, end\n.wait idle\n' > "$tmp/loop.s"
for sig in INT TERM; do
    mkdir -p "$tmp/td"
    TMPDIR=$tmp/td "$bin" report -f vc4 "$tmp/loop.s" --budget vc4.thread-units=4000000000 -o "$tmp/loop.html" &
    pid=$!
    for i in $(seq 100); do [ -n "$(ls "$tmp/td")" ] && break; sleep 0.05; done
    kill -$sig $pid; wait $pid; st=$?
    [ "$st" -gt 128 ] && [ -z "$(ls "$tmp/td")" ] && [ ! -e "$tmp/loop.html" ] && ok \
        || bad "SIG$sig: status $st, left: $(ls "$tmp/td") $(ls "$tmp"/loop.html 2>/dev/null)"
done
# captures real systems write (docs/captures.md): replayed as `run` replays them
cd "$srcdir" || exit 1
c=tests/data/captures
expect 0 "report ring dump" -- "$bin" report -o "$tmp/rd.html" "$c/radeon_ring_gfx.txt"
grep -qx "report $tmp/rd.html: $c/radeon_ring_gfx.txt, ok, 0 fault(s), 5 packet(s), 0 image(s)" "$tmp/out" && ok || bad "ring dump report line"
grep -q 'cp: idle rptr [0-9]* wptr [0-9]*' "$tmp/rd.html" && ok || bad "ring dump CP line in the log"
expect 1 "report ring dump wait" -- "$bin" report -f radeon -o "$tmp/rw.html" "$c/radeon_ring_wait.txt"
grep -q 'hang report: the CP stood at 0x100000024 WAIT_REG_MEM \[c0053c00 00000013 00003000 00000001\]' "$tmp/rw.html" && ok || bad "ring dump hang report"
expect 1 "report hang state" -- "$bin" report --json -o "$tmp/hs.html" "$c/vc4_hang_sema.bin"
grep -q '"family":"vc4","result":"failed",.*"items":4,.*"faults":1,"hang":true,' "$tmp/out" && ok || bad "hang state summary"
grep -q 'stood at CT1CA 0x00100010 Wait_on_Semaphore' "$tmp/hs.html" && ok || bad "hang state hang report"
grep -q 'CT0CA 0x00100003 (captured 0x00100001)  CT1CA 0x00100010 (captured 0x00100010)' "$tmp/hs.html" && ok || bad "hang state log line"
expect 2 "hang state with -f nv" -- "$bin" report -f nv -o "$tmp/n.html" "$c/vc4_hang_sema.bin"
grep -q "is a vc4 capture (vc4-hang-state), not nv" "$tmp/err" && ok || bad "hang state family message"
expect 2 "cl dump" -- "$bin" report -o "$tmp/n.html" "$c/vc4_cl_dump.txt"
grep -q "holds no memory to run; disasm it" "$tmp/err" && ok || bad "cl dump message"
expect 2 "ring dump on r500" -- "$bin" report --gen r500 -o "$tmp/n.html" "$c/radeon_ring_gfx.txt"
# a hang state whose BO 0 sits at 0x3ffffff0 (bytes 168..171), past the 1 GiB of SDRAM
{ head -c 168 "$c/vc4_hang_sema.bin"; printf '\360\377\377\077'; tail -c +173 "$c/vc4_hang_sema.bin"; } > "$tmp/bad_hang.bin"
expect 3 "corrupt hang state" -- "$bin" report -o "$tmp/n.html" "$tmp/bad_hang.bin"
grep -q "bad_hang.bin': vc4-hang-state at offset 168 (0xa8): BO 0 at 0x3ffffff0 (32 bytes) runs past" "$tmp/err" && ok || bad "corrupt hang state message"
# errors
expect 3 "unwritable -o" -- "$bin" report -f nv -o /nonexistent/dir/r.html examples/nv/fence.s
grep -q "cannot create '/nonexistent/dir/r.html'" "$tmp/err" && ok || bad "unwritable message"
expect 2 "no -o" -- "$bin" report -f nv examples/nv/fence.s
expect 2 "no family" -- "$bin" report -o "$tmp/n.html" examples/nv/fence.s
expect 2 "family without runs" -- "$bin" report -f nv-sass -o "$tmp/n.html" examples/nv/fence.s
expect 3 "missing scene" -- "$bin" report -f nv -o "$tmp/n.html" "$tmp/none.s"
grep -q "cannot open '$tmp/none.s'" "$tmp/err" && ok || bad "missing scene message"
printf 'bogus\n' > "$tmp/bad.s"
for f in nv vc4 radeon; do
    expect 3 "syntax error $f" -- "$bin" report -f $f -o "$tmp/n.html" "$tmp/bad.s"
    grep -q "bad.s:1:1: " "$tmp/err" && ok || bad "syntax error message $f"
done
# no page refers to anything but itself and data: URIs
grep -Eoi '(src|href)="[a-z]+:[^"]*' "$h" "$tmp"/*.html | grep -v '"data:image/png;base64,' | grep . && bad "network reference" || ok
finish test_report
