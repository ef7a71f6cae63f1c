/* ncu.c: the counter pass of ncu.h. Re-runs this tool under Nsight Compute
 * in --ncu-iters mode (one launch per pattern, in input order, as
 * tests/calib/run_calib.sh does) and reads ncu's raw CSV page. It must
 * never take the tool down: every failure - no ncu, no permission, a crash,
 * a timeout, an unexpected CSV - ends as a sentence in ncu_status.reason. */
#define _GNU_SOURCE 1
#include "ncu.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/proc.h"

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

/* ---- CSV ------------------------------------------------------------------ */

enum { MAX_FIELDS = 512 };

/* Splits one CSV line (RFC 4180 quoting) in place; returns the field count. */
static int csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == max)
            return n;
        if (*p == '"') {
            char *w = ++p;
            fields[n++] = w;
            for (;;) {
                if (*p == '\0')
                    break;
                if (*p == '"') {
                    if (p[1] == '"') {
                        *w++ = '"';
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                *w++ = *p++;
            }
            *w = '\0';
            while (*p && *p != ',')
                p++;
        } else {
            fields[n++] = p;
            while (*p && *p != ',')
                p++;
        }
        if (*p != ',')
            return n;
        *p++ = '\0';
    }
}

/* A metric value: digits with optional thousands separators, or -1 (n/a). */
static double value(const char *s)
{
    char buf[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof buf; s++)
        if (*s != ',' && *s != ' ')
            buf[n++] = *s;
    buf[n] = '\0';
    if (n == 0 || !(isdigit((unsigned char)buf[0]) || buf[0] == '.'))
        return -1;
    char *end;
    double v = strtod(buf, &end);
    return *end == '\0' && isfinite(v) ? v : -1;
}

static int column(char **hdr, int nh, const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < nh; i++)
        if (strcmp(hdr[i], name) == 0)
            return i;
    return -1;
}

int ncu_parse_csv(const char *text, const struct input_pattern *pats, int n, int launched,
                  struct ncu_counts *counts)
{
    char *copy = strdup(text ? text : "");
    char **hdr = (char **)calloc(MAX_FIELDS, sizeof *hdr);
    char **f = (char **)calloc(MAX_FIELDS, sizeof *f);
    int nh = 0, rows = 0;
    if (!copy || !hdr || !f) {
        free(copy), free(hdr), free(f);
        return -1;
    }
    for (char *line = copy, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r')
            line[len - 1] = '\0';
        if (line[0] != '"')
            continue; /* ==PROF== lines, the target's own output */
        if (nh == 0) {
            int k = csv_split(line, hdr, MAX_FIELDS);
            if (k > 0 && strcmp(hdr[0], "ID") == 0)
                nh = k;
            continue;
        }
        int k = csv_split(line, f, MAX_FIELDS);
        if (k != nh || !isdigit((unsigned char)f[0][0]))
            continue; /* the units row, or something else */
        if (rows < n) {
            enum instr_op op = pats[rows].in.op;
            struct ncu_counts *c = &counts[rows];
            int ci = column(hdr, nh, metrics_of(op)->executed);
            double inst = ci >= 0 ? value(f[ci]) : -1;
            if (inst <= 0)
                inst = launched;
            int cs = column(hdr, nh, metrics_of(op)->source);
            int cw = column(hdr, nh, metrics_of(op)->wavefronts);
            int cb = column(hdr, nh, metrics_of(op)->conflicts);
            double vs = cs >= 0 ? value(f[cs]) : -1;
            double vw = cw >= 0 ? value(f[cw]) : -1;
            double vb = cb >= 0 ? value(f[cb]) : -1;
            int cm = column(hdr, nh, sm_twin(op)), ca = column(hdr, nh, ARB);
            double vm = cm >= 0 ? value(f[cm]) : -1, va = ca >= 0 ? value(f[ca]) : -1;
            if ((c->has_sm = vm >= 0))
                c->wavefronts_sm = vm / inst;
            if ((c->has_arb = va >= 0))
                c->arbitration = va / inst;
            c->instructions = inst;
            if ((c->has_src = vs >= 0))
                c->wavefronts = vs / inst;
            if ((c->has_hw = vw >= 0))
                c->wavefronts_hw = vw / inst;
            if ((c->has_bc = vb >= 0))
                c->bank_conflicts = vb / inst;
        }
        rows++;
    }
    free(copy), free(hdr), free(f);
    return nh ? rows : -1;
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
