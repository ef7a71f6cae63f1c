/* ttgir_dump.c - finds a dump's shared-memory ops line by line and reads
 * the types they name (ttgir_dump.h).  An op's types follow its ` : `
 * outside any brackets; the first `tensor<` there is the registers' side,
 * the first `!ttg.memdesc<` the shared buffer.  Comment lines (`//`, lit's
 * CHECK lines) are not ops.  Pure: no I/O, no allocation. */
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

void tdump_scan(const char *text, size_t n, struct tdump *d)
{
    memset(d, 0, sizeof *d);
    target(text, n, d);
    int line = 1;
    for (size_t ls = 0; ls < n;) {
        size_t le = ls;
        while (le < n && text[le] != '\n')
            le++;
        size_t i = ls;
        while (i < le && (text[i] == ' ' || text[i] == '\t'))
            i++;
        if (!(i + 1 < le && text[i] == '/' && text[i + 1] == '/')) {
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
                o->tensor = o->memdesc = o->types = -1;
                o->types_len = 0;
                long ts = types_start(text, i, le);
                if (ts >= 0) {
                    o->types = (int)ts;
                    o->types_len = (int)(le - (size_t)ts);
                    long a = find(text, (size_t)ts, le, "tensor<");
                    long b = find(text, (size_t)ts, le, "!ttg.memdesc<");
                    o->tensor = (int)a, o->memdesc = (int)b;
                }
                if (o->kind == TDUMP_ALLOC && ts >= 0 &&
                    find(text, (size_t)ts, le, "()") == ts) {
                    o->kind = TDUMP_SKIP;
                    o->reason = "allocates without an initial value: no access here";
                }
                break;          /* one op per line */
            }
        }
        ls = le + 1;
        line++;
    }
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
