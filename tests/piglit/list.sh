#!/bin/bash
# Write the piglit GL ES test list (tests/piglit/gles.list) from an
# installed piglit: every shader_test that requires GL ES (run with
# shader_runner_gles2 or _gles3 by the GLSL ES version it asks for) and every
# test program built for GLES 2 or 3 (bin/*_gles2, bin/*_gles3). One line a
# test: NAME<TAB>PROGRAM ARGS (PIGLIT is the installed piglit's directory).
# Left out: the runners themselves and the programs that need a file to read
# (shader_runner_*, glslparsertest_*, built-in-constants_*), and
# arb_texture_view-rendering-formats_gles3, which takes over a minute on
# llvmpipe here (its result would be the machine's speed).
#   list.sh [PIGLIT_DIR] > tests/piglit/gles.list
set -eu
skip='^(shader_runner_gles[23]|glslparsertest_gles2|built-in-constants_gles[23]|arb_texture_view-rendering-formats_gles3)$'
P=${1:-$(dirname "$(dirname "$(ls /usr/lib/*/piglit/bin/shader_runner 2>/dev/null | head -1)")")}
cd "$P"
grep -rlE '^(GL ES|GLSL ES)' --include='*.shader_test' tests generated_tests | LC_ALL=C sort |
while read -r f; do
    runner=shader_runner_gles2
    if grep -qE '^(GL ES >= 3|GLSL ES >= 3)' "$f"; then runner=shader_runner_gles3; fi
    name=${f%.shader_test}
    name=${name#tests/}
    printf '%s\tbin/%s %s -auto -fbo\n' "$name" "$runner" "$f"
done
ls bin | grep -E '_gles[23]$' | grep -vE "$skip" | LC_ALL=C sort | while read -r b; do
    printf 'bin/%s\tbin/%s -auto -fbo\n' "$b" "$b"
done
