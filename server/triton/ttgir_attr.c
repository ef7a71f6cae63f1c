/* ttgir_attr.c - reads MLIR attribute text into ttgir_attr.h's node tree and
 * resolves `#alias` references through the alias lines.  Every error names
 * the text ("layout", "aliases", ...) and the line and column it stopped at.
 * Besides the tree, the typed readers every encoding uses (integer lists,
 * booleans, known keys, the single-CTA rule); it gives no attribute a meaning.
 * Pure: no I/O, no allocation. */
#include "ttgir_attr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/bits.h"

struct cur {
    struct ta_parser *p;
    int src;
    size_t i;
    int depth;
};

int ta_fail_pos(const struct ta_parser *p, int src, int pos, struct sz_error *err)
{
    /* The line from ta_line_col's running count (a dump's n errors cost the
     * text once, not n times: issue 36), the column in characters as
     * sz_text_pos counts them, from that line's start. */
    int line, bytes, col = 1;
    pos = pos < 0 ? 0 : (size_t)pos > p->len[src] ? (int)p->len[src] : pos;
    ta_line_col(p, src, pos, &line, &bytes);
    for (int k = pos - (bytes - 1); k < pos; k++)
        col += ((unsigned char)p->text[src][k] & 0xC0) != 0x80;
    ((struct ta_parser *)p)->work.scanned += bytes - 1;
    return sz_set_at(err, line, col);
}

void ta_line_col(const struct ta_parser *p, int src, int pos, int *line, int *col)
{
    /* A dump's errors come in text order: count on from the last answer, not
     * from the text's start, so n errors cost the text once, not n times.
     * The cache is no part of the parser's value: writing it through a cast
     * keeps every caller's const. */
    struct ta_parser *q = (struct ta_parser *)p;
    int i = 0, l = p->line0[src], c = 1;
    if (pos >= p->lc_pos[src])
        i = p->lc_pos[src], l = p->lc_line[src], c = p->lc_col[src];
    int start = i;
    for (; i < pos && (size_t)i < p->len[src]; i++) {
        if (p->text[src][i] == '\n')
            l++, c = 1;
        else
            c++;
    }
    q->work.scanned += i - start;
    q->lc_pos[src] = i, q->lc_line[src] = l, q->lc_col[src] = c;
    *line = l, *col = c;
}

static int vfail_at(const struct ta_parser *p, int src, int pos, struct sz_error *err,
                    const char *fmt, va_list ap)
{
    char msg[160];
    int line, col;
    vsnprintf(msg, sizeof msg, fmt, ap);
    ta_line_col(p, src, pos, &line, &col);
    sz_fail(err, SZ_INVALID_ARGUMENT, p->field[src], "line %d, column %d: %s", line, col, msg);
    return ta_fail_pos(p, src, pos, err);
}

static int fail_at(const struct cur *c, struct sz_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int fail_at(const struct cur *c, struct sz_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(c->p, c->src, (int)c->i, err, fmt, ap);
    va_end(ap);
    return -1;
}

int ta_fail(const struct ta_parser *p, int node, struct sz_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail_at(p, p->node[node].src, p->node[node].pos, err, fmt, ap);
    va_end(ap);
    return -1;
}

static int at_end(const struct cur *c) { return c->i >= c->p->len[c->src]; }
static char ch(const struct cur *c) { return at_end(c) ? '\0' : c->p->text[c->src][c->i]; }

/* Blanks, and comments `// ...` to the line's end. */
static void skip_ws(struct cur *c)
{
    for (;;) {
        char x = ch(c);
        if (x == ' ' || x == '\t' || x == '\n' || x == '\r')
            c->i++;
        else if (x == '/' && c->i + 1 < c->p->len[c->src] && c->p->text[c->src][c->i + 1] == '/')
            while (!at_end(c) && ch(c) != '\n')
                c->i++;
        else
            return;
    }
}

static int is_ident(char x, int first)
{
    return (x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || x == '_' ||
           (!first && ((x >= '0' && x <= '9') || x == '$' || x == '.'));
}

/* An identifier at the cursor: its length (0 when none). */
static int ident(struct cur *c)
{
    size_t s = c->i;
    if (!is_ident(ch(c), 1))
        return 0;
    while (!at_end(c) && is_ident(ch(c), 0))
        c->i++;
    return (int)(c->i - s);
}

static int new_node(struct cur *c, enum ta_kind k, size_t pos, struct sz_error *err)
{
    struct ta_parser *p = c->p;
    if (p->nnodes >= p->max_nodes)
        return fail_at(c, err, "more than %d values in one text", p->max_nodes);
    struct ta_node *n = &p->node[p->nnodes];
    memset(n, 0, sizeof *n);
    n->kind = k, n->src = c->src, n->pos = (int)pos;
    n->first = n->next = n->pad = -1;
    return p->nnodes++;
}

static int value(struct cur *c, int *out, struct sz_error *err);

/* Chain v after *last among a's children. */
static void chain(struct ta_parser *p, int a, int *last, int v)
{
    if (*last < 0)
        p->node[a].first = v;
    else
        p->node[*last].next = v;
    *last = v;
}

/* After a list item: ',' (1: another item), ']' (0: the list ends), or an error. */
static int list_sep(struct cur *c, const char *what, struct sz_error *err)
{
    skip_ws(c);
    if (ch(c) == ',') {
        c->i++;
        return 1;
    }
    if (ch(c) == ']') {
        c->i++;
        return 0;
    }
    return fail_at(c, err, "expected ',' or ']' in %s", what);
}

/* [v, v, ...] */
static int array(struct cur *c, int *out, struct sz_error *err)
{
    int a = new_node(c, TA_ARRAY, c->i, err), last = -1, more = 1;
    if (a < 0)
        return -1;
    *out = a;
    c->i++;
    skip_ws(c);
    if (ch(c) == ']') {
        c->i++;
        return 0;
    }
    while (more > 0) {
        int v;
        if (value(c, &v, err) < 0)
            return -1;
        chain(c->p, a, &last, v);
        more = list_sep(c, "the list", err);
    }
    return more;
}

/* key = value (or a unit key), ... up to `closer` (not consumed), appended
 * to the chain *first .. *last. */
static int entries(struct cur *c, int *first, int *last, char closer, struct sz_error *err)
{
    for (;;) {
        skip_ws(c);
        if (ch(c) == closer)
            return 0;
        size_t at = c->i;
        int n = ident(c);
        if (n == 0)
            return fail_at(c, err, "expected a key");
        int e = new_node(c, TA_ENTRY, at, err);
        if (e < 0)
            return -1;
        c->p->node[e].name = c->p->text[c->src] + at;
        c->p->node[e].name_len = n;
        for (int k = *first; k >= 0; k = c->p->node[k].next)
            if (c->p->node[k].name_len == n && !memcmp(c->p->node[k].name, c->p->node[e].name,
                                                        (size_t)n))
                return ta_fail(c->p, e, err, "key '%.*s' given twice", n, c->p->node[e].name);
        skip_ws(c);
        if (ch(c) == '=') {
            c->i++;
            if (value(c, &c->p->node[e].first, err) < 0)
                return -1;
        } else {                /* a unit attribute: `{fp4Padded}` */
            int v = new_node(c, TA_BOOL, at, err);
            if (v < 0)
                return -1;
            c->p->node[v].v = 1;
            c->p->node[e].first = v;
        }
        if (*last < 0)
            *first = e;
        else
            c->p->node[*last].next = e;
        *last = e;
        skip_ws(c);
        if (ch(c) == ',') {
            c->i++;
            continue;
        }
        if (ch(c) == closer)
            return 0;
        return fail_at(c, err, "expected ',' or '%c' after the value of '%.*s'", closer, n,
                       c->p->node[e].name);
    }
}

/* {key = value, ...} */
static int dict(struct cur *c, int *first, int *last, struct sz_error *err)
{
    c->i++;
    if (entries(c, first, last, '}', err) < 0)
        return -1;
    c->i++;
    return 0;
}

/* padded_shared's `[interval:+pad, ...]`: a list of [interval, pad] pairs. */
static int pads(struct cur *c, int *out, struct sz_error *err)
{
    int a = new_node(c, TA_ARRAY, c->i, err), last = -1, more = 1;
    if (a < 0)
        return -1;
    *out = a;
    c->i++;
    while (more > 0) {
        skip_ws(c);
        int pair = new_node(c, TA_ARRAY, c->i, err), x, y;
        if (pair < 0 || value(c, &x, err) < 0)
            return -1;
        skip_ws(c);
        if (ch(c) != ':')
            return fail_at(c, err, "expected ':+' between an interval and its padding");
        c->i++;
        if (ch(c) == '+')
            c->i++;
        if (value(c, &y, err) < 0)
            return -1;
        if (c->p->node[x].kind != TA_INT || c->p->node[y].kind != TA_INT)
            return ta_fail(c->p, pair, err, "an interval and a padding are integers");
        c->p->node[pair].first = x;
        c->p->node[x].next = y;
        chain(c->p, a, &last, pair);
        more = list_sep(c, "the padding list", err);
    }
    return more;
}

/* #dialect.name<...> or #alias */
static int hash(struct cur *c, int *out, struct sz_error *err)
{
    size_t at = c->i++;
    size_t s = c->i;
    int n = ident(c);
    if (n == 0)
        return fail_at(c, err, "expected a name after '#'");
    const char *name = c->p->text[c->src] + s;
    int dotted = memchr(name, '.', (size_t)n) != NULL;
    int a = new_node(c, dotted ? TA_ATTR : TA_ALIAS, at, err);
    if (a < 0)
        return -1;
    c->p->node[a].name = name, c->p->node[a].name_len = n;
    *out = a;
    if (!dotted || ch(c) != '<')
        return 0;
    c->i++;
    skip_ws(c);
    if (ch(c) == '[') {
        if (pads(c, &c->p->node[a].pad, err) < 0)
            return -1;
        skip_ws(c);
    }
    if (ch(c) == ',')           /* `[2:+2], {...}` as Triton's documentation writes it */
        c->i++, skip_ws(c);
    int last = -1;
    if (ch(c) == '{') {
        if (dict(c, &c->p->node[a].first, &last, err) < 0)
            return -1;
        skip_ws(c);
    }
    /* entries after the dictionary: shared_linear's `{...}, alignment = 16>` */
    if (ch(c) == ',') {
        c->i++;
        if (entries(c, &c->p->node[a].first, &last, '>', err) < 0)
            return -1;
    }
    if (ch(c) != '>')
        return fail_at(c, err, "expected '>' to close #%.*s<", n, name);
    c->i++;
    return 0;
}

static int value(struct cur *c, int *out, struct sz_error *err)
{
    skip_ws(c);
    if (++c->depth > TA_MAX_DEPTH)
        return fail_at(c, err, "nested more than %d deep", TA_MAX_DEPTH);
    int rc;
    char x = ch(c);
    size_t at = c->i;
    if (x == '[') {
        rc = array(c, out, err);
    } else if (x == '#') {
        rc = hash(c, out, err);
    } else if (x == '-' || (x >= '0' && x <= '9')) {
        int neg = x == '-', digits = 0;
        uint64_t v = 0;
        if (neg)
            c->i++;
        while (ch(c) >= '0' && ch(c) <= '9') {
            v = v * 10 + (uint64_t)(ch(c) - '0');
            c->i++;
            if (++digits > 12) {
                c->i = at;
                return fail_at(c, err, "integer too large");
            }
        }
        if (digits == 0)
            return fail_at(c, err, "expected a digit");
        skip_ws(c);
        if (ch(c) == ':' && c->i + 1 < c->p->len[c->src] && c->p->text[c->src][c->i + 1] == ' ') {
            c->i++;             /* an integer with its type: `8 : i32` */
            skip_ws(c);
            ident(c);
        }
        rc = new_node(c, TA_INT, at, err);
        if (rc >= 0)
            c->p->node[rc].v = neg ? -(int64_t)v : (int64_t)v, *out = rc, rc = 0;
    } else if (x == '"') {
        c->i++;
        while (!at_end(c) && ch(c) != '"')
            c->i += ch(c) == '\\' ? 2 : 1;
        if (at_end(c)) {
            c->i = at;
            return fail_at(c, err, "unterminated string");
        }
        c->i++;
        rc = new_node(c, TA_STRING, at, err);
        if (rc >= 0)
            *out = rc, rc = 0;
    } else {
        int n = ident(c);
        if ((n == 4 && !memcmp(c->p->text[c->src] + at, "true", 4)) ||
            (n == 5 && !memcmp(c->p->text[c->src] + at, "false", 5))) {
            rc = new_node(c, TA_BOOL, at, err);
            if (rc >= 0)
                c->p->node[rc].v = n == 4, *out = rc, rc = 0;
        } else if (n > 0 && ch(c) == '(') {
            /* a Python print, `Name(key=value, ...)` (Gluon's layouts): an
             * attribute named Name */
            int last = -1;
            rc = new_node(c, TA_ATTR, at, err);
            if (rc >= 0) {
                c->p->node[rc].name = c->p->text[c->src] + at;
                c->p->node[rc].name_len = n;
                *out = rc;
                c->i++;
                rc = entries(c, &c->p->node[*out].first, &last, ')', err);
                if (rc == 0)
                    c->i++;
            }
        } else {
            c->i = at;
            /* the byte itself only when it is printable ASCII: the message
             * goes into a JSON answer, which must stay UTF-8 */
            rc = at_end(c) ? fail_at(c, err, "expected a value, got the end of the text")
                 : x > ' ' && x < 127
                     ? fail_at(c, err, "expected a value ('#ttg...', a number, [...], true or "
                                       "false), got '%c'", x)
                     : fail_at(c, err, "expected a value ('#ttg...', a number, [...], true or "
                                       "false), got byte 0x%02x", (unsigned char)x);
        }
    }
    c->depth--;
    return rc < 0 ? -1 : 0;
}

int ta_parse(struct ta_parser *p, int src, int pos, int skip_def, int whole, int *node,
             struct sz_error *err)
{
    struct cur c = {.p = p, .src = src, .i = (size_t)pos};
    skip_ws(&c);
    if (skip_def && ch(&c) == '#') {      /* `#name = value`: the value */
        size_t at = c.i;
        c.i++;
        if (ident(&c) > 0) {
            skip_ws(&c);
            if (ch(&c) == '=')
                c.i++;
            else
                c.i = at;
        } else {
            c.i = at;
        }
    }
    if (value(&c, node, err) < 0)
        return -1;
    skip_ws(&c);
    if (whole && !at_end(&c))
        return fail_at(&c, err, "unexpected text after the attribute");
    return 0;
}

void ta_use(struct ta_parser *p, struct ta_node *node, int max_nodes, struct ta_alias *alias,
            int max_aliases)
{
    p->node = node, p->max_nodes = max_nodes;
    p->alias = alias, p->max_aliases = max_aliases;
}

struct ta_parser *ta_space_init(struct ta_space *s)
{
    ta_use(&s->p, s->node, TA_MAX_NODES, s->alias, TA_MAX_ALIASES);
    return &s->p;
}

/* The alias name's bucket (FNV-1a): a lookup compares one bucket's names,
 * not every alias, so a chain of n aliases resolves in O(n), not O(n^2). */
static int alias_bucket(const char *name, int n)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return (int)(h & (TA_ALIAS_BUCKETS - 1));
}

/* The alias named name[0..n), or NULL. */
static struct ta_alias *alias_find(const struct ta_parser *p, const char *name, int n)
{
    struct ta_work *w = &((struct ta_parser *)p)->work;    /* counts only: see ta_line_col */
    w->lookups++;
    for (int k = p->bucket[alias_bucket(name, n)]; k >= 0; k = p->alias[k].next) {
        w->probes++;
        if (p->alias[k].name_len == n && !memcmp(p->alias[k].name, name, (size_t)n))
            return &p->alias[k];
    }
    return NULL;
}

int ta_init(struct ta_parser *p, const char *text, const char *field, const char *aliases,
            const char *aliases_field, struct sz_error *err)
{
    p->text[0] = text ? text : "";
    p->len[0] = strlen(p->text[0]);
    p->field[0] = field;
    p->text[1] = aliases ? aliases : "";
    p->len[1] = strlen(p->text[1]);
    p->field[1] = aliases_field ? aliases_field : "aliases";
    p->line0[0] = p->line0[1] = 1;
    for (int k = 0; k < 2; k++)
        p->lc_pos[k] = 0, p->lc_line[k] = 1, p->lc_col[k] = 1;
    p->nnodes = 0;
    p->nalias = 0;
    memset(&p->work, 0, sizeof p->work);
    for (int k = 0; k < TA_ALIAS_BUCKETS; k++)
        p->bucket[k] = -1;
    struct cur c = {.p = p, .src = 1};
    while (!at_end(&c)) {
        /* one line: `#name = ...` defines an alias */
        while (ch(&c) == ' ' || ch(&c) == '\t')
            c.i++;
        if (ch(&c) == '#') {
            size_t at = c.i++;
            size_t s = c.i;
            int n = ident(&c);
            while (ch(&c) == ' ' || ch(&c) == '\t')
                c.i++;
            size_t v = c.i + 1;
            while (v < p->len[1] && (p->text[1][v] == ' ' || p->text[1][v] == '\t'))
                v++;
            /* `#loc3 = loc(...)`: debug locations, never an encoding.  v may be
             * one past the end (an alias line ending at its name): compare
             * only four bytes that are there (the fuzzer's read past the end) */
            int is_loc = v + 4 <= p->len[1] && !memcmp(p->text[1] + v, "loc(", 4);
            if (n > 0 && ch(&c) == '=' && !is_loc && !memchr(p->text[1] + s, '.', (size_t)n)) {
                if (alias_find(p, p->text[1] + s, n)) {
                    c.i = at;
                    return fail_at(&c, err, "alias #%.*s is defined twice", n, p->text[1] + s);
                }
                if (p->nalias >= p->max_aliases) {
                    c.i = at;
                    return fail_at(&c, err, "more than %d aliases", p->max_aliases);
                }
                struct ta_alias *a = &p->alias[p->nalias++];
                a->name = p->text[1] + s, a->name_len = n;
                a->pos = (int)c.i + 1;
                a->node = -1, a->state = 0;
                int b = alias_bucket(a->name, n);
                a->next = p->bucket[b], p->bucket[b] = p->nalias - 1;
            }
        }
        while (!at_end(&c) && ch(&c) != '\n')
            c.i++;
        if (!at_end(&c))
            c.i++;
    }
    return 0;
}

int ta_mark(const struct ta_parser *p) { return p->nnodes; }

void ta_reset(struct ta_parser *p, int mark)
{
    p->nnodes = mark;
    for (int k = 0; k < p->nalias; k++)
        if (p->alias[k].state == 1 || (p->alias[k].state == 2 && p->alias[k].node >= mark))
            p->alias[k].state = 0, p->alias[k].node = -1;
}

int ta_resolve(struct ta_parser *p, int node, int *out, struct sz_error *err)
{
    for (int hops = 0; p->node[node].kind == TA_ALIAS; hops++) {
        const struct ta_node *r = &p->node[node];
        struct ta_alias *a = alias_find(p, r->name, r->name_len);
        if (a == NULL)
            return ta_fail(p, node, err, "unknown alias #%.*s: no line `#%.*s = ...` in %s",
                           r->name_len, r->name, r->name_len, r->name, p->field[1]);
        if (a->state == 1 || hops > p->max_aliases)
            return ta_fail(p, node, err, "alias loop: #%.*s refers back to itself",
                           r->name_len, r->name);
        if (a->state == 0) {
            a->state = 1;
            int v;
            if (ta_parse(p, 1, a->pos, 0, 0, &v, err) < 0)
                return -1;
            /* a chain `#a = #b`: its end, with #a marked as being read */
            int end;
            if (ta_resolve(p, v, &end, err) < 0)
                return -1;
            a->node = end, a->state = 2;
        }
        node = a->node;
    }
    *out = node;
    return 0;
}

int ta_get(const struct ta_parser *p, int attr, const char *key)
{
    size_t n = strlen(key);
    for (int e = p->node[attr].first; e >= 0; e = p->node[e].next)
        if ((size_t)p->node[e].name_len == n && !memcmp(p->node[e].name, key, n))
            return p->node[e].first;
    return -1;
}

int ta_is(const struct ta_parser *p, int attr, const char *name)
{
    const struct ta_node *a = &p->node[attr];
    static const char *const prefixes[] = {"ttg.", "triton_gpu."};
    size_t n = strlen(name);
    if (a->kind != TA_ATTR)
        return 0;
    for (int i = 0; i < 2; i++) {
        size_t k = strlen(prefixes[i]);
        if ((size_t)a->name_len == k + n && !memcmp(a->name, prefixes[i], k) &&
            !memcmp(a->name + k, name, n))
            return 1;
    }
    return 0;
}

/* ---- readers the encodings share ----------------------------------------- */

/* A mismatch between the encoding and the shape: names "shape", points at the encoding. */
int ta_shape_fail(const struct ta_parser *p, int node, struct sz_error *err, const char *fmt,
                  ...)
{
    char msg[120];
    int line, col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ta_line_col(p, p->node[node].src, p->node[node].pos, &line, &col);
    sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "%s line %d, column %d: %s",
            p->field[p->node[node].src], line, col, msg);
    return ta_fail_pos(p, p->node[node].src, p->node[node].pos, err);
}

int ta_check_keys(const struct ta_parser *p, int attr, const char *const *known, const char *what,
                  struct sz_error *err)
{
    for (int e = p->node[attr].first; e >= 0; e = p->node[e].next) {
        int ok = 0;
        for (int k = 0; known[k] && !ok; k++)
            ok = (size_t)p->node[e].name_len == strlen(known[k]) &&
                 !memcmp(p->node[e].name, known[k], (size_t)p->node[e].name_len);
        if (!ok)
            return ta_fail(p, e, err, "#ttg.%s has no key '%.*s'", what, p->node[e].name_len,
                           p->node[e].name);
    }
    return 0;
}

/* An integer list of at most max entries, each in lo..hi (powers of two when pow2). */
int ta_ints(const struct ta_parser *p, int attr, const char *key, const char *what, int lo, int hi,
            int pow2, int64_t *v, int max, int *n, struct sz_error *err)
{
    int a = ta_get(p, attr, key);
    if (a < 0)
        return ta_fail(p, attr, err, "#ttg.%s needs %s = [...]", what, key);
    if (p->node[a].kind != TA_ARRAY)
        return ta_fail(p, a, err, "%s must be a list of integers", key);
    int k = 0;
    for (int i = p->node[a].first; i >= 0; i = p->node[i].next, k++) {
        if (k >= max)
            return ta_fail(p, i, err, "%s has more than %d entries", key, max);
        if (p->node[i].kind != TA_INT || p->node[i].v < lo || p->node[i].v > hi)
            return ta_fail(p, i, err, "%s entries must be integers in %d..%d", key, lo, hi);
        if (pow2 && !bits_is_pow2((uint64_t)p->node[i].v))
            return ta_fail(p, i, err, "%s entries must be powers of two, got %lld", key,
                           (long long)p->node[i].v);
        v[k] = p->node[i].v;
    }
    *n = k;
    return 0;
}

int ta_int(const struct ta_parser *p, int attr, const char *key, const char *what, int required,
           int64_t def, int64_t lo, int64_t hi, int64_t *v, struct sz_error *err)
{
    int a = ta_get(p, attr, key);
    if (a < 0) {
        if (required)
            return ta_fail(p, attr, err, "#ttg.%s needs %s", what, key);
        *v = def;
        return 0;
    }
    if (p->node[a].kind != TA_INT || p->node[a].v < lo || p->node[a].v > hi)
        return ta_fail(p, a, err, "%s must be an integer in %lld..%lld", key, (long long)lo,
                       (long long)hi);
    *v = p->node[a].v;
    return 0;
}

int ta_bool(const struct ta_parser *p, int attr, const char *key, int *v, struct sz_error *err)
{
    int a = ta_get(p, attr, key);
    *v = 0;
    if (a < 0)
        return 0;
    if (p->node[a].kind != TA_BOOL)
        return ta_fail(p, a, err, "%s must be true or false", key);
    *v = (int)p->node[a].v;
    return 0;
}

/* The rank the encoding implies must be the tensor's. */
int ta_same_rank(const struct ta_parser *p, int attr, int have, int rank, const char *what,
                 struct sz_error *err)
{
    if (have != rank)
        return ta_shape_fail(p, attr, err, "#ttg.%s has rank %d, the shape has rank %d", what,
                          have, rank);
    return 0;
}

/* Single CTA only: CGALayout = [] (Triton >= 3.5) or CTAsPerCGA all ones. */
int ta_single_cta(const struct ta_parser *p, int attr, struct sz_error *err)
{
    int a = ta_get(p, attr, "CGALayout");
    if (a >= 0 && (p->node[a].kind != TA_ARRAY || p->node[a].first >= 0))
        return ta_fail(p, a, err, "multi-CTA (CGA) layouts are not modelled: one CTA's "
                       "shared memory is what this tool costs");
    a = ta_get(p, attr, "CTAsPerCGA");
    if (a >= 0) {
        if (p->node[a].kind != TA_ARRAY)
            return ta_fail(p, a, err, "CTAsPerCGA must be a list");
        for (int i = p->node[a].first; i >= 0; i = p->node[i].next)
            if (p->node[i].kind != TA_INT || p->node[i].v != 1)
                return ta_fail(p, i, err, "multi-CTA (CGA) layouts are not modelled: "
                               "CTAsPerCGA must be all ones");
    }
    return 0;
}


