/* Fuzz the compressed primitive list decoder and the control-list
 * disassembler. Every item decodes without reading past the input, and a
 * triangle a coding produces re-encodes to a coding that decodes to the same
 * triangle (a failed round trip traps). The disassembler gets the input both
 * as a plain control list and as a compressed list after a 0x30. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 16))
        return 0;
    uint32_t prev[3] = {0, 0, 0};
    size_t off = 0;
    while (off < size) {
        cg_vc4_prim_item it;
        unsigned n = cg_vc4_prim_decode(data + off, size - off, prev, &it);
        if (n == 0)
            break;
        if (n > size - off)
            abort();
        if (it.kind <= 3) {
            uint8_t enc[7];
            cg_vc4_prim_item back;
            for (int first = 0; first < 2; first++) {
                unsigned m = cg_vc4_prim_encode(prev, it.tri, first, enc);
                if (m == 0 || m > 7 || cg_vc4_prim_decode(enc, m, prev, &back) != m ||
                    back.kind > 3 || memcmp(back.tri, it.tri, sizeof it.tri) != 0)
                    abort();
            }
            memcpy(prev, it.tri, sizeof prev);
        }
        off += n;
    }
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        return 0;
    cg_vc4_disasm_opts o = {.base = 0x400000, .prim_format = 0x12, .max_records = 4096};
    cg_vc4_cl_disasm(&o, data, size, null);
    uint8_t *buf = malloc(size + 1);
    if (buf) {
        buf[0] = 0x30;
        memcpy(buf + 1, data, size);
        cg_vc4_cl_disasm(&o, buf, size + 1, null);
        free(buf);
    }
    fclose(null);
    return 0;
}
