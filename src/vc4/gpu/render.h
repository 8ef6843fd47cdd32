/* Internal to the renderer's files (render.c: the render thread's
 * records and compressed lists; raster.c: rasterisation and fragment
 * batches; tilebuf.c: the tile buffer, its loads and stores). Not
 * installed. */
#ifndef CMDGPU_VC4_RENDER_H
#define CMDGPU_VC4_RENDER_H

#include "gl.h"
#include "vc4/qpu.h"

/* Kept for one compressed primitive list (compressed_list), where nothing
 * writes memory (see there) and the latched state cannot change: the NV
 * shader record last read (nv_ok: from nv_addr) and what the fragment
 * shader at `code` sees of its payload (pu_ok; qpu.h
 * vc4_qpu_cache_payload_use). */
typedef struct vc4_list_cache {
    bool nv_ok, pu_ok, use_w, use_z;
    uint32_t nv_addr, code;
    vc4_nv_record nv;
} vc4_list_cache;

/* tilebuf.c: fault unless a tile is set (Tile_Rendering_Mode_Configuration,
 * Tile_Coordinates) for `what`; run the load Tile_Coordinates found
 * pending; run a store record (role STORE), `name` its name in faults. */
int vc4_need_tile(cg_vc4 *v, vc4_thread *t, uint32_t addr, const char *what);
int vc4_tile_load(cg_vc4 *v, vc4_thread *t);
int vc4_tile_store(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                   const char *name);
/* raster.c: draw the clipped primitive of the block at a */
int vc4_render_clipped(cg_vc4 *v, vc4_thread *t, uint32_t a);

#endif
