/* ncu_csv.h - the one reader of the CSV Nsight Compute writes, shared by the
 * measurement tool (cuda/ncu.c: `ncu --csv --page raw` of its own launches;
 * cuda/ptxhost.c: the --ptx mode's raw page and Source page) and the server
 * (ncu_text.c: what users paste into /api/ncu/explain).  It walks the text
 * row by row and hands each launch and each of its metrics, or each row of a
 * table, to callbacks, keeping nothing itself: what is kept, and so the
 * memory, is the caller's.  Pure: no I/O, no allocation, no copy of the text.
 *
 * The two launch forms ncu writes, both found by their header's column names:
 *   wide (`--page raw --csv`): "ID","Process ID",...,"Kernel Name",...,
 *     then one column per metric; a units row ("","",...,"inst",...) may
 *     follow the header; then one row per launch.
 *   long (`--csv`, the details page, `--metrics ...` or sections): "ID",
 *     ...,"Kernel Name",...,"Section Name"[,"Body Item Label"],"Metric Name",
 *     "Metric Unit","Metric Value"[,"Rule Name","Rule Type","Rule
 *     Description",...]: one row per (launch, metric) or (launch, rule); the
 *     rows of one launch are consecutive and share its "ID".  With the
 *     rules' columns (sections), a metric's row stops after its value and
 *     a rule's row leaves the metric's columns empty.
 * Every field is quoted; a quote inside one is doubled; numbers may carry
 * thousands separators ("1,536"); a value ncu could not collect is "n/a".
 *
 * The Source page (`--page source --csv --print-source sass|cuda,sass`) is
 * no launch: name/value lines ("Kernel Name","k", / "File Path","f.cu"),
 * then a table whose header names the columns ("Address","Source",...;
 * "Line No","Source","Address","Source",...), again per file for cuda,sass.
 * ncu_table_read hands every row on as it is, and the caller tells headers
 * from rows; there the source text is quoted with its own quotes left
 * undoubled (see bare_quotes).
 *
 * What the readers this replaces did differently, and what this one does:
 *   - header: the tool took the first quoted line whose first field is "ID";
 *     the server the first line opening with `"ID",`, else the first line
 *     after ==PROF== and blank lines if it opens with a quote.  Here: the
 *     server's rule (the tool's header is such a line).
 *   - other lines: the tool skipped every line not opening with a quote (the
 *     program's output, ==PROF== lines) and every row of another field count;
 *     the server read every line after the header as a row and refused one
 *     of another count.  Here: a line not opening with a quote is not CSV
 *     and is skipped; a quoted row of another count is refused ("at line L,
 *     column C"), as is an unterminated quote or text after a closing one
 *     (the tool passed over that text).
 *   - doubled quotes: the tool unescaped them; the server kept both bytes
 *     (a Kernel Name with a quote came back with two).  Here: fields are
 *     spans of the text; ncu_field_is and ncu_field_copy unescape.
 *   - rows that are no launch: both skipped a row whose "ID" is no number
 *     (the units row).  Here too; the units row's fields are the wide
 *     form's units.
 *   - numbers: the tool dropped ',' and ' ' and wanted a leading digit or
 *     '.'; the server dropped ',' and took a sign and an exponent.  Here: the
 *     server's (ncu_number); "n/a" and other words are no number.
 *   - the long form: neither read it (the server took it for metric lines
 *     and the tool for rows of one metric); here each row is one metric.
 *   - the --ptx mode (ptxhost.c) split each line in a copy of the text: a
 *     quote closed a field wherever it stood and the text after it up to the
 *     next ',' was dropped (a source line with quotes split into pieces); a
 *     row of another count than the raw page's header was skipped, and the
 *     raw page's numbers were the tool's.  Here: the raw page is read as
 *     above (ncu_csv_read; a row of another count is refused, a sign is
 *     read), the Source page by ncu_table_read with bare quotes, so that a
 *     source line with quotes stays one field; the rows of another count
 *     than their table's header are the caller's to skip, as before. */
#ifndef SZ_NCU_CSV_H
#define SZ_NCU_CSV_H

#include <stddef.h>

#include "base/error.h"

/* One field as it stands in the text: its bytes with the surrounding
 * quotes stripped (a doubled quote still two bytes), and where it starts. */
struct ncu_field {
    const char *s;
    size_t len;
    size_t at;                      /* byte offset of s in the text */
};

enum ncu_form { NCU_CSV_WIDE, NCU_CSV_LONG };

/* A launch: a wide row, or the first of a long form's rows with its "ID". */
struct ncu_launch {
    int index;                      /* 0-based, in the text's order */
    int line;                       /* 1-based line of its (first) row */
    size_t at;                      /* byte offset of that row */
    struct ncu_field id, kernel;    /* kernel: empty when there is no "Kernel Name" */
};

/* One metric of a launch: a wide row's column (every column, "ID" and the
 * launch's own included: callers pick by name) or a long row. */
struct ncu_cell {
    struct ncu_field name, unit, value;     /* unit: empty when the text has none */
    struct ncu_field section, rule, description;    /* the long form's "Section Name",
                                     * "Rule Name", "Rule Description": empty when
                                     * the row or the header has none (a metric's row) */
    int line;                       /* 1-based line of the row it is in */
};

/* The callbacks (either may be NULL).  Each returns 0 to go on, 1 to stop
 * reading (the read then succeeds), or -1 to fail it (having filled err). */
struct ncu_csv_sink {
    void *ctx;
    int (*launch)(void *ctx, const struct ncu_launch *l);
    int (*metric)(void *ctx, const struct ncu_launch *l, const struct ncu_cell *m);
};

/* What the read found. */
struct ncu_csv {
    enum ncu_form form;
    int rules;                      /* long form with the rules' columns ("Rule Name"):
                                     * the details page of sections (--section, --set) */
    int launches;                   /* launches met (all of them unless a callback stopped) */
    size_t header_at;               /* byte offset of the header row; with none, of the
                                     * first line after ==PROF== and blank lines */
    int header_line;
};

/* Read `text` (NUL-terminated) into the sink's callbacks, launch after
 * launch in the text's order.  Returns 0 when it read a CSV, 1 when the text
 * holds no CSV header (nothing was called), -1 when the CSV is malformed or
 * a callback failed: errors name "ncu" and say "at line L, column C:" (C in
 * bytes) with err's position set.  `out` may be NULL. */
int ncu_csv_read(const char *text, const struct ncu_csv_sink *sink, struct ncu_csv *out,
                 struct sz_error *err);

/* Whether f's text (doubled quotes as one) is exactly s. */
int ncu_field_is(const struct ncu_field *f, const char *s);

/* f's text, doubled quotes as one, into dst[0..cap) NUL-terminated, cut at
 * a character's start when it does not fit; returns the length written. */
size_t ncu_field_copy(const struct ncu_field *f, char *dst, size_t cap);

/* A number as ncu prints it: "5,713,107", "6", "1.5", "1e3" (blanks around
 * it allowed); 1 and *v, or 0 for "n/a", "" and any other word. */
int ncu_number(const char *s, size_t n, double *v);

/* ---- tables: the Source page, and the rows under the launch reader -------- */

/* One quoted line of the text, its fields counted (so well formed); they
 * are read with ncu_row_pick, as spans of the text. */
struct ncu_row {
    const char *text;               /* the whole text */
    size_t at;                      /* byte offset of its first field */
    int line;                       /* 1-based */
    int fields;                     /* how many it has */
    int bare_quotes;                /* how they split: the sink's */
};

/* The table reader's callback: 0 to go on, 1 to stop reading (the read then
 * succeeds), -1 to fail it (having filled err). */
struct ncu_table_sink {
    void *ctx;
    int bare_quotes;                /* 1: a quote closes a quoted field only before ',' or
                                     * the line's end, and is text elsewhere (doubled quotes
                                     * still read as one): the Source page's source lines */
    int (*row)(void *ctx, const struct ncu_row *r);
};

/* Hand every line of `text` (NUL-terminated) that opens with a quote to
 * sink->row, in order; the others (blank, ==PROF==, the program's output)
 * are skipped.  Which row is a header is the caller's to tell.  Returns 0,
 * or -1 when a row is malformed (an unterminated quote; without
 * bare_quotes, text after a closing one) or the callback failed: errors as
 * ncu_csv_read's, at the malformed byte. */
int ncu_table_read(const char *text, const struct ncu_table_sink *sink, struct sz_error *err);

/* Fields cols[0..n) of r (0-based) into out[0..n), in one pass; a column
 * the row does not have (or < 0) is an empty field at the row's start. */
void ncu_row_pick(const struct ncu_row *r, const int *cols, int n, struct ncu_field *out);

/* The index of the first of header's fields that is `name` (doubled quotes
 * as one): the column a table's rows hold it in; -1 when none is. */
int ncu_row_column(const struct ncu_row *header, const char *name);

/* Fails err (may be NULL) at the start of row r: "ncu", "at line L, column
 * 1: msg", its position set; returns -1. */
int ncu_row_fail(const struct ncu_row *r, struct sz_error *err, const char *msg);

#endif
