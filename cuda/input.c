/* input.c - the tool's input (input.h): JSON through the API's readers, lines
 * through a tokenizer, both into struct instr and the schema's checks.  It
 * must not grow validation rules of its own beyond the name, which only the
 * tool has: every rule on an instruction lives in server/model/instr.c. */
#include "input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_read.h"
#include "model/atomic_form.h"

static const char *const name_field[] = {"name", NULL};

int input_is_json(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", text[i]) && text[i])
        i++;
    return i < len && (text[i] == '{' || text[i] == '[');
}

/* The JSON "name": printed in the table, the CSV and the JSON answer, so no
 * control characters (raw or escaped) and a bounded length. */
static int read_name(const cJSON *obj, int index, char *name, struct sz_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "name");
    if (v == NULL) {
        snprintf(name, INPUT_NAME_MAX, "pattern%d", index);
        return 0;
    }
    if (!cJSON_IsString(v) || v->valuestring[0] == '\0')
        return sz_fail(err, SZ_INVALID_ARGUMENT, "name", "must be a non-empty string");
    size_t n = strlen(v->valuestring);
    if (n >= INPUT_NAME_MAX)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "name", "longer than %d bytes",
                       INPUT_NAME_MAX - 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v->valuestring[i];
        if (c < 0x20 || c == 0x7f)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "name",
                           "must not hold a control character (byte %zu)", i);
    }
    memcpy(name, v->valuestring, n + 1);
    return 0;
}

static int read_object(const cJSON *obj, int index, struct input_pattern *p,
                       struct sz_error *err, char *where)
{
    snprintf(where, INPUT_WHERE_MAX, "pattern %d", index);
    if (!cJSON_IsObject(obj))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "body",
                       "expected a pattern object (a POST /api/conflicts body)");
    if (read_name(obj, index, p->name, err) < 0)
        return -1;
    if (cJSON_GetObjectItemCaseSensitive(obj, "name"))
        snprintf(where, INPUT_WHERE_MAX, "pattern %d (\"%.80s\")", index, p->name);
    if (api_read_instr(obj, name_field, &p->in, err) < 0)
        return -1;
    return instr_check_gpu(&p->in, NULL, err);
}

int input_parse_json(const char *text, size_t len, struct input_pattern *pats, int max,
                     struct sz_error *err, char *where)
{
    cJSON *root = NULL;
    where[0] = '\0';
    if (api_json_parse(text, len, &root, err) < 0)
        return -1;
    int n = 0, rc = 0;
    if (cJSON_IsArray(root)) {
        if (root->child == NULL)
            rc = sz_fail(err, SZ_INVALID_ARGUMENT, "body", "the array holds no pattern");
        for (const cJSON *it = root->child; it && rc == 0; it = it->next, n++) {
            if (n == max) {
                where[0] = '\0';
                rc = sz_fail(err, SZ_TOO_LARGE, "body", "more than %d patterns", max);
            } else {
                rc = read_object(it, n, &pats[n], err, where);
            }
        }
    } else {
        rc = read_object(root, 0, &pats[0], err, where);
        n = 1;
    }
    cJSON_Delete(root);
    return rc < 0 ? -1 : n;
}

/* ---- the line format ---------------------------------------------------- */

/* The next white-space separated token of *s into tok; its length, 0 at the
 * end of the line, -1 when longer than cap - 1. */
static int next_token(const char **s, char *tok, size_t cap)
{
    const char *p = *s;
    size_t n = 0;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
        if (n + 1 >= cap)
            return -1;
        tok[n++] = *p++;
    }
    tok[n] = '\0';
    *s = p;
    return (int)n;
}

/* A whole token of decimal digits, at most `max`. */
static int parse_u32(const char *tok, uint32_t max, uint32_t *out)
{
    size_t nd = strspn(tok, "0123456789");
    if (nd == 0 || tok[nd] != '\0' || nd > 10)
        return -1;
    unsigned long long v = strtoull(tok, NULL, 10);
    if (v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* An atomic's optional tail after its 32 offsets: the value ("lane",
 * "uniform" or an integer in -2^31..2^32-1) and optionally the guard ("each"
 * or "none"), as the JSON's "value" and "guard"; tok holds the value's token,
 * s the rest of the line.  1, or -1 naming the field. */
static int parse_atomic_tail(const char *tok, const char *s, struct instr *in,
                             struct sz_error *err)
{
    char g[16];
    if (!strcmp(tok, "lane")) {
        in->value_kind = INSTR_VALUE_LANE;
    } else if (!strcmp(tok, "uniform")) {
        in->value_kind = INSTR_VALUE_UNIFORM;
    } else {
        const char *d = tok + (tok[0] == '-');
        size_t nd = strspn(d, "0123456789");
        long long v = nd && nd <= 10 && d[nd] == '\0' ? strtoll(tok, NULL, 10) : -(1LL << 40);
        if (v < -2147483648LL || v > 4294967295LL)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "value", "must be lane, uniform or an "
                           "integer in -2147483648..4294967295, got '%.20s'", tok);
        in->value_kind = INSTR_VALUE_CONST;
        in->value = v;
    }
    int n = next_token(&s, g, sizeof g);
    if (n != 0 && (n < 0 || atomic_form_guard_parse(g, &in->guard, err) < 0))
        return n < 0 ? sz_fail(err, SZ_INVALID_ARGUMENT, "guard", "must be each or none") : -1;
    if (n != 0 && next_token(&s, g, sizeof g) != 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "offsets", "more than 32 lane offsets, a "
                       "value and a guard");
    return instr_check_gpu(in, NULL, err) < 0 ? -1 : 1;
}

int input_parse_line(const char *line, struct input_pattern *out, struct sz_error *err)
{
    char tok[INPUT_NAME_MAX + 8];
    const char *s = line;
    memset(out, 0, sizeof *out);
    int n = next_token(&s, tok, sizeof tok);
    if (n == 0 || (n > 0 && tok[0] == '#'))
        return 0;
    if (n < 0 || n >= INPUT_NAME_MAX)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "name", "longer than %d characters",
                       INPUT_NAME_MAX - 1);
    /* The name is echoed into CSV and JSON: keep it to a safe alphabet. */
    if (strspn(tok, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") !=
        (size_t)n)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "name",
                       "'%.40s': only letters, digits, '_', '-' and '.'", tok);
    memcpy(out->name, tok, (size_t)n + 1);

    /* the op, or an atomic's PTX form: atom.add.u32 (instr.c reads both) */
    if (next_token(&s, tok, sizeof tok) <= 0)
        tok[0] = '\0';
    struct instr *in = &out->in;
    if (instr_form_parse(tok, in, err) < 0)
        return -1;
    if (next_token(&s, tok, sizeof tok) <= 0 || parse_u32(tok, 1024, &in->bytes) < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes", "must be 1, 2, 4, 8 or 16");
    if (next_token(&s, tok, sizeof tok) <= 0 || parse_u32(tok, 1024, &in->matrices) < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices", "must be 1, 2 or 4");
    if (next_token(&s, tok, sizeof tok) <= 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "trans", "missing: 0, 1, true or false");
    if (!strcmp(tok, "0") || !strcmp(tok, "false"))
        in->trans = 0;
    else if (!strcmp(tok, "1") || !strcmp(tok, "true"))
        in->trans = 1;
    else
        return sz_fail(err, SZ_INVALID_ARGUMENT, "trans", "must be 0, 1, true or false");
    for (int t = 0; t < INSTR_LANES; t++) {
        char field[24];
        snprintf(field, sizeof field, "offsets[%d]", t);
        if (next_token(&s, tok, sizeof tok) <= 0)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "offsets",
                           "expected 32 lane offsets, got %d", t);
        if (strcmp(tok, "-") == 0)
            continue;
        if (parse_u32(tok, SZ_OFFSET_LIMIT - 1, &in->offsets[t]) < 0)
            return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                           "must be an integer in 0..%u or '-', got '%.20s'",
                           SZ_OFFSET_LIMIT - 1, tok);
    }
    int more = next_token(&s, tok, sizeof tok);
    if (more != 0 && instr_is_atomic(in->op))
        return parse_atomic_tail(tok, s, in, err);
    if (more != 0 && !instr_is_copy(in->op))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "offsets", "more than 32 lane offsets");
    /* cp.async: optionally "ca"|"cg" and 32 global offsets ('-': 0); without
     * them the global side is contiguous, lane t at t * bytes (the API's default) */
    for (uint32_t t = 0; more == 0 && instr_is_copy(in->op) && t < INSTR_LANES; t++)
        in->global_offsets[t] = t * in->bytes;
    if (more != 0) {
        if (strcmp(tok, "ca") != 0 && strcmp(tok, "cg") != 0)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "cache", "must be ca or cg, got '%.20s'",
                           tok);
        in->cg = strcmp(tok, "cg") == 0;
        for (int t = 0; t < INSTR_LANES; t++) {
            char field[32];
            snprintf(field, sizeof field, "global_offsets[%d]", t);
            if (next_token(&s, tok, sizeof tok) <= 0)
                return sz_fail(err, SZ_INVALID_ARGUMENT, "global_offsets",
                               "expected 32 global offsets after the cache, got %d", t);
            in->global_offsets[t] = 0;
            if (strcmp(tok, "-") != 0 &&
                parse_u32(tok, SZ_OFFSET_LIMIT - 1, &in->global_offsets[t]) < 0)
                return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                               "must be an integer in 0..%u or '-', got '%.20s'",
                               SZ_OFFSET_LIMIT - 1, tok);
        }
        if (next_token(&s, tok, sizeof tok) != 0)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "global_offsets",
                           "more than 32 global offsets");
    }
    return instr_check_gpu(in, NULL, err) < 0 ? -1 : 1;
}

int input_parse(const char *text, size_t len, int json_only, struct input_pattern *pats,
                int max, struct sz_error *err, char *where)
{
    where[0] = '\0';
    if (memchr(text, '\0', len))
        return sz_fail(err, SZ_BAD_JSON, "body", "the input holds a NUL byte");
    if (input_is_json(text, len))
        return input_parse_json(text, len, pats, max, err, where);
    if (json_only)
        return sz_fail(err, SZ_BAD_JSON, "body",
                       "--json reads a JSON pattern object or an array of them; the input "
                       "starts with neither '{' nor '['");
    int n = 0, lineno = 0;
    for (size_t at = 0; at < len;) {
        const char *line = text + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - line) : len - at;
        at += ll + (nl != NULL);
        lineno++;
        snprintf(where, INPUT_WHERE_MAX, "line %d", lineno);
        char buf[4096];
        if (ll >= sizeof buf)
            return sz_fail(err, SZ_TOO_LARGE, "body", "longer than %zu characters",
                           sizeof buf - 1);
        memcpy(buf, line, ll);
        buf[ll] = '\0';
        if (n == max)
            return sz_fail(err, SZ_TOO_LARGE, "body", "more than %d patterns", max);
        int rc = input_parse_line(buf, &pats[n], err);
        if (rc < 0)
            return -1;
        n += rc;
    }
    where[0] = '\0';
    if (n == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "body",
                       "no pattern on stdin (see --help for the formats)");
    return n;
}

int input_format_line(const struct input_pattern *p, const char *name, char *buf,
                      size_t cap)
{
    const struct instr *in = &p->in;
    size_t len = 0;
    char form[32];
    int k = snprintf(buf, cap, "%s %s %u %u %d", name ? name : p->name,
                     instr_form_name(in, form, sizeof form), in->bytes, in->matrices,
                     in->trans ? 1 : 0);
    /* cp.async: the cache and the 32 global offsets after the shared ones;
     * an atomic: its value and guard, where either is not the default */
    int copy = instr_is_copy(in->op), last = copy ? 2 * INSTR_LANES + 1 : INSTR_LANES;
    int tail = instr_is_atomic(in->op) &&
               (in->value_kind != INSTR_VALUE_LANE || in->guard != INSTR_GUARD_EACH);
    for (int t = 0; k >= 0 && (len += (size_t)k) < cap && t <= last; t++) {
        if (t == last && tail && in->value_kind == INSTR_VALUE_CONST)
            k = snprintf(buf + len, cap - len, " %lld %s\n", (long long)in->value,
                         atomic_form_guard_name(in->guard));
        else if (t == last && tail)
            k = snprintf(buf + len, cap - len, " %s %s\n",
                         atomic_form_value_name(in->value_kind),
                         atomic_form_guard_name(in->guard));
        else if (t == last)
            k = snprintf(buf + len, cap - len, "\n");
        else if (t == INSTR_LANES)
            k = snprintf(buf + len, cap - len, " %s", in->cg ? "cg" : "ca");
        else if (t > INSTR_LANES)
            k = snprintf(buf + len, cap - len, " %u", in->global_offsets[t - INSTR_LANES - 1]);
        else if (in->offsets[t] == INSTR_INACTIVE)
            k = snprintf(buf + len, cap - len, " -");
        else
            k = snprintf(buf + len, cap - len, " %u", in->offsets[t]);
    }
    return k >= 0 && len < cap ? (int)len : -1;
}

void input_lanes(const struct instr *in, uint32_t off[INSTR_LANES], uint32_t *active)
{
    const uint32_t used = instr_used_lanes(in);
    *active = 0;
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        uint32_t o = in->offsets[t];
        if (o == INSTR_INACTIVE && instr_is_matrix(in->op))
            o = in->offsets[t % used];
        off[t] = o == INSTR_INACTIVE ? 0 : o;
        *active |= (uint32_t)(o != INSTR_INACTIVE) << t;
    }
}
