/* cmdgpu exec: run a program with libcmdgpu-drm preloaded, so its GPU
 * driver (Mesa's nouveau_dri.so, through libdrm) talks to the model through
 * a render node in user space (docs/drm.md).
 *
 * The command only prepares the environment and replaces itself with the
 * program: LD_PRELOAD gains the library, CMDGPU_DRM_GPU names the GPU,
 * CMDGPU_DRM_LOG the log, CMDGPU_DRM_IOCTLS the ioctl list, CMDGPU_DRM_DRAWS
 * the draw records, CMDGPU_DRM_CAPTURE the session's capture (an absolute
 * path: the program may change directory). Everything else happens inside the program's
 * process. The GPUs come from the families' kernel interfaces
 * (cmdgpu/family.h cg_kernel_ops); the command names none. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

#ifndef CMDGPU_DRM_LIB_FROM_BIN
#define CMDGPU_DRM_LIB_FROM_BIN "../lib"
#endif
#define DRM_LIB_NAME "libcmdgpu-drm.so"

static void list_gpus(FILE *f)
{
    fprintf(f, "GPUs (`cmdgpu exec --gpu NAME`; the first is the default):\n");
    for (size_t i = 0; i < cg_family_count(); i++) {
        const cg_family_desc *fam = cg_family_at(i);
        const cg_kernel_ops *k = fam->kernel;
        for (size_t g = 0; k && g < k->ngpus; g++)
            fprintf(f, "  %-8s %-4s %s, driver %s %d.%d.%d, PCI %04x:%04x\n", k->gpus[g].name,
                    fam->name, k->gpus[g].description, k->driver, k->version[0], k->version[1],
                    k->version[2], k->gpus[g].pci_vendor, k->gpus[g].pci_device);
    }
}

static const cg_gpu_id *find_gpu(const char *name)
{
    for (size_t i = 0; i < cg_family_count(); i++) {
        const cg_kernel_ops *k = cg_family_at(i)->kernel;
        for (size_t g = 0; k && g < k->ngpus; g++)
            if (!name || strcmp(name, k->gpus[g].name) == 0)
                return &k->gpus[g];
    }
    return NULL;
}

static bool readable(const char *path)
{
    return access(path, R_OK) == 0;
}

/* The library: $CMDGPU_DRM_LIB, else next to the command (the build tree),
 * else in the installed prefix's library directory. */
static bool find_lib(char out[PATH_MAX])
{
    const char *given = getenv("CMDGPU_DRM_LIB");
    if (given && given[0]) {
        snprintf(out, PATH_MAX, "%s", given);
        return readable(out);
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return false;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return false;
    *slash = 0;
    int w = snprintf(out, PATH_MAX, "%s/%s", self, DRM_LIB_NAME);
    if (w > 0 && w < PATH_MAX && readable(out))
        return true;
    w = snprintf(out, PATH_MAX, "%s/%s/%s", self, CMDGPU_DRM_LIB_FROM_BIN, DRM_LIB_NAME);
    return w > 0 && w < PATH_MAX && readable(out);
}

/* LD_PRELOAD with lib first (ld.so reads the list separated by spaces or
 * colons). */
static int set_preload(const char *lib)
{
    const char *old = getenv("LD_PRELOAD");
    if (!old || !old[0])
        return setenv("LD_PRELOAD", lib, 1);
    size_t n = strlen(lib) + strlen(old) + 2;
    char *v = malloc(n);
    if (!v)
        return -1;
    snprintf(v, n, "%s:%s", lib, old);
    int rc = setenv("LD_PRELOAD", v, 1);
    free(v);
    return rc;
}

int cmd_exec(const cli_opts *o)
{
    if (o->gpu && strcmp(o->gpu, "list") == 0) {
        list_gpus(stdout);
        return EXIT_OK;
    }
    if (o->nargs < 1)
        return cli_error(EXIT_USAGE, "exec: no program (usage: cmdgpu exec [options] -- PROGRAM "
                         "[ARGS])");
    const cg_gpu_id *gpu = find_gpu(o->gpu);
    if (!gpu) {
        list_gpus(stderr);
        return cli_error(EXIT_USAGE, "exec: no GPU '%s'", o->gpu);
    }
    char lib[PATH_MAX];
    if (!find_lib(lib))
        return cli_error(EXIT_INPUT, "exec: cannot find %s (next to the command, in "
                         "<prefix>/%s, or $CMDGPU_DRM_LIB)", DRM_LIB_NAME,
                         CMDGPU_DRM_LIB_FROM_BIN + 3);
    char abs[PATH_MAX];
    if (!realpath(lib, abs))
        return cli_error(EXIT_INPUT, "exec: %s: %s", lib, strerror(errno));
    char cap[PATH_MAX];
    if (o->capture) {
        /* refuse a path that cannot be created before running anything */
        FILE *f = fopen(o->capture, "wb");
        if (!f || fclose(f) != 0 || !realpath(o->capture, cap))
            return cli_error(EXIT_INPUT, "--capture: cannot create '%s': %s", o->capture,
                             strerror(errno));
    }
    if (set_preload(abs) != 0 || setenv("CMDGPU_DRM_GPU", gpu->name, 1) != 0 ||
        (o->log && setenv("CMDGPU_DRM_LOG", o->log, 1) != 0) ||
        (o->ioctls && setenv("CMDGPU_DRM_IOCTLS", o->ioctls, 1) != 0) ||
        (o->draws && setenv("CMDGPU_DRM_DRAWS", o->draws, 1) != 0) ||
        (o->capture && setenv("CMDGPU_DRM_CAPTURE", cap, 1) != 0) ||
        (o->exit_on_fault && setenv("CMDGPU_DRM_EXIT_ON_FAULT", "1", 1) != 0) ||
        (o->threaded && setenv("CMDGPU_DRM_THREADED", "1", 1) != 0) ||
        (o->reference && setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) != 0))
        return cli_error(EXIT_INPUT, "exec: cannot set the environment: %s", strerror(errno));
    /* Reproducible runs: a shader cache would let one run's compiles skip
     * the next run's (and write to the user's home). */
    if (!getenv("MESA_SHADER_CACHE_DISABLE"))
        setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
    fflush(stdout);
    execvp(o->args[0], o->args);
    int err = errno;
    return cli_error(err == ENOENT ? 127 : 126, "exec: %s: %s", o->args[0], strerror(err));
}
