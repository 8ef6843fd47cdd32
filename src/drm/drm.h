/* libcmdgpu-drm internals (docs/drm.md): the libc side (preload.c) and the
 * node behind it (node.c). */
#ifndef CMDGPU_DRM_H
#define CMDGPU_DRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cmdgpu/core.h"

/* The exit status of a program ended at a GPU fault (CMDGPU_DRM_EXIT_ON_FAULT,
 * `cmdgpu exec --exit-on-fault`). */
#define DRM_EXIT_FAULT 86

/* The family and GPU a name chooses ("gm20b", ...; NULL: the first family
 * with a kernel interface, its first GPU). 0, or -ENODEV. */
int drm_node_choose(const char *name, const cg_family_desc **fam, const cg_gpu_id **gpu);

/* One open file of the node (what the kernel calls a struct drm_file: a
 * client of the driver, with its own objects); dups share it. */
typedef struct drm_file drm_file;
int drm_file_open(drm_file **out); /* 0 or a negative errno; one reference */
void drm_file_ref(drm_file *f);
void drm_file_unref(drm_file *f);  /* NULL is a no-op */
/* An ioctl on the node: >= 0, or a negative errno. */
int drm_file_ioctl(drm_file *f, unsigned long req, void *arg);
/* What backs an mmap of the node at off: 0 or a negative errno. */
int drm_file_mmap(drm_file *f, uint64_t off, uint64_t len, int *fd, uint64_t *fd_off);

#endif
