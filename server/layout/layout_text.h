/* layout_text.h - the text cursor the layout forms' parsers share (one row
 * of the form table per form, layout.h): whitespace, words, integers as CuTe
 * prints them, and errors that name "layout" and say "at column N:" (the
 * Triton rows read with ttgir_attr.h instead).  Reads text only. */
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

#endif
