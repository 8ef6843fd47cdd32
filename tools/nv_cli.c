/* cmdgpu command: the nv family front end (disasm, asm, run). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv.h"

static int nv_subch(const cli_opts *o, uint32_t sc[8])
{
    memset(sc, 0, 8 * sizeof(uint32_t));
    if (!o->subch)
        return 0;
    int rc = cg_nv_parse_subch(o->subch, sc);
    if (rc)
        return cli_error(EXIT_USAGE, "--subch '%s': want N=CLASS,... with N 0..7 and CLASS one "
                         "of B197, B1C0, A140, 902D, B0B5", o->subch);
    return 0;
}

int nv_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    cg_nv_disasm_opts d = {0};
    if (nv_subch(o, d.subch_class))
        return EXIT_USAGE;
    if (size % 4)
        return cli_error(EXIT_INPUT, "disasm -f nv: %zu bytes is not a whole number of words",
                         size);
    size_t n = size / 4;
    uint32_t *w = malloc(n ? n * 4 : 4);
    if (!w)
        return cli_error(EXIT_INPUT, "out of memory");
    for (size_t i = 0; i < n; i++)
        w[i] = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 |
               (uint32_t)data[4 * i + 2] << 16 | (uint32_t)data[4 * i + 3] << 24;
    d.json = o->json;
    d.c_reset = o->color->reset, d.c_name = o->color->name, d.c_num = o->color->num;
    d.c_addr = o->color->addr, d.c_err = o->color->err, d.c_comment = o->color->comment;
    int rc = cg_nv_disasm(w, n, &d, out);
    free(w);
    return rc < 0 ? cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(rc)) : EXIT_OK;
}

int nv_assemble(const cli_opts *o, const char *path)
{
    uint32_t sc[8];
    if (nv_subch(o, sc))
        return EXIT_USAGE;
    cg_nv_asm *a;
    if (cg_nv_asm_new(o->subch ? sc : NULL, &a) != 0)
        return cli_error(EXIT_INPUT, "out of memory");
    int rc = cli_assemble(o, path, cg_nv_asm_family(), a);
    cg_nv_asm_free(a);
    return rc;
}

static void print_fault(void *user, const cg_fault *f)
{
    const cli_opts *o = user;
    char line[512];
    if (o->json) {
        cg_fault_format_json(f, line, sizeof(line));
        printf("{\"fault\":%s}\n", line);
    } else {
        cg_fault_format(f, line, sizeof(line));
        printf("%s%s%s\n", o->color->err, line, o->color->reset);
    }
}

int nv_run(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run -f nv: give one scene file (or - for stdin)");
    size_t size;
    uint8_t *text = cli_read_file(o->args[0], &size);
    if (!text)
        return EXIT_INPUT;
    cg_device *dev;
    if (cg_device_create(&dev) != 0) {
        free(text);
        return cli_error(EXIT_INPUT, "out of memory");
    }
    cg_device_set_coherency(dev, CG_COHERENCY_WARN);
    cg_fault_set_callback(dev, print_fault, (void *)o);
    if (o->trace)
        cg_trace_add(dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout);
    cg_nv_scene_dump dumps[8];
    for (int i = 0; i < o->ndumps; i++) {
        char *end;
        const char *p = o->dumps[i];
        dumps[i].va = strtoull(p, &end, 0);
        if (end == p || *end != ':')
            goto bad_dump;
        p = end + 1;
        dumps[i].size = strtoull(p, &end, 0);
        if (end == p || *end != ':' || !end[1])
            goto bad_dump;
        dumps[i].path = end + 1;
        continue;
    bad_dump:
        cg_device_destroy(dev);
        free(text);
        return cli_error(EXIT_USAGE, "--dump '%s': want VA:SIZE:FILE", o->dumps[i]);
    }
    cg_nv_scene_opts so = {.log = o->json ? stderr : stdout, .out_dir = o->out_dir,
                           .dumps = dumps, .ndumps = (size_t)o->ndumps};
    /* .incbin paths are relative to the scene: pass the file name */
    int rc = strcmp(o->args[0], "-") == 0
                 ? cg_nv_scene_run(dev, "-", (const char *)text, size, &so)
                 : cg_nv_scene_run(dev, o->args[0], NULL, 0, &so);
    size_t nf = cg_fault_count(dev);
    const char *res = rc == 0 ? "ok"
                      : (rc == CG_ERR_FAULT && nf == 0) ? "a check failed (.expect32 or .wait)"
                      : rc == CG_ERR_FAULT ? "faulted"
                                           : cg_strerror(rc);
    if (o->json)
        printf("{\"scene\":\"%s\",\"result\":\"%s\",\"faults\":%zu}\n", o->args[0], res, nf);
    else
        printf("scene %s: %s, %zu fault(s)\n", o->args[0], res, nf);
    cg_device_destroy(dev);
    free(text);
    if (rc == CG_ERR_SYNTAX)
        return EXIT_INPUT;
    return rc == 0 ? EXIT_OK : EXIT_FAULT;
}
