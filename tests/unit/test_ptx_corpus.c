/* test_ptx_corpus.c - every launch of the measured corpus (issue 38) through
 * the analysis against what Nsight Compute counted on an H200
 * (tests/data/ptx/measured_h200.json): per kind the executions (warps with a
 * lane on, and the Source page's), wavefronts and ideal, and every source
 * line both ways.  SZ_PTX_DATA names another folder.  Pure: no server. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "ptx/ptx_analyze.h"
#include "check.h"
#include "client.h"

/* dir/name whole (client_slurp), its length in *len; NULL when unreadable. */
static char *slurp(const char *dir, const char *name, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = client_slurp(path);
    *len = text ? strlen(text) : 0;
    return text;
}

static cJSON *item(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }
static uint64_t num(const cJSON *o, const char *k) { return (uint64_t)cJSON_GetNumberValue(item(o, k)); }

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Whether the measured `kinds` object ({"ld": {...}, ...}) equals the
 * report's totals, executions read from `source` (Source page) or not. */
static int totals_equal(const cJSON *kinds, const struct ptx_report *r, int source, char *why,
                        size_t cap)
{
    for (int k = 0; k < PK_NKINDS; k++) {
        const cJSON *m = item(kinds, ptx_cost_kind_name(k));
        const struct ptx_count *c = &r->totals[k];
        uint64_t ex = source ? c->source_executions : c->executions;
        uint64_t me = m ? num(m, "executions") : 0, mw = m ? num(m, "wavefronts") : 0,
                 mi = m ? num(m, "ideal") : 0;
        if (ex != me || c->wavefronts != mw || c->ideal != mi) {
            snprintf(why, cap, "%s: predicted %llu/%llu/%llu, measured %llu/%llu/%llu",
                     ptx_cost_kind_name(k), (unsigned long long)ex,
                     (unsigned long long)c->wavefronts, (unsigned long long)c->ideal,
                     (unsigned long long)me, (unsigned long long)mw, (unsigned long long)mi);
            return 0;
        }
    }
    return 1;
}

/* Every measured line has a predicted row with its numbers, and the
 * predicted rows are no more than the measured ones. */
static int lines_equal(const cJSON *lines, const struct ptx_module *m, const struct ptx_report *r,
                       char *why, size_t cap)
{
    int n = 0;
    for (const cJSON *l = lines ? lines->child : NULL; l; l = l->next, n++) {
        const char *file = base(cJSON_GetStringValue(item(l, "file")));
        const char *kind = cJSON_GetStringValue(item(l, "kind"));
        int line = (int)num(l, "line");
        const struct ptx_line *p = NULL;
        for (uint32_t i = 0; i < r->nlines && !p; i++)
            if (r->lines[i].line == line && !strcmp(ptx_cost_kind_name(r->lines[i].kind), kind) &&
                !strcmp(base(ptx_parse_file(m, r->lines[i].file)), file))
                p = &r->lines[i];
        if (!p || p->count.source_executions != num(l, "executions") ||
            p->count.wavefronts != num(l, "wavefronts") || p->count.ideal != num(l, "ideal")) {
            snprintf(why, cap, "%s:%d %s: predicted %llu/%llu/%llu, measured %llu/%llu/%llu",
                     file, line, kind, p ? (unsigned long long)p->count.source_executions : 0ull,
                     p ? (unsigned long long)p->count.wavefronts : 0ull,
                     p ? (unsigned long long)p->count.ideal : 0ull,
                     (unsigned long long)num(l, "executions"),
                     (unsigned long long)num(l, "wavefronts"), (unsigned long long)num(l, "ideal"));
            return 0;
        }
    }
    if ((int)r->nlines != n) {
        snprintf(why, cap, "%u predicted lines, %d measured", r->nlines, n);
        return 0;
    }
    return 1;
}

/* One corpus launch `k` against its measurement `meas`. */
static void launch(const char *dir, const cJSON *k, const cJSON *meas)
{
    const char *name = cJSON_GetStringValue(item(k, "name"));
    size_t len;
    char *text = slurp(dir, cJSON_GetStringValue(item(k, "ptx")), &len);
    CHECK(text != NULL, "%s: its PTX", name);
    if (!text)
        return;
    struct ptx_module m;
    struct ptx_report r;
    struct sz_error err;
    memset(&r, 0, sizeof r);
    uint64_t params[16] = {0};
    uint8_t nulls[16] = {0};
    const cJSON *ps = item(k, "params");
    int np = cJSON_GetArraySize(ps);
    for (int i = 0; i < np && i < 16; i++) {
        const cJSON *v = cJSON_GetArrayItem(ps, i);
        nulls[i] = cJSON_IsNull(v);
        params[i] = nulls[i] ? 0 : (uint64_t)(int64_t)cJSON_GetNumberValue(v);
    }
    struct ptx_launch l;
    memset(&l, 0, sizeof l);
    for (int d = 0; d < 3; d++) {
        l.block[d] = (uint32_t)cJSON_GetNumberValue(cJSON_GetArrayItem(item(k, "block"), d));
        l.grid[d] = (uint32_t)cJSON_GetNumberValue(cJSON_GetArrayItem(item(k, "grid"), d));
    }
    l.nparams = np;
    l.params = params;
    l.param_null = nulls;
    l.dynamic_shared = num(k, "dynamic_shared");
    l.global_bytes = num(k, "global_bytes");
    int rc = ptx_parse(text, len, &m, &err);
    if (rc == 0)
        rc = ptx_analyze(&m, cJSON_GetStringValue(item(k, "kernel")), &l, &r, NULL, &err);
    CHECK(rc == 0, "%s: %s", name, err.message);
    char why[240] = "";
    if (rc == 0) {
        CHECK(totals_equal(item(meas, "totals"), &r, 0, why, sizeof why), "%s totals: %s", name,
              why);
        CHECK(totals_equal(item(meas, "source_totals"), &r, 1, why, sizeof why),
              "%s Source page totals: %s", name, why);
        CHECK(lines_equal(item(meas, "lines"), &m, &r, why, sizeof why), "%s lines: %s", name, why);
        CHECK(!r.partial, "%s: partial", name);
    }
    ptx_cost_free(&r);
    ptx_module_free(&m);
    free(text);
}

int main(void)
{
    const char *dir = getenv("SZ_PTX_DATA") ? getenv("SZ_PTX_DATA") : "tests/data/ptx";
    size_t n1 = 0, n2 = 0;
    char *ctext = slurp(dir, "corpus.json", &n1), *mtext = slurp(dir, "measured_h200.json", &n2);
    cJSON *corpus = ctext ? cJSON_ParseWithLength(ctext, n1) : NULL;
    cJSON *measured = mtext ? cJSON_ParseWithLength(mtext, n2) : NULL;
    CHECK(cJSON_GetArraySize(corpus) >= 15 && measured, "%s/corpus.json and measured_h200.json "
          "readable (the corpus of issue 38)", dir);
    const cJSON *launches = item(measured, "launches");
    int ran = 0;
    for (const cJSON *k = corpus ? corpus->child : NULL; k; k = k->next) {
        const char *name = cJSON_GetStringValue(item(k, "name"));
        const cJSON *meas = NULL;
        for (const cJSON *x = launches ? launches->child : NULL; x && !meas; x = x->next)
            if (!strcmp(cJSON_GetStringValue(item(x, "name")), name))
                meas = x;
        CHECK(meas != NULL, "%s: measured", name);
        if (meas) {
            launch(dir, k, meas);
            ran++;
        }
    }
    printf("test_ptx_corpus: %d launches compared with %s/measured_h200.json\n", ran, dir);
    cJSON_Delete(corpus);
    cJSON_Delete(measured);
    free(ctext);
    free(mtext);
    return check_summary("test_ptx_corpus");
}
