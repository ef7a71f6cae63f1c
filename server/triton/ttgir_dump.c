/* ttgir_dump.c - finds a dump's shared-memory ops line by line and reads
 * the types they name (ttgir_dump.h).  An op's types follow its ` : `
 * outside any brackets; the first `tensor<` there is the registers' side,
 * the first `!ttg.memdesc<` (`!triton_gpu.memdesc<`, 3.0's `!tt.memdesc<`)
 * the shared buffer.  Comment lines (`//`, lit's CHECK lines) are not ops.
 * Buffers are followed by SSA name, not by type text (issue 39 item 4): two
 * buffers of one type are two buffers.  Pure: no I/O, no allocation. */
#include "ttgir_dump.h"

#include <string.h>

/* The ops that read or write shared memory with a thread layout, and the
 * shared-memory ops that do not (why they are skipped). */
static const struct {
    const char *name;
    enum tdump_kind kind;
    const char *reason;
} ops[] = {
    {"ttg.local_load", TDUMP_LOAD, NULL},
    {"ttg.local_store", TDUMP_STORE, NULL},
    {"ttg.local_alloc", TDUMP_ALLOC, NULL},
    {"ttg.async_copy_global_to_local", TDUMP_ASYNC_COPY, NULL},
    {"ttg.convert_layout", TDUMP_CONVERT, NULL},
    /* Triton 3.0/3.1 printed the dialect as triton_gpu (renamed ttg in 3.2) */
    {"triton_gpu.local_load", TDUMP_LOAD, NULL},
    {"triton_gpu.local_store", TDUMP_STORE, NULL},
    {"triton_gpu.local_alloc", TDUMP_ALLOC, NULL},
    {"triton_gpu.async_copy_global_to_local", TDUMP_ASYNC_COPY, NULL},
    {"triton_gpu.convert_layout", TDUMP_CONVERT, NULL},
    {"triton_nvidia_gpu.async_tma_copy_global_to_local", TDUMP_SKIP,
     "TMA writes shared memory itself: no thread layout to cost"},
    {"triton_nvidia_gpu.warp_group_dot", TDUMP_SKIP,
     "wgmma reads shared memory by descriptor (the nvmma_shared layout is what it needs)"},
    {"amdg.buffer_load_to_local", TDUMP_ASYNC_COPY, NULL},
    {"ttng.async_tma_copy_global_to_local", TDUMP_SKIP,
     "TMA writes shared memory itself: no thread layout to cost"},
    {"ttng.async_tma_copy_local_to_global", TDUMP_SKIP,
     "TMA reads shared memory itself: no thread layout to cost"},
    {"ttng.async_tma_gather", TDUMP_SKIP, "TMA gather: no thread layout to cost"},
    {"ttng.async_tma_scatter", TDUMP_SKIP, "TMA scatter: no thread layout to cost"},
    {"ttng.warp_group_dot", TDUMP_SKIP,
     "wgmma reads shared memory by descriptor (the nvmma_shared layout is what it needs)"},
    {"ttng.tc_gen5_mma", TDUMP_SKIP, "tcgen05.mma reads shared memory by descriptor"},
    {"ttng.tmem_copy", TDUMP_SKIP, "tcgen05.cp reads shared memory by descriptor"},
    {"ttg.local_gather", TDUMP_SKIP, "gathers by index: not a linear layout"},
    {"ttg.local_scatter", TDUMP_SKIP, "scatters by index: not a linear layout"},
};

static int at_word(const char *t, size_t n, size_t i, const char *w)
{
    size_t k = strlen(w);
    if (i + k > n || memcmp(t + i, w, k))
        return 0;
    char after = i + k < n ? t[i + k] : ' ';
    char before = i ? t[i - 1] : ' ';
    int id = (after >= 'a' && after <= 'z') || after == '_' || (after >= '0' && after <= '9');
    return !id && before != '.' && before != '_' && !(before >= 'a' && before <= 'z');
}

/* The offset of `w` in t[from, to) outside brackets at depth 0, or -1. */
static long find(const char *t, size_t from, size_t to, const char *w)
{
    size_t k = strlen(w);
    for (size_t i = from; i + k <= to; i++)
        if (!memcmp(t + i, w, k))
            return (long)i;
    return -1;
}

/* The ` : ` that starts the op's types: the first outside (), [], {}, <>. */
static long types_start(const char *t, size_t from, size_t to)
{
    int depth = 0;
    for (size_t i = from; i + 2 < to; i++) {
        char c = t[i];
        if (c == '(' || c == '[' || c == '{' || c == '<')
            depth++;
        else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0 &&
                 !(c == '>' && i && t[i - 1] == '-'))
            depth--;
        else if (c == '"')
            for (i++; i < to && t[i] != '"'; i++)
                ;
        else if (depth == 0 && c == ' ' && t[i + 1] == ':' && t[i + 2] == ' ')
            return (long)i + 3;
    }
    return -1;
}

static void target(const char *t, size_t n, struct tdump *d)
{
    static const char *const keys[] = {"ttg.target = \"", "\"ttg.target\" = \""};
    d->num_banks = 32;
    for (int k = 0; k < 2; k++) {
        long i = find(t, 0, n, keys[k]);
        if (i < 0)
            continue;
        size_t s = (size_t)i + strlen(keys[k]), e = s;
        while (e < n && t[e] != '"' && t[e] != '\n')
            e++;
        d->target = t + s;
        d->target_len = (int)(e - s);
        /* gfx950 (MI350, CDNA4) has 64 LDS banks; gfx942 (MI300) and NVIDIA 32 */
        if (find(t, s, e, "gfx950") >= 0)
            d->num_banks = 64;
        return;
    }
}

/* The first memdesc type in t[from, to): the three spellings Triton has printed. */
static long memdesc_at(const char *t, size_t from, size_t to)
{
    static const char *const forms[] = {"!ttg.memdesc<", "!triton_gpu.memdesc<", "!tt.memdesc<"};
    long best = -1;
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        long i = find(t, from, best >= 0 ? (size_t)best : to, forms[k]);
        if (i >= 0)
            best = i;
    }
    return best;
}

/* ---- SSA names ------------------------------------------------------------ */

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '.' || c == '-' || c == '#';
}

/* The SSA name at text[i] ('%'): its length, 0 when there is none. */
static int name_len(const char *t, size_t i, size_t end)
{
    if (i >= end || t[i] != '%')
        return 0;
    size_t k = i + 1;
    while (k < end && is_name_char(t[k]))
        k++;
    return k > i + 1 ? (int)(k - i) : 0;
}

static unsigned name_hash(const char *s, int len, int scope)
{
    unsigned h = 2166136261u ^ (unsigned)scope;
    for (int i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h & (TDUMP_MAX_NAMES - 1);
}

/* The name's entry, made when `make` (-1: absent, or the table is full). */
static int name_get(struct tdump *d, const char *t, int pos, int len, int scope, int make)
{
    unsigned h = name_hash(t + pos, len, scope);
    for (int k = d->bucket[h]; k >= 0; k = d->name[k].next)
        if (d->name[k].len == len && d->name[k].scope == scope &&
            !memcmp(t + d->name[k].pos, t + pos, (size_t)len))
            return k;
    if (!make)
        return -1;
    if (d->nnames >= TDUMP_MAX_NAMES) {
        d->names_full = 1;
        return -1;
    }
    int k = d->nnames++;
    d->name[k] = (struct tdump_name){.pos = pos, .len = len, .scope = scope, .parent = -1,
                                     .next = d->bucket[h]};
    d->bucket[h] = k;
    return k;
}

/* The root of k, halving the path on the way (each step points a name at
 * its grandparent), so that a chain of views or loop values costs about its
 * logarithm a lookup, not its length (a crafted text links 2,048 names). */
static int name_root(struct tdump *d, int k)
{
    while (d->name[k].parent >= 0) {
        int p = d->name[k].parent;
        if (d->name[p].parent >= 0)
            d->name[k].parent = d->name[p].parent;
        k = p;
    }
    return k;
}

/* `to` comes from `from` (a view of it, or the value a loop carries in). */
static void name_link(struct tdump *d, int to, int from)
{
    if (to < 0 || from < 0)
        return;
    int a = name_root(d, to), b = name_root(d, from);
    if (a != b)
        d->name[a].parent = b;
}

/* The memdesc views: the result is a window on its first operand's buffer. */
static const char *const views[] = {
    "ttg.memdesc_subview", "ttg.memdesc_index", "ttg.memdesc_trans", "ttg.memdesc_reshape",
    "ttg.memdesc_reinterpret", "ttg.memdesc_subslice", "triton_gpu.memdesc_subview",
    "triton_gpu.memdesc_trans",
};

/* An scf.for open in the text: its iter_args' names, for its scf.yield. */
#define TDUMP_LOOP_DEPTH 16
#define TDUMP_LOOP_ARGS 32
struct loop {
    int depth;                  /* brace depth of its body */
    int n, arg[TDUMP_LOOP_ARGS];
};

/* Each `%name` in t[i, end) (commas between), into pos/len; returns how many. */
static int names_in(const char *t, size_t i, size_t end, int *pos, int *len, int max)
{
    int n = 0;
    while (i < end && n < max) {
        int l = name_len(t, i, end);
        if (l) {
            pos[n] = (int)i, len[n++] = l;
            i += (size_t)l;
        } else if (t[i] == ':' || t[i] == '{') {
            break;              /* the types, or a region */
        } else {
            i++;
        }
    }
    return n;
}

/* scf.for ... iter_args(%a = %x, %b = %y) -> (...) {: the carried names linked
 * to their initial values, and the loop's results (%r#i, or %r) to them. */
static void loop_open(struct tdump *d, const char *t, size_t ls, size_t le, size_t at, int scope,
                      struct loop *lp)
{
    lp->n = 0;
    long ia = find(t, at, le, "iter_args(");
    if (ia < 0)
        return;
    size_t i = (size_t)ia + 10;
    while (i < le && t[i] != ')' && lp->n < TDUMP_LOOP_ARGS) {
        int l = name_len(t, i, le);
        if (!l) {
            i++;
            continue;
        }
        int arg = name_get(d, t, (int)i, l, scope, 1);
        i += (size_t)l;
        while (i < le && (t[i] == ' ' || t[i] == '='))
            i++;
        int il = name_len(t, i, le);
        if (il) {
            name_link(d, arg, name_get(d, t, (int)i, il, scope, 1));
            i += (size_t)il;
        }
        lp->arg[lp->n++] = arg;
    }
    /* %r:2 = scf.for ...: %r#0, %r#1 are the carried values after the loop;
     * the names are made from the text, so only the form `%r` is linked
     * when there is one result (no text holds "%r#0" to point at) */
    int rl = name_len(t, ls, le);
    if (rl && lp->n == 1)
        name_link(d, name_get(d, t, (int)ls, rl, scope, 1), lp->arg[0]);
}

/* The module's num-warps: `"ttg.num-warps" = 4 : i32` (or triton_gpu.). */
static int num_warps(const char *t, size_t n)
{
    long i = find(t, 0, n, "num-warps");
    if (i < 0)
        return 0;
    size_t k = (size_t)i + 9;
    while (k < n && (t[k] == '"' || t[k] == ' ' || t[k] == '='))
        k++;
    int v = 0;
    while (k < n && t[k] >= '0' && t[k] <= '9' && v < 1 << 20)
        v = v * 10 + (t[k++] - '0');
    return v;
}

/* Brace depth change of one line, braces inside <...> and "..." not counted
 * (attributes such as #ttg.blocked<{...}> open and close on the line). */
static int brace_delta(const char *t, size_t ls, size_t le)
{
    int angle = 0, delta = 0;
    for (size_t i = ls; i < le; i++) {
        char c = t[i];
        if (c == '"') {
            for (i++; i < le && t[i] != '"'; i++)
                ;
        } else if (c == '<') {
            angle++;
        } else if (c == '>' && !(i && t[i - 1] == '-') && angle > 0) {
            angle--;
        } else if (!angle && c == '{') {
            delta++;
        } else if (!angle && c == '}') {
            delta--;
        }
    }
    return delta;
}

void tdump_scan(const char *text, size_t n, struct tdump *d)
{
    memset(d, 0, sizeof *d);
    for (int k = 0; k < TDUMP_MAX_NAMES; k++)
        d->bucket[k] = -1;
    target(text, n, d);
    d->num_warps = num_warps(text, n);
    struct loop loops[TDUMP_LOOP_DEPTH];
    int nloops = 0, depth = 0, scope = 0;
    int line = 1;
    for (size_t ls = 0; ls < n;) {
        size_t le = ls;
        while (le < n && text[le] != '\n')
            le++;
        size_t i = ls;
        while (i < le && (text[i] == ' ' || text[i] == '\t'))
            i++;
        size_t first = i;
        if (!(i + 1 < le && text[i] == '/' && text[i + 1] == '/')) {
            /* `%x = op`: where the op starts */
            size_t opat = first;
            int rl = name_len(text, first, le);
            if (rl) {
                long eq = find(text, first, le, " = ");
                if (eq >= 0)
                    opat = (size_t)eq + 3;
            }
            if (find(text, first, le, "tt.func") >= 0)
                scope++;
            for (size_t v = 0; v < sizeof views / sizeof views[0] && rl; v++)
                if (at_word(text, le, opat, views[v])) {
                    size_t a = opat + strlen(views[v]);
                    while (a < le && text[a] == ' ')
                        a++;
                    int al = name_len(text, a, le);
                    if (al)
                        name_link(d, name_get(d, text, (int)first, rl, scope, 1),
                                  name_get(d, text, (int)a, al, scope, 1));
                }
            if (at_word(text, le, opat, "scf.for") && nloops < TDUMP_LOOP_DEPTH) {
                loop_open(d, text, first, le, opat, scope, &loops[nloops]);
                loops[nloops++].depth = depth + brace_delta(text, ls, le);
            }
            if (at_word(text, le, opat, "scf.yield") && nloops &&
                loops[nloops - 1].depth == depth) {
                int pos[TDUMP_LOOP_ARGS], len[TDUMP_LOOP_ARGS];
                struct loop *lp = &loops[nloops - 1];
                int k = names_in(text, opat + 9, le, pos, len, TDUMP_LOOP_ARGS);
                for (int j = 0; j < k && j < lp->n; j++)
                    name_link(d, lp->arg[j], name_get(d, text, pos[j], len[j], scope, 1));
            }
            for (; i < le; i++) {
                size_t k;
                if (text[i] != 't' && text[i] != 'a')     /* every op name starts so */
                    continue;
                for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
                    if (at_word(text, le, i, ops[k].name))
                        break;
                if (k == sizeof ops / sizeof ops[0])
                    continue;
                if (d->nops >= TDUMP_MAX_OPS) {
                    d->truncated = 1;
                    return;
                }
                struct tdump_op *o = &d->op[d->nops++];
                o->kind = ops[k].kind;
                o->name = ops[k].name;
                o->name_len = (int)strlen(ops[k].name);
                o->line = line;
                o->pos = (int)i;
                o->reason = ops[k].reason;
                o->old_dialect = !strncmp(ops[k].name, "triton_", 7);
                o->tensor = o->memdesc = o->types = o->tensor2 = -1;
                o->types_len = 0;
                o->value = -1, o->value_len = 0, o->buffer = -1;
                long ts = types_start(text, i, le);
                if (ts >= 0) {
                    o->types = (int)ts;
                    o->types_len = (int)(le - (size_t)ts);
                    long a = find(text, (size_t)ts, le, "tensor<");
                    o->tensor = (int)a, o->memdesc = (int)memdesc_at(text, (size_t)ts, le);
                    long b = a >= 0 ? find(text, (size_t)a, le, "-> tensor<") : -1;
                    o->tensor2 = b >= 0 ? (int)b + 3 : -1;
                }
                if (o->kind == TDUMP_ALLOC && ts >= 0 &&
                    find(text, (size_t)ts, le, "()") == ts) {
                    o->kind = TDUMP_SKIP;
                    o->reason = "allocates without an initial value: no access here";
                }
                /* the buffer's value: an alloc's result; a load's operand; a
                 * store's or copy's second operand (`into %b` for AMD's) */
                size_t end = ts >= 0 ? (size_t)ts : le;
                int pos[2], len[2];
                int nn = names_in(text, i + (size_t)o->name_len, end, pos, len, 2);
                long into = find(text, i, end, " into %");
                if (o->kind == TDUMP_ALLOC && rl)
                    o->value = (int)first, o->value_len = rl;
                else if (into >= 0)
                    o->value = (int)into + 6, o->value_len = name_len(text, (size_t)into + 6, end);
                else if (o->kind == TDUMP_LOAD && nn >= 1)
                    o->value = pos[0], o->value_len = len[0];
                else if ((o->kind == TDUMP_STORE || o->kind == TDUMP_ASYNC_COPY) && nn >= 2)
                    o->value = pos[1], o->value_len = len[1];
                if (o->value >= 0)
                    o->buffer = name_get(d, text, o->value, o->value_len, scope, 1);
                break;          /* one op per line */
            }
            depth += brace_delta(text, ls, le);
            while (nloops && depth < loops[nloops - 1].depth)
                nloops--;
        }
        ls = le + 1;
        line++;
    }
    for (int k = 0; k < d->nops; k++)
        if (d->op[k].buffer >= 0)
            d->op[k].buffer = name_root(d, d->op[k].buffer);
}

/* A part boundary: lit's `// -----`, or a dump's `// -----// IR Dump ...`
 * (the pass name is the part's title). */
static int boundary(const char *t, size_t ls, size_t le, const char **title, int *tlen)
{
    size_t i = ls;
    while (i < le && (t[i] == ' ' || t[i] == '\t'))
        i++;
    if (le - i < 8 || memcmp(t + i, "// -----", 8))
        return 0;
    *title = NULL, *tlen = 0;
    long d = find(t, i, le, "IR Dump ");
    if (d >= 0) {
        /* "IR Dump After Pass (pass-arg)", without " ('builtin.module' operation) //----- //" */
        size_t e = (size_t)d;
        while (e < le && !(t[e] == ' ' && e + 2 < le && t[e + 1] == '/' && t[e + 2] == '/') &&
               !(t[e] == ' ' && e + 2 < le && t[e + 1] == '(' && t[e + 2] == '\''))
            e++;
        *title = t + d, *tlen = (int)(e - (size_t)d);
        return 2;
    }
    /* lit's separator is the line alone */
    for (size_t k = i + 8; k < le; k++)
        if (t[k] != ' ' && t[k] != '\t' && t[k] != '\r')
            return 0;
    return 1;
}

/* Whether t[s, e) holds a line that is neither blank nor a comment. */
static int has_code(const char *t, size_t s, size_t e)
{
    for (size_t ls = s; ls < e;) {
        size_t le = ls;
        while (le < e && t[le] != '\n')
            le++;
        size_t i = ls;
        while (i < le && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r'))
            i++;
        if (i < le && !(i + 1 < le && t[i] == '/' && t[i + 1] == '/'))
            return 1;
        ls = le + 1;
    }
    return 0;
}

/* Keep t[start, end) as a part when it holds code (room permitting). */
static void part_close(const char *t, size_t start, size_t end, int line, const char *title,
                      int tlen, struct tdump_part *parts, int max, int *np, int *more)
{
    if (!has_code(t, start, end))
        return;
    if (*np == max) {
        *more = 1;
        return;
    }
    struct tdump_part *p = &parts[(*np)++];
    p->start = start, p->end = end, p->first_line = line;
    p->title = title, p->title_len = tlen;
    if (!title) {
        /* a lit part: its first function's name */
        long f = find(t, start, end, "tt.func");
        long at = f >= 0 ? find(t, (size_t)f, end, "@") : -1;
        if (at >= 0) {
            size_t e = (size_t)at + 1;
            while (e < end && is_name_char(t[e]))
                e++;
            p->title = t + at, p->title_len = (int)(e - (size_t)at);
        }
    }
}

int tdump_split(const char *text, size_t n, struct tdump_part *parts, int max, int *more)
{
    int np = 0, line = 1;
    size_t start = 0;
    int start_line = 1;
    const char *title = NULL;
    int tlen = 0;
    *more = 0;
    for (size_t ls = 0; ls < n;) {
        size_t le = ls;
        while (le < n && text[le] != '\n')
            le++;
        const char *nt = NULL;
        int ntl = 0, b = boundary(text, ls, le, &nt, &ntl);
        if (b) {
            part_close(text, start, ls, start_line, title, tlen, parts, max, &np, more);
            /* a dump's header line starts its part; lit's separator belongs to none */
            start = b == 2 ? ls : le + 1;
            start_line = b == 2 ? line : line + 1;
            title = nt, tlen = ntl;
        }
        ls = le + 1;
        line++;
    }
    part_close(text, start < n ? start : n, n, start_line, title, tlen, parts, max, &np, more);
    return np;
}

/* Element types by their width in shared memory. */
static int element_bits(const char *t, size_t n)
{
    static const struct {
        const char *name;
        int bits;
    } types[] = {
        {"f16", 16}, {"bf16", 16}, {"f32", 32}, {"f64", 64}, {"i1", 8}, {"i8", 8},
        {"i16", 16}, {"i32", 32}, {"i64", 64}, {"tf32", 32}, {"f8E4M3FN", 8}, {"f8E5M2", 8},
        {"f8E4M3FNUZ", 8}, {"f8E5M2FNUZ", 8}, {"f8E4M3B11FNUZ", 8}, {"f8E8M0FNU", 8},
    };
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        if (strlen(types[k].name) == n && !memcmp(types[k].name, t, n))
            return types[k].bits;
    if (n >= 7 && !memcmp(t, "!tt.ptr", 7))
        return 64;
    return 0;
}

int tdump_type(struct ta_parser *p, int pos, int64_t *shape, int *rank, int *bits, int *enc,
               struct sz_error *err)
{
    const char *t = p->text[0];
    size_t n = p->len[0], i = (size_t)pos;
    while (i < n && t[i] != '<')
        i++;
    i++;
    *rank = 0;
    for (;;) {
        if (i >= n || !(t[i] >= '0' && t[i] <= '9'))
            break;
        int64_t v = 0;
        while (i < n && t[i] >= '0' && t[i] <= '9' && v < ((int64_t)1 << 40))
            v = v * 10 + (t[i++] - '0');
        if (i >= n || t[i] != 'x') {
            int line, col;
            ta_line_col(p, 0, (int)i, &line, &col);
            sz_fail(err, SZ_INVALID_ARGUMENT, p->field[0],
                    "line %d, column %d: expected 'x' after a dimension", line, col);
            return ta_fail_pos(p, 0, (int)i, err);
        }
        i++;
        if (*rank >= TLL_MAX_RANK - 1) {
            int line, col;
            ta_line_col(p, 0, (int)i, &line, &col);
            sz_fail(err, SZ_INVALID_ARGUMENT, p->field[0],
                    "line %d, column %d: more than %d dimensions", line, col, TLL_MAX_RANK - 1);
            return ta_fail_pos(p, 0, (int)i, err);
        }
        shape[(*rank)++] = v;
    }
    size_t s = i;
    int depth = 0;
    while (i < n && (depth > 0 || (t[i] != ',' && t[i] != '>'))) {
        depth += t[i] == '<' ? 1 : t[i] == '>' ? -1 : 0;
        i++;
    }
    *bits = element_bits(t + s, i - s);
    if (*rank == 0 || *bits == 0 || i >= n || t[i] != ',') {
        int line, col;
        ta_line_col(p, 0, (int)s, &line, &col);
        sz_fail(err, SZ_INVALID_ARGUMENT, p->field[0],
                "line %d, column %d: expected dims, an element type (f16, bf16, f32, "
                "i8, ...) and an encoding", line, col);
        return ta_fail_pos(p, 0, (int)s, err);
    }
    return ta_parse(p, 0, (int)i + 1, 0, 0, enc, err);
}
