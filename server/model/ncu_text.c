/* ncu_text.c - a pasted Nsight Compute result read into one launch's
 * metrics: its CSV through ncu_csv.h (the raw page, the long form, the
 * details page of sections with its tables or, by default, only its rules'
 * text, or the Source page's shared-memory rows summed per SASS kind), or
 * the Details page's metric lines; only the counters the explanation reads
 * are kept; every launch listed by its full name, spans of the
 * text, so what is kept is bounded whatever the text's length.  Then a
 * bank-conflict count explained against the model: conflicts = instructions
 * x (wavefronts - ideal); what is left is not an address conflict, and
 * l1tex__data_bank_conflicts_type_arbitration (L1 fills and other clients
 * winning a bank) says whether it is arbitration; and the ncu command, quoted
 * for a shell, that separates them.  Each kind's metric names are instr.c's
 * table's; the others are those the public threads quote.  Pure: no I/O, no
 * allocation, no JSON. */
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

/* Whether names a (n bytes) and b (NUL-terminated; NULL: none) are one
 * counter, a ".sum" on either ignored (as ncu_get reads them). */
static int same_stem(const char *a, size_t n, const char *b)
{
    if (!b)
        return 0;
    size_t m = strlen(b);
    n -= n > 4 && memcmp(a + n - 4, ".sum", 4) == 0 ? 4 : 0;
    m -= m > 4 && strcmp(b + m - 4, ".sum") == 0 ? 4 : 0;
    return n == m && memcmp(a, b, n) == 0;
}

/* The counters the explanation reads, and only those: every kind's own
 * (instr.c), the Source-page twins, the all-ops, arbitration and forum
 * counters.  What is kept is then bounded by this list, not by the order of
 * the text's columns: a raw page of sections holds 322 l1tex__/sm__/smsp__
 * columns, and keeping the first 256 of them lost
 * smsp__sass_inst_executed_op_shared_ld (column 311 of
 * tests/data/ncu_details/raw_sections.csv), which the details page of the
 * same launch holds. */
static int wanted(const char *name, size_t n)
{
    static const char *const general[] = {ALL_CONF, ARB, "sass__inst_executed_shared_loads",
                                          "sass__inst_executed_shared_stores"};
    for (size_t k = 0; k < sizeof general / sizeof general[0]; k++)
        if (same_stem(name, n, general[k]))
            return 1;
    size_t sc = strlen(SASS_CONF);
    for (int k = 0; k < INSTR_NOPS; k++) {
        const struct instr_kind *kd = &instr_kinds[k];
        const char *own[] = {kd->ncu.source, kd->ncu.wavefronts, kd->ncu.conflicts,
                             kd->ncu.executed, kd->ncu.sass_executed};
        for (size_t j = 0; j < sizeof own / sizeof own[0]; j++)
            if (same_stem(name, n, own[j]))
                return 1;
        if (n > sc && memcmp(name, SASS_CONF, sc) == 0 && same_stem(name + sc, n - sc, kd->short_name))
            return 1;
    }
    return 0;
}

/* Whether field f's text (doubled quotes as one) holds `part`. */
static int field_holds(const struct ncu_field *f, const char *part)
{
    size_t n = strlen(part);
    for (size_t s = 0; s + n <= f->len; s++)
        if (strncmp(f->s + s, part, n) == 0)
            return 1;
    return 0;
}

/* The launch to explain: index `want` when given, else the one whose
 * Kernel Name holds `kernel` (any when NULL or ""); every launch is listed
 * (up to NCU_MAX_LAUNCHES) and counted, only the chosen one's counters kept. */
struct pick {
    struct ncu_text *t;
    const char *kernel;
    int want, list;
    int matches;                    /* launches `kernel` matched */
};

static void list_launch(struct ncu_text *t, int index, int line, struct ncu_field id,
                        struct ncu_field kernel)
{
    t->launches++;
    if (t->listed < NCU_MAX_LAUNCHES)
        t->launch[t->listed++] = (struct ncu_listed){index, line, id, kernel};
}

/* Launch l met: listed, and chosen when it is the one asked for. */
static void meet(struct pick *p, int index, int line, struct ncu_field id, struct ncu_field kernel)
{
    struct ncu_text *t = p->t;
    list_launch(t, index, line, id, kernel);
    if (p->list)
        return;
    int named = !p->kernel || !*p->kernel || field_holds(&kernel, p->kernel);
    p->matches += named;
    if (p->want >= 0 ? index == p->want : named && p->matches == 1) {
        t->chosen = index;
        t->kernel_name = kernel;
    }
}

static int on_launch(void *ctx, const struct ncu_launch *l)
{
    meet(ctx, l->index, l->line, l->id, l->kernel);
    return 0;
}

/* ---- the rules' text: what the details page of sections prints by default -- */

/* Where `s` starts in f's text, or (size_t)-1. */
static size_t find(const struct ncu_field *f, size_t from, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = from; i + n <= f->len; i++)
        if (memcmp(f->s + i, s, n) == 0)
            return i;
    return (size_t)-1;
}

/* The number after `before` in rule text f, followed by `after` (ncu
 * prints it bare, "1024", or with thousands separators, "214,016"); 1 and
 * *v when both words are there around a number. */
static int number_between(const struct ncu_field *f, const char *before, const char *after,
                          double *v)
{
    size_t i = find(f, 0, before);
    if (i == (size_t)-1)
        return 0;
    i += strlen(before);
    size_t k = i;
    while (k < f->len && (isdigit((unsigned char)f->s[k]) || f->s[k] == ',' || f->s[k] == '.'))
        k++;
    size_t e = k;
    while (e > i && (f->s[e - 1] == ',' || f->s[e - 1] == '.'))    /* a sentence's comma */
        e--;
    return e > i && find(f, e, after) == e && ncu_number(f->s + i, e - i, v);
}

/* A rule's row of the chosen launch: ncu's SharedMemoryConflicts text
 * ("... causes on average a 32.0 - way bank conflict across all 32 shared
 * load requests.This results in 992 bank conflicts,  which represent 96.88%
 * of the overall 1024 wavefronts for shared loads. ...", the same for
 * stores) read into t->rule[loads 0, stores 1]; any other rule is passed
 * over.  tests/data/ncu_details: on that launch these numbers equal the
 * --print-details all table's l1tex__data_bank_conflicts_pipe_lsu_mem_
 * shared_op_ld (992) and l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld
 * (1,024), and its 32 requests smsp__sass_inst_executed_op_shared_ld. */
static void read_rule(struct ncu_text *t, const struct ncu_cell *m)
{
    static const char *const of[2][2] = {{" shared load requests", " wavefronts for shared loads"},
                                         {" shared store requests", " wavefronts for shared stores"}};
    for (int k = 0; k < 2; k++) {
        struct ncu_rule_count r = {m->line, "", 0, 0, 0};
        if (t->rule[k].line || !number_between(&m->description, "across all ", of[k][0], &r.requests) ||
            !number_between(&m->description, "results in ", " bank conflicts", &r.conflicts) ||
            !number_between(&m->description, "of the overall ", of[k][1], &r.wavefronts))
            continue;
        ncu_field_copy(&m->rule, r.rule, sizeof r.rule);
        t->rule[k] = r;
    }
}

static int on_metric(void *ctx, const struct ncu_launch *l, const struct ncu_cell *m)
{
    struct pick *p = ctx;
    double v;
    if (l->index == p->t->chosen && m->name.len == 0 && m->description.len > 0)
        read_rule(p->t, m);
    if (l->index == p->t->chosen && metric_name(m->name.s, m->name.len) &&
        wanted(m->name.s, m->name.len) && ncu_number(m->value.s, m->value.len, &v))
        add(p->t, m->name.s, m->name.len, v, m->line);  /* "n/a" and the like are not kept */
    return 0;
}

/* After a read: the launch asked for exists and is the one named, or the
 * text holds one launch only. */
static int chosen(const struct pick *p, struct sz_error *err)
{
    const struct ncu_text *t = p->t;
    if (p->list)
        return 0;
    if (t->launches == 0)       /* a Source page's header and no instruction's row */
        return sz_fail(err, SZ_INVALID_ARGUMENT, "ncu", "the Source page's table has no "
                       "instruction's row: paste the whole page");
    if (p->want >= 0) {
        if (p->want >= t->launches)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "launch", "the text holds %d launch%s "
                           "(0..%d): no launch %d", t->launches, t->launches == 1 ? "" : "es",
                           t->launches - 1, p->want);
        if (p->kernel && *p->kernel && !field_holds(&t->kernel_name, p->kernel))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "kernel", "launch %d's Kernel Name does "
                           "not hold '%.*s'", p->want, sz_utf8_prec(p->kernel, 60), p->kernel);
        return 0;
    }
    if (p->matches == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "kernel", "none of the %d launches' Kernel "
                       "Names holds '%.*s' (\"list\": true names them)", t->launches,
                       sz_utf8_prec(p->kernel, 60), p->kernel);
    if (p->matches > 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "launch", "the text holds %d launches%s: "
                       "give \"launch\", the index of one (\"list\": true names them all)",
                       p->matches, p->kernel && *p->kernel ? " of that kernel" : "");
    return 0;
}

/* 0: a CSV read into t; 1: no CSV (*start: where the text begins, after
 * ==PROF== and blank lines); -1: refused. */
static int parse_csv(const char *text, struct pick *p, size_t *start, struct sz_error *err)
{
    struct ncu_text *t = p->t;
    struct ncu_csv_sink sink = {p, on_launch, on_metric};
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
    t->csv = 1;
    t->form = info.form == NCU_CSV_WIDE ? "wide" : info.rules ? "details" : "long";
    return chosen(p, err);
}

/* ---- the Source page: its shared-memory instructions, per SASS kind --------- */

/* The slot a kind's Source-page rows are summed in: the first kind of the
 * kinds' table (instr.c) with its SASS opcode, so that atom and red, both
 * ATOMS, share one. */
static int src_slot(const struct instr_kind *kind)
{
    for (int k = 0; k < INSTR_NOPS; k++)
        if (instr_kinds[k].sass && strcmp(instr_kinds[k].sass, kind->sass) == 0)
            return k;
    return -1;
}

/* The slot of a SASS line ("@!P0  STS [R0+UR6], RZ"): its opcode before the
 * first '.', after a predicate, is a kind's `sass`; -1 for any other
 * instruction. */
static int src_kind(const struct ncu_field *f)
{
    size_t i = 0;
    while (i < f->len && f->s[i] == ' ')
        i++;
    if (i < f->len && f->s[i] == '@') {
        while (i < f->len && f->s[i] != ' ')
            i++;
        while (i < f->len && f->s[i] == ' ')
            i++;
    }
    size_t b = i;
    while (i < f->len && f->s[i] != ' ' && f->s[i] != '.')
        i++;
    for (int k = 0; k < INSTR_NOPS; k++) {
        const char *op = instr_kinds[k].sass;
        /* the first kind with the opcode: its src_slot() is k itself */
        if (op && strlen(op) == i - b && strncmp(f->s + b, op, i - b) == 0)
            return k;
    }
    return -1;
}

/* Record address a of the chosen launch; 0 if it was seen before (the
 * cuda,sass view lists an inlined instruction under each of its lines),
 * -1 when the table is full. */
static int first_time(struct ncu_text *t, uint64_t a)
{
    uint64_t key = a + 1;               /* 0 marks a free slot */
    if (t->naddr >= NCU_SRC_ADDRS / 2)
        return -1;
    for (uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 50;; h = (h + 1) % NCU_SRC_ADDRS) {
        if (t->addr[h] == key)
            return 0;
        if (t->addr[h] == 0) {
            t->addr[h] = key;
            t->naddr++;
            return 1;
        }
    }
}

enum { S_ADDR, S_SASS, S_EXEC, S_PRED_ON, S_WF, S_IDEAL, S_NCOLS };
static const char *const src_cols[S_NCOLS] = {
    "Address", NULL, "Instructions Executed", "Predicated-On Thread Instructions Executed",
    "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal"};

struct source {
    struct pick *p;
    int launch;                     /* the launch the rows are of: -1 before any */
    struct ncu_field name;          /* its name */
    int head_fields;                /* the last header's field count; 0: none yet */
    int col[S_NCOLS];
    struct sz_error *err;
};

static int source_row(void *ctx, const struct ncu_row *r)
{
    struct source *s = ctx;
    struct ncu_text *t = s->p->t;
    static const int first2[2] = {0, 1};
    struct ncu_field f[S_NCOLS];
    ncu_row_pick(r, first2, 2, f);
    /* "Kernel Name","k": a launch; "Function Name","k" (cuda,sass, per file): one
     * unless it names another kernel */
    int kname = ncu_field_is(&f[0], "Kernel Name");
    /* (the Source page ends these lines with a ',': a third, empty field) */
    if (r->fields <= 3 && (kname || ncu_field_is(&f[0], "Function Name"))) {
        if (kname || s->launch < 0 || f[1].len != s->name.len ||
            memcmp(f[1].s, s->name.s, f[1].len) != 0) {
            s->launch = t->launches;
            s->name = f[1];
            struct ncu_field id = {f[1].s, 0, f[1].at};
            meet(s->p, s->launch, r->line, id, f[1]);
        }
        return 0;
    }
    if (ncu_row_column(r, "Address") >= 0 && ncu_row_column(r, "L1 Wavefronts Shared") >= 0) {
        s->head_fields = r->fields;        /* a header: its columns by name */
        for (int k = 0; k < S_NCOLS; k++)
            s->col[k] = src_cols[k] ? ncu_row_column(r, src_cols[k]) : -1;
        s->col[S_SASS] = s->col[S_ADDR] + 1;    /* the SASS text follows its address */
        for (int k = 0; k < S_NCOLS; k++)
            if (s->col[k] < 0)
                return ncu_row_fail(r, s->err, "the Source page's header lacks a column this "
                                    "reads (Address, Instructions Executed, Predicated-On "
                                    "Thread Instructions Executed, L1 Wavefronts Shared, "
                                    "L1 Wavefronts Shared Ideal)");
        return 0;
    }
    if (s->head_fields == 0 || r->fields != s->head_fields)
        return 0;           /* name/value lines ("File Path"); a source line whose quotes split */
    if (s->launch < 0) {    /* a page with no "Kernel Name" line: one launch */
        s->launch = 0;
        meet(s->p, 0, r->line, (struct ncu_field){r->text + r->at, 0, r->at},
             (struct ncu_field){r->text + r->at, 0, r->at});
    }
    if (s->launch != t->chosen)
        return 0;
    ncu_row_pick(r, s->col, S_NCOLS, f);
    int k = src_kind(&f[S_SASS]);
    double a, exec, on, wf, ideal;
    if (k < 0 || f[S_ADDR].len < 3 || strncmp(f[S_ADDR].s, "0x", 2) != 0)
        return 0;           /* not a shared-memory instruction, or a source line's row */
    char hex[24];
    size_t n = ncu_field_copy(&f[S_ADDR], hex, sizeof hex);
    char *end;
    a = (double)strtoull(hex, &end, 16);
    if (n >= sizeof hex - 1 || *end)
        return ncu_row_fail(r, s->err, "an Address that is no hexadecimal number");
    int fresh = first_time(t, (uint64_t)a);
    if (fresh < 0)
        return ncu_row_fail(r, s->err, "more shared-memory instructions than are kept "
                            "(8192 in one launch)");
    if (!fresh)
        return 0;
    if (!ncu_number(f[S_EXEC].s, f[S_EXEC].len, &exec) ||
        !ncu_number(f[S_PRED_ON].s, f[S_PRED_ON].len, &on) ||
        !ncu_number(f[S_WF].s, f[S_WF].len, &wf) || !ncu_number(f[S_IDEAL].s, f[S_IDEAL].len, &ideal))
        return ncu_row_fail(r, s->err, "a shared-memory instruction's row without numbers "
                            "(give ncu --print-units base and no n/a)");
    /* a warp instruction no thread ran (ptxas's @!PT LDS RZ, [RZ] beside
     * cp.async) is counted by the Source page but by no counter */
    if (on == 0)
        return 0;
    struct ncu_src_sum *sum = &t->src[k];
    sum->rows++;
    sum->executed += exec;
    sum->wavefronts += wf;
    sum->ideal += ideal;
    return 0;
}

/* Whether the text's first quoted line opens a Source page ("Kernel Name",
 * "File Path", "Function Name", or a table headed "Address"). */
static int is_source_page(const char *text)
{
    static const char *const heads[] = {"\"Kernel Name\",", "\"File Path\",",
                                        "\"Function Name\",", "\"Address\",", "\"Line No\","};
    for (size_t i = 0; text[i];) {
        if (text[i] == '"') {
            for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++)
                if (strncmp(text + i, heads[k], strlen(heads[k])) == 0)
                    return 1;
            return 0;
        }
        while (text[i] && text[i] != '\n')
            i++;
        if (text[i])
            i++;
    }
    return 0;
}

static int parse_source(const char *text, struct pick *p, struct sz_error *err)
{
    struct source s = {p, -1, {"", 0, 0}, 0, {0}, err};
    struct ncu_table_sink sink = {&s, 1, source_row};
    if (ncu_table_read(text, &sink, err) < 0)
        return -1;
    if (s.head_fields == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "ncu", "a Source page without a table headed "
                       "\"Address\",...,\"L1 Wavefronts Shared\": profile with --section "
                       "SourceCounters, then ncu --page source --csv --print-source sass");
    p->t->csv = 1;
    p->t->form = "source";
    return chosen(p, err);
}

size_t ncu_kernel_name(const struct ncu_text *t, int k, char *dst, size_t cap)
{
    if (k < 0 && !t->csv)
        return (size_t)snprintf(dst, cap, "%s", t->kernel) < cap ? strlen(dst) : 0;
    const struct ncu_field *f = k < 0 ? &t->kernel_name : &t->launch[k].kernel;
    return ncu_field_copy(f, dst, cap);
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
        if (metric_name(text + a, b - a) && y > b && ncu_number(text + y, z - y, &v)) {
            if (wanted(text + a, b - a))
                add(t, text + a, b - a, v, line);
        } else if (!t->kernel[0] && strstr(text + bol, ", Context ") &&
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

int ncu_parse(const char *text, const char *kernel, int launch, int list, struct ncu_text *t,
              struct sz_error *err)
{
    memset(t, 0, sizeof *t);
    t->chosen = -1;
    t->form = "lines";
    struct pick p = {t, kernel, launch, list, 0};
    /* ncu --csv writes the program's own output and ==PROF== lines around
     * the CSV (ncu_csv.h finds it); the Source page is a table of its own;
     * else the text is the Details page's lines */
    size_t start = 0;
    int rc = is_source_page(text) ? parse_source(text, &p, err) : parse_csv(text, &p, &start, err);
    if (rc < 0)
        return -1;
    if (rc == 1) {
        if (launch >= 0)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "launch", "the Details page's metric "
                           "lines are one launch: leave launch out");
        parse_lines(text, start, t);
    }
    /* the details page of sections: what its rules' text holds, or nothing,
     * which the explanation says and tells how to print (ncu_explain) */
    if (list || t->n > 0 || strcmp(t->form, "details") == 0)
        return 0;
    if (strcmp(t->form, "source") == 0) {
        for (int k = 0; k < NCU_SRC_KINDS; k++)
            if (t->src[k].rows)
                return 0;
        return sz_fail(err, SZ_INVALID_ARGUMENT, "ncu", "the Source page's launch has no "
                       "shared-memory instruction a thread ran (LDS, STS, LDSM, STSM, ATOMS, "
                       "LDGSTS)");
    }
    return sz_fail(err, SZ_INVALID_ARGUMENT, "ncu",   /* the full list: ncu_looked_for */
                   "no ncu metric: looked for l1tex__data_bank_conflicts_{pipe_lsu_mem_"
                   "shared[_op_ld|st],type_arbitration}, *wavefronts_mem_shared*, "
                   "*inst_executed*");
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

/* The Source page's sum for a kind (NULL: the text is no Source page, or
 * ran none of the kind). */
static const struct ncu_src_sum *source_sum(const struct ncu_text *t, const struct instr_kind *kind)
{
    if (strcmp(t->form, "source") != 0)
        return NULL;
    int k = kind->sass ? src_slot(kind) : -1;
    return k >= 0 && t->src[k].rows ? &t->src[k] : NULL;
}

void ncu_explain(const struct ncu_text *t, const struct ncu_model *m, struct ncu_explain *e)
{
    const struct instr_ncu *k = &m->kind->ncu;
    int store = (m->kind->flags & INSTR_F_STORE) != 0;
    const struct ncu_src_sum *src = source_sum(t, m->kind);
    /* the names, first the kind's own (instr.c), then those the threads quote */
    const char *own_conf[] = {k->conflicts, NULL}, *all_conf[] = {ALL_CONF, NULL};
    const char *inst[] = {k->executed, k->sass_executed,
                          store ? "sass__inst_executed_shared_stores" :
                          "sass__inst_executed_shared_loads", NULL};
    if (m->kind->flags & (INSTR_F_MATRIX | INSTR_F_ASYNC | INSTR_F_ATOMIC))
        inst[2] = NULL;     /* the forum's counters are LDS/STS only */
    memset(e, 0, sizeof *e);
    char name[NCU_NAME];
    double v;
    /* the details page of sections prints, by default, no counter but its
     * rules' text, whose count is the kind's hardware counter's (op_ld for
     * ld and ldmatrix, op_st for st and stmatrix): after the kind's own
     * counter, before the all-ops one */
    const struct ncu_rule_count *rule = k->conflicts && t->rule[store].line ? &t->rule[store] : NULL;
    e->conflicts_metric = k->conflicts ? first(t, own_conf, &e->measured) : NULL;
    if (rule && !e->conflicts_metric) {
        e->rule = rule;
        e->measured = rule->conflicts;
        e->conflicts_metric = store ? "ncu's rule text: bank conflicts of shared stores" :
                              "ncu's rule text: bank conflicts of shared loads";
    }
    if (k->conflicts && !e->conflicts_metric)
        e->conflicts_metric = first(t, all_conf, &e->measured);
    e->instructions = -1;
    e->instr_source = "unknown";
    if (m->instructions >= 0) {
        e->instructions = m->instructions;
        e->instr_source = "request";
    } else if ((e->instr_metric = first(t, inst[0] ? inst : inst + 1, &v)) != NULL) {
        e->instructions = v;
        e->instr_source = "counter";
    } else if (src) {
        e->instructions = src->executed;
        e->instr_source = "source page";
    } else if (rule && !(m->kind->flags & INSTR_F_MATRIX)) {
        /* the rule's requests, one a warp instruction, of LDS and LDSM alike
         * (op_ld's): an ld or st count, not an ldmatrix one */
        e->rule = rule;
        e->instructions = rule->requests;
        e->instr_source = "rule";
        e->instr_metric = store ? "shared store requests" : "shared load requests";
    } else {
        double per = m->wavefronts / m->per_unit;
        if (k->source && ncu_get(t, k->source, &v) && per > 0 &&
            fabs(v / per - floor(v / per + 0.5)) < 1e-9) {
            e->instructions = floor(v / per + 0.5);
            e->instr_source = "wavefronts";
        }
    }
    if (m->instructions >= 0 && first(t, inst[0] ? inst : inst + 1, &v))
        e->instr_metric = NULL;     /* the request's count stands over the text's */
    snprintf(name, sizeof name, SASS_CONF "%s.sum", m->kind->short_name);
    e->has_sass = ncu_get(t, name, &e->sass);
    e->has_arbitration = ncu_get(t, ARB, &e->arbitration);
    /* the Source page's wavefronts count per SASS instruction, no arbitration:
     * less the ideal, they are the address conflicts alone.  The page's own
     * "Ideal" when it is the text; else the model's ideal times the count. */
    if (src) {
        e->has_source = e->has_source_conflicts = 1;
        e->source_wavefronts = src->wavefronts;
        e->has_source_ideal = 1;
        e->source_ideal = src->ideal;
        e->source_conflicts = src->wavefronts - src->ideal;
    } else {
        e->has_source = k->source && ncu_get(t, k->source, &e->source_wavefronts);
        if (e->has_source && e->instructions >= 0) {
            e->has_source_conflicts = 1;
            e->source_ideal = e->instructions / m->per_unit * m->ideal;
            e->source_conflicts = e->source_wavefronts - e->source_ideal;
        }
    }
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
    if (strcmp(e->instr_source, "source page") == 0)
        say(msg, cap, " with a thread predicated on (the page counts a warp of none too)");
    /* no hardware conflict counter (the kinds' table names none for atomics
     * and cp.async, or the text lacks it): the Source page's wavefronts less
     * the ideal are the measured address conflicts */
    int from_source = !e->conflicts_metric && e->has_source_conflicts;
    if (from_source) {
        e->conflicts_metric = src ? "Source page: L1 Wavefronts Shared - L1 Wavefronts Shared "
                                    "Ideal" : k->source;
        e->measured = e->source_conflicts;
    }
    if (!e->conflicts_metric) {
        e->verdict = "no_count";
        say(msg, cap, ". The text has no bank-conflict counter (%s) and no Source-page "
            "wavefronts (%s) with an instruction count", k->conflicts ? k->conflicts : "none "
            "is known for this kind", k->source ? k->source : "none is known");
    } else if (e->predicted < 0) {
        e->verdict = "no_count";
        say(msg, cap, ". %s = %.0f, but the instruction count is unknown: give \"instructions\" "
            "or collect %s", e->conflicts_metric, e->measured,
            k->executed ? k->executed : k->source ? k->source : "an instruction counter");
    } else {
        e->remainder = e->measured - e->predicted;
        if (from_source)
            say(msg, cap, ". Predicted %.0f address conflicts; the Source page's wavefronts %.0f "
                "less the ideal %.0f = %.0f", e->predicted, e->source_wavefronts,
                e->source_ideal, e->measured);
        else
            say(msg, cap, ". Predicted %.0f address conflicts; %s = %.0f", e->predicted,
                e->conflicts_metric, e->measured);
        if (!from_source && strcmp(e->conflicts_metric, ALL_CONF) == 0)
            say(msg, cap, " (all shared-memory ops together)");
        if (e->remainder == 0) {
            e->verdict = "reproduced";
            say(msg, cap, ": reproduced exactly");
        } else if (e->remainder < 0) {
            e->verdict = "model_above";
            say(msg, cap, ": the counter is %.0f below the model, so the access or the count is "
                "not what ran", -e->remainder);
        } else if (from_source) {
            e->verdict = "unexplained";
            say(msg, cap, "; the Source page counts no arbitration, so the %.0f left over are "
                "address conflicts of another access (or of this one on other lanes)",
                e->remainder);
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
    if (e->rule)
        say(msg, cap, ". These counts are ncu's rule text, not its counters: %s at line %d "
            "(%.0f shared %s requests, %.0f bank conflicts, %.0f wavefronts): the details page "
            "prints MemoryWorkloadAnalysis_Tables' counters only with --print-details all, and "
            "the command below collects them and the arbitration counter", e->rule->rule,
            e->rule->line, e->rule->requests, store ? "store" : "load", e->rule->conflicts,
            e->rule->wavefronts);
    else if (!e->conflicts_metric && strcmp(t->form, "details") == 0)
        say(msg, cap, ". This is ncu's details page of sections, which prints their counters "
            "only with --print-details all (\"rerun\"), and no rule text of it counts this "
            "kind's conflicts; --page raw or the command below has them");
    if (e->has_sass)
        say(msg, cap, ". The Source-page counter %s = %.0f (address conflicts only, "
            "deterministic)%s", name, e->sass,
            e->predicted >= 0 && e->sass == e->predicted ? " agrees with the model" : "");
    if (!from_source && e->has_source_conflicts)
        say(msg, cap, ". Source-page wavefronts %.0f less the ideal %.0f: %.0f address conflicts%s",
            e->source_wavefronts, e->source_ideal, e->source_conflicts,
            e->predicted >= 0 && e->source_conflicts == e->predicted ? ", as the model says" : "");
}

/* ---- the command ------------------------------------------------------------------ */

/* What a regex treats specially, in POSIX ERE, ECMAScript and PCRE alike:
 * each is escaped with a backslash, so the regex matches the text as it is. */
static int regex_special(char c)
{
    return c && strchr("\\^$.|?*+()[]{}", c) != NULL;
}

/* Append s[0..n) to dst: as it is (mode 0), or as the text inside a
 * single-quoted shell word (a quote closes, is escaped and reopens:
 * 'it'\''s'), regex-escaped too with mode 2; *len counts what it needs,
 * dst written while it fits. */
static void put(char *dst, size_t cap, size_t *len, const char *s, size_t n, int mode)
{
    for (size_t i = 0; i < n; i++) {
        char buf[8];
        size_t k = 0;
        if (mode && s[i] == '\'')
            buf[k++] = '\'', buf[k++] = '\\', buf[k++] = '\'', buf[k++] = '\'';
        else {
            if (mode == 2 && regex_special(s[i]))
                buf[k++] = '\\';
            buf[k++] = s[i];
        }
        for (size_t j = 0; j < k; j++, (*len)++)
            if (*len + 1 < cap)
                dst[*len] = buf[j];
    }
    if (cap)
        dst[*len < cap ? *len : cap - 1] = '\0';
}

size_t ncu_command_cap(const struct ncu_text *t)
{
    /* every byte of the name at most 4 (a quote: '\''), the rest below 1 KiB */
    size_t n = t->csv ? t->kernel_name.len : strlen(t->kernel);
    return 4 * n + 1024;
}

/* Append " --kernel-name-base X -k 'regex:^NAME$' ./your_app" for the
 * launch explained (a CSV's Kernel Name is the demangled name, parameters
 * and all; a Details header's is its function name alone). */
static void put_kernel(const struct ncu_text *t, char *dst, size_t cap, size_t *len)
{
    char head[64];
    int named = t->csv ? t->kernel_name.len > 0 : t->kernel[0] != '\0';
    snprintf(head, sizeof head, " --kernel-name-base %s -k 'regex:",
             t->csv ? "demangled" : "function");
    put(dst, cap, len, head, strlen(head), 0);
    /* the regex: the whole name, anchored; the name's doubled quotes as one */
    put(dst, cap, len, "^", 1, 0);
    if (!named) {
        put(dst, cap, len, "your_kernel", 11, 0);
    } else if (t->csv) {
        const struct ncu_field *f = &t->kernel_name;
        for (size_t i = 0; i < f->len; i++) {
            put(dst, cap, len, f->s + i, 1, 2);
            i += f->s[i] == '"' && i + 1 < f->len && f->s[i + 1] == '"';
        }
    } else {
        put(dst, cap, len, t->kernel, strlen(t->kernel), 2);
    }
    put(dst, cap, len, "$' ./your_app", 13, 0);
}

size_t ncu_command(const struct ncu_text *t, const struct ncu_model *m, char *dst, size_t cap)
{
    const struct instr_ncu *k = &m->kind->ncu;
    char head[768] = "";
    /* the kind's counters and the arbitration one (the Source page's sm__sass_
     * conflict counter is n/a on sm_90: its wavefronts stand in) */
    say(head, sizeof head, "ncu --metrics %s," ARB ".sum", k->conflicts ? k->conflicts :
        ALL_CONF ".sum");
    if (k->source)
        say(head, sizeof head, ",%s", k->source);
    if (k->executed)
        say(head, sizeof head, ",%s", k->executed);
    size_t len = 0;
    put(dst, cap, &len, head, strlen(head), 0);
    put_kernel(t, dst, cap, &len);
    return len;
}

size_t ncu_rerun(const struct ncu_text *t, char *dst, size_t cap)
{
    /* the section whose "Shared Memory" table holds the counters
     * (tests/data/ncu_details/details_all.csv), printed whole */
    static const char head[] = "ncu --section MemoryWorkloadAnalysis_Tables --print-details all "
                               "--csv --page details";
    size_t len = 0;
    if (cap)
        dst[0] = '\0';
    if (strcmp(t->form, "details") != 0)
        return 0;
    put(dst, cap, &len, head, sizeof head - 1, 0);
    put_kernel(t, dst, cap, &len);
    return len;
}
