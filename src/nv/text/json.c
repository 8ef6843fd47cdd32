/* nv: the JSON printers of the public API: decoded TIC and TSC entries
 * (cg_nv_tic_print_json, cg_nv_tsc_print_json) and draw records
 * (cg_nv_draw_print_json). The decoders and the executors that fill these
 * structs are in the gpu room (texture.c, draw.c), which prints nothing;
 * the value names come from the tables room (tex_names.h, vattr.h), where
 * the executors reach them too. Field layouts and sources: texture.c,
 * docs/nv-draws.md. */
#include <math.h>
#include <stdio.h>
#include "cmdgpu/nv3d.h"
#include "nv/tables/tex_names.h"
#include "nv/tables/vattr.h"

/* ---- TIC and TSC ----------------------------------------------------------- */

static void json_name(FILE *f, const char *key, const char *name, unsigned v)
{
    if (name)
        fprintf(f, ",\"%s\":\"%s\"", key, name);
    else
        fprintf(f, ",\"%s\":%u", key, v); /* reserved value: the number */
}

static void json_float(FILE *f, const char *key, float v)
{
    if (isfinite(v))
        fprintf(f, ",\"%s\":%.9g", key, (double)v);
    else
        fprintf(f, ",\"%s\":null", key);
}

static void json_raw(FILE *f, const uint32_t raw[8])
{
    fputs("\"raw\":[", f);
    for (unsigned i = 0; i < 8; i++)
        fprintf(f, "%s\"0x%08x\"", i ? "," : "", (unsigned)raw[i]);
    fputc(']', f);
}

void cg_nv_tic_print_json(FILE *f, const cg_nv_tic *t)
{
    static const char comp[4] = {'r', 'g', 'b', 'a'};
    static const char dst[4] = {'x', 'y', 'z', 'w'};
    char key[16];
    bool compressed;
    fprintf(f, "{\"format\":%u", (unsigned)t->format);
    const char *fname = cg_nv_tex_format_name(t->format);
    if (fname)
        fprintf(f, ",\"format_name\":\"%s\"", fname);
    else
        fputs(",\"format_name\":null", f);
    unsigned bytes = cg_nv_tex_format_bytes(t->format, &compressed);
    fprintf(f, ",\"format_bytes\":%u,\"compressed\":%s", bytes, compressed ? "true" : "false");
    for (unsigned i = 0; i < 4; i++) {
        snprintf(key, sizeof(key), "%c_type", comp[i]);
        json_name(f, key, nv_tic_type_name(t->type[i]), t->type[i]);
    }
    for (unsigned i = 0; i < 4; i++) {
        snprintf(key, sizeof(key), "%c_source", dst[i]);
        json_name(f, key, nv_tic_swizzle_name(t->swizzle[i]), t->swizzle[i]);
    }
    fprintf(f, ",\"pack\":%s", t->pack ? "true" : "false");
    json_name(f, "header_version", nv_tic_header_name(t->header_version), t->header_version);
    fprintf(f, ",\"address\":\"0x%010llx\"", (unsigned long long)t->address);
    fprintf(f, ",\"pitch\":%u", (unsigned)t->pitch);
    fprintf(f, ",\"block_width_log2\":%u,\"block_height_log2\":%u,\"block_depth_log2\":%u",
            t->block_w, t->block_h, t->block_d);
    fprintf(f, ",\"tile_width_log2\":%u,\"gob_3d\":%s", t->tile_width,
            t->gob_3d ? "true" : "false");
    fprintf(f, ",\"width\":%u,\"height\":%u,\"depth\":%u", (unsigned)t->width,
            (unsigned)t->height, (unsigned)t->depth);
    fprintf(f, ",\"layer_base\":%u,\"max_mip_level\":%u", t->layer_base, t->max_mip_level);
    fprintf(f, ",\"depth_texture\":%s,\"srgb\":%s", t->depth_texture ? "true" : "false",
            t->srgb ? "true" : "false");
    json_name(f, "texture_type", nv_tic_texture_type_name(t->texture_type), t->texture_type);
    fprintf(f, ",\"border_size\":%u,\"normalized_coords\":%s,\"sparse\":%s", t->border_size,
            t->normalized_coords ? "true" : "false", t->sparse ? "true" : "false");
    fprintf(f, ",\"lod_bias\":%.9g", (double)t->lod_bias / 256.0);
    json_name(f, "max_anisotropy", nv_tex_aniso_name(t->max_anisotropy), t->max_anisotropy);
    fprintf(f, ",\"res_view_min_mip\":%u,\"res_view_max_mip\":%u,\"msaa_mode\":%u",
            t->res_view_min_mip, t->res_view_max_mip, t->msaa_mode);
    fprintf(f, ",\"min_lod_clamp\":%.9g", (double)t->min_lod_clamp / 256.0);
    fprintf(f, ",\"color_key\":\"0x%08x\"", (unsigned)t->color_key);
    fprintf(f, ",\"load_store_hint\":%s,\"view_coherency_hash\":%u",
            t->load_store_hint ? "true" : "false", t->view_coherency_hash);
    fprintf(f, ",\"lod_aniso_quality2\":%s,\"lod_aniso_quality\":%s,\"lod_iso_quality\":%s",
            t->lod_aniso_quality2 ? "true" : "false", t->lod_aniso_quality ? "true" : "false",
            t->lod_iso_quality ? "true" : "false");
    fprintf(f, ",\"aniso_coarse_spread_modifier\":%u,\"aniso_spread_scale\":%u",
            t->aniso_coarse_spread_modifier, t->aniso_spread_scale);
    fprintf(f, ",\"use_header_opt_control\":%s,\"aniso_spread_max_log2\":%u",
            t->use_header_opt_control ? "true" : "false", t->aniso_spread_max_log2);
    fprintf(f, ",\"sector_promotion\":%u,\"color_key_op\":%s,\"trilin_opt\":%u",
            t->sector_promotion, t->color_key_op ? "true" : "false", t->trilin_opt);
    fprintf(f, ",\"aniso_bias\":%u,\"aniso_fine_spread_func\":%u,\"aniso_coarse_spread_func\":%u",
            t->aniso_bias, t->aniso_fine_spread_func, t->aniso_coarse_spread_func);
    fprintf(f, ",\"aniso_fine_spread_modifier\":%u,", t->aniso_fine_spread_modifier);
    json_raw(f, t->raw);
    fputc('}', f);
}

void cg_nv_tsc_print_json(FILE *f, const cg_nv_tsc *s)
{
    fputc('{', f);
    json_raw(f, s->raw);
    json_name(f, "wrap_u", nv_tsc_wrap_name(s->wrap_u), s->wrap_u);
    json_name(f, "wrap_v", nv_tsc_wrap_name(s->wrap_v), s->wrap_v);
    json_name(f, "wrap_p", nv_tsc_wrap_name(s->wrap_p), s->wrap_p);
    fprintf(f, ",\"depth_compare\":%s", s->depth_compare ? "true" : "false");
    json_name(f, "depth_compare_func", nv_tsc_compare_name(s->depth_compare_func),
              s->depth_compare_func);
    fprintf(f, ",\"srgb_conversion\":%s", s->srgb_conversion ? "true" : "false");
    fprintf(f, ",\"font_filter_width\":%u,\"font_filter_height\":%u", s->font_filter_width,
            s->font_filter_height);
    json_name(f, "max_anisotropy", nv_tex_aniso_name(s->max_anisotropy), s->max_anisotropy);
    json_name(f, "mag_filter", nv_tsc_filter_name(s->mag_filter), s->mag_filter);
    json_name(f, "min_filter", nv_tsc_filter_name(s->min_filter), s->min_filter);
    json_name(f, "mip_filter", nv_tsc_mip_filter_name(s->mip_filter), s->mip_filter);
    fprintf(f, ",\"cubemap_anisotropy\":%s,\"cubemap_interface_filtering\":%s",
            s->cubemap_anisotropy ? "true" : "false",
            s->cubemap_interface_filtering ? "true" : "false");
    json_name(f, "reduction_filter", nv_tsc_reduction_name(s->reduction_filter),
              s->reduction_filter);
    json_float(f, "mip_lod_bias", s->mip_lod_bias);
    fprintf(f, ",\"float_coord_normalization\":%s,\"trilin_opt\":%u",
            s->float_coord_normalization ? "true" : "false", s->trilin_opt);
    json_float(f, "min_lod_clamp", s->min_lod_clamp);
    json_float(f, "max_lod_clamp", s->max_lod_clamp);
    fprintf(f, ",\"srgb_border_color\":[%u,%u,%u]", s->srgb_border_color[0],
            s->srgb_border_color[1], s->srgb_border_color[2]);
    fputs(",\"border_color\":[", f);
    for (unsigned i = 0; i < 4; i++) {
        if (isfinite(s->border_color[i]))
            fprintf(f, "%s%.9g", i ? "," : "", (double)s->border_color[i]);
        else
            fprintf(f, "%snull", i ? "," : "");
    }
    fputs("]}", f);
}

/* ---- draw records ---------------------------------------------------------- */

/* A float that reads back to the same value (%.9g); JSON has no NaN or
 * infinities, so those are strings. */
static void json_float_value(FILE *f, float x)
{
    if (isnan(x))
        fputs("\"NaN\"", f);
    else if (isinf(x))
        fputs(x > 0 ? "\"Infinity\"" : "\"-Infinity\"", f);
    else
        fprintf(f, "%.9g", (double)x);
}

static void json_rt(FILE *f, const cg_nv_rt_state *t)
{
    fprintf(f,
            "{\"addr\":\"0x%llx\",\"width\":%u,\"height\":%u,\"format\":\"0x%x\","
            "\"memory\":\"0x%x\",\"pitch\":%s,\"block_w\":%u,\"block_h\":%u,\"block_d\":%u}",
            (unsigned long long)t->addr, t->width, t->height, t->format, t->memory,
            t->pitch ? "true" : "false", t->block_w, t->block_h, t->block_d);
}

void cg_nv_draw_print_json(FILE *f, const cg_nv_draw *d)
{
    if (!f || !d)
        return;
    const char *sep = "";
    fprintf(f,
            "{\"channel\":%d,\"stream_addr\":\"0x%llx\",\"seq\":%llu,\"topology\":\"%s\","
            "\"begin\":\"0x%08x\",\"indexed\":%s,\"first\":%u,\"count\":%u,\"instance\":%u",
            d->channel, (unsigned long long)d->stream_addr, (unsigned long long)d->seq,
            nv_topology_name(d->topology), d->begin,
            d->indexed ? "true" : "false", d->first, d->count, d->instance);
    if (d->indexed)
        fprintf(f, ",\"index_size\":%u,\"index_addr\":\"0x%llx\",\"index_limit\":\"0x%llx\"",
                d->index_size, (unsigned long long)d->index_addr,
                (unsigned long long)d->index_limit);
    /* attributes whose format word is 0 name nothing and are left out */
    fputs(",\"attribs\":[", f);
    for (unsigned a = 0; a < CG_NV_MAX_ATTRIBS; a++) {
        const cg_nv_attrib_fmt *t = &d->attribs[a];
        if (!t->raw)
            continue;
        const nv_va_size *z = nv_va_size_find(t->size);
        fprintf(f,
                "%s{\"attrib\":%u,\"raw\":\"0x%08x\",\"stream\":%u,\"offset\":%u,"
                "\"constant\":%s,\"size\":\"%s\",\"size_code\":%u,\"type\":\"%s\",\"bgra\":%s,"
                "\"components\":%u}",
                sep, a, t->raw, t->stream, t->offset, t->constant ? "true" : "false",
                z ? z->name : "?", t->size, nv_va_type_name(t->type),
                t->bgra ? "true" : "false", t->components);
        sep = ",";
    }
    /* streams whose registers are all 0 are left out */
    fputs("],\"streams\":[", f);
    sep = "";
    for (unsigned j = 0; j < CG_NV_MAX_STREAMS; j++) {
        const cg_nv_stream *s = &d->streams[j];
        if (!s->enabled && !s->stride && !s->start && !s->limit && !s->frequency && !s->instanced)
            continue;
        fprintf(f,
                "%s{\"stream\":%u,\"enabled\":%s,\"stride\":%u,\"start\":\"0x%llx\","
                "\"limit\":\"0x%llx\",\"frequency\":%u,\"instanced\":%s}",
                sep, j, s->enabled ? "true" : "false", s->stride, (unsigned long long)s->start,
                (unsigned long long)s->limit, s->frequency, s->instanced ? "true" : "false");
        sep = ",";
    }
    /* vertices: the fetched attributes (constant ones have no value here) */
    fputs("],\"vertices\":[", f);
    for (size_t i = 0; i < d->nvertices; i++) {
        const cg_nv_vertex *v = &d->vertices[i];
        fprintf(f, "%s{\"index\":%u,\"instance\":%u", i ? "," : "", v->index, v->instance);
        if (v->index_out_of_range)
            fputs(",\"index_out_of_range\":true", f);
        fputs(",\"attribs\":[", f);
        sep = "";
        for (unsigned a = 0; a < CG_NV_MAX_ATTRIBS; a++) {
            const cg_nv_attrib_fmt *t = &d->attribs[a];
            const cg_nv_attrib_val *x = &v->attr[a];
            if (t->constant || !t->components)
                continue;
            fprintf(f, "%s{\"attrib\":%u,", sep, a);
            if (x->out_of_range)
                fputs("\"out_of_range\":true,", f);
            if (x->is_int) {
                fprintf(f, "\"i\":[%lld,%lld,%lld,%lld]}", (long long)x->i[0],
                        (long long)x->i[1], (long long)x->i[2], (long long)x->i[3]);
            } else {
                fputs("\"f\":[", f);
                for (unsigned k = 0; k < 4; k++) {
                    if (k)
                        fputc(',', f);
                    json_float_value(f, x->f[k]);
                }
                fputs("]}", f);
            }
            sep = ",";
        }
        fputs("]}", f);
    }
    fputs("],\"constant_buffers\":[", f);
    sep = "";
    for (unsigned st = 0; st < 5; st++)
        for (unsigned k = 0; k < 18; k++) {
            const cg_nv_cb_binding *c = &d->cb[st][k];
            if (!c->valid)
                continue;
            fprintf(f, "%s{\"stage\":%u,\"slot\":%u,\"addr\":\"0x%llx\",\"size\":%u}", sep, st, k,
                    (unsigned long long)c->addr, c->size);
            sep = ",";
        }
    fprintf(f, "],\"tex_cb_slot\":%u,\"textures\":[", d->tex_cb_slot);
    for (size_t i = 0; i < d->ntextures; i++) {
        const cg_nv_tex_binding *t = &d->textures[i];
        fprintf(f,
                "%s{\"stage\":%u,\"slot\":%u,\"handle\":\"0x%08x\",\"tic_index\":%u,"
                "\"tsc_index\":%u,\"tic_ok\":%s,\"tsc_ok\":%s",
                i ? "," : "", t->stage, t->slot, t->handle, t->tic_index, t->tsc_index,
                t->tic_ok ? "true" : "false", t->tsc_ok ? "true" : "false");
        if (t->tic_ok) {
            fputs(",\"tic\":", f);
            cg_nv_tic_print_json(f, &t->tic);
        }
        if (t->tsc_ok) {
            fputs(",\"tsc\":", f);
            cg_nv_tsc_print_json(f, &t->tsc);
        }
        fputc('}', f);
    }
    /* RT_CONTROL (SET_CT_SELECT): the count and map, then the targets it
     * selects (rt_map[i] for i < rt_count) */
    fprintf(f, "],\"rt_count\":%u,\"rt_map\":[", d->rt_count);
    for (unsigned i = 0; i < CG_NV_MAX_TARGETS; i++)
        fprintf(f, "%s%u", i ? "," : "", d->rt_map[i]);
    fputs("],\"rt\":[", f);
    for (unsigned i = 0; i < d->rt_count && i < CG_NV_MAX_TARGETS; i++) {
        fprintf(f, "%s{\"target\":%u,\"state\":", i ? "," : "", d->rt_map[i]);
        json_rt(f, &d->rt[d->rt_map[i]]);
        fputc('}', f);
    }
    fprintf(f, "],\"zeta_enabled\":%s,\"zeta\":", d->zeta_enabled ? "true" : "false");
    json_rt(f, &d->zeta);
    fputc('}', f);
}
