/* Tests: assemble a scene of a family and run it through the core's runner
 * (cmdgpu/scene.h), as `cmdgpu run` does. */
#ifndef CMDGPU_TESTS_SCENE_UTIL_H
#define CMDGPU_TESTS_SCENE_UTIL_H

#include <stdio.h>
#include "cmdgpu/cmdgpu.h"

/* The scene in text[0, len) (or the file at path when text is NULL),
 * assembled for family fam and run on dev with o (NULL: none). Returns
 * cg_scene_run's result, or the assembler's error (its errors written to
 * o->log, else stderr). */
static inline int test_scene_run(cg_family fam, const char *path, const char *text, size_t len,
                                 cg_device *dev, const cg_scene_opts *o)
{
    cg_scene *sc = NULL;
    int rc = cg_scene_assemble(cg_family_get(fam), NULL, path, text, len, &sc);
    if (rc == CG_ERR_SYNTAX)
        fputs(cg_scene_errors(sc), o && o->log ? o->log : stderr);
    if (rc == 0)
        rc = cg_scene_run(sc, dev, o);
    cg_scene_destroy(sc);
    return rc;
}

#endif
