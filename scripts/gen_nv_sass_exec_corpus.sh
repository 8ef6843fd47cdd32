#!/bin/sh
# Seed corpus of fuzz/fuzz_nv_sass_exec.c: assembles a few nv-sass programs
# with the built cmdgpu tool and wraps them in the harness's input layout
# (active mask, budget, 64 bytes of constant buffer, memory from MAP_VA:
# zero SPH, code, pools at +0x1000/+0x1200, a 4x4 texture at +0x1400).
# Usage: scripts/gen_nv_sass_exec_corpus.sh BUILD_DIR OUT_DIR
set -e
build=$1
out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
le32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
seed() { # name active budget source-file
    "$build/cmdgpu" asm -f nv-sass -o "$tmp/code.bin" "$4"
    {
        le32 "$2"; le32 "$3"
        # cb: word 0 = 0 (unlinked TSC), word 2 = handle 0, the rest small numbers
        i=0; while [ $i -lt 16 ]; do if [ $i = 2 ]; then le32 0; else le32 $((i * 4)); fi; i=$((i + 1)); done
        head -c 80 /dev/zero
        cat "$tmp/code.bin"
        size=$((80 + $(wc -c < "$tmp/code.bin")))
        head -c $((0x1000 - size)) /dev/zero
        # TIC 0: A8B8G8R8 block linear 4x4 at MAP_VA + 0x1400, normalized
        le32 0x58d24908; le32 0x10001400; le32 $((3 << 21)); le32 0
        le32 $((3 | 1 << 23)); le32 $((3 | 1 << 31)); le32 0; le32 0
        head -c $((0x200 - 32)) /dev/zero
        # TSC 0: clamp to edge, linear
        le32 0x92; le32 0x62; le32 0; le32 0; le32 0; le32 0; le32 0; le32 0
        head -c $((0x200 - 32)) /dev/zero
        i=0; while [ $i -lt 128 ]; do le32 $((i * 0x01020304)); i=$((i + 1)); done
    } > "$out/$1"
}
cat > "$tmp/alu.s" <<'S'
S2R R0, SR_LANEID;
I2F.F32.S32 R1, R0;
FFMA R2, R1, 0.5, R1;
MUFU.RSQ R3, R2;
F2I.S32.F32.TRUNC R4, R3;
XMAD R5, R0, R0, RZ;
LOP3.LUT R6, R0, R5, R4, 0x96;
ISETP.GT.AND P0, PT, R6, 0x10, PT;
SEL R7, R6, R5, P0;
P2R.PR R8, RZ, 0x7f;
EXIT;
S
cat > "$tmp/flow.s" <<'S'
S2R R0, SR_LANEID;
MOV32I R2, 0x0;
PBK done;
loop:
ISETP.GE.AND P0, PT, R2, R0, PT;
BRK @P0;
SSY j;
ISETP.LT.AND P1, PT, R2, 0x4, PT;
BRA @P1 k;
IADD32I R2, R2, 0x1;
SYNC;
k:
IADD32I R2, R2, 0x2;
SYNC;
j:
BRA loop;
done:
ISETP.EQ.AND P2, PT, R0, 0x5, PT;
KIL @P2;
EXIT;
S
cat > "$tmp/tex.s" <<'S'
S2R R0, SR_LANEID;
I2F.F32.S32 R1, R0;
FMUL R1, R1, 0.0625;
FMUL R2, R1, 0.5;
TEXS.2D R6, R4, R1, R2, 0x2, 0x4;
TEX.2D R8, R1, RZ, 0x2, 0xf;
TLD4.G.2D R12, R1, RZ, 0x2, 0xf;
TLDS.2D_LZ RZ, R10, R0, R0, 0x2, 0x4;
TXQ R16, RZ, 0x1, 0x2, 0xf;
EXIT;
S
cat > "$tmp/mem.s" <<'S'
S2R R0, SR_LANEID;
SHL R1, R0, 0x2;
LDC R2, c[0x0][R1+0x0];
MOV32I R4, 0x10001800;
MOV R5, RZ;
IADD R4, R4, R1;
LDG.E R6, [R4];
STG.E [R4+0x100], R6;
STL [R1], R6;
LDL R7, [R1];
ALD.128 R8, a[0x80], RZ;
AST.128 a[0x90], R8, RZ;
IPA.PASS R12, a[0x7c], RZ, RZ, PT;
MUFU.RCP R12, R12;
IPA R13, a[0x84], R12, RZ, PT;
EXIT;
S
seed alu 0xffffffff 1000 "$tmp/alu.s"
seed flow 0x0000ffff 5000 "$tmp/flow.s"
seed tex 0xffffffff 1000 "$tmp/tex.s"
seed mem 0x000000ff 1000 "$tmp/mem.s"
# tex again with the texture cache on (constant buffer word 1 = 2): three runs
{ head -c 12 "$out/tex"; le32 2; tail -c +17 "$out/tex"; } > "$out/tex_cached"
