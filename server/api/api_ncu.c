/* api_ncu.c - POST /api/ncu/explain: a pasted ncu result and the access it
 * measured (a layout + thread layout, an instruction's offsets, or a named
 * pattern: the bodies /api/layout/access, /api/conflicts and /api/access
 * take) -> the model's count (instructions x (wavefronts - ideal)), what the
 * counter holds beyond it, and the ncu command that separates them; with
 * "list": true, only the launches the text holds, by their full names (the
 * page's launch menu).  The access is costed by those routes' own
 * functions; the text is ncu_text.c's.  This file reads the request and
 * writes the answer. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_routes.h"
#include "model/instr.h"
#include "model/ncu_text.h"

#define ACCESS_MAX_ARGS 24

/* Cost `access` with the route its members name; *answer the route's JSON. */
static int cost_access(const cJSON *access, cJSON **answer, struct sz_error *err)
{
    struct api_request sub = {0};
    struct api_arg args[ACCESS_MAX_ARGS];
    char vals[ACCESS_MAX_ARGS][32];
    char *body = NULL;
    api_route_fn fn;
    if (cJSON_GetObjectItemCaseSensitive(access, "layout")) {
        fn = api_route_layout_access;
        sub.path = "/api/layout/access";
    } else if (cJSON_GetObjectItemCaseSensitive(access, "offsets")) {
        fn = api_route_conflicts;
        sub.path = "/api/conflicts";
    } else if (cJSON_GetObjectItemCaseSensitive(access, "pattern")) {
        fn = api_route_access;
        sub.path = "/api/access";
    } else {
        return sz_fail(err, SZ_INVALID_ARGUMENT, "access",
                       "give the access ncu measured: {\"layout\", \"thread\" | \"atom\" | "
                       "\"lanes\", ...} as /api/layout/access takes it, {\"op\", \"offsets\", ...} "
                       "as /api/conflicts, or {\"pattern\", \"b\", \"m\", \"s\", ...} as /api/access");
    }
    sub.content_type = "application/json";
    if (fn == api_route_access) {   /* a GET route: the members are its query */
        sub.method = "GET";
        for (const cJSON *it = access->child; it; it = it->next) {
            if (sub.nargs == ACCESS_MAX_ARGS)
                return sz_fail(err, SZ_INVALID_ARGUMENT, "access", "too many members");
            if (cJSON_IsString(it))
                args[sub.nargs].value = it->valuestring;
            else if (cJSON_IsNumber(it))
                snprintf(vals[sub.nargs], sizeof vals[0], "%.17g", it->valuedouble),
                    args[sub.nargs].value = vals[sub.nargs];
            else if (cJSON_IsBool(it))
                args[sub.nargs].value = cJSON_IsTrue(it) ? "1" : "0";
            else
                return sz_fail(err, SZ_INVALID_ARGUMENT, "access", "member %s of a pattern "
                               "access must be a string or a number", it->string);
            args[sub.nargs++].key = it->string;
        }
        sub.args = args;
    } else {
        sub.method = "POST";
        if ((body = cJSON_PrintUnformatted(access)) == NULL)
            return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        sub.body = body;
        sub.body_len = strlen(body);
    }
    struct buf out = {0};
    int rc = fn(&sub, &out, err);
    free(body);
    if (rc < 0) {               /* the inner route's field, inside "access" */
        char f[sizeof err->field];
        snprintf(f, sizeof f, "access.%.24s", err->field[0] ? err->field : "?");
        memcpy(err->field, f, sizeof f);
        buf_free(&out);
        return -1;
    }
    *answer = out.oom ? NULL : cJSON_ParseWithLengthOpts(out.p, out.len, NULL, 0);
    buf_free(&out);
    return *answer ? 0 : sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* The text's launches, as `,"launches":N,"listed":[{index, id, line, kernel}]`
 * (full names; NCU_MAX_LAUNCHES of them at most, `launches` counts all). */
static int put_launches(struct buf *out, const struct ncu_text *t, struct sz_error *err)
{
    buf_printf(out, ",\"launches\":%d,\"listed\":[", t->launches);
    for (int k = 0; k < t->listed; k++) {
        const struct ncu_listed *l = &t->launch[k];
        size_t cap = (l->kernel.len > l->id.len ? l->kernel.len : l->id.len) + 1;
        char *name = malloc(cap);
        if (name == NULL)
            return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        buf_printf(out, "%s{\"index\":%d,\"line\":%d,\"id\":", k ? "," : "", l->index, l->line);
        ncu_field_copy(&l->id, name, cap);
        buf_json_str(out, name);
        buf_puts(out, ",\"kernel\":");
        ncu_field_copy(&l->kernel, name, cap);
        buf_json_str(out, name);
        buf_putc(out, '}');
        free(name);
    }
    buf_putc(out, ']');
    return 0;
}

int api_route_ncu_explain(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const fields[] = {"ncu", "access", "instructions", "kernel", "launch",
                                         "list", NULL};
    cJSON *root = NULL, *ans = NULL;
    struct ncu_text *t = NULL;
    char *name = NULL, *cmd = NULL, *rerun = NULL;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    int rc = -1;
    if (api_fields_check(root, fields, err) < 0)
        goto done;
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "ncu");
    const cJSON *access = cJSON_GetObjectItemCaseSensitive(root, "access");
    const cJSON *kern = cJSON_GetObjectItemCaseSensitive(root, "kernel");
    const cJSON *ni = cJSON_GetObjectItemCaseSensitive(root, "instructions");
    const cJSON *jl = cJSON_GetObjectItemCaseSensitive(root, "launch");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "list");
    int64_t ninstr = -1, launch = -1;
    if (!cJSON_IsString(text)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "ncu", "required: the text of `ncu --csv --page raw`, "
                "`--page details`, `--page source`, or the Details page's metric lines");
        goto done;
    }
    if (kern && !cJSON_IsString(kern)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "kernel", "must be a part of a Kernel Name");
        goto done;
    }
    if (list && !cJSON_IsBool(list)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "list", "must be true or false");
        goto done;
    }
    if ((ni && api_num_int(ni, "instructions", 0, 1e15, &ninstr, err) < 0) ||
        (jl && api_num_int(jl, "launch", 0, 1e9, &launch, err) < 0))
        goto done;
    if (!cJSON_IsTrue(list) && !cJSON_IsObject(access)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "access", "required: the access ncu measured, an "
                "object (a /api/layout/access, /api/conflicts or /api/access request)");
        goto done;
    }
    if ((t = malloc(sizeof *t)) == NULL) {
        sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        goto done;
    }
    if (ncu_parse(text->valuestring, kern ? kern->valuestring : NULL, (int)launch,
                  cJSON_IsTrue(list), t, err) < 0)
        goto done;
    if (cJSON_IsTrue(list)) {
        buf_printf(out, "{\"form\":\"%s\"", t->form);
        if (put_launches(out, t, err) < 0)
            goto done;
        buf_putc(out, '}');
        rc = 0;
        goto done;
    }
    if (cost_access(access, &ans, err) < 0)
        goto done;
    /* the model's numbers: one instruction, or a tiled copy's whole tile */
    struct ncu_model m = {0};
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(ans, "op");
    enum instr_op kind;
    if (instr_op_parse(cJSON_IsString(op) ? op->valuestring : NULL, &kind, err) < 0)
        goto done;
    m.kind = instr_kind(kind);
    const char *opn = m.kind->name;
    const struct instr_ncu *kn = &m.kind->ncu;
    if (!kn->conflicts && !kn->source) {    /* the kinds' table names none measured */
        sz_fail(err, SZ_INVALID_ARGUMENT, "access", "%s: no ncu counter is known for this "
                "kind (GET /api/ops)", opn);
        goto done;
    }
    const cJSON *tiled = cJSON_GetObjectItemCaseSensitive(ans, "tiled");
    const cJSON *tot = cJSON_GetObjectItemCaseSensitive(tiled, "totals");
    m.per_unit = tiled ? num(tiled, "instructions") : 1;
    m.wavefronts = tiled ? num(tot, "wavefronts") : num(ans, "wavefronts");
    m.ideal = tiled ? num(tot, "ideal_wavefronts") : num(ans, "ideal_wavefronts");
    m.instructions = (double)ninstr;
    struct ncu_explain e;
    ncu_explain(t, &m, &e);
    size_t ncap = (t->csv ? t->kernel_name.len : strlen(t->kernel)) + 1, ccap = ncu_command_cap(t);
    if ((name = malloc(ncap)) == NULL || (cmd = malloc(ccap)) == NULL ||
        (rerun = malloc(ccap)) == NULL) {
        sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        goto done;
    }
    ncu_kernel_name(t, -1, name, ncap);
    ncu_command(t, &m, cmd, ccap);
    ncu_rerun(t, rerun, ccap);
    buf_printf(out, "{\"source\":\"%s\",\"form\":\"%s\",\"kernel\":", t->csv ? "csv" : "lines",
               t->form);
    buf_json_str(out, name);
    buf_puts(out, ",\"launch\":");
    if (t->chosen >= 0)
        buf_printf(out, "%d", t->chosen);
    else
        buf_puts(out, "null");
    if (put_launches(out, t, err) < 0)
        goto done;
    buf_puts(out, ",\"metrics\":{");
    for (int k = 0; k < t->n; k++) {
        buf_puts(out, k ? "," : "");
        buf_json_str(out, t->m[k].name);
        buf_printf(out, ":%.17g", t->m[k].value);
    }
    buf_printf(out, "},\"access\":{\"op\":\"%s\",\"counted_as\":", opn);
    buf_json_str(out, kn->conflicts ? kn->conflicts : kn->source);
    buf_printf(out, ",\"wavefronts\":%.17g,"
               "\"ideal_wavefronts\":%.17g,\"instructions_per_unit\":%.17g,\"unit\":\"%s\"},",
               m.wavefronts, m.ideal, m.per_unit, tiled ? "tile" : "instruction");
    buf_puts(out, "\"conflicts_metric\":");
    if (e.conflicts_metric)
        buf_json_str(out, e.conflicts_metric);
    else
        buf_puts(out, "null");
    buf_printf(out, ",\"measured\":%.17g", e.measured);
    /* the numbers the text may lack: null when it does */
    const struct { const char *key; int known; double v; } nums[] = {
        {"instructions", e.instructions >= 0, e.instructions},
        {"predicted", e.predicted >= 0, e.predicted},
        {"remainder", e.predicted >= 0 && e.conflicts_metric, e.remainder},
        {"arbitration", e.has_arbitration, e.arbitration},
        {"sass_conflicts", e.has_sass, e.sass},
        {"source_wavefronts", e.has_source, e.source_wavefronts},
        {"source_ideal", e.has_source_conflicts, e.source_ideal},
        {"source_conflicts", e.has_source_conflicts, e.source_conflicts},
    };
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
        buf_printf(out, ",\"%s\":", nums[k].key);
        if (nums[k].known)
            buf_printf(out, "%.17g", nums[k].v);
        else
            buf_puts(out, "null");
    }
    buf_printf(out, ",\"instructions_from\":\"%s\"", e.instr_source);
    /* the rule text the counts came from (the details page of sections) */
    buf_puts(out, ",\"rule\":");
    if (e.rule) {
        buf_puts(out, "{\"name\":");
        buf_json_str(out, e.rule->rule);
        buf_printf(out, ",\"line\":%d,\"of\":\"%s\",\"requests\":%.17g,\"bank_conflicts\":%.17g,"
                   "\"wavefronts\":%.17g}", e.rule->line, e.rule == &t->rule[1] ?
                   "shared stores" : "shared loads", e.rule->requests, e.rule->conflicts,
                   e.rule->wavefronts);
    } else {
        buf_puts(out, "null");
    }
    buf_printf(out, ",\"verdict\":\"%s\",\"message\":", e.verdict);
    buf_json_str(out, e.message);
    buf_puts(out, ",\"command\":");
    buf_json_str(out, cmd);
    /* the details page of sections without the counters: the command that prints them */
    if (rerun[0] && (e.rule || !e.conflicts_metric)) {
        buf_puts(out, ",\"rerun\":");
        buf_json_str(out, rerun);
    }
    if (!e.conflicts_metric) {
        buf_puts(out, ",\"looked_for\":");
        buf_json_str(out, ncu_looked_for());
    }
    buf_putc(out, '}');
    rc = 0;
done:
    free(name);
    free(cmd);
    free(rerun);
    free(t);
    cJSON_Delete(ans);
    cJSON_Delete(root);
    return rc;
}
