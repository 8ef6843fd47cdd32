/* cmdgpu report: run a scene with a trace recorder and write one
 * self-contained HTML page about the run (tools/report_html.c,
 * docs/report.md). The images are the PNG files the run writes, into a
 * temporary directory of its own. */
#define _GNU_SOURCE /* syscall: getdents64 in the signal handler (Linux) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/core.h"
#include "report.h"

/* ---- the recorder: a trace sink --------------------------------------- */

typedef struct recorder {
    rp_run *r;
    size_t cap_items, cap_marks;
} recorder;

static void copy_str(char *dst, size_t cap, const char *s)
{
    snprintf(dst, cap, "%s", s ? s : "");
}

static void fill(rp_item *it, const cg_trace_event *ev, uint64_t seq)
{
    memset(it, 0, sizeof *it);
    it->kind = ev->kind;
    it->channel = ev->channel;
    it->seq = seq;
    it->stream_addr = ev->stream_addr;
    it->gpu_addr = ev->gpu_addr;
    it->value = ev->value;
    it->reg = ev->reg;
    it->entry = ev->entry;
    it->entry_va = ev->entry_va;
    it->entry_len = ev->entry_len;
    it->fault = -1;
    copy_str(it->unit, sizeof it->unit, ev->unit);
    copy_str(it->name, sizeof it->name, ev->name);
    copy_str(it->text, sizeof it->text, ev->text);
    if (ev->bytes && ev->nbytes) {
        it->nbytes = (uint8_t)(ev->nbytes < sizeof it->bytes ? ev->nbytes : sizeof it->bytes);
        memcpy(it->bytes, ev->bytes, it->nbytes);
    }
}

static bool grow(rp_item **v, size_t n, size_t *cap, size_t max)
{
    if (n < *cap)
        return true;
    size_t nc = *cap ? 2 * *cap : 256;
    if (nc > max)
        nc = max;
    if (nc <= n)
        return false;
    rp_item *nv = realloc(*v, nc * sizeof **v);
    if (!nv)
        return false;
    *v = nv;
    *cap = nc;
    return true;
}

static void sink(void *user, const cg_trace_event *ev)
{
    recorder *rc = user;
    rp_run *r = rc->r;
    uint64_t seq = r->nevents++;
    switch (ev->kind) {
    case CG_TRACE_METHOD:
    case CG_TRACE_PACKET:
        /* a blocked record or wait fetched again on every poll counts once */
        if (r->nitems) {
            const rp_item *p = &r->items[r->nitems - 1];
            if (p->kind == ev->kind && p->channel == ev->channel &&
                p->stream_addr == ev->stream_addr && p->value == ev->value &&
                p->reg == ev->reg && ev->kind == CG_TRACE_PACKET)
                return;
        }
        if (!grow(&r->items, r->nitems, &rc->cap_items, RP_MAX_ITEMS)) {
            r->items_more++;
            return;
        }
        fill(&r->items[r->nitems++], ev, seq);
        /* semaphores and waits of the stream go on the timeline too */
        if (ev->kind == CG_TRACE_PACKET && ev->name &&
            (strcmp(ev->name, "Increment_Semaphore") == 0 ||
             strcmp(ev->name, "Wait_on_Semaphore") == 0 ||
             strcmp(ev->name, "MEM_SEMAPHORE") == 0 || strcmp(ev->name, "WAIT_REG_MEM") == 0)) {
            if (!grow(&r->marks, r->nmarks, &rc->cap_marks, RP_MAX_MARKS)) {
                r->marks_more++;
                return;
            }
            rp_item *m = &r->marks[r->nmarks++];
            fill(m, ev, seq);
            m->kind = CG_TRACE_NOTE;
            snprintf(m->text, sizeof m->text, "semaphore: %s at 0x%llx", ev->name,
                     (unsigned long long)ev->stream_addr);
        }
        return;
    case CG_TRACE_FENCE:
    case CG_TRACE_INTERRUPT:
    case CG_TRACE_NOTE:
        if (!grow(&r->marks, r->nmarks, &rc->cap_marks, RP_MAX_MARKS)) {
            r->marks_more++;
            return;
        }
        fill(&r->marks[r->nmarks++], ev, seq);
        return;
    case CG_TRACE_FAULT: {
        /* the item the fault points at: the newest on its channel at its
         * stream address, among the last few */
        const cg_fault *f = ev->fault;
        if (!f || f->seq >= RP_MAX_FAULTS)
            return;
        int at = -1;
        for (size_t k = 0; k < r->nitems && k < 256; k++) {
            const rp_item *p = &r->items[r->nitems - 1 - k];
            if (p->channel == f->channel && p->stream_addr == f->stream_addr) {
                at = (int)(r->nitems - 1 - k);
                break;
            }
        }
        r->fault_item[f->seq] = at;
        if (at >= 0 && r->items[at].fault < 0)
            r->items[at].fault = (int)f->seq;
        return;
    }
    default:
        return;
    }
}

/* ---- the run ------------------------------------------------------------- */

/* What cmd_report read before the run. */
typedef struct report_input {
    const cg_text_format *fmt;    /* the family's stream format */
    cg_capfile *cap;              /* a cmdgpu capture, or NULL */
    uint8_t *data;                /* the file's bytes (a capture points into them) */
    size_t size;
    const cg_capture_desc *real;  /* a real system's capture, or NULL */
    cg_scene *scene;              /* the scene (assembled, or the capture's) */
} report_input;

/* Run the scene, or replay the real capture (its format's run writes the
 * lines `cmdgpu run` prints). PNG files land in dir; a frame the family
 * shows at the end is framebuffer.png. 0, 1 (failed) or a negative cg_err. */
static int run_input(const cli_opts *o, const report_input *in, cg_device *dev, const char *dir,
                     FILE *log, cg_capture_error *e)
{
    const cg_family_desc *fam = in->fmt->family;
    char png[4096];
    snprintf(png, sizeof png, "%s/framebuffer.png", dir);
    if (in->real) {
        cli_opts co = *o;
        co.fmt = in->fmt;
        cg_text_opts t = cli_text_opts(&co);
        t.json = false;
        t.c_reset = t.c_name = t.c_num = t.c_addr = t.c_err = t.c_comment = "";
        int r = in->real->run(&t, in->data, in->size, dev, png, log, e);
        if (r == CG_ERR_NOENT || (r > 0 && e->msg[0]))
            fprintf(log, "%s\n", e->msg);
        return r == CG_ERR_NOENT ? 1 : r;
    }
    bool frame = fam->report && fam->report->frame;
    unsigned takes = fam->scene->takes;
    cg_scene_opts so = {.log = log, .name = o->args[0],
                        .out_dir = takes & CG_SCENE_OPT_OUT_DIR ? dir : NULL,
                        .frame_png = frame ? png : NULL, .frame_optional = true,
                        /* the page is the one file report writes: the files
                         * the scene names land in dir, as their base names */
                        .confine_outputs = true};
    return cg_scene_run(in->scene, dev, &so);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The PNG files the run wrote into dir, by name; the files are removed. */
static void collect_images(rp_run *r, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n < 256 && (names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_names);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = strlen(names[i]);
        bool png = len > 4 && strcmp(names[i] + len - 4, ".png") == 0;
        struct stat st;
        if (png && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            (uint64_t)st.st_size <= RP_MAX_IMAGE_BYTES && r->nimages < RP_MAX_IMAGES) {
            FILE *f = fopen(path, "rb");
            uint8_t *buf = f ? malloc((size_t)st.st_size + 1) : NULL;
            size_t got = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
            if (f)
                fclose(f);
            if (buf && got == (size_t)st.st_size) {
                rp_image *im = &r->images[r->nimages++];
                copy_str(im->name, sizeof im->name, names[i]);
                im->png = buf;
                im->size = got;
            } else {
                free(buf);
            }
        } else if (png) {
            r->images_more++;
        }
        remove(path);
        free(names[i]);
    }
}

static void print_summary(FILE *f, const rp_run *r, const char *out, long bytes, size_t nfaults)
{
    fprintf(f, "{\"report\":");
    cli_json_str(f, out);
    fprintf(f, ",\"scene\":");
    cli_json_str(f, r->path);
    fprintf(f, ",\"family\":\"%s\",\"result\":", r->fmt->family->name);
    cli_json_str(f, r->result);
    size_t img = 0;
    for (size_t i = 0; i < r->nimages; i++)
        img += r->images[i].size;
    fprintf(f, ",\"bytes\":%ld,\"events\":%llu,\"items\":%zu,\"items_more\":%zu,\"marks\":%zu,"
           "\"faults\":%zu,\"hang\":%s,\"images\":%zu,\"image_bytes\":%zu}\n",
           bytes, (unsigned long long)r->nevents, r->nitems, r->items_more, r->nmarks, nfaults,
           r->hang ? "true" : "false", r->nimages, img);
}

/* Free *in and return rc. */
static int drop(report_input *in, int rc)
{
    cg_scene_destroy(in->scene);
    cg_capfile_free(in->cap);
    free(in->data);
    return rc;
}

/* Read args[0]: a capture (a cmdgpu capture or one a real system wrote,
 * whose family replaces -f, which must agree) or a scene of -f's family.
 * EXIT_OK, or an exit code with the message printed. */
static int load_input(const cli_opts *o, report_input *in)
{
    const char *path = o->args[0];
    in->fmt = o->family ? cg_text_format_find(o->family) : NULL;
    if (o->family && !in->fmt)
        return cli_error(EXIT_USAGE, "report: unknown family '%s' (known: %s)", o->family,
                         cli_format_names());
    if (!(in->data = cli_read_file(path, CLI_MAX_SOURCE, &in->size)))
        return EXIT_INPUT;
    const cg_capture_desc *f = cg_capture_detect(in->data, in->size);
    const cg_family_desc *ff = f ? f->family : NULL;
    if (f && !ff)
        ff = cg_family_get(cg_capfile_peek_family(in->data, in->size));
    if (f && f->family && !f->run)
        return cli_error(EXIT_USAGE, "report: '%s' is a %s capture (%s): it holds no memory to "
                         "run; disasm it, or report a capture that runs (docs/captures.md)", path,
                         f->name, f->description);
    if (f && ff && in->fmt && in->fmt->family != ff) {
        if (f->family)
            return cli_error(EXIT_USAGE, "report: '%s' is a %s capture (%s), not %s: leave -f "
                             "out or use -f %s", path, ff->name, f->name, o->family, ff->name);
        return cli_error(EXIT_USAGE, "report: '%s' is a %s capture, not %s", path, ff->name,
                         o->family);
    }
    if (ff)
        in->fmt = ff->formats[0];
    if (!in->fmt)
        return cli_error(EXIT_USAGE, "report: which family? use -f NAME (a capture names its own)");
    if (!in->fmt->scenes)
        return cli_error(EXIT_USAGE, "report: family '%s' has no runs (the stream formats of the "
                         "families have)", in->fmt->name);
    cli_opts co = *o;
    co.fmt = in->fmt;
    int rc = cli_family_opts(&co, in->fmt->family);
    if (rc != EXIT_OK)
        return rc;
    cg_capture_error e = {0};
    if (f && f->family) {
        in->real = f;
        return EXIT_OK;
    }
    if (f) {
        if ((rc = cg_capfile_parse(in->data, in->size, &in->cap, &e)) != 0) {
            in->cap = NULL; /* the message `run` prints for the same file */
            return cli_error(EXIT_INPUT, "%s: cmdgpu-capture at offset %zu (0x%zx): %s", path,
                             e.offset, e.offset, e.msg[0] ? e.msg : cg_strerror(rc));
        }
        co.replay = in->cap;
        co.replay_file = path;
    }
    return cli_scene_load(&co, path, &in->scene);
}

/* ---- an interrupted report leaves nothing behind --------------------------- */

/* What SIGINT, SIGTERM and SIGHUP remove before the process dies of the
 * signal: the temporary directory with the files in it, and the page being
 * written. Only async-signal-safe calls (getdents64, unlinkat, rmdir). */
static char rm_dir[1024];
static const char *volatile rm_page;
static struct sigaction old_act[3];
static const int caught[3] = {SIGINT, SIGTERM, SIGHUP};

static void remove_dir_files(void)
{
    int fd = open(rm_dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return;
    struct ent {
        uint64_t ino;
        int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[];
    };
    _Alignas(8) char buf[4096];
    long n;
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
        for (long at = 0; at < n;) {
            const struct ent *d = (const struct ent *)(buf + at);
            if (strcmp(d->name, ".") != 0 && strcmp(d->name, "..") != 0)
                unlinkat(fd, d->name, 0);
            at += d->reclen;
        }
    close(fd);
}

static void on_signal(int sig)
{
    remove_dir_files();
    rmdir(rm_dir);
    if (rm_page)
        unlink(rm_page);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_signals(bool on)
{
    for (int i = 0; i < 3; i++) {
        if (on) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_signal;
            sigemptyset(&sa.sa_mask);
            for (int k = 0; k < 3; k++)
                sigaddset(&sa.sa_mask, caught[k]);
            sigaction(caught[i], &sa, &old_act[i]);
        } else {
            sigaction(caught[i], &old_act[i], NULL);
        }
    }
}

/* Drop every "DIR/" from the run's log text (in place): the scene wrote its
 * images into the temporary directory, and the page names them alone, so
 * the same scene gives the same page byte for byte. Returns the new length. */
static size_t strip_dir(char *text, size_t len, const char *dir)
{
    size_t dl = strlen(dir), w = 0;
    for (size_t i = 0; i < len;) {
        if (len - i > dl && memcmp(text + i, dir, dl) == 0 && text[i + dl] == '/') {
            i += dl + 1;
            continue;
        }
        text[w++] = text[i++];
    }
    text[w] = '\0';
    return w;
}

int report_page(const cli_opts *o, FILE *summary)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "report: give one scene or capture file");
    if (!o->output || strcmp(o->output, "-") == 0)
        return cli_error(EXIT_USAGE, "report: give the page's file with -o REPORT.html");
    if (strcmp(o->args[0], "-") == 0)
        return cli_error(EXIT_USAGE, "report: the scene must be a file (its .incbin and "
                         ".include paths are relative to it)");
    report_input in = {0};
    int lrc = load_input(o, &in);
    if (lrc != EXIT_OK)
        return drop(&in, lrc);
    const cg_family_desc *fam = in.fmt->family;
    /* refuse an unwritable page before running anything */
    FILE *out = cli_open_out(o->output, "w");
    if (!out)
        return drop(&in, EXIT_INPUT);
    /* the temporary directory: under $TMPDIR (default /tmp), removed with
     * the page when a signal ends the report */
    const char *td = getenv("TMPDIR");
    char *dir = rm_dir;
    int dl = snprintf(dir, sizeof rm_dir - 64, "%s/cmdgpu-report-XXXXXX", td && *td ? td : "/tmp");
    if (dl < 0 || (size_t)dl >= sizeof rm_dir - 64 || !mkdtemp(dir)) {
        int err = dl < 0 || (size_t)dl >= sizeof rm_dir - 64 ? ENAMETOOLONG : errno;
        fclose(out);
        remove(o->output);
        return drop(&in, cli_error(EXIT_INPUT, "report: cannot make a temporary directory: %s",
                                   strerror(err)));
    }
    rm_page = strcmp(o->output, "-") != 0 ? o->output : NULL;
    catch_signals(true);
    static rp_run r; /* large (fault_item, images): not on the stack */
    memset(&r, 0, sizeof r);
    r.path = o->args[0];
    r.fmt = in.fmt;
    r.text = (cg_text_opts){.gen = o->gen};
    if (in.scene && fam->scene->text_opts)
        fam->scene->text_opts(in.scene, &r.text); /* as the scene ran */
    for (size_t i = 0; i < RP_MAX_FAULTS; i++)
        r.fault_item[i] = -1;
    int rc = EXIT_OK;
    cg_device *dev = NULL;
    if (in.cap ? cg_capfile_device(in.cap, &dev) != 0 : !(dev = cli_device_create(o))) {
        fclose(out);
        remove(o->output);
        rmdir(dir);
        catch_signals(false);
        return drop(&in, cli_error(EXIT_INPUT, "out of memory"));
    }
    cli_opts ro = *o; /* a capture's results are checked as `run` checks them */
    ro.replay = in.cap;
    if (in.cap) { /* the capture's budgets lower the defaults only; --budget sets */
        cli_capture_budgets(in.cap, o, dev);
        cli_replay_attach(&ro, dev);
    }
    recorder rec = {.r = &r};
    void *hang = NULL;
    if (fam->hang)
        fam->hang->create(dev, &hang);
    char *logbuf = NULL;
    size_t loglen = 0;
    FILE *log = open_memstream(&logbuf, &loglen);
    if (cg_trace_add(dev, sink, &rec) < 0 || !log) {
        rc = cli_error(EXIT_INPUT, "report: cannot attach the recorder");
        goto done;
    }
    cg_capture_error e = {0};
    int run = run_input(o, &in, dev, dir, log, &e);
    fclose(log);
    log = NULL;
    if (in.real && (run == CG_ERR_SYNTAX || run == CG_ERR_RANGE || run == CG_ERR_UNSUPPORTED)) {
        /* the capture could not be loaded, or replayed with these options:
         * no page */
        fclose(out);
        out = NULL;
        remove(o->output);
        rc = run == CG_ERR_UNSUPPORTED
                 ? cli_error(EXIT_USAGE, "report: %s", e.msg)
                 : cli_error(EXIT_INPUT, "report: '%s': %s at offset %zu (0x%zx): %s", o->args[0],
                             in.real->name, e.offset, e.offset, e.msg);
        goto done;
    }
    if (run < 0 && run != CG_ERR_IO) {
        /* the model could not be set up, or an option the family does not
         * take: `run`'s message and exit code, and no page */
        fclose(out);
        out = NULL;
        remove(o->output);
        rc = run == CG_ERR_UNSUPPORTED
                 ? cli_error(EXIT_USAGE, "report -f %s: an option this family does not take",
                             in.fmt->name)
                 : cli_error(EXIT_INPUT, "report: cannot set up the %s model: %s", fam->name,
                             cg_strerror(run));
        goto done;
    }
    r.result = run == 0 ? "ok" : run > 0 ? "failed" : cg_strerror(run);
    if (logbuf)
        loglen = strip_dir(logbuf, loglen, dir);
    r.log = logbuf;
    r.log_len = loglen > RP_MAX_LOG_BYTES ? RP_MAX_LOG_BYTES : loglen;
    r.dev = dev;
    char *hb = NULL;
    size_t hl = 0;
    FILE *hm = run != 0 && hang ? open_memstream(&hb, &hl) : NULL;
    if (hm) {
        int wrote = fam->hang->report(hang, false, hm);
        fclose(hm);
        if (wrote > 0)
            r.hang = hb;
        else
            free(hb);
    }
    collect_images(&r, dir);
    int wr = rp_write_html(&r, out);
    long bytes = ftell(out);
    int crc = cli_close_out(out, o->output);
    out = NULL;
    if (wr != 0 || crc != EXIT_OK) {
        rc = EXIT_INPUT;
        if (crc == EXIT_OK)
            cli_error(EXIT_INPUT, "report: cannot write '%s'", o->output);
        goto done;
    }
    if (summary && o->json)
        print_summary(summary, &r, o->output, bytes, cg_fault_count(dev));
    else if (summary)
        fprintf(summary, "report %s: %s, %s, %zu fault(s), %zu packet(s)%s, %zu image(s)\n", o->output,
               r.path, r.result, cg_fault_count(dev), r.nitems + r.items_more,
               r.items_more ? " (some not shown)" : "", r.nimages);
    rc = run == 0 ? EXIT_OK : run > 0 ? EXIT_FAULT : EXIT_INPUT;
    if (run == CG_ERR_IO)
        cli_error(EXIT_INPUT, "report: a file the scene names was not written (the page's log "
                  "says why)");
    rc = cli_replay_check(&ro, run, dev, rc); /* `run`'s check of the end record */
done:
    if (log)
        fclose(log);
    if (out) { /* the page was not written: no empty file left */
        fclose(out);
        remove(o->output);
    }
    if (fam->hang)
        fam->hang->destroy(hang);
    cg_device_destroy(dev);
    collect_images(&r, dir); /* removes what is left */
    rmdir(dir);
    catch_signals(false);
    rm_page = NULL;
    for (size_t i = 0; i < r.nimages; i++)
        free(r.images[i].png);
    free(r.items);
    free(r.marks);
    free(r.hang);
    free(logbuf);
    return drop(&in, rc);
}

int cmd_report(const cli_opts *o)
{
    return report_page(o, stdout);
}
