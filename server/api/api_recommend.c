/* api_recommend.c - GET /api/recommend: for one write and one read pattern on
 * the view's tile, the best layout over every distinct valid Swizzle<B,M,S>
 * and the F2 optimizer's bound, every step of both patterns counted; the three
 * fixes side by side (swizzle, padding, lane schedule) with their code.  The
 * search, the costs and the code text are recommend*.c's: this file only
 * reads the request and writes the answer. */
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_routes.h"
#include "api_write.h"
#include "model/pattern.h"
#include "recommend/recommend.h"

static int known_pattern(const struct api_request *req, const char *key, const char **name,
                         struct sz_error *err)
{
    int n;
    const struct pattern *p = pattern_list(&n);
    *name = api_arg(req, key);
    if (*name == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                       "required: a pattern name from GET /api/patterns");
    if (strcmp(key, "write") == 0 && strcmp(*name, REC_TMA) == 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (strcmp(p[i].name, *name) == 0)
            return 0;
    return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                   "unknown pattern; see GET /api/patterns for the list");
}

/* elem: the page's element types (state.js), or absent. */
static int read_elem(const struct api_request *req, int *bits, int *given, struct sz_error *err)
{
    static const struct { const char *name; int bits; } elems[] = {
        {"fp64", 64}, {"fp32", 32}, {"fp16", 16}, {"bf16", 16}, {"fp8", 8}, {"bytes", 8}};
    const char *v = api_arg(req, "elem");
    *given = 0;
    if (v == NULL || *v == 0)
        return 0;
    for (size_t i = 0; i < sizeof elems / sizeof elems[0]; i++)
        if (strcmp(v, elems[i].name) == 0) {
            *bits = elems[i].bits;
            *given = 1;
            return 0;
        }
    return sz_fail(err, SZ_INVALID_ARGUMENT, "elem",
                   "must be fp64, fp32, fp16, bf16, fp8 or bytes (or absent), got \"%s\"", v);
}

static void put_total(struct buf *out, const struct rec_work *w, int k, const struct rec_total *t)
{
    if (!t->ok) {
        buf_puts(out, "{\"error\":");
        buf_json_str(out, t->why);
        buf_putc(out, '}');
        return;
    }
    if (k == 0 && strcmp(w->names[0], REC_TMA) == 0) {
        buf_puts(out, "{\"steps\":0,\"wavefronts\":0,\"ideal\":0,\"cycles\":0,\"tma\":true,"
                 "\"note\":\"TMA writes through the async proxy, not warp instructions: no LSU "
                 "wavefronts, and not modelled or measured here\"}");
        return;
    }
    buf_printf(out, "{\"bytes_per_access\":%u,\"steps\":%u,\"wavefronts\":%llu,\"ideal\":%llu,\"cycles\":%llu,"
               "\"worst\":%u,\"worst_step\":%u}", t->how.split && t->how.split < w->access_bytes[k]
               ? t->how.split : w->access_bytes[k], t->steps, (unsigned long long)t->wavefronts,
               (unsigned long long)t->ideal, (unsigned long long)t->cycles, t->worst,
               t->worst_step);
}

/* Bytes of one candidate in the answer, at most: put_layout_head and
 * put_sides write numbers and fixed names in fixed formats (about 420 bytes;
 * 1 KiB leaves the numbers their widest).  The rest of the answer (the
 * recommended layout with its two worst instructions' costs and code, the
 * bound, the fixes: 13 KB seen) fits 64 KiB. */
#define REC_CAND_JSON_MAX 1024u
#define REC_REST_JSON_MAX ((size_t)64 << 10)

static void put_layout_head(struct buf *out, const struct rec_cand *c)
{
    const struct rec_layout *l = &c->lay;
    if (l->kind == REC_SWIZZLE) {
        buf_printf(out, "{\"kind\":\"swizzle\",\"b\":%d,\"m\":%d,\"s\":%d,\"name\":\"Swizzle<%d,%d,%d>\","
                   "\"match_bank_row\":", l->b, l->m, l->s, l->b, l->m, l->s);
        if (l->match >= 0)
            buf_printf(out, "%d,\"drawable\":true,", l->match);
        else
            buf_puts(out, "null,\"drawable\":false,");
    } else if (l->kind == REC_PADDED) {
        buf_printf(out, "{\"kind\":\"padding\",\"interval\":%u,\"pad\":%u,\"name\":\"+%u bytes every "
                   "%u\",", l->interval, l->pad, l->pad, l->interval);
    } else {
        buf_puts(out, "{\"kind\":\"linear\",\"name\":\"the optimizer's layout\",");
    }
    buf_puts(out, "\"origin\":");
    buf_json_str(out, c->origin);
}

static void put_sides(struct buf *out, const struct rec_work *w, const struct rec_total *s0,
                      const struct rec_total *s1)
{
    buf_puts(out, ",\"write_total\":");
    put_total(out, w, 0, s0);
    buf_puts(out, ",\"read_total\":");
    put_total(out, w, 1, s1);
    if (s0->ok && s1->ok)
        buf_printf(out, ",\"total_wavefronts\":%llu,\"ideal_wavefronts\":%llu",
                   (unsigned long long)(s0->wavefronts + s1->wavefronts),
                   (unsigned long long)(s0->ideal + s1->ideal));
    else
        buf_puts(out, ",\"total_wavefronts\":null,\"ideal_wavefronts\":null");
}

/* The /api/conflicts answer of side k's worst step (null for a TMA write). */
static void put_worst(struct buf *out, const struct rec_work *w, int k, const struct rec_layout *l,
                      const struct rec_total *t)
{
    struct instr in;
    struct acc_result r;
    if (!t->ok || t->steps == 0) {
        buf_puts(out, "null");
        return;
    }
    rec_side_instr(w, k, l, &t->how, t->worst_step, &in);
    acc_cost(&in, &r);
    api_put_cost(out, &in, &r);
}

/* `,"key":"v"`, null for a form that has no text (recommend_code.c leaves it ""). */
static void put_text(struct buf *out, const char *key, const char *v)
{
    buf_putc(out, ',');
    api_put_str_or_null(out, key, v && *v ? v : NULL);
}

static void put_code(struct buf *out, const struct rec_work *w, const struct rec_layout *l)
{
    struct rec_code c;
    rec_code(w, l, &c);
    buf_puts(out, ",\"code\":{\"element_type\":");
    buf_json_str(out, c.elem);
    put_text(out, "cute", c.cute);
    put_text(out, "cute_why", c.cute[0] ? NULL : c.why_cute);
    put_text(out, "atom", c.atom);
    put_text(out, "triton", c.triton);
    put_text(out, "triton_form", c.triton_form);
    put_text(out, "triton_why", c.triton[0] ? NULL : c.why_triton);
    put_text(out, "tma", c.tma);
    put_text(out, "tma_why", c.tma[0] ? NULL : c.why_tma);
    put_text(out, "c", c.c);
    buf_putc(out, '}');
}

static void put_bound(struct buf *out, const struct rec_work *w)
{
    const struct rec_bound *b = &w->bound;
    buf_printf(out, ",\"bound\":{\"expressible\":%s", b->expressible ? "true" : "false");
    if (!b->expressible) {
        buf_puts(out, ",\"why\":");
        buf_json_str(out, b->why);
        buf_putc(out, '}');
        return;
    }
    static const char *const side[2] = {"write", "read"};
    for (int k = 0; k < 2; k++)
        buf_printf(out, ",\"%s\":{\"instructions\":%u,\"bytes_per_lane\":%u,"
                   "\"wavefronts_per_instruction\":%u,\"lower_bound_per_instruction\":%u,"
                   "\"total\":%llu,\"ideal_total\":%llu}", side[k], b->sd[k].instructions,
                   b->sd[k].bytes, b->sd[k].wavefronts, b->sd[k].lower_bound,
                   (unsigned long long)b->total[k], (unsigned long long)b->ideal[k]);
    buf_printf(out, ",\"total\":%llu,\"ideal_total\":%llu,\"conflict_free\":%s,"
               "\"vector_elems\":%d,\"element_bits\":%d,\"shape\":[%u,%u],\"offset_bases\":",
               (unsigned long long)(b->total[0] + b->total[1]),
               (unsigned long long)(b->ideal[0] + b->ideal[1]),
               b->o.conflict_free ? "true" : "false", 1 << b->o.vec_bits, w->elem_bits,
               1u << b->p.tile.bits0, 1u << b->p.tile.bits1);
    api_put_bases(out, &b->p.tile, b->o.mem.basis, b->o.mem.n);
    buf_printf(out, ",\"construction\":{\"vector_bits\":%d,\"segment_bits\":%d,"
               "\"shared_lane_directions\":%d,\"pairs\":%d,\"free_directions\":%d,"
               "\"padding\":%d},\"usable\":%s", b->o.vec_bits, b->o.seg_bits, b->o.n_shared,
               b->o.n_pairs, b->o.n_free, b->o.n_pad, b->usable ? "true" : "false");
    buf_puts(out, ",\"through_patterns\":");
    if (b->usable)
        buf_printf(out, "%llu", (unsigned long long)w->opt.total);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"why\":");
    if (b->o.conflict_free)
        buf_puts(out, "null");
    else
        buf_printf(out, "\"the optimizer needed %d segment direction%s that a lane of one side "
                   "also moves along: no layout of this pair is conflict-free (Lemma 9.5)\"",
                   b->o.n_pad, b->o.n_pad == 1 ? "" : "s");
    buf_putc(out, '}');
}

static void put_fixes(struct buf *out, const struct rec_work *w)
{
    char code[2][400];
    buf_puts(out, ",\"fixes\":[");
    /* 1. the XOR swizzle */
    buf_puts(out, "{\"fix\":\"swizzle\",\"extra_bytes\":0,\"layout\":");
    if (w->best >= 0) {
        const struct rec_cand *c = &w->c[w->best];
        put_layout_head(out, c);
        buf_putc(out, '}');
        put_sides(out, w, &c->side[0], &c->side[1]);
        put_code(out, w, &c->lay);
    } else {
        buf_puts(out, "null,\"why\":\"no swizzle runs both patterns\"");
    }
    /* 2. padding */
    buf_puts(out, "},{\"fix\":\"padding\",");
    if (w->pad.ok) {
        buf_printf(out, "\"tried\":%d,\"extra_bytes\":%llu,\"layout\":", w->npads,
                   (unsigned long long)w->pad.extra_bytes);
        put_layout_head(out, &w->pad);
        buf_putc(out, '}');
        put_sides(out, w, &w->pad.side[0], &w->pad.side[1]);
        put_code(out, w, &w->pad.lay);
    } else {
        buf_printf(out, "\"tried\":%d,\"extra_bytes\":null,\"layout\":null,\"why\":\"%s\"",
                   w->npads, strcmp(w->names[0], REC_TMA) == 0 ? "TMA writes no padded layout"
                   : "no padding runs both patterns");
    }
    /* 3. the lane schedule on the current layout */
    buf_puts(out, "},{\"fix\":\"lane_schedule\",\"extra_bytes\":0,\"layout\":");
    struct rec_cand cur;
    memset(&cur, 0, sizeof cur);
    cur.lay = w->cur_lay;
    cur.origin = "current";
    put_layout_head(out, &cur);
    buf_putc(out, '}');
    put_sides(out, w, &w->sched[0], &w->sched[1]);
    for (int k = 0; k < 2; k++)
        rec_sched_code(w, k, &w->sched[k], code[k], sizeof code[k]);
    buf_puts(out, ",\"schedules\":[");
    for (int k = 0; k < 2; k++) {
        const struct rec_total *t = &w->sched[k];
        buf_printf(out, "%s{\"side\":\"%s\",\"kind\":\"%s\",\"shift\":%d", k ? "," : "",
                   k ? "read" : "write", t->how.sched == 1 ? "rotate" : t->how.sched == 2 ? "xor"
                   : "none", t->how.shift);
        put_text(out, "code", code[k]);
        buf_putc(out, '}');
    }
    buf_puts(out, "],\"code\":{\"extra_bytes\":0");
    put_text(out, "write", code[0]);
    put_text(out, "read", code[1]);
    buf_putc(out, '}');
    if (!code[0][0] && !code[1][0])
        buf_puts(out, ",\"why\":\"no lane rotation lowers the cost on the current layout (matrix "
                 "ops and TMA keep their lanes)\"");
    buf_puts(out, "}]");
}

static void put_recommended(struct buf *out, const struct rec_work *w)
{
    const struct rec_cand *r = w->pick_opt ? &w->opt : w->best >= 0 ? &w->c[w->best] : NULL;
    buf_puts(out, ",\"recommended\":");
    if (r == NULL) {
        buf_puts(out, "null");
        return;
    }
    put_layout_head(out, r);
    buf_printf(out, ",\"is_current\":%s",
               !w->pick_opt && w->best == 0 && w->cur_index == 0 ? "true" : "false");
    put_sides(out, w, &r->side[0], &r->side[1]);
    buf_puts(out, ",\"saves_wavefronts\":");
    if (w->cur_index == 0 && w->c[0].ok)
        buf_printf(out, "%lld", (long long)w->c[0].total - (long long)r->total);
    else
        buf_puts(out, "null");
    buf_printf(out, ",\"reaches_bound\":%s,\"verdict\":", w->reaches ? "true" : "false");
    buf_json_str(out, w->verdict);
    buf_puts(out, ",\"write_cost\":");
    put_worst(out, w, 0, &r->lay, &r->side[0]);
    buf_puts(out, ",\"read_cost\":");
    put_worst(out, w, 1, &r->lay, &r->side[1]);
    put_code(out, w, &r->lay);
    if (r->lay.kind == REC_LINEAR) {
        buf_puts(out, ",\"offset_bases\":");
        api_put_bases(out, &w->bound.p.tile, w->bound.o.mem.basis, w->bound.o.mem.n);
    }
    buf_putc(out, '}');
}

/* fit=1's answer when the view is fine but the recommender cannot take it
 * (err: why, a 4xx): 200 with the reason, err cleared.  Returns 0. */
static int put_cannot(struct buf *out, const char *const names[2], struct sz_error *err)
{
    buf_puts(out, "{\"fits\":true,\"write\":");
    buf_json_str(out, names[0]);
    buf_puts(out, ",\"read\":");
    buf_json_str(out, names[1]);
    buf_puts(out, ",\"recommended\":null,\"why\":");
    api_put_error(out, err);
    buf_putc(out, '}');
    memset(err, 0, sizeof *err);
    return 0;
}

int api_route_recommend(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks", "rows",
                                        "match_bank_row", "write", "read", "fit", "elem", NULL};
    struct swz z;
    struct swz_geom g;
    const char *names[2];
    int fit = 0, bits = 0, given = 0;
    if (api_args_check(req, known, err) < 0 || api_arg_bool(req, "fit", &fit, err) < 0 ||
        known_pattern(req, "write", &names[0], err) < 0 ||
        known_pattern(req, "read", &names[1], err) < 0 || read_elem(req, &bits, &given, err) < 0)
        return -1;
    /* fit=1: a view the layout routes would refuse is answered, not refused
     * (the page asks alongside the layout, before it knows). */
    if (api_swz_args(req, &z, err) < 0 || api_geom_args(req, &z, &g, err) < 0) {
        if (!fit || err->code != SZ_INVALID_ARGUMENT)
            return -1;
        buf_puts(out, "{\"fits\":false,\"why\":");
        api_put_error(out, err);     /* invalid_argument, as tested above */
        buf_putc(out, '}');
        return 0;
    }
    struct rec_work *w = calloc(1, sizeof *w);
    if (w == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    w->names[0] = names[0], w->names[1] = names[1];
    w->rows = g.rows, w->row_bytes = g.row_bytes;
    w->bank_bytes = g.bank_bytes, w->banks = g.banks;
    w->elem_bits = given ? bits : rec_default_elem(names);
    w->elem_given = given;
    w->cur = z;
    w->cur_match = g.match_bank_row;
    if (rec_plan(w, err) < 0) {
        free(w);
        if (!fit || err->code != SZ_INVALID_ARGUMENT)
            return -1;
        /* fit=1: the view is fine, the recommender cannot take it: say why */
        return put_cannot(out, names, err);
    }
    /* A deterministic bound on one request's work (issue 36): past it the
     * search stops and its partial results are refused, never shown. */
    struct rec_meter meter = {.budget = REC_MAX_WORK};
    w->meter = &meter;
    rec_search(w);
    if (meter.over) {
        free(w);
        sz_fail(err, SZ_TOO_LARGE, "rows", "the search of this view needs more than %u units "
                "of work (warp instructions costed): use fewer rows", REC_MAX_WORK);
        if (!fit)
            return -1;
        return put_cannot(out, names, err);
    }
    /* The answer lists every distinct candidate (up to REC_MAX_CANDS): its
     * bound, and the search's work held meanwhile, from the answer budget
     * before it is built (issue 36 item 3). */
    if (api_reserve(req, (size_t)w->n * REC_CAND_JSON_MAX + REC_REST_JSON_MAX + sizeof *w,
                    err) < 0) {
        free(w);
        return -1;
    }
    buf_printf(out, "{%s\"write\":", fit ? "\"fits\":true," : "");
    buf_json_str(out, names[0]);
    buf_puts(out, ",\"read\":");
    buf_json_str(out, names[1]);
    buf_printf(out, ",\"tile\":{\"rows\":%u,\"row_bytes\":%u,\"bytes\":%llu,\"element_bits\":%d,"
               "\"element_given\":%s,\"columns\":%u},", w->rows, w->row_bytes,
               (unsigned long long)w->rows * w->row_bytes, w->elem_bits, given ? "true" : "false",
               w->row_bytes * 8 / (uint32_t)w->elem_bits);
    buf_puts(out, "\"scope\":\"every register step of both patterns: wavefronts summed over the "
             "instructions one warp issues for the tile\",\"rank\":\"fewest write + read "
             "wavefronts over the tile, then fewest cycles, then fewest swizzle bits (B); the "
             "current swizzle when it ties\",");
    buf_printf(out, "\"searched\":{\"valid\":%d,\"distinct\":%d},\"candidates\":[", w->tried, w->n);
    for (int i = 0; i < w->n; i++) {
        const struct rec_cand *c = &w->c[i];
        buf_puts(out, i ? "," : "");
        put_layout_head(out, c);
        put_sides(out, w, &c->side[0], &c->side[1]);
        buf_putc(out, '}');
    }
    buf_printf(out, "],\"best\":%d,\"current\":", w->best);
    if (w->cur_index == 0) {
        buf_puts(out, "0");
    } else {
        buf_puts(out, "null,\"current_why\":");
        buf_json_str(out, w->cur_why ? w->cur_why : "it repeats another candidate");
    }
    put_bound(out, w);
    put_recommended(out, w);
    put_fixes(out, w);
    buf_putc(out, '}');
    free(w);
    return 0;
}
