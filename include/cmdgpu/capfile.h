/* cmdgpu: its own capture container, "CMDGPUCAP" (docs/capture-format.md).
 *
 * `cmdgpu run -f FAMILY SCENE --capture FILE` records what the scene's CPU
 * side did at the driver boundary: the device configuration (generation,
 * budgets, options that change results), every memory range the CPU wrote
 * before the first submission (GPU address, bytes), and then, in the order
 * they happened, the mappings, submissions (nv GPFIFO entries, radeon ring
 * writes and IBs, vc4 CTnCA/CTnEA kicks and mailbox calls), register
 * writes, CPU writes, waits and checks; an end record keeps the run's
 * results summary. `cmdgpu run FILE` replays those calls against a fresh
 * device; the families are deterministic (radeon's scene runner drives the
 * CP synchronously), so the replay gives the same results, which it checks
 * against the end record.
 *
 * The reader takes hostile bytes: every length is checked against the file
 * size before use, nothing is allocated beyond what the file holds (one
 * small index entry per record), and errors name the byte offset
 * (cg_capture_error). The parsed records point into the caller's buffer,
 * which must outlive the cg_capfile. */
#ifndef CMDGPU_CAPFILE_H
#define CMDGPU_CAPFILE_H

#include <stdio.h>
#include "capture.h"
#include "device.h"
#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_CAPFILE_MAGIC "CMDGPUCAP" /* 9 bytes, then a 0 byte */
#define CG_CAPFILE_MAJOR 1
#define CG_CAPFILE_MINOR 1
#define CG_CAPFILE_HEADER 24 /* bytes the version-1 writer puts before the records */

/* Record types: X(enum suffix, code, name, what). docs/capture-format.md
 * gives each payload's layout. The action records (MAPPING .. CHECK) share
 * one layout, a scene's action (cmdgpu/scene.h), whose role is the record
 * type; the family's action code says what the call was. */
#define CG_CAPFILE_RECORD_TABLE(X)                                                       \
    X(CONFIG, 1, "config", "device configuration: key/value pairs")                      \
    X(NAME, 2, "name", "the scene's name as the original run printed it")                \
    X(MEMORY, 3, "memory", "a range the CPU wrote before the first submission")          \
    X(MAPPING, 4, "mapping", "a mapping made (nv .buffer, radeon .map/.map_ro)")         \
    X(SUBMIT, 5, "submit", "a submission: GPFIFO entry, ring write, IB, CL kick")         \
    X(REGISTER, 6, "register", "an MMIO register write by the CPU")                      \
    X(CPU, 7, "cpu", "a CPU memory access after the start (write32, copy32, flush)")     \
    X(SYNC, 8, "sync", "run, fence, wait, mailbox call, reset")                          \
    X(CHECK, 9, "check", "what the run printed or checked (expect, dump, png, status)") \
    X(DATA, 10, "data", "bytes the CPU wrote at this point (a recorded session; 1.1)")    \
    X(END, 15, "end", "the run's results summary")

typedef enum cg_capfile_record_type {
#define CG_X_ENUM(id, code, name, what) CG_CAPREC_##id = code,
    CG_CAPFILE_RECORD_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
} cg_capfile_record_type;

CG_API const char *cg_capfile_record_name(uint32_t type); /* "?" if unknown */

#define CG_X_SAME(id, code, name) \
    _Static_assert((int)CG_CAPREC_##id == (int)CG_SCENE_##id, "the record type is the action's role");
CG_SCENE_ROLE_TABLE(CG_X_SAME)
#undef CG_X_SAME

/* CONFIG keys of the device, which every capture may hold. Budgets are
 * CG_CAPCFG_BUDGET + cg_budget. A family's scenes add keys of their own
 * below 32 (its cg_scene_ops.config: radeon.gen, vc4.cpu-cached, ...). */
#define CG_CAPFILE_CONFIG_TABLE(X)                                           \
    X(COHERENCY, 32, "coherency", "cg_coherency of the device")              \
    X(BUDGET, 256, "budget", "+ cg_budget: a budget set for the run")

enum {
#define CG_X_ENUM(id, code, name, what) CG_CAPCFG_##id = code,
    CG_CAPFILE_CONFIG_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
};

typedef struct cg_capfile_mem {
    uint64_t addr;        /* GPU (nv, radeon) or bus (vc4) address */
    uint32_t space;       /* address-space id: 0 = the run's one space */
    uint32_t flags;       /* 0 */
    const char *name;     /* the section's name (name_len bytes, not NUL-terminated) */
    size_t name_len;
    const uint8_t *data;  /* size bytes, into the file */
    size_t size;
    size_t offset;        /* of the record in the file */
} cg_capfile_mem;

/* One call of the scene's CPU side (records MAPPING .. CHECK, and DATA):
 * a scene's action; its strings and a DATA record's bytes point into the
 * file, offset is the record's. */
typedef cg_scene_action cg_capfile_action;

typedef struct cg_capfile_end {
    int32_t result;       /* the scene runner's return: 0 ok, 1 (or CG_ERR_FAULT) failed, < 0 error */
    uint32_t faults;      /* faults the run raised (warnings included) */
    uint64_t fault_hash;  /* cg_capfile_fault_hash of them */
    uint64_t actions;     /* action records before the end record */
    uint64_t mem_hash;    /* final memory of the memory records' ranges (cg_capfile_memhash); 0: none */
} cg_capfile_end;

typedef struct cg_capfile {
    uint16_t major, minor;
    cg_family family;
    const uint8_t *config; /* CONFIG payload (12-byte entries), ncfg entries */
    size_t ncfg;
    const char *name;      /* NAME, name_len bytes */
    size_t name_len;
    cg_capfile_mem *mem;
    size_t nmem;
    cg_capfile_action *act;
    size_t nact;
    bool has_end;
    cg_capfile_end end;
    size_t submissions;    /* SUBMIT records */
} cg_capfile;

/* The file starts with the magic (and is long enough for a header). */
CG_API bool cg_capfile_detect(const uint8_t *data, size_t size);
/* The family a header names, CG_FAMILY_NONE if it is no capture header. */
CG_API cg_family cg_capfile_peek_family(const uint8_t *data, size_t size);
/* Parse a capture. CG_ERR_SYNTAX (corrupt, truncated), CG_ERR_RANGE (a
 * declared size the file cannot hold), CG_ERR_UNSUPPORTED (a newer major
 * version), with err naming the offset. */
CG_API int cg_capfile_parse(const uint8_t *data, size_t size, cg_capfile **out,
                            cg_capture_error *err);
CG_API void cg_capfile_free(cg_capfile *c);
/* A CONFIG value: 0, or CG_ERR_NOENT (*value untouched). */
CG_API int cg_capfile_config(const cg_capfile *c, uint32_t key, uint64_t *value);
/* The memory range holding [addr, addr + len), NULL if none. */
CG_API const cg_capfile_mem *cg_capfile_mem_at(const cg_capfile *c, uint64_t addr, uint64_t len);
/* The memory range (section) of that name, NULL if none. */
CG_API const cg_capfile_mem *cg_capfile_mem_named(const cg_capfile *c, const char *name);
/* The memory records as the sections of a new assembler object (no
 * source; cg_asm_add_section), in file order: the form the scene runners
 * take. CG_ERR_SYNTAX (two records of one name: err not set), CG_ERR_NOMEM. */
CG_API int cg_capfile_asm(const cg_capfile *c, cg_asm **out);
/* FNV-1a 64 of p[0, n), continuing from h (start with CG_CAPFILE_HASH0):
 * the hash every check of a capture uses. */
#define CG_CAPFILE_HASH0 0xcbf29ce484222325ull
CG_API uint64_t cg_capfile_hash(uint64_t h, const void *p, size_t n);
/* FNV-1a 64 of the device's fault records from `from` on, each formatted
 * with cg_fault_format and ended by '\n'. */
CG_API uint64_t cg_capfile_fault_hash(cg_device *dev, size_t from);
/* A new device with the capture's coherency and its budgets that lower a
 * default (one above the default is not applied: docs/capture-format.md). */
CG_API int cg_capfile_device(const cg_capfile *c, cg_device **out);
/* Compare a replay's summary with the end record: 0 when equal (or no end
 * record), 1 when they differ (why in msg). */
CG_API int cg_capfile_verify(const cg_capfile *c, const cg_capfile_end *got, char *msg, size_t cap);

/* The final contents of the captured ranges: attached to a device before a
 * scene runs, the runner hashes (FNV-1a 64) the bytes of every range as
 * memory holds them when the run ends (unmapped pages count as 0xff bytes),
 * through a read that raises no fault and changes no cache state. */
typedef struct cg_capfile_memhash {
    uint64_t *ranges; /* addr, size pairs */
    size_t n;
    uint64_t hash;    /* after the run, if done */
    bool done;
} cg_capfile_memhash;
/* The ranges of the capture's memory records. 0 or CG_ERR_NOMEM. */
CG_API int cg_capfile_memhash_init(cg_capfile_memhash *h, const cg_capfile *c);
CG_API void cg_capfile_memhash_fini(cg_capfile_memhash *h);
/* Attach to dev (NULL detaches); h must outlive the run. */
CG_API void cg_capfile_memhash_attach(cg_device *dev, cg_capfile_memhash *h);

/* ---- writing ----------------------------------------------------------- */

typedef struct cg_capfile_writer cg_capfile_writer;
CG_API int cg_capfile_writer_create(cg_family fam, cg_capfile_writer **out);
CG_API void cg_capfile_writer_destroy(cg_capfile_writer *w); /* NULL ok */
/* Each appends a record; a failure (out of memory) sticks and makes
 * cg_capfile_writer_bytes/save return CG_ERR_NOMEM. */
CG_API void cg_capfile_write_config(cg_capfile_writer *w, uint32_t key, uint64_t value);
CG_API void cg_capfile_write_name(cg_capfile_writer *w, const char *name);
CG_API void cg_capfile_write_memory(cg_capfile_writer *w, uint64_t addr, uint32_t space,
                                    const char *name, const uint8_t *data, size_t size);
/* An action record; a DATA action (type CG_SCENE_DATA) becomes a data
 * record (cg_capfile_write_data). */
CG_API void cg_capfile_write_action(cg_capfile_writer *w, const cg_capfile_action *a);
/* A data record: the CPU wrote data[0, size) at addr at this point of the
 * run (a session's writes to memory it shares with the GPU). It is an
 * action: the end record counts it. */
CG_API void cg_capfile_write_data(cg_capfile_writer *w, uint64_t addr, uint32_t space,
                                  const uint8_t *data, size_t size);
/* The end record; its mem_hash is the writer's own (cg_capfile_writer_attach)
 * when attached, else e->mem_hash. */
CG_API void cg_capfile_write_end(cg_capfile_writer *w, const cg_capfile_end *e);
/* Hash the final memory of the ranges this writer records (all its memory
 * records, also those written after this call) when dev's scene ends. */
CG_API void cg_capfile_writer_attach(cg_capfile_writer *w, cg_device *dev);
CG_API size_t cg_capfile_writer_actions(const cg_capfile_writer *w);
CG_API int cg_capfile_writer_bytes(const cg_capfile_writer *w, const uint8_t **data, size_t *size);
/* Write the file: 0, CG_ERR_IO, CG_ERR_NOMEM. */
CG_API int cg_capfile_writer_save(const cg_capfile_writer *w, const char *path);

/* ---- scenes: record one, replay one --------------------------------------- */

/* Record an assembled scene's configuration, memory (its sections) and
 * actions (not the end record: write it after the run). */
CG_API int cg_scene_capture(const cg_scene *sc, cg_capfile_writer *w);
/* The scene a capture holds, for cg_scene_run: its family's, with the
 * family's configuration records, the memory records as sections and the
 * actions. CG_ERR_SYNTAX when the records do not make a scene of the
 * family (a family without scenes, an action code its table lacks or under
 * another record type, a string too long, a value the assembler would not
 * let through, two memory records of one name), CG_ERR_NOMEM. The scene
 * copies what it needs: the capture may be freed first. */
CG_API int cg_scene_from_capfile(const cg_capfile *c, cg_scene **out);
/* The same, and on CG_ERR_SYNTAX *e (when not NULL) names the record that
 * makes no scene: its byte offset and why, in one line. */
CG_API int cg_scene_from_capfile_ex(const cg_capfile *c, cg_scene **out, cg_capture_error *e);
/* Replay: cg_scene_from_capfile, then cg_scene_run with o (o->name: the
 * scene's recorded name when NULL) and o->confine_outputs set: the files
 * the capture names are written only under o->out_dir, as safe base names
 * (scene.h cg_scene_out_path; docs/capture-format.md "Captures are data"). */
CG_API int cg_capfile_run(const cg_capfile *c, cg_device *dev, const cg_scene_opts *o);

/* List the capture: the header, the configuration, the memory ranges, and
 * each action, submissions decoded with the family's disassembler (the
 * stream bytes found in the memory records). Returns the number of bad
 * packets/records decoded, or a negative cg_err. */
typedef struct cg_capfile_disasm_opts {
    bool json;
    const char *c_name, *c_num, *c_addr, *c_err, *c_comment, *c_reset;
    /* called after each submission is listed (may be NULL): progress */
    void (*progress)(void *user, size_t done, size_t total);
    void *user;
} cg_capfile_disasm_opts;
CG_API int cg_capfile_disasm(const cg_capfile *c, const cg_capfile_disasm_opts *o, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
