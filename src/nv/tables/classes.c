/* nv: the class method tables, stamped from the .def files, and lookups. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/nv.h"
#include "core/def.h"
#include "core/nameidx.h"
#include "actions.h"

#define CG_NV_DEF_FILE "host_b06f.def"
#define CG_NV_TAG host
#include "class_gen.h"
#define CG_NV_DEF_FILE "i2m_a140.def"
#define CG_NV_TAG i2m
#include "class_gen.h"
#define CG_NV_DEF_FILE "dma_b0b5.def"
#define CG_NV_TAG copy
#include "class_gen.h"
#define CG_NV_DEF_FILE "twod_902d.def"
#define CG_NV_TAG twod
#include "class_gen.h"
#define CG_NV_DEF_FILE "threed_b197.def"
#define CG_NV_TAG threed
#include "class_gen.h"
#define CG_NV_DEF_FILE "compute_b1c0.def"
#define CG_NV_TAG compute
#include "class_gen.h"

_Static_assert((int)CG_DEF_ALIAS == (int)CG_NV_M_ALIAS, "alias flag shared with core/def.h");

#include "class_index.h"

#define CLASS(id, name, prefix, tag) {id, name, prefix, tag##_methods, CG_ARRAY_SIZE_(tag##_methods)}
#define INDEX(tag) {tag##_index, CG_ARRAY_SIZE_(tag##_index)}
#define CG_ARRAY_SIZE_(a) (sizeof(a) / sizeof((a)[0]))
static const cg_nv_class classes[] = {
    CLASS(CG_NV_CLASS_HOST, "MAXWELL_CHANNEL_GPFIFO_A", "NVB06F", host),
    CLASS(CG_NV_CLASS_3D, "MAXWELL_B", "NVB197", threed),
    CLASS(CG_NV_CLASS_COMPUTE, "MAXWELL_COMPUTE_B", "NVB1C0", compute),
    CLASS(CG_NV_CLASS_I2M, "KEPLER_INLINE_TO_MEMORY_B", "NVA140", i2m),
    CLASS(CG_NV_CLASS_TWOD, "FERMI_TWOD_A", "NV902D", twod),
    CLASS(CG_NV_CLASS_COPY, "MAXWELL_DMA_COPY_A", "NVB0B5", copy),
};
/* Each class's dword method index -> entry (class_index.h), in classes[] order. */
static const struct {
    const uint16_t *at;
    size_t n;
} class_index[] = {INDEX(host), INDEX(threed), INDEX(compute), INDEX(i2m), INDEX(twod), INDEX(copy)};
_Static_assert(CG_ARRAY_SIZE_(class_index) == CG_ARRAY_SIZE_(classes), "one index per class");

const cg_nv_class *cg_nv_class_at(size_t i)
{
    return i < CG_ARRAY_SIZE_(classes) ? &classes[i] : NULL;
}

const cg_nv_class *cg_nv_class_find(uint32_t id)
{
    for (size_t i = 0; i < CG_ARRAY_SIZE_(classes); i++)
        if (classes[i].id == id)
            return &classes[i];
    return NULL;
}

const cg_nv_method *cg_nv_method_at(const cg_nv_class *c, uint32_t offset, uint32_t *elem)
{
    if (!c)
        return NULL;
    if (c >= classes && c < classes + CG_ARRAY_SIZE_(classes) && offset % 4 == 0) {
        /* the generated index: one lookup */
        size_t k = (size_t)(c - classes);
        uint32_t idx = offset / 4;
        uint16_t e = idx < class_index[k].n ? class_index[k].at[idx] : 0;
        if (!e || e > c->nmethods)
            return NULL;
        const cg_nv_method *m = &c->methods[e - 1];
        if (elem)
            *elem = (offset - m->offset) / (m->stride ? m->stride : 4);
        return m;
    }
    for (size_t i = 0; i < c->nmethods; i++) {
        const cg_nv_method *m = &c->methods[i];
        if ((m->flags & CG_NV_M_ALIAS) || offset < m->offset)
            continue;
        uint32_t stride = m->stride ? m->stride : 4;
        uint32_t d = offset - m->offset;
        if (d % stride == 0 && d / stride < m->count) {
            if (elem)
                *elem = d / stride;
            return m;
        }
        /* interleaved arrays never overlap, so a miss here is a miss */
    }
    return NULL;
}

/* Method names of each class (classes[] order), hashed once: the assembler
 * looks a name up per method word. */
static cg_nameidx method_ix[CG_ARRAY_SIZE_(classes)];
static pthread_once_t method_ix_once = PTHREAD_ONCE_INIT;

static const char *method_name_at(const void *tab, size_t i)
{
    return ((const cg_nv_method *)tab)[i].name;
}

static void method_ix_build(void)
{
    for (size_t k = 0; k < CG_ARRAY_SIZE_(classes); k++)
        cg_nameidx_build(&method_ix[k], classes[k].nmethods, method_name_at, classes[k].methods);
}

const cg_nv_method *cg_nv_method_named(const cg_nv_class *c, const char *name)
{
    if (!c || !name)
        return NULL;
    size_t k = (size_t)(c - classes);
    if (k < CG_ARRAY_SIZE_(classes) && c == &classes[k]) {
        pthread_once(&method_ix_once, method_ix_build);
        uint32_t i;
        if (method_ix[k].cap) /* 0: out of memory at build, scan below */
            return cg_nameidx_find(&method_ix[k], name, strlen(name), &i) ? &c->methods[i] : NULL;
    }
    for (size_t i = 0; i < c->nmethods; i++)
        if (strcmp(c->methods[i].name, name) == 0)
            return &c->methods[i];
    return NULL;
}

bool cg_nv_method_name(const cg_nv_class *c, uint32_t offset, char *buf, size_t cap)
{
    uint32_t elem = 0;
    const cg_nv_method *m = cg_nv_method_at(c, offset, &elem);
    if (!m) {
        if (cap)
            buf[0] = 0;
        return false;
    }
    if (m->count > 1)
        snprintf(buf, cap, "%s(%u)", m->name, elem);
    else
        snprintf(buf, cap, "%s", m->name);
    return true;
}

int cg_nv_method_parse(const cg_nv_class *c, const char *text, uint32_t *offset)
{
    char name[96];
    size_t n = strcspn(text, "([");
    if (n == 0 || n >= sizeof(name))
        return CG_ERR_NOENT;
    memcpy(name, text, n);
    name[n] = 0;
    const cg_nv_method *m = cg_nv_method_named(c, name);
    if (!m)
        return CG_ERR_NOENT;
    uint32_t elem = 0;
    if (text[n]) {
        char close = text[n] == '(' ? ')' : ']';
        char *end;
        unsigned long v = strtoul(text + n + 1, &end, 0);
        if (end == text + n + 1 || *end != close || end[1] != 0)
            return CG_ERR_SYNTAX;
        if (v >= m->count)
            return CG_ERR_RANGE;
        elem = (uint32_t)v;
    }
    *offset = m->offset + elem * (m->stride ? m->stride : 4);
    return 0;
}

const char *cg_nv_enum_name(uint32_t class_id, const char *method, const char *field,
                            uint32_t value)
{
    const cg_nv_method *m = cg_nv_method_named(cg_nv_class_find(class_id), method);
    for (size_t i = 0; m && i < m->nfields; i++) {
        const cg_nv_field *f = &m->fields[i];
        if (strcmp(f->name, field) != 0 || !f->enums)
            continue;
        for (const cg_nv_enum *e = f->enums; e->name; e++)
            if (e->value == value)
                return e->name;
        return NULL;
    }
    return NULL;
}
