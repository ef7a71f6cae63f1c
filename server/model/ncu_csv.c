/* ncu_csv.c - the reader of Nsight Compute's CSV (ncu_csv.h): one row loop
 * (walk) that splits each quoted line into fields, under the table reader
 * (rows as they are) and the launch reader (the header and its form found,
 * each row checked against the header's count, then a launch and its
 * metrics).  It keeps offsets into the caller's text, never a copy, so what
 * it holds does not grow with the text.  Pure: no I/O, no allocation. */
#include "ncu_csv.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int fail_at(const char *text, size_t at, struct sz_error *err, const char *msg)
{
    int line = 1;
    size_t bol = 0;
    for (size_t k = 0; k < at && text[k]; k++)
        if (text[k] == '\n')
            line++, bol = k + 1;
    sz_fail(err, SZ_INVALID_ARGUMENT, "ncu", "at line %d, column %zu: %s", line,
            at - bol + 1, msg);
    return sz_fail_pos(err, text, SIZE_MAX, at);
}

int ncu_number(const char *s, size_t n, double *v)
{
    char buf[64];
    size_t k = 0;
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ',')            /* a thousands separator */
            continue;
        if (k + 1 >= sizeof buf || !(isdigit((unsigned char)s[i]) || s[i] == '.' ||
                                     s[i] == 'e' || s[i] == 'E' || s[i] == '+' || s[i] == '-'))
            return 0;
        buf[k++] = s[i];
    }
    buf[k] = '\0';
    char *end;
    *v = strtod(buf, &end);
    return k > 0 && *end == '\0' && isfinite(*v);
}

int ncu_field_is(const struct ncu_field *f, const char *s)
{
    size_t i = 0;
    for (; i < f->len; i++, s++) {
        if (*s != f->s[i])
            return 0;
        i += f->s[i] == '"' && i + 1 < f->len && f->s[i + 1] == '"';
    }
    return *s == '\0';
}

size_t ncu_field_copy(const struct ncu_field *f, char *dst, size_t cap)
{
    size_t i = 0, k = 0;
    if (cap == 0)
        return 0;
    for (; i < f->len && k + 1 < cap; i++) {
        dst[k++] = f->s[i];
        i += f->s[i] == '"' && i + 1 < f->len && f->s[i + 1] == '"';
    }
    k = sz_utf8_cut(dst, k);        /* cut short, or text that was: whole characters */
    dst[k] = '\0';
    return k;
}

/* Whether the quote at q closes its field.  With `bare`, only before ','
 * or the line's end: the Source page prints source lines within quotes as
 * they are (`"asm("ld.shared.u32 %0, [%1];" : ...)"`), and a reader that
 * wanted doubled quotes there could read no asm line. */
static int closes(const char *q, int bare)
{
    if (!bare)
        return q[1] != '"';
    return q[1] == ',' || q[1] == '\r' || q[1] == '\n' || q[1] == '\0';
}

/* One field from *i into f; *eol is set when it ends its line (*i then
 * starts the next line). */
static int field(const char *text, size_t *i, struct ncu_field *f, int *eol, int bare,
                 struct sz_error *err)
{
    size_t k = *i;
    if (text[k] == '"') {
        f->at = ++k;
        /* ncu puts no line break inside a field: one ends an unterminated quote */
        while (text[k] && text[k] != '\n' && !(text[k] == '"' && closes(text + k, bare)))
            k += text[k] == '"' && text[k + 1] == '"' ? 2 : 1;
        if (text[k] != '"')
            return fail_at(text, f->at - 1, err, "unterminated quoted field");
        f->len = k - f->at;
        k++;
    } else {
        f->at = k;
        while (text[k] && text[k] != ',' && text[k] != '\n' && text[k] != '\r')
            k++;
        f->len = k - f->at;
    }
    f->s = text + f->at;
    if (text[k] == '\r')
        k++;
    if (text[k] == ',') {
        *i = k + 1;
        *eol = 0;
        return 0;
    }
    if (text[k] && text[k] != '\n')
        return fail_at(text, k, err, "expected ',' or the end of the line after a field");
    *i = text[k] ? k + 1 : k;
    *eol = 1;
    return 0;
}

/* The fields of the row at `at`, counted (and so checked) before any is used. */
static int count(const char *text, size_t at, int bare, int *n, struct sz_error *err)
{
    struct ncu_field f;
    int eol = 0;
    for (*n = 0; !eol; (*n)++)
        if (field(text, &at, &f, &eol, bare, err) < 0)
            return -1;
    return 0;
}

static size_t next_line(const char *text, size_t i)
{
    while (text[i] && text[i] != '\n')
        i++;
    return text[i] ? i + 1 : i;
}

/* Every line from `i` (line `line`) that opens with a quote, checked and
 * handed to row(); the other lines (blank, ==PROF==, the program's own
 * output) are no CSV.  The one row loop of both readers. */
static int walk(const char *text, size_t i, int line, int bare,
                int (*row)(void *ctx, const struct ncu_row *r), void *ctx, struct sz_error *err)
{
    int rc = 0;
    for (; text[i] && rc == 0; line++, i = next_line(text, i)) {
        if (text[i] != '"')
            continue;
        struct ncu_row r = {text, i, line, 0, bare};
        if (count(text, i, bare, &r.fields, err) < 0)
            return -1;
        rc = row(ctx, &r);
    }
    return rc < 0 ? -1 : 0;
}

int ncu_table_read(const char *text, const struct ncu_table_sink *sink, struct sz_error *err)
{
    return walk(text, 0, 1, sink->bare_quotes, sink->row, sink->ctx, err);
}

void ncu_row_pick(const struct ncu_row *r, const int *cols, int n, struct ncu_field *out)
{
    size_t i = r->at;
    for (int j = 0; j < n; j++)
        out[j] = (struct ncu_field){"", 0, r->at};
    for (int c = 0, eol = 0; !eol; c++) {
        struct ncu_field f;
        field(r->text, &i, &f, &eol, r->bare_quotes, NULL);    /* counted: cannot fail */
        for (int j = 0; j < n; j++)
            if (cols[j] == c)
                out[j] = f;
    }
}

int ncu_row_column(const struct ncu_row *header, const char *name)
{
    size_t i = header->at;
    for (int c = 0, eol = 0; !eol; c++) {
        struct ncu_field f;
        field(header->text, &i, &f, &eol, header->bare_quotes, NULL);
        if (ncu_field_is(&f, name))
            return c;
    }
    return -1;
}

int ncu_row_fail(const struct ncu_row *r, struct sz_error *err, const char *msg)
{
    return fail_at(r->text, r->at, err, msg);
}

/* The header: the first line opening with "ID", else the first line after
 * ==PROF== and blank lines when it opens with a quote; 0 if found, else 1
 * with *at where that first line starts. */
static int header(const char *text, size_t *at)
{
    size_t i = 0;
    while (text[i]) {
        size_t b = i;
        while (text[b] == ' ' || text[b] == '\t')
            b++;
        if (strncmp(text + b, "==", 2) != 0 && text[b] != '\n' && text[b] != '\r')
            break;
        i = next_line(text, i);
    }
    *at = i;
    for (size_t k = i; text[k]; k = next_line(text, k))
        if (strncmp(text + k, "\"ID\",", 5) == 0) {
            *at = k;
            return 0;
        }
    return text[i] == '"' ? 0 : 1;
}

static int line_of(const char *text, size_t at)
{
    int line = 1;
    for (size_t k = 0; k < at; k++)
        line += text[k] == '\n';
    return line;
}

/* The columns a row is read by (-1: absent); the ID is the first, as both
 * forms print it (and a header without "ID" is read so too). */
enum { C_ID, C_KERNEL, C_NAME, C_UNIT, C_VALUE, C_SECTION, C_RULE, C_DESC, NCOLS };
static const char *const col_names[NCOLS] = {NULL, "Kernel Name", "Metric Name", "Metric Unit",
                                             "Metric Value", "Section Name", "Rule Name",
                                             "Rule Description"};

/* What the launch reader carries from row to row. */
struct launches {
    const struct ncu_csv_sink *sink;
    struct ncu_csv info;
    struct ncu_row head;
    int col[NCOLS];
    size_t units;                   /* the wide form's units row; 0: none */
    struct ncu_launch l;
    struct sz_error *err;
};

static int launch_row(void *ctx, const struct ncu_row *r)
{
    struct launches *st = ctx;
    const struct ncu_csv_sink *sink = st->sink;
    struct ncu_launch *l = &st->l;
    int rc;
    /* the details page with sections ends a metric's row after its value
     * (a trailing ','): the rules' columns are a rule row's alone
     * (tests/data/ncu_details/details_all.csv: 17 fields under 21) */
    int least = st->info.form == NCU_CSV_LONG && st->col[C_RULE] > st->col[C_VALUE] ?
                st->col[C_VALUE] + 1 : st->head.fields;
    if (r->fields > st->head.fields || r->fields < least)
        return ncu_row_fail(r, st->err, "this row's column count differs from the header's");
    struct ncu_field f[NCOLS];
    ncu_row_pick(r, st->col, NCOLS, f);
    double id;
    if (!ncu_number(f[C_ID].s, f[C_ID].len, &id)) {
        if (st->info.form == NCU_CSV_WIDE && st->info.launches == 0 && st->units == 0)
            st->units = r->at;      /* the units row, under the header */
        return 0;
    }
    int fresh = st->info.form == NCU_CSV_WIDE || l->index < 0 || f[C_ID].len != l->id.len ||
                memcmp(f[C_ID].s, l->id.s, l->id.len) != 0;
    if (fresh) {
        *l = (struct ncu_launch){st->info.launches, r->line, r->at, f[C_ID], f[C_KERNEL]};
        st->info.launches++;
        if (sink->launch && (rc = sink->launch(sink->ctx, l)) != 0)
            return rc;
    }
    if (!sink->metric)
        return 0;
    struct ncu_field none = {"", 0, r->at};
    struct ncu_cell m = {{0}, none, {0}, none, none, none, r->line};
    if (st->info.form == NCU_CSV_LONG) {
        m.name = f[C_NAME], m.value = f[C_VALUE];
        m.section = f[C_SECTION], m.rule = f[C_RULE], m.description = f[C_DESC];
        if (st->col[C_UNIT] >= 0)
            m.unit = f[C_UNIT];
        return sink->metric(sink->ctx, l, &m);
    }
    /* wide: the header, the units and the row side by side, column by column */
    size_t hi = st->head.at, ui = st->units, ri = r->at;
    rc = 0;
    for (int eol = 0; !eol && rc == 0;) {
        field(r->text, &hi, &m.name, &eol, 0, NULL);
        if (st->units)
            field(r->text, &ui, &m.unit, &eol, 0, NULL);
        field(r->text, &ri, &m.value, &eol, 0, NULL);
        rc = sink->metric(sink->ctx, l, &m);
    }
    return rc;
}

int ncu_csv_read(const char *text, const struct ncu_csv_sink *sink, struct ncu_csv *out,
                 struct sz_error *err)
{
    static const struct ncu_csv_sink none;
    struct launches st = {sink ? sink : &none, {NCU_CSV_WIDE, 0, 0, 0, 0}, {text, 0, 0, 0, 0},
                          {0, -1, -1, -1, -1, -1, -1, -1}, 0, {-1, 0, 0, {0}, {0}}, err};
    if (out)
        *out = st.info;
    int absent = header(text, &st.head.at);
    st.info.header_at = st.head.at;
    if (absent) {
        if (out)
            *out = st.info;
        return 1;
    }
    st.info.header_line = st.head.line = line_of(text, st.head.at);
    if (count(text, st.head.at, 0, &st.head.fields, err) < 0)
        return -1;
    for (int k = 1; k < NCOLS; k++)
        st.col[k] = ncu_row_column(&st.head, col_names[k]);
    if (st.col[C_NAME] >= 0 && st.col[C_VALUE] >= 0)
        st.info.form = NCU_CSV_LONG;
    st.info.rules = st.info.form == NCU_CSV_LONG && st.col[C_RULE] >= 0;
    int rc = walk(text, next_line(text, st.head.at), st.head.line + 1, 0, launch_row, &st, err);
    if (out)
        *out = st.info;
    return rc;
}
