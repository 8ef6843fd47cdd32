/* Fuzzes the nv stream validator (cmdgpu/nv_check.h). Two inputs:
 *  - text starting with '#' or '.': an nv scene for cg_nv_check_scene;
 *  - anything else: pushbuffer bytes placed at 0x100000000 (mapped, rounded
 *    up to pages) beside a read-write and a read-only page; the first 8 bytes
 *    are also one raw GPFIFO entry (any LENGTH, address or control opcode),
 *    and the words after them go in two entries on channels 0 and
 *    (byte 8 & 7), split at byte 9 (x 4).
 * The validator must never crash, leak or read outside its input, whatever
 * the words say; reports are bounded by CG_CHECK_MAX. Scenes walk up to the
 * default 2^24 words; the binary input at most 2^16 (max_words). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    cg_check_report r;
    cg_check_report_init(&r);
    if (size && (data[0] == '#' || data[0] == '.')) {
        /* .incbin could read any file: leave it to the core's own fuzzer */
        for (size_t i = 0; i + 6 <= size; i++)
            if (memcmp(data + i, "incbin", 6) == 0)
                return 0;
        cg_nv_check_scene("fuzz.s", (const char *)data, size, &r, NULL);
    } else {
        const uint64_t pb = 0x100000000ull;
        cg_nv_check_map maps[3] = {
            {pb, (size + 0xFFF) & ~(uint64_t)0xFFF, false, "pb"},
            {0x100100000ull, 0x1000, false, "buf"},
            {0x100200000ull, 0x1000, true, "ro"},
        };
        cg_nv_check_bytes b = {pb, data, size};
        cg_nv_check_entry e[3];
        size_t ne = 0;
        if (size >= 8) {
            uint64_t raw;
            memcpy(&raw, data, 8);
            e[ne++] = (cg_nv_check_entry){0, raw};
        }
        if (size >= 12) {
            uint32_t words = (uint32_t)(size / 4) - 2;
            uint32_t split = data[9] * 4u < words ? data[9] * 4u : words;
            e[ne++] = (cg_nv_check_entry){0, cg_nv_gp_entry(pb + 8, split, 0)};
            e[ne++] = (cg_nv_check_entry){data[8] & 7u,
                                          cg_nv_gp_entry(pb + 8 + 4ull * split, words - split, 0)};
        }
        cg_nv_check_input in = {maps, 3, &b, 1, e, ne, 1u << 16};
        if (cg_nv_check(&in, &r) == 0 && r.n > CG_CHECK_MAX)
            abort();
    }
    cg_check_report_free(&r);
    return 0;
}
