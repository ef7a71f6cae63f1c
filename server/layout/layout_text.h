/* layout_text.h - the text cursor the layout forms' parsers share (one row
 * of the form table per form, layout.h): whitespace, words, integers as CuTe
 * prints them, Triton's `<{name = value, ...}>` attribute lists, and errors
 * that name "layout" and say "at column N:".  Reads text only. */
#ifndef SZ_LAYOUT_TEXT_H
#define SZ_LAYOUT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"

struct lay_cur {
    const char *s;
    size_t i;
    struct sz_error *err;
};

/* Fail naming "layout": "at column <i+1>: <msg><what>" (what may be NULL),
 * the error's position (error.h) that of byte i.  lay_want fails the same way. */
int lay_at(struct lay_cur *c, size_t i, const char *msg, const char *what);
#define LAY_AT(c, msg) lay_at((c), (c)->i, (msg), NULL)

/* Skip whitespace. */
void lay_ws(struct lay_cur *c);

/* After whitespace: consume `ch` (1) or not (0); want: fail if absent. */
int lay_eat(struct lay_cur *c, char ch);
int lay_want(struct lay_cur *c, char ch);

/* After whitespace: consume the word `w` (1) or not (0, nothing consumed). */
int lay_word(struct lay_cur *c, const char *w);

/* A CuTe integer as print writes it: `_N` (static) or `N` (dynamic), N <= hi. */
int lay_int(struct lay_cur *c, uint32_t hi, uint32_t *v);

/* Triton attribute values: true/false; [a, b, c] (at most LAY_MAX_RANK). */
int lay_bool(struct lay_cur *c, int *v);
int lay_list(struct lay_cur *c, int *v, int *n);

/* `<{name = value, ...}>` up to the end of the text.  For each entry, `attr`
 * is called with the cursor on the name (at column `at`): it consumes
 * `name = value` and returns 1, returns 0 when the name is not its own
 * (the cursor back at `at`), or -1 on an error.  CTAsPerCGA, CTASplitNum
 * (all ones) and CTAOrder are read here; any other name is refused with
 * "expected <expected>". */
int lay_attrs(struct lay_cur *c, struct lay *l,
              int (*attr)(struct lay_cur *c, struct lay *l, size_t at), const char *expected);

/* After an attribute name: `=`; 1 when present (consumed), else 0 with the
 * cursor back at `at`. */
int lay_key(struct lay_cur *c, const char *name, size_t at);

#endif
