/* ncu.c: the counter pass of ncu.h. Re-runs this tool under Nsight Compute
 * in --ncu-iters mode (one launch per pattern, in input order, as
 * tests/calib/run_calib.sh does) and reads ncu's raw CSV page with the
 * server's reader (model/ncu_csv.h). It must never take the tool down:
 * every failure - no ncu, no permission, a crash, a timeout, an unexpected
 * CSV - ends as a sentence in ncu_status.reason. */
#define _GNU_SOURCE 1
#include "ncu.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/proc.h"
#include "model/ncu_csv.h"

/* Which counter answers which question, per op: the kind's row (instr.c's
 * instr_kinds[].ncu, where each name is explained).  The Source-page metric
 * is what ncu shows per instruction; a kind without an executed-instruction
 * count (stmatrix) is divided by the launched count. */
static const struct instr_ncu *metrics_of(enum instr_op op)
{
    return &instr_kind(op)->ncu;
}

/* issue 23: the deterministic sm__sass_* twin of each kind's Source-page
 * metric (smsp__sass_X -> sm__sass_X; ncu --query-metrics lists op_ld, st,
 * ldsm, stsm, atom and ldgsts on sm_90, and they equal the Source page's on
 * every row measured: bench/results/measure-issue23-*) and the arbitration
 * counter, which separates L1 fills and tensor-core reads from address
 * conflicts; both go to the tool's results and so to /api/measure. */
#define ARB "l1tex__data_bank_conflicts_type_arbitration.sum"
static const char *sm_twin(enum instr_op op)
{
    static char names[INSTR_NOPS][96];
    const char *src = metrics_of(op)->source, *p = "smsp__sass_";
    if (!src || strncmp(src, p, strlen(p)) != 0)
        return NULL;
    if (!names[op][0])
        snprintf(names[op], sizeof names[op], "sm__sass_%s", src + strlen(p));
    return names[op];
}

static void say(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

int ncu_find(const char *override, char *out, size_t cap)
{
    static const char *const fallbacks[] = {"/usr/local/cuda/bin/ncu", NULL};
    if (override && *override) {
        if (access(override, X_OK) == 0) {
            say(out, cap, "%s", override);
            return 0;
        }
        say(out, cap, "ncu not found: %s is not an executable", override);
        return -1;
    }
    if (proc_which("ncu", fallbacks, out, cap) == 0)
        return 0;
    say(out, cap, "ncu not found (looked in PATH and /usr/local/cuda/bin/ncu): wavefronts "
        "need Nsight Compute; cycles are measured without it");
    return -1;
}

/* ncu's CSV for a chunk of 48 patterns is ~50 KiB; its logs can be long. */
#define NCU_MAX_OUTPUT (16u << 20)

static struct proc version_proc;
static int version_started;

void ncu_version_start(const char *ncu)
{
    char *argv[] = {(char *)ncu, (char *)"--version", NULL};
    struct proc_spec spec = {.argv = argv, .out_cap = NCU_MAX_OUTPUT, .err_cap = NCU_MAX_OUTPUT};
    version_started = proc_start(&version_proc, &spec, NULL) == 0;
    if (!version_started)
        proc_free(&version_proc);
}

void ncu_version_finish(struct ncu_status *st, double deadline)
{
    if (!version_started)
        return;
    version_started = 0;
    proc_wait(&version_proc, deadline);
    const char *v = version_proc.out ? strstr(version_proc.out, "Version ") : NULL;
    if (v) {
        v += 8;
        size_t n = strcspn(v, " \r\n");
        say(st->version, sizeof st->version, "%.*s", (int)(n < 60 ? n : 60), v);
    }
    proc_free(&version_proc);
}

/* ---- CSV: model/ncu_csv.h reads it; this keeps each pattern's counters ---- */

/* The counters of one launch, in the order names() lists them; -1 where the
 * CSV lacks the column or holds no number ("n/a"). */
enum { V_EXEC, V_SRC, V_HW, V_BC, V_SM, V_ARB, NV };

static void names(enum instr_op op, const char *name[NV])
{
    const struct instr_ncu *m = metrics_of(op);
    name[V_EXEC] = m->executed, name[V_SRC] = m->source, name[V_HW] = m->wavefronts;
    name[V_BC] = m->conflicts, name[V_SM] = sm_twin(op), name[V_ARB] = ARB;
}

struct rows {
    const struct input_pattern *pats;
    int n;
    double (*v)[NV];                /* [n]: the launches matched to patterns by position */
    unsigned char (*seen)[NV];      /* the first column of a name counts, as ncu writes one */
};

static int on_metric(void *ctx, const struct ncu_launch *l, const struct ncu_cell *m)
{
    struct rows *r = (struct rows *)ctx;
    const char *name[NV];
    if (l->index >= r->n)
        return 0;
    names(r->pats[l->index].in.op, name);
    for (int k = 0; k < NV; k++) {
        double x;
        if (!name[k] || r->seen[l->index][k] || !ncu_field_is(&m->name, name[k]))
            continue;
        r->seen[l->index][k] = 1;
        r->v[l->index][k] = ncu_number(m->value.s, m->value.len, &x) && x >= 0 ? x : -1;
    }
    return 0;
}

int ncu_parse_csv(const char *text, const struct input_pattern *pats, int n, int launched,
                  struct ncu_counts *counts)
{
    struct rows r = {pats, n, NULL, NULL};
    struct ncu_csv_sink sink = {&r, NULL, on_metric};
    struct ncu_csv info;
    r.v = (double (*)[NV])malloc(sizeof *r.v * (size_t)(n > 0 ? n : 1));
    r.seen = (unsigned char (*)[NV])calloc((size_t)(n > 0 ? n : 1), sizeof *r.seen);
    if (!r.v || !r.seen || ncu_csv_read(text ? text : "", &sink, &info, NULL) != 0) {
        free(r.v), free(r.seen);
        return -1;
    }
    for (int i = 0; i < n && i < info.launches; i++) {
        struct ncu_counts *c = &counts[i];
        double *v = r.v[i];
        for (int k = 0; k < NV; k++)
            v[k] = r.seen[i][k] ? v[k] : -1;
        double inst = v[V_EXEC] > 0 ? v[V_EXEC] : launched;
        if ((c->has_sm = v[V_SM] >= 0))
            c->wavefronts_sm = v[V_SM] / inst;
        if ((c->has_arb = v[V_ARB] >= 0))
            c->arbitration = v[V_ARB] / inst;
        c->instructions = inst;
        if ((c->has_src = v[V_SRC] >= 0))
            c->wavefronts = v[V_SRC] / inst;
        if ((c->has_hw = v[V_HW] >= 0))
            c->wavefronts_hw = v[V_HW] / inst;
        if ((c->has_bc = v[V_BC] >= 0))
            c->bank_conflicts = v[V_BC] / inst;
    }
    free(r.v), free(r.seen);
    return info.launches;
}

/* ---- the pass -------------------------------------------------------------- */

static void add_metric(char *list, size_t cap, const char *m)
{
    if (!m)
        return;
    size_t n = strlen(m);
    for (const char *p = list; (p = strstr(p, m)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return;
    size_t len = strlen(list);
    if (len + n + 2 <= cap)
        snprintf(list + len, cap - len, "%s%s", len ? "," : "", m);
}

/* The first "==ERROR==" line of s (or its last non-empty line), trimmed. */
static void gist(const char *s, char *out, size_t cap)
{
    const char *e = s ? strstr(s, "==ERROR==") : NULL;
    out[0] = '\0';
    if (!s)
        return;
    if (!e) {
        const char *end = s + strlen(s);
        while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
            end--;
        e = end;
        while (e > s && e[-1] != '\n')
            e--;
        say(out, cap, "%.*s", (int)(end - e > 300 ? 300 : end - e), e);
        return;
    }
    size_t n = strcspn(e, "\r\n");
    say(out, cap, "%.*s", (int)(n > 300 ? 300 : n), e);
}

/* The chunk in the line format, named p0, p1, ... (the profiled run's rows
 * are matched by position, not by name). */
static char *chunk_input(const struct input_pattern *pats, int n)
{
    size_t cap = (size_t)n * 1024 + 1, len = 0;     /* cp.async lines carry 64 offsets */
    char *s = (char *)malloc(cap);
    for (int i = 0; s && i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", i);
        int k = input_format_line(&pats[i], name, s + len, cap - len);
        if (k < 0) {
            free(s);
            return NULL;
        }
        len += (size_t)k;
    }
    if (s)
        s[len] = '\0';
    return s;
}

enum chunk_result { CHUNK_OK, CHUNK_RETRY_PLAIN, CHUNK_STOP, CHUNK_SKIP };

static enum chunk_result run_chunk(const struct ncu_config *cfg, const struct input_pattern *pats,
                                   int n, int with_sass, struct ncu_counts *counts,
                                   struct ncu_status *st)
{
    char metrics[2048] = "", dev[16], warps[16], iters[16], alarm_s[16];
    for (int i = 0; i < n; i++) {
        enum instr_op op = pats[i].in.op;
        if (with_sass) {
            add_metric(metrics, sizeof metrics, metrics_of(op)->source);
            add_metric(metrics, sizeof metrics, sm_twin(op));
        }
        add_metric(metrics, sizeof metrics, ARB);
        add_metric(metrics, sizeof metrics, metrics_of(op)->wavefronts);
        add_metric(metrics, sizeof metrics, metrics_of(op)->conflicts);
        add_metric(metrics, sizeof metrics, metrics_of(op)->executed);
    }
    double left = cfg->deadline - proc_now();
    snprintf(dev, sizeof dev, "%d", cfg->device);
    snprintf(warps, sizeof warps, "%d", cfg->warps);
    snprintf(iters, sizeof iters, "%d", cfg->iters);
    /* The profiled process ends itself shortly after our deadline, whatever
     * ncu does: a killed ncu must not leave it holding the GPU. */
    snprintf(alarm_s, sizeof alarm_s, "%d", (int)ceil(left) + 2);
    char *argv[] = {(char *)cfg->ncu, (char *)"--csv", (char *)"--page", (char *)"raw",
                    (char *)"--print-units", (char *)"base",
                    (char *)"--target-processes", (char *)"application-only",
                    (char *)"--clock-control", (char *)"none",
                    (char *)"--cache-control", (char *)"none",
                    (char *)"--kernel-name", (char *)"regex:(probe|atomic|copy)_kernel",
                    (char *)"--metrics", metrics,
                    (char *)cfg->self, (char *)"--ncu-iters", iters, (char *)"--warps", warps,
                    (char *)"--device", dev, (char *)"--alarm", alarm_s, (char *)"--quiet", NULL};
    char *input = chunk_input(pats, n);
    struct proc p;
    struct sz_error err;
    if (!input) {
        say(st->reason, sizeof st->reason, "out of memory");
        return CHUNK_STOP;
    }
    /* In our process group: the server's kill at its timeout reaches ncu. */
    struct proc_spec spec = {.argv = argv, .input = input, .input_len = strlen(input),
                             .out_cap = NCU_MAX_OUTPUT, .err_cap = NCU_MAX_OUTPUT};
    if (proc_start(&p, &spec, &err) < 0) {
        free(input);
        proc_free(&p);
        say(st->reason, sizeof st->reason, "ncu: %s", err.message);
        return CHUNK_STOP;
    }
    proc_wait(&p, cfg->deadline);
    free(input);

    enum chunk_result res = CHUNK_OK;
    int rows = p.timed_out ? -1 : ncu_parse_csv(p.out, pats, n, cfg->warps * cfg->iters * 8, counts);
    if ((p.out && strstr(p.out, "ERR_NVGPUCTRPERM")) || (p.err && strstr(p.err, "ERR_NVGPUCTRPERM"))) {
        say(st->reason, sizeof st->reason,
            "profiling not permitted (ERR_NVGPUCTRPERM): GPU performance counters are "
            "restricted to admin users on this machine (NVreg_RestrictProfilingToAdminUsers=0 "
            "or run as root to read them); cycles are measured without them");
        res = CHUNK_STOP;
    } else if (p.timed_out) {
        say(st->reason, sizeof st->reason, "ncu did not finish within the time left for it "
            "(%.1f s) and was killed", left);
        res = CHUNK_STOP;
    } else if (rows < 0) {
        char g[320];
        gist(p.err && strstr(p.err, "==ERROR==") ? p.err : p.out, g, sizeof g);
        if (!g[0])
            gist(p.err, g, sizeof g);
        if (with_sass) {
            res = CHUNK_RETRY_PLAIN;
        } else {
            say(st->reason, sizeof st->reason, "ncu produced no counters (%s %d): %s",
                p.signal ? "signal" : "exit", p.signal ? p.signal : p.exit_code,
                g[0] ? g : "no output");
            res = CHUNK_STOP;
        }
    } else if (rows != n) {
        char g[320];
        gist(p.err, g, sizeof g);
        say(st->reason, sizeof st->reason, "ncu reported %d profiled launches for %d patterns "
            "(exit %d): counters of this chunk dropped%s%s", rows, n, p.exit_code,
            g[0] ? ": " : "", g);
        memset(counts, 0, sizeof *counts * (size_t)n);
        res = CHUNK_SKIP;
    }
    proc_free(&p);
    return res;
}

void ncu_profile(const struct ncu_config *cfg, const struct input_pattern *pats, int n,
                 struct ncu_counts *counts, struct ncu_status *st)
{
    double t0 = proc_now();
    int with_sass = 1, chunk = cfg->chunk > 0 ? cfg->chunk : 48;
    memset(counts, 0, sizeof *counts * (size_t)n);
    st->used = 0;
    st->profiled = 0;
    st->reason[0] = '\0';
    say(st->path, sizeof st->path, "%s", cfg->ncu);
    for (int c = 0; c < n;) {
        int k = n - c < chunk ? n - c : chunk;
        if (cfg->deadline - proc_now() < 1.0) {
            say(st->reason, sizeof st->reason, "the time for ncu ran out after %d of %d "
                "patterns", c, n);
            break;
        }
        enum chunk_result r = run_chunk(cfg, pats + c, k, with_sass, counts + c, st);
        if (r == CHUNK_RETRY_PLAIN) {
            /* Some ncu builds or GPUs lack the SASS-patched metrics: keep the
             * hardware counters rather than nothing. */
            with_sass = 0;
            r = run_chunk(cfg, pats + c, k, 0, counts + c, st);
            if (r == CHUNK_OK)
                say(st->reason, sizeof st->reason, "ncu refused the Source-page metrics "
                    "(smsp__sass_*): only the hardware counters were read");
        }
        if (r == CHUNK_STOP)
            break;
        c += k;
    }
    for (int i = 0; i < n; i++)
        if (counts[i].has_src || counts[i].has_hw)
            st->profiled++;
    st->used = st->profiled > 0;
    if (st->used && st->profiled < n && !st->reason[0])
        say(st->reason, sizeof st->reason, "counters for %d of %d patterns", st->profiled, n);
    st->seconds = proc_now() - t0;
}
