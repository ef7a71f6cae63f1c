/* ncu_text.c - a pasted Nsight Compute result (its CSV, through ncu_csv.h,
 * or the Details page's metric lines) read into metrics, and a bank-conflict count explained
 * against the model: conflicts = instructions x (wavefronts - ideal); what is
 * left is not an address conflict, and l1tex__data_bank_conflicts_type_
 * arbitration (L1 fills and other clients winning a bank) says whether it is
 * arbitration.  Each kind's metric names are instr.c's table's; the others
 * are those the public threads quote.  Pure: no I/O, no JSON. */
#include "ncu_text.h"
#include "ncu_csv.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Besides the kinds' own (instr.c): the all-ops conflict counter, the
 * Source page's deterministic conflict counter (LeetCUDA#188 quotes
 * sm__sass_..._op_ldsm), the arbitration counter (DESIGN.md sec. 4) and the
 * instruction counters the forum thread 359822 quotes. */
#define HW_CONF "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
#define ALL_CONF "l1tex__data_bank_conflicts_pipe_lsu_mem_shared"
#define SASS_CONF "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_"
#define SASS_WF "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"
#define HW_WF "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
#define ARB "l1tex__data_bank_conflicts_type_arbitration"

const char *ncu_looked_for(void)
{
    return HW_CONF "ld/st, " ALL_CONF ", " SASS_CONF "ld/st/ldsm/stsm, " SASS_WF "ld/st/ldsm/stsm, "
           "smsp__inst_executed_op_shared_ld/st, smsp__inst_executed_op_ldsm, "
           "sass__inst_executed_shared_loads/stores, " ARB " (each with or without .sum; "
           "the kinds' own names are GET /api/ops's ncu)";
}

/* A metric name as ncu prints it: unit__counter[.rollup] */
static int metric_name(const char *s, size_t n)
{
    if (n == 0 || n >= NCU_NAME || !islower((unsigned char)s[0]))
        return 0;
    int under = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_' ||
              s[i] == '.'))
            return 0;
        under |= i > 0 && s[i] == '_' && s[i - 1] == '_';
    }
    return under;
}

static void add(struct ncu_text *t, const char *name, size_t n, double v, int line)
{
    if (t->n == NCU_MAX_METRICS)
        return;
    memcpy(t->m[t->n].name, name, n);
    t->m[t->n].name[n] = '\0';
    t->m[t->n].value = v;
    t->m[t->n].line = line;
    t->n++;
}

/* ---- a CSV: ncu_csv.h reads it, this keeps one launch ------------------------ */

/* The counters the explanation reads (the rest of a raw page, hundreds of
 * device__, launch__ and other columns, is passed over). */
static int wanted(const char *name, size_t n)
{
    static const char *const prefix[] = {"l1tex__", "smsp__", "sm__", "sass__"};
    for (size_t k = 0; k < sizeof prefix / sizeof prefix[0]; k++)
        if (n > strlen(prefix[k]) && strncmp(name, prefix[k], strlen(prefix[k])) == 0)
            return 1;
    return 0;
}

/* The launch to explain: the first whose Kernel Name holds `kernel` (any
 * when it is NULL or ""); the others are counted and named, not kept. */
struct pick {
    struct ncu_text *t;
    const char *kernel;
    int matches, chosen;            /* chosen: the kept launch's index, -1 none yet */
    char names[256];                /* the launches' names, cut, for a message */
};

static int on_launch(void *ctx, const struct ncu_launch *l)
{
    struct pick *p = ctx;
    const struct ncu_field *k = &l->kernel;
    size_t len = strlen(p->names);
    if (len < 180)
        snprintf(p->names + len, sizeof p->names - len, "%s'%.*s'", l->index ? ", " : "",
                 (int)sz_utf8_cut(k->s, k->len < 40 ? k->len : 40), k->s);
    int ok = 1;
    if (p->kernel && *p->kernel) {
        size_t n = strlen(p->kernel);
        ok = 0;
        for (size_t s = 0; s + n <= k->len && !ok; s++)
            ok = strncmp(k->s + s, p->kernel, n) == 0;
    }
    if (ok && p->matches++ == 0) {
        p->chosen = l->index;
        ncu_field_copy(k, p->t->kernel, NCU_NAME);
    }
    return 0;
}

static int on_metric(void *ctx, const struct ncu_launch *l, const struct ncu_cell *m)
{
    struct pick *p = ctx;
    double v;
    if (l->index == p->chosen && metric_name(m->name.s, m->name.len) &&
        wanted(m->name.s, m->name.len) && ncu_number(m->value.s, m->value.len, &v))
        add(p->t, m->name.s, m->name.len, v, m->line);  /* "n/a" and the like are not kept */
    return 0;
}

/* 0: a CSV read into t; 1: no CSV (*start: where the text begins, after
 * ==PROF== and blank lines); -1: refused. */
static int parse_csv(const char *text, const char *kernel, struct ncu_text *t, size_t *start,
                     struct sz_error *err)
{
    struct pick p = {t, kernel, 0, -1, ""};
    struct ncu_csv_sink sink = {&p, on_launch, on_metric};
    struct ncu_csv info;
    int rc = ncu_csv_read(text, &sink, &info, err);
    *start = info.header_at;
    if (rc != 0)
        return rc;
    if (info.launches == 0) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "ncu", "at line %d, column 1: a CSV header with no "
                "data row (ncu --csv --page raw prints one row per profiled launch)",
                info.header_line);
        return sz_fail_pos(err, text, SIZE_MAX, info.header_at);
    }
    if (p.matches == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "kernel", "no launch's Kernel Name holds "
                       "'%s' (the CSV has %s)", kernel, p.names);
    if (p.matches > 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "kernel", "the CSV holds %d launches (%s): "
                       "give \"kernel\", a part of one Kernel Name", p.matches, p.names);
    t->csv = 1;
    return 0;
}

/* ---- the Details page's lines: name [unit] value ---------------------------- */

static void parse_lines(const char *text, size_t i, struct ncu_text *t)
{
    int line = 1;
    for (size_t k = 0; k < i; k++)
        line += text[k] == '\n';
    while (text[i]) {
        size_t bol = i;
        while (text[i] && text[i] != '\n')
            i++;
        size_t eol = i;
        if (text[i])
            i++;
        size_t a = bol;
        while (a < eol && isspace((unsigned char)text[a]))
            a++;
        size_t b = a;
        while (b < eol && !isspace((unsigned char)text[b]))
            b++;
        size_t z = eol;
        while (z > b && isspace((unsigned char)text[z - 1]))
            z--;
        size_t y = z;
        while (y > b && !isspace((unsigned char)text[y - 1]))
            y--;
        double v;
        if (metric_name(text + a, b - a) && y > b && ncu_number(text + y, z - y, &v))
            add(t, text + a, b - a, v, line);
        else if (!t->kernel[0] && strstr(text + bol, ", Context ") &&
                 (size_t)(strstr(text + bol, ", Context ") - text) < eol) {
            /* "  void copy_kernel<...>(...) (1024, 1, 1)x(256, 1, 1), Context 1, ..." */
            if (strncmp(text + a, "void ", 5) == 0)
                a += 5;
            size_t k = 0;
            while (a + k < eol && k + 1 < NCU_NAME &&
                   (isalnum((unsigned char)text[a + k]) || text[a + k] == '_' ||
                    text[a + k] == ':'))
                k++;
            memcpy(t->kernel, text + a, k);
            t->kernel[k] = '\0';
        }
        line++;
    }
}

int ncu_parse(const char *text, const char *kernel, struct ncu_text *t, struct sz_error *err)
{
    memset(t, 0, sizeof *t);
    if (strlen(text) > NCU_MAX_TEXT)
        return sz_fail(err, SZ_TOO_LARGE, "ncu", "longer than %u bytes", NCU_MAX_TEXT);
    /* ncu --csv writes the program's own output and ==PROF== lines around
     * the CSV (ncu_csv.h finds it); else the text is the Details page's lines */
    size_t start;
    int rc = parse_csv(text, kernel, t, &start, err);
    if (rc < 0)
        return -1;
    if (rc == 1)
        parse_lines(text, start, t);
    if (t->n == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "ncu",   /* the full list: ncu_looked_for */
                       "no ncu metric: looked for l1tex__data_bank_conflicts_{pipe_lsu_mem_"
                       "shared[_op_ld|st],type_arbitration}, *wavefronts_mem_shared*, "
                       "*inst_executed*");
    return 0;
}

/* The length of a metric name without its ".sum". */
static size_t stem(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".sum") == 0 ? n - 4 : n;
}

int ncu_get(const struct ncu_text *t, const char *base, double *v)
{
    size_t n = stem(base);
    for (int k = 0; k < t->n; k++)
        if (stem(t->m[k].name) == n && strncmp(t->m[k].name, base, n) == 0) {
            *v = t->m[k].value;
            return 1;
        }
    return 0;
}

/* ---- the explanation ------------------------------------------------------------- */

static void say(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Append to buf (cap bytes, NUL-terminated). */
static void say(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t len = strlen(buf);
    if (len < cap) {
        vsnprintf(buf + len, cap - len, fmt, ap);
        /* a kernel name cut at the buffer's end must not end inside a character */
        buf[sz_utf8_cut(buf, strlen(buf))] = '\0';
    }
    va_end(ap);
}

/* The first of names[] the text holds (metric names stored in a static table). */
static const char *first(const struct ncu_text *t, const char *const *names, double *v)
{
    for (; *names; names++)
        if (ncu_get(t, *names, v))
            return *names;
    return NULL;
}

void ncu_explain(const struct ncu_text *t, const struct ncu_model *m, struct ncu_explain *e)
{
    const struct instr_ncu *k = &m->kind->ncu;
    int store = (m->kind->flags & INSTR_F_STORE) != 0;
    /* the names, first the kind's own (instr.c), then those the threads quote */
    const char *conf[] = {k->conflicts, ALL_CONF, NULL};
    const char *inst[] = {k->executed, store ? "sass__inst_executed_shared_stores" :
                          "sass__inst_executed_shared_loads", NULL};
    if (m->kind->flags & INSTR_F_MATRIX)
        inst[1] = NULL;     /* the forum's counters are LDS/STS only */
    memset(e, 0, sizeof *e);
    char name[NCU_NAME];
    double v;
    e->conflicts_metric = k->conflicts ? first(t, conf, &e->measured) : NULL;
    e->instructions = -1;
    e->instr_source = "unknown";
    if ((e->instr_metric = first(t, inst[0] ? inst : inst + 1, &v)) != NULL) {
        e->instructions = v;
        e->instr_source = "counter";
    } else if (m->instructions >= 0) {
        e->instructions = m->instructions;
        e->instr_source = "request";
    } else {
        double per = m->wavefronts / m->per_unit;
        if (k->source && ncu_get(t, k->source, &v) && per > 0 &&
            fabs(v / per - floor(v / per + 0.5)) < 1e-9) {
            e->instructions = floor(v / per + 0.5);
            e->instr_source = "wavefronts";
        }
    }
    snprintf(name, sizeof name, SASS_CONF "%s.sum", m->kind->short_name);
    e->has_sass = ncu_get(t, name, &e->sass);
    e->has_arbitration = ncu_get(t, ARB, &e->arbitration);
    double excess = m->wavefronts - m->ideal;      /* per unit */
    e->predicted = -1;
    if (excess == 0)
        e->predicted = 0;       /* whatever the count: no address conflict */
    else if (e->instructions >= 0)
        e->predicted = e->instructions / m->per_unit * excess;
    char *msg = e->message;
    size_t cap = sizeof e->message;
    const char *unit = m->per_unit > 1 ? "tile" : "instruction";
    say(msg, cap, "model: %.0f wavefronts per %s, ideal %.0f, so %.0f conflicts per %s",
        m->wavefronts, unit, m->ideal, excess, unit);
    if (e->instructions >= 0)
        say(msg, cap, "; %.0f instructions (%s%s%s)", e->instructions, e->instr_source,
            e->instr_metric ? ": " : "", e->instr_metric ? e->instr_metric : "");
    if (!e->conflicts_metric) {
        e->verdict = "no_count";
        say(msg, cap, ". The text has no bank-conflict counter (%s)",
            k->conflicts ? k->conflicts : "none is known for this kind");
    } else if (e->predicted < 0) {
        e->verdict = "no_count";
        say(msg, cap, ". %s = %.0f, but the instruction count is unknown: give \"instructions\" "
            "or collect %s", e->conflicts_metric, e->measured,
            k->executed ? k->executed : k->source ? k->source : "an instruction counter");
    } else {
        e->remainder = e->measured - e->predicted;
        say(msg, cap, ". Predicted %.0f address conflicts; %s = %.0f", e->predicted,
            e->conflicts_metric, e->measured);
        if (strcmp(e->conflicts_metric, ALL_CONF) == 0)
            say(msg, cap, " (all shared-memory ops together)");
        if (e->remainder == 0) {
            e->verdict = "reproduced";
            say(msg, cap, ": reproduced exactly");
        } else if (e->remainder < 0) {
            e->verdict = "model_above";
            say(msg, cap, ": the counter is %.0f below the model, so the access or the count is "
                "not what ran", -e->remainder);
        } else if (e->has_arbitration && e->remainder == e->arbitration) {
            e->verdict = "arbitration";
            say(msg, cap, "; the %.0f left over are exactly " ARB " (L1 fills and other clients "
                "taking a bank), not address conflicts", e->remainder);
        } else if (e->has_arbitration && e->remainder <= e->arbitration) {
            e->verdict = "arbitration_partly";
            say(msg, cap, "; the %.0f left over are within " ARB " = %.0f (which counts every "
                "L1 client, not only this access)", e->remainder, e->arbitration);
        } else {
            e->verdict = "unexplained";
            say(msg, cap, "; %.0f left over are not address conflicts of this access", e->remainder);
            if (e->has_arbitration)
                say(msg, cap, " and exceed " ARB " = %.0f", e->arbitration);
            else
                say(msg, cap, ": collect " ARB " to see how many are arbitration");
        }
    }
    if (e->has_sass)
        say(msg, cap, ". The Source-page counter %s = %.0f (address conflicts only, "
            "deterministic)%s", name, e->sass,
            e->predicted >= 0 && e->sass == e->predicted ? " agrees with the model" : "");
    /* the Source page's wavefronts count per SASS instruction, no arbitration:
     * less the ideal, they are the address conflicts alone */
    e->source_conflicts = -1;
    e->has_source = k->source && ncu_get(t, k->source, &e->source_wavefronts);
    if (e->has_source && e->instructions >= 0) {
        e->source_conflicts = e->source_wavefronts - e->instructions / m->per_unit * m->ideal;
        say(msg, cap, ". Source-page wavefronts %.0f less the ideal %.0f: %.0f address conflicts%s",
            e->source_wavefronts, e->instructions / m->per_unit * m->ideal, e->source_conflicts,
            e->predicted >= 0 && e->source_conflicts == e->predicted ? ", as the model says" : "");
    }
    /* the command: the kind's counters and the arbitration one (the Source
     * page's sm__sass_ conflict counter is n/a on sm_90: its wavefronts stand in) */
    say(e->command, sizeof e->command, "ncu --metrics %s," ARB ".sum",
        k->conflicts ? k->conflicts : ALL_CONF ".sum");
    if (k->source)
        say(e->command, sizeof e->command, ",%s", k->source);
    if (k->executed)
        say(e->command, sizeof e->command, ",%s", k->executed);
    say(e->command, sizeof e->command, " -k regex:%s ./your_app",
        t->kernel[0] ? t->kernel : "<your kernel>");
}
