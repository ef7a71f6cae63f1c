/* api_linear.c - the F2 routes: POST /api/linear/evaluate (what a store layout
 * A and a load layout B cost on a memory layout) and POST /api/linear/optimize
 * (the optimal memory layout for them); evaluate also answers the bank view
 * (the memory by bank, and each side's instruction with its /api/conflicts
 * cost and cells).  A and B are bases or Triton encodings as TTGIR text
 * (api_distributed.c reads those).  Reads with api_read.c, computes with
 * linear.c, writes JSON with buf.c; it holds no layout arithmetic of its own. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "api_read.h"
#include "api_read_layout.h"
#include "api_routes.h"
#include "api_write.h"
#include "linear/linear.h"
#include "linear/linear_conv.h"
#include "linear/linear_opt.h"
#include "recommend/recommend.h"
#include "triton/triton_dist.h"

/* Optional integer member: absent gives def. */
static int opt_int(const cJSON *obj, const char *field, double lo, double hi, int64_t def,
                   int64_t *out, struct sz_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (v == NULL) {
        *out = def;
        return 0;
    }
    return api_num_int(v, field, lo, hi, out, err);
}

static int read_shape(const cJSON *obj, struct lin_tile *t, struct sz_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, "shape");
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 2)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "required, [rows, cols]: two powers of two");
    int64_t v[2];
    for (int i = 0; i < 2; i++) {
        if (api_num_int(cJSON_GetArrayItem(a, i), "shape", 1, 1 << LIN_MAX_BITS, &v[i], err) < 0)
            return -1;
        if (!bits_is_pow2((uint64_t)v[i]))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                           "shape[%d] must be a power of two, got %lld", i, (long long)v[i]);
    }
    t->bits0 = __builtin_ctzll((unsigned long long)v[0]);
    t->bits1 = __builtin_ctzll((unsigned long long)v[1]);
    if (t->bits0 + t->bits1 > LIN_MAX_BITS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "at most 2^%d elements, got %lld x %lld", LIN_MAX_BITS,
                       (long long)v[0], (long long)v[1]);
    return 0;
}

/* An array of [c0, c1] bases inside the tile; `field` names the array. */
static int read_bases(const cJSON *a, const char *field, const struct lin_tile *t, int max,
                      uint32_t *out, int *n, struct sz_error *err)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > max)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "must be an array of at most %d bases [dim0, dim1]", max);
    int k = 0;
    for (const cJSON *it = a->child; it; it = it->next, k++) {
        char f[32];
        int64_t c[2];
        snprintf(f, sizeof f, "%s[%d]", field, k);
        if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2)
            return sz_fail(err, SZ_INVALID_ARGUMENT, f, "must be [dim0, dim1]");
        for (int i = 0; i < 2; i++) {
            int bits = i ? t->bits1 : t->bits0;
            if (api_num_int(cJSON_GetArrayItem(it, i), f, 0, (double)((1 << bits) - 1), &c[i],
                            err) < 0)
                return -1;
        }
        out[k] = lin_elem(t, (uint32_t)c[0], (uint32_t)c[1]);
    }
    *n = k;
    return 0;
}

/* A Triton distributed encoding as TTGIR text, {"layout": TEXT, "aliases":
 * TEXT}, on the request's shape (the top-level "aliases" serve both sides). */
static int read_ttgir_layout(const cJSON *o, const cJSON *root, const char *name,
                             const struct lin_tile *t, struct lin_layout *l, struct sz_error *err)
{
    static const char *const known[] = {"layout", "aliases", NULL};
    const cJSON *al = cJSON_GetObjectItemCaseSensitive(o, "aliases");
    int64_t shape[2] = {(int64_t)1 << t->bits0, (int64_t)1 << t->bits1};
    struct td_layout d;
    if (api_fields_check(o, known, err) < 0)
        return -1;
    if (api_dist_read(cJSON_GetObjectItemCaseSensitive(o, "layout"),
                      al ? al : cJSON_GetObjectItemCaseSensitive(root, "aliases"), shape, 2, &d,
                      err) < 0) {
        char f[sizeof err->field + 8];
        if (snprintf(f, sizeof f, "%s.%s", name, err->field) >= (int)sizeof err->field)
            f[sizeof err->field - 1] = '\0';
        memcpy(err->field, f, sizeof err->field);
        return -1;
    }
    static const char *const dims[LIN_NIN] = {"register", "lane", "warp"};
    for (int in = 0; in < LIN_NIN; in++) {
        if (d.n[in] > LIN_MAX_BASES)
            return sz_fail(err, SZ_INVALID_ARGUMENT, name, "%s.%s has %d bases, at most %d",
                           name, dims[in], d.n[in], LIN_MAX_BASES);
        l->n[in] = d.n[in];
        for (int i = 0; i < d.n[in]; i++)
            l->basis[in][i] = lin_elem(t, (uint32_t)d.b[in][i][0], (uint32_t)d.b[in][i][1]);
    }
    return 0;
}

/* A side's layout, unchecked: raw bases or a TTGIR encoding. */
static int read_layout(const cJSON *obj, const char *name, const struct lin_tile *t,
                       struct lin_layout *l, struct sz_error *err)
{
    static const char *const dims[LIN_NIN] = {"register", "lane", "warp"};
    static const char *const known[] = {"register", "lane", "warp", NULL};
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!cJSON_IsObject(o))
        return sz_fail(err, SZ_INVALID_ARGUMENT, name,
                       "required, {\"register\":[[dim0,dim1],...], \"lane\":[5 or 6 bases], "
                       "\"warp\":[...]} or {\"layout\": TTGIR text}");
    memset(l, 0, sizeof *l);
    if (cJSON_GetObjectItemCaseSensitive(o, "layout"))
        return read_ttgir_layout(o, obj, name, t, l, err);
    if (api_fields_check(o, known, err) < 0)
        return -1;
    for (int in = 0; in < LIN_NIN; in++) {
        char f[32];
        snprintf(f, sizeof f, "%s.%s", name, dims[in]);
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, dims[in]);
        if (a == NULL && in != LIN_LANE)
            continue;
        if (read_bases(a, f, t, LIN_MAX_BASES, l->basis[in], &l->n[in], err) < 0)
            return -1;
    }
    return 0;
}

/* The body both routes share: shape, bitwidth, num_banks, lanes_per_wavefront,
 * A, B.  Without lanes_per_wavefront, A's lanes decide: 6 lane bases are a
 * 64-lane wave. */
static int read_problem(const cJSON *obj, struct lin_problem *p, struct sz_error *err)
{
    int64_t w, nb, lanes;
    memset(p, 0, sizeof *p);
    if (read_shape(obj, &p->tile, err) < 0 ||
        opt_int(obj, "bitwidth", 4, 64, 32, &w, err) < 0 ||
        opt_int(obj, "num_banks", 8, SZ_MAX_BANKS, 32, &nb, err) < 0 ||
        opt_int(obj, "lanes_per_wavefront", 32, 64, 0, &lanes, err) < 0 ||
        read_layout(obj, "A", &p->tile, &p->a, err) < 0 ||
        read_layout(obj, "B", &p->tile, &p->b, err) < 0)
        return -1;
    if (lanes == 0)
        lanes = p->a.n[LIN_LANE] == 6 ? 64 : 32;
    if (lanes != 32 && lanes != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "lanes_per_wavefront",
                       "must be 32 (an NVIDIA warp) or 64 (an AMD wave), got %lld",
                       (long long)lanes);
    if (lanes == 64 && nb != 32 && nb != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "num_banks",
                       "64-lane waves are modelled on 32 banks (MI300) or 64 banks (MI350), "
                       "the LDS whose phase rules are published; got %lld", (long long)nb);
    p->lanes = (int)lanes;
    if (w != 4 && w != 8 && w != 16 && w != 32 && w != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bitwidth", "must be 4, 8, 16, 32 or 64");
    if (!bits_is_pow2((uint64_t)nb))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "num_banks", "must be a power of two");
    p->bitwidth = (int)w;
    p->num_banks = (int)nb;
    int lb = lin_lane_bits(p->lanes);
    return lin_layout_check(&p->tile, &p->a, lb, "A", err) < 0 ||
                   lin_layout_check(&p->tile, &p->b, lb, "B", err) < 0 ? -1 : 0;
}

/* The memory layout: offset bases, or one of the forms people write. */
static int read_mem(const cJSON *obj, const struct lin_problem *p, struct lin_mem *m,
                    struct sz_error *err)
{
    static const char *const forms[] = {"swizzle_offset_bases", "cute", "triton", "nvmma"};
    const cJSON *v = NULL;
    int which = -1;
    for (int i = 0; i < 4; i++) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, forms[i]);
        if (f && v)
            return sz_fail(err, SZ_INVALID_ARGUMENT, forms[i],
                           "give one memory layout: %s or %s, not both", forms[which], forms[i]);
        if (f)
            v = f, which = i;
    }
    int64_t a, b, c;
    if (which == 0) {
        if (read_bases(v, "swizzle_offset_bases", &p->tile, LIN_MAX_BITS, m->basis, &m->n,
                       err) < 0)
            return -1;
        return lin_mem_check(&p->tile, m, "swizzle_offset_bases", err);
    }
    if (which == 1) {
        static const char *const k[] = {"b", "m", "s", NULL};
        if (!cJSON_IsObject(v) || api_fields_check(v, k, err) < 0 ||
            api_field_int(v, "b", 0, SZ_SWZ_B_MAX, &a, err) < 0 ||
            api_field_int(v, "m", 0, SZ_SWZ_M_MAX, &b, err) < 0 ||
            api_field_int(v, "s", -SZ_SWZ_S_MAX, SZ_SWZ_S_MAX, &c, err) < 0)
            return err->code ? -1 : sz_fail(err, SZ_INVALID_ARGUMENT, "cute", "must be {b, m, s}");
        return lin_from_cute(&p->tile, p->bitwidth, (int)a, (int)b, (int)c, m, err);
    }
    if (which == 2) {
        static const char *const k[] = {"vec", "per_phase", "max_phase", "order", NULL};
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(v, "order");
        int order[2] = {1, 0};
        if (!cJSON_IsObject(v) || api_fields_check(v, k, err) < 0 ||
            api_field_int(v, "vec", 1, 1 << 24, &a, err) < 0 ||
            api_field_int(v, "per_phase", 1, 1 << 24, &b, err) < 0 ||
            api_field_int(v, "max_phase", 1, 1 << 24, &c, err) < 0)
            return err->code ? -1 : sz_fail(err, SZ_INVALID_ARGUMENT, "triton",
                                            "must be {vec, per_phase, max_phase, order}");
        if (o) {
            int64_t x;
            if (!cJSON_IsArray(o) || cJSON_GetArraySize(o) != 2)
                return sz_fail(err, SZ_INVALID_ARGUMENT, "order", "must be [1,0] or [0,1]");
            for (int i = 0; i < 2; i++) {
                if (api_num_int(cJSON_GetArrayItem(o, i), "order", 0, 1, &x, err) < 0)
                    return -1;
                order[i] = (int)x;
            }
        }
        return lin_from_triton(&p->tile, (int)a, (int)b, (int)c, order, m, err);
    }
    if (which == 3) {
        static const char *const k[] = {"swizzle_bytes", "transposed", NULL};
        const cJSON *tr = cJSON_GetObjectItemCaseSensitive(v, "transposed");
        if (!cJSON_IsObject(v) || api_fields_check(v, k, err) < 0 ||
            api_field_int(v, "swizzle_bytes", 32, 128, &a, err) < 0)
            return err->code ? -1 : sz_fail(err, SZ_INVALID_ARGUMENT, "nvmma",
                                            "must be {swizzle_bytes, transposed}");
        if (tr && !cJSON_IsBool(tr))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "transposed", "must be true or false");
        return lin_from_nvmma(&p->tile, p->bitwidth, (int)a, cJSON_IsTrue(tr), m, err);
    }
    return sz_fail(err, SZ_INVALID_ARGUMENT, "swizzle_offset_bases",
                   "required: the memory layout as swizzle_offset_bases (or cute, triton, "
                   "nvmma)");
}

/* ---- answers ------------------------------------------------------------- */

static void put_side(struct buf *out, const struct lin_tile *t, const char *op,
                     const struct lin_side *s)
{
    buf_printf(out, "{\"op\":\"%s\",\"wavefronts_per_instruction\":%u,\"lower_bound\":%u,"
               "\"bank_conflicts_per_instruction\":%u,\"bytes_per_lane\":%u,"
               "\"lanes_per_phase\":%u,\"phases\":%u,\"paired\":%s,",
               op, s->wavefronts, s->lower_bound, s->wavefronts - s->lower_bound, s->bytes,
               s->lanes_per_phase, s->phases, s->paired ? "true" : "false");
    buf_printf(out, "\"simulated\":{\"wavefronts_per_instruction\":%u,\"min\":%u,"
               "\"instructions\":%u,\"instructions_simulated\":%u},",
               s->wavefronts, s->wavefronts_min, s->instructions, s->simulated);
    buf_puts(out, "\"segment_basis\":");
    api_put_bases(out, t, s->seg, s->n_seg);
    buf_puts(out, ",\"thread_basis\":");
    api_put_bases(out, t, s->thr, s->n_thr);
    buf_printf(out, ",\"formula\":{\"wavefronts_per_instruction\":%u,\"conflict_dim\":%d,"
               "\"ways\":%u,\"conflict_basis\":", s->formula, s->conflict_dim,
               1u << s->conflict_dim);
    api_put_bases(out, t, s->conflict, s->n_conflict);
    uint32_t lanes[64], nl = lin_phase_lanes(&s->phase, lanes);
    buf_puts(out, "},\"phase_rule\":{\"phase0_lanes\":[");
    for (uint32_t i = 0; i < nl; i++)
        buf_printf(out, "%s%u", i ? "," : "", lanes[i]);
    buf_printf(out, "],\"rule\":\"%s\",\"status\":\"%s\",\"source\":\"%s\"}", s->phase.rule,
               s->phase.published ? lin_published : "measured", s->phase.source);
    buf_printf(out, ",\"lemma_9_4\":{\"wavefronts_per_instruction\":%u,\"dim\":%d,\"ways\":%u},"
               "\"agree\":%s,\"formula_undercounts\":%s}",
               s->lemma, s->lemma_dim, 1u << s->lemma_dim,
               s->formula == s->wavefronts && s->wavefronts_min == s->wavefronts ? "true"
                                                                                  : "false",
               s->undercounts ? "true" : "false");
}

/* The same memory layout in the notations people write, where one exists. */
static void put_equivalents(struct buf *out, const struct lin_problem *p,
                            const struct lin_mem *m)
{
    int b, mm, s, vec, pp, mp, order[2], sw, tr;
    buf_puts(out, "\"equivalents\":{\"cute\":");
    if (lin_to_cute(&p->tile, p->bitwidth, m, &b, &mm, &s))
        buf_printf(out, "{\"b\":%d,\"m\":%d,\"s\":%d,\"name\":\"Swizzle<%d,%d,%d>\"}", b, mm, s,
                   b, mm, s);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"triton\":");
    if (lin_to_triton(&p->tile, m, &vec, &pp, &mp, order))
        buf_printf(out, "{\"vec\":%d,\"per_phase\":%d,\"max_phase\":%d,\"order\":[%d,%d]}", vec,
                   pp, mp, order[0], order[1]);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"nvmma\":");
    if (lin_to_nvmma(&p->tile, p->bitwidth, m, &sw, &tr))
        buf_printf(out, "{\"swizzle_bytes\":%d,\"transposed\":%s}", sw, tr ? "true" : "false");
    else
        buf_puts(out, "null");
    /* every layout has this one: something to paste when the others are null */
    char text[32 * 24 + 64];
    rec_shared_linear(&p->tile, m, text, sizeof text);
    buf_puts(out, ",\"shared_linear\":");
    buf_json_str(out, text);
    buf_puts(out, "},");
}

static void put_eval(struct buf *out, const struct lin_problem *p, const struct lin_mem *m,
                     int vec_bits, const struct lin_side *st, const struct lin_side *ld)
{
    buf_printf(out, "\"shape\":[%u,%u],\"bitwidth\":%d,\"num_banks\":%d,"
               "\"lanes_per_wavefront\":%d,\"vector_elems\":%d,\"offset_bases\":",
               1u << p->tile.bits0, 1u << p->tile.bits1, p->bitwidth, p->num_banks,
               1 << lin_lane_bits(p->lanes), 1 << vec_bits);
    api_put_bases(out, &p->tile, m->basis, m->n);
    buf_putc(out, ',');
    put_equivalents(out, p, m);
    buf_puts(out, "\"store\":");
    put_side(out, &p->tile, "st", st);
    buf_puts(out, ",\"load\":");
    put_side(out, &p->tile, "ld", ld);
    if (p->lanes == 64)
        buf_printf(out, ",\"model\":{\"hardware\":\"AMD %s LDS, %d banks x 4 bytes, 64-lane "
                   "waves\",\"calibrated\":false,\"status\":\"%s\",\"sources\":[\"%s\",\"%s\"]}",
                   p->num_banks == 64 ? "MI350 (CDNA4)" : "MI300 (CDNA3)", p->num_banks,
                   lin_published, st->phase.source, ld->phase.source);
    else
        buf_printf(out, ",\"model\":{\"hardware\":\"NVIDIA shared memory, 4-byte banks, 32-lane "
                   "warps (server/model/access.c)\",\"calibrated\":%s,\"status\":\"%s\"}",
                   p->num_banks == 32 ? "true" : "false",
                   p->num_banks == 32 ? "measured" : "the measured rules on another bank row");
}

/* ---- the bank view (evaluate only) ----------------------------------------- */

#define BANK_VIEW_MAX 65536     /* elements listed: a 256 x 256 tile; the page draws fewer */

/* A lane set of up to 64 lanes: [0,1,...]. */
static void put_lanes64(struct buf *out, uint64_t mask)
{
    buf_putc(out, '[');
    for (int t = 0, first = 1; t < 64; t++)
        if (mask >> t & 1) {
            buf_puts(out, first ? "" : ",");
            buf_i64(out, t);
            first = 0;
        }
    buf_putc(out, ']');
}

/* A 64-lane wave's instruction in the shape of the /api/conflicts answer
 * (the fields the bank view draws), from the published rules' lane detail. */
static void put_published_cost(struct buf *out, const struct lin_problem *p, const char *op,
                               uint32_t bytes, const uint32_t *addr, uint32_t nl,
                               const struct lin_side *s, const struct lin_pub *d)
{
    buf_printf(out, "{\"op\":\"%s\",\"bytes\":%u,\"bank_bytes\":4,\"banks\":%d,"
               "\"calibrated\":false,\"status\":\"%s\",\"source\":\"%s\",\"wavefronts\":%u,"
               "\"ideal_wavefronts\":%u,\"bank_conflicts\":%u,\"ways\":%u,\"phases\":[",
               op, bytes, p->num_banks, lin_published, s->phase.source, d->wavefronts,
               s->lower_bound, d->wavefronts - s->lower_bound, d->ways);
    for (uint32_t r = 0; r < d->nphases; r++) {
        buf_puts(out, r ? ",{\"lanes\":" : "{\"lanes\":");
        put_lanes64(out, d->phase_mask[r]);
        buf_printf(out, ",\"wavefronts\":%u,\"max_per_bank\":%u,\"worst_bank\":%u,"
                   "\"reason\":\"%s\"}", d->phase_wf[r], d->phase_wf[r], d->phase_worst[r],
                   d->phase_wf[r] > 1 ? "conflict" : "clean");
    }
    buf_puts(out, "],\"lanes\":[");
    for (uint32_t t = 0; t < nl; t++)
        buf_printf(out, "%s{\"lane\":%u,\"offset\":%u,\"active\":true,\"phase\":%d,"
                   "\"pass\":%d,\"bank\":%u,\"nbanks\":%u}", t ? "," : "", t, addr[t],
                   d->phase[t], d->pass[t], d->bank[t], d->nbanks[t]);
    buf_puts(out, "]}");
}

/* One instruction of a side as the bank view draws it: which one, its cost
 * (the /api/conflicts answer; for a 64-lane wave the same fields from the
 * published rules), the element slots it touches and, for a warp, the
 * swizzle page's view that shows the same access (offsets taken as
 * physical; null for a wave, which that page does not model). */
static void put_instruction(struct buf *out, const struct lin_problem *p, const struct lin_mem *m,
                            int vec_bits, int is_load, const struct lin_side *s)
{
    struct lin_touch touch[LIN_TOUCH_MAX];     /* 48 KiB: a worker thread has megabytes */
    uint32_t addr[64], bytes, n;
    uint32_t nl = lin_side_addrs(p, m, vec_bits, is_load, s->worst, addr, &bytes);
    const char *op = is_load ? "ld" : "st";
    buf_printf(out, "{\"index\":%llu,\"instructions\":%u,\"op\":\"%s\",\"bytes\":%u,"
               "\"lanes\":%u,\"offsets\":", (unsigned long long)s->worst, s->instructions, op,
               bytes, nl);
    buf_u32_array(out, addr, nl);
    buf_puts(out, ",\"cost\":");
    if (nl == INSTR_LANES) {
        struct instr in;
        struct acc_result r;
        lin_side_instr(p, m, vec_bits, is_load, s->worst, &in, NULL);
        acc_cost(&in, &r);
        api_put_cost(out, &in, &r);
        n = lin_touched(p, m, in.offsets, INSTR_LANES, in.bytes, r.lane_phase, touch);
    } else {
        struct lin_pub d;
        lin_published_detail(&s->phase, p->num_banks, addr, bytes, &d);
        put_published_cost(out, p, op, bytes, addr, nl, s, &d);
        n = lin_touched(p, m, addr, nl, bytes, d.phase, touch);
    }
    buf_puts(out, ",\"cells\":{\"slots\":[");
    for (uint32_t i = 0; i < n; i++) {
        buf_printf(out, "%s{\"slot\":%u,\"logical\":%u,\"phase\":%d,\"lanes\":", i ? "," : "",
                   touch[i].offset, touch[i].elem, touch[i].phase);
        put_lanes64(out, touch[i].lanes);
        buf_putc(out, '}');
    }
    buf_puts(out, "],\"outside\":0},\"access_view\":");
    if (nl == INSTR_LANES) {
        struct lin_plain v;
        lin_plain_view(p, bytes, &v);
        buf_printf(out, "{\"b\":%d,\"m\":%d,\"s\":%d,\"bank_bytes\":4,\"banks\":%d,"
                   "\"rows\":%u,\"match_bank_row\":1,\"space\":\"physical\"}}", v.b, v.m, v.s,
                   p->num_banks, v.rows);
    } else {
        buf_puts(out, "null}");
    }
}

/* The memory layout as the banks hold it, and one instruction of each side on
 * it: the one each side's wavefronts were counted on. */
static void put_bank_view(struct buf *out, const struct lin_problem *p, const struct lin_mem *m,
                          int vec_bits, const struct lin_side *st, const struct lin_side *ld)
{
    struct lin_banks bk;
    uint32_t total = 1u << (p->tile.bits0 + p->tile.bits1);
    uint32_t shown = total < BANK_VIEW_MAX ? total : BANK_VIEW_MAX;
    lin_bank_geom(p, &bk);
    buf_printf(out, ",\"bank_view\":{\"elements\":%u,\"shown\":%u,\"element_bits\":%d,"
               "\"cols\":%u,\"bank_bytes\":4,\"banks\":%d,\"per_bank\":%u,"
               "\"banks_spanned\":%u,\"per_row\":%u,\"rows\":%u,\"shown_rows\":%u,"
               "\"log_of\":[", total, shown, p->bitwidth, 1u << p->tile.bits1, p->num_banks,
               bk.per_bank, bk.spanned, bk.per_row, bk.rows,
               (uint32_t)(((uint64_t)shown + bk.per_row - 1) / bk.per_row));
    for (uint32_t o = 0; o < shown; o++) {
        if (o)
            buf_putc(out, ',');
        buf_i64(out, lin_elem_at(&p->tile, m, o));
    }
    buf_puts(out, "],\"bank_of\":[");
    for (uint32_t o = 0; o < shown; o++) {
        if (o)
            buf_putc(out, ',');
        buf_i64(out, lin_bank_of(p, o));
    }
    buf_putc(out, ']');
    buf_puts(out, ",\"store\":");
    put_instruction(out, p, m, vec_bits, 0, st);
    buf_puts(out, ",\"load\":");
    put_instruction(out, p, m, vec_bits, 1, ld);
    buf_putc(out, '}');
}

/* Bytes of /api/linear/evaluate's answer, at most, for `shown` elements in
 * the bank view: its two lists (an element index below 2^24 and a bank below
 * 128 as text, with their commas: 13 bytes an element), two instructions (each
 * at most 64 offsets, a cost of 64 lanes and LIN_TOUCH_MAX touched slots of
 * 72 bytes and 3 for each of its lanes, 64 lanes x 32 elements in all: under
 * 192 KiB) and 64 KiB for the rest (the evaluation's bases and counts,
 * bounded apart from the tile).  A 4096 x 4096 tile answers 0.57 MB. */
static size_t evaluate_answer_bound(uint32_t shown)
{
    return (size_t)shown * 13 + 2 * ((size_t)192 << 10) + ((size_t)64 << 10);
}

/* What both routes read and answer. */
struct job {
    struct lin_problem p;
    struct lin_mem m;           /* evaluate: the memory layout */
    int vec_bits;               /* evaluate: log2(vec) */
    struct lin_side st, ld;
};

/* The members only one route has. */
static int evaluate_fields(const cJSON *root, struct job *j, struct sz_error *err)
{
    int64_t vec;
    if (opt_int(root, "vec", 1, 16, 1, &vec, err) < 0)
        return -1;
    if (!bits_is_pow2((uint64_t)vec))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "vec", "must be 1, 2, 4, 8 or 16");
    j->vec_bits = __builtin_ctzll((unsigned long long)vec);
    return read_mem(root, &j->p, &j->m, err);
}

/* The body: members checked against `known`, the problem, the route's own. */
static int begin(const struct api_request *req, const char *const *known,
                 int (*own)(const cJSON *, struct job *, struct sz_error *), struct job *j,
                 struct sz_error *err)
{
    cJSON *root;
    if (req->nargs > 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "query", "this route takes a JSON body only");
    if (api_body_object(req, &root, err) < 0)
        return -1;
    int rc = api_fields_check(root, known, err) < 0 || read_problem(root, &j->p, err) < 0 ||
             (own && own(root, j, err) < 0) ? -1 : 0;
    cJSON_Delete(root);
    return rc;
}

int api_route_linear_evaluate(const struct api_request *req, struct buf *out,
                              struct sz_error *err)
{
    static const char *const known[] = {"shape", "bitwidth", "num_banks", "vec", "A", "B",
                                        "swizzle_offset_bases", "cute", "triton", "nvmma",
                                        "lanes_per_wavefront", "aliases", NULL};
    struct job j;
    if (begin(req, known, evaluate_fields, &j, err) < 0 ||
        lin_evaluate(&j.p, &j.m, j.vec_bits, LIN_SIM_MAX, &j.st, &j.ld, err) < 0)
        return -1;
    /* the bank view lists up to BANK_VIEW_MAX elements: its bound from the
     * answer budget before it is built (issue 36 item 3) */
    uint32_t total = 1u << (j.p.tile.bits0 + j.p.tile.bits1);
    if (api_reserve(req, evaluate_answer_bound(total < BANK_VIEW_MAX ? total : BANK_VIEW_MAX),
                    err) < 0)
        return -1;
    buf_putc(out, '{');
    put_eval(out, &j.p, &j.m, j.vec_bits, &j.st, &j.ld);
    put_bank_view(out, &j.p, &j.m, j.vec_bits, &j.st, &j.ld);
    buf_putc(out, '}');
    return 0;
}

int api_route_linear_optimize(const struct api_request *req, struct buf *out,
                              struct sz_error *err)
{
    static const char *const known[] = {"shape", "bitwidth", "num_banks", "A", "B",
                                        "lanes_per_wavefront", "aliases", NULL};
    struct job j;
    struct lin_opt o;
    if (begin(req, known, NULL, &j, err) < 0 || lin_optimize(&j.p, &o, err) < 0 ||
        lin_evaluate(&j.p, &o.mem, o.vec_bits, LIN_SIM_MAX, &j.st, &j.ld, err) < 0)
        return -1;
    buf_putc(out, '{');
    put_eval(out, &j.p, &o.mem, o.vec_bits, &j.st, &j.ld);
    buf_printf(out, ",\"construction\":{\"vector_bits\":%d,\"word_fill_bits\":%d,"
               "\"bank_bits\":%d,\"segment_bits\":%d,\"shared_lane_directions\":%d,"
               "\"pairs\":%d,\"free_directions\":%d,\"padding\":%d,\"conflict_free\":%s}}",
               o.vec_bits, o.fill_bits, o.bank_bits, o.seg_bits, o.n_shared, o.n_pairs,
               o.n_free, o.n_pad, o.conflict_free ? "true" : "false");
    return 0;
}
