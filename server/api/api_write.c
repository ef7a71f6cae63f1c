/* api_write.c - the answer writers that more than one route uses, in one file as
 * redis keeps its reply writers for every command file: keys, the names of a
 * swizzle, lanes, the cost object, F2 bases, a distributed layout's bases and
 * a pasted layout's coordinates.
 * Each writes JSON text into a buf from what the core computed; none reads a
 * request or computes a number, and none is a route (api_routes.h's are). */
#include "api_write.h"

#include <stdint.h>
#include <stdio.h>

#include "layout/layout.h"
#include "linear/linear.h"
#include "model/access.h"
#include "model/atomic.h"
#include "model/atomic_form.h"
#include "model/instr.h"
#include "model/presets.h"
#include "model/swizzle.h"
#include "model/verdict.h"
#include "triton/triton_dist.h"

/* ---- keys and names ------------------------------------------------------ */

void api_put_key(struct buf *out, const char *key)
{
    buf_json_str(out, key);
    buf_putc(out, ':');
}

void api_put_str_or_null(struct buf *out, const char *key, const char *v)
{
    api_put_key(out, key);
    if (v)
        buf_json_str(out, v);
    else
        buf_puts(out, "null");
}

/* The widest element the answer gives a form for: 2^3 = 8 bytes (fp64). */
#define ELEM_LOG_MAX 3

void api_put_hardware(struct buf *out, const struct preset *p)
{
    buf_puts(out, "{\"preset\":");
    buf_json_str(out, p->id);
    buf_putc(out, ',');
    api_put_str_or_null(out, "tma", p->tma);
    buf_putc(out, ',');
    api_put_str_or_null(out, "tma_cuda", p->tma_cuda);
    buf_putc(out, ',');
    api_put_str_or_null(out, "tma_status", p->tma_status);
    buf_printf(out, ",\"gmma\":%d,", p->gmma);
    api_put_str_or_null(out, "gmma_name", p->gmma_name);
    buf_putc(out, ',');
    api_put_str_or_null(out, "gmma_atom", p->gmma_atom);
    buf_printf(out, ",\"umma\":%d,", p->umma);
    api_put_str_or_null(out, "umma_name", p->umma_name);
    buf_putc(out, ',');
    api_put_str_or_null(out, "umma_words", p->umma_words);
    buf_putc(out, '}');
}

void api_put_names(struct buf *out, const struct swz *z)
{
    const struct preset *p = presets_find(z->b, z->m, z->s);
    buf_puts(out, "\"hardware\":");
    if (p)
        api_put_hardware(out, p);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"elements\":[");
    for (int k = 0; k <= ELEM_LOG_MAX; k++) {
        struct swz e;
        buf_printf(out, "%s{\"bytes\":%u,\"log2\":%d,", k ? "," : "", 1u << k, k);
        if (swz_on_elements(z, k, &e, NULL) == 0)
            buf_printf(out, "\"ok\":true,\"b\":%d,\"m\":%d,\"s\":%d,"
                       "\"name\":\"Swizzle<%d,%d,%d>\"}", e.b, e.m, e.s, e.b, e.m, e.s);
        else
            buf_printf(out, "\"ok\":false,\"needs_m\":%d}", k);
    }
    buf_putc(out, ']');
}

/* ---- the cost object ----------------------------------------------------- */

void api_put_ints(struct buf *out, const int64_t *v, int n)
{
    buf_putc(out, '[');
    for (int d = 0; d < n; d++) {
        if (d)
            buf_putc(out, ',');
        buf_i64(out, v[d]);
    }
    buf_putc(out, ']');
}

void api_put_lanes(struct buf *out, uint32_t mask)
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
    char form[32], verdict[640], operand[64];
    buf_printf(out, "\"func\":\"%s\",\"type\":\"%s\",\"form\":\"%s\",\"native\":%s,",
               instr_func_name(in->func), instr_type_name(in->type),
               instr_form_name(in, form, sizeof form), a->native ? "true" : "false");
    buf_printf(out, "%s,\"atomic\":{\"native\":%s,\"sass\":\"%s\","
               "\"merges\":%s,\"lanes_per_address\":%u,",
               atomic_form_json(in, operand, sizeof operand), a->native ? "true" : "false", a->sass,
               a->merges ? "true" : "false", a->lanes_per_address);
    /* cycles_exact: the model's cycles hold within 2% for every measured row of
     * the class (access.c, A5-A10); a loop form has no count to be exact.
     * pipe_cycles and branch_cycles: the cost with no branch per atomic, and
     * what the branch around each adds (A10, A11). */
    if (a->native)
        buf_printf(out, "\"conflict_wavefronts\":%u,\"serial_wavefronts\":%u,"
                   "\"cycles_floor\":%.2f,\"floor_measured\":\"%s\",\"cycles_exact\":%s,"
                   "\"pipe_cycles\":%.2f,\"branch_cycles\":%.2f,",
                   a->conflict_wavefronts, a->serial_wavefronts, a->floor, a->floor_pin,
                   a->cycles_exact ? "true" : "false", a->pipe_cycles,
                   a->cycles - a->pipe_cycles);
    else
        buf_puts(out, "\"conflict_wavefronts\":null,\"serial_wavefronts\":null,"
                 "\"cycles_floor\":null,\"floor_measured\":null,\"cycles_exact\":false,"
                 "\"pipe_cycles\":null,\"branch_cycles\":null,");
    /* only where the client asked for a warp count: every other answer keeps
     * its bytes (A14, atomic_warps.c) */
    if (a->native && a->warps)
        buf_printf(out, "\"warps\":%u,\"warps_bound\":\"%s\",", a->warps, a->warps_bound);
    buf_puts(out, "\"verdict\":");
    buf_json_str(out, atomic_verdict(in, r, verdict, sizeof verdict));
    buf_puts(out, "},");
}

void api_put_cost(struct buf *out, const struct instr *in, const struct acc_result *r)
{
    /* a non-native atomic has no exact count: nulls, never an invented number */
    int known = !r->atomic.is_atomic || r->atomic.native;
    buf_printf(out, "{\"op\":\"%s\",\"bytes\":%u,\"matrices\":%u,\"trans\":%s,"
               "\"bank_bytes\":%u,\"banks\":%u,\"calibrated\":%s,\"verdict_class\":\"%s\",",
               instr_op_name(in->op), in->bytes, in->matrices, in->trans ? "true" : "false",
               in->bank_bytes, in->banks, r->calibrated ? "true" : "false",
               verdict_name(verdict_of(r)));
    if (r->atomic.is_atomic)
        put_atomic(out, in, r);
    if (instr_is_copy(in->op)) {
        /* cp.async: the SASS (cuobjdump, tests/calib/cp_async) and the global side */
        static const char *const sass[] = {"LDGSTS.E", "LDGSTS.E.64", "LDGSTS.E.128"};
        buf_printf(out, "\"cache\":\"%s\",\"sass\":\"%s\",\"global_offsets\":",
                   in->cg ? "cg" : "ca", in->cg ? "LDGSTS.E.BYPASS.128"
                                                : sass[in->bytes == 4 ? 0 : in->bytes == 8 ? 1 : 2]);
        buf_u32_array(out, in->global_offsets, INSTR_LANES);
        /* access.c, C3: exact where both sides are F2-affine in the lane */
        buf_printf(out, ",\"wavefronts_exact\":%s,", r->copy_exact ? "true" : "false");
        /* C4: the pipe's count (cycles) where the hardware counter reads more */
        buf_printf(out, "\"cycles_exact\":%s,", r->copy_cycles_exact ? "true" : "false");
    }
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
        api_put_lanes(out, ph->lane_mask);
        buf_puts(out, ",\"active\":");
        api_put_lanes(out, ph->active_mask);
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
    /* The kind's row names the metrics; null where it names none (atom and
     * red: no bank-conflict counter was measured, instr.c). */
    const struct instr_ncu *m = &instr_kind(in->op)->ncu;
    const char *const metric[][2] = {{"wavefronts_metric", m->wavefronts},
                                     {"conflicts_metric", m->conflicts},
                                     {"source_metric", m->source}};
    buf_puts(out, ",\"ncu\":{");
    for (size_t k = 0; k < sizeof metric / sizeof metric[0]; k++) {
        api_put_str_or_null(out, metric[k][0], metric[k][1]);
        buf_putc(out, ',');
    }
    put_count(out, "wavefronts_per_instruction", known, r->wavefronts);
    put_count(out, "conflicts_per_instruction", known, r->bank_conflicts);
    if (known)
        buf_printf(out, "\"source_wavefronts_per_instruction\":%u}}", r->source_wavefronts);
    else
        buf_puts(out, "\"source_wavefronts_per_instruction\":null}}");
}

/* ---- bases --------------------------------------------------------------- */

void api_put_bases(struct buf *out, const struct lin_tile *t, const uint32_t *v, int n)
{
    buf_putc(out, '[');
    for (int i = 0; i < n; i++) {
        uint32_t c0, c1;
        lin_coords(t, v[i], &c0, &c1);
        buf_printf(out, "%s[%u,%u]", i ? "," : "", c0, c1);
    }
    buf_putc(out, ']');
}

static void put_bases(struct buf *out, const struct td_layout *l, int in)
{
    buf_putc(out, '[');
    for (int i = 0; i < l->n[in]; i++) {
        buf_puts(out, i ? ",[" : "[");
        for (int d = 0; d < l->rank; d++)
            buf_printf(out, "%s%d", d ? "," : "", l->b[in][i][d]);
        buf_putc(out, ']');
    }
    buf_putc(out, ']');
}

void api_put_dist(struct buf *out, const struct td_layout *l)
{
    static const char *const names[TLL_NIN] = {"register", "lane", "warp", "block"};
    buf_printf(out, "\"encoding\":\"%s\",\"shape\":", l->encoding);
    api_put_ints(out, l->shape, l->rank);
    buf_printf(out, ",\"lanes_per_warp\":%d,\"warps\":%d", l->lanes, l->warps);
    for (int in = 0; in < TLL_NIN; in++) {
        buf_printf(out, ",\"%s\":", names[in]);
        put_bases(out, l, in);
    }
}

/* ---- coordinates --------------------------------------------------------- */

void api_put_coords(struct buf *out, const struct lay *l, uint32_t i)
{
    uint32_t c[LAY_MAX_RANK];
    lay_coords(l, i, c);
    buf_u32_array(out, c, (size_t)l->rank);
}

void api_put_error(struct buf *out, const struct sz_error *e)
{
    buf_puts(out, "{\"code\":");
    buf_json_str(out, sz_code_name(e->code));
    buf_puts(out, ",\"field\":");
    buf_json_str(out, e->field);
    buf_puts(out, ",\"message\":");
    buf_json_str(out, e->message);
    if (e->line > 0 && e->column > 0)   /* where in the pasted text (issue 37) */
        buf_printf(out, ",\"at\":{\"line\":%d,\"column\":%d}", e->line, e->column);
    buf_putc(out, '}');
}
