/* cute_text.h - the one reader of CuTe's shape:stride text, for memory
 * layouts (layout_cute.c) and thread-value prints (thread_cute.c) alike: the
 * cursor, CuTe's integers (`_N`, `N`, `_-N`, `N@d`), nested tuples, the
 * stride's structure against the shape's, and errors that name the caller's
 * field and point at the byte (error.h's `at`).  The layout form table's
 * other rows (TMA, Triton) read with the same cursor.  Reads text only: it
 * evaluates nothing and allocates nothing. */
#ifndef SZ_CUTE_TEXT_H
#define SZ_CUTE_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* A cursor over pasted text.  `lines` says what the text is: 0, one layout
 * (a newline is a blank; errors say "at column N:", N the byte's index + 1
 * in the whole text, as the layout page's caret has always read it); 1, a
 * print of lines (a layout ends at its line; errors say "at line L, column
 * C:", C counted in bytes from the line's start).  Both set err's `at`. */
struct cute_cur {
    const char *s;
    size_t i;
    struct sz_error *err;
    const char *field;              /* the request field errors name: "layout", "thread" */
    int lines;
};

/* Fail naming c->field, pointing at byte `at`: "at column N: <fmt...>" or
 * "at line L, column C: <fmt...>" (see `lines`); returns -1. */
int cute_fail(struct cute_cur *c, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
#define CUTE_AT(c, msg) cute_fail((c), (c)->i, "%s", (msg))

/* Skip blanks (spaces, tabs, CRs; newlines too unless c->lines). */
void cute_ws(struct cute_cur *c);

/* After blanks: consume `ch` (1) or not (0); want: fail "expected 'ch'" if absent. */
int cute_eat(struct cute_cur *c, char ch);
int cute_want(struct cute_cur *c, char ch);

/* After blanks: consume the word `w` (1) or not (0, nothing consumed). */
int cute_word(struct cute_cur *c, const char *w);

/* A CuTe integer as print writes it: `_N` (static), `N` (dynamic, and CuTe
 * DSL's), an optional '-' after the '_', within lo..hi (a '-' where lo >= 0
 * fails "negative values are not supported"); then, when dim is not NULL, a
 * scaled basis `@0` or `@1` into *dim (-1 for none).  With dim NULL an '@'
 * fails: a coordinate has no place there. */
int cute_int(struct cute_cur *c, int64_t lo, int64_t hi, int64_t *v, int *dim);

/* ---- shape:stride ---------------------------------------------------------- */

/* A layout as printed, flattened: leaves colexicographic within each
 * top-level mode; a stride is an integer or a scaled basis `N@d`. */
#define CUTE_MAX_LEAVES 24
#define CUTE_MAX_DEPTH 8
struct cute_layout {
    int n, modes;                   /* leaves; top-level modes (0: a bare integer) */
    uint32_t shape[CUTE_MAX_LEAVES];
    int64_t stride[CUTE_MAX_LEAVES];
    int8_t dim[CUTE_MAX_LEAVES];    /* d of `N@d`; -1 for an integer stride */
    int8_t mode[CUTE_MAX_LEAVES];   /* the top-level mode the leaf is in */
};

/* What a caller admits; the words of every refusal are the reader's.  A
 * memory layout: 16 leaves, 6 levels, rank 4, non-negative strides, no
 * basis; a thread-value print: 24 leaves, 8 levels, any rank, signed
 * strides, and the basis where print_latex prints one. */
struct cute_rules {
    int leaves, depth;              /* at most (<= CUTE_MAX_LEAVES, CUTE_MAX_DEPTH) */
    int rank;                       /* top-level modes at most; 0: no limit */
    int64_t shape_hi;               /* shape leaves 1..shape_hi */
    int64_t stride_lo, stride_hi;
    int basis;                      /* strides may be N@0 / N@1 */
};

/* The text between a top-level mode's delimiters ('(' or ',' to ',' or
 * ')', blanks kept; a bare integer without them), per side: what
 * tile_to_shape copies. */
struct cute_spans {
    size_t at[2][CUTE_MAX_LEAVES], len[2][CUTE_MAX_LEAVES];   /* [0]: shape, [1]: stride */
};

/* `shape:stride` at the cursor into L (sp, if not NULL, gets the spans).
 * Refuses, pointing into the text: a leaf past r->leaves ("more than N
 * modes"), a tuple past r->depth, a mode past r->rank, an integer out of
 * range, a shape leaf of 0, and a stride whose tuple structure differs from
 * the shape's (at the stride's first element that differs, or at the '('
 * of the stride's tuple whose element count differs).  The cursor ends
 * after the stride; what follows is the caller's. */
int cute_layout(struct cute_cur *c, const struct cute_rules *r, struct cute_layout *L,
                struct cute_spans *sp);

/* One side alone (a shape such as Tiler_MN's `(_32,_16)`): its leaves and
 * modes into L (strides 0), under r's limits and shape_hi. */
int cute_shape(struct cute_cur *c, const struct cute_rules *r, struct cute_layout *L);

#endif
