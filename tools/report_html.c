/* cmdgpu report: the HTML page (docs/report.md). One file, inline CSS and
 * script, images as data: URIs, no network reference; every text that
 * comes from the input or the run is HTML-escaped. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

/* ---- text ------------------------------------------------------------- */

static void esc_n(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0xB7) { /* U+00B7 */
            fputs("&middot;", out);
            i++;
            continue;
        }
        switch (c) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            fputc(c < 0x20 && c != '\n' && c != '\t' ? '?' : c, out);
        }
    }
}

static void esc(FILE *out, const char *s)
{
    esc_n(out, s ? s : "", SIZE_MAX);
}

static void base64(FILE *out, const uint8_t *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        fputc(tab[v >> 18 & 63], out);
        fputc(tab[v >> 12 & 63], out);
        fputc(i + 1 < n ? tab[v >> 6 & 63] : '=', out);
        fputc(i + 2 < n ? tab[v & 63] : '=', out);
    }
}

/* ---- the stream --------------------------------------------------------- */

static bool same_group(const rp_item *a, const rp_item *b)
{
    return a->channel == b->channel && a->entry == b->entry && a->entry_va == b->entry_va &&
           strcmp(a->unit, b->unit) == 0;
}

static void lane_name(const rp_item *it, char *buf, size_t cap)
{
    if (it->channel >= 0)
        snprintf(buf, cap, "%s ch%d", it->unit[0] ? it->unit : "?", (int)it->channel);
    else
        snprintf(buf, cap, "%s", it->unit[0] ? it->unit : "?");
}

/* A packet or record as the family's disassembler prints it (its
 * statements, without the comments and directives). */
static void decode(const rp_run *r, const rp_item *it, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return;
    cg_text_opts o = r->text;
    o.base = it->stream_addr;
    o.json = false;
    o.c_name = o.c_num = o.c_addr = o.c_err = o.c_comment = o.c_reset = "";
    r->fmt->disasm(&o, it->bytes, it->nbytes, m);
    fclose(m);
    bool first = true;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        line += strspn(line, " \t");
        /* comments, and directives such as radeon's `.gen` line */
        if (strncmp(line, "//", 2) == 0 || line[0] == '#' || line[0] == '.' || !*line)
            continue;
        char *cmt = strstr(line, "  #"); /* a trailing comment (radeon's words) */
        if (cmt)
            *cmt = 0;
        if (!first)
            fputs("; ", out);
        esc(out, line);
        first = false;
    }
    free(text);
}

static void item_line(const rp_run *r, const rp_item *it, size_t idx, int hang_item, FILE *out)
{
    bool warn_only = false;
    if (it->fault >= 0) {
        const cg_fault *f = cg_fault_get(r->dev, (size_t)it->fault);
        warn_only = f && (f->flags & CG_FAULT_F_WARNING);
    }
    fprintf(out, "<div class=\"pk%s%s\" id=\"p%zu\">", it->fault >= 0 ? warn_only ? " warn" : " fault" : "",
            (int)idx == hang_item ? " hang" : "", idx);
    if ((int)idx == hang_item)
        fputs("<a id=\"hang\"></a><span class=\"tag\">hang point</span> ", out);
    fprintf(out, "<span class=\"a\">0x%" PRIx64 "</span> ", it->stream_addr);
    if (it->kind == CG_TRACE_METHOD) {
        fputs("<span class=\"w\">", out);
        esc(out, it->text);
        fprintf(out, "</span> <b>");
        esc(out, it->name);
        fprintf(out, "</b> <span class=\"m\">[0x%04x]</span> = <span class=\"n\">0x%08" PRIx64
                     "</span>",
                it->reg, it->value);
    } else if (it->nbytes) {
        fputs("<b>", out);
        decode(r, it, out);
        fputs("</b> <span class=\"m\">", out);
        for (unsigned i = 0; i < it->nbytes; i++)
            fprintf(out, "%s%02x", i ? " " : "", it->bytes[i]);
        fputs("</span>", out);
    } else {
        fputs("<b>", out);
        esc(out, it->name[0] ? it->name : "?");
        fprintf(out, "</b> <span class=\"m\">op 0x%02x header 0x%08" PRIx64 "</span>", it->reg,
                it->value);
    }
    if (it->fault >= 0) {
        const cg_fault *f = cg_fault_get(r->dev, (size_t)it->fault);
        fprintf(out, " <a class=\"fl\" href=\"#f%d\">fault #%d", it->fault, it->fault);
        if (f) {
            fputs(" ", out);
            esc(out, cg_fault_kind_name(f->kind));
        }
        fputs("</a>", out);
    }
    fputs("</div>\n", out);
}

static cg_stream_item stream_item(const rp_item *it)
{
    return (cg_stream_item){it->unit, it->channel, it->stream_addr, it->name, it->bytes,
                            it->nbytes};
}

static void group_summary(const rp_run *r, const rp_item *it, size_t count, FILE *out)
{
    if (it->kind == CG_TRACE_METHOD) {
        fprintf(out, "channel %d", (int)it->channel);
        if (it->entry)
            fprintf(out, " &middot; GPFIFO entry %u &middot; pushbuffer 0x%" PRIx64 ", %u words",
                    it->entry - 1, it->entry_va, it->entry_len);
        else
            fputs(" &middot; kernel-pushed words", out);
        fprintf(out, " &middot; %zu method%s", count, count == 1 ? "" : "s");
    } else {
        char title[256];
        const cg_report_ops *rep = r->fmt->family->report;
        cg_stream_item x = stream_item(it);
        if (rep && rep->group_title)
            rep->group_title(&x, count, title, sizeof title);
        else
            snprintf(title, sizeof title, "%s \u00b7 from 0x%" PRIx64 " \u00b7 %zu item%s", it->unit,
                     it->stream_addr, count, count == 1 ? "" : "s");
        esc(out, title);
    }
}

#define MAX_NEST 8

static void write_stream(const rp_run *r, int hang_item, FILE *out)
{
    fprintf(out, "<section id=\"stream\"><h2>Stream <small>(%zu shown", r->nitems);
    if (r->items_more)
        fprintf(out, ", %zu more not shown", r->items_more);
    fputs(")</small></h2>\n<p><button type=\"button\" onclick=\"setAll(true)\">expand all</button> "
          "<button type=\"button\" onclick=\"setAll(false)\">collapse all</button></p>\n", out);
    size_t ngroups = 0;
    for (size_t i = 0; i < r->nitems;) {
        size_t end = i + 1;
        bool faulted = r->items[i].fault >= 0;
        while (end < r->nitems && same_group(&r->items[end], &r->items[i])) {
            faulted |= r->items[end].fault >= 0;
            end++;
        }
        bool open = ngroups < 8 || faulted || (hang_item >= (int)i && hang_item < (int)end);
        fprintf(out, "<details class=\"sub%s\" id=\"s%zu\"%s><summary>submission %zu: ",
                faulted ? " hasfault" : "", ngroups, open ? " open" : "", ngroups);
        group_summary(r, &r->items[i], end - i, out);
        fputs("</summary>\n", out);
        uint64_t ret[MAX_NEST];
        int depth = 0;
        for (size_t k = i; k < end; k++) {
            const rp_item *it = &r->items[k];
            /* back in the caller at the address the nesting item named */
            while (depth > 0 && ret[depth - 1] && it->stream_addr == ret[depth - 1]) {
                fputs("</details>\n", out);
                depth--;
            }
            item_line(r, it, k, hang_item, out);
            const cg_report_ops *rep = r->fmt->family->report;
            cg_stream_item x = stream_item(it);
            uint64_t back_at = 0;
            int n = it->kind == CG_TRACE_PACKET && rep && rep->nest ? rep->nest(&x, &back_at) : 0;
            if (n > 0 && depth < MAX_NEST) {
                ret[depth++] = back_at;
                fprintf(out, "<details class=\"nest\" open><summary>%s called from 0x%" PRIx64
                             "</summary>\n",
                        rep->nest_name, it->stream_addr);
            } else if (n < 0 && depth > 0 && ret[depth - 1] == 0) {
                fputs("</details>\n", out);
                depth--;
            }
        }
        while (depth-- > 0)
            fputs("</details>\n", out);
        fputs("</details>\n", out);
        ngroups++;
        i = end;
    }
    if (r->items_more)
        fprintf(out, "<p class=\"more\">%zu more packets not shown (the page shows at most %d; "
                     "docs/report.md)</p>\n",
                r->items_more, RP_MAX_ITEMS);
    if (!r->nitems)
        fputs("<p>No packets were executed.</p>\n", out);
    fputs("</section>\n", out);
}

/* ---- the timeline ------------------------------------------------------- */

#define MAX_LANES 16
#define MAX_SPANS 2000

static int lane_of(char lanes[][40], int *n, const rp_item *it)
{
    char name[40];
    lane_name(it, name, sizeof name);
    for (int i = 0; i < *n; i++)
        if (strcmp(lanes[i], name) == 0)
            return i;
    if (*n == MAX_LANES)
        return -1;
    snprintf(lanes[*n], 40, "%s", name);
    return (*n)++;
}

static void write_timeline(const rp_run *r, FILE *out)
{
    char lanes[MAX_LANES][40];
    int nl = 0;
    for (size_t i = 0; i < r->nitems; i++)
        if (i == 0 || !same_group(&r->items[i], &r->items[i - 1]))
            lane_of(lanes, &nl, &r->items[i]);
    for (size_t i = 0; i < r->nmarks; i++)
        lane_of(lanes, &nl, &r->marks[i]);
    fputs("<section id=\"timeline\"><h2>Timeline</h2>\n", out);
    if (nl == 0) {
        fputs("<p>Nothing to show.</p></section>\n", out);
        return;
    }
    const int W = 1160, L = 130, LH = 30, top = 24;
    int H = top + nl * LH + 10;
    double span = r->nevents > 1 ? (double)(r->nevents - 1) : 1.0;
#define X(seq) (L + (double)(seq) * (W - L - 10) / span)
    fprintf(out, "<svg id=\"timeline-svg\" width=\"%d\" "
                 "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
                 "aria-label=\"timeline of submissions, fences and faults\">\n",
            W, H, W, H);
    fprintf(out, "<text x=\"%d\" y=\"14\" class=\"ax\">event order &#8594; (%" PRIu64
                 " trace events)</text>\n",
            L, r->nevents);
    for (int l = 0; l < nl; l++) {
        int y = top + l * LH;
        fprintf(out, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"%s\"/>", y, W, LH,
                l % 2 ? "lane1" : "lane0");
        fprintf(out, "<text x=\"6\" y=\"%d\" class=\"ln\">", y + 19);
        esc(out, lanes[l]);
        fputs("</text>\n", out);
    }
    size_t nspans = 0;
    for (size_t i = 0; i < r->nitems && nspans < MAX_SPANS;) {
        size_t end = i + 1;
        while (end < r->nitems && same_group(&r->items[end], &r->items[i]))
            end++;
        int l = lane_of(lanes, &nl, &r->items[i]);
        if (l >= 0) {
            double x0 = X(r->items[i].seq), x1 = X(r->items[end - 1].seq);
            fprintf(out, "<a href=\"#s%zu\"><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                         "class=\"span\"><title>submission %zu: %zu item(s)</title></rect></a>\n",
                    nspans, x0, top + l * LH + 6, x1 - x0 < 3 ? 3 : x1 - x0, LH - 12, nspans,
                    end - i);
        }
        nspans++;
        i = end;
    }
    for (size_t i = 0; i < r->nmarks; i++) {
        const rp_item *m = &r->marks[i];
        int l = lane_of(lanes, &nl, m);
        if (l < 0)
            continue;
        double x = X(m->seq);
        int y = top + l * LH + LH / 2;
        bool sem = m->kind == CG_TRACE_NOTE && strncmp(m->text, "semaphore: ", 11) == 0;
        const char *cls = m->kind == CG_TRACE_FENCE       ? "fence"
                          : m->kind == CG_TRACE_INTERRUPT ? "irq"
                          : sem                           ? "sem"
                                                          : "note";
        if (m->kind == CG_TRACE_FENCE)
            fprintf(out, "<polygon points=\"%.1f,%d %.1f,%d %.1f,%d %.1f,%d\" class=\"%s\">", x,
                    y - 7, x + 6, y, x, y + 7, x - 6, y, cls);
        else
            fprintf(out, "<circle cx=\"%.1f\" cy=\"%d\" r=\"%d\" class=\"%s\">", x, y,
                    m->kind == CG_TRACE_INTERRUPT || sem ? 5 : 3, cls);
        fprintf(out, "<title>%s", m->kind == CG_TRACE_FENCE       ? "fence "
                                  : m->kind == CG_TRACE_INTERRUPT ? "interrupt "
                                  : sem                           ? ""
                                                                  : "note ");
        esc(out, m->text[0] ? m->text : m->name);
        fprintf(out, " addr 0x%" PRIx64 " value 0x%" PRIx64 "</title></%s>\n", m->gpu_addr,
                m->value, m->kind == CG_TRACE_FENCE ? "polygon" : "circle");
    }
    size_t nf = cg_fault_count(r->dev);
    for (size_t i = 0; i < nf && i < RP_MAX_FAULTS; i++) {
        int at = r->fault_item[i];
        if (at < 0)
            continue;
        const rp_item *it = &r->items[at];
        int l = lane_of(lanes, &nl, it);
        if (l < 0)
            continue;
        const cg_fault *f = cg_fault_get(r->dev, i);
        double x = X(it->seq);
        int y = top + l * LH + LH / 2;
        fprintf(out, "<a href=\"#p%d\"><path d=\"M%.1f %d L%.1f %d M%.1f %d L%.1f %d\" "
                     "class=\"%s\"><title>fault #%zu ",
                at, x - 6, y - 6, x + 6, y + 6, x - 6, y + 6, x + 6, y - 6,
                f && (f->flags & CG_FAULT_F_WARNING) ? "fwarn" : "fx", i);
        esc(out, f ? cg_fault_kind_name(f->kind) : "?");
        fputs("</title></path></a>\n", out);
    }
#undef X
    fputs("</svg>\n<p class=\"legend\"><span class=\"k span\"></span> submission (click: its "
          "packets) &nbsp; <span class=\"k fence\"></span> fence / semaphore &nbsp; "
          "<span class=\"k irq\"></span> interrupt &nbsp; <span class=\"k sem\"></span> "
          "semaphore / wait packet &nbsp; <span class=\"k fx\"></span> fault</p>\n"
          "</section>\n",
          out);
}

/* ---- the page ----------------------------------------------------------- */

static const char css[] =
    "body{font:14px/1.45 system-ui,sans-serif;margin:0 24px 40px;color:#1d2330;background:#fff}"
    "h1{font-size:22px;margin:18px 0 6px}h2{font-size:18px;margin:26px 0 8px;border-bottom:1px solid #d8dde6}"
    "h2 small{font-weight:normal;color:#667}"
    "table.sum{border-collapse:collapse}table.sum td{padding:2px 14px 2px 0}table.sum td:first-child{color:#667}"
    ".ok{color:#1a7f37;font-weight:bold}.failed{color:#c62828;font-weight:bold}"
    "nav a{margin-right:14px}"
    "pre,.pk,code{font:12.5px/1.4 ui-monospace,Menlo,Consolas,monospace}"
    "pre{background:#f5f7fa;padding:8px 10px;overflow-x:auto;white-space:pre-wrap;border-radius:4px}"
    "details.sub{border:1px solid #d8dde6;border-radius:4px;margin:6px 0;padding:2px 8px}"
    "details.sub.hasfault{border-color:#e57373}"
    "details.nest{margin:2px 0 2px 22px;border-left:3px solid #90a4c8;padding-left:8px}"
    "summary{cursor:pointer;color:#34495e;padding:2px 0}"
    ".pk{padding:1px 4px;white-space:pre-wrap;word-break:break-all}.pk:nth-child(odd){background:#fafbfc}"
    ".pk .a{color:#8a6d00}.pk .w{color:#667}.pk .m{color:#7a8595}.pk .n{color:#00639a}"
    ".pk.fault{background:#ffe3e3!important;border-left:4px solid #c62828}"
    ".pk.warn{background:#fff6d6!important;border-left:4px solid #d4a000}"
    ".pk.hang{outline:2px solid #c62828}.tag{background:#c62828;color:#fff;border-radius:3px;padding:0 5px;font-size:11px}"
    ".fl{color:#c62828;font-weight:bold}"
    "ol.faults li{margin:3px 0}ol.faults li.warning{color:#8a6d00}"
    ":target{scroll-margin-top:40px}.pk:target{box-shadow:0 0 0 3px #ffb300}"
    "svg{border:1px solid #d8dde6;border-radius:4px;max-width:100%;height:auto}"
    ".lane0{fill:#fff}.lane1{fill:#f4f6f9}.ln{font:12px ui-monospace,monospace;fill:#34495e}"
    ".ax{font:11px sans-serif;fill:#667}"
    ".span{fill:#90a4c8;stroke:#5c7cb3}.fence{fill:#2e9d57}.irq{fill:#3b7dd8}.note{fill:#9aa4b1}.sem{fill:#8e44ad}"
    ".fx{stroke:#c62828;stroke-width:3}.fwarn{stroke:#d4a000;stroke-width:3}"
    ".legend .k{display:inline-block;width:12px;height:12px;vertical-align:middle;border-radius:2px}"
    ".legend .k.fx{background:#c62828}.legend .k.span{background:#90a4c8}.legend .k.fence{background:#2e9d57}"
    ".legend .k.irq{background:#3b7dd8}.legend .k.sem{background:#8e44ad}"
    "figure{display:inline-block;margin:0 18px 18px 0;vertical-align:top}"
    "figure img{border:1px solid #d8dde6;image-rendering:pixelated;min-width:128px;max-width:560px;background:"
    "repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}"
    "figcaption{font-size:12px;color:#556}.more{color:#8a6d00}";

static const char script[] =
    "function openTo(id){var e=document.getElementById(id);if(!e)return;"
    "for(var p=e.parentElement;p;p=p.parentElement)if(p.tagName==='DETAILS')p.open=true;"
    "e.scrollIntoView({block:'center'});}"
    "function setAll(o){document.querySelectorAll('details.sub,details.nest').forEach("
    "function(d){d.open=o;});}"
    "window.addEventListener('hashchange',function(){openTo(location.hash.slice(1));});"
    "document.addEventListener('click',function(ev){var a=ev.target.closest&&ev.target.closest('a');"
    "if(a&&a.getAttribute('href')&&a.getAttribute('href').charAt(0)==='#'){"
    "openTo(a.getAttribute('href').slice(1));}});"
    "if(location.hash)openTo(location.hash.slice(1));";

int rp_write_html(const rp_run *r, FILE *out)
{
    size_t nf = cg_fault_count(r->dev);
    /* the hang point: the item of the first fault that is not a warning */
    int hang_item = -1;
    size_t first_fault = nf;
    for (size_t i = 0; i < nf && i < RP_MAX_FAULTS; i++) {
        const cg_fault *f = cg_fault_get(r->dev, i);
        if (f && !(f->flags & CG_FAULT_F_WARNING)) {
            first_fault = i;
            hang_item = r->fault_item[i];
            break;
        }
    }
    bool ok = strcmp(r->result, "ok") == 0;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"generator\" content=\"cmdgpu report\">\n<title>cmdgpu report: ",
          out);
    esc(out, r->path);
    fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n", css);
    fputs("<header><h1>cmdgpu report</h1>\n<table class=\"sum\">\n<tr><td>file</td><td><code>", out);
    esc(out, r->path);
    fprintf(out, "</code></td></tr>\n<tr><td>family</td><td>%s</td></tr>\n", r->fmt->family->name);
    fprintf(out, "<tr><td>result</td><td id=\"result\" class=\"%s\">", ok ? "ok" : "failed");
    esc(out, r->result);
    fprintf(out, "</td></tr>\n<tr><td>faults</td><td id=\"fault-count\">%zu</td></tr>\n", nf);
    fprintf(out, "<tr><td>packets</td><td>%zu%s</td></tr>\n<tr><td>fences, interrupts, notes</td>"
                 "<td>%zu</td></tr>\n<tr><td>images</td><td>%zu</td></tr>\n",
            r->nitems + r->items_more, r->items_more ? " (not all shown)" : "", r->nmarks,
            r->nimages);
    fputs("</table></header>\n<nav><a href=\"#faults\">faults</a>", out);
    if (hang_item >= 0)
        fputs("<a href=\"#hang\">hang point</a>", out);
    fputs("<a href=\"#timeline\">timeline</a><a href=\"#images\">images</a>"
          "<a href=\"#stream\">stream</a><a href=\"#log\">log</a></nav>\n",
          out);

    /* faults */
    fprintf(out, "<section id=\"faults\"><h2>Faults <small>(%zu)</small></h2>\n", nf);
    if (nf) {
        fputs("<ol class=\"faults\" start=\"0\">\n", out);
        for (size_t i = 0; i < nf && i < RP_MAX_FAULTS; i++) {
            const cg_fault *f = cg_fault_get(r->dev, i);
            char line[512];
            cg_fault_format(f, line, sizeof line);
            fprintf(out, "<li id=\"f%zu\" class=\"%s\">", i,
                    f->flags & CG_FAULT_F_WARNING ? "warning" : "fault");
            if (r->fault_item[i] >= 0)
                fprintf(out, "<a href=\"#p%d\">", r->fault_item[i]);
            esc(out, line);
            if (r->fault_item[i] >= 0)
                fputs("</a>", out);
            if (i == first_fault)
                fputs(" <span class=\"tag\">ended the run</span>", out);
            fputs("</li>\n", out);
        }
        fputs("</ol>\n", out);
        if (nf > RP_MAX_FAULTS)
            fprintf(out, "<p class=\"more\">%zu more faults not shown</p>\n", nf - RP_MAX_FAULTS);
    } else {
        fputs("<p>None.</p>\n", out);
    }
    if (r->hang) {
        fputs("<h3 id=\"hang-report\">Hang report</h3>\n<pre>", out);
        esc(out, r->hang);
        fputs("</pre>\n", out);
    }
    fputs("</section>\n", out);

    write_timeline(r, out);
    fprintf(out, "<section id=\"images\"><h2>Images <small>(%zu)</small></h2>\n", r->nimages);
    for (size_t i = 0; i < r->nimages; i++) {
        fputs("<figure><img class=\"rt\" alt=\"", out);
        esc(out, r->images[i].name);
        fputs("\" src=\"data:image/png;base64,", out);
        base64(out, r->images[i].png, r->images[i].size);
        fputs("\"><figcaption>", out);
        esc(out, r->images[i].name);
        fprintf(out, " &middot; %zu bytes</figcaption></figure>\n", r->images[i].size);
    }
    if (!r->nimages)
        fputs("<p>The run wrote no image.</p>\n", out);
    if (r->images_more)
        fprintf(out, "<p class=\"more\">%zu more images not embedded (at most %d, each at most "
                     "%u MiB)</p>\n",
                r->images_more, RP_MAX_IMAGES, RP_MAX_IMAGE_BYTES >> 20);
    fputs("</section>\n", out);

    write_stream(r, hang_item, out);

    fputs("<section id=\"log\"><h2>Log</h2><details><summary>the run's log</summary><pre>", out);
    esc_n(out, r->log ? r->log : "", r->log_len);
    fprintf(out, "</pre></details></section>\n<script>%s</script>\n</body></html>\n", script);
    return ferror(out) ? -1 : 0;
}
