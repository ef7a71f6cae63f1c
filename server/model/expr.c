/* expr.c - access-pattern expressions: a recursive-descent compiler to postfix
 * code in the caller's struct, and a stack machine that runs it per lane.
 *
 * Must not allocate, print or exit, and must stay free of undefined behaviour on
 * any input: every arithmetic step is checked before it is done, and recursion
 * is bounded by EXPR_MAX_DEPTH. */
#include "expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
    OP_PUSH, OP_T, OP_R,                    /* operands: push one value */
    OP_NEG, OP_NOT, OP_SWZ,                 /* one in, one out */
    OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, /* two in, one out */
    OP_SHL, OP_SHR, OP_AND, OP_XOR, OP_OR,
    OP_MIN, OP_MAX,
    OP_COUNT
};

/* How the evaluator shows each instruction in an error message. */
static const char *const op_name[OP_COUNT] = {
    [OP_PUSH] = "literal", [OP_T] = "t", [OP_R] = "r",
    [OP_NEG] = "-", [OP_NOT] = "~", [OP_SWZ] = "swz",
    [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%", [OP_ADD] = "+", [OP_SUB] = "-",
    [OP_SHL] = "<<", [OP_SHR] = ">>", [OP_AND] = "&", [OP_XOR] = "^", [OP_OR] = "|",
    [OP_MIN] = "min", [OP_MAX] = "max",
};

/* Values each instruction pops, so the compiler can size the stack and the
 * evaluator can refuse a program that was not made by expr_compile. */
static const uint8_t op_pops[OP_COUNT] = {
    [OP_NEG] = 1, [OP_NOT] = 1, [OP_SWZ] = 1,
    [OP_MUL] = 2, [OP_DIV] = 2, [OP_MOD] = 2, [OP_ADD] = 2, [OP_SUB] = 2,
    [OP_SHL] = 2, [OP_SHR] = 2, [OP_AND] = 2, [OP_XOR] = 2, [OP_OR] = 2,
    [OP_MIN] = 2, [OP_MAX] = 2,
};

/* ---- lexer --------------------------------------------------------------- */

/* Tokens are their own character for one-character punctuation. */
enum { TK_END = 0, TK_NUM = 256, TK_T, TK_R, TK_SWZ, TK_MIN, TK_MAX, TK_SHL, TK_SHR };

struct parser {
    const char *src;
    size_t len;
    size_t pos;             /* next unread byte */
    int tok;                /* current token */
    size_t tok_at, tok_len; /* its bytes in src */
    int64_t val;            /* TK_NUM's value */
    int depth;
    int sp;                 /* evaluation stack depth after the code so far */
    struct expr *out;
    struct sz_error *err;
};

static int fail_at(struct parser *p, size_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail_at(struct parser *p, size_t col, const char *fmt, ...)
{
    char msg[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sz_fail(p->err, SZ_INVALID_ARGUMENT, "expr", "at column %zu: %s", col, msg);
    return sz_fail_pos(p->err, p->src, p->len, col - 1);
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

static int digit_value(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* A literal with its base prefix; anything alphanumeric glued to it ("12t",
 * "0x1g", "0b12") is refused as one malformed number rather than split. */
static int lex_number(struct parser *p)
{
    const char *s = p->src;
    size_t i = p->pos, col = i + 1;
    int base = 10;
    if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        base = 16, i += 2;
    else if (s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B'))
        base = 2, i += 2;
    else if (s[i] == '0' && is_digit(s[i + 1]))
        return fail_at(p, col, "numbers may not start with 0 (there is no octal; "
                       "write 0x... for hex)");
    size_t first = i;
    uint64_t v = 0;
    int too_big = 0;
    for (; digit_value((unsigned char)s[i]) < base; i++) {
        uint64_t d = (uint64_t)digit_value((unsigned char)s[i]);
        if (v > ((uint64_t)INT64_MAX - d) / (uint64_t)base)
            too_big = 1;    /* keep scanning so the message covers the whole literal */
        else
            v = v * (uint64_t)base + d;
    }
    if (i == first || is_alpha((unsigned char)s[i]) || is_digit((unsigned char)s[i]))
        return fail_at(p, col, "malformed number");
    if (too_big)
        return fail_at(p, col, "integer literal above 2^63 - 1");
    p->val = (int64_t)v;
    p->tok = TK_NUM;
    p->pos = i;
    return 0;
}

static int lex(struct parser *p)
{
    const char *s = p->src;
    while (s[p->pos] == ' ' || s[p->pos] == '\t' || s[p->pos] == '\n' || s[p->pos] == '\r')
        p->pos++;
    size_t at = p->pos;
    int c = (unsigned char)s[at];
    p->tok_at = at;
    if (c == '\0') {
        p->tok = TK_END;
    } else if (is_digit(c)) {
        if (lex_number(p) < 0)
            return -1;
    } else if (is_alpha(c)) {
        size_t n = 0;
        while (is_alpha((unsigned char)s[at + n]) || is_digit((unsigned char)s[at + n]))
            n++;
        static const struct { const char *name; int tok; } names[] = {
            {"t", TK_T}, {"r", TK_R}, {"swz", TK_SWZ}, {"min", TK_MIN}, {"max", TK_MAX},
        };
        p->tok = -1;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strlen(names[k].name) == n && memcmp(names[k].name, s + at, n) == 0)
                p->tok = names[k].tok;
        if (p->tok < 0)   /* identifiers are ASCII, so echoing one is safe */
            return fail_at(p, at + 1, "unknown name '%.*s' (known: t, r, swz, min, max)",
                           n > 24 ? 24 : (int)n, s + at);
        p->pos = at + n;
    } else if ((c == '<' || c == '>') && s[at + 1] == c) {
        p->tok = c == '<' ? TK_SHL : TK_SHR;
        p->pos = at + 2;
    } else if (strchr("+-*/%&^|~(),", c)) {
        p->tok = c;
        p->pos = at + 1;
    } else if (c == '<' || c == '>') {
        return fail_at(p, at + 1, "unexpected '%c' (comparisons are not supported; "
                       "shifts are %c%c)", c, c, c);
    } else if (c > 0x20 && c < 0x7F) {
        return fail_at(p, at + 1, "unexpected character '%c'", c);
    } else {
        /* Never echo other bytes: the message ends up in a JSON string. */
        return fail_at(p, at + 1, "unexpected byte 0x%02x", (unsigned)c);
    }
    p->tok_len = p->pos - at;
    return 0;
}

/* The current token as the user typed it, for "expected X, got Y". */
#define TOK_FMT "%s%.*s%s"
#define TOK_ARGS(p) ((p)->tok == TK_END ? "the end" : "'"),                       \
                    ((p)->tok == TK_END ? 0 : (int)((p)->tok_len > 24 ? 24 : (p)->tok_len)), \
                    (p)->src + (p)->tok_at, ((p)->tok == TK_END ? "" : "'")

/* ---- compiler ------------------------------------------------------------ */

static int emit(struct parser *p, int code, int64_t imm, size_t col)
{
    struct expr *e = p->out;
    if (e->n >= EXPR_MAX_NODES)
        return fail_at(p, col, "more than %d operands and operators", EXPR_MAX_NODES);
    e->op[e->n].code = (uint8_t)code;
    e->op[e->n].imm = imm;
    e->op[e->n].col = (uint16_t)col;
    int line, column;
    sz_text_pos(p->src, p->len, col - 1, &line, &column);
    e->op[e->n].line = (uint16_t)line, e->op[e->n].column = (uint16_t)column;
    e->n++;
    p->sp += 1 - op_pops[code];
    if (p->sp > e->max_stack)
        e->max_stack = (uint16_t)p->sp;
    return 0;
}

/* Every nesting construct goes through here, which bounds both the C stack
 * of the recursive descent and the evaluator's stack. */
static int enter(struct parser *p, size_t col)
{
    if (++p->depth > EXPR_MAX_DEPTH)
        return fail_at(p, col, "nested deeper than %d (parentheses, calls and "
                       "unary operators)", EXPR_MAX_DEPTH);
    return 0;
}

static int expect(struct parser *p, int tok, const char *what, size_t opened_at)
{
    if (p->tok == tok)
        return lex(p);
    if (opened_at)
        return fail_at(p, p->tok_at + 1, "expected %s to match '(' at column %zu, got "
                       TOK_FMT, what, opened_at, TOK_ARGS(p));
    return fail_at(p, p->tok_at + 1, "expected %s, got " TOK_FMT, what, TOK_ARGS(p));
}

static int parse_binary(struct parser *p, int min_prec);

static int parse_call(struct parser *p)
{
    int tok = p->tok;
    size_t col = p->tok_at + 1;
    const char *name = tok == TK_SWZ ? "swz" : tok == TK_MIN ? "min" : "max";
    if (lex(p) < 0)
        return -1;
    if (p->tok != '(')
        return fail_at(p, p->tok_at + 1, "expected '(' after %s, got " TOK_FMT, name,
                       TOK_ARGS(p));
    size_t open = p->tok_at + 1;
    if (enter(p, col) < 0 || lex(p) < 0 || parse_binary(p, 0) < 0)
        return -1;
    if (tok != TK_SWZ) {
        if (p->tok != ',')
            return fail_at(p, p->tok_at + 1, "%s takes two arguments: expected ',', got "
                           TOK_FMT, name, TOK_ARGS(p));
        if (lex(p) < 0 || parse_binary(p, 0) < 0)
            return -1;
    } else if (p->tok == ',') {
        return fail_at(p, p->tok_at + 1, "swz takes one argument");
    }
    if (expect(p, ')', "')'", open) < 0)
        return -1;
    p->depth--;
    if (tok == TK_SWZ)
        p->out->uses |= EXPR_USES_SWZ;
    return emit(p, tok == TK_SWZ ? OP_SWZ : tok == TK_MIN ? OP_MIN : OP_MAX, 0, col);
}

static int parse_unary(struct parser *p)
{
    size_t col = p->tok_at + 1;
    switch (p->tok) {
    case '-':
    case '~': {
        int code = p->tok == '-' ? OP_NEG : OP_NOT;
        if (enter(p, col) < 0 || lex(p) < 0 || parse_unary(p) < 0)
            return -1;
        p->depth--;
        return emit(p, code, 0, col);
    }
    case '(':
        if (enter(p, col) < 0 || lex(p) < 0 || parse_binary(p, 0) < 0 ||
            expect(p, ')', "')'", col) < 0)
            return -1;
        p->depth--;
        return 0;
    case TK_NUM: {
        int64_t v = p->val;
        return lex(p) < 0 ? -1 : emit(p, OP_PUSH, v, col);
    }
    case TK_T:
    case TK_R: {
        int code = p->tok == TK_T ? OP_T : OP_R;
        p->out->uses |= code == OP_T ? EXPR_USES_T : EXPR_USES_R;
        return lex(p) < 0 ? -1 : emit(p, code, 0, col);
    }
    case TK_SWZ:
    case TK_MIN:
    case TK_MAX:
        return parse_call(p);
    default:
        return fail_at(p, col, "expected a number, t, r, '(', '-', '~' or a function, "
                       "got " TOK_FMT, TOK_ARGS(p));
    }
}

/* C's binary precedence, higher binds tighter; -1: not a binary operator. */
static int binary_prec(int tok, int *code)
{
    switch (tok) {
    case '*': *code = OP_MUL; return 5;
    case '/': *code = OP_DIV; return 5;
    case '%': *code = OP_MOD; return 5;
    case '+': *code = OP_ADD; return 4;
    case '-': *code = OP_SUB; return 4;
    case TK_SHL: *code = OP_SHL; return 3;
    case TK_SHR: *code = OP_SHR; return 3;
    case '&': *code = OP_AND; return 2;
    case '^': *code = OP_XOR; return 1;
    case '|': *code = OP_OR; return 0;
    default: return -1;
    }
}

/* Precedence climbing: the right operand is parsed at one level tighter,
 * which makes every operator left-associative.  Recursion here adds at most
 * six frames per nesting level. */
static int parse_binary(struct parser *p, int min_prec)
{
    if (parse_unary(p) < 0)
        return -1;
    int code = 0, prec;
    while ((prec = binary_prec(p->tok, &code)) >= min_prec) {
        size_t col = p->tok_at + 1;
        if (lex(p) < 0 || parse_binary(p, prec + 1) < 0 || emit(p, code, 0, col) < 0)
            return -1;
    }
    return 0;
}

int expr_compile(const char *src, struct expr *out, struct sz_error *err)
{
    memset(out, 0, sizeof *out);
    struct parser p = {.src = src, .out = out, .err = err};
    if (src == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "expr", "at column 1: required");
    while (p.len <= EXPR_MAX_LEN && src[p.len] != '\0')
        p.len++;
    if (p.len > EXPR_MAX_LEN)
        return fail_at(&p, EXPR_MAX_LEN + 1, "longer than %d characters", EXPR_MAX_LEN);
    if (lex(&p) < 0)
        goto fail;
    if (p.tok == TK_END) {
        fail_at(&p, p.tok_at + 1, "empty expression");
        goto fail;
    }
    if (parse_binary(&p, 0) < 0)
        goto fail;
    if (p.tok != TK_END) {
        fail_at(&p, p.tok_at + 1,
                p.tok == ')' ? "unmatched " TOK_FMT : "expected an operator, got " TOK_FMT,
                TOK_ARGS(&p));
        goto fail;
    }
    return 0;
fail:
    /* A half-built program must not evaluate as if it were whole. */
    memset(out, 0, sizeof *out);
    return -1;
}

/* ---- evaluator ----------------------------------------------------------- */

static int eval_fail(struct sz_error *err, const struct expr_op *op, int64_t t, int64_t r,
                     const char *what)
{
    sz_fail(err, SZ_INVALID_ARGUMENT, "expr", "at column %u: %s (t=%lld, r=%lld)",
            (unsigned)op->col, what, (long long)t, (long long)r);
    return sz_set_at(err, op->line, op->column);
}

/* a << n as a * 2^n and a >> n as floor(a / 2^n), both defined for negative a
 * (C leaves the first undefined and the second implementation-defined). */
static int shift(int code, int64_t a, int64_t n, int64_t *out)
{
    if (n < 0 || n > 62)
        return -1;
    if (code == OP_SHR) {
        *out = a >= 0 ? a >> n : ~(~a >> n);
        return 0;
    }
    int64_t hi = (int64_t)((UINT64_C(1) << (63 - n)) - 1), lo = -hi - 1;
    if (a > hi || a < lo)
        return -2;
    *out = a * ((int64_t)1 << n);
    return 0;
}

int expr_eval(const struct expr *e, int64_t t, int64_t r, expr_swz_fn swz, void *ctx,
              int64_t *out, struct sz_error *err)
{
    int64_t st[EXPR_MAX_NODES];
    int sp = 0;
    if (e->n == 0 || e->n > EXPR_MAX_NODES)
        return sz_fail(err, SZ_INTERNAL, "expr", "expression was not compiled");
    for (unsigned i = 0; i < e->n; i++) {
        const struct expr_op *op = &e->op[i];
        /* Cheap, and keeps a struct that expr_compile did not fill from
         * reading or writing outside st[]. */
        if (op->code >= OP_COUNT || sp < op_pops[op->code] ||
            (op_pops[op->code] == 0 && sp == EXPR_MAX_NODES))
            return sz_fail(err, SZ_INTERNAL, "expr", "expression was not compiled");
        int64_t a = sp >= 1 ? st[sp - 1] : 0, b = 0, v = 0;
        if (op_pops[op->code] == 2) {
            b = a;
            a = st[sp - 2];
        }
        char what[64];
        switch (op->code) {
        case OP_PUSH: v = op->imm; break;
        case OP_T: v = t; break;
        case OP_R: v = r; break;
        case OP_NEG:
            if (a == INT64_MIN)
                return eval_fail(err, op, t, r, "'-' overflows 64 bits");
            v = -a;
            break;
        case OP_NOT: v = ~a; break;
        case OP_SWZ: {
            if (swz == NULL)
                return eval_fail(err, op, t, r, "swz() needs a swizzle and none is set");
            struct sz_error cb = {.code = SZ_INVALID_ARGUMENT, .message = "failed"};
            if (swz(ctx, a, &v, &cb) < 0) {
                sz_fail(err, cb.code == SZ_OK ? SZ_INVALID_ARGUMENT : cb.code,
                        "expr", "at column %u: swz(%lld): %s (t=%lld, r=%lld)",
                        (unsigned)op->col, (long long)a, cb.message,
                        (long long)t, (long long)r);
                return sz_set_at(err, op->line, op->column);
            }
            break;
        }
        case OP_MUL:
        case OP_ADD:
        case OP_SUB: {
            int ovf = op->code == OP_MUL ? __builtin_mul_overflow(a, b, &v)
                    : op->code == OP_ADD ? __builtin_add_overflow(a, b, &v)
                                         : __builtin_sub_overflow(a, b, &v);
            if (ovf) {
                snprintf(what, sizeof what, "'%s' overflows 64 bits", op_name[op->code]);
                return eval_fail(err, op, t, r, what);
            }
            break;
        }
        case OP_DIV:
        case OP_MOD:
            if (b == 0)
                return eval_fail(err, op, t, r, op->code == OP_DIV ? "division by zero"
                                                                   : "modulo by zero");
            if (b == -1) {      /* INT64_MIN / -1 overflows; C leaves INT64_MIN % -1 undefined */
                if (op->code == OP_DIV && a == INT64_MIN)
                    return eval_fail(err, op, t, r, "'/' overflows 64 bits");
                v = op->code == OP_DIV ? -a : 0;
            } else {
                v = op->code == OP_DIV ? a / b : a % b;
            }
            break;
        case OP_SHL:
        case OP_SHR: {
            int rc = shift(op->code, a, b, &v);
            if (rc == -1) {
                snprintf(what, sizeof what, "shift count %lld is outside 0..62",
                         (long long)b);
                return eval_fail(err, op, t, r, what);
            }
            if (rc == -2)
                return eval_fail(err, op, t, r, "'<<' overflows 64 bits");
            break;
        }
        case OP_AND: v = a & b; break;
        case OP_XOR: v = a ^ b; break;
        case OP_OR: v = a | b; break;
        case OP_MIN: v = a < b ? a : b; break;
        case OP_MAX: v = a > b ? a : b; break;
        }
        sp -= op_pops[op->code];
        st[sp++] = v;
    }
    if (sp != 1)
        return sz_fail(err, SZ_INTERNAL, "expr", "expression was not compiled");
    *out = st[0];
    return 0;
}

int expr_eval_warp(const struct expr *e, int64_t r, expr_swz_fn swz, void *ctx,
                   int64_t out[32], struct sz_error *err)
{
    for (int t = 0; t < 32; t++)
        if (expr_eval(e, t, r, swz, ctx, &out[t], err) < 0)
            return -1;
    return 0;
}
