/* cmdgpu: scenes, the one shape of a CPU-side program every family runs
 * (docs/design.md, "Scenes").
 *
 * A scene is what `cmdgpu run` plays: the memory the CPU fills before its
 * first submission (the sections an assembler made, or a capture's memory
 * records), a few configuration values (a radeon generation, a vc4 CPU-cache
 * option) and the CPU's calls in order (mappings, submissions, register
 * writes, CPU accesses, waits, checks). Each call is one cg_scene_action:
 * a family's action code with up to five numbers and two strings, the same
 * record a CMDGPUCAP capture stores (docs/capture-format.md). So a scene
 * assembled from text and a scene read from a capture are the same object,
 * run by the same runner:
 *
 *   1. the family opens its model on the device (its scene ops, family.h);
 *   2. the MAPPING actions make their mappings (so sections can land there);
 *   3. every section is placed at its base address;
 *   4. the actions run in order, each logging one line or more; the first
 *      that fails stops the scene (checks that fail log and go on); a DATA
 *      action's bytes are placed as a section is;
 *   5. the family writes its outputs (-o, --dump, draw records), its
 *      closing lines (status, fault lines) and the result;
 *   6. a capture being written or verified hashes the final memory; the
 *      model is torn down.
 *
 * The family's action table (code, name, role, limits) is the one list of
 * what a scene can do: the assembler, the capture writer, the replay's
 * checks and the listing all read it. */
#ifndef CMDGPU_SCENE_H
#define CMDGPU_SCENE_H

#include <stdio.h>
#include "asm.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an action is for: X(enum suffix, code, name). The codes are the
 * CMDGPUCAP record types that store the action (include/cmdgpu/capfile.h). */
#define CG_SCENE_ROLE_TABLE(X)                                                   \
    X(MAPPING, 4, "mapping")   /* a mapping made before the sections are placed: \
                                * a = its address, b = its bytes (zero-filled) */ \
    X(SUBMIT, 5, "submit")     /* a submission: GPFIFO entry, ring write, IB, CL kick */ \
    X(REGISTER, 6, "register") /* an MMIO register write by the CPU */           \
    X(CPU, 7, "cpu")           /* a CPU memory access (write32, copy32, flush) */ \
    X(SYNC, 8, "sync")         /* run, fence, wait, mailbox call, reset */        \
    X(CHECK, 9, "check")       /* what the run prints or checks */              \
    X(DATA, 10, "data")        /* bytes the CPU wrote at this point: the runner places them */

typedef enum cg_scene_role {
#define CG_X_ENUM(id, code, name) CG_SCENE_##id = code,
    CG_SCENE_ROLE_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
} cg_scene_role;

/* One call of the scene's CPU side. The meaning of a..e, n, s1, s2 and the
 * strings is the family's, per action code (docs/capture-format.md lists
 * them). The strings are not NUL-terminated; they point into the scene (or
 * into the capture file the scene was read from). */
typedef struct cg_scene_action {
    uint32_t type;        /* the role: CG_SCENE_MAPPING .. CG_SCENE_CHECK */
    uint32_t kind;        /* the family's action code */
    int64_t a, b, c, d, e;
    int32_t n, s1, s2;
    const char *str1, *str2;
    size_t str1_len, str2_len;
    /* A DATA action (any family, kind 0): the CPU wrote data[0, data_len)
     * at address a at this point of the scene (a recorded session's writes
     * to memory it shares with the GPU). The runner hands them to the
     * family's place, as it does the sections before the first action. */
    const uint8_t *data;
    size_t data_len;
    size_t offset;        /* a capture's record offset in its file; 0 when assembled */
    uint32_t index;       /* its position in the scene (set when it is added) */
} cg_scene_action;

/* Where a SUBMIT action's stream is, for listings of scenes and captures. */
typedef enum cg_scene_stream {
    CG_STREAM_NONE,       /* it submits nothing the listing can decode */
    CG_STREAM_A_B,        /* the bytes at [a, b) (an nv GPFIFO entry's words) */
    CG_STREAM_B_C,        /* the bytes at [b, c) (a vc4 CTnCA .. CTnEA kick) */
    CG_STREAM_SECTION,    /* the section str1 names (radeon ring writes and IBs) */
} cg_scene_stream;

/* A row of a family's action table. */
typedef struct cg_scene_kind {
    uint32_t code;        /* the action code (stable: captures store it) */
    const char *name;     /* its name in listings */
    cg_scene_role role;
    cg_scene_stream stream;
    uint32_t str1_max, str2_max; /* the longest strings the family takes */
    /* What the assembler lets through, checked again on a capture's
     * records (hostile values that would index out of range or loop long);
     * NULL: anything. */
    bool (*sane)(const cg_scene_action *a);
} cg_scene_kind;

/* A configuration value a family's scenes carry (a CONFIG record). */
typedef struct cg_scene_config_key {
    uint32_t key;         /* stable: captures store it */
    const char *name;
    const char *what;
} cg_scene_config_key;

typedef struct cg_scene cg_scene;
struct cg_family_desc;

/* ---- making scenes ------------------------------------------------------ */

/* Assemble a scene of `fam` from text[0, len) (or the file at path when
 * text is NULL; "-" is stdin). Returns 0 with *out, or: CG_ERR_SYNTAX with
 * *out holding the assembler's errors (cg_scene_errors; destroy it), a file
 * error (CG_ERR_RANGE: larger than the 256 MiB cap, CG_ERR_NOENT, CG_ERR_IO)
 * or CG_ERR_UNSUPPORTED (the family has no scenes), *out NULL. `o` gives the
 * family's text options (family.h; NULL: defaults). */
struct cg_text_opts;
CG_API int cg_scene_assemble(const struct cg_family_desc *fam, const struct cg_text_opts *o,
                             const char *path, const char *text, size_t len, cg_scene **out);
CG_API void cg_scene_destroy(cg_scene *sc); /* NULL is a no-op */
/* The assembler's error lines ("" if none). */
CG_API const char *cg_scene_errors(const cg_scene *sc);

CG_API const struct cg_family_desc *cg_scene_family(const cg_scene *sc);
/* The sections (memory placed before the first action). */
CG_API const cg_asm *cg_scene_sections(const cg_scene *sc);
CG_API size_t cg_scene_action_count(const cg_scene *sc);
CG_API const cg_scene_action *cg_scene_action_at(const cg_scene *sc, size_t i);
/* A configuration value: 0, or CG_ERR_NOENT (*value untouched). */
CG_API int cg_scene_config(const cg_scene *sc, uint32_t key, uint64_t *value);
CG_API size_t cg_scene_config_count(const cg_scene *sc);
CG_API void cg_scene_config_at(const cg_scene *sc, size_t i, uint32_t *key, uint64_t *value);
/* The action's row of its family's table, NULL if the code is unknown. */
CG_API const cg_scene_kind *cg_scene_kind_of(const struct cg_family_desc *fam, uint32_t code);
/* A string of an action copied into buf (NUL-terminated): false if it does
 * not fit in cap - 1 bytes. */
CG_API bool cg_scene_str(const char *s, size_t n, char *buf, size_t cap);

/* For assembler plug-ins (the family's text room): record an action (its
 * strings and a DATA action's bytes are copied) or a configuration value
 * in the scene being built. CG_ERR_NOMEM, CG_ERR_INVAL (an action code the
 * family's table lacks; a DATA action of another kind than 0). */
CG_API int cg_scene_add_action(cg_scene *sc, const cg_scene_action *a);
CG_API int cg_scene_set_config(cg_scene *sc, uint32_t key, uint64_t value);
/* Forget every action and value (an assembler's pass starts again). */
CG_API void cg_scene_clear(cg_scene *sc);

/* ---- running scenes ----------------------------------------------------- */

typedef struct cg_scene_dump {
    uint64_t addr, size;  /* GPU (or bus) address and bytes */
    const char *path;     /* "-": stdout */
} cg_scene_dump;

/* What a run is asked for beyond the scene itself. A family that cannot do
 * one of them returns CG_ERR_UNSUPPORTED before running anything (family.h
 * says which family takes which). */
typedef struct cg_scene_opts {
    FILE *log;            /* the run's lines; NULL: none */
    const char *name;     /* the scene's name in messages (its path); NULL: "scene" */
    const char *out_dir;  /* where the files the scene names go; NULL: the current directory */
    const char *frame_png; /* -o: the frame as PNG ("-": stdout): nv render target 0 of
                            * channel 0, vc4 the framebuffer */
    bool frame_optional;  /* no frame to write is not an error */
    const cg_scene_dump *dumps; /* --dump: written after the run (nv) */
    size_t ndumps;
    FILE *draws;          /* --draws: every draw record as {"draws":[...]} (nv) */
    const char *textures_dir; /* --dump-textures: each texture a draw reaches as PNG (nv) */
    /* Called for every draw with the family's draw record (nv: const
     * cg_nv_draw *, nv3d.h); NULL: none. */
    void (*draw_fn)(void *user, const void *draw);
    void *draw_user;
    uint64_t *frame_hash; /* out: the frame's pixel hash, when there is a frame (vc4) */
    /* The file names in the scene's actions (nv .dump/.png, vc4 .png) are
     * data, not paths to trust (a capture's records: docs/capture-format.md):
     * each is written only under out_dir, as its base name when that is a
     * safe file name (cg_scene_out_path); without out_dir, none is written
     * and the log says so in one line. "-" (stdout) stays stdout. */
    bool confine_outputs;
} cg_scene_opts;

/* Where a file an action names goes under o->confine_outputs: 0 with
 * buf = out_dir "/" the name's base name (the part after its last '/': not
 * empty, not "." or "..", printable ASCII, no backslash), or "-" for "-";
 * 1 when it is not written, *why saying why in a few words and buf the
 * name with bytes outside printable ASCII as '?' (for the log). Without
 * confine_outputs: 0 with buf = the name, under out_dir unless absolute. */
CG_API int cg_scene_out_path(const cg_scene_opts *o, const char *name, char *buf, size_t cap,
                             const char **why);

/* Run a scene on `dev` (see the top of this file). Returns 0 (ok), 1 (a
 * check failed or the GPU faulted: the log says which), CG_ERR_IO (an
 * output could not be written: the log says which) or another negative
 * cg_err (the model could not be set up). */
CG_API int cg_scene_run(const cg_scene *sc, cg_device *dev, const cg_scene_opts *o);

#ifdef __cplusplus
}
#endif
#endif
