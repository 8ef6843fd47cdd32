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
    /* Bytes after the last whole word: a .byte line (text) or "tail" (JSON,
     * spliced into the library's object), as the other front ends do, so
     * that asm(disasm(x)) == x for any bytes. */
    char *js = NULL;
    size_t jlen = 0;
    FILE *dst = o->json && size % 4 ? open_memstream(&js, &jlen) : out;
    if (!dst) {
        free(w);
        return cli_error(EXIT_INPUT, "out of memory");
    }
    int rc = cg_nv_disasm(w, n, &d, dst);
    free(w);
    if (dst != out) {
        bool ok = fclose(dst) == 0 && jlen >= 2 && js[jlen - 2] == '}';
        if (ok && rc >= 0) {
            fwrite(js, 1, jlen - 2, out);
            fputs(",\"tail\":[", out);
            for (size_t i = n * 4; i < size; i++)
                fprintf(out, "%s%u", i > n * 4 ? "," : "", data[i]);
            fputs("]}\n", out);
        }
        free(js);
        if (!ok && rc >= 0)
            return cli_error(EXIT_INPUT, "out of memory");
    } else if (rc >= 0 && !o->json) {
        cli_print_tail(out, o->color, "", data, n * 4, size);
    }
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
    bool write_failed;      /* a --dump-textures PNG could not be written */
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
    if (rc) {
        fprintf(stderr, "--dump-textures: %s: %s\n", path, cg_strerror(rc));
        c->write_failed = true;
    }
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

/* --dump VA:SIZE:FILE, numbers as cli_parse_u64 reads them. */
static int parse_dump(const char *text, cg_nv_scene_dump *d)
{
    char num[2][64];
    const char *p = text;
    for (int k = 0; k < 2; k++) {
        const char *colon = strchr(p, ':');
        if (!colon || (size_t)(colon - p) >= sizeof num[k])
            return -1;
        memcpy(num[k], p, (size_t)(colon - p));
        num[k][colon - p] = 0;
        p = colon + 1;
    }
    if (cli_parse_u64(num[0], &d->va) != 0 || cli_parse_u64(num[1], &d->size) != 0 || !*p)
        return -1;
    d->path = p;
    return d->size == 0 || d->size > ((uint64_t)256 << 20) ? -1 : 0;
}

/* A directory the run writes into: created if missing (one level). */
static int out_dir_ok(const char *opt, const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return cli_error(EXIT_INPUT, "%s: cannot create '%s': %s", opt, dir, strerror(errno));
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cli_error(EXIT_INPUT, "%s: '%s' is not a directory", opt, dir);
    return EXIT_OK;
}

/* Assemble the scene once up front so that syntax errors go to stderr with
 * exit 3, before anything runs (the scene runner logs them with the run). */
static int nv_scene_syntax(const char *path, const uint8_t *text, size_t size)
{
    cg_nv_asm *na = NULL;
    cg_asm *as = NULL;
    int rc = EXIT_OK;
    if (cg_nv_asm_new(NULL, &na) != 0 || cg_asm_create(cg_nv_asm_family(), na, &as) != 0 ||
        cg_asm_add_source(as, strcmp(path, "-") == 0 ? "<stdin>" : path, (const char *)text,
                          size) != 0)
        rc = cli_error(EXIT_INPUT, "out of memory");
    else if (cg_asm_assemble(as) != 0) {
        fputs(cg_asm_errors(as), stderr);
        rc = EXIT_INPUT;
    }
    cg_asm_destroy(as);
    cg_nv_asm_free(na);
    return rc;
}

int nv_run(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run -f nv: give one scene file (or - for stdin)");
    cg_nv_scene_dump dumps[8];
    for (int i = 0; i < o->ndumps; i++)
        if (parse_dump(o->dumps[i], &dumps[i]) != 0)
            return cli_error(EXIT_USAGE, "--dump '%s': want VA:SIZE:FILE, SIZE 1 to 256 MiB, "
                             "numbers decimal or 0x hex", o->dumps[i]);
    if ((o->out_dir && out_dir_ok("--out", o->out_dir) != EXIT_OK) ||
        (o->dump_textures && out_dir_ok("--dump-textures", o->dump_textures) != EXIT_OK))
        return EXIT_INPUT;
    /* -o: refuse a path that cannot be created before running anything */
    cli_out_probe probe;
    if (!cli_probe_out(o->output, &probe))
        return EXIT_INPUT;
    size_t size = 0;
    /* a replay (docs/capture-format.md) has its scene in o->replay */
    uint8_t *text = o->replay ? calloc(1, 1) : cli_read_file(o->args[0], CLI_MAX_SOURCE, &size);
    if (!text) {
        cli_drop_unwritten_output(o->output, &probe);
        return EXIT_INPUT;
    }
    int rc = o->replay ? EXIT_OK : nv_scene_syntax(o->args[0], text, size);
    cg_device *dev = rc == EXIT_OK ? cli_device_create(o) : NULL;
    if (!dev) {
        cli_drop_unwritten_output(o->output, &probe);
        free(text);
        return EXIT_INPUT;
    }
    bool in = strcmp(o->args[0], "-") == 0;
    cg_capfile_writer *cw = cli_capture_begin(o, CG_FAMILY_NV, dev, &rc);
    if (rc != EXIT_OK || (cw && cg_nv_scene_capture(in ? "-" : o->args[0], in ? (const char *)text : NULL,
                                                    in ? size : 0, cw) != 0)) {
        cg_capfile_writer_destroy(cw);
        cg_device_destroy(dev);
        free(text);
        cli_drop_unwritten_output(o->output, &probe);
        return rc != EXIT_OK ? rc : cli_error(EXIT_INPUT, "--capture: cannot record the scene");
    }
    run_ctx c = {.o = o, .msg = stdout};
    if (o->draws && strcmp(o->draws, "-") == 0)
        c.msg = stderr; /* stdout carries the JSON */
    if (o->output && strcmp(o->output, "-") == 0)
        c.msg = stderr; /* stdout carries the PNG */
    if (o->draws) {
        c.draws = cli_open_out(o->draws, "w");
        if (!c.draws) {
            cg_capfile_writer_destroy(cw);
            cg_device_destroy(dev);
            free(text);
            cli_drop_unwritten_output(o->output, &probe);
            return EXIT_INPUT;
        }
        fputs("{\"draws\":[", c.draws);
    }
    cg_device_set_coherency(dev, CG_COHERENCY_WARN);
    cg_fault_set_callback(dev, print_fault, &c);
    if (o->trace)
        cg_trace_add(dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout);
    cg_nv_hang_recorder *hang = NULL;
    cg_nv_hang_recorder_create(dev, &hang); /* the hang report (docs/captures.md) */
    cg_nv_scene_opts so = {.log = o->json ? stderr : c.msg, .out_dir = o->out_dir,
                           .dumps = dumps, .ndumps = (size_t)o->ndumps,
                           .rt0_png = o->output};
    bool want_draws = o->draws || o->dump_textures;
    /* .incbin paths are relative to the scene: pass the file name */
    rc = o->replay ? cg_nv_capfile_run(o->replay, dev, &so, want_draws ? on_draw : NULL, &c)
                   : cg_nv_scene_run_draws(dev, in ? "-" : o->args[0], in ? (const char *)text : NULL,
                                           in ? size : 0, &so, want_draws ? on_draw : NULL, &c);
    int wrc = EXIT_OK;
    if (c.draws) {
        fputs(c.ndraws ? "\n]}\n" : "]}\n", c.draws);
        wrc = cli_close_out(c.draws, o->draws);
    }
    free(c.tics);
    size_t nf = cg_fault_count(dev);
    const char *res = rc == 0 ? "ok"
                      : (rc == CG_ERR_FAULT && nf == 0) ? "a check failed (.expect32 or .wait)"
                      : rc == CG_ERR_FAULT ? "faulted"
                                           : cg_strerror(rc);
    if (o->json) {
        fputs("{\"scene\":", c.msg);
        cli_json_str(c.msg, o->args[0]);
        fprintf(c.msg, ",\"result\":\"%s\",\"faults\":%zu", res, nf);
        char *hb = NULL;
        size_t hl = 0;
        FILE *hm = rc != 0 && hang ? open_memstream(&hb, &hl) : NULL;
        if (hm) {
            cg_nv_hang_report(hang, true, hm);
            fclose(hm);
            cli_json_join(c.msg, hb, hl); /* ,"hang":{...} */
        }
        free(hb);
        fprintf(c.msg, "}\n");
    } else {
        fprintf(c.msg, "scene %s: %s, %zu fault(s)\n", o->args[0], res, nf);
        if (rc != 0 && hang)
            cg_nv_hang_report(hang, false, c.msg);
    }
    cg_nv_hang_recorder_destroy(hang);
    int xrc = cli_capture_end(o, cw, rc, dev, EXIT_OK);
    xrc = cli_replay_check(o, rc, dev, xrc);
    if (o->output && rc == CG_ERR_IO)
        fprintf(stderr, "run -f nv: -o %s: render target 0 was not written (the scene log says "
                "why)\n", o->output);
    cg_device_destroy(dev);
    free(text);
    if (rc != 0 || xrc != EXIT_OK)
        cli_drop_unwritten_output(o->output, &probe);
    if (wrc != EXIT_OK || c.write_failed || rc == CG_ERR_SYNTAX || rc == CG_ERR_IO || xrc == EXIT_INPUT)
        return EXIT_INPUT; /* an output the scene or a flag asked for was not written */
    return rc == 0 && xrc == EXIT_OK ? EXIT_OK : EXIT_FAULT;
}
