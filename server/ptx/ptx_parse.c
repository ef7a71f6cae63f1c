/* ptx_parse.c - PTX module text to entries of pre-decoded instructions
 * (ptx_parse.h): a lexer over the text, the module's directives, each
 * entry's declarations and instructions, registers numbered per entry and
 * labels resolved once the body is read.  Every error names its line and
 * column.  Must not execute anything, nor read or write a file: a path in
 * `.file` is only a name. */
#include "ptx_parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_demangle.h"

enum tok_kind { TK_EOF, TK_IDENT, TK_INT, TK_FLOAT, TK_STR, TK_PUNCT };

struct tok {
    enum tok_kind kind;
    size_t off, len;
    uint64_t ival;          /* TK_INT: the value (0f/0d: the raw bits) */
    double fval;            /* TK_FLOAT */
    int rawbits;            /* TK_INT written 0f.../0d... */
};

/* A register declaration: one name, or a range prefix<count>. */
struct regdecl {
    size_t off, len;        /* the name or prefix, in the text */
    int count;              /* 0: a single name */
    int base;
    int scope;
};

struct label {
    size_t off, len;
    int scope;
    uint32_t insn;
};

/* A label operand waiting for the body's end: operand index and scope. */
struct labelref {
    uint32_t opnd;
    size_t off, len;
    int scope;
    int line, col;
};

struct parser {
    const char *s;
    size_t n, pos;
    struct tok t;
    struct ptx_module *m;
    struct sz_error *err;
    int decl_order;
    /* the entry being read */
    struct ptx_entry *e;
    size_t cap_insns, cap_opnds, cap_vars, cap_locs;
    struct regdecl *regs;
    size_t nregdecl, cap_regs, cap_regtype;
    struct label *labels;
    size_t nlabels, cap_labels;
    struct labelref *refs;
    size_t nrefs, cap_refs;
    int *scope_parent;
    int nscopes, scope;
    size_t cap_scopes;
    struct ptx_loc loc;
    int have_loc;
};

/* Grow *p (elements of `size`) to hold `need`, doubling; -1 past `limit`. */
static int grow(void *pp, size_t *cap, size_t need, size_t size)
{
    void **p = pp;
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int fail_at(struct parser *p, size_t off, enum sz_code code, const char *fmt, const char *a)
{
    int line, col;
    sz_text_pos(p->s, p->n, off, &line, &col);
    char echo[48];
    sz_echo(echo, sizeof echo, a ? a : "", a ? strlen(a) : 0);
    sz_fail(p->err, code, "ptx", "line %d, column %d: ", line, col);
    size_t used = strlen(p->err->message);
    snprintf(p->err->message + used, sizeof p->err->message - used, fmt, echo);
    return sz_set_at(p->err, line, col);
}

/* "expected X, got 'tok'" at the current token. */
static int expected(struct parser *p, const char *what)
{
    char got[40];
    if (p->t.kind == TK_EOF)
        snprintf(got, sizeof got, "the end of the text");
    else
        snprintf(got, sizeof got, "'%.*s'", (int)(p->t.len > 24 ? 24 : p->t.len), p->s + p->t.off);
    char msg[120];
    snprintf(msg, sizeof msg, "expected %s, got %s", what, got);
    return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "%s", msg);
}

static int oom(struct parser *p)
{
    return sz_fail(p->err, SZ_INTERNAL, "ptx", "out of memory reading the PTX");
}

/* ---- the lexer ---- */

static int ident_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.'; }

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int next(struct parser *p)
{
    const char *s = p->s;
    size_t i = p->pos, n = p->n;
    for (;;) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
        } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/'))
                j++;
            if (j + 1 >= n)
                return fail_at(p, i, SZ_INVALID_ARGUMENT, "a comment /* is never closed%s", "");
            i = j + 2;
        } else {
            break;
        }
    }
    struct tok *t = &p->t;
    memset(t, 0, sizeof *t);
    t->off = i;
    if (i >= n || s[i] == '\0') {
        t->kind = TK_EOF;
        p->pos = i;
        return 0;
    }
    unsigned char c = (unsigned char)s[i];
    if (ident_start(c) && !(c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
        size_t j = i + 1;
        for (;;) {
            if (j < n && ident_char((unsigned char)s[j]))
                j++;
            else if (j + 2 < n && s[j] == ':' && s[j + 1] == ':' && ident_char((unsigned char)s[j + 2]))
                j += 2;     /* shared::cta, L2::128B */
            else
                break;
        }
        t->kind = TK_IDENT;
        t->len = j - i;
    } else if (isdigit(c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
        size_t j = i;
        if (c == '0' && j + 1 < n && (s[j + 1] == 'f' || s[j + 1] == 'F' || s[j + 1] == 'd' ||
                                      s[j + 1] == 'D')) {
            size_t digits = (s[j + 1] == 'f' || s[j + 1] == 'F') ? 8 : 16;
            uint64_t v = 0;
            j += 2;
            for (size_t k = 0; k < digits; k++, j++) {
                int h = j < n ? hexval((unsigned char)s[j]) : -1;
                if (h < 0)
                    return fail_at(p, i, SZ_INVALID_ARGUMENT,
                                   "a hex float needs exactly 8 (0f) or 16 (0d) hex digits%s", "");
                v = v << 4 | (uint64_t)h;
            }
            t->kind = TK_INT;
            t->ival = v;
            t->rawbits = 1;
        } else if (c == '0' && j + 1 < n && (s[j + 1] == 'x' || s[j + 1] == 'X')) {
            uint64_t v = 0;
            int any = 0;
            for (j += 2; j < n && hexval((unsigned char)s[j]) >= 0; j++, any = 1) {
                if (v >> 60)
                    return fail_at(p, i, SZ_INVALID_ARGUMENT, "a number over 64 bits%s", "");
                v = v << 4 | (uint64_t)hexval((unsigned char)s[j]);
            }
            if (!any)
                return fail_at(p, i, SZ_INVALID_ARGUMENT, "0x needs hex digits%s", "");
            t->kind = TK_INT;
            t->ival = v;
        } else {
            size_t k = j;
            while (k < n && isdigit((unsigned char)s[k]))
                k++;
            if (k < n && (s[k] == '.' || s[k] == 'e' || s[k] == 'E')) {
                char buf[64];
                size_t m = 0;
                while (k < n && m + 1 < sizeof buf &&
                       (isdigit((unsigned char)s[k]) || s[k] == '.' || s[k] == 'e' || s[k] == 'E' ||
                        ((s[k] == '-' || s[k] == '+') && (s[k - 1] == 'e' || s[k - 1] == 'E'))))
                    k++;
                m = k - j < sizeof buf - 1 ? k - j : sizeof buf - 1;
                memcpy(buf, s + j, m);
                buf[m] = '\0';
                t->kind = TK_FLOAT;
                t->fval = strtod(buf, NULL);
                j = k;
            } else {
                uint64_t v = 0;
                int octal = s[j] == '0' && k - j > 1;
                for (; j < k; j++) {
                    unsigned d = (unsigned)(s[j] - '0');
                    if (octal && d > 7)
                        return fail_at(p, i, SZ_INVALID_ARGUMENT, "not an octal digit%s", "");
                    uint64_t nv = v * (octal ? 8 : 10) + d;
                    if (nv / (octal ? 8 : 10) != v)
                        return fail_at(p, i, SZ_INVALID_ARGUMENT, "a number over 64 bits%s", "");
                    v = nv;
                }
                t->kind = TK_INT;
                t->ival = v;
            }
        }
        if (j < n && (s[j] == 'U' || s[j] == 'u'))
            j++;
        if (j < n && ident_char((unsigned char)s[j]))
            return fail_at(p, i, SZ_INVALID_ARGUMENT, "a malformed number%s", "");
        t->len = j - i;
    } else if (c == '"') {
        size_t j = i + 1;
        while (j < n && s[j] != '"' && s[j] != '\n')
            j++;
        if (j >= n || s[j] != '"')
            return fail_at(p, i, SZ_INVALID_ARGUMENT, "a string is never closed%s", "");
        t->kind = TK_STR;
        t->len = j + 1 - i;
    } else if (strchr("{}[]()<>,;:+-|!@=", c)) {
        t->kind = TK_PUNCT;
        t->len = 1;
    } else {
        char b[2] = {(char)c, 0};
        return fail_at(p, i, SZ_INVALID_ARGUMENT, "unexpected character '%s'", isprint(c) ? b : "?");
    }
    p->pos = t->off + t->len;
    return 0;
}

static int is(const struct parser *p, const char *lit)
{
    size_t l = strlen(lit);
    return p->t.kind != TK_EOF && p->t.len == l && memcmp(p->s + p->t.off, lit, l) == 0;
}

static int accept(struct parser *p, const char *lit, int *got)
{
    *got = is(p, lit);
    return *got ? next(p) : 0;
}

static int expect(struct parser *p, const char *lit)
{
    if (!is(p, lit)) {
        char w[16];
        snprintf(w, sizeof w, "'%s'", lit);
        return expected(p, w);
    }
    return next(p);
}

static int expect_int(struct parser *p, uint64_t *v)
{
    if (p->t.kind != TK_INT)
        return expected(p, "a number");
    *v = p->t.ival;
    return next(p);
}

/* Skip to the ';' that ends this statement (balanced braces), past it. */
static int skip_statement(struct parser *p)
{
    int depth = 0;
    while (p->t.kind != TK_EOF) {
        if (is(p, "{"))
            depth++;
        else if (is(p, "}"))
            depth--;
        else if (is(p, ";") && depth <= 0)
            return next(p);
        if (next(p) < 0)
            return -1;
        if (depth < 0)
            return expected(p, "';'");
    }
    return expected(p, "';'");
}

/* Skip a balanced { ... } block starting at the current '{'. */
static int skip_block(struct parser *p)
{
    int depth = 0;
    do {
        if (p->t.kind == TK_EOF)
            return expected(p, "'}'");
        if (is(p, "{"))
            depth++;
        else if (is(p, "}"))
            depth--;
        if (next(p) < 0)
            return -1;
    } while (depth > 0);
    return 0;
}

static char *dup_tok(const struct parser *p)
{
    char *d = malloc(p->t.len + 1);
    if (d) {
        memcpy(d, p->s + p->t.off, p->t.len);
        d[p->t.len] = '\0';
    }
    return d;
}

/* ---- declarations ---- */

/* The state space a directive names (PSP_NONE: not a space). */
static int space_of(const struct parser *p)
{
    if (is(p, ".shared")) return PSP_SHARED;
    if (is(p, ".global")) return PSP_GLOBAL;
    if (is(p, ".local")) return PSP_LOCAL;
    if (is(p, ".param")) return PSP_PARAM;
    if (is(p, ".const")) return PSP_CONST;
    if (is(p, ".reg")) return PSP_REG;
    return PSP_NONE;
}

/* A variable declaration after its space directive:
 * [.align N] [.vN] [.ptr ...] .type name[dims] [= init] {, name[dims]} ;
 * into *out (grown), one var per name. */
static int var_decl(struct parser *p, int space, int is_extern, struct ptx_var **out, int *nout,
                    size_t *cap, int body)
{
    uint64_t align = 0, vec = 1, v = 0;
    enum ptx_type type = PT_NONE;
    int got;
    for (;;) {
        if (is(p, ".align")) {
            size_t at = p->t.off;
            if (next(p) < 0 || (at = p->t.off, expect_int(p, &align)) < 0)
                return -1;
            if (align == 0 || (align & (align - 1)) || align > 4096)
                return fail_at(p, at, SZ_INVALID_ARGUMENT,
                               ".align must be a power of two up to 4096%s", "");
        } else if (is(p, ".v2") || is(p, ".v4") || is(p, ".v8")) {
            vec = (uint64_t)(p->s[p->t.off + 2] - '0');
            if (next(p) < 0)
                return -1;
        } else if (p->t.kind == TK_IDENT && p->s[p->t.off] == '.' &&
                   ptx_op_type(p->s + p->t.off + 1, p->t.len - 1) != PT_NONE) {
            type = ptx_op_type(p->s + p->t.off + 1, p->t.len - 1);
            if (next(p) < 0)
                return -1;
        } else if (is(p, ".ptr") || is(p, ".shared") || is(p, ".global") || is(p, ".const") ||
                   is(p, ".local") || is(p, ".weak") || is(p, ".visible")) {
            if (next(p) < 0)    /* .param .u64 .ptr .shared .align 4 name */
                return -1;
        } else if (is(p, ".attribute")) {
            if (next(p) < 0 || skip_block(p) < 0)   /* .attribute(.managed): ( ... ) */
                return -1;
        } else {
            break;
        }
    }
    if (type == PT_NONE)
        return expected(p, "a type (.b8, .u32, ...)");
    for (;;) {
        if (p->t.kind != TK_IDENT || p->s[p->t.off] == '.')
            return expected(p, "a variable name");
        if (grow(out, cap, (size_t)*nout + 1, sizeof **out) < 0)
            return oom(p);
        struct ptx_var *var = &(*out)[(*nout)++];
        memset(var, 0, sizeof *var);
        var->name = dup_tok(p);
        if (!var->name)
            return oom(p);
        sz_text_pos(p->s, p->n, p->t.off, &var->line, &got);
        var->space = (uint8_t)space;
        var->is_extern = (uint8_t)is_extern;
        var->type = (uint8_t)type;
        uint64_t elem = (ptx_op_bits(type) + 7) / 8 * vec;
        if (type == PT_PRED)
            elem = 1;
        var->align = (uint32_t)(align ? align : elem);
        var->decl_order = p->decl_order++;
        var->size = elem;
        if (next(p) < 0)
            return -1;
        if (is(p, "<") && space == PSP_PARAM) {   /* .param .b32 p<4>: not in kernels */
            return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "parameter ranges are not "
                           "supported%s", "");
        }
        while (is(p, "[")) {
            if (next(p) < 0)
                return -1;
            if (is(p, "]")) {
                var->size = 0;      /* name[]: extern, sized at launch */
                if (space == PSP_SHARED)
                    var->is_extern = 1;
            } else {
                if (expect_int(p, &v) < 0)
                    return -1;
                if (v == 0 || v > PTX_MAX_VAR_BYTES || var->size * v > PTX_MAX_VAR_BYTES)
                    return fail_at(p, p->t.off, SZ_TOO_LARGE, "a variable over 1 GiB%s", "");
                var->size *= v;
            }
            if (expect(p, "]") < 0)
                return -1;
        }
        if (is(p, "=")) {           /* an initializer: its values are not needed */
            while (!is(p, ",") && !is(p, ";")) {
                if (p->t.kind == TK_EOF)
                    return expected(p, "';'");
                if (is(p, "{")) {
                    if (skip_block(p) < 0)
                        return -1;
                } else if (next(p) < 0) {
                    return -1;
                }
            }
        }
        if (accept(p, ",", &got) < 0)
            return -1;
        if (!got)
            break;
    }
    (void)body;
    return expect(p, ";");
}

static int reg_lookup(const struct parser *p, size_t off, size_t len)
{
    const char *name = p->s + off;
    for (size_t i = p->nregdecl; i-- > 0;) {
        const struct regdecl *d = &p->regs[i];
        if (d->count == 0) {
            if (d->len == len && memcmp(p->s + d->off, name, len) == 0)
                return d->base;
        } else if (len > d->len && memcmp(p->s + d->off, name, d->len) == 0) {
            uint64_t v = 0;
            size_t k = d->len;
            if (name[k] == '0' && len > k + 1)
                continue;
            for (; k < len && isdigit((unsigned char)name[k]) && v < (1u << 30); k++)
                v = v * 10 + (uint64_t)(name[k] - '0');
            if (k == len && v < (uint64_t)d->count)
                return d->base + (int)v;
        }
    }
    return -1;
}

/* .reg .type name[<N>] {, name[<N>]} ; */
static int reg_decl(struct parser *p)
{
    enum ptx_type type = PT_NONE;
    int got;
    while (p->t.kind == TK_IDENT && p->s[p->t.off] == '.') {
        enum ptx_type t = ptx_op_type(p->s + p->t.off + 1, p->t.len - 1);
        if (t != PT_NONE)
            type = t;
        else if (!is(p, ".v2") && !is(p, ".v4"))
            return expected(p, "a register type");
        if (next(p) < 0)
            return -1;
    }
    if (type == PT_NONE)
        return expected(p, "a register type");
    for (;;) {
        if (p->t.kind != TK_IDENT || p->s[p->t.off] == '.')
            return expected(p, "a register name");
        struct regdecl d = {p->t.off, p->t.len, 0, p->e->nregs, p->scope};
        if (next(p) < 0)
            return -1;
        uint64_t count = 1;
        if (is(p, "<")) {
            if (next(p) < 0 || expect_int(p, &count) < 0 || expect(p, ">") < 0)
                return -1;
            if (count == 0)
                return fail_at(p, d.off, SZ_INVALID_ARGUMENT, "a register range declares at "
                               "least one register%s", "");
            d.count = (int)(count > PTX_MAX_REGS ? PTX_MAX_REGS + 1 : count);
        }
        if ((uint64_t)p->e->nregs + count > PTX_MAX_REGS)
            return fail_at(p, d.off, SZ_TOO_LARGE, "more than 65536 registers in one "
                           "entry%s", "");
        if (grow(&p->regs, &p->cap_regs, p->nregdecl + 1, sizeof *p->regs) < 0 ||
            grow(&p->e->reg_type, &p->cap_regtype, (size_t)p->e->nregs + count, 1) < 0)
            return oom(p);
        p->regs[p->nregdecl++] = d;
        memset(p->e->reg_type + p->e->nregs, type, count);
        p->e->nregs += (int)count;
        if (accept(p, ",", &got) < 0)
            return -1;
        if (!got)
            break;
    }
    return expect(p, ";");
}

/* ---- operands ---- */

static const char *const specials[PS_NSPECIALS] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge",
    "%clock", "%clock64", "%globaltimer", "%dynamic_smem_size", "%total_smem_size",
};

static struct ptx_operand *new_opnd(struct parser *p)
{
    struct ptx_entry *e = p->e;
    if (e->nopnds >= 8u * PTX_MAX_INSNS ||
        grow(&e->opnds, &p->cap_opnds, (size_t)e->nopnds + 1, sizeof *e->opnds) < 0)
        return NULL;
    struct ptx_operand *o = &e->opnds[e->nopnds++];
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->sym = -1;
    return o;
}

/* A symbol (variable) of the entry or the module by name; copies a module
 * variable into the entry on first use.  -1 when none. */
static int sym_lookup(struct parser *p, size_t off, size_t len)
{
    struct ptx_entry *e = p->e;
    for (int i = e->nvars; i-- > 0;)
        if (strlen(e->vars[i].name) == len && memcmp(e->vars[i].name, p->s + off, len) == 0)
            return i;
    for (int i = 0; i < p->m->nglobals; i++) {
        const struct ptx_var *g = &p->m->globals[i];
        if (strlen(g->name) == len && memcmp(g->name, p->s + off, len) == 0) {
            if (grow(&e->vars, &p->cap_vars, (size_t)e->nvars + 1, sizeof *e->vars) < 0)
                return -2;
            e->vars[e->nvars] = *g;
            e->vars[e->nvars].name = malloc(len + 1);
            if (!e->vars[e->nvars].name)
                return -2;
            memcpy(e->vars[e->nvars].name, g->name, len + 1);
            return e->nvars++;
        }
    }
    return -1;
}

/* A signed integer operand part: [-] number. */
static int signed_int(struct parser *p, int64_t *v)
{
    int neg, got;
    if (accept(p, "-", &neg) < 0)
        return -1;
    if (p->t.kind != TK_INT)
        return expected(p, "a number");
    *v = neg ? -(int64_t)p->t.ival : (int64_t)p->t.ival;
    (void)got;
    return next(p);
}

/* A register or special register name at the current token into o. */
static int reg_operand(struct parser *p, struct ptx_operand *o)
{
    for (int s = 0; s < PS_NSPECIALS; s++)
        if (is(p, specials[s])) {
            o->kind = PO_SPECIAL;
            o->reg = s;
            return next(p);
        }
    int r = reg_lookup(p, p->t.off, p->t.len);
    if (r < 0) {
        char name[40];
        snprintf(name, sizeof name, "%.*s", (int)(p->t.len > 32 ? 32 : p->t.len), p->s + p->t.off);
        if (name[0] == '%' && p->t.len > 1 && memchr(name, '.', strlen(name)))
            return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "unknown special register %s", name);
        return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "register %s is not declared", name);
    }
    o->kind = PO_REG;
    o->reg = r;
    return next(p);
}

static int operand(struct parser *p, int is_branch);

/* Whether the current token names a register: %-names, and names declared
 * by .reg without one (inline asm's "a"). */
static int at_reg(const struct parser *p)
{
    return p->t.kind == TK_IDENT &&
           (p->s[p->t.off] == '%' || reg_lookup(p, p->t.off, p->t.len) >= 0);
}

/* [ base (+|-) offset ] */
static int addr_operand(struct parser *p, struct ptx_operand *o)
{
    int got;
    o->kind = PO_ADDR;
    if (next(p) < 0)
        return -1;
    if (at_reg(p)) {
        if (reg_operand(p, o) < 0)
            return -1;
        if (o->kind == PO_SPECIAL)
            return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "a special register as an "
                           "address%s", "");
        o->kind = PO_ADDR;
    } else if (p->t.kind == TK_IDENT) {
        int s = sym_lookup(p, p->t.off, p->t.len);
        if (s == -2)
            return oom(p);
        if (s < 0)
            return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "unknown variable in an address%s", "");
        o->sym = s;
        if (next(p) < 0)
            return -1;
    } else if (p->t.kind == TK_INT) {
        o->imm = (int64_t)p->t.ival;
        if (next(p) < 0)
            return -1;
    } else {
        return expected(p, "a register, variable or number in the address");
    }
    if (accept(p, "+", &got) < 0)
        return -1;
    int minus = 0;
    if (!got && accept(p, "-", &minus) < 0)
        return -1;
    if (got || minus) {
        int64_t v;
        if (signed_int(p, &v) < 0)
            return -1;
        o->imm += minus ? -v : v;
    }
    return expect(p, "]");
}

static int operand(struct parser *p, int is_branch)
{
    struct ptx_operand *o = new_opnd(p);
    if (!o)
        return oom(p);
    uint32_t idx = p->e->nopnds - 1;
    int got;
    if (is(p, "[")) {
        return addr_operand(p, o);
    } else if (is(p, "{")) {
        /* a vector: its registers follow the PO_VEC operand */
        o->kind = PO_VEC;
        if (next(p) < 0)
            return -1;
        int n = 0;
        for (;;) {
            struct ptx_operand *r = new_opnd(p);
            if (!r)
                return oom(p);
            if (is(p, "_")) {
                r->kind = PO_SINK;
                if (next(p) < 0)
                    return -1;
            } else if (at_reg(p)) {
                if (reg_operand(p, r) < 0)
                    return -1;
            } else if (p->t.kind == TK_INT || is(p, "-")) {
                r->kind = PO_IMM;
                if (signed_int(p, &r->imm) < 0)
                    return -1;
            } else {
                return expected(p, "a register in the vector");
            }
            if (++n > 8)
                return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "a vector of more than 8%s", "");
            if (accept(p, ",", &got) < 0)
                return -1;
            if (!got)
                break;
        }
        p->e->opnds[idx].n = (uint8_t)n;
        return expect(p, "}");
    } else if (is(p, "!")) {
        if (next(p) < 0 || reg_operand(p, o) < 0)
            return -1;
        o->neg = 1;
        return 0;
    } else if (p->t.kind == TK_INT || p->t.kind == TK_FLOAT || is(p, "-")) {
        int neg;
        o->kind = PO_IMM;
        if (accept(p, "-", &neg) < 0)
            return -1;
        if (p->t.kind == TK_FLOAT) {
            double d = neg ? -p->t.fval : p->t.fval;
            o->fimm = 1;
            memcpy(&o->imm, &d, sizeof d);
        } else if (p->t.kind == TK_INT) {
            o->imm = neg ? -(int64_t)p->t.ival : (int64_t)p->t.ival;
            if (neg && p->t.rawbits)
                o->imm = (int64_t)(p->t.ival ^ (p->t.len == 10 ? 0x80000000u : 1ull << 63));
        } else {
            return expected(p, "a number");
        }
        return next(p);
    } else if (is(p, "_")) {
        o->kind = PO_SINK;
        return next(p);
    } else if (at_reg(p)) {
        if (reg_operand(p, o) < 0)
            return -1;
        if (is(p, "|")) {   /* d|p: a second destination (setp, shfl) */
            struct ptx_operand first = *o;
            o->kind = PO_VEC;
            o->n = 2;
            o->reg = -1;
            struct ptx_operand *a = new_opnd(p), *b;
            if (!a)
                return oom(p);
            *a = first;
            b = new_opnd(p);
            if (!b)
                return oom(p);
            if (next(p) < 0 || reg_operand(p, b) < 0)
                return -1;
        }
        return 0;
    } else if (p->t.kind == TK_IDENT && p->s[p->t.off] != '.') {
        if (is_branch) {
            o->kind = PO_LABEL;
            if (grow(&p->refs, &p->cap_refs, p->nrefs + 1, sizeof *p->refs) < 0)
                return oom(p);
            struct labelref *r = &p->refs[p->nrefs++];
            r->opnd = idx;
            r->off = p->t.off;
            r->len = p->t.len;
            r->scope = p->scope;
            sz_text_pos(p->s, p->n, p->t.off, &r->line, &r->col);
            return next(p);
        }
        int s = sym_lookup(p, p->t.off, p->t.len);
        if (s == -2)
            return oom(p);
        if (s < 0)
            return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "unknown name (not a register, "
                           "variable or parameter)%s", "");
        o->kind = PO_SYM;
        o->sym = s;
        if (next(p) < 0)
            return -1;
        if (accept(p, "+", &got) < 0)
            return -1;
        if (got && signed_int(p, &o->imm) < 0)
            return -1;
        return 0;
    }
    return expected(p, "an operand");
}

/* ---- statements ---- */

static int push_scope(struct parser *p)
{
    if (grow(&p->scope_parent, &p->cap_scopes, (size_t)p->nscopes + 1, sizeof(int)) < 0)
        return oom(p);
    p->scope_parent[p->nscopes] = p->scope;
    p->scope = p->nscopes++;
    return 0;
}

static int pop_scope(struct parser *p)
{
    int s = p->scope;
    p->scope = p->scope_parent[s];
    while (p->nregdecl > 0 && p->regs[p->nregdecl - 1].scope == s)
        p->nregdecl--;
    return 0;
}

/* .loc file line col [, function_name name [+ off], inlined_at file line col] */
static int loc_directive(struct parser *p)
{
    uint64_t f = 0, l = 0, c = 0;
    int got;
    if (next(p) < 0 || expect_int(p, &f) < 0 || expect_int(p, &l) < 0 || expect_int(p, &c) < 0)
        return -1;
    struct ptx_loc loc = {(int)(f > 1000000 ? 0 : f), (int)(l > 100000000 ? 0 : l), 0, 0};
    while (is(p, ",")) {
        if (next(p) < 0)
            return -1;
        if (is(p, "function_name")) {
            if (next(p) < 0 || next(p) < 0)
                return -1;
            if (accept(p, "+", &got) < 0)
                return -1;
            if (got && next(p) < 0)
                return -1;
        } else if (is(p, "inlined_at")) {
            if (next(p) < 0 || expect_int(p, &f) < 0 || expect_int(p, &l) < 0 ||
                expect_int(p, &c) < 0)
                return -1;
            loc.at_file = (int)(f > 1000000 ? 0 : f);
            loc.at_line = (int)(l > 100000000 ? 0 : l);
        } else {
            return expected(p, "function_name or inlined_at");
        }
    }
    p->loc = loc;
    p->have_loc = 1;
    return 0;
}

static int instruction(struct parser *p)
{
    struct ptx_entry *e = p->e;
    if (e->ninsns >= PTX_MAX_INSNS)
        return fail_at(p, p->t.off, SZ_TOO_LARGE, "more than 1048576 instructions in one "
                       "entry%s", "");
    if (grow(&e->insns, &p->cap_insns, (size_t)e->ninsns + 1, sizeof *e->insns) < 0)
        return oom(p);
    struct ptx_insn in;
    memset(&in, 0, sizeof in);
    in.pred = -1;
    in.group = -1;
    sz_text_pos(p->s, p->n, p->t.off, &in.text_line, &in.text_col);
    if (is(p, "@")) {
        int neg;
        if (next(p) < 0 || accept(p, "!", &neg) < 0)
            return -1;
        struct ptx_operand tmp = {0, 0, 0, 0, -1, -1, 0};
        if (p->t.kind != TK_IDENT || reg_operand(p, &tmp) < 0 || tmp.kind != PO_REG) {
            if (p->err->code)
                return -1;
            return expected(p, "a predicate register after '@'");
        }
        in.pred = tmp.reg;
        in.pred_neg = (uint8_t)neg;
    }
    if (p->t.kind != TK_IDENT || p->s[p->t.off] == '.' || p->s[p->t.off] == '%')
        return expected(p, "an instruction");
    if (ptx_op_decode(p->s + p->t.off, p->t.len, &in.oc) < 0)
        return expected(p, "an instruction");
    in.oc.name_off = (uint32_t)p->t.off;
    in.oc.name_len = (uint16_t)(p->t.len > 0xffff ? 0xffff : p->t.len);
    if (next(p) < 0)
        return -1;
    if (in.oc.op == OP_UNSUPPORTED && is(p, "(")) {
        /* call and friends: (ret), name, (args) - kept, not executed */
        if (skip_statement(p) < 0)
            return -1;
    } else {
        int branch = in.oc.op == OP_BRA;
        in.ops = e->nopnds;
        while (!is(p, ";")) {
            if (in.nops && expect(p, ",") < 0)
                return -1;
            if (in.nops == 8)
                return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "more than 8 operands%s", "");
            if (operand(p, branch) < 0)
                return -1;
            in.nops++;
        }
        if (next(p) < 0)
            return -1;
    }
    if (p->have_loc) {
        struct ptx_loc *last = e->nlocs ? &e->locs[e->nlocs - 1] : NULL;
        if (!last || memcmp(last, &p->loc, sizeof p->loc) != 0) {
            if (grow(&e->locs, &p->cap_locs, (size_t)e->nlocs + 1, sizeof *e->locs) < 0)
                return oom(p);
            e->locs[e->nlocs++] = p->loc;
        }
        in.loc = e->nlocs - 1;
    } else {
        in.loc = -1;
    }
    e->insns[e->ninsns++] = in;
    return 0;
}

/* Directives inside a body that are passed over (to the ';' or the line's end). */
static int body_statement(struct parser *p)
{
    int sp = space_of(p);
    if (sp == PSP_REG)
        return next(p) < 0 ? -1 : reg_decl(p);
    if (sp != PSP_NONE) {
        size_t before = (size_t)p->e->nvars;
        int n = p->e->nvars;
        if (next(p) < 0 || var_decl(p, sp, 0, &p->e->vars, &n, &p->cap_vars, 1) < 0) {
            p->e->nvars = n;
            return -1;
        }
        p->e->nvars = n;
        /* a .param declared in the body is a call's frame, not the kernel's */
        for (size_t i = before; i < (size_t)n; i++)
            if (p->e->vars[i].space == PSP_PARAM)
                p->e->vars[i].is_extern = 2;
        return 0;
    }
    if (is(p, ".loc"))
        return loc_directive(p);
    if (is(p, ".pragma") || is(p, ".maxnreg") || is(p, ".reqntid") || is(p, ".maxntid"))
        return skip_statement(p);
    if (is(p, "{")) {
        if (next(p) < 0)
            return -1;
        return push_scope(p);
    }
    if (p->t.kind == TK_IDENT && p->s[p->t.off] != '.' && p->s[p->t.off] != '%') {
        /* a label? name ':' */
        size_t off = p->t.off, len = p->t.len, save = p->pos;
        struct tok t = p->t;
        if (next(p) < 0)
            return -1;
        if (is(p, ":")) {
            for (size_t i = 0; i < p->nlabels; i++)
                if (p->labels[i].scope == p->scope && p->labels[i].len == len &&
                    memcmp(p->s + p->labels[i].off, p->s + off, len) == 0)
                    return fail_at(p, off, SZ_INVALID_ARGUMENT, "label defined twice%s", "");
            if (grow(&p->labels, &p->cap_labels, p->nlabels + 1, sizeof *p->labels) < 0)
                return oom(p);
            p->labels[p->nlabels++] = (struct label){off, len, p->scope, p->e->ninsns};
            return next(p);
        }
        p->t = t;
        p->pos = save;
    }
    if (p->t.kind == TK_IDENT && p->s[p->t.off] == '.')
        return expected(p, "an instruction or a declaration");
    return instruction(p);
}

static int resolve_labels(struct parser *p)
{
    for (size_t r = 0; r < p->nrefs; r++) {
        const struct labelref *ref = &p->refs[r];
        int found = -1;
        for (int s = ref->scope; s >= 0 && found < 0; s = s ? p->scope_parent[s] : -1)
            for (size_t i = 0; i < p->nlabels; i++)
                if (p->labels[i].scope == s && p->labels[i].len == ref->len &&
                    memcmp(p->s + p->labels[i].off, p->s + ref->off, ref->len) == 0) {
                    found = (int)p->labels[i].insn;
                    break;
                }
        if (found < 0) {
            char name[40];
            snprintf(name, sizeof name, "%.*s", (int)(ref->len > 32 ? 32 : ref->len), p->s + ref->off);
            return fail_at(p, ref->off, SZ_INVALID_ARGUMENT, "no label %s in this entry", name);
        }
        p->e->opnds[ref->opnd].reg = found;
    }
    return 0;
}

static void free_vars(struct ptx_var *v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i].name);
    free(v);
}

/* .entry name ( params ) [directives] { body } */
static int entry(struct parser *p)
{
    int got;
    if (next(p) < 0)
        return -1;
    if (p->t.kind != TK_IDENT)
        return expected(p, "the entry's name");
    struct ptx_module *m = p->m;
    if (m->nentries >= 4096)
        return fail_at(p, p->t.off, SZ_TOO_LARGE, "more than 4096 entries%s", "");
    struct ptx_entry *ne = realloc(m->entries, ((size_t)m->nentries + 1) * sizeof *ne);
    if (!ne)
        return oom(p);
    m->entries = ne;
    struct ptx_entry *e = &m->entries[m->nentries++];
    memset(e, 0, sizeof *e);
    p->e = e;
    p->cap_insns = p->cap_opnds = p->cap_vars = p->cap_locs = p->cap_regtype = 0;
    p->nregdecl = p->nlabels = p->nrefs = 0;
    p->nscopes = 0;
    p->scope = 0;
    if (push_scope(p) < 0)
        return -1;
    p->scope_parent[0] = 0;
    p->have_loc = 0;
    e->name = dup_tok(p);
    if (!e->name)
        return oom(p);
    sz_text_pos(p->s, p->n, p->t.off, &e->line, &got);
    if (next(p) < 0)
        return -1;
    if (accept(p, "(", &got) < 0)
        return -1;
    if (got && !is(p, ")")) {
        for (;;) {
            if (!is(p, ".param"))
                return expected(p, "'.param'");
            if (next(p) < 0)
                return -1;
            /* one parameter: [.align N] .type [.ptr ...] name [[N]] */
            int n = e->nvars;
            uint64_t align = 0;
            enum ptx_type type = PT_NONE;
            while (p->t.kind == TK_IDENT && p->s[p->t.off] == '.') {
                enum ptx_type t = ptx_op_type(p->s + p->t.off + 1, p->t.len - 1);
                if (is(p, ".align")) {
                    if (next(p) < 0 || expect_int(p, &align) < 0)
                        return -1;
                    continue;
                }
                if (t != PT_NONE)
                    type = t;
                if (next(p) < 0)
                    return -1;
            }
            if (type == PT_NONE || p->t.kind != TK_IDENT)
                return expected(p, "a parameter's type and name");
            if (grow(&e->vars, &p->cap_vars, (size_t)n + 1, sizeof *e->vars) < 0)
                return oom(p);
            struct ptx_var *v = &e->vars[n];
            memset(v, 0, sizeof *v);
            v->name = dup_tok(p);
            if (!v->name)
                return oom(p);
            e->nvars = n + 1;
            v->space = PSP_PARAM;
            v->type = (uint8_t)type;
            v->size = (ptx_op_bits(type) + 7) / 8;
            v->align = (uint32_t)(align ? align : v->size);
            v->decl_order = p->decl_order++;
            sz_text_pos(p->s, p->n, p->t.off, &v->line, &got);
            if (next(p) < 0)
                return -1;
            if (is(p, "[")) {
                uint64_t k = 0;
                if (next(p) < 0 || expect_int(p, &k) < 0 || expect(p, "]") < 0)
                    return -1;
                if (k == 0 || k > 65536)
                    return fail_at(p, p->t.off, SZ_TOO_LARGE,
                                   "a parameter over 64 KiB%s", "");
                v->size *= k;
            }
            if (v->align == 0 || (v->align & (v->align - 1)) || v->align > 4096)
                return fail_at(p, p->t.off, SZ_INVALID_ARGUMENT, "a parameter's .align must be "
                               "a power of two up to 4096%s", "");
            e->param_bytes = (e->param_bytes + v->align - 1) / v->align * v->align;
            v->offset = e->param_bytes;
            e->param_bytes += v->size;
            e->nparams++;
            if (accept(p, ",", &got) < 0)
                return -1;
            if (!got)
                break;
        }
    }
    if (is(p, ")") && next(p) < 0)
        return -1;
    while (!is(p, "{") && !is(p, ";")) {
        if (p->t.kind == TK_EOF)
            return expected(p, "'{'");
        uint32_t *dims = is(p, ".reqntid") ? e->reqntid : is(p, ".maxntid") ? e->maxntid : NULL;
        if (next(p) < 0)
            return -1;
        for (int k = 0; dims && k < 3 && p->t.kind == TK_INT; k++) {
            dims[k] = (uint32_t)(p->t.ival > 1024 ? 1025 : p->t.ival);
            if (next(p) < 0 || accept(p, ",", &got) < 0)
                return -1;
        }
    }
    if (is(p, ";")) {           /* a prototype: no body */
        free(e->name);
        free_vars(e->vars, e->nvars);
        free(e->reg_type);
        m->nentries--;
        return next(p);
    }
    if (next(p) < 0)            /* '{' */
        return -1;
    int depth = 1;
    while (depth > 0) {
        if (p->t.kind == TK_EOF)
            return expected(p, "'}' closing the entry");
        if (is(p, "}")) {
            if (--depth > 0)
                pop_scope(p);
            if (next(p) < 0)
                return -1;
            continue;
        }
        if (is(p, "{"))
            depth++;
        if (body_statement(p) < 0)
            return -1;
    }
    if (resolve_labels(p) < 0)
        return -1;
    /* a PO_NONE after the last operand: an instruction's operand pointer is
     * then always inside the array, even with no operand at all */
    if (!new_opnd(p))
        return oom(p);
    e->nopnds--;
    e->params = e->vars;
    return 0;
}

static int module(struct parser *p)
{
    struct ptx_module *m = p->m;
    size_t cap_globals = 0;
    if (next(p) < 0)
        return -1;
    while (p->t.kind != TK_EOF) {
        int is_extern = 0, got;
        if (is(p, ".version")) {
            if (next(p) < 0)
                return -1;
            if (p->t.kind == TK_FLOAT && !(p->t.fval >= 0 && p->t.fval < 100)) {
                /* PTX ISA versions are 1.0 .. 9.x; an int of 9.01e300 is undefined
                 * (libFuzzer found it on /api/ptx) */
                return expected(p, "a version below 100");
            } else if (p->t.kind == TK_FLOAT) {
                m->version_major = (int)p->t.fval;
                m->version_minor = (int)((p->t.fval - m->version_major) * 10 + 0.5);
            } else if (p->t.kind == TK_INT) {
                m->version_major = (int)(p->t.ival & 0xff);
            } else {
                return expected(p, "a version number");
            }
            if (next(p) < 0)
                return -1;
            continue;
        }
        if (is(p, ".target")) {
            if (next(p) < 0)
                return -1;
            snprintf(m->target, sizeof m->target, "%.*s", (int)(p->t.len > 31 ? 31 : p->t.len),
                     p->s + p->t.off);
            do {    /* .target sm_90a, texmode_independent, debug */
                if (next(p) < 0)
                    return -1;
            } while (is(p, ",") && next(p) == 0);
            if (p->err->code)
                return -1;
            continue;
        }
        if (is(p, ".address_size")) {
            uint64_t v = 0;
            if (next(p) < 0 || expect_int(p, &v) < 0)
                return -1;
            continue;
        }
        if (is(p, ".file")) {
            uint64_t idx = 0;
            if (next(p) < 0 || expect_int(p, &idx) < 0)
                return -1;
            if (idx > 65535)
                return fail_at(p, p->t.off, SZ_TOO_LARGE, ".file index over 65535%s", "");
            if (p->t.kind != TK_STR)
                return expected(p, "a file name in quotes");
            if ((int)idx >= m->nfiles) {
                char **nf = realloc(m->files, (idx + 1) * sizeof *nf);
                if (!nf)
                    return oom(p);
                for (int i = m->nfiles; i <= (int)idx; i++)
                    nf[i] = NULL;
                m->files = nf;
                m->nfiles = (int)idx + 1;
            }
            free(m->files[idx]);
            m->files[idx] = malloc(p->t.len - 1);
            if (!m->files[idx])
                return oom(p);
            memcpy(m->files[idx], p->s + p->t.off + 1, p->t.len - 2);
            m->files[idx][p->t.len - 2] = '\0';
            if (next(p) < 0)
                return -1;
            while (is(p, ",")) {    /* , timestamp, size */
                if (next(p) < 0 || next(p) < 0)
                    return -1;
            }
            continue;
        }
        if (is(p, ".section")) {
            if (next(p) < 0 || next(p) < 0)
                return -1;
            if (is(p, "{") && skip_block(p) < 0)
                return -1;
            continue;
        }
        if (is(p, ".pragma") || is(p, ".alias")) {
            if (skip_statement(p) < 0)
                return -1;
            continue;
        }
        while (is(p, ".visible") || is(p, ".extern") || is(p, ".weak") || is(p, ".common")) {
            is_extern |= is(p, ".extern");
            if (next(p) < 0)
                return -1;
        }
        if (is(p, ".entry")) {
            if (entry(p) < 0)
                return -1;
            continue;
        }
        if (is(p, ".func")) {
            /* a device function: not executed (calls are unsupported); skip it */
            while (!is(p, "{") && !is(p, ";")) {
                if (p->t.kind == TK_EOF)
                    return expected(p, "'{'");
                if (next(p) < 0)
                    return -1;
            }
            if (is(p, ";")) {
                if (next(p) < 0)
                    return -1;
            } else if (skip_block(p) < 0) {
                return -1;
            }
            continue;
        }
        int sp = space_of(p);
        if (sp == PSP_SHARED || sp == PSP_GLOBAL || sp == PSP_CONST) {
            int n = m->nglobals;
            if (next(p) < 0)
                return -1;
            int rc = var_decl(p, sp, is_extern, &m->globals, &n, &cap_globals, 0);
            m->nglobals = n;
            if (rc < 0)
                return -1;
            continue;
        }
        (void)got;
        return expected(p, "a directive (.version, .target, .entry, ...)");
    }
    if (m->nentries == 0)
        return sz_fail(p->err, SZ_INVALID_ARGUMENT, "ptx", "the text holds no .entry (a kernel)");
    return 0;
}

int ptx_parse(const char *text, size_t len, struct ptx_module *m, struct sz_error *err)
{
    memset(m, 0, sizeof *m);
    if (len > PTX_MAX_TEXT)
        return sz_fail(err, SZ_TOO_LARGE, "ptx", "the PTX is %zu bytes, over the limit of %u",
                       len, PTX_MAX_TEXT);
    m->text = malloc(len + 1);
    if (!m->text)
        return sz_fail(err, SZ_INTERNAL, "ptx", "out of memory");
    memcpy(m->text, text, len);
    m->text[len] = '\0';
    m->textlen = len;
    struct parser p;
    memset(&p, 0, sizeof p);
    if (err)
        memset(err, 0, sizeof *err);    /* the .target loop reads its code */
    p.s = m->text;
    p.n = len;
    p.m = m;
    struct sz_error local;
    memset(&local, 0, sizeof local);
    p.err = err ? err : &local;
    int rc = module(&p);
    free(p.regs);
    free(p.labels);
    free(p.refs);
    free(p.scope_parent);
    if (rc == 0)
        for (int i = 0; i < m->nentries; i++) {
            m->entries[i].params = m->entries[i].vars;
            m->entries[i].text = m->text;
        }
    return rc;
}

void ptx_module_free(struct ptx_module *m)
{
    for (int i = 0; i < m->nentries; i++) {
        struct ptx_entry *e = &m->entries[i];
        free(e->name);
        free_vars(e->vars, e->nvars);
        free(e->reg_type);
        free(e->insns);
        free(e->opnds);
        free(e->locs);
    }
    free(m->entries);
    for (int i = 0; i < m->nfiles; i++)
        free(m->files[i]);
    free(m->files);
    free_vars(m->globals, m->nglobals);
    free(m->text);
    memset(m, 0, sizeof *m);
}

int ptx_parse_entry(struct ptx_module *m, const char *name, struct ptx_entry **out,
                    struct sz_error *err)
{
    if (!name || !*name) {
        if (m->nentries == 1) {
            *out = &m->entries[0];
            return 0;
        }
    } else {
        for (int i = 0; i < m->nentries; i++)
            if (strcmp(m->entries[i].name, name) == 0) {
                *out = &m->entries[i];
                return 0;
            }
    }
    /* the function's own name (transpose_naive for _Z15transpose_naivePfPKfi),
     * where one entry alone has it: what CUDA source calls the kernel */
    struct ptx_entry *by_name = NULL;
    int same = 0;
    for (int i = 0; name && *name && i < m->nentries; i++) {
        char plain[PTX_DEMANGLE_TYPE];
        if (ptx_demangle_name(m->entries[i].name, plain, sizeof plain) == 0 &&
            strcmp(plain, name) == 0) {
            by_name = &m->entries[i];
            same++;
        }
    }
    if (same == 1) {
        *out = by_name;
        return 0;
    }
    char list[120] = "";
    size_t used = 0;
    for (int i = 0; i < m->nentries && used + 1 < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", m->entries[i].name);
        used += w > 0 ? (size_t)w : 0;
    }
    if (used >= sizeof list)
        memcpy(list + sizeof list - 5, "...", 4);
    return sz_fail(err, SZ_INVALID_ARGUMENT, "kernel", "%s; the module's entries: %s",
                   same > 1 ? "several entries have that name (overloads): give the mangled one"
                   : name && *name ? "no entry of that name" : "the module has several entries: "
                   "name one", list);
}

const char *ptx_parse_file(const struct ptx_module *m, int file)
{
    return file >= 0 && file < m->nfiles && m->files[file] ? m->files[file] : "?";
}
