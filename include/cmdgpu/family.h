/* cmdgpu: the family contract (docs/design.md, "The family contract").
 *
 * Core and the command reach a GPU family only through its descriptor, a
 * cg_family_desc, the way Linux DRM reaches a driver through its struct
 * drm_driver and Mesa's state trackers reach one through its pipe_screen:
 *
 *   - its text formats (cg_text_format): the stream language of the family
 *     ("nv", "vc4", "radeon") and its other instruction sets ("nv-sass",
 *     "vc4-qpu", ...), each with a disassembler and an assembler;
 *   - its scenes (cg_scene_ops): the model opened on a device, mappings,
 *     sections placed, actions run, outputs written (scene.h);
 *   - its real-system captures (cg_capture_desc: ring dumps, hang states):
 *     detection, listing, replay;
 *   - its hang recorder (what the front end waited on when a run failed),
 *     its stream validator (`cmdgpu check`) and its demonstration.
 *
 * One file, src/registry.c, names the families; core and tools list them
 * through cg_family_at / cg_text_format_at and never name one. Every member may
 * be NULL where the family has no such thing; the command then says so. */
#ifndef CMDGPU_FAMILY_H
#define CMDGPU_FAMILY_H

#include <stdio.h>
#include "asm.h"
#include "capture.h"
#include "check.h"
#include "common.h"
#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options of a family's text tools and scenes, as the command line gives
 * them; a family reads those it takes and ignores the others. */
typedef struct cg_text_opts {
    const char *gen;      /* --gen: the generation (radeon: r600, r700, evergreen, r500) */
    const char *subch;    /* --subch: nv subchannel classes, e.g. "0=B197,4=B0B5" */
    const char *section;  /* --section: the section a check reads (radeon) */
    const char *family;   /* the -f name the text tool was chosen by (for headers) */
    const char *name;     /* the input's name in what is printed (its path) */
    bool json;            /* --json: one JSON object instead of text */
    uint64_t base;        /* disassembly: the address of the first byte */
    /* colours (ANSI sequences or ""; NULL is ""): envytools' envy_colors */
    const char *c_reset, *c_name, *c_num, *c_addr, *c_err, *c_comment;
} cg_text_opts;

typedef struct cg_family_desc cg_family_desc;
struct cg_capfile;

/* A program of one format run on its own (`cmdgpu run -f vc4-qpu PROG`):
 * the options the command line gives such a run. */
typedef struct cg_program_opts {
    const char *qpus;     /* --qpus N */
    const char *uniforms; /* --uniforms LIST */
    const char *const *dumps; /* --dump SPEC (the family parses it) */
    size_t ndumps;
    FILE *log;            /* the run's lines */
    bool json;            /* the faults go into the JSON result, not the log */
    const char *name;     /* the program's name in messages (its path) */
    char *msg;            /* out: why an option or the program was refused */
    size_t msg_cap;
} cg_program_opts;

enum {
    CG_TEXT_TAKES_GEN = 1u << 0,     /* --gen */
    CG_TEXT_TAKES_SUBCH = 1u << 1,   /* --subch */
    CG_TEXT_TAKES_SECTION = 1u << 2, /* --section names what `check` reads */
};

/* A text format: a language a family reads and writes. */
typedef struct cg_text_format {
    const char *name;        /* the -f name */
    const char *description;
    const cg_family_desc *family; /* NULL: the core's own "raw" words */
    /* List any bytes as text the assembler turns back into the same bytes.
     * Returns the number of items marked unknown (>= 0) or a cg_err. */
    int (*disasm)(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out);
    /* A new assembler with this format's statements (its state is freed
     * with the cg_asm). NULL: the core directives only. */
    int (*assembler)(const cg_text_opts *o, cg_asm **out);
    /* Its sources are scenes of the family (run, check, report, capture). */
    bool scenes;
    /* The options it reads (CG_TEXT_TAKES_*). */
    unsigned takes;
    /* Run a program of this format on its own (NULL: none). Returns 0, 1
     * (failed), or before running anything, with o->msg saying why:
     * CG_ERR_INVAL (an option refused), CG_ERR_NOENT (no code); or another
     * cg_err (the model could not be set up). */
    int (*run_program)(const cg_program_opts *o, const cg_asm *program, cg_device *dev);
} cg_text_format;

/* A capture format a real system writes (docs/captures.md). */
typedef struct cg_capture_desc {
    const char *name;        /* --input-format name */
    const char *description;
    const cg_family_desc *family;
    /* Unambiguous signature (false for formats that have none). */
    bool (*detect)(const uint8_t *data, size_t size);
    /* Parse and list. A malformed file: CG_ERR_SYNTAX or CG_ERR_RANGE with
     * *err naming the offset. Otherwise as cg_format.disasm. */
    int (*disasm)(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out,
                  cg_capture_error *err);
    /* Parse and replay on dev, writing what ran (text, or one JSON object
     * with o->json) to out; png (NULL: none) gets the frame when there is
     * one. Returns 0, 1 (the replay faulted or stopped short), a load
     * error as disasm, or with err->msg saying why: CG_ERR_NOENT (nothing
     * to replay), CG_ERR_UNSUPPORTED (an option the replay cannot take),
     * another cg_err (the model could not be set up). NULL: the format
     * cannot run, and why_not says why. */
    int (*run)(const cg_text_opts *o, const uint8_t *data, size_t size, cg_device *dev,
               const char *png, FILE *out, cg_capture_error *err);
    const char *why_not;
} cg_capture_desc;

/* A family's scenes: the runner in core (scene.h) calls these in order.
 * `run` is the family's state for one run, made by open. */
typedef struct cg_scene_ops {
    const cg_scene_kind *kinds;  /* the action table */
    size_t nkinds;
    const cg_scene_config_key *config; /* the configuration keys it stores */
    size_t nconfig;
    /* Which cg_scene_opts it takes (CG_SCENE_OPT_*): others are refused. */
    unsigned takes;
    /* The assembler for scenes: statements record into sc (the scene's
     * state is freed with the cg_asm). */
    int (*assembler)(const cg_text_opts *o, cg_scene *sc, cg_asm **out);
    /* Make the model on dev from the scene's configuration. 0, or a cg_err
     * (nothing else is called). */
    int (*open)(const cg_scene *sc, cg_device *dev, const cg_scene_opts *o, void **run);
    /* A MAPPING action, before the sections are placed; then place one
     * section. 0, or 1 after logging why (the scene stops before its
     * actions), or a negative cg_err. */
    int (*map)(void *run, const cg_scene_action *a);
    int (*place)(void *run, const char *name, uint64_t base, const uint8_t *data, size_t size);
    /* One action: 0 go on, 1 failed (logged; the scene stops), negative
     * cg_err (stops). A check that fails logs, counts and returns 0. */
    int (*act)(void *run, const cg_scene_action *a);
    /* After the actions (rc: 0, or what stopped them): the outputs and the
     * closing lines. Returns the result as cg_scene_run does. */
    int (*finish)(void *run, int rc);
    /* List a stream a SUBMIT action hands the GPU (addr: where its first
     * byte is), for listings of captures; c gives the scene's
     * configuration (a radeon generation). As cg_text_format.disasm. */
    int (*disasm_stream)(const struct cg_capfile *c, const cg_text_opts *o, uint64_t addr,
                         const uint8_t *data, size_t size, FILE *out);
    /* The text options the scene's configuration implies (radeon: o->gen
     * from its .gen), so its streams are listed as it ran them. NULL:
     * none. */
    void (*text_opts)(const cg_scene *sc, cg_text_opts *o);
    /* Read memory as the GPU left it, for the capture's final hash: no
     * fault, no cache state changed. */
    int (*peek)(void *run, uint64_t addr, void *dst, size_t n);
    void (*close)(void *run);
} cg_scene_ops;

enum {
    CG_SCENE_OPT_FRAME = 1u << 0,    /* frame_png, frame_optional, frame_hash */
    CG_SCENE_OPT_DUMPS = 1u << 1,    /* dumps */
    CG_SCENE_OPT_DRAWS = 1u << 2,    /* draws, textures_dir, draw_fn */
    CG_SCENE_OPT_OUT_DIR = 1u << 3,  /* out_dir */
};

/* What a run failed on: a trace sink the family attaches to a device
 * before the run, and the report it prints after a failed one (where the
 * front end stood, the commands before it, what it waited on). */
typedef struct cg_hang_ops {
    int (*create)(cg_device *dev, void **rec);
    void (*destroy)(void *rec);
    /* Text, or with json one object {"hang":{...}}. 1 when written, 0 when
     * the run raised no fault of the family. */
    int (*report)(const void *rec, bool json, FILE *out);
} cg_hang_ops;

/* `cmdgpu demo`: a family's demonstrations, each writing its files under
 * dir and summary lines to log. */
typedef struct cg_demo_ctx {
    const char *dir;      /* where its files go */
    const char *examples; /* the source tree's examples/ folder */
    FILE *log;            /* the summary lines */
    int faults;           /* faults shown so far (cg_demo_faults adds) */
} cg_demo_ctx;
typedef struct cg_demo {
    const char *name;     /* "nv/fence" */
    int (*run)(cg_demo_ctx *c); /* 0, or -1 when it failed */
} cg_demo;
/* Print dev's faults as demo lines ("  scene: fault") and count them. */
CG_API void cg_demo_faults(cg_demo_ctx *c, cg_device *dev, const char *scene);

/* How `cmdgpu report` groups a family's stream items (its front end's
 * CG_TRACE_PACKET events, cmdgpu/trace.h) into submissions and nested
 * streams. */
typedef struct cg_stream_item {
    const char *unit;     /* the trace event's unit ("ct0", "cp") */
    int32_t channel;
    uint64_t addr;        /* its stream address */
    const char *name;     /* the packet or record name */
    const uint8_t *bytes; /* its first bytes */
    size_t nbytes;
} cg_stream_item;
typedef struct cg_report_ops {
    /* A submission that starts with first and holds count items, as one
     * line of text (" · " between its parts). */
    void (*group_title)(const cg_stream_item *first, size_t count, char *buf, size_t cap);
    /* 1 when the item calls a nested stream: *ret is the stream address
     * the caller continues at, or 0 when a returning item ends it; -1 for
     * such a returning item; 0 otherwise. */
    int (*nest)(const cg_stream_item *it, uint64_t *ret);
    const char *nest_name; /* "indirect buffer", "sub-list" */
    /* The page shows the frame at the end (scenes that name none of
     * their own, as vc4's GL scenes, still show one). */
    bool frame;
} cg_report_ops;

/* ---- the kernel interface (libcmdgpu-drm, cmdgpu exec; docs/drm.md) ------ */

/* A GPU the kernel interface can present (`cmdgpu exec --gpu NAME`): what
 * sysfs shows the loader and what the driver's ioctls answer. */
typedef struct cg_gpu_id {
    const char *name;        /* "gm20b" */
    const char *description;
    uint16_t pci_vendor, pci_device;
    uint16_t subsystem_vendor, subsystem_device;
    uint8_t revision;
    uint32_t chip;           /* the family's chip id (nv: chipset 0x12b) */
} cg_gpu_id;

/* How an ioctl handler reaches the calling program's memory: the pointers
 * inside an ioctl's argument are the program's, and may be garbage. Both
 * return 0, or -EFAULT where the program has no such memory (the kernel's
 * copy_from_user / copy_to_user). */
typedef struct cg_user_io {
    int (*read)(void *dst, uint64_t uaddr, size_t n);
    int (*write)(uint64_t uaddr, const void *src, size_t n);
} cg_user_io;

/* What the interface reports to the program's world: faults and hang
 * reports go to log (stderr or a file the user named). */
typedef struct cg_kernel_env {
    FILE *log;
    const cg_user_io *user;
    FILE *draws;             /* every draw record, as `cmdgpu run --draws` writes them (NULL: none) */
    unsigned long faults;    /* GPU faults the interface has reported (it counts them here) */
    /* A session being recorded (cmdgpu exec --capture; NULL: none): the
     * interface writes every call it makes into the model as a scene's
     * action, and the CPU's writes to shared buffers as data records, so
     * `cmdgpu run` replays the session (docs/drm.md). When it cannot go on
     * (out of memory, a limit of the scene), it says why in the log and
     * sets capture_lost: the node then writes no file. */
    struct cg_capfile_writer *capture;
    bool capture_lost;
    /* The GPU runs on a thread of its own: submissions return at once and
     * waits follow its progress (`cmdgpu exec --threaded`; not with a
     * capture, which records a synchronous session). */
    bool threaded;
} cg_kernel_env;

/* One of the driver's ioctls (DRM_COMMAND_BASE + nr). arg is the kernel's
 * copy: the program's bytes, zero-extended to size as Linux's drm_ioctl
 * does; what the handler leaves there goes back for a read/write ioctl.
 * Returns 0 or a negative errno, as the kernel's handler would. */
typedef struct cg_kernel_ioctl {
    unsigned nr;
    const char *name;        /* "NOUVEAU_GEM_PUSHBUF" */
    size_t size;             /* the kernel's struct */
    int (*handler)(void *client, void *arg);
} cg_kernel_ioctl;

/* The family's Linux DRM kernel interface, in user space: one client, the
 * process's file of the render node. */
typedef struct cg_kernel_ops {
    const char *driver;      /* DRM_IOCTL_VERSION's name: "nouveau" */
    int version[3];          /* major, minor, patch level */
    const char *date, *desc;
    const cg_gpu_id *gpus;   /* [0] the default */
    size_t ngpus;
    const cg_kernel_ioctl *ioctls;
    size_t nioctls;
    /* A client on dev for gpu: 0 or a negative errno. */
    int (*open)(const cg_gpu_id *gpu, cg_device *dev, cg_kernel_env *env, void **client);
    /* GEM_CLOSE (a DRM core ioctl the driver's objects answer). */
    int (*gem_close)(void *client, uint32_t handle);
    /* mmap of the node at offset for len bytes: the file and its offset
     * whose pages back it (a buffer's map_handle). 0 or -EINVAL. */
    int (*mmap)(void *client, uint64_t offset, uint64_t len, int *fd, uint64_t *fd_offset);
    void (*close)(void *client);
    /* A recorded session ends (env->capture is set): record what the
     * replay should check of what is still alive (nv: each buffer's final
     * bytes). NULL: nothing. */
    void (*record_end)(cg_kernel_env *env);
} cg_kernel_ops;

struct cg_family_desc {
    cg_family id;
    const char *name;        /* "nv" */
    const char *description;
    const cg_text_format *const *formats; /* [0] the stream language, with scenes */
    size_t nformats;
    const cg_scene_ops *scene;
    const cg_capture_desc *const *captures;
    size_t ncaptures;
    const cg_hang_ops *hang;
    const cg_report_ops *report;
    const cg_kernel_ops *kernel; /* the DRM kernel interface (NULL: none yet) */
    /* Validate a source as the kernel would before running it (`cmdgpu
     * check`): violations into r. 0, or: CG_ERR_SYNTAX (the errors went to
     * errors), CG_ERR_NOENT / CG_ERR_UNSUPPORTED / another cg_err with msg
     * saying why. */
    int (*check)(const cg_text_opts *o, const char *path, cg_check_report *r, FILE *errors,
                 char *msg, size_t cap);
    /* Refuse options this family cannot take, before anything runs:
     * CG_ERR_INVAL with msg (e.g. an unknown --gen). NULL: takes all. */
    int (*check_opts)(const cg_text_opts *o, char *msg, size_t cap);
    /* `cmdgpu demo`: its demonstrations, and the example scene (under
     * examples/) whose report page the demo writes as report_page. */
    const cg_demo *demos;
    size_t ndemos;
    const char *report_scene, *report_page;
};

/* The bytes data[from, size) that fill no whole word or instruction, as
 * one `.byte` line after indent (every disassembler's output must
 * reassemble to its input). */
CG_API void cg_text_tail(const cg_text_opts *o, const char *indent, const uint8_t *data,
                         size_t from, size_t size, FILE *out);

/* ---- the registry (src/registry.c) -------------------------------------- */

CG_API size_t cg_family_count(void);
CG_API const cg_family_desc *cg_family_at(size_t i);
CG_API const cg_family_desc *cg_family_get(cg_family id); /* NULL if none */
CG_API const cg_family_desc *cg_family_find(const char *name);
/* Every text format: "raw" first, then each family's in order. */
CG_API size_t cg_text_format_count(void);
CG_API const cg_text_format *cg_text_format_at(size_t i);
CG_API const cg_text_format *cg_text_format_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
