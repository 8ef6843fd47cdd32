/* The hostile-input catalog (docs/faults.md "Hostile-input catalog"): every
 * tests/hostile/<family>/<case>.s is a scene in its family's scene language
 * that feeds the model something malformed or impossible, next to work that
 * must still succeed on the same device (a second channel, ring or job with
 * its own .expect checks). Its header says exactly which fault records the
 * device's log must hold afterwards, in order:
 *
 *   # hostile: what the case does (one line, required)
 *   # fault: kind=K unit=U channel=C gpu_addr=A stream_addr=S words=W0,W1
 *   # fault: ...                   (one line per record; none: no fault)
 *   # message: TEXT                (optional: the first record's message
 *                                   contains TEXT)
 *   # budget: NAME=VALUE           (optional, repeatable: set a budget of
 *                                   CG_BUDGET_TABLE on the device first)
 *
 * Every field of a fault line is compared (words: exactly the words listed,
 * nwords included). The run passes when the log matches and the scene's own
 * checks all passed (its log has no line starting with "FAIL"). Under ASan
 * (make asan) the same run proves that no case touches memory outside the
 * model's buffers. A family with fewer than HOSTILE_MIN cases fails. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "scene_util.h"
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"

#define HOSTILE_MIN 30

typedef struct want {
    cg_fault f;
    bool has[6]; /* kind unit channel gpu_addr stream_addr words */
} want;

typedef struct hcase {
    char path[1024];
    char title[256];
    char message[256];
    want w[16];
    size_t nw;
    struct {
        cg_budget b;
        uint64_t v;
    } budget[8];
    size_t nbudget;
    bool bad_header;
} hcase;

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || end == s || (*end && *end != ' ' && *end != '\n' && *end != ','))
        return false;
    *v = x;
    return true;
}

static bool kind_named(const char *name, size_t n, cg_fault_kind *k)
{
    for (int i = 0; i < CG_FAULT_KIND_COUNT; i++) {
        const char *s = cg_fault_kind_name((cg_fault_kind)i);
        if (strlen(s) == n && strncmp(s, name, n) == 0) {
            *k = (cg_fault_kind)i;
            return true;
        }
    }
    return false;
}

/* "kind=K unit=U channel=C gpu_addr=A stream_addr=S words=W0,W1" */
static bool parse_fault(const char *s, want *w)
{
    memset(w, 0, sizeof(*w));
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '\n')
            break;
        const char *eq = strchr(s, '=');
        if (!eq)
            return false;
        size_t kl = (size_t)(eq - s);
        const char *v = eq + 1;
        size_t vl = strcspn(v, " \t\n");
        uint64_t x;
        if (kl == 4 && !strncmp(s, "kind", 4)) {
            if (!kind_named(v, vl, &w->f.kind))
                return false;
            w->has[0] = true;
        } else if (kl == 4 && !strncmp(s, "unit", 4)) {
            if (vl >= sizeof(w->f.unit))
                return false;
            memcpy(w->f.unit, v, vl);
            w->has[1] = true;
        } else if (kl == 7 && !strncmp(s, "channel", 7)) {
            long c = strtol(v, NULL, 0);
            w->f.channel = (int32_t)c;
            w->has[2] = true;
        } else if (kl == 8 && !strncmp(s, "gpu_addr", 8)) {
            if (!parse_u64(v, &x))
                return false;
            w->f.gpu_addr = x;
            w->has[3] = true;
        } else if (kl == 11 && !strncmp(s, "stream_addr", 11)) {
            if (!parse_u64(v, &x))
                return false;
            w->f.stream_addr = x;
            w->has[4] = true;
        } else if (kl == 5 && !strncmp(s, "words", 5)) {
            const char *p = v;
            w->f.nwords = 0;
            if (!(vl == 1 && *p == '-')) { /* "words=-": no words */
                for (;;) {
                    if (w->f.nwords == CG_FAULT_MAX_WORDS || !parse_u64(p, &x) || x > 0xFFFFFFFFu)
                        return false;
                    w->f.words[w->f.nwords++] = (uint32_t)x;
                    p += strcspn(p, ", \t\n");
                    if (*p != ',')
                        break;
                    p++;
                }
            }
            w->has[5] = true;
        } else {
            return false;
        }
        s = v + vl;
    }
    /* every field is required: the catalog states the exact record */
    for (int i = 0; i < 6; i++)
        if (!w->has[i])
            return false;
    return true;
}

static void read_header(hcase *c)
{
    FILE *f = fopen(c->path, "r");
    if (!f) {
        c->bad_header = true;
        return;
    }
    char line[1024];
    while (fgets(line, sizeof(line), f)) {
        if (line[0] != '#')
            break;
        const char *p = line + 1;
        while (*p == ' ')
            p++;
        if (!strncmp(p, "hostile:", 8)) {
            snprintf(c->title, sizeof(c->title), "%s", p + 8);
        } else if (!strncmp(p, "fault:", 6)) {
            if (c->nw == sizeof(c->w) / sizeof(c->w[0]) || !parse_fault(p + 6, &c->w[c->nw]))
                c->bad_header = true;
            else
                c->nw++;
        } else if (!strncmp(p, "budget:", 7)) {
            p += 7;
            while (*p == ' ')
                p++;
            char name[64];
            size_t n = strcspn(p, "=");
            uint64_t v = 0;
            if (n >= sizeof(name) || p[n] != '=' || c->nbudget == 8 ||
                !parse_u64(p + n + 1, &v) || v == 0) {
                c->bad_header = true;
                continue;
            }
            memcpy(name, p, n);
            name[n] = 0;
            if (cg_budget_from_name(name, &c->budget[c->nbudget].b) != 0) {
                c->bad_header = true;
                continue;
            }
            c->budget[c->nbudget++].v = v;
        } else if (!strncmp(p, "message:", 8)) {
            p += 8;
            while (*p == ' ')
                p++;
            snprintf(c->message, sizeof(c->message), "%s", p);
            c->message[strcspn(c->message, "\n")] = 0;
        }
    }
    fclose(f);
    if (!c->title[0])
        c->bad_header = true;
}

/* Run the case's scene on dev; the scene's log goes to `log`. */
static int run_scene(const char *family, const char *path, cg_device *dev, FILE *log,
                     const char *out_dir)
{
    const cg_family_desc *fam = cg_family_find(family);
    cg_scene_opts o = {.log = log, .name = path};
    if (fam && (fam->scene->takes & CG_SCENE_OPT_OUT_DIR))
        o.out_dir = out_dir;
    return fam ? test_scene_run(fam->id, path, NULL, 0, dev, &o) : -1;
}

static void report(const hcase *c, const char *what, const char *log)
{
    fprintf(stderr, "%s: %s\n", c->path, what);
    if (log)
        fprintf(stderr, "---- scene log ----\n%s-------------------\n", log);
}

static void run_case(const char *family, hcase *c)
{
    read_header(c);
    CHECK(!c->bad_header);
    if (c->bad_header) {
        report(c, "malformed header (need '# hostile:' and complete '# fault:' lines)", NULL);
        return;
    }
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    if (!dev)
        return;
    for (size_t i = 0; i < c->nbudget; i++)
        CHECK_EQ(cg_device_set_budget(dev, c->budget[i].b, c->budget[i].v), 0);
    char *log = NULL;
    size_t loglen = 0;
    FILE *lf = open_memstream(&log, &loglen);
    CHECK(lf != NULL);
    if (!lf) {
        cg_device_destroy(dev);
        return;
    }
    /* "." : each variant runs in a directory of its own (tests/CMakeLists.txt) */
    int rc = run_scene(family, c->path, dev, lf, ".");
    fclose(lf);
    /* the scene ran: set-up errors are negative (1, a fault, is expected here) */
    CHECK(rc >= 0);
    if (rc < 0)
        report(c, "the scene could not run", log);
    /* the work beside the hostile input succeeded */
    bool fail_line = !strncmp(log, "FAIL", 4) || strstr(log, "\nFAIL");
    CHECK(!fail_line);
    if (fail_line)
        report(c, "a check of the scene failed", log);
    /* the fault log is exactly the expected records */
    size_t n = cg_fault_count(dev);
    CHECK_EQ(n, c->nw);
    bool ok = n == c->nw;
    for (size_t i = 0; i < n && i < c->nw; i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        const cg_fault *w = &c->w[i].f;
        bool same = f->kind == w->kind && !strcmp(f->unit, w->unit) &&
                    f->channel == w->channel && f->gpu_addr == w->gpu_addr &&
                    f->stream_addr == w->stream_addr && f->nwords == w->nwords &&
                    !memcmp(f->words, w->words, sizeof(uint32_t) * w->nwords);
        CHECK(same);
        ok &= same;
    }
    if (c->message[0] && n) {
        bool has = strstr(cg_fault_get(dev, 0)->message, c->message) != NULL;
        CHECK(has);
        ok &= has;
    }
    if (!ok) {
        fprintf(stderr, "%s: fault log differs; got %zu record(s):\n", c->path, n);
        for (size_t i = 0; i < n; i++) {
            const cg_fault *f = cg_fault_get(dev, i);
            fprintf(stderr, "# fault: kind=%s unit=%s channel=%d gpu_addr=0x%llx "
                            "stream_addr=0x%llx words=",
                    cg_fault_kind_name(f->kind), f->unit, f->channel,
                    (unsigned long long)f->gpu_addr, (unsigned long long)f->stream_addr);
            for (uint32_t k = 0; k < f->nwords; k++)
                fprintf(stderr, "%s0x%08x", k ? "," : "", f->words[k]);
            fprintf(stderr, "%s\n#   (%s)\n", f->nwords ? "" : "-", f->message);
        }
        report(c, "scene log:", log);
    }
    free(log);
    cg_device_destroy(dev);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_family(const char *family)
{
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/tests/hostile/%s", CMDGPU_SOURCE_DIR, family);
    DIR *d = opendir(dir);
    char *names[512];
    size_t n = 0;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) && n < 512) {
            size_t l = strlen(e->d_name);
            if (l > 2 && !strcmp(e->d_name + l - 2, ".s"))
                names[n++] = strdup(e->d_name);
        }
        closedir(d);
    }
    qsort(names, n, sizeof(names[0]), by_name);
    for (size_t i = 0; i < n; i++) {
        hcase *c = calloc(1, sizeof(*c));
        if (c) {
            if (snprintf(c->path, sizeof(c->path), "%s/%s", dir, names[i]) >=
                (int)sizeof(c->path)) {
                fprintf(stderr, "%s/%s: path too long\n", dir, names[i]);
                CHECK(false);
                c->path[0] = 0;
            }
            if (c->path[0])
                run_case(family, c);
            free(c);
        }
        free(names[i]);
    }
    printf("hostile/%s: %zu case(s)\n", family, n);
    CHECK(n >= HOSTILE_MIN);
}

int main(int argc, char **argv)
{
    if (argc > 1) { /* one family, or one case: test_hostile FAMILY [FILE] */
        if (argc > 2) {
            hcase *c = calloc(1, sizeof(*c));
            if (!c)
                return 1;
            snprintf(c->path, sizeof(c->path), "%s", argv[2]);
            run_case(argv[1], c);
            free(c);
        } else {
            run_family(argv[1]);
        }
        return check_report("test_hostile");
    }
    run_family("nv");
    run_family("radeon");
    run_family("vc4");
    return check_report("test_hostile");
}
