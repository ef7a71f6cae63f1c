/* ptx_compare.c - predicted beside measured for one kernel launch
 * (ptx_compare.h): the analysis's totals and lines (ptx_request.h) matched
 * with the measurement tool's, count for count.  Equality is the only test:
 * both sides count whole warp instructions and wavefronts, so a difference of
 * one is a disagreement.  Writes with buf.c; models nothing. */
#include "ptx_compare.h"

#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A tool count: -1 where it gave none (null, or no such member). */
static double count(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 ? v->valuedouble : -1;
}

static void put_num(struct buf *out, double v)
{
    if (v < 0)
        buf_puts(out, "null");
    else
        buf_printf(out, "%.0f", v);
}

static int same(double measured, uint64_t predicted)
{
    return measured >= 0 && measured == (double)predicted;
}

/* One kind: the raw counters' executions (warps with a lane on) and the
 * Source page's (predicated-off warps too) against the two the analysis
 * keeps; wavefronts and ideal from the raw page. */
static int put_kind(struct buf *out, int k, const struct ptx_count *p, const cJSON *tot,
                    const cJSON *src, int used)
{
    const char *name = ptx_cost_kind_name(k);
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(tot, name);
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(src, name);
    double me = count(m, "executions"), mse = count(ms, "executions"),
           mw = count(m, "wavefronts"), mi = count(m, "ideal");
    if (!p->source_executions && me <= 0 && mse <= 0 && mw <= 0)
        return -1;      /* neither side has the kind */
    int agree = same(me, p->executions) && same(mse, p->source_executions) &&
                same(mw, p->wavefronts) && same(mi, p->ideal);
    buf_printf(out, "{\"kind\":\"%s\",\"predicted\":{\"executions\":%llu,\"source_executions\":"
               "%llu,\"wavefronts\":%llu,\"ideal\":%llu},\"measured\":", name,
               (unsigned long long)p->executions, (unsigned long long)p->source_executions,
               (unsigned long long)p->wavefronts, (unsigned long long)p->ideal);
    if (!used) {
        buf_puts(out, "null,\"agree\":null}");
        return 1;
    }
    buf_puts(out, "{\"executions\":");
    put_num(out, me);
    buf_puts(out, ",\"source_executions\":");
    put_num(out, mse);
    buf_puts(out, ",\"wavefronts\":");
    put_num(out, mw);
    buf_puts(out, ",\"ideal\":");
    put_num(out, mi);
    buf_printf(out, "},\"agree\":%s}", agree ? "true" : "false");
    return agree;
}

static void put_counts(struct buf *out, double e, double w, double i)
{
    buf_puts(out, "{\"executions\":");
    put_num(out, e);
    buf_puts(out, ",\"wavefronts\":");
    put_num(out, w);
    buf_puts(out, ",\"ideal\":");
    put_num(out, i);
    buf_puts(out, ",\"excess\":");
    put_num(out, e < 0 || w < 0 || i < 0 ? -1 : w - i);
    buf_putc(out, '}');
}

/* Whether tool line `t` is analysis line `ln`. */
static int same_line(const struct ptx_request *q, const struct ptx_line *ln, const cJSON *t)
{
    const char *file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "file"));
    const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "kind"));
    return file && kind && count(t, "line") == ln->line &&
           !strcmp(kind, ptx_cost_kind_name(ln->kind)) &&
           !strcmp(base_name(file), base_name(ptx_parse_file(&q->m, ln->file)));
}

void ptx_compare_json(struct buf *out, const struct ptx_request *q, const cJSON *tool)
{
    const cJSON *ncu = cJSON_GetObjectItemCaseSensitive(tool, "ncu");
    int used = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ncu, "used"));
    const cJSON *tot = cJSON_GetObjectItemCaseSensitive(tool, "totals");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(tool, "source_totals");
    const cJSON *lines = cJSON_GetObjectItemCaseSensitive(tool, "lines");
    int all = 1;
    buf_puts(out, ",\"totals\":[");
    for (int k = 0, n = 0; k < PK_NKINDS; k++) {
        size_t at = out->len;
        if (n)
            buf_putc(out, ',');
        int a = put_kind(out, k, &q->r.totals[k], tot, src, used);
        if (a < 0) {
            out->len = at;      /* neither side: no row */
            continue;
        }
        n++;
        all &= a;
    }
    /* Every analysed line, then the lines only the GPU counted. */
    int nlines = cJSON_GetArraySize(lines), agree_n = 0, total = 0;
    unsigned char *matched = nlines > 0 ? calloc((size_t)nlines, 1) : NULL;
    buf_puts(out, "],\"lines\":[");
    for (uint32_t i = 0; i < q->r.nlines; i++) {
        const struct ptx_line *ln = &q->r.lines[i];
        const cJSON *t = NULL;
        int ti = 0;
        for (const cJSON *x = lines ? lines->child : NULL; x && !t; x = x->next, ti++)
            if (!(matched && matched[ti]) && same_line(q, ln, x))
                t = x;
        if (t && matched)
            matched[ti - 1] = 1;
        const struct ptx_count *c = &ln->count;
        int agree = t && same(count(t, "executions"), c->source_executions) &&
                    same(count(t, "wavefronts"), c->wavefronts) && same(count(t, "ideal"), c->ideal);
        /* A line ncu counted nothing on: the analysis's executions are all
         * predicated-off warps with no wavefront; the Source page lists none. */
        buf_printf(out, "%s{\"file\":", total ? "," : "");
        buf_json_str(out, ptx_parse_file(&q->m, ln->file));
        buf_printf(out, ",\"line\":%d,\"kind\":\"%s\",\"predicted\":", ln->line,
                   ptx_cost_kind_name(ln->kind));
        put_counts(out, (double)c->source_executions, (double)c->wavefronts, (double)c->ideal);
        buf_puts(out, ",\"measured\":");
        if (t)
            put_counts(out, count(t, "executions"), count(t, "wavefronts"), count(t, "ideal"));
        else
            buf_puts(out, "null");
        buf_printf(out, ",\"agree\":%s}", !used ? "null" : agree ? "true" : "false");
        agree_n += agree;
        total++;
    }
    int ti = 0;
    for (const cJSON *x = lines ? lines->child : NULL; x; x = x->next, ti++) {
        if (matched && matched[ti])
            continue;
        const char *file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "file"));
        const char *kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, "kind"));
        buf_printf(out, "%s{\"file\":", total ? "," : "");
        buf_json_str(out, file ? file : "");
        buf_puts(out, ",\"line\":");
        put_num(out, count(x, "line"));
        buf_puts(out, ",\"kind\":");
        buf_json_str(out, kind ? kind : "");
        buf_puts(out, ",\"predicted\":null,\"measured\":");
        put_counts(out, count(x, "executions"), count(x, "wavefronts"), count(x, "ideal"));
        buf_puts(out, ",\"agree\":false}");
        total++;
    }
    free(matched);
    all &= agree_n == total;
    buf_printf(out, "],\"lines_agree\":%d,\"lines_total\":%d,\"agree\":%s", agree_n, total,
               !used ? "null" : all ? "true" : "false");
}
