/* cute_text.c - the reader of CuTe's shape:stride text (cute_text.h) that
 * memory layouts and thread-value prints share: one cursor, one integer
 * form, one tuple grammar, one set of refusals with their positions.  What
 * surrounds a layout (swizzles and pointers, a print's labels) and what a
 * layout means are the callers'; this file only reads. */
#include "cute_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- the cursor ------------------------------------------------------------ */

int cute_fail(struct cute_cur *c, size_t at, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->lines) {
        int line = 1;
        size_t bol = 0;
        for (size_t k = 0; k < at && c->s[k]; k++)
            if (c->s[k] == '\n')
                line++, bol = k + 1;
        sz_fail(c->err, SZ_INVALID_ARGUMENT, c->field, "at line %d, column %zu: %s", line,
                at - bol + 1, msg);
    } else {
        sz_fail(c->err, SZ_INVALID_ARGUMENT, c->field, "at column %zu: %s", at + 1, msg);
    }
    return sz_fail_pos(c->err, c->s, SIZE_MAX, at);
}

void cute_ws(struct cute_cur *c)
{
    for (;; c->i++) {
        char ch = c->s[c->i];
        if (ch != ' ' && ch != '\t' && ch != '\r' && (ch != '\n' || c->lines))
            return;
    }
}

int cute_eat(struct cute_cur *c, char ch)
{
    cute_ws(c);
    if (c->s[c->i] != ch)
        return 0;
    c->i++;
    return 1;
}

int cute_want(struct cute_cur *c, char ch)
{
    return cute_eat(c, ch) ? 0 : cute_fail(c, c->i, "expected '%c'", ch);
}

int cute_word(struct cute_cur *c, const char *w)
{
    cute_ws(c);
    size_t n = strlen(w);
    if (strncmp(c->s + c->i, w, n) != 0)
        return 0;
    c->i += n;
    return 1;
}

int cute_int(struct cute_cur *c, int64_t lo, int64_t hi, int64_t *v, int *dim)
{
    cute_ws(c);
    if (c->s[c->i] == '_')
        c->i++;
    size_t at = c->i;
    int neg = c->s[c->i] == '-';
    if (neg && lo >= 0)
        return CUTE_AT(c, "negative values are not supported");
    c->i += (size_t)neg;
    if (c->s[c->i] < '0' || c->s[c->i] > '9')
        return CUTE_AT(c, "expected an integer (_N or N)");
    uint64_t x = 0, top = neg ? (uint64_t)0 - (uint64_t)lo : (uint64_t)hi;
    while (c->s[c->i] >= '0' && c->s[c->i] <= '9') {
        x = x * 10 + (uint64_t)(c->s[c->i++] - '0');
        if (x > top)
            return cute_fail(c, at, "integer too large");
    }
    *v = neg ? -(int64_t)x : (int64_t)x;
    if (dim)
        *dim = -1;
    if (c->s[c->i] != '@')
        return 0;
    if (!dim)
        return CUTE_AT(c, "a scaled basis (N@d) is a coordinate: not allowed here");
    c->i++;
    if (c->s[c->i] != '0' && c->s[c->i] != '1')
        return CUTE_AT(c, "expected the basis 0 (m) or 1 (n) after '@'");
    *dim = c->s[c->i++] - '0';
    return 0;
}

/* ---- shape:stride ------------------------------------------------------------ */

/* One side as read: its leaves, and its tuple structure as tokens ('(' ')'
 * ',' 'x') with their bytes, so that the stride can be held to the shape's
 * structure and a mismatch pointed at.  A tuple holds at least one element,
 * so a side of L leaves nested D deep has at most L*D tuples: 2L + 3LD
 * tokens. */
#define TOKENS (CUTE_MAX_LEAVES * (2 + 3 * CUTE_MAX_DEPTH) + 2)
struct side {
    int n, top, ntok, stride;       /* stride: the side read is the stride */
    int64_t v[CUTE_MAX_LEAVES];
    int dim[CUTE_MAX_LEAVES], mode[CUTE_MAX_LEAVES];
    char tok[TOKENS];
    size_t at[TOKENS];
    size_t *span_at, *span_len;     /* the top-level modes' text, or NULL */
};

static int tok(struct cute_cur *c, struct side *sd, char t)
{
    if (sd->ntok == TOKENS)
        return CUTE_AT(c, "layout too deeply nested");
    sd->at[sd->ntok] = c->i;
    sd->tok[sd->ntok++] = t;
    return 0;
}

static int tuple(struct cute_cur *c, const struct cute_rules *r, struct side *sd, int depth)
{
    cute_ws(c);
    if (c->s[c->i] != '(') {
        if (sd->n == r->leaves)
            return cute_fail(c, c->i, "more than %d modes", r->leaves);
        size_t at = c->i;
        int k = sd->n;
        if (tok(c, sd, 'x') < 0 ||
            cute_int(c, sd->stride ? r->stride_lo : 0, sd->stride ? r->stride_hi : r->shape_hi,
                     &sd->v[k], sd->stride && r->basis ? &sd->dim[k] : NULL) < 0)
            return -1;
        if (!sd->stride && sd->v[k] == 0)
            return cute_fail(c, at, "a shape of 0 holds no element");
        if (!sd->stride || !r->basis)
            sd->dim[k] = -1;
        sd->mode[sd->n++] = depth == 0 ? 0 : sd->top - 1;
        if (depth == 0 && sd->span_at)  /* a bare integer: the side is one mode */
            sd->span_at[0] = at, sd->span_len[0] = c->i - at;
        return 0;
    }
    if (depth == r->depth)
        return CUTE_AT(c, "tuples nested too deeply");
    if (tok(c, sd, '(') < 0)
        return -1;
    c->i++;
    do {
        size_t start = c->i;
        if (depth == 0 && r->rank && sd->top == r->rank)
            return cute_fail(c, c->i, "rank above %d", r->rank);
        sd->top += depth == 0;
        if (tuple(c, r, sd, depth + 1) < 0)
            return -1;
        cute_ws(c);
        if (depth == 0 && sd->span_at)
            sd->span_at[sd->top - 1] = start, sd->span_len[sd->top - 1] = c->i - start;
        if (c->s[c->i] == ',' && tok(c, sd, ',') < 0)
            return -1;
    } while (cute_eat(c, ','));
    if (tok(c, sd, ')') < 0)
        return -1;
    return cute_want(c, ')');
}

static void to_layout(const struct side *sd, struct cute_layout *L)
{
    L->n = sd->n;
    L->modes = sd->top;
    for (int k = 0; k < sd->n; k++) {
        L->mode[k] = (int8_t)sd->mode[k];
        L->dim[k] = (int8_t)sd->dim[k];
    }
}

int cute_shape(struct cute_cur *c, const struct cute_rules *r, struct cute_layout *L)
{
    static const struct side zero;
    struct side sd = zero;
    memset(L, 0, sizeof *L);
    if (tuple(c, r, &sd, 0) < 0)
        return -1;
    to_layout(&sd, L);
    for (int k = 0; k < sd.n; k++)
        L->shape[k] = (uint32_t)sd.v[k];
    return 0;
}

/* Where the stride's structure first parts from the shape's: at its
 * element there (a leaf where the shape has a tuple, or the reverse), else
 * (one tuple has more elements than the other) at the '(' that opens the
 * stride's tuple. */
static size_t mismatch(const struct side *shp, const struct side *str, size_t stride_at)
{
    int k = 0;
    while (k < shp->ntok && k < str->ntok && shp->tok[k] == str->tok[k])
        k++;
    if (k >= str->ntok)
        return stride_at;
    if (str->tok[k] == 'x' || str->tok[k] == '(')
        return str->at[k];
    for (int j = k - 1, depth = 0; j >= 0; j--) {
        depth += (str->tok[j] == ')') - (str->tok[j] == '(');
        if (depth < 0)
            return str->at[j];
    }
    return stride_at;
}

int cute_layout(struct cute_cur *c, const struct cute_rules *r, struct cute_layout *L,
                struct cute_spans *sp)
{
    /* two sides of token positions: static-sized, zeroed by copy, not memset */
    static const struct side zero;
    struct side shp = zero, str = zero;
    memset(L, 0, sizeof *L);
    str.stride = 1;
    if (sp) {
        shp.span_at = sp->at[0], shp.span_len = sp->len[0];
        str.span_at = sp->at[1], str.span_len = sp->len[1];
    }
    if (tuple(c, r, &shp, 0) < 0 || cute_want(c, ':') < 0)
        return -1;
    size_t stride_at = c->i;
    if (tuple(c, r, &str, 0) < 0)
        return -1;
    if (shp.ntok != str.ntok || memcmp(shp.tok, str.tok, (size_t)shp.ntok) != 0)
        return cute_fail(c, mismatch(&shp, &str, stride_at),
                         "the stride's tuple structure does not match the shape's");
    to_layout(&str, L);
    L->modes = shp.top;
    for (int k = 0; k < shp.n; k++) {
        L->shape[k] = (uint32_t)shp.v[k];
        L->stride[k] = str.v[k];
        L->mode[k] = (int8_t)shp.mode[k];
    }
    return 0;
}
