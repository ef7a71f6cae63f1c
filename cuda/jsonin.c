/* jsonin.c: the strict JSON reader of jsonin.h. A recursive-descent parser
 * for exactly the pattern schema: no generic tree, no allocation, every
 * error a sentence in the caller's buffer. It must accept nothing that
 * RFC 8259 refuses (leading zeros, trailing commas, raw control characters,
 * invalid UTF-8, lone surrogates) so that a malformed body is a bad_input,
 * never a guess. */
#include "jsonin.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rd {
    const char *s;
    size_t len, pos;
    char *err;
    size_t errlen;
    int failed;
};

static int fail(struct rd *r, const char *fmt, ...)
{
    va_list ap;
    if (!r->failed && r->err && r->errlen) {
        va_start(ap, fmt);
        vsnprintf(r->err, r->errlen, fmt, ap);
        va_end(ap);
    }
    r->failed = 1;
    return -1;
}

static int syntax(struct rd *r, const char *what)
{
    if (r->pos >= r->len)
        return fail(r, "JSON: %s, got the end of the input at byte %zu", what, r->pos);
    unsigned char c = (unsigned char)r->s[r->pos];
    if (c >= 0x20 && c < 0x7f)
        return fail(r, "JSON: %s, got '%c' at byte %zu", what, c, r->pos);
    return fail(r, "JSON: %s, got byte 0x%02x at byte %zu", what, c, r->pos);
}

static void ws(struct rd *r)
{
    while (r->pos < r->len) {
        char c = r->s[r->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        r->pos++;
    }
}

static int peek(struct rd *r)
{
    ws(r);
    return r->pos < r->len ? (unsigned char)r->s[r->pos] : -1;
}

static int expect(struct rd *r, char c, const char *what)
{
    if (peek(r) != (unsigned char)c)
        return syntax(r, what);
    r->pos++;
    return 0;
}

static int hex4(struct rd *r, uint32_t *out)
{
    uint32_t v = 0;
    if (r->len - r->pos < 4)
        return syntax(r, "expected 4 hex digits after \\u");
    for (int i = 0; i < 4; i++) {
        char c = r->s[r->pos];
        int d = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return syntax(r, "expected a hex digit in \\u escape");
        v = v << 4 | (uint32_t)d;
        r->pos++;
    }
    *out = v;
    return 0;
}

/* Appends code point cp as UTF-8 to out (cap bytes, NUL kept). */
static int put_utf8(struct rd *r, char *out, size_t cap, size_t *n, uint32_t cp)
{
    unsigned char b[4];
    size_t k;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp, k = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xc0 | cp >> 6), b[1] = (unsigned char)(0x80 | (cp & 0x3f)), k = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xe0 | cp >> 12), b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
        b[2] = (unsigned char)(0x80 | (cp & 0x3f)), k = 3;
    } else {
        b[0] = (unsigned char)(0xf0 | cp >> 18), b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
        b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f)), b[3] = (unsigned char)(0x80 | (cp & 0x3f));
        k = 4;
    }
    if (*n + k + 1 > cap)
        return fail(r, "JSON: string longer than %zu bytes at byte %zu", cap - 1, r->pos);
    memcpy(out + *n, b, k);
    *n += k;
    out[*n] = '\0';
    return 0;
}

/* Length of the valid UTF-8 sequence at s (at most avail bytes), 0 if invalid
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static size_t utf8_seq(const unsigned char *s, size_t avail)
{
    uint32_t cp;
    size_t k;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        k = 2, cp = s[0] & 0x1fu;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        k = 3, cp = s[0] & 0x0fu;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        k = 4, cp = s[0] & 0x07u;
    else
        return 0;
    if (avail < k)
        return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k;
}

/* A JSON string, decoded into out (cap bytes including the NUL). */
static int parse_string(struct rd *r, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    if (expect(r, '"', "expected a string") < 0)
        return -1;
    for (;;) {
        if (r->pos >= r->len)
            return syntax(r, "unterminated string");
        unsigned char c = (unsigned char)r->s[r->pos];
        if (c == '"') {
            r->pos++;
            return 0;
        }
        if (c < 0x20)
            return syntax(r, "control character in string (escape it)");
        if (c == '\\') {
            r->pos++;
            if (r->pos >= r->len)
                return syntax(r, "unterminated escape");
            char e = r->s[r->pos++];
            uint32_t cp;
            switch (e) {
            case '"': cp = '"'; break;
            case '\\': cp = '\\'; break;
            case '/': cp = '/'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                if (hex4(r, &cp) < 0)
                    return -1;
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return fail(r, "JSON: lone low surrogate \\u%04x before byte %zu", cp, r->pos);
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    uint32_t lo;
                    if (r->len - r->pos < 2 || r->s[r->pos] != '\\' || r->s[r->pos + 1] != 'u')
                        return fail(r, "JSON: high surrogate \\u%04x without its low half at "
                                    "byte %zu", cp, r->pos);
                    r->pos += 2;
                    if (hex4(r, &lo) < 0)
                        return -1;
                    if (lo < 0xdc00 || lo > 0xdfff)
                        return fail(r, "JSON: high surrogate \\u%04x followed by \\u%04x at "
                                    "byte %zu", cp, lo, r->pos);
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
                break;
            default:
                r->pos--;
                return syntax(r, "invalid escape");
            }
            if (put_utf8(r, out, cap, &n, cp) < 0)
                return -1;
            continue;
        }
        size_t k = utf8_seq((const unsigned char *)r->s + r->pos, r->len - r->pos);
        if (k == 0)
            return syntax(r, "invalid UTF-8 in string");
        if (n + k + 1 > cap)
            return fail(r, "JSON: string longer than %zu bytes at byte %zu", cap - 1, r->pos);
        memcpy(out + n, r->s + r->pos, k);
        n += k;
        out[n] = '\0';
        r->pos += k;
    }
}

/* A JSON number (the exact RFC 8259 grammar), as a double. */
static int parse_number(struct rd *r, double *out)
{
    char buf[64];
    size_t start, p;
    ws(r);
    start = p = r->pos;
    const char *s = r->s;
#define AT(i) ((i) < r->len ? s[i] : '\0')
    if (AT(p) == '-')
        p++;
    if (AT(p) == '0') {
        p++;
    } else if (AT(p) >= '1' && AT(p) <= '9') {
        while (AT(p) >= '0' && AT(p) <= '9')
            p++;
    } else {
        return syntax(r, "expected a number");
    }
    if (AT(p) == '.') {
        p++;
        if (!(AT(p) >= '0' && AT(p) <= '9')) {
            r->pos = p;
            return syntax(r, "expected a digit after '.'");
        }
        while (AT(p) >= '0' && AT(p) <= '9')
            p++;
    }
    if (AT(p) == 'e' || AT(p) == 'E') {
        p++;
        if (AT(p) == '+' || AT(p) == '-')
            p++;
        if (!(AT(p) >= '0' && AT(p) <= '9')) {
            r->pos = p;
            return syntax(r, "expected a digit in the exponent");
        }
        while (AT(p) >= '0' && AT(p) <= '9')
            p++;
    }
#undef AT
    if (p - start >= sizeof buf)
        return fail(r, "JSON: number longer than %zu characters at byte %zu", sizeof buf - 1, start);
    memcpy(buf, s + start, p - start);
    buf[p - start] = '\0';
    *out = strtod(buf, NULL);
    r->pos = p;
    return 0;
}

static int literal(struct rd *r, const char *word)
{
    size_t n = strlen(word);
    ws(r);
    if (r->len - r->pos < n || memcmp(r->s + r->pos, word, n) != 0)
        return -1;
    r->pos += n;
    return 0;
}

/* An integer in lo..hi (JSON numbers with an integral value, e.g. 16 or 1.6e1). */
static int parse_int(struct rd *r, const char *where, const char *field, long lo, long hi,
                     long *out)
{
    double v = 0;
    size_t at;
    ws(r);
    at = r->pos;
    int c = peek(r);
    if (c != '-' && !(c >= '0' && c <= '9'))
        return fail(r, "%s: %s must be an integer in %ld..%ld (byte %zu)", where, field, lo, hi, at);
    if (parse_number(r, &v) < 0)
        return -1;
    if (!isfinite(v) || v != floor(v) || v < (double)lo || v > (double)hi)
        return fail(r, "%s: %s must be an integer in %ld..%ld, got %.*s", where, field, lo, hi,
                    (int)(r->pos - at > 40 ? 40 : r->pos - at), r->s + at);
    *out = (long)v;
    return 0;
}

enum { F_NAME, F_OP, F_BYTES, F_MATRICES, F_TRANS, F_OFFSETS, F_BANK_BYTES, F_BANKS, F_COUNT };
static const char *const field_names[F_COUNT] = {"name", "op", "bytes", "matrices", "trans",
                                                 "offsets", "bank_bytes", "banks"};

static int parse_pattern(struct rd *r, int index, probe_pattern *p)
{
    char where[64], key[128];
    int seen[F_COUNT] = {0};
    long bytes = -1, matrices = -1, v;
    char perr[PROBE_ERR_MAX];

    snprintf(where, sizeof where, "pattern %d", index);
    memset(p, 0, sizeof *p);
    p->op = -1;
    snprintf(p->name, sizeof p->name, "pattern%d", index);
    if (peek(r) != '{')
        return syntax(r, index ? "expected a pattern object" : "expected a pattern object or an array of them");
    r->pos++;
    if (peek(r) == '}')
        return fail(r, "%s: empty object: \"op\" and \"offsets\" are required", where);
    for (;;) {
        if (peek(r) != '"')
            return syntax(r, "expected a field name");
        if (parse_string(r, key, sizeof key) < 0)
            return -1;
        int f = 0;
        while (f < F_COUNT && strcmp(key, field_names[f]) != 0)
            f++;
        if (f == F_COUNT)
            return fail(r, "%s: unknown field \"%s\" (fields: name, op, bytes, matrices, trans, "
                        "offsets, bank_bytes, banks)", where, key);
        if (seen[f]++)
            return fail(r, "%s: field \"%s\" given twice", where, key);
        if (expect(r, ':', "expected ':' after a field name") < 0)
            return -1;
        switch (f) {
        case F_NAME:
            if (peek(r) != '"')
                return fail(r, "%s: name must be a string", where);
            if (parse_string(r, p->name, sizeof p->name) < 0)
                return -1;
            if (p->name[0] == '\0')
                return fail(r, "%s: name must not be empty", where);
            snprintf(where, sizeof where, "pattern %d (%.30s)", index, p->name);
            break;
        case F_OP: {
            char op[32];
            static const char *const ops[] = {"ld", "st", "ldmatrix", "stmatrix"};
            if (peek(r) != '"' || parse_string(r, op, sizeof op) < 0) {
                r->failed = 0;
                return fail(r, "%s: op must be \"ld\", \"st\", \"ldmatrix\" or \"stmatrix\"", where);
            }
            for (int i = 0; i < 4; i++)
                if (strcmp(op, ops[i]) == 0)
                    p->op = i;
            if (p->op < 0)
                return fail(r, "%s: op must be \"ld\", \"st\", \"ldmatrix\" or \"stmatrix\", got "
                            "\"%s\"", where, op);
            break;
        }
        case F_BYTES:
            if (parse_int(r, where, "bytes", 1, 16, &bytes) < 0)
                return -1;
            if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
                return fail(r, "%s: bytes must be 1, 2, 4, 8 or 16, got %ld", where, bytes);
            break;
        case F_MATRICES:
            if (parse_int(r, where, "matrices", 1, 4, &matrices) < 0)
                return -1;
            if (matrices == 3)
                return fail(r, "%s: matrices must be 1, 2 or 4, got 3", where);
            break;
        case F_TRANS:
            if (literal(r, "true") == 0)
                p->trans = 1;
            else if (literal(r, "false") == 0)
                p->trans = 0;
            else
                return fail(r, "%s: trans must be true or false", where);
            break;
        case F_OFFSETS: {
            int t = 0;
            if (peek(r) != '[')
                return fail(r, "%s: offsets must be an array of 32 byte offsets (null for an "
                            "inactive lane)", where);
            r->pos++;
            if (peek(r) != ']') {
                for (;;) {
                    char field[24];
                    snprintf(field, sizeof field, "offsets[%d]", t);
                    if (t == PROBE_LANES)
                        return fail(r, "%s: offsets has more than 32 entries", where);
                    if (literal(r, "null") == 0) {
                        /* inactive lane */
                    } else {
                        if (parse_int(r, where, field, 0, PROBE_SMEM_HARD_LIMIT, &v) < 0)
                            return -1;
                        p->active |= 1u << t;
                        p->off[t] = (uint32_t)v;
                    }
                    t++;
                    if (peek(r) == ',') {
                        r->pos++;
                        continue;
                    }
                    break;
                }
            }
            if (expect(r, ']', "expected ',' or ']' in offsets") < 0)
                return -1;
            if (t != PROBE_LANES)
                return fail(r, "%s: offsets must have 32 entries (one per lane), got %d", where, t);
            break;
        }
        case F_BANK_BYTES:
            if (parse_int(r, where, "bank_bytes", 1, 1 << 20, &v) < 0)
                return -1;
            if (v != 4)
                return fail(r, "%s: the GPU's banks are 4 bytes wide: bank_bytes must be 4, got "
                            "%ld", where, v);
            break;
        case F_BANKS:
            if (parse_int(r, where, "banks", 1, 1 << 20, &v) < 0)
                return -1;
            if (v != 32)
                return fail(r, "%s: the GPU has 32 banks: banks must be 32, got %ld", where, v);
            break;
        }
        if (peek(r) == ',') {
            r->pos++;
            continue;
        }
        if (expect(r, '}', "expected ',' or '}' in a pattern object") < 0)
            return -1;
        break;
    }
    if (!seen[F_OP])
        return fail(r, "%s: op is required (\"ld\", \"st\", \"ldmatrix\" or \"stmatrix\")", where);
    if (!seen[F_OFFSETS])
        return fail(r, "%s: offsets is required (32 byte offsets, null for an inactive lane)", where);
    int matrix = p->op == PROBE_LDMATRIX || p->op == PROBE_STMATRIX;
    if (matrix && bytes >= 0 && bytes != 16)
        return fail(r, "%s: ldmatrix/stmatrix rows are 16 bytes: omit bytes or give 16", where);
    if (!matrix && matrices >= 0 && matrices != 1)
        return fail(r, "%s: only ldmatrix/stmatrix take matrices", where);
    if (!matrix && p->trans)
        return fail(r, "%s: only ldmatrix/stmatrix have .trans", where);
    p->bytes = bytes >= 0 ? (int)bytes : matrix ? 16 : 4;
    p->matrices = matrices >= 0 ? (int)matrices : matrix ? 4 : 1;
    if (probe_finish(p, perr, sizeof perr) < 0)
        return fail(r, "%s", perr);
    return 0;
}

int probe_json_looks_like(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        i++;
    return i < len && (text[i] == '[' || text[i] == '{');
}

int probe_json_parse(const char *text, size_t len, probe_pattern *pats, int max, char *err,
                     size_t errlen)
{
    struct rd r = {text, len, 0, err, errlen, 0};
    int n = 0;
    if (err && errlen)
        err[0] = '\0';
    int c = peek(&r);
    if (c == '[') {
        r.pos++;
        if (peek(&r) == ']')
            return fail(&r, "JSON: the array holds no pattern");
        for (;;) {
            if (n == max)
                return fail(&r, "JSON: more than %d patterns", max);
            if (parse_pattern(&r, n, &pats[n]) < 0)
                return -1;
            n++;
            if (peek(&r) == ',') {
                r.pos++;
                continue;
            }
            if (expect(&r, ']', "expected ',' or ']' after a pattern") < 0)
                return -1;
            break;
        }
    } else if (c == '{') {
        if (parse_pattern(&r, 0, &pats[0]) < 0)
            return -1;
        n = 1;
    } else {
        return syntax(&r, "expected a pattern object or an array of them");
    }
    if (peek(&r) != -1)
        return syntax(&r, "expected the end of the input");
    return n;
}
