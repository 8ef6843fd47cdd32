/* nv: the executor's action handlers, by number (internal). A method whose
 * write does more than store the value carries ACTION(h) in its class table
 * (src/nv/tables/classes.overlay -> the generated .def files): the table is the one
 * list of actions, and the executor dispatches on h through a handler table
 * (pfifo.c act_fn[]) instead of comparing method offsets by hand. */
#ifndef CMDGPU_NV_ACTIONS_H
#define CMDGPU_NV_ACTIONS_H
#include <stdint.h>
#include "cmdgpu/nv.h"

typedef enum nv_mact {
    NV_ACT_NONE,           /* stored only */
    NV_ACT_I2M_LAUNCH,     /* LAUNCH_DMA of the I2M block (A140, B197, B1C0) */
    NV_ACT_I2M_DATA,       /* LOAD_INLINE_DATA */
    NV_ACT_MME_LOAD,       /* LOAD_MME_* and SET_MME_SHADOW_RAM_CONTROL (B197) */
    NV_ACT_MME_CALL,       /* CALL_MME_MACRO(j), CALL_MME_DATA(j) */
    NV_ACT_CB_LOAD,        /* LOAD_CONSTANT_BUFFER(i) */
    NV_ACT_REPORT,         /* SET_REPORT_SEMAPHORE_D (B197, B1C0) */
    NV_ACT_CLEAR,          /* CLEAR_SURFACE */
    NV_ACT_CLEAR_REPORT,   /* CLEAR_REPORT_VALUE */
    NV_ACT_CB_BIND,        /* BIND_GROUP_CONSTANT_BUFFER(j) */
    NV_ACT_BEGIN,          /* BEGIN */
    NV_ACT_END,            /* END */
    NV_ACT_DRAW,           /* DRAW_VERTEX_ARRAY, DRAW_INDEX_BUFFER */
    NV_ACT_DRAW_BEGIN_END, /* the one-word draws (*_BEGIN_END_INSTANCE_*) */
    NV_ACT_COPY_LAUNCH,    /* B0B5 LAUNCH_DMA */
    NV_ACT_TWOD_BLIT,      /* 902D PIXELS_FROM_MEMORY_SRC_Y0_INT */
    NV_ACT_TWOD_MODE,      /* 902D RENDER_SOLID_PRIM_MODE */
    NV_ACT_TWOD_POINT,     /* 902D RENDER_SOLID_PRIM_POINT_X_Y */
    NV_ACT_TWOD_POINT_SET, /* 902D RENDER_SOLID_PRIM_POINT_SET_X(i), _Y(i) */
    NV_ACT_COMPUTE_LAUNCH, /* B1C0 SEND_SIGNALING_PCAS_B */
    NV_ACT_COUNT
} nv_mact;

_Static_assert(NV_ACT_COUNT <= (1u << (32 - CG_NV_M_ACTION_SHIFT)),
               "action numbers fit the method flags above CG_NV_M_ACTION_SHIFT");

/* The action number of a table entry (NV_ACT_NONE unless CG_NV_M_ACTION). */
static inline nv_mact nv_method_act(const cg_nv_method *m)
{
    return (m->flags & CG_NV_M_ACTION) ? (nv_mact)(m->flags >> CG_NV_M_ACTION_SHIFT)
                                       : NV_ACT_NONE;
}
#endif
