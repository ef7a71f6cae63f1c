/* api_ttgir.c - POST /api/ttgir {"text": TTGIR, "part": N}: every
 * shared-memory op of one part of a dump (a lit file's module, a pass of an
 * MLIR_ENABLE_DUMP dump; ttgir_dump.c), each costed as the instruction
 * Triton's lowering emits for it (triton_dist.c, triton_shared.c,
 * triton_access.c: ldmatrix where Triton picks it, else ld/st.shared of
 * Triton's vector width), per instruction, per warp and per CTA, beside
 * Gluon's bank_conflicts number; ops grouped into buffers by SSA value, each
 * buffer with its fix.  An op it cannot cost is listed in "skipped" with the
 * reason, never a failure of the whole dump.  Reads with api_read.c, writes
 * with buf.c. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_routes.h"
#include "api_write.h"
#include "linear/linear.h"
#include "triton/triton_access.h"
#include "triton/triton_cvt_legacy.h"
#include "triton/ttgir_dump.h"

/* Everything one request needs, too large for a request thread's stack. */
struct work {
    struct ta_space sp;
    struct ta_parser *p;       /* &sp.p */
    struct tdump d;
    struct td_layout dist;
    struct tsh_layout sh;
    struct tac_result r;
    struct tac_ldsm ld;
    struct {
        int op;                 /* the first op with these types */
        size_t off, len;        /* its answer in `frags` */
        struct tac_result r;    /* its cost (and its 2-D problem) */
        int ld_ok;              /* costed as ldmatrix (rebuilt from r where needed: */
        uint32_t ld_wf, ld_ideal;   /* 512 of them would not fit the answer budget) */
        int64_t shape[TLL_MAX_RANK];
        int rank;
    } memo[TDUMP_MAX_OPS];
    int op_entry[TDUMP_MAX_OPS];    /* each op's memo entry; -1: skipped */
    int op_group[TDUMP_MAX_OPS];    /* each costed op's buffer */
    int group_key[TDUMP_MAX_OPS];   /* each buffer's root name, or -1 - its first op */
    struct tac_fix fix;
    struct tac_ldsm fix_ld;
    struct tac_result fix_writer, fix_reader;   /* the two sides as the optimizer sees them */
    struct td_layout dist2;         /* a convert_layout's result layout */
    struct tac_convert cvt;
    struct tcl_result lcvt;         /* a Triton 3.0/3.1 convert_layout */
    struct tdump_part part[TDUMP_MAX_PARTS];
};

/* What the text says of the machine: a `cuda:NN` target's NN; 0 for no
 * target (NVIDIA assumed, sm_75 or later: ldmatrix but not stmatrix, which
 * needs sm_90); -1 for AMD (`hip:`) and others, which have neither. */
static int target_cc(const struct tdump *d)
{
    if (d->target == NULL)
        return 0;
    if (d->target_len < 5 || memcmp(d->target, "cuda:", 5))
        return -1;
    int cc = 0;
    for (int i = 5; i < d->target_len && d->target[i] >= '0' && d->target[i] <= '9'; i++)
        cc = cc * 10 + (d->target[i] - '0');
    return cc;
}

/* Triton 3.0/3.1 (the text's triton_gpu dialect) loads a dot operand of an
 * NVIDIA MMA with ldmatrix when MMA16816SmemLoader's canUseLdmatrix holds:
 * 16-bit elements or no transpose, and kWidth = 32 / bits; any other local_load
 * goes through ld.shared.  0 with *why when it does not. */
static int legacy_ldmatrix(struct ta_parser *p, int dist_node, int shared_node, int bits,
                           int rank, const char **why)
{
    int dn, pn, sn;
    struct sz_error e = {0};
    if (ta_resolve(p, dist_node, &dn, &e) < 0 || !ta_is(p, dn, "dot_op")) {
        *why = "Triton 3.0/3.1 uses ldmatrix for dot operands only";
        return 0;
    }
    int par = ta_get(p, dn, "parent"), op = ta_get(p, dn, "opIdx"), kw = ta_get(p, dn, "kWidth");
    if (par < 0 || ta_resolve(p, par, &pn, &e) < 0 || !ta_is(p, pn, "nvidia_mma") || op < 0) {
        *why = "Triton 3.0/3.1 uses ldmatrix for operands of an NVIDIA MMA only";
        return 0;
    }
    if (kw < 0 || p->node[kw].v * bits != 32) {
        *why = "Triton 3.0/3.1 (canUseLdmatrix): kWidth is not 32 / element bits";
        return 0;
    }
    int k_dim = p->node[op].v == 0 ? rank - 1 : rank - 2, order0 = rank - 1;
    if (ta_resolve(p, shared_node, &sn, &e) == 0) {
        int ord = ta_get(p, sn, "order");
        if (ord >= 0 && p->node[ord].first >= 0)
            order0 = (int)p->node[p->node[ord].first].v;
    }
    if (bits != 16 && k_dim != order0) {
        *why = "Triton 3.0/3.1 (canUseLdmatrix): a transposed operand of other than 16 bits";
        return 0;
    }
    return 1;
}

static const char *kind_name(enum tdump_kind k)
{
    switch (k) {
    case TDUMP_LOAD:
        return "local_load";
    case TDUMP_STORE:
        return "local_store";
    case TDUMP_ALLOC:
        return "local_alloc";
    case TDUMP_ASYNC_COPY:
        return "async_copy";
    case TDUMP_CONVERT:
        return "convert_layout";
    case TDUMP_SKIP:
        break;
    }
    return "?";
}

/* The text of node's attribute as written (up to its end on the line). */
static void put_attr_text(struct buf *out, const struct ta_parser *p, int node)
{
    const char *t = p->text[p->node[node].src] + p->node[node].pos;
    size_t n = 0;
    int depth = 0;
    /* an alias ends at ',' or '>' outside brackets; an attribute at its closing '>' */
    while (t[n] && t[n] != '\n') {
        if (t[n] == '<') {
            depth++;
        } else if (t[n] == '>') {
            if (depth == 0)
                break;
            if (--depth == 0) {
                n++;
                break;
            }
        } else if (depth == 0 && t[n] == ',') {
            break;
        }
        n++;
    }
    char tmp[1024];
    if (n >= sizeof tmp)
        n = sz_utf8_cut(t, sizeof tmp - 1);     /* not inside a UTF-8 sequence */
    memcpy(tmp, t, n);
    tmp[n] = '\0';
    buf_json_str(out, tmp);
}

static void put_coord_list(struct buf *out, const int32_t (*b)[TLL_MAX_RANK], int n, int rank)
{
    buf_putc(out, '[');
    for (int i = 0; i < n; i++) {
        buf_puts(out, i ? ",[" : "[");
        for (int d = 0; d < rank; d++)
            buf_printf(out, "%s%d", d ? "," : "", b[i][d]);
        buf_putc(out, ']');
    }
    buf_putc(out, ']');
}

static void put_skip(struct buf *out, int *first, const struct tdump_op *o, const char *reason,
                     const char *field)
{
    buf_puts(out, *first ? "{" : ",{");
    *first = 0;
    buf_printf(out, "\"line\":%d,\"op\":\"%.*s\",\"reason\":", o->line, o->name_len, o->name);
    buf_json_str(out, reason);
    if (field) {
        buf_puts(out, ",\"field\":");
        buf_json_str(out, field);
    }
    buf_putc(out, '}');
}

/* Read, build and cost one op; on failure *why holds the reason. */
static int cost_op(struct work *w, const struct tdump_op *o, int num_banks, int *dist_node,
                   int *shared_node, int *bits, struct sz_error *why)
{
    int64_t ts[TLL_MAX_RANK], ms[TLL_MAX_RANK];
    int tr, mr, tbits;
    if (o->tensor < 0 || o->memdesc < 0)
        return sz_fail(why, SZ_INVALID_ARGUMENT, "text",
                       "line %d: no tensor<...> and !ttg.memdesc<...> types after ' : '",
                       o->line);
    if (tdump_type(w->p, o->tensor, ts, &tr, &tbits, dist_node, why) < 0 ||
        tdump_type(w->p, o->memdesc, ms, &mr, bits, shared_node, why) < 0)
        return -1;
    if (tr != mr || memcmp(ts, ms, sizeof(int64_t) * (size_t)tr))
        return sz_fail(why, SZ_INVALID_ARGUMENT, "shape",
                       "line %d: the tensor's shape is not the buffer's (a subview?)", o->line);
    if (triton_dist_build(w->p, *dist_node, ts, tr, &w->dist, why) < 0 ||
        triton_shared_build(w->p, *shared_node, ms, mr, *bits, &w->sh, why) < 0)
        return -1;
    return triton_access_cost(&w->dist, &w->sh, *bits, o->kind == TDUMP_LOAD, num_banks, &w->r,
                              why);
}

static void put_lin_layout(struct buf *out, const struct lin_tile *t, const struct lin_layout *l)
{
    buf_puts(out, "{\"register\":");
    api_put_bases(out, t, l->basis[LIN_REGISTER], l->n[LIN_REGISTER]);
    buf_puts(out, ",\"lane\":");
    api_put_bases(out, t, l->basis[LIN_LANE], l->n[LIN_LANE]);
    buf_puts(out, ",\"warp\":");
    api_put_bases(out, t, l->basis[LIN_WARP], l->n[LIN_WARP]);
    buf_putc(out, '}');
}

/* What the F2 workbench takes for this op: its 2-D view (the dims before the
 * last flattened into rows), the layout and the memory layout. */
static void put_workbench(struct buf *out, const struct tac_result *r)
{
    const struct lin_problem *p = &r->prob;
    buf_printf(out, ",\"workbench\":{\"shape\":[%u,%u],\"bitwidth\":%d,\"num_banks\":%d,"
               "\"lanes_per_wavefront\":%d,\"vec\":%d,\"layout\":", 1u << p->tile.bits0,
               1u << p->tile.bits1, p->bitwidth, p->num_banks, p->lanes, r->vec_elems);
    put_lin_layout(out, &p->tile, &p->a);
    buf_puts(out, ",\"swizzle_offset_bases\":");
    api_put_bases(out, &p->tile, r->mem.basis, r->mem.n);
    buf_putc(out, '}');
}

/* The memdesc type's text up to its end: one buffer type. */
static int same_memdesc(const char *t, const struct tdump_op *a, const struct tdump_op *b)
{
    if (a->memdesc < 0 || b->memdesc < 0)
        return 0;
    size_t i = (size_t)a->memdesc, j = (size_t)b->memdesc;
    int depth = 0;
    for (;; i++, j++) {
        if (t[i] != t[j])
            return 0;
        if (t[i] == '\0' || t[i] == '\n')
            return 1;
        depth += t[i] == '<' ? 1 : t[i] == '>' ? -1 : 0;
        if (t[i] == '>' && depth == 0)
            return 1;
    }
}

/* One side of the fix as the instruction the op is costed as: ldmatrix
 * (stmatrix) again on the fix's layout where the op was costed so and Triton
 * would still pick it there, else ld/st.shared of the fix's vector. */
static void put_fix_side(struct buf *out, struct work *w, int entry, const struct lin_side *s,
                         int is_reader)
{
    const char *mx = is_reader ? "ldmatrix" : "stmatrix";
    int matrix = entry >= 0 && w->memo[entry].ld_ok;
    if (matrix) {
        triton_access_ldmatrix(&w->memo[entry].r.prob, &w->fix.opt.mem, !is_reader, &w->fix_ld);
        if (w->fix_ld.ok) {
            buf_printf(out, "{\"wavefronts_per_instruction\":%u,\"ideal\":%u,"
                       "\"instruction\":\"%s.x%d%s\",\"instructions_per_warp\":%u}",
                       w->fix_ld.wavefronts, w->fix_ld.ideal, mx, w->fix_ld.matrices,
                       w->fix_ld.trans ? ".trans" : "", w->fix_ld.instructions);
            return;
        }
    }
    buf_printf(out, "{\"wavefronts_per_instruction\":%u,\"ideal\":%u,\"instruction\":\"%s\"",
               s->wavefronts, s->lower_bound, is_reader ? "ld.shared" : "st.shared");
    if (matrix) {
        /* the fix is optimal for ld/st.shared; on it Triton would drop the matrix op */
        buf_printf(out, ",\"loses_%s\":", mx);
        buf_json_str(out, w->fix_ld.why);
    }
    buf_putc(out, '}');
}

/* The current cost of entry k's instruction: is it above the ideal? */
static int over_ideal(const struct work *w, int k)
{
    if (w->memo[k].ld_ok)
        return w->memo[k].ld_wf > w->memo[k].ld_ideal;
    return w->memo[k].r.wavefronts > w->memo[k].r.ideal;
}

/* The fix for buffer g: its first writer and first reader (either standing
 * in for the other when the dump shows one side). */
static void put_fix(struct buf *out, struct work *w, int g)
{
    int wr = -1, rd = -1, wr_op = -1, rd_op = -1;
    for (int i = 0; i < w->d.nops; i++) {
        if (w->op_entry[i] < 0 || w->op_group[i] != g)
            continue;
        int load = w->d.op[i].kind == TDUMP_LOAD;
        if (load && rd < 0)
            rd = w->op_entry[i], rd_op = i;
        if (!load && wr < 0)
            wr = w->op_entry[i], wr_op = i;
    }
    int a = wr >= 0 ? wr : rd, b = rd >= 0 ? rd : wr;
    struct sz_error why = {0};
    if (!w->memo[a].r.linear || !w->memo[b].r.linear) {
        buf_puts(out, "{\"ttgir\":null,\"reason\":\"padded layouts are not optimized\"}");
        return;
    }
    /* a side costed as ldmatrix/stmatrix is optimized as what it moves:
     * 16-byte rows, 8 to a phase (the fix then keeps it where it can) */
    struct tac_result *ra = &w->fix_writer, *rb = &w->fix_reader;
    *ra = w->memo[a].r;
    *rb = w->memo[b].r;
    if (w->memo[a].ld_ok) {
        /* the writer's stmatrix (or a lone reader's ldmatrix) again: the memo
         * keeps its problem, not its rows */
        triton_access_ldmatrix(&ra->prob, &ra->mem, w->d.op[w->memo[a].op].kind != TDUMP_LOAD,
                               &w->fix_ld);
        triton_access_ldmatrix_view(&ra->prob, &ra->mem, &w->fix_ld, &ra->prob.a);
    }
    if (w->memo[b].ld_ok) {
        triton_access_ldmatrix(&rb->prob, &rb->mem, w->d.op[w->memo[b].op].kind != TDUMP_LOAD,
                               &w->fix_ld);
        triton_access_ldmatrix_view(&rb->prob, &rb->mem, &w->fix_ld, &rb->prob.a);
    }
    if (triton_access_fix(ra, rb, w->memo[a].shape, w->memo[a].rank,
                          &w->fix, &why) < 0) {
        buf_puts(out, "{\"ttgir\":null,\"reason\":");
        buf_json_str(out, why.message);
        buf_putc(out, '}');
        return;
    }
    const struct tac_fix *f = &w->fix;
    buf_printf(out, "{\"needed\":%s,\"store_line\":",
               over_ideal(w, a) || over_ideal(w, b) ? "true" : "false");
    if (wr_op >= 0)
        buf_printf(out, "%d", w->d.op[wr_op].line);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"load_line\":");
    if (rd_op >= 0)
        buf_printf(out, "%d", w->d.op[rd_op].line);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"ttgir\":");
    buf_json_str(out, f->text);
    buf_printf(out, ",\"form\":\"%s\",\"offset_bases\":", f->swizzled ? "swizzled_shared"
                                                                        : "shared_linear");
    put_coord_list(out, (const int32_t(*)[TLL_MAX_RANK])f->offset, f->opt.mem.n, f->rank);
    buf_printf(out, ",\"vector_elems\":%d,\"conflict_free\":%s,\"store\":", 1 << f->opt.vec_bits,
               f->opt.conflict_free ? "true" : "false");
    put_fix_side(out, w, wr, &f->store, 0);
    buf_puts(out, ",\"load\":");
    put_fix_side(out, w, rd, &f->load, 1);
    buf_puts(out, ",\"workbench\":{\"A\":");
    const struct lin_tile *tile = &w->memo[a].r.prob.tile;
    put_lin_layout(out, tile, &w->memo[a].r.prob.a);
    buf_puts(out, ",\"B\":");
    put_lin_layout(out, tile, &w->memo[b].r.prob.a);
    buf_puts(out, ",\"swizzle_offset_bases\":");
    api_put_bases(out, tile, f->opt.mem.basis, f->opt.mem.n);
    buf_puts(out, "}}");
}

/* ld.shared / st.shared of `bytes` a lane as PTX names it: ".v4.b32", ".b16". */
static void ldst_name(char *name, size_t cap, int is_load, uint32_t bytes)
{
    if (bytes >= 8)
        snprintf(name, cap, "%s.shared.v%u.b32", is_load ? "ld" : "st", bytes / 4);
    else
        snprintf(name, cap, "%s.shared.b%u", is_load ? "ld" : "st", bytes * 8);
}

/* One side of a convert_layout through shared memory, per instruction, per
 * warp and per CTA of `warps`. */
static void put_cvt_side(struct buf *out, const struct lin_side *s, uint32_t per_warp, int warps,
                         int is_load)
{
    char name[48];
    ldst_name(name, sizeof name, is_load, s->bytes);
    unsigned long long cta = (unsigned long long)per_warp * (unsigned long long)warps;
    buf_printf(out, "{\"instruction\":\"%s\",\"wavefronts_per_instruction\":%u,\"ideal\":%u,"
               "\"instructions_per_warp\":%u,\"instructions_per_cta\":%llu,"
               "\"wavefronts_per_cta\":%llu,\"conflict_wavefronts_per_cta\":%llu}", name,
               s->wavefronts, s->lower_bound, per_warp, cta, cta * s->wavefronts,
               cta * (s->wavefronts - s->lower_bound));
}

/* One side of a Triton 3.0/3.1 convert_layout: its costliest instruction,
 * and every warp's instructions summed over the CTA. */
static void put_legacy_side(struct buf *out, const struct tcl_side *s, int warps, int is_load)
{
    char name[48];
    ldst_name(name, sizeof name, is_load, s->bytes);
    buf_printf(out, "{\"instruction\":\"%s\",\"vector_elems\":%d,"
               "\"wavefronts_per_instruction\":%u,\"ideal\":%u,\"instructions_per_warp\":%u,"
               "\"instructions_per_cta\":%llu,\"wavefronts_per_cta\":%llu,"
               "\"conflict_wavefronts_per_cta\":%llu}", name, s->vec, s->wavefronts_max,
               s->ideal_max, s->per_warp, (unsigned long long)s->per_warp * (unsigned)warps,
               (unsigned long long)s->wavefronts_cta,
               (unsigned long long)(s->wavefronts_cta - s->ideal_cta));
}

static void put_ints(struct buf *out, const char *key, const int64_t *v, int n)
{
    buf_printf(out, ",\"%s\":", key);
    api_put_ints(out, v, n);
}

/* A convert_layout's first members, either era: `{"op":..,"line":..,
 * "shape":..,"element_bits":..,"src":..,"dst":..` (the object left open). */
static void put_convert_head(struct buf *out, const struct work *w, const struct tdump_op *o,
                             int first, const int64_t *shape, int rank, int bits, int n1, int n2)
{
    buf_printf(out, "%s{\"op\":\"convert_layout\",\"line\":%d", first ? "" : ",", o->line);
    put_ints(out, "shape", shape, rank);
    buf_printf(out, ",\"element_bits\":%d,\"src\":", bits);
    put_attr_text(out, w->p, n1);
    buf_puts(out, ",\"dst\":");
    put_attr_text(out, w->p, n2);
}

/* A Triton 3.0/3.1 convert_layout (triton_gpu dialect): its padded scratch,
 * and the store, barrier, load of each repetition (triton_cvt_legacy.c). */
static int put_convert_legacy(struct buf *out, struct work *w, const struct tdump_op *o,
                              int first, const int64_t *shape, int rank, int bits, int n1, int n2,
                              struct sz_error *why)
{
    struct tcl_result *c = &w->lcvt;
    if (triton_cvt_legacy(w->p, n1, &w->dist, n2, &w->dist2, bits, c, why) < 0)
        return -1;
    put_convert_head(out, w, o, first, shape, rank, bits, n1, n2);
    buf_printf(out, ",\"triton\":\"3.0/3.1\",\"warps\":%d,\"through_shared\":%s", c->warps,
               c->shared ? "true" : "false");
    if (!c->shared) {
        buf_puts(out, ",\"reason\":");
        buf_json_str(out, c->why);
        buf_puts(out, "}");
        return 0;
    }
    int64_t ord[TLL_MAX_RANK];
    for (int d = 0; d < rank; d++)
        ord[d] = c->order[d];
    buf_puts(out, ",\"scratch\":{\"padded\":true");
    put_ints(out, "rep_shape", c->rep, rank);
    put_ints(out, "padded_shape", c->padded, rank);
    put_ints(out, "order", ord, rank);
    uint64_t elems = 1;
    for (int d = 0; d < rank; d++)
        elems *= (uint64_t)c->padded[d];
    buf_printf(out, ",\"pad_dim\":%d,\"pad_elems\":%d,\"bytes\":%llu,\"repetitions\":%u}",
               c->pad_dim, c->pad, (unsigned long long)(elems * (uint64_t)(bits < 8 ? 1 : bits / 8)),
               c->reps);
    buf_puts(out, ",\"store\":");
    put_legacy_side(out, &c->store, c->warps, 0);
    buf_printf(out, ",\"barriers\":%u,\"load\":", 2 * c->reps - 1);
    put_legacy_side(out, &c->load, c->warps, 1);
    buf_puts(out, ",\"rule\":\"Triton 3.0/3.1 (Allocation.cpp getScratchConfigForCvt, "
             "ConvertLayoutOpToLLVM.cpp lowerDistributedToDistributed): the scratch holds one "
             "repetition, per dim the larger of the two layouts' CTA tiles, padded by "
             "max(inVec, outVec) elements on the destination's fastest dim; in each repetition "
             "every warp stores inVec-element vectors, a barrier, loads outVec-element vectors, "
             "each element at its coordinate within the repetition linearized over the padded "
             "shape in the destination's order\",\"assumed\":\"vectors wider than 16 bytes "
             "split into 16-byte instructions (the NVPTX backend's legalization); 3.1 lowers as "
             "3.0 (its branch predates main's linear-layout shared path); rank 3 vectorizes when "
             "both orders start at the last dim (for rank 2 the same as 3.0's order[0] == 0 "
             "test)\"}");
    return 0;
}

/* A convert_layout (issue 39 item 3): its two layouts, and where its data
 * crosses warps, Triton's store, barrier and load through the scratch
 * layout its optimalSwizzling builds.  Fails with the reason (skipped). */
static int put_convert(struct buf *out, struct work *w, const struct tdump_op *o, int first,
                       struct sz_error *why)
{
    int64_t s1[TLL_MAX_RANK], s2[TLL_MAX_RANK];
    int r1, r2, b1, b2, n1, n2;
    if (o->tensor < 0 || o->tensor2 < 0)
        return sz_fail(why, SZ_INVALID_ARGUMENT, "text",
                       "line %d: no tensor<...> -> tensor<...> types after ' : '", o->line);
    if (tdump_type(w->p, o->tensor, s1, &r1, &b1, &n1, why) < 0 ||
        tdump_type(w->p, o->tensor2, s2, &r2, &b2, &n2, why) < 0)
        return -1;
    if (b1 != b2)
        return sz_fail(why, SZ_INVALID_ARGUMENT, "text", "line %d: the element types differ",
                       o->line);
    if (triton_dist_build(w->p, n1, s1, r1, &w->dist, why) < 0 ||
        triton_dist_build(w->p, n2, s2, r2, &w->dist2, why) < 0)
        return -1;
    if (o->old_dialect)
        return put_convert_legacy(out, w, o, first, s1, r1, b1, n1, n2, why);
    if (triton_access_convert(&w->dist, &w->dist2, b1, w->d.num_banks, &w->cvt, why) < 0)
        return -1;
    const struct tac_convert *c = &w->cvt;
    int warps = w->d.num_warps > 0 ? w->d.num_warps : w->dist.warps;
    put_convert_head(out, w, o, first, s1, r1, b1, n1, n2);
    buf_printf(out, ",\"warps\":%d,\"through_shared\":%s", warps, c->within ? "false" : "true");
    if (c->within) {
        buf_puts(out, ",\"reason\":\"each warp keeps its own data (registers and lanes only): "
                 "Triton moves it with register moves or warp shuffles, no shared memory "
                 "(assumed: Triton falls back to shared memory when its shuffle decomposition "
                 "needs two or more mixed transpositions, which is not checked here)\"}");
        return 0;
    }
    buf_printf(out, ",\"scratch\":{\"vector_elems\":%d,\"conflict_free\":%s,"
               "\"offset_bases\":", 1 << c->opt.vec_bits, c->opt.conflict_free ? "true" : "false");
    put_coord_list(out, (const int32_t(*)[TLL_MAX_RANK])c->offset, c->opt.mem.n, c->rank);
    buf_puts(out, "},\"store\":");
    put_cvt_side(out, &c->store, c->store_per_warp, warps, 0);
    buf_puts(out, ",\"load\":");
    put_cvt_side(out, &c->load, c->load_per_warp, warps, 1);
    buf_puts(out, ",\"rule\":\"Triton's transferWithinBlockSwizzling: each warp stores its "
             "registers, a barrier, each loads the other layout, on the scratch layout "
             "optimalSwizzling builds for the pair (GenericSwizzling.cpp's construction, "
             "linear.c's optimizer here)\",\"assumed\":\"ld/st.shared of the pair's common "
             "vector; Triton may pick stmatrix/ldmatrix tiles for some pairs, and tiles the "
             "scratch in repetitions (the same instructions, barriers between)\"}");
    return 0;
}

/* The instruction an op is costed as, and why (issue 39 item 1); cc as
 * target_cc gives it. */
static void put_instruction(struct buf *out, const struct tac_result *r, const struct tac_ldsm *ld,
                            const struct tdump_op *o, const char *not_why, int cc)
{
    int load = o->kind == TDUMP_LOAD, nvidia = cc == 0 || cc >= 75;
    const char *mx = load ? "ldmatrix" : "stmatrix";
    char name[48];
    if (ld->ok)
        snprintf(name, sizeof name, "%s.x%d%s", mx, ld->matrices, ld->trans ? ".trans" : "");
    else
        ldst_name(name, sizeof name, load, r->bytes);
    buf_printf(out, ",\"instruction\":{\"op\":\"%s\",\"name\":\"%s\"",
               ld->ok ? mx : load ? "ld" : "st", name);
    if (ld->ok)
        buf_printf(out, ",\"matrices\":%d,\"trans\":%s", ld->matrices,
                   ld->trans ? "true" : "false");
    buf_puts(out, ",\"rule\":");
    if (!nvidia)
        buf_json_str(out, "not NVIDIA sm_75 or later (the target): no ldmatrix or stmatrix; "
                     "ld/st.shared of Triton's vector width");
    else if (o->kind == TDUMP_ASYNC_COPY)
        buf_json_str(out, "cp.async writes shared memory: costed as st.shared of its vector");
    else if (o->old_dialect && load)
        buf_json_str(out, "Triton 3.0/3.1 (the text's triton_gpu dialect): ldmatrix.x4 for an "
                     "NVIDIA MMA operand where canUseLdmatrix holds, else ld.shared");
    else if (o->old_dialect)
        buf_json_str(out, "Triton 3.0/3.1 (the text's triton_gpu dialect): st.shared of its "
                     "vector (its stmatrix path, for an MMA source on a leading-offset layout "
                     "on sm_90, is not modelled)");
    else if (load || cc >= 90)
        buf_printf(out, "\"Triton's lowerLdStMatrix (ttg dialect): %s%s wherever the layout "
                   "holds its 8 x 16-byte tile, plain then .trans, else %s.shared of Triton's "
                   "vector width\"", mx, load ? "" : " (sm_90 and later)", load ? "ld" : "st");
    else
        buf_json_str(out, "a store below sm_90 (or no target): st.shared of Triton's vector "
                     "width (stmatrix needs sm_90)");
    buf_puts(out, ",\"assumed\":");
    if (nvidia && o->old_dialect && load && ld->ok)
        buf_json_str(out, "the rows each 8 lanes address are the layout's (Triton 3.0/3.1's "
                     "loader computes them by hand; the same rows, so the same cost)");
    else if (nvidia && o->old_dialect && load)
        buf_json_str(out, "Triton 3.0/3.1's loader then issues 32-bit ld.shared per element "
                     "group; costed here as ld.shared of Triton's vector width");
    else if (nvidia && !o->old_dialect && load)
        buf_json_str(out, "the current lowering; Triton 3.2-3.3 picked ldmatrix for MMA dot "
                     "operands only, under LocalLoadOpConversion's conditions, and may split "
                     "an x4 into two x2");
    else if (!o->old_dialect && cc >= 90 && o->kind != TDUMP_ASYNC_COPY)
        buf_json_str(out, "the current lowering; Triton 3.2-3.3 used stmatrix only for an MMA "
                      "source on an nvmma (leading-offset) layout of 32-, 64- or 128-byte "
                      "swizzle");
    else if (cc == 0 && !load && o->kind != TDUMP_ASYNC_COPY)
        buf_json_str(out, "no ttg.target: a machine below sm_90 (no stmatrix)");
    else
        buf_puts(out, "null");
    buf_printf(out, ",\"not_%s\":", mx);
    if (!ld->ok && not_why)
        buf_json_str(out, not_why);
    else
        buf_puts(out, "null");
    buf_putc(out, '}');
    if (ld->ok) {
        /* what the page asks POST /api/conflicts for the costliest instruction */
        buf_printf(out, ",\"conflicts_request\":{\"op\":\"%s\",\"matrices\":%d,"
                   "\"trans\":%s,\"bank_bytes\":4,\"banks\":32,\"offsets\":[", mx,
                   ld->matrices, ld->trans ? "true" : "false");
        for (int l = 0; l < 32; l++) {
            if (ld->offsets[l] == INSTR_INACTIVE)
                buf_printf(out, "%snull", l ? "," : "");
            else
                buf_printf(out, "%s%u", l ? "," : "", ld->offsets[l]);
        }
        buf_puts(out, "]}");
    }
}

/* An op's answer after its "op" and "line": the same for every op of the
 * same kind whose types read the same (a dump repeats them). */
static void put_op(struct buf *out, struct work *w, const struct tdump_op *o, int dist_node,
                   int shared_node, int bits, int num_banks, int warps, const char *not_why,
                   int cc)
{
    const struct tac_result *r = &w->r;
    const struct tac_ldsm *ld = &w->ld;
    buf_puts(out, "\"shape\":");
    api_put_ints(out, w->dist.shape, w->dist.rank);
    buf_printf(out, ",\"element_bits\":%d,\"access\":\"%s\",\"shared\":{\"text\":", bits,
               o->kind == TDUMP_LOAD ? "load" : "store");
    put_attr_text(out, w->p, shared_node);
    buf_printf(out, ",\"encoding\":\"%s\",\"offset_bases\":", w->sh.encoding);
    put_coord_list(out, (const int32_t(*)[TLL_MAX_RANK])w->sh.b, w->sh.n, w->sh.rank);
    if (w->sh.npad) {
        buf_puts(out, ",\"padding\":[");
        for (int i = 0; i < w->sh.npad; i++)
            buf_printf(out, "%s[%lld,%lld]", i ? "," : "", (long long)w->sh.interval[i],
                       (long long)w->sh.pad[i]);
        buf_putc(out, ']');
    }
    buf_puts(out, "},\"distributed\":{\"text\":");
    put_attr_text(out, w->p, dist_node);
    buf_putc(out, ',');
    api_put_dist(out, &w->dist);
    /* the instruction Triton emits: ldmatrix (its lane receives matrices x 4
     * bytes) or ld/st of Triton's vector; per warp, and per CTA of `warps`
     * warps (each warp issues its own, broadcast warps too) */
    uint32_t wf = ld->ok ? ld->wavefronts : r->wavefronts;
    uint32_t ideal = ld->ok ? ld->ideal : r->ideal;
    uint32_t per_warp = ld->ok ? ld->instructions : r->per_warp;
    int vec = ld->ok ? ld->matrices * 32 / bits : r->vec_elems;
    uint32_t bytes = ld->ok ? (uint32_t)ld->matrices * 4 : r->bytes;
    uint32_t conflicts = wf - ideal;
    unsigned long long pw = per_warp, cta = pw * (unsigned long long)warps;
    buf_printf(out, "},\"vector_elems\":%d,\"bytes_per_lane\":%u,\"lanes_per_wavefront\":%d,"
               "\"num_banks\":%d,\"wavefronts_per_instruction\":%u,\"ideal\":%u,"
               "\"bank_conflicts_per_instruction\":%u,\"instructions\":%u,"
               "\"conflict_wavefronts_per_warp\":%llu,\"warps\":%d,"
               "\"instructions_per_warp\":%llu,\"instructions_per_cta\":%llu,"
               "\"wavefronts_per_warp\":%llu,\"wavefronts_per_cta\":%llu,"
               "\"conflict_wavefronts_per_cta\":%llu,\"triton_bank_conflicts\":",
               vec, bytes, r->lanes, num_banks, wf, ideal, conflicts, per_warp,
               (unsigned long long)conflicts * pw, warps, pw, cta, wf * pw, wf * cta,
               conflicts * cta);
    if (r->triton_conflicts < 0)
        buf_puts(out, "null");
    else
        buf_printf(out, "%d", r->triton_conflicts);
    /* Gluon's number counts for the ld/st.shared path of Triton's vector:
     * per phase of one instruction, 2^k - 1 for a k-dimensional conflict */
    buf_puts(out, ",\"triton_bank_conflicts_unit\":");
    buf_json_str(out, ld->ok ? "extra wavefronts per phase of one ld.shared instruction of "
                 "Triton's vector width (Gluon's bank_conflicts); the instruction here is "
                 "ldmatrix, which that number does not describe"
                 : "extra wavefronts per phase of one instruction (Gluon's bank_conflicts: "
                 "2^k - 1 for a k-dimensional conflict); bank_conflicts_per_instruction is "
                 "the same summed over the instruction's phases");
    put_instruction(out, r, ld, o, not_why, cc);
    buf_printf(out, ",\"model\":\"%s\"", r->lanes == 64 ? lin_published : "measured");
    if (r->linear)
        buf_printf(out, ",\"formula_agrees\":%s",
                   r->side.formula == r->side.wavefronts ? "true" : "false");
    put_workbench(out, r);
}

/* An SSA name of the text (cut at 63 bytes), or null. */
static void put_name(struct buf *out, const char *t, int pos, int len)
{
    if (pos < 0) {
        buf_puts(out, "null");
        return;
    }
    char v[64];
    size_t n = sz_utf8_cut(t + pos, len < 63 ? (size_t)len : 63);
    memcpy(v, t + pos, n);
    v[n] = '\0';
    buf_json_str(out, v);
}

/* Each costed op's buffer (issue 39 item 4): the SSA value that allocated
 * it, followed through views and loop-carried values; an op whose value the
 * text does not name (one op pasted alone without one) is its memdesc type's
 * buffer as before.  Returns how many buffers. */
static int group_ops(struct work *w, const char *t)
{
    int ngroups = 0;
    for (int i = 0; i < w->d.nops; i++) {
        w->op_group[i] = -1;
        if (w->op_entry[i] < 0)
            continue;
        const struct tdump_op *o = &w->d.op[i];
        int key = o->buffer >= 0 ? o->buffer : -1 - i;
        for (int g = 0; g < ngroups && w->op_group[i] < 0; g++) {
            int k = w->group_key[g];
            if (k >= 0 ? k == key : key < 0 && same_memdesc(t, &w->d.op[-1 - k], o))
                w->op_group[i] = g;
        }
        if (w->op_group[i] < 0) {
            w->group_key[ngroups] = key;
            w->op_group[i] = ngroups++;
        }
    }
    return ngroups;
}

/* The parts list: each part's index, title, lines and costable ops. */
static void put_parts(struct buf *out, struct work *w, const char *t, int np, int chosen)
{
    int n_chosen = 0;
    for (int i = 0; i < w->d.nops; i++)
        n_chosen += w->d.op[i].kind != TDUMP_SKIP;
    buf_puts(out, ",\"parts\":[");
    for (int k = 0; k < np; k++) {
        const struct tdump_part *pt = &w->part[k];
        int last = pt->first_line, n = 0;
        for (size_t i = pt->start; i < pt->end; i++)
            last += t[i] == '\n';
        if (pt->end > pt->start && t[pt->end - 1] == '\n')
            last--;
        if (k == chosen) {
            n = n_chosen;
        } else {
            tdump_scan(t + pt->start, pt->end - pt->start, &w->d);
            for (int i = 0; i < w->d.nops; i++)
                n += w->d.op[i].kind != TDUMP_SKIP;
        }
        buf_printf(out, "%s{\"index\":%d,\"first_line\":%d,\"last_line\":%d,\"ops\":%d,"
                   "\"title\":", k ? "," : "", k, pt->first_line, last, n);
        if (pt->title) {
            char tt[96];
            size_t len = sz_utf8_cut(pt->title, pt->title_len < 95 ? (size_t)pt->title_len : 95);
            memcpy(tt, pt->title, len);
            tt[len] = '\0';
            buf_json_str(out, tt);
        } else {
            buf_puts(out, "null");
        }
        buf_putc(out, '}');
    }
    buf_printf(out, "],\"part\":%d", chosen);
}

int api_route_ttgir(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const fields[] = {"text", "part", NULL};
    cJSON *root = NULL;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "text");
    if (api_fields_check(root, fields, err) < 0 || !cJSON_IsString(text)) {
        cJSON_Delete(root);
        return err->code ? -1 : sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                                        "required: a TTGIR dump or op as text");
    }
    int64_t want = -1;
    if (cJSON_GetObjectItemCaseSensitive(root, "part") &&
        api_field_int(root, "part", 0, TDUMP_MAX_PARTS - 1, &want, err) < 0) {
        cJSON_Delete(root);
        return -1;
    }
    struct work *w = malloc(sizeof *w);
    if (w == NULL) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    }
    int rc = -1;
    char *t = NULL;
    const char *whole = text->valuestring;
    size_t whole_len = strlen(whole);
    /* the parts: a lit file's modules, a dump's passes (issue 39 item 3);
     * each is read alone, its aliases its own */
    int more = 0, np = tdump_split(whole, whole_len, w->part, TDUMP_MAX_PARTS, &more);
    if (np == 0) {
        w->part[0] = (struct tdump_part){.start = 0, .end = whole_len, .first_line = 1};
        np = 1;
    }
    if (want >= np) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "part", "must be in 0..%d: the text has %d part%s",
                np - 1, np, np == 1 ? "" : "s");
        goto done;
    }
    int chosen = (int)want;
    if (chosen < 0) {
        /* the first part with an op to cost */
        chosen = 0;
        for (int k = 0; k < np && np > 1; k++) {
            int n = 0;
            tdump_scan(whole + w->part[k].start, w->part[k].end - w->part[k].start, &w->d);
            for (int i = 0; i < w->d.nops; i++)
                n += w->d.op[i].kind != TDUMP_SKIP;
            if (n) {
                chosen = k;
                break;
            }
        }
    }
    const struct tdump_part *pt = &w->part[chosen];
    t = malloc(pt->end - pt->start + 1);
    if (t == NULL) {
        sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        goto done;
    }
    memcpy(t, whole + pt->start, pt->end - pt->start);
    t[pt->end - pt->start] = '\0';
    w->p = ta_space_init(&w->sp);
    if (ta_init(w->p, t, "text", t, "text", err) < 0)
        goto done;
    /* lines and columns count from the whole text */
    w->p->line0[0] = w->p->line0[1] = pt->first_line;
    tdump_scan(t, pt->end - pt->start, &w->d);
    for (int i = 0; i < w->d.nops; i++)
        w->d.op[i].line += pt->first_line - 1;
    int cc = target_cc(&w->d);
    int nvidia = cc == 0 || cc >= 75;       /* ldmatrix */
    int stsm = cc >= 90;                    /* stmatrix */
    int costed = 0, first_skip = 1, mark = ta_mark(w->p), nmemo = 0;
    char first_reason[160] = "";
    int first_line = 0, first_column = 0;   /* its position, where it has one */
    struct buf skipped = {0}, frags = {0}, converts = {0};
    int nconverts = 0;
    for (int i = 0; i < w->d.nops; i++) {
        const struct tdump_op *o = &w->d.op[i];
        w->op_entry[i] = -1;
        if (o->kind == TDUMP_SKIP) {
            if (first_skip)
                snprintf(first_reason, sizeof first_reason, "%s", o->reason);
            put_skip(&skipped, &first_skip, o, o->reason, NULL);
            continue;
        }
        if (o->kind == TDUMP_CONVERT) {
            struct sz_error why = {0};
            ta_reset(w->p, mark);
            if (put_convert(&converts, w, o, nconverts == 0, &why) < 0) {
                if (first_skip) {
                    snprintf(first_reason, sizeof first_reason, "%s", why.message);
                    first_line = why.line, first_column = why.column;
                }
                put_skip(&skipped, &first_skip, o, why.message, why.field);
            } else {
                nconverts++;
                costed++;
            }
            continue;
        }
        int dn = -1, sn = -1, bits = 0, hit = -1;
        for (int k = 0; k < nmemo && hit < 0; k++) {
            const struct tdump_op *q = &w->d.op[w->memo[k].op];
            if (q->kind == o->kind && q->types_len == o->types_len && o->types >= 0 &&
                q->old_dialect == o->old_dialect &&
                !memcmp(t + q->types, t + o->types, (size_t)o->types_len))
                hit = k;
        }
        if (hit < 0) {
            struct sz_error why = {0};
            ta_reset(w->p, mark);
            if (cost_op(w, o, w->d.num_banks, &dn, &sn, &bits, &why) < 0) {
                if (first_skip) {
                    snprintf(first_reason, sizeof first_reason, "%s", why.message);
                    first_line = why.line, first_column = why.column;
                }
                put_skip(&skipped, &first_skip, o, why.message, why.field);
                continue;
            }
            /* the instruction Triton emits (issue 39 item 1): ldmatrix for a
             * load, stmatrix for a store on sm_90 (not for 3.0/3.1 text, whose
             * stmatrix path needs an MMA source on a leading-offset layout) */
            const char *not_why = NULL;
            int matrix_kind = o->kind == TDUMP_LOAD ? nvidia
                              : o->kind != TDUMP_ASYNC_COPY && stsm && !o->old_dialect;
            memset(&w->ld, 0, sizeof w->ld);
            if (matrix_kind && w->r.linear) {
                if (o->old_dialect &&
                    !legacy_ldmatrix(w->p, dn, sn, bits, w->dist.rank, &not_why)) {
                    /* not_why says why */
                } else {
                    triton_access_ldmatrix(&w->r.prob, &w->r.mem, o->kind != TDUMP_LOAD, &w->ld);
                    if (!w->ld.ok)
                        not_why = w->ld.why;
                }
            } else if (matrix_kind) {
                not_why = "padded layouts: Triton never uses ldmatrix or stmatrix on them";
            }
            w->memo[nmemo].op = i;
            w->memo[nmemo].off = frags.len;
            put_op(&frags, w, o, dn, sn, bits, w->d.num_banks,
                   w->d.num_warps > 0 ? w->d.num_warps : w->dist.warps, not_why, cc);
            w->memo[nmemo].len = frags.len - w->memo[nmemo].off;
            w->memo[nmemo].r = w->r;
            w->memo[nmemo].ld_ok = w->ld.ok;
            w->memo[nmemo].ld_wf = w->ld.wavefronts;
            w->memo[nmemo].ld_ideal = w->ld.ideal;
            w->memo[nmemo].rank = w->dist.rank;
            memcpy(w->memo[nmemo].shape, w->dist.shape, sizeof w->memo[nmemo].shape);
            hit = nmemo++;
        }
        w->op_entry[i] = hit;
        costed++;
    }
    /* the buffers, by SSA value, each with its fix */
    struct buf fixes = {0};
    size_t fix_off[TDUMP_MAX_OPS], fix_len[TDUMP_MAX_OPS];
    int ngroups = group_ops(w, t);
    for (int g = 0; g < ngroups; g++) {
        fix_off[g] = fixes.len;
        put_fix(&fixes, w, g);
        fix_len[g] = fixes.len - fix_off[g];
    }
    /* The answer repeats each op's fragment and its buffer's fix (a dump
     * repeats its ops: 512 of them answered 1.3 MB from 2.6 KB each): its
     * bound (64 bytes an op for its line, name and buffer; 1 KiB for the
     * rest, the target's 63 bytes escaped included; 160 bytes a part), and
     * the fragments held meanwhile, from the answer budget before it is
     * built (issue 36 item 3, as /api/layout does). */
    size_t bound = 1024 + skipped.len + converts.len + 160 * (size_t)np;
    for (int i = 0; i < w->d.nops; i++)
        if (w->op_entry[i] >= 0)
            bound += 64 + w->memo[w->op_entry[i]].len + fix_len[w->op_group[i]];
    if (api_reserve(req, bound + frags.len + fixes.len + skipped.len + converts.len + sizeof *w,
                    err) < 0) {
        buf_free(&fixes);
        buf_free(&converts);
        buf_free(&skipped);
        buf_free(&frags);
        goto done;
    }
    buf_puts(out, "{\"ops\":[");
    for (int i = 0, n = 0; i < w->d.nops; i++) {
        int k = w->op_entry[i];
        if (k < 0)
            continue;
        const struct tdump_op *o = &w->d.op[i];
        buf_printf(out, "%s{\"op\":\"%s\",\"line\":%d,", n++ ? "," : "", kind_name(o->kind),
                   o->line);
        buf_put(out, frags.p + w->memo[k].off, w->memo[k].len);
        /* the SSA value the op names, and the one that allocated its buffer */
        buf_printf(out, ",\"buffer\":%d,\"value\":", w->op_group[i]);
        put_name(out, t, o->value, o->value_len);
        buf_puts(out, ",\"buffer_value\":");
        if (o->buffer >= 0)
            put_name(out, t, w->d.name[o->buffer].pos, w->d.name[o->buffer].len);
        else
            buf_puts(out, "null");
        buf_puts(out, ",\"fix\":");
        buf_put(out, fixes.p + fix_off[w->op_group[i]], fix_len[w->op_group[i]]);
        buf_putc(out, '}');
    }
    buf_free(&fixes);
    buf_printf(out, "],\"converts\":[%s],\"skipped\":[%s],\"num_banks\":%d,\"target\":",
               converts.p ? converts.p : "", skipped.p ? skipped.p : "", w->d.num_banks);
    buf_free(&converts);
    if (w->d.target) {
        char tg[64];
        size_t n = sz_utf8_cut(w->d.target, w->d.target_len < 63 ? (size_t)w->d.target_len : 63);
        memcpy(tg, w->d.target, n);
        tg[n] = '\0';
        buf_json_str(out, tg);
    } else {
        buf_puts(out, "null");
    }
    /* the instruction depends on the machine: say when it was not written */
    buf_printf(out, ",\"target_assumed\":%s", w->d.target ? "null"
               : "\"NVIDIA, sm_75 or later (ldmatrix): the text has no ttg.target\"");
    buf_puts(out, ",\"num_warps\":");
    if (w->d.num_warps > 0)
        buf_printf(out, "%d", w->d.num_warps);
    else
        buf_puts(out, "null");
    buf_printf(out, ",\"warps_from\":\"%s\",\"buffers_by\":\"SSA value (through memdesc views "
               "and scf.for's carried values)\"", w->d.num_warps > 0 ? "the module's num-warps"
               : "each op's layout: the text has no num-warps");
    buf_printf(out, ",\"truncated\":%s,\"names_unfollowed\":%s,\"parts_truncated\":%s",
               w->d.truncated ? "true" : "false", w->d.names_full ? "true" : "false",
               more ? "true" : "false");
    int nops_chosen = w->d.nops, first_op_pos = nops_chosen ? w->d.op[0].pos : 0;
    char first_name[64] = "";
    int first_op_line = nops_chosen ? w->d.op[0].line : 0;
    if (nops_chosen)
        snprintf(first_name, sizeof first_name, "%.*s", w->d.op[0].name_len, w->d.op[0].name);
    put_parts(out, w, whole, np, chosen);     /* (scans the other parts into w->d) */
    buf_puts(out, ",\"source\":\"instruction: Triton's NVIDIA lowering (ldmatrix where it picks "
             "it); vector width: Triton's largestVectorisation; triton_bank_conflicts: Gluon's "
             "bank_conflicts (GenericSwizzling.cpp); wavefronts: this tool's model\"}");
    if (costed == 0) {
        /* nothing to cost: the first op's reason, with its line */
        if (nops_chosen == 0)
            sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                    "no shared-memory op found (ttg.local_load, ttg.local_store, ttg.local_alloc "
                    "with a value, ttg.async_copy_global_to_local; or their triton_gpu. forms)");
        else {
            sz_fail(err, SZ_INVALID_ARGUMENT, "text", "nothing to cost: %s on line %d: %s",
                    first_name, first_op_line, first_reason);
            /* "at": where the reason points, else the op's name */
            if (first_line > 0)
                sz_set_at(err, first_line, first_column);
            else
                ta_fail_pos(w->p, 0, first_op_pos, err);
        }
        buf_free(&skipped);
        buf_free(&frags);
        goto done;
    }
    buf_free(&skipped);
    buf_free(&frags);
    rc = 0;
done:
    free(t);
    free(w);
    cJSON_Delete(root);
    return rc;
}
