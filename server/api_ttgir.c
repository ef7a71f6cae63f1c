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
#include "linear.h"
#include "triton_access.h"
#include "ttgir_dump.h"

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
    } memo[TDUMP_MAX_OPS];
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
        n = sizeof tmp - 1;
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
    buf_putc(out, '}');
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
    struct buf skipped = {0}, frags = {0};
    buf_puts(out, "{\"ops\":[");
    for (int i = 0; i < w->d.nops; i++) {
        const struct tdump_op *o = &w->d.op[i];
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
                if (first_skip)
                    snprintf(first_reason, sizeof first_reason, "%s", why.message);
                put_skip(&skipped, &first_skip, o, why.message, why.field);
                continue;
            }
            w->memo[nmemo].op = i;
            w->memo[nmemo].off = frags.len;
            put_op(&frags, w, o, dn, sn, bits, w->d.num_banks);
            w->memo[nmemo].len = frags.len - w->memo[nmemo].off;
            hit = nmemo++;
        }
        buf_printf(out, "%s{\"op\":\"%s\",\"line\":%d,", costed++ ? "," : "", kind_name(o->kind),
                   o->line);
        buf_put(out, frags.p + w->memo[hit].off, w->memo[hit].len);
    }
    buf_printf(out, "],\"skipped\":[%s],\"num_banks\":%d,\"target\":",
               skipped.p ? skipped.p : "", w->d.num_banks);
    if (w->d.target) {
        char tg[64];
        int n = w->d.target_len < 63 ? w->d.target_len : 63;
        memcpy(tg, w->d.target, (size_t)n);
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
        else
            sz_fail(err, SZ_INVALID_ARGUMENT, "text", "nothing to cost: %.*s on line %d: %s",
                    o->name_len, o->name, o->line, first_reason);
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
