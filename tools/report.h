/* cmdgpu report: what a run recorded (tools/report_cli.c) and the HTML page
 * written from it (tools/report_html.c). docs/report.md describes the page. */
#ifndef CMDGPU_TOOLS_REPORT_H
#define CMDGPU_TOOLS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cmdgpu/core.h"

/* Caps (docs/report.md): what the page shows at most; the rest is counted
 * and named in an "N more" line. */
#define RP_MAX_ITEMS 20000             /* stream items: methods, packets, records */
#define RP_MAX_MARKS 4000              /* fences, interrupts, notes on the timeline */
#define RP_MAX_FAULTS 1000             /* faults listed */
#define RP_MAX_IMAGES 64               /* images embedded */
#define RP_MAX_IMAGE_BYTES (8u << 20)  /* one PNG's size */
#define RP_MAX_LOG_BYTES (1u << 20)    /* the run's log text */

typedef struct rp_item {
    cg_trace_kind kind;    /* METHOD, PACKET, or a mark (FENCE, INTERRUPT, NOTE) */
    int32_t channel;
    uint64_t seq;          /* event order in the run */
    uint64_t stream_addr, gpu_addr, value;
    uint32_t reg;
    uint32_t entry, entry_len;
    uint64_t entry_va;
    char unit[16];
    char name[48];
    char text[64];
    uint8_t bytes[32];
    uint8_t nbytes;
    int fault;             /* index of the first fault at this item, -1 if none */
} rp_item;

typedef struct rp_image {
    char name[128];
    uint8_t *png;
    size_t size;
} rp_image;

typedef struct rp_run {
    const char *path;
    const cg_text_format *fmt; /* the family's stream format, which decodes the packets */
    cg_text_opts text;     /* its options as the run took them (radeon: --gen) */
    const char *result;    /* "ok", "failed", or an error */
    rp_item *items;        /* stream items, in order */
    size_t nitems, items_more;
    rp_item *marks;        /* fences, interrupts, notes, in order */
    size_t nmarks, marks_more;
    uint64_t nevents;
    int fault_item[RP_MAX_FAULTS]; /* item index each fault points at, -1 */
    const cg_device *dev;  /* the fault log */
    char *log;             /* the run's log text (capped) */
    size_t log_len;
    char *hang;            /* the hang report text, or NULL */
    rp_image images[RP_MAX_IMAGES];
    size_t nimages, images_more;
} rp_run;

/* Write the page; returns 0 or -1 when the stream reported an error. */
int rp_write_html(const rp_run *r, FILE *out);

#endif
