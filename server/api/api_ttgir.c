/* api_ttgir.c - POST /api/ttgir {"text": TTGIR}: every shared-memory op of a
 * dump (ttgir_dump.c), each costed (triton_dist.c, triton_shared.c,
 * triton_access.c): its shape, element bits, both layouts, Triton's vector
 * width, Gluon's bank_conflicts number and this tool's wavefronts.  An op it
 * cannot cost is listed in "skipped" with the reason, never a failure of
 * the whole dump.  Reads with api_read.c, writes with buf.c. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_routes.h"
#include "api_write.h"
#include "linear/linear.h"
#include "triton/triton_access.h"
#include "triton/ttgir_dump.h"

/* Everything one request needs, too large for a request thread's stack. */
struct work {
    struct ta_space sp;
    struct ta_parser *p;       /* &sp.p */
    struct tdump d;
    struct td_layout dist;
    struct tsh_layout sh;
    struct tac_result r;
    struct {
        int op;                 /* the first op with these types */
        size_t off, len;        /* its answer in `frags` */
        struct tac_result r;    /* its cost (and its 2-D problem) */
        int64_t shape[TLL_MAX_RANK];
        int rank, group;        /* group: the buffer type it shares with others */
    } memo[TDUMP_MAX_OPS];
    int op_entry[TDUMP_MAX_OPS];    /* each op's memo entry; -1: skipped */
    struct tac_fix fix;
};

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

/* The fix for buffer group of entry k: its first writer and first reader
 * (either standing in for the other when the dump shows one side). */
static void put_fix(struct buf *out, struct work *w, int k, int nmemo)
{
    int wr = -1, rd = -1;
    for (int j = k; j < nmemo; j++) {
        if (j != k && !same_memdesc(w->p->text[0], &w->d.op[w->memo[k].op], &w->d.op[w->memo[j].op]))
            continue;
        int load = w->d.op[w->memo[j].op].kind == TDUMP_LOAD;
        if (load && rd < 0)
            rd = j;
        if (!load && wr < 0)
            wr = j;
    }
    int a = wr >= 0 ? wr : rd, b = rd >= 0 ? rd : wr;
    struct sz_error why = {0};
    if (!w->memo[a].r.linear || !w->memo[b].r.linear) {
        buf_puts(out, "{\"ttgir\":null,\"reason\":\"padded layouts are not optimized\"}");
        return;
    }
    if (triton_access_fix(&w->memo[a].r, &w->memo[b].r, w->memo[a].shape, w->memo[a].rank,
                          &w->fix, &why) < 0) {
        buf_puts(out, "{\"ttgir\":null,\"reason\":");
        buf_json_str(out, why.message);
        buf_putc(out, '}');
        return;
    }
    const struct tac_fix *f = &w->fix;
    const struct tac_result *ra = &w->memo[a].r, *rb = &w->memo[b].r;
    buf_printf(out, "{\"needed\":%s,\"store_line\":",
               ra->wavefronts > ra->ideal || rb->wavefronts > rb->ideal ? "true" : "false");
    if (wr >= 0)
        buf_printf(out, "%d", w->d.op[w->memo[wr].op].line);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"load_line\":");
    if (rd >= 0)
        buf_printf(out, "%d", w->d.op[w->memo[rd].op].line);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"ttgir\":");
    buf_json_str(out, f->text);
    buf_printf(out, ",\"form\":\"%s\",\"offset_bases\":", f->swizzled ? "swizzled_shared"
                                                                        : "shared_linear");
    put_coord_list(out, (const int32_t(*)[TLL_MAX_RANK])f->offset, f->opt.mem.n, f->rank);
    buf_printf(out, ",\"vector_elems\":%d,\"conflict_free\":%s,\"store\":{\"wavefronts_per_"
               "instruction\":%u,\"ideal\":%u},\"load\":{\"wavefronts_per_instruction\":%u,"
               "\"ideal\":%u},\"workbench\":{\"A\":", 1 << f->opt.vec_bits,
               f->opt.conflict_free ? "true" : "false", f->store.wavefronts,
               f->store.lower_bound, f->load.wavefronts, f->load.lower_bound);
    const struct lin_tile *tile = &w->memo[a].r.prob.tile;
    put_lin_layout(out, tile, &w->memo[a].r.prob.a);
    buf_puts(out, ",\"B\":");
    put_lin_layout(out, tile, &w->memo[b].r.prob.a);
    buf_puts(out, ",\"swizzle_offset_bases\":");
    api_put_bases(out, tile, f->opt.mem.basis, f->opt.mem.n);
    buf_puts(out, "}}");
}

/* An op's answer after its "op" and "line": the same for every op of the
 * same kind whose types read the same (a dump repeats them). */
static void put_op(struct buf *out, struct work *w, const struct tdump_op *o, int dist_node,
                   int shared_node, int bits, int num_banks)
{
    const struct tac_result *r = &w->r;
    buf_puts(out, "\"shape\":[");
    for (int d = 0; d < w->dist.rank; d++)
        buf_printf(out, "%s%lld", d ? "," : "", (long long)w->dist.shape[d]);
    buf_printf(out, "],\"element_bits\":%d,\"access\":\"%s\",\"shared\":{\"text\":", bits,
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
    uint32_t conflicts = r->wavefronts - r->ideal;
    buf_printf(out, "},\"vector_elems\":%d,\"bytes_per_lane\":%u,\"lanes_per_wavefront\":%d,"
               "\"num_banks\":%d,\"wavefronts_per_instruction\":%u,\"ideal\":%u,"
               "\"bank_conflicts_per_instruction\":%u,\"instructions\":%u,"
               "\"conflict_wavefronts_per_warp\":%llu,\"triton_bank_conflicts\":",
               r->vec_elems, r->bytes, r->lanes, num_banks, r->wavefronts, r->ideal, conflicts,
               r->instructions, (unsigned long long)conflicts * r->instructions);
    if (r->triton_conflicts < 0)
        buf_puts(out, "null");
    else
        buf_printf(out, "%d", r->triton_conflicts);
    buf_printf(out, ",\"model\":\"%s\"", r->lanes == 64 ? lin_published : "measured");
    if (r->linear)
        buf_printf(out, ",\"formula_agrees\":%s",
                   r->side.formula == r->side.wavefronts ? "true" : "false");
    put_workbench(out, r);
}

int api_route_ttgir(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const fields[] = {"text", NULL};
    cJSON *root = NULL;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "text");
    if (api_fields_check(root, fields, err) < 0 || !cJSON_IsString(text)) {
        cJSON_Delete(root);
        return err->code ? -1 : sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                                        "required: a TTGIR dump or op as text");
    }
    struct work *w = malloc(sizeof *w);
    if (w == NULL) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    }
    int rc = -1;
    const char *t = text->valuestring;
    w->p = ta_space_init(&w->sp);
    if (ta_init(w->p, t, "text", t, "text", err) < 0)
        goto done;
    tdump_scan(t, strlen(t), &w->d);
    int costed = 0, first_skip = 1, mark = ta_mark(w->p), nmemo = 0;
    char first_reason[160] = "";
    int first_line = 0, first_column = 0;   /* its position, where it has one */
    struct buf skipped = {0}, frags = {0};
    for (int i = 0; i < w->d.nops; i++) {
        const struct tdump_op *o = &w->d.op[i];
        w->op_entry[i] = -1;
        if (o->kind == TDUMP_SKIP) {
            if (first_skip)
                snprintf(first_reason, sizeof first_reason, "%s", o->reason);
            put_skip(&skipped, &first_skip, o, o->reason, NULL);
            continue;
        }
        int dn = -1, sn = -1, bits = 0, hit = -1;
        for (int k = 0; k < nmemo && hit < 0; k++) {
            const struct tdump_op *q = &w->d.op[w->memo[k].op];
            if (q->kind == o->kind && q->types_len == o->types_len && o->types >= 0 &&
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
            w->memo[nmemo].op = i;
            w->memo[nmemo].off = frags.len;
            put_op(&frags, w, o, dn, sn, bits, w->d.num_banks);
            w->memo[nmemo].len = frags.len - w->memo[nmemo].off;
            w->memo[nmemo].r = w->r;
            w->memo[nmemo].rank = w->dist.rank;
            memcpy(w->memo[nmemo].shape, w->dist.shape, sizeof w->memo[nmemo].shape);
            hit = nmemo++;
        }
        w->op_entry[i] = hit;
        costed++;
    }
    /* the buffers: ops whose memdesc types read the same share one, and its fix */
    struct buf fixes = {0};
    size_t fix_off[TDUMP_MAX_OPS], fix_len[TDUMP_MAX_OPS];
    int ngroups = 0;
    for (int k = 0; k < nmemo; k++) {
        const struct tdump_op *o = &w->d.op[w->memo[k].op];
        w->memo[k].group = -1;
        for (int j = 0; j < k && w->memo[k].group < 0; j++)
            if (same_memdesc(t, o, &w->d.op[w->memo[j].op]))
                w->memo[k].group = w->memo[j].group;
        if (w->memo[k].group >= 0)
            continue;
        w->memo[k].group = ngroups;
        fix_off[ngroups] = fixes.len;
        put_fix(&fixes, w, k, nmemo);
        fix_len[ngroups] = fixes.len - fix_off[ngroups];
        ngroups++;
    }
    /* The answer repeats each op's fragment and its buffer's fix (a dump
     * repeats its ops: 512 of them answered 1.3 MB from 2.6 KB each): its
     * bound (64 bytes an op for its line, name and buffer; 1 KiB for the
     * rest, the target's 63 bytes escaped included), and the fragments held
     * meanwhile, from the answer budget before it is built (issue 36 item
     * 3, as /api/layout does). */
    size_t bound = 1024 + skipped.len;
    for (int i = 0; i < w->d.nops; i++)
        if (w->op_entry[i] >= 0)
            bound += 64 + w->memo[w->op_entry[i]].len + fix_len[w->memo[w->op_entry[i]].group];
    if (api_reserve(req, bound + frags.len + fixes.len + skipped.len + sizeof *w, err) < 0) {
        buf_free(&fixes);
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
        buf_printf(out, ",\"buffer\":%d,\"fix\":", w->memo[k].group);
        buf_put(out, fixes.p + fix_off[w->memo[k].group], fix_len[w->memo[k].group]);
        buf_putc(out, '}');
    }
    buf_free(&fixes);
    buf_printf(out, "],\"skipped\":[%s],\"num_banks\":%d,\"target\":",
               skipped.p ? skipped.p : "", w->d.num_banks);
    if (w->d.target) {
        char tg[64];
        size_t n = sz_utf8_cut(w->d.target, w->d.target_len < 63 ? (size_t)w->d.target_len : 63);
        memcpy(tg, w->d.target, n);
        tg[n] = '\0';
        buf_json_str(out, tg);
    } else {
        buf_puts(out, "null");
    }
    buf_printf(out, ",\"truncated\":%s,\"source\":\"vector width: Triton's largestVectorisation; "
               "triton_bank_conflicts: Gluon's bank_conflicts (GenericSwizzling.cpp); "
               "wavefronts: this tool's model\"}", w->d.truncated ? "true" : "false");
    if (costed == 0) {
        /* nothing to cost: the first op's reason, with its line */
        const struct tdump_op *o = w->d.nops ? &w->d.op[0] : NULL;
        if (o == NULL)
            sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                    "no shared-memory op found (ttg.local_load, ttg.local_store, ttg.local_alloc "
                    "with a value, ttg.async_copy_global_to_local)");
        else {
            sz_fail(err, SZ_INVALID_ARGUMENT, "text", "nothing to cost: %.*s on line %d: %s",
                    o->name_len, o->name, o->line, first_reason);
            /* "at": where the reason points, else the op's name */
            if (first_line > 0)
                sz_set_at(err, first_line, first_column);
            else
                ta_fail_pos(w->p, 0, o->pos, err);
        }
        buf_free(&skipped);
        buf_free(&frags);
        goto done;
    }
    buf_free(&skipped);
    buf_free(&frags);
    rc = 0;
done:
    free(w);
    cJSON_Delete(root);
    return rc;
}
