/* The vc4-qpu front end of the cmdgpu command: disassembly text of the seed
 * 003 fragment shader, JSON, and the asm(disasm(x)) == x round trip through
 * the tool. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static const unsigned char seed_fs[] = {
    0x00, 0x70, 0x9e, 0x00, 0xe7, 0x09, 0x00, 0x10, 0xff, 0xff, 0xff, 0xff,
    0xa7, 0x0b, 0x02, 0xe0, 0x00, 0x70, 0x9e, 0x00, 0xe7, 0x09, 0x00, 0x50,
    0x00, 0x70, 0x9e, 0x00, 0xe7, 0x09, 0x00, 0x30, 0x00, 0x70, 0x9e, 0x00,
    0xe7, 0x09, 0x00, 0x10, 0x00, 0x70, 0x9e, 0x00, 0xe7, 0x09, 0x00, 0x10,
    0x42, /* a trailing byte: kept by a .byte line */
};

static const char want_text[] =
    "# vc4-qpu: 6 instructions (49 bytes)\n"
    "    nop                                                  # 0x0000: 0x009e7000 0x100009e7\n"
    "    ldi tlbc, -1                                         # 0x0008: 0xffffffff 0xe0020ba7\n"
    "    nop;  sbdone                                         # 0x0010: 0x009e7000 0x500009e7\n"
    "    nop;  thrend                                         # 0x0018: 0x009e7000 0x300009e7\n"
    "    nop                                                  # 0x0020: 0x009e7000 0x100009e7\n"
    "    nop                                                  # 0x0028: 0x009e7000 0x100009e7\n"
    "    # 1 trailing bytes, not a whole instruction\n"
    "    .byte 0x42  # 0x0030\n";

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 65536);
    *n = buf ? fread(buf, 1, 65535, f) : 0;
    fclose(f);
    return buf;
}

int main(void)
{
    const char *tool = CMDGPU_BINARY_DIR "/cmdgpu";
    FILE *f = fopen("vc4_qpu_cli_seed.bin", "wb");
    CHECK(f != NULL);
    if (!f)
        return check_report("test_vc4_qpu_cli");
    fwrite(seed_fs, 1, sizeof seed_fs, f);
    fclose(f);

    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s disasm -f vc4-qpu vc4_qpu_cli_seed.bin -o vc4_qpu_cli_seed.s",
             tool);
    CHECK_EQ(system(cmd), 0);
    size_t n;
    char *text = slurp("vc4_qpu_cli_seed.s", &n);
    CHECK_STR(text, want_text);
    free(text);

    snprintf(cmd, sizeof cmd, "%s asm -f vc4-qpu vc4_qpu_cli_seed.s -o vc4_qpu_cli_back.bin",
             tool);
    CHECK_EQ(system(cmd), 0);
    char *back = slurp("vc4_qpu_cli_back.bin", &n);
    CHECK_EQ(n, sizeof seed_fs);
    CHECK(back && memcmp(back, seed_fs, sizeof seed_fs) == 0);
    free(back);

    snprintf(cmd, sizeof cmd,
             "%s disasm -f vc4-qpu --json vc4_qpu_cli_seed.bin -o vc4_qpu_cli_seed.json", tool);
    CHECK_EQ(system(cmd), 0);
    char *json = slurp("vc4_qpu_cli_seed.json", &n);
    CHECK(json && strstr(json, "{\"offset\":8,\"words\":[\"0xffffffff\",\"0xe0020ba7\"],"
                               "\"text\":\"ldi tlbc, -1\",\"notes\":\"\","
                               "\"confidence\":\"known\"}") != NULL);
    CHECK(json && strstr(json, "\"tail\":[66]}") != NULL);
    free(json);

    /* an assembler error names the line */
    f = fopen("vc4_qpu_cli_bad.s", "w");
    CHECK(f != NULL);
    if (f) {
        fputs("nop : nop\nfadd r0, ra1, ra2 : nop\n", f);
        fclose(f);
    }
    snprintf(cmd, sizeof cmd,
             "%s asm -f vc4-qpu vc4_qpu_cli_bad.s -o vc4_qpu_cli_bad.bin 2>vc4_qpu_cli_bad.err",
             tool);
    CHECK(system(cmd) != 0);
    char *err = slurp("vc4_qpu_cli_bad.err", &n);
    CHECK(err && strstr(err, "vc4_qpu_cli_bad.s:2:") != NULL);
    CHECK(err && strstr(err, "conflicting raddr_a") != NULL);
    free(err);
    return check_report("test_vc4_qpu_cli");
}
