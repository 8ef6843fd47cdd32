/* Stamps out one class's method table from its .def file (research/style.md
 * A6; the passes follow src/core/def.h). Define before including:
 *   CG_NV_DEF_FILE  "x.def"     CG_NV_TAG  identifier prefix for the objects
 * It defines `static const cg_nv_method <TAG>_methods[]`. May be included once
 * per class; undefines its inputs. */
#ifndef CG_NV_CAT
#define CG_NV_CAT_(a, b) a##_##b
#define CG_NV_CAT(a, b) CG_NV_CAT_(a, b)
#define CG_NV_FT_U CG_NV_F_UINT
#define CG_NV_FT_S CG_NV_F_SINT
#define CG_NV_FT_B CG_NV_F_BOOL
#define CG_NV_FT_X CG_NV_F_HEX
#define CG_NV_FT_FL CG_NV_F_FLOAT
#define CG_NV_FT_EN CG_NV_F_ENUM
#define CG_NV_EN_U(...) NULL
#define CG_NV_EN_S(...) NULL
#define CG_NV_EN_B(...) NULL
#define CG_NV_EN_X(...) NULL
#define CG_NV_EN_FL(...) NULL
#define CG_NV_EN_EN(...) ((const cg_nv_enum[]){__VA_ARGS__{NULL, 0}})
#endif

/* Pass 1: a struct with one field array per method. */
#define M(n, o, c, s, f) ]; cg_nv_field n[1
#define F(n, hi, lo, t, en) +1
#define E(n, v)
struct CG_NV_CAT(CG_NV_TAG, fields_t) {
    cg_nv_field cg_head_[1
#include CG_NV_DEF_FILE
    ];
};
#undef M
#undef F
#undef E

/* Pass 2: its initializer. */
#define M(n, o, c, s, f) }, { {NULL, 0, 0, 0, NULL}
#define F(n, hi, lo, t, en) , {#n, hi, lo, CG_NV_FT_##t, CG_NV_EN_##t(en)}
#define E(n, v) {#n, v},
static const struct CG_NV_CAT(CG_NV_TAG, fields_t) CG_NV_CAT(CG_NV_TAG, fields) = {
    { {NULL, 0, 0, 0, NULL}
#include CG_NV_DEF_FILE
    }
};
#undef M
#undef F
#undef E

/* Pass 3: the method array. */
#define M(n, o, c, s, f)                                                       \
    {#n, o, c, s, f, CG_NV_CAT(CG_NV_TAG, fields).n + 1,                       \
     sizeof(CG_NV_CAT(CG_NV_TAG, fields).n) / sizeof(cg_nv_field) - 1},
#define F(n, hi, lo, t, en)
#define E(n, v)
static const cg_nv_method CG_NV_CAT(CG_NV_TAG, methods)[] = {
#include CG_NV_DEF_FILE
};
#undef M
#undef F
#undef E
#undef CG_NV_DEF_FILE
#undef CG_NV_TAG
