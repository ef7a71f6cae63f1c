/* api_access.c - the access routes: what one warp instruction costs
 * (/api/conflicts), the named patterns, a pattern, expression or given offsets
 * over a layout and the cells it touches (/api/access), the column trace
 * (/api/trace).  Costs come from access.c, cells from footprint.c, the trace
 * from trace.c: this file only reads requests and writes answers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "api_read.h"
#include "api_routes.h"
#include "expr.h"
#include "footprint.h"
#include "pattern.h"
#include "swizzle.h"
#include "trace.h"

/* A POST body that is one instruction, and no query arguments. */
int api_instr_body(const struct api_request *req, struct instr *in,
                              struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    cJSON *root = NULL;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    int rc = api_read_instr(root, NULL, in, err);
    cJSON_Delete(root);
    return rc;
}


static void put_lane_list(struct buf *out, uint32_t mask)
{
    buf_putc(out, '[');
    int first = 1;
    for (int t = 0; t < INSTR_LANES; t++)
        if (mask >> t & 1) {
            if (!first)
                buf_putc(out, ',');
            buf_i64(out, t);
            first = 0;
        }
    buf_putc(out, ']');
}

/* A count, or null where the model has none (a non-native atomic). */
static void put_count(struct buf *out, const char *key, int known, uint32_t v)
{
    if (known)
        buf_printf(out, "\"%s\":%u,", key, v);
    else
        buf_printf(out, "\"%s\":null,", key);
}

/* What an atomic adds: its form, whether sm_90 runs it natively, and the
 * split the verdict explains (bank conflict versus same-address lanes). */
static void put_atomic(struct buf *out, const struct instr *in, const struct acc_result *r)
{
    const struct acc_atomic *a = &r->atomic;
    char form[32], verdict[640];
    buf_printf(out, "\"func\":\"%s\",\"type\":\"%s\",\"form\":\"%s\",\"native\":%s,"
               "\"atomic\":{\"native\":%s,\"sass\":\"%s\",\"lanes_per_address\":%u,",
               instr_func_name(in->func), instr_type_name(in->type),
               instr_form_name(in, form, sizeof form), a->native ? "true" : "false",
               a->native ? "true" : "false", a->native ? "ATOMS" : "ATOMS.CAST.SPIN loop",
               a->lanes_per_address);
    if (a->native)
        buf_printf(out, "\"conflict_wavefronts\":%u,\"serial_wavefronts\":%u,"
                   "\"cycles_floor\":%.2f,\"floor_measured\":\"%s\",\"cycles_exact\":%s,",
                   a->conflict_wavefronts, a->serial_wavefronts, a->floor, a->floor_pin,
                   a->cycles_exact ? "true" : "false");
    else
        buf_puts(out, "\"conflict_wavefronts\":null,\"serial_wavefronts\":null,"
                 "\"cycles_floor\":null,\"floor_measured\":null,\"cycles_exact\":false,");
    buf_puts(out, "\"verdict\":");
    buf_json_str(out, acc_atomic_verdict(in, r, verdict, sizeof verdict));
    buf_puts(out, "},");
}

void api_put_cost(struct buf *out, const struct instr *in, const struct acc_result *r)
{
    /* a non-native atomic has no exact count: nulls, never an invented number */
    int known = !r->atomic.is_atomic || r->atomic.native;
    buf_printf(out, "{\"op\":\"%s\",\"bytes\":%u,\"matrices\":%u,\"trans\":%s,"
               "\"bank_bytes\":%u,\"banks\":%u,\"calibrated\":%s,",
               instr_op_name(in->op), in->bytes, in->matrices, in->trans ? "true" : "false",
               in->bank_bytes, in->banks, r->calibrated ? "true" : "false");
    if (r->atomic.is_atomic)
        put_atomic(out, in, r);
    put_count(out, "wavefronts", known, r->wavefronts);
    put_count(out, "ideal_wavefronts", known, r->ideal_wavefronts);
    put_count(out, "bank_conflicts", known, r->bank_conflicts);
    if (!known)
        buf_puts(out, "\"cycles\":null,");
    else if (r->atomic.is_atomic)
        buf_printf(out, "\"cycles\":%.2f,", r->atomic.cycles);
    else
        buf_printf(out, "\"cycles\":%u,", r->cycles);
    put_count(out, "source_wavefronts", known, r->source_wavefronts);
    buf_printf(out, "\"paired\":%s,\"ways\":%u,\"phases\":[", r->paired ? "true" : "false",
               r->ways);
    for (uint32_t p = 0; p < r->nphases; p++) {
        const struct acc_phase *ph = &r->phases[p];
        buf_puts(out, p ? ",{\"lanes\":" : "{\"lanes\":");
        put_lane_list(out, ph->lane_mask);
        buf_puts(out, ",\"active\":");
        put_lane_list(out, ph->active_mask);
        buf_putc(out, ',');
        put_count(out, "wavefronts", known, ph->wavefronts);
        put_count(out, "cycles", known, ph->cycles);
        buf_printf(out, "\"words\":%u,\"max_per_bank\":%u,\"worst_bank\":%u,"
                   "\"lanes_per_bank\":%u,\"lanes_per_address\":%u,\"reason\":\"%s\"}",
                   ph->words, ph->max_per_bank, ph->worst_bank, ph->lanes_per_bank,
                   ph->lanes_per_address, acc_reason_name(ph->reason));
    }
    buf_puts(out, "],\"lanes\":[");
    for (int t = 0; t < INSTR_LANES; t++) {
        uint32_t o = in->offsets[t];
        if (t)
            buf_putc(out, ',');
        if (o == INSTR_INACTIVE || r->lane_phase[t] < 0) {
            buf_printf(out, "{\"lane\":%d,\"offset\":%s,\"active\":false}", t,
                       o == INSTR_INACTIVE ? "null" : "0");
            continue;
        }
        buf_printf(out, "{\"lane\":%d,\"offset\":%u,\"active\":true,\"phase\":%d,"
                   "\"pass\":%d,\"bank\":%u,\"nbanks\":%u}",
                   t, o, r->lane_phase[t], r->lane_pass[t], r->lane_bank[t], r->lane_nbanks[t]);
    }
    buf_puts(out, "],\"bank_hits\":");
    buf_u32_array(out, r->bank_hits, in->banks);
    buf_printf(out, ",\"ncu\":{\"wavefronts_metric\":\"%s\",\"conflicts_metric\":\"%s\","
               "\"source_metric\":\"%s\",", acc_ncu_wavefront_metric(in->op),
               acc_ncu_conflict_metric(in->op), acc_ncu_source_metric(in->op));
    put_count(out, "wavefronts_per_instruction", known, r->wavefronts);
    put_count(out, "conflicts_per_instruction", known, r->bank_conflicts);
    if (known)
        buf_printf(out, "\"source_wavefronts_per_instruction\":%u}}", r->source_wavefronts);
    else
        buf_puts(out, "\"source_wavefronts_per_instruction\":null}}");
}

int api_route_conflicts(const struct api_request *req, struct buf *out,
                           struct sz_error *err)
{
    struct instr in;
    if (api_instr_body(req, &in, err) < 0)
        return -1;
    struct acc_result r;
    acc_cost(&in, &r);
    api_put_cost(out, &in, &r);
    return 0;
}

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
    buf_puts(out, "]}");
    return 0;
}

/* swz() inside an access expression: the swizzle of the current view. */
static int expr_swz(void *ctx, int64_t x, int64_t *out, struct sz_error *err)
{
    if (x < 0 || x >= (int64_t)SWZ_OFFSET_LIMIT)
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
        if (off[t] < 0 || off[t] >= (int64_t)SWZ_OFFSET_LIMIT)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "expr",
                           "lane %d at step %ld gives offset %lld, outside 0..2147483647", t,
                           step, (long long)off[t]);
        in->offsets[t] = (uint32_t)off[t];
    }
    *steps = (uint32_t)nsteps;
    return 0;
}

/* 32 given offsets, taken as physical byte offsets: one step.  Every error
 * names the field `offsets`, and the lane where there is one. */
static int access_from_offsets(const struct api_request *req, long step, struct instr *in,
                               uint32_t *steps, struct sz_error *err)
{
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
        put_lane_list(out, c->lanes);
        buf_putc(out, '}');
    }
    buf_printf(out, "],\"outside\":%u}", fp->outside);
}

int api_route_access(const struct api_request *req, struct buf *out,
                        struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks", "rows",
                                        "match_bank_row", "pattern", "step", "expr",
                                        "offsets", "op", "bytes", "matrices", "steps",
                                        "func", "type", NULL};
    struct swz z;
    struct swz_geom g;
    long step;
    if (api_args_check(req, known, err) < 0 || api_swz_args(req, &z, err) < 0 ||
        api_geom_args(req, &z, &g, err) < 0 ||
        api_arg_int(req, "step", 0, SWZ_MAX_CELLS, 0, 0, &step, err) < 0)
        return -1;
    const char *name = api_arg(req, "pattern");
    const char *expr = api_arg(req, "expr");
    const char *offsets = api_arg(req, "offsets");
    struct instr in = {.bank_bytes = g.bank_bytes, .banks = g.banks};
    uint32_t steps;
    if (name && expr)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "expr",
                       "give either pattern or expr, not both");
    if (offsets && (name || expr))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "offsets",
                       "give one of pattern, expr or offsets, not two");
    if (offsets) {
        if (access_from_offsets(req, step, &in, &steps, err) < 0)
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
        if (pattern_fill(name, &z, g.row_bytes, g.rows, (uint32_t)step, &in, &steps,
                         err) < 0)
            return -1;
        uint32_t w = instr_lane_bytes(&in);
        if (z.b > 0 && g.unit_bytes < w)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "m",
                           "Swizzle<%d,%d,%d> moves %u-byte units, narrower than this "
                           "pattern's %u-byte accesses: the vectors would be torn apart "
                           "(misaligned). Use M >= %d", z.b, z.m, z.s, g.unit_bytes, w,
                           w == 16 ? 4 : w == 8 ? 3 : 2);
    }
    if (instr_check(&in, err) < 0)
        return -1;
    struct acc_result r;
    struct footprint fp;
    acc_cost(&in, &r);
    footprint_of(&in, &r, &z, &g, &fp);
    buf_puts(out, "{\"pattern\":");
    buf_json_str(out, name);
    buf_printf(out, ",\"step\":%ld,\"steps\":%u,\"row_bytes\":%u,\"offsets\":[", step,
               steps, g.row_bytes);
    for (int t = 0; t < INSTR_LANES; t++) {
        if (t)
            buf_putc(out, ',');
        if (in.offsets[t] == INSTR_INACTIVE)
            buf_puts(out, "null");
        else
            buf_i64(out, in.offsets[t]);
    }
    buf_puts(out, "],\"cost\":");
    api_put_cost(out, &in, &r);
    buf_putc(out, ',');
    put_cells(out, &fp);
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
