#!/usr/bin/env bash
# `cmdgpu report` pages in a real headless browser (Debian's chromium,
# docs/report.md): the DOM chromium builds has the page's parts (submission
# sections, the fault anchor and the hang point, the timeline SVG, one <img>
# with a data: URI per image the run wrote), nothing refers to the network,
# and a screenshot is a non-empty PNG. Skipped (exit 77) without chromium.
build=$1 src=$2
chromium=
for c in /usr/bin/chromium /usr/bin/chromium-browser; do
    [ -x "$c" ] && { chromium=$c; break; }
done
if [ -z "$chromium" ]; then
    echo "SKIP: no chromium installed (apt-get install chromium)"
    exit 77
fi
source "$src/tests/lib/cli_test.bash"
cd "$src" || exit 1
# chromium wants a writable home for its profile
export HOME=$tmp
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run
       --user-data-dir="$tmp/profile")

page() { # page FAMILY SCENE NAME EXIT: write $tmp/NAME.html, dump its DOM to $tmp/NAME.dom
    expect "$4" "report $3" -- "$bin" report -f "$1" -o "$tmp/$3.html" "$2"
    timeout 120 "$chromium" "${flags[@]}" --dump-dom "file://$tmp/$3.html" >"$tmp/$3.dom" 2>"$tmp/$3.log"
    [ -s "$tmp/$3.dom" ] && ok || { bad "$3: no DOM"; tail -5 "$tmp/$3.log"; }
}

# a hang: submissions, the fault anchor and the hang point, the timeline
page nv tests/data/report/nv_hang.s hang 1
dom=$tmp/hang.dom
[ "$(grep -o '<details class="sub' "$dom" | wc -l)" = 2 ] && ok || bad "two submission sections"
grep -q '<li id="f0" class="fault"><a href="#p8">fault #0 hang' "$dom" && ok || bad "fault anchor to the method"
grep -q '<div class="pk fault hang" id="p8"><a id="hang"></a>' "$dom" && ok || bad "hang point"
grep -q '<svg id="timeline-svg"' "$dom" && ok || bad "timeline svg"
grep -q '<polygon [^>]*class="fence"' "$dom" && ok || bad "fence in the timeline"
grep -q 'id="hang-report"' "$dom" && ok || bad "hang report section"

# images: one <img> with a data: URI per PNG the run wrote
page nv examples/nv/upload_copy.s images 0
dom=$tmp/images.dom
[ "$(grep -o '<img class="rt" alt="[^"]*" src="data:image/png;base64,' "$dom" | wc -l)" = 2 ] && ok || bad "two images with data: URIs"
page vc4 examples/vc4/first_triangle.s vc4 0
grep -q 'alt="framebuffer.png" src="data:image/png;base64,' "$tmp/vc4.dom" && ok || bad "vc4 framebuffer"
grep -q '<details class="nest" open=""><summary>sub-list' "$tmp/vc4.dom" && ok || bad "vc4 sub-list"
page radeon examples/radeon/ib_chain.s radeon 0
grep -q '<details class="nest" open=""><summary>indirect buffer' "$tmp/radeon.dom" && ok || bad "radeon IB"

# no network: every src/href is a fragment or a data: URI
for f in "$tmp"/*.dom; do
    grep -Eoi '(src|href)="[^"#][^"]*' "$f" | grep -v '"data:image/png;base64,' | grep . &&
        bad "$(basename "$f"): a reference outside the page" || ok
    grep -qi 'http' <(grep -Eoi '(src|href)="[^"]*' "$f") && bad "http in $(basename "$f")" || ok
done

# a screenshot: a non-empty PNG (kept in the build dir to look at)
shot=$(cd "$build" && pwd)/report_screenshot.png
rm -f "$shot"
(cd "$tmp" && timeout 120 "$chromium" "${flags[@]}" --screenshot="$shot" --window-size=1280,2000 \
    "file://$tmp/hang.html" >"$tmp/shot.log" 2>&1)
[ -s "$shot" ] && head -c 8 "$shot" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' && ok ||
    { bad "screenshot"; tail -5 "$tmp/shot.log"; }
finish browser_report
