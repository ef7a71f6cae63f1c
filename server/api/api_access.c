/* api_access.c - the access routes over a layout: the named patterns, a
 * pattern, expression or given offsets and the cells it touches
 * (/api/access; its fit= answer is api_fit.c's, compare= api_compare.c's,
 * both declared in api_write.h; a named pattern is read by api_read_layout.c),
 * the column trace (/api/trace).  Costs come from access.c (written by
 * api_write.c), cells from footprint.c, the trace from trace.c: this file only
 * reads requests and writes answers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/access.h"
#include "api_read.h"
#include "api_read_layout.h"
#include "api_routes.h"
#include "api_write.h"
#include "model/expr.h"
#include "model/footprint.h"
#include "model/pattern.h"
#include "recommend/recommend.h"
#include "model/swizzle.h"
#include "model/trace.h"

/* ---- access patterns over a layout ------------------------------------- */

int api_route_patterns(const struct api_request *req, struct buf *out,
                          struct sz_error *err)
{
    static const char *const known[] = {NULL};
    if (api_args_check(req, known, err) < 0)
        return -1;
    int n;
    const struct pattern *p = pattern_list(&n);
    buf_puts(out, "{\"patterns\":[");
    for (int i = 0; i < n; i++) {
        buf_puts(out, i ? ",{\"name\":" : "{\"name\":");
        buf_json_str(out, p[i].name);
        buf_puts(out, ",\"op\":");
        buf_json_str(out, instr_op_name(p[i].op));
        if (instr_is_atomic(p[i].op)) {
            buf_puts(out, ",\"func\":");
            buf_json_str(out, instr_func_name(p[i].func));
            buf_puts(out, ",\"type\":");
            buf_json_str(out, instr_type_name(p[i].type));
        }
        buf_puts(out, ",\"label\":");
        buf_json_str(out, p[i].label);
        buf_puts(out, ",\"source\":");
        buf_json_str(out, p[i].source);
        buf_putc(out, '}');
    }
    /* writes that are no warp instruction: only /api/recommend takes them */
    buf_puts(out, "],\"producers\":[{\"name\":\"" REC_TMA "\",\"op\":\"tma\",\"label\":"
             "\"TMA: cp.async.bulk.tensor writes the tile (a box of its rows)\",\"source\":"
             "\"Hopper and later tile loads; only the TMA swizzle modes can be written\","
             "\"note\":\"TMA writes through the async proxy, not warp instructions: there is "
             "no step to cost here (not modelled or measured); the recommendation keeps to "
             "the layouts TMA writes\",\"recommend_only\":true}]}");
    return 0;
}

/* swz() inside an access expression: the swizzle of the current view. */
static int expr_swz(void *ctx, int64_t x, int64_t *out, struct sz_error *err)
{
    if (x < 0 || x >= (int64_t)SZ_OFFSET_LIMIT)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "expr",
                       "offset %lld is outside 0..2147483647", (long long)x);
    *out = swz_apply(ctx, (uint32_t)x);
    return 0;
}

/* The instruction of a custom access (expr or offsets): `op` (default ld),
 * `func` and `type` (atom/red only; add, u32), `bytes` (default: the
 * schema's for the op, the type's for an atomic) and `matrices`, the view's
 * banks.  The shape is left to instr_check_shape, so that the caller orders
 * the checks. */
static int custom_instr(const struct api_request *req, struct instr *in, struct sz_error *err)
{
    const char *opname = api_arg(req, "op");
    enum instr_op op = INSTR_LD;
    if (opname && instr_op_parse(opname, &op, err) < 0)
        return -1;
    /* The defaults and the op/width rules are the schema's (instr.c). */
    uint32_t bank_bytes = in->bank_bytes, banks = in->banks;
    instr_defaults(in, op);
    in->bank_bytes = bank_bytes;
    in->banks = banks;
    const char *func = api_arg(req, "func"), *type = api_arg(req, "type");
    if ((func || type) && !instr_is_atomic(op))
        return sz_fail(err, SZ_INVALID_ARGUMENT, func ? "func" : "type",
                       "only op=atom and op=red take func and type");
    if ((func && instr_func_parse(func, &in->func, err) < 0) ||
        (type && instr_type_parse(type, &in->type, err) < 0))
        return -1;
    if (instr_is_atomic(op))
        in->bytes = instr_type_bytes(in->type);
    long bytes, matrices;
    if (api_arg_int(req, "bytes", 1, 16, 0, in->bytes, &bytes, err) < 0 ||
        api_arg_int(req, "matrices", 1, 4, 0, in->matrices, &matrices, err) < 0)
        return -1;
    in->bytes = (uint32_t)bytes;
    in->matrices = (uint32_t)matrices;
    return 0;
}

/* A custom pattern: `expr` in t and r gives each lane's byte offset; `op`,
 * `bytes`, `matrices` name the instruction, `steps` how many r there are. */
static int access_from_expr(const struct api_request *req, struct swz *z, long step,
                            struct instr *in, uint32_t *steps, struct sz_error *err)
{
    long nsteps;
    if (custom_instr(req, in, err) < 0 ||
        api_arg_int(req, "steps", 1, 1024, 0, 1, &nsteps, err) < 0)
        return -1;
    if (step >= nsteps)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "step", "must be in 0..%ld, got %ld",
                       nsteps - 1, step);
    if (instr_check_shape(in, err) < 0)
        return -1;
    struct expr e;
    int64_t off[INSTR_LANES];
    if (expr_compile(api_arg(req, "expr"), &e, err) < 0 ||
        expr_eval_warp(&e, step, expr_swz, z, off, err) < 0)
        return -1;
    for (int t = 0; t < INSTR_LANES; t++) {
        if (off[t] < 0 || off[t] >= (int64_t)SZ_OFFSET_LIMIT)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "expr",
                           "lane %d at step %ld gives offset %lld, outside 0..2147483647", t,
                           step, (long long)off[t]);
        in->offsets[t] = (uint32_t)off[t];
    }
    *steps = (uint32_t)nsteps;
    return 0;
}

/* 32 given offsets: one step.  `space=physical` (the default) takes them as
 * they are; `space=logical` as logical byte offsets, each passed through the
 * view's swizzle as a kernel computes its addresses.  Every error names the
 * field `offsets`, and the lane where there is one. */
static int access_from_offsets(const struct api_request *req, const struct swz *z,
                               long step, struct instr *in, uint32_t *steps,
                               struct sz_error *err)
{
    const char *space = api_arg(req, "space");
    int logical = 0;
    if (space && strcmp(space, "logical") == 0)
        logical = 1;
    else if (space && strcmp(space, "physical") != 0) {
        char echo[41];
        sz_echo(echo, sizeof echo, space, strlen(space));
        return sz_fail(err, SZ_INVALID_ARGUMENT, "space",
                       "must be logical or physical, got \"%s\"", echo);
    }
    if (api_arg(req, "steps"))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "steps",
                       "32 given offsets are one step; steps goes with expr");
    if (custom_instr(req, in, err) < 0)
        return -1;
    if (step != 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "step", "must be in 0..0, got %ld", step);
    if (instr_check_shape(in, err) < 0 ||
        api_arg_offsets(req, "offsets", in->offsets, err) < 0)
        return -1;
    if (logical)
        for (int t = 0; t < INSTR_LANES; t++)
            if (in->offsets[t] != INSTR_INACTIVE)
                in->offsets[t] = swz_apply(z, in->offsets[t]);
    if (instr_check(in, err) < 0) {
        /* instr_check names "offsets[N]"; this form has one field, "offsets" */
        if (strncmp(err->field, "offsets[", 8) == 0) {
            struct sz_error lane = *err;
            return sz_fail(err, lane.code, "offsets", "lane %ld: %s",
                           strtol(lane.field + 8, NULL, 10), lane.message);
        }
        return -1;
    }
    *steps = 1;
    return 0;
}

/* The cells the instruction touches on the grid (footprint.c). */
static void put_cells(struct buf *out, const struct footprint *fp)
{
    buf_puts(out, "\"cells\":{\"slots\":[");
    for (uint32_t i = 0; i < fp->nslots; i++) {
        const struct footprint_slot *c = &fp->slot[i];
        buf_printf(out, "%s{\"slot\":%u,\"logical\":%u,\"phase\":%d,\"lanes\":",
                   i ? "," : "", c->slot, c->logical, c->phase);
        api_put_lanes(out, c->lanes);
        buf_putc(out, '}');
    }
    buf_printf(out, "],\"outside\":%u}", fp->outside);
}

/* The 32 lane offsets, comma-separated, null for an idle lane; each passed
 * through `through` when it is not NULL. */
static void put_offsets(struct buf *out, const struct instr *in, const struct swz *through)
{
    for (int t = 0; t < INSTR_LANES; t++) {
        if (t)
            buf_putc(out, ',');
        if (in->offsets[t] == INSTR_INACTIVE)
            buf_puts(out, "null");
        else
            buf_i64(out, through ? swz_apply(through, in->offsets[t]) : in->offsets[t]);
    }
}

int api_route_access(const struct api_request *req, struct buf *out,
                        struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks", "rows",
                                        "match_bank_row", "pattern", "step", "expr",
                                        "offsets", "op", "bytes", "matrices", "steps",
                                        "func", "type", "space", "fit", "compare", NULL};
    struct swz z;
    struct swz_geom g;
    long step;
    int fit = 0;
    if (api_args_check(req, known, err) < 0 || api_arg_bool(req, "fit", &fit, err) < 0)
        return -1;
    const char *name = api_arg(req, "pattern");
    /* fit=1: a view the layout routes would refuse is answered, not refused. */
    if (api_swz_args(req, &z, err) < 0 || api_geom_args(req, &z, &g, err) < 0)
        return fit && err->code == SZ_INVALID_ARGUMENT ? api_put_unfit(req, out, NULL, 0, err) : -1;
    if (api_arg_int(req, "step", 0, SWZ_MAX_CELLS, 0, 0, &step, err) < 0)
        return -1;
    const char *expr = api_arg(req, "expr");
    const char *offsets = api_arg(req, "offsets");
    const char *compare = api_arg(req, "compare");
    struct instr in = {.bank_bytes = g.bank_bytes, .banks = g.banks};
    uint32_t steps;
    if (name && expr)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "expr",
                       "give either pattern or expr, not both");
    if (offsets && (name || expr))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "offsets",
                       "give one of pattern, expr or offsets, not two");
    if (api_arg(req, "space") && !offsets)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "space",
                       "space goes with offsets (a pattern or expr says its own)");
    if (offsets) {
        if (access_from_offsets(req, &z, step, &in, &steps, err) < 0)
            return -1;
        name = "offsets";
    } else if (expr) {
        if (access_from_expr(req, &z, step, &in, &steps, err) < 0)
            return -1;
        name = "custom";
    } else {
        if (name == NULL)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "pattern",
                           "required (or expr, or offsets): see GET /api/patterns for "
                           "the list");
        for (const char *k = "op\0bytes\0matrices\0steps\0func\0type\0"; *k; k += strlen(k) + 1)
            if (api_arg(req, k))
                return sz_fail(err, SZ_INVALID_ARGUMENT, k,
                               "named patterns fix the instruction; %s goes with expr", k);
        if (api_pattern_on(name, &z, &g, (uint32_t)step, &in, &steps, err) < 0) {
            /* An unknown pattern or a step past the end is the client's mistake
             * even with fit=1; a tile too small for the pattern is an answer. */
            if (fit && strcmp(err->field, "pattern") != 0 && strcmp(err->field, "step") != 0)
                return api_put_unfit(req, out, name, (long)g.rows, err);
            return -1;
        }
    }
    if (instr_check(&in, err) < 0)
        return -1;
    struct acc_result r;
    struct footprint fp;
    acc_cost(&in, &r);
    footprint_of(&in, &r, &z, &g, &fp);
    buf_puts(out, "{\"pattern\":");
    buf_json_str(out, name);
    /* a named pattern says in words what the warp does (the page's first
     * sentence leads with it, before the name and step) */
    const struct pattern *named = offsets || expr ? NULL : pattern_find(name);
    if (named) {
        buf_puts(out, ",\"label\":");
        buf_json_str(out, named->label);
    }
    buf_printf(out, ",%s\"step\":%ld,\"steps\":%u,\"row_bytes\":%u,\"offsets\":[",
               fit ? "\"fits\":true," : "", step, steps, g.row_bytes);
    put_offsets(out, &in, NULL);
    /* The same lanes as logical offsets (the swizzle is an involution): what a
     * client types to ask for this access with space=logical. */
    buf_puts(out, "],\"logical\":[");
    put_offsets(out, &in, &z);
    buf_puts(out, "],\"cost\":");
    api_put_cost(out, &in, &r);
    buf_putc(out, ',');
    put_cells(out, &fp);
    if (compare) {
        buf_putc(out, ',');
        if (api_put_compare(out, compare, &in, &z, err) < 0)
            return -1;
    }
    buf_putc(out, '}');
    return 0;
}

/* ---- the column trace ------------------------------------------------------ */

static void put_unit(struct buf *out, const char *key, const struct trace_unit *u)
{
    buf_printf(out, "\"%s\":{\"slot\":%u,\"row\":%u,\"col\":%u,\"banks\":", key,
               u->slot, u->row, u->col);
    buf_u32_array(out, u->bank, u->nbanks);
    buf_putc(out, '}');
}

int api_route_trace(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks", "rows",
                                        "match_bank_row", "col", NULL};
    struct swz z;
    struct swz_geom g;
    long col;
    if (api_args_check(req, known, err) < 0 || api_swz_args(req, &z, err) < 0 ||
        api_geom_args(req, &z, &g, err) < 0 ||
        api_arg_int(req, "col", 0, (long)g.cols - 1, 1, 0, &col, err) < 0)
        return -1;
    struct trace *tr = malloc(sizeof *tr);
    if (tr == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    trace_column(&z, &g, (uint32_t)col, tr);
    buf_printf(out, "{\"col\":%u,\"rows\":%u,\"bytes\":%u,\"per_bank\":%u,\"cells\":[",
               tr->col, tr->rows, tr->bytes, tr->per_bank);
    for (uint32_t r = 0; r < tr->rows; r++) {
        buf_printf(out, r ? ",{\"row\":%u," : "{\"row\":%u,", tr->row[r].row);
        put_unit(out, "plain", &tr->row[r].plain);
        buf_putc(out, ',');
        put_unit(out, "swizzled", &tr->row[r].swizzled);
        buf_putc(out, '}');
    }
    struct acc_result r;
    acc_cost(&tr->plain, &r);
    buf_puts(out, "],\"plain\":");
    api_put_cost(out, &tr->plain, &r);
    acc_cost(&tr->swizzled, &r);
    buf_puts(out, ",\"swizzled\":");
    api_put_cost(out, &tr->swizzled, &r);
    buf_putc(out, '}');
    free(tr);
    return 0;
}
