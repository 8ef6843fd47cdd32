/* core: what every family's text tools share (include/cmdgpu/family.h). */
#include "cmdgpu/family.h"

void cg_text_tail(const cg_text_opts *o, const char *indent, const uint8_t *data, size_t from,
                  size_t size, FILE *out)
{
    if (from >= size)
        return;
    const char *nm = o->c_name ? o->c_name : "", *num = o->c_num ? o->c_num : "";
    const char *cm = o->c_comment ? o->c_comment : "", *rs = o->c_reset ? o->c_reset : "";
    fprintf(out, "%s%s.byte%s ", indent, nm, rs);
    for (size_t i = from; i < size; i++)
        fprintf(out, "%s%s0x%02x%s", i > from ? ", " : "", num, data[i], rs);
    fprintf(out, "  %s# 0x%04zx%s\n", cm, from, rs);
}

int cg_parse_u64(const char *text, uint64_t *out)
{
    const char *p = text;
    int base = 10;
    if (!p)
        return -1;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        base = 16, p += 2;
    else if (p[0] == '0' && p[1])
        return -1; /* 010: octal in C, decimal to a person; refuse both */
    uint64_t v = 0;
    if (!*p)
        return -1;
    for (; *p; p++) {
        int d = *p >= '0' && *p <= '9'   ? *p - '0'
                : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
                : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10
                                         : 99;
        if (d >= base || v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = v;
    return 0;
}
