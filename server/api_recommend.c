/* api_recommend.c - GET /api/recommend: the best Swizzle<B,M,S> for one write
 * and one read pattern on the view's geometry, every candidate tried with both
 * costs, and the Triton swizzled_shared forms of the winner.  The search and
 * the costs are recommend.c's (through pattern.c and access.c): this file only
 * reads the request and writes the answer. */
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_routes.h"
#include "pattern.h"
#include "recommend.h"

static int known_pattern(const struct api_request *req, const char *key, const char **name,
                         struct sz_error *err)
{
    int n;
    const struct pattern *p = pattern_list(&n);
    *name = api_arg(req, key);
    if (*name == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                       "required: a pattern name from GET /api/patterns");
    for (int i = 0; i < n; i++)
        if (strcmp(p[i].name, *name) == 0)
            return 0;
    return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                   "unknown pattern; see GET /api/patterns for the list");
}

static void put_side(struct buf *out, const struct rec_side *sd, int full)
{
    if (!sd->ok) {
        buf_puts(out, "{\"error\":");
        buf_json_str(out, sd->why);
        buf_putc(out, '}');
    } else if (full) {
        api_put_cost(out, &sd->in, &sd->r);
    } else {
        buf_printf(out, "{\"wavefronts\":%u,\"ideal_wavefronts\":%u,\"bank_conflicts\":%u,"
                   "\"cycles\":%u,\"ways\":%u}", sd->r.wavefronts, sd->r.ideal_wavefronts,
                   sd->r.bank_conflicts, sd->r.cycles, sd->r.ways);
    }
}

static void put_head(struct buf *out, const struct rec_cand *c)
{
    buf_printf(out, "{\"b\":%d,\"m\":%d,\"s\":%d,\"name\":\"Swizzle<%d,%d,%d>\",\"origin\":",
               c->b, c->m, c->s, c->b, c->m, c->s);
    buf_json_str(out, c->origin);
}

/* The Triton forms of c for 8-, 16- and 32-bit elements (those that exist). */
static void put_triton(struct buf *out, const struct rec_cand *c)
{
    static const int bits[] = {8, 16, 32};
    int any = 0;
    buf_puts(out, "\"triton\":[");
    for (int i = 0; i < 3; i++) {
        int vec, pp, mp, order[2], shape[2];
        if (!rec_triton(c->b, c->m, c->s, bits[i], &vec, &pp, &mp, order, shape))
            continue;
        buf_printf(out, "%s{\"element_bits\":%d,\"shape\":[%d,%d],\"vec\":%d,\"per_phase\":%d,"
                   "\"max_phase\":%d,\"order\":[%d,%d],\"text\":\"#ttg.swizzled_shared<{vec = %d, "
                   "perPhase = %d, maxPhase = %d, order = [%d, %d]}>\"}", any ? "," : "",
                   bits[i], shape[0], shape[1], vec, pp, mp, order[0], order[1], vec, pp, mp,
                   order[0], order[1]);
        any = 1;
    }
    buf_putc(out, ']');
}

int api_route_recommend(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks", "rows",
                                        "match_bank_row", "write", "read", "fit", NULL};
    struct swz z;
    struct swz_geom g;
    const char *names[2];
    int fit = 0;
    if (api_args_check(req, known, err) < 0 || api_arg_bool(req, "fit", &fit, err) < 0 ||
        known_pattern(req, "write", &names[0], err) < 0 ||
        known_pattern(req, "read", &names[1], err) < 0)
        return -1;
    /* fit=1: a view the layout routes would refuse is answered, not refused
     * (the page asks alongside the layout, before it knows). */
    if (api_swz_args(req, &z, err) < 0 || api_geom_args(req, &z, &g, err) < 0) {
        if (!fit || err->code != SZ_INVALID_ARGUMENT)
            return -1;
        buf_puts(out, "{\"fits\":false,\"why\":{\"code\":\"invalid_argument\",\"field\":");
        buf_json_str(out, err->field);
        buf_puts(out, ",\"message\":");
        buf_json_str(out, err->message);
        buf_puts(out, "}}");
        return 0;
    }
    long rows = api_arg(req, "rows") ? (long)g.rows : 0;
    struct rec_cand *c = malloc(REC_MAX * sizeof *c);
    if (c == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    int n = rec_candidates(&z, c);
    /* each candidate on the grid the view would draw for it (the same rows,
     * or its own default grid when none were asked) */
    for (int i = 0; i < n; i++) {
        struct swz zi;
        struct swz_geom gi;
        struct sz_error e;
        int bad = swz_init(&zi, c[i].b, c[i].m, c[i].s, &e) < 0 ||
                  api_geom_make(&gi, &zi, g.bank_bytes, g.banks, (uint32_t)rows,
                                g.match_bank_row, &e) < 0;
        rec_cost(&c[i], bad ? NULL : &gi, bad ? e.message : NULL, names);
    }
    int best = rec_best(c, n);
    buf_printf(out, "{%s\"write\":", fit ? "\"fits\":true," : "");
    buf_json_str(out, names[0]);
    buf_puts(out, ",\"read\":");
    buf_json_str(out, names[1]);
    buf_puts(out, ",\"step\":0,\"rank\":\"fewest write + read wavefronts, then fewest "
             "swizzle bits (B), then fewest cycles; the current swizzle when it ties\","
             "\"candidates\":[");
    for (int i = 0; i < n; i++) {
        buf_puts(out, i ? "," : "");
        put_head(out, &c[i]);
        buf_puts(out, ",\"write_cost\":");
        put_side(out, &c[i].side[0], 0);
        buf_puts(out, ",\"read_cost\":");
        put_side(out, &c[i].side[1], 0);
        if (c[i].ok)
            buf_printf(out, ",\"total_wavefronts\":%u}", c[i].total);
        else
            buf_puts(out, ",\"total_wavefronts\":null}");
    }
    buf_printf(out, "],\"best\":%d,\"current\":0,\"recommended\":", best);
    if (best < 0) {
        buf_puts(out, "null}");
        free(c);
        return 0;
    }
    put_head(out, &c[best]);
    buf_printf(out, ",\"is_current\":%s,\"total_wavefronts\":%u,\"saves_wavefronts\":",
               best == 0 ? "true" : "false", c[best].total);
    if (c[0].ok)
        buf_printf(out, "%u", c[0].total - c[best].total);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"write_cost\":");
    put_side(out, &c[best].side[0], 1);
    buf_puts(out, ",\"read_cost\":");
    put_side(out, &c[best].side[1], 1);
    buf_putc(out, ',');
    put_triton(out, &c[best]);
    buf_puts(out, "}}");
    free(c);
    return 0;
}
