/* cmdgpu command: the nv family front end (disasm, asm, run). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Where `run` prints: stdout, or stderr when --draws writes JSON to stdout. */
typedef struct run_ctx {
    const cli_opts *o;
    FILE *msg;
    FILE *draws;            /* --draws: the open JSON file, NULL if none */
    unsigned ndraws;
    uint32_t *tics;         /* --dump-textures: TIC indices written (or tried) */
    size_t ntics, cap;
    bool nomem;
} run_ctx;

static void print_fault(void *user, const cg_fault *f)
{
    const run_ctx *c = user;
    char line[512];
    if (c->o->json) {
        cg_fault_format_json(f, line, sizeof(line));
        fprintf(c->msg, "{\"fault\":%s}\n", line);
    } else {
        cg_fault_format(f, line, sizeof(line));
        fprintf(c->msg, "%s%s%s\n", c->o->color->err, line, c->o->color->reset);
    }
}

/* --dump-textures: DIR/tic_<index>.png for each TIC index a draw reaches,
 * written the first time it is seen (the header and texels as they are at
 * that draw). Textures that cannot be read or decoded are reported on stderr
 * and skipped. */
static void dump_texture(run_ctx *c, const cg_nv_draw *d, const cg_nv_tex_binding *t)
{
    for (size_t i = 0; i < c->ntics; i++)
        if (c->tics[i] == t->tic_index)
            return;
    if (c->ntics == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        uint32_t *p = realloc(c->tics, cap * sizeof(*p));
        if (!p) {
            if (!c->nomem)
                fprintf(stderr, "--dump-textures: out of memory\n");
            c->nomem = true;
            return;
        }
        c->tics = p;
        c->cap = cap;
    }
    c->tics[c->ntics++] = t->tic_index;
    if (!t->tic_ok) {
        fprintf(stderr, "--dump-textures: tic %u (stage %u, handle 0x%08x): past the TIC limit "
                "or unmapped\n", t->tic_index, t->stage, t->handle);
        return;
    }
    uint8_t *rgba;
    uint32_t w, h;
    int rc = cg_nv_tex_read_rgba8(d->vas, &t->tic, &rgba, &w, &h);
    if (rc) {
        const char *name = cg_nv_tex_format_name(t->tic.format);
        fprintf(stderr, "--dump-textures: tic %u (format 0x%02x %s, %ux%u): %s\n", t->tic_index,
                t->tic.format, name ? name : "?", t->tic.width, t->tic.height, cg_strerror(rc));
        return;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/tic_%u.png", c->o->dump_textures, t->tic_index);
    cg_image img = {w, h, (size_t)w * 4, CG_FORMAT_RGBA8888, rgba};
    rc = cg_image_write_png(path, &img);
    if (rc)
        fprintf(stderr, "--dump-textures: %s: %s\n", path, cg_strerror(rc));
    free(rgba);
}

static void on_draw(void *user, const cg_nv_draw *d)
{
    run_ctx *c = user;
    if (c->draws) {
        fputs(c->ndraws ? ",\n" : "\n", c->draws);
        cg_nv_draw_print_json(c->draws, d);
    }
    c->ndraws++;
    for (size_t i = 0; c->o->dump_textures && i < d->ntextures; i++)
        dump_texture(c, d, &d->textures[i]);
}

int nv_run(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run -f nv: give one scene file (or - for stdin)");
    size_t size;
    uint8_t *text = cli_read_file(o->args[0], &size);
    if (!text)
        return EXIT_INPUT;
    if (o->dump_textures && mkdir(o->dump_textures, 0777) != 0 && errno != EEXIST) {
        free(text);
        return cli_error(EXIT_INPUT, "--dump-textures: cannot create '%s': %s", o->dump_textures,
                         strerror(errno));
    }
    cg_device *dev = cli_device_create(o);
    if (!dev) {
        free(text);
        return EXIT_INPUT;
    }
    run_ctx c = {.o = o, .msg = stdout};
    if (o->draws && strcmp(o->draws, "-") == 0)
        c.msg = stderr; /* stdout carries the JSON */
    if (o->draws) {
        c.draws = cli_open_out(o->draws, "w");
        if (!c.draws) {
            cg_device_destroy(dev);
            free(text);
            return cli_error(EXIT_INPUT, "--draws: cannot write '%s'", o->draws);
        }
        fputs("{\"draws\":[", c.draws);
    }
    cg_device_set_coherency(dev, CG_COHERENCY_WARN);
    cg_fault_set_callback(dev, print_fault, &c);
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
        if (c.draws)
            cli_close_out(c.draws);
        cg_device_destroy(dev);
        free(text);
        return cli_error(EXIT_USAGE, "--dump '%s': want VA:SIZE:FILE", o->dumps[i]);
    }
    cg_nv_scene_opts so = {.log = o->json ? stderr : c.msg, .out_dir = o->out_dir,
                           .dumps = dumps, .ndumps = (size_t)o->ndumps};
    bool want_draws = o->draws || o->dump_textures;
    /* .incbin paths are relative to the scene: pass the file name */
    bool in = strcmp(o->args[0], "-") == 0;
    int rc = cg_nv_scene_run_draws(dev, in ? "-" : o->args[0], in ? (const char *)text : NULL,
                                   in ? size : 0, &so, want_draws ? on_draw : NULL, &c);
    if (c.draws) {
        fputs(c.ndraws ? "\n]}\n" : "]}\n", c.draws);
        cli_close_out(c.draws);
    }
    free(c.tics);
    size_t nf = cg_fault_count(dev);
    const char *res = rc == 0 ? "ok"
                      : (rc == CG_ERR_FAULT && nf == 0) ? "a check failed (.expect32 or .wait)"
                      : rc == CG_ERR_FAULT ? "faulted"
                                           : cg_strerror(rc);
    if (o->json)
        fprintf(c.msg, "{\"scene\":\"%s\",\"result\":\"%s\",\"faults\":%zu}\n", o->args[0],
                res, nf);
    else
        fprintf(c.msg, "scene %s: %s, %zu fault(s)\n", o->args[0], res, nf);
    cg_device_destroy(dev);
    free(text);
    if (rc == CG_ERR_SYNTAX)
        return EXIT_INPUT;
    return rc == 0 ? EXIT_OK : EXIT_FAULT;
}
