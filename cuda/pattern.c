/* pattern.c: parsing and validation of the probe's line format (pattern.h).
 * Pure C11: no CUDA, no allocation, no I/O; errors go to the caller's buffer.
 * This is the only place that knows the text format; jsonin.c reads the JSON
 * form into the same struct, and both finish a pattern with probe_finish. */
#include "pattern.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

const char *probe_op_name(int op)
{
    switch (op) {
    case PROBE_LD: return "ld";
    case PROBE_ST: return "st";
    case PROBE_LDMATRIX: return "ldmatrix";
    case PROBE_STMATRIX: return "stmatrix";
    default: return "?";
    }
}

static int is_matrix_op(int op)
{
    return op == PROBE_LDMATRIX || op == PROBE_STMATRIX;
}

int probe_access_bytes(const probe_pattern *p)
{
    return is_matrix_op(p->op) ? 16 : p->bytes;
}

/* Next whitespace-separated token of *s, copied into tok (NUL-terminated).
 * Returns its length, 0 at end of line, -1 if longer than toklen - 1. */
static int next_token(const char **s, char *tok, size_t toklen)
{
    const char *p = *s;
    size_t n = 0;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
        if (n + 1 >= toklen)
            return -1;
        tok[n++] = *p++;
    }
    tok[n] = '\0';
    *s = p;
    return (int)n;
}

/* Decimal unsigned integer, the whole token, at most max. */
static int parse_uint(const char *tok, unsigned long max, unsigned long *out)
{
    char *end;
    unsigned long v;
    if (tok[0] < '0' || tok[0] > '9')
        return -1;
    errno = 0;
    v = strtoul(tok, &end, 10);
    if (errno || *end != '\0' || v > max)
        return -1;
    *out = v;
    return 0;
}

int probe_parse_line(const char *line, probe_pattern *out, char *err, size_t errlen)
{
    char tok[PROBE_NAME_MAX + 8];
    const char *s = line;
    unsigned long v;
    int n, t;

    memset(out, 0, sizeof *out);
    n = next_token(&s, tok, sizeof tok);
    if (n == 0 || (n > 0 && tok[0] == '#'))
        return 0;
    if (n < 0 || n >= PROBE_NAME_MAX)
        return fail(err, errlen, "name longer than %d characters", PROBE_NAME_MAX - 1);
    for (int i = 0; tok[i]; i++) {
        /* The name is echoed into CSV and JSON: keep it to a safe alphabet. */
        char c = tok[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return fail(err, errlen, "name '%s': only letters, digits, '_', '-', '.' allowed", tok);
    }
    memcpy(out->name, tok, (size_t)n + 1);

    if (next_token(&s, tok, sizeof tok) <= 0)
        return fail(err, errlen, "%s: missing op", out->name);
    if (!strcmp(tok, "ld"))
        out->op = PROBE_LD;
    else if (!strcmp(tok, "st"))
        out->op = PROBE_ST;
    else if (!strcmp(tok, "ldmatrix"))
        out->op = PROBE_LDMATRIX;
    else if (!strcmp(tok, "stmatrix"))
        out->op = PROBE_STMATRIX;
    else
        return fail(err, errlen, "%s: op must be ld, st, ldmatrix or stmatrix, got '%s'",
                    out->name, tok);

    if (next_token(&s, tok, sizeof tok) <= 0 || parse_uint(tok, 16, &v) ||
        (v != 1 && v != 2 && v != 4 && v != 8 && v != 16))
        return fail(err, errlen, "%s: bytes must be 1, 2, 4, 8 or 16, got '%s'", out->name, tok);
    out->bytes = (int)v;

    if (next_token(&s, tok, sizeof tok) <= 0 || parse_uint(tok, 4, &v) ||
        (v != 1 && v != 2 && v != 4))
        return fail(err, errlen, "%s: matrices must be 1, 2 or 4, got '%s'", out->name, tok);
    out->matrices = (int)v;

    if (next_token(&s, tok, sizeof tok) <= 0)
        return fail(err, errlen, "%s: missing trans", out->name);
    if (!strcmp(tok, "0") || !strcmp(tok, "false"))
        out->trans = 0;
    else if (!strcmp(tok, "1") || !strcmp(tok, "true"))
        out->trans = 1;
    else
        return fail(err, errlen, "%s: trans must be 0, 1, true or false, got '%s'", out->name, tok);

    for (t = 0; t < PROBE_LANES; t++) {
        n = next_token(&s, tok, sizeof tok);
        if (n <= 0)
            return fail(err, errlen, "%s: expected 32 lane offsets, got %d", out->name, t);
        if (!strcmp(tok, "-"))
            continue;
        if (parse_uint(tok, PROBE_SMEM_HARD_LIMIT, &v))
            return fail(err, errlen, "%s: lane %d: offset must be an integer in 0..%u or '-', got '%s'",
                        out->name, t, PROBE_SMEM_HARD_LIMIT, tok);
        out->active |= 1u << t;
        out->off[t] = (uint32_t)v;
    }
    if (next_token(&s, tok, sizeof tok) != 0)
        return fail(err, errlen, "%s: more than 32 lane offsets", out->name);

    return probe_finish(out, err, errlen) ? -1 : 1;
}

int probe_finish(probe_pattern *p, char *err, size_t errlen)
{
    if (is_matrix_op(p->op)) {
        /* Lanes past the last matrix only need some valid address: reuse the
         * one of the lane that supplies the same row of the last matrices. */
        int used = 8 * p->matrices;
        for (int t = used; t < PROBE_LANES; t++) {
            if (!(p->active >> t & 1u)) {
                p->off[t] = p->off[t % used];
                p->active |= (p->active >> (t % used) & 1u) << t;
            }
        }
    }
    return probe_validate(p, PROBE_SMEM_HARD_LIMIT, err, errlen);
}

int probe_validate(const probe_pattern *p, uint32_t smem_limit, char *err, size_t errlen)
{
    int size = probe_access_bytes(p);
    if (p->op < PROBE_LD || p->op > PROBE_STMATRIX)
        return fail(err, errlen, "%s: unknown op %d", p->name, p->op);
    if (!is_matrix_op(p->op) && p->trans)
        return fail(err, errlen, "%s: trans applies only to ldmatrix/stmatrix", p->name);
    if (p->active == 0)
        return fail(err, errlen, "%s: no active lane", p->name);
    for (int t = 0; t < PROBE_LANES; t++) {
        if (!(p->active >> t & 1u)) {
            if (is_matrix_op(p->op))
                return fail(err, errlen, "%s: lane %d: %s is warp-wide, lanes 0..%d need an address",
                            p->name, t, probe_op_name(p->op), 8 * p->matrices - 1);
            continue;
        }
        if (p->off[t] % (uint32_t)size)
            return fail(err, errlen, "%s: lane %d: offset %u is not a multiple of %d%s", p->name, t,
                        p->off[t], size, is_matrix_op(p->op) ? " (matrix rows are 16 bytes)" : "");
        if ((uint64_t)p->off[t] + (uint64_t)size > smem_limit)
            return fail(err, errlen, "%s: lane %d: offset %u + %d exceeds the %u bytes of shared memory",
                        p->name, t, p->off[t], size, smem_limit);
    }
    return 0;
}

uint32_t probe_smem_bytes(const probe_pattern *p)
{
    uint32_t end = 16;
    uint32_t size = (uint32_t)probe_access_bytes(p);
    for (int t = 0; t < PROBE_LANES; t++)
        if ((p->active >> t & 1u) && p->off[t] + size > end)
            end = p->off[t] + size;
    return (end + 15u) & ~15u;
}
