/* api_read.c - request readers: query arguments, strict JSON bodies, and the
 * parameter blocks every route shares (a swizzle, a grid, an instruction).
 * Each reader validates into a core struct and names the offending field; it
 * never writes an answer.  Shared with the measurement tool (cuda/), which
 * reads its stdin with api_json_parse and api_read_instr. */
#include "api_read.h"
#include "model/atomic_form.h"
#include "model/atomic_warps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- query arguments --------------------------------------------------- */

/* Refuse unknown and repeated keys: a typo like `bankbytes=8` must not be
 * silently ignored while the page shows the default. */
int api_args_check(const struct api_request *req, const char *const *known,
                      struct sz_error *err)
{
    for (int i = 0; i < req->nargs; i++) {
        const char *k = req->args[i].key;
        if (!api_utf8_valid((const unsigned char *)k, strlen(k)))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "query",
                           "query parameter names must be UTF-8 text");
        int found = 0;
        for (const char *const *kn = known; *kn; kn++)
            if (strcmp(*kn, k) == 0)
                found = 1;
        if (!found)
            return sz_fail(err, SZ_INVALID_ARGUMENT, k,
                           "unknown query parameter (allowed: see README's API table)");
        for (int j = 0; j < i; j++)
            if (strcmp(req->args[j].key, k) == 0)
                return sz_fail(err, SZ_INVALID_ARGUMENT, k,
                               "query parameter given more than once");
    }
    return 0;
}

const char *api_arg(const struct api_request *req, const char *key)
{
    for (int i = 0; i < req->nargs; i++)
        if (strcmp(req->args[i].key, key) == 0)
            return req->args[i].value;
    return NULL;
}

/* Strict decimal: optional '-', 1..10 digits, nothing else (no spaces, '+',
 * hex or fractions), value in [lo, hi].  Absent: *out = def, unless required. */
int api_arg_int(const struct api_request *req, const char *key, long lo, long hi,
                   int required, long def, long *out, struct sz_error *err)
{
    const char *v = api_arg(req, key);
    if (v == NULL) {
        if (required)
            return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                           "required, an integer in %ld..%ld", lo, hi);
        *out = def;
        return 0;
    }
    const char *p = v + (v[0] == '-');
    size_t nd = strspn(p, "0123456789");
    if (nd == 0 || p[nd] != '\0' || nd > 10)
        return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                       "must be an integer in %ld..%ld", lo, hi);
    long x = strtol(v, NULL, 10);
    if (x < lo || x > hi)
        return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                       "must be in %ld..%ld, got %ld", lo, hi, x);
    *out = x;
    return 0;
}

int api_arg_offsets(const struct api_request *req, const char *key, uint32_t *out,
                    struct sz_error *err)
{
    const char *v = api_arg(req, key);
    int n = 1;
    for (const char *c = v; *c; c++)
        n += *c == ',';
    if (n != INSTR_LANES)
        return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                       "exactly %d byte offsets, comma-separated, one per lane (- or null "
                       "for an inactive lane), got %d", INSTR_LANES, n);
    for (int t = 0; t < INSTR_LANES; t++) {
        size_t len = strcspn(v, ",");
        size_t nd = strspn(v, "0123456789");
        if ((len == 1 && v[0] == '-') || (len == 4 && strncmp(v, "null", 4) == 0)) {
            out[t] = INSTR_INACTIVE;
        } else if (nd == 0 || nd != len || nd > 10 ||
                   strtoull(v, NULL, 10) >= SZ_OFFSET_LIMIT) {
            char echo[25];
            sz_echo(echo, sizeof echo, v, len);     /* raw query bytes: never echoed as is */
            return sz_fail(err, SZ_INVALID_ARGUMENT, key,
                           "lane %d: '%s' is not a byte offset in 0..2147483647, - or "
                           "null", t, echo);
        } else {
            out[t] = (uint32_t)strtoul(v, NULL, 10);
        }
        v += len + (v[len] == ',');
    }
    return 0;
}

int api_arg_bool(const struct api_request *req, const char *key, int *out,
                    struct sz_error *err)
{
    const char *v = api_arg(req, key);
    if (v == NULL || strcmp(v, "0") == 0 || strcmp(v, "false") == 0) {
        *out = 0;
        return 0;
    }
    if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0) {
        *out = 1;
        return 0;
    }
    return sz_fail(err, SZ_INVALID_ARGUMENT, key, "must be 0, 1, false or true");
}

/* ---- JSON bodies ------------------------------------------------------- */

/* RFC 3629 UTF-8: cJSON passes bytes through unchecked, and a body that is not
 * text must be refused before it can be echoed into an error message. */
int api_utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07;
        } else {
            return 0;
        }
        if (i + len > n)
            return 0;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        /* overlong forms, surrogates and values past U+10FFFF are invalid */
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
            (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return 0;
        i += len;
    }
    return 1;
}

/* cJSON reads numbers with strtod, so it takes "01", "1." and "+1", which RFC
 * 8259 forbids.  Scan every number token of a body cJSON already accepted and
 * check the grammar -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
 * Returns the byte offset of the first bad number, or -1. */
static long json_bad_number(const char *s, size_t n)
{
    int in_str = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            continue;
        }
        if (c == '"') {
            in_str = 1;
            continue;
        }
        if (c != '-' && c != '+' && c != '.' && (c < '0' || c > '9'))
            continue;
        size_t start = i, j = i;
        if (s[j] == '-')
            j++;
        if (j < n && s[j] == '0')
            j++;
        else if (j < n && s[j] >= '1' && s[j] <= '9')
            while (j < n && s[j] >= '0' && s[j] <= '9')
                j++;
        else
            return (long)start;
        if (j < n && s[j] == '.') {
            size_t d = ++j;
            while (j < n && s[j] >= '0' && s[j] <= '9')
                j++;
            if (j == d)
                return (long)start;
        }
        if (j < n && (s[j] == 'e' || s[j] == 'E')) {
            j++;
            if (j < n && (s[j] == '+' || s[j] == '-'))
                j++;
            size_t d = j;
            while (j < n && s[j] >= '0' && s[j] <= '9')
                j++;
            if (j == d)
                return (long)start;
        }
        /* the token must end here: "01" stops after "0" with a digit next */
        if (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.' || s[j] == '+' ||
                      s[j] == '-' || s[j] == 'e' || s[j] == 'E'))
            return (long)start;
        i = j - 1;
    }
    return -1;
}

/* RFC 8259 and nothing else: cJSON alone takes "01", "+1", invalid UTF-8 and
 * trailing garbage.  The measurement tool reads its stdin through this too. */
int api_json_parse(const char *text, size_t len, cJSON **out, struct sz_error *err)
{
    if (text == NULL || len == 0)
        return sz_fail(err, SZ_BAD_JSON, "body", "empty body: expected a JSON object");
    if (!api_utf8_valid((const unsigned char *)text, len))
        return sz_fail(err, SZ_BAD_JSON, "body", "body is not valid UTF-8");
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (root == NULL) {
        size_t at = end ? (size_t)(end - text) : 0;
        return sz_fail(err, SZ_BAD_JSON, "body", "invalid JSON near byte %zu", at);
    }
    long bad = json_bad_number(text, len);
    if (bad >= 0) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_BAD_JSON, "body", "invalid JSON number at byte %ld", bad);
    }
    size_t at = (size_t)(end - text);
    while (at < len && text[at] && strchr(" \t\r\n", text[at]))
        at++;
    if (at != len) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_BAD_JSON, "body",
                       "trailing data after the JSON value at byte %zu", at);
    }
    *out = root;
    return 0;
}

/* What one pass over a body's raw text says before cJSON builds anything. */
struct json_scan {
    size_t values;          /* an upper bound on its values: 1 + ',' + '[' + '{' */
    int nul;                /* a string holds an escaped NUL (\u0000) */
    char member[32];        /* the member it is in, or the key it is, cut at the NUL */
};

/* Count outside strings; inside, look for "\u0000", which cJSON decodes into
 * a NUL that silently cuts the string (and a key) short.  The member named is
 * the key holding the NUL, or else the last key before it. */
static void json_scan(const char *t, size_t n, struct json_scan *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->values = 1;
    size_t key_at = 0, key_end = 0, str_at = 0, str_end = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = t[i];
        if (ch == ',' || ch == '[' || ch == '{') {
            sc->values++;
        } else if (ch == ':') {
            key_at = str_at, key_end = str_end;     /* the last string closed is a key */
        } else if (ch == '"') {
            size_t nul_at = 0;
            for (str_at = ++i; i < n && t[i] != '"'; i++) {
                if (t[i] != '\\')
                    continue;
                if (!sc->nul && !nul_at && n - i >= 6 && memcmp(t + i, "\\u0000", 6) == 0)
                    nul_at = i;
                i++;    /* the escaped byte */
            }
            str_end = i < n ? i : n;
            if (nul_at) {
                size_t j = str_end + 1;
                while (j < n && strchr(" \t\r\n", t[j]))
                    j++;
                sc->nul = 1;
                if (j < n && t[j] == ':')   /* a key: name it up to its NUL */
                    sz_echo(sc->member, sizeof sc->member, t + str_at, nul_at - str_at);
                else
                    sz_echo(sc->member, sizeof sc->member, t + key_at, key_end - key_at);
            }
        }
    }
}

int api_body_object(const struct api_request *req, cJSON **out, struct sz_error *err)
{
    const char *ct = req->content_type;
    /* Browsers send cross-origin "simple" POSTs only as text/plain or forms;
     * requiring application/json keeps other sites from driving the API. */
    if (ct == NULL || strncmp(ct, "application/json", 16) != 0 ||
        (ct[16] != '\0' && ct[16] != ';' && ct[16] != ' '))
        return sz_fail(err, SZ_UNSUPPORTED_MEDIA, "Content-Type",
                       "POST bodies must be sent as Content-Type: application/json");
    /* cJSON spends a node (~64 bytes) and time on each value: a 2 MiB body of
     * a million tiny ones cost 156 ms and 81 MB.  No route needs more values
     * than API_MAX_JSON_VALUES, so count them first and build nothing. */
    struct json_scan sc;
    json_scan(req->body, req->body ? req->body_len : 0, &sc);
    if (sc.values > API_MAX_JSON_VALUES)
        return sz_fail(err, SZ_TOO_LARGE, "body",
                       "more than %u JSON values (the largest request, /api/apply with %u "
                       "offsets, needs fewer)", (unsigned)API_MAX_JSON_VALUES,
                       (unsigned)API_MAX_OFFSETS);
    cJSON *root = NULL;
    if (api_json_parse(req->body, req->body_len, &root, err) < 0)
        return -1;
    if (sc.nul) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_INVALID_ARGUMENT, sc.member[0] ? sc.member : "body",
                       "a string holds an escaped NUL (\\u0000), which would cut it short");
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_INVALID_ARGUMENT, "body", "must be a JSON object");
    }
    *out = root;
    return 0;
}

/* Refuse unknown and duplicate members, for the same reason as api_args_check. */
int api_fields_check(const cJSON *obj, const char *const *known, struct sz_error *err)
{
    for (const cJSON *it = obj->child; it; it = it->next) {
        int found = 0;
        for (const char *const *kn = known; *kn; kn++)
            if (strcmp(*kn, it->string) == 0)
                found = 1;
        if (!found)
            return sz_fail(err, SZ_INVALID_ARGUMENT, it->string, "unknown field");
        for (const cJSON *p = obj->child; p != it; p = p->next)
            if (strcmp(p->string, it->string) == 0)
                return sz_fail(err, SZ_INVALID_ARGUMENT, it->string,
                               "field given more than once");
    }
    return 0;
}

/* A JSON number that is an integer in [lo, hi] (1e2 is 100; 1.5 is refused). */
int api_num_int(const cJSON *v, const char *field, double lo, double hi,
                   int64_t *out, struct sz_error *err)
{
    if (!cJSON_IsNumber(v))
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "must be an integer in %.0f..%.0f", lo, hi);
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d))
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "must be an integer in %.0f..%.0f, got a fraction or non-finite number",
                       lo, hi);
    if (d < lo || d > hi)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "must be in %.0f..%.0f, got %.0f", lo, hi, d);
    *out = (int64_t)d;
    return 0;
}

int api_field_int(const cJSON *obj, const char *field, double lo, double hi,
                     int64_t *out, struct sz_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (v == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "required, an integer in %.0f..%.0f", lo, hi);
    return api_num_int(v, field, lo, hi, out, err);
}

/* ---- shared parameter blocks ------------------------------------------- */

int api_swz_args(const struct api_request *req, struct swz *z,
                         struct sz_error *err)
{
    long b, m, s;
    if (api_arg_int(req, "b", 0, SZ_SWZ_B_MAX, 1, 0, &b, err) < 0 ||
        api_arg_int(req, "m", 0, SZ_SWZ_M_MAX, 1, 0, &m, err) < 0 ||
        api_arg_int(req, "s", -SZ_SWZ_S_MAX, SZ_SWZ_S_MAX, 1, 0, &s, err) < 0)
        return -1;
    return swz_init(z, (int)b, (int)m, (int)s, err);
}

int api_geom_make(struct swz_geom *g, const struct swz *z, uint32_t bank_bytes,
                  uint32_t banks, uint32_t rows, int match, struct sz_error *err)
{
    if (swz_geom_init(g, z, bank_bytes, banks, rows, match, err) < 0)
        return -1;
    /* The default grid is one tile height, but a grid of fewer than 8 rows hides
     * the conflict a swizzle removes (a column read on 2 rows is a broadcast):
     * take the least whole number of tiles that reaches 8 rows, when it is valid. */
    if (rows == 0 && g->rows < API_MIN_DEFAULT_ROWS) {
        struct swz_geom g8;
        uint32_t want = (API_MIN_DEFAULT_ROWS + g->rows - 1) / g->rows * g->rows;
        if (swz_geom_init(&g8, z, bank_bytes, banks, want, match, NULL) == 0)
            *g = g8;
    }
    return 0;
}

int api_geom_args(const struct api_request *req, const struct swz *z,
                          struct swz_geom *g, struct sz_error *err)
{
    long bank_bytes, banks, rows;
    int match = 0;
    if (api_arg_int(req, "bank_bytes", 1, SZ_MAX_BANK_BYTES, 0, 4, &bank_bytes, err) < 0 ||
        api_arg_int(req, "banks", 1, SZ_MAX_BANKS, 0, 32, &banks, err) < 0 ||
        api_arg_int(req, "rows", 1, SWZ_MAX_CELLS, 0, 0, &rows, err) < 0 ||
        api_arg_bool(req, "match_bank_row", &match, err) < 0)
        return -1;
    return api_geom_make(g, z, (uint32_t)bank_bytes, (uint32_t)banks, (uint32_t)rows,
                         match, err);
}


/* Optional integer member: absent leaves *out alone. */
static int member_u32(const cJSON *obj, const char *field, double lo, double hi,
                      uint32_t *out, struct sz_error *err)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, field);
    int64_t v;
    if (f == NULL)
        return 0;
    if (api_num_int(f, field, lo, hi, &v, err) < 0)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* An atomic's "value" (an integer constant, "uniform" or "lane", the
 * default) and "guard" ("each", the default, "none" or "once"): they pick the SASS
 * and the floor (atomic_form.h, access.c A9-A11).  Other ops take neither. */
static int read_operand(const cJSON *obj, struct instr *in, struct sz_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "value");
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(obj, "guard");
    if ((v || g) && !instr_is_atomic(in->op))
        return sz_fail(err, SZ_INVALID_ARGUMENT, v ? "value" : "guard",
                       "only atom and red take %s", v ? "value" : "guard");
    if (cJSON_IsString(v) && strcmp(v->valuestring, "uniform") == 0) {
        in->value_kind = INSTR_VALUE_UNIFORM;
    } else if (cJSON_IsString(v) && strcmp(v->valuestring, "lane") == 0) {
        in->value_kind = INSTR_VALUE_LANE;
    } else if (v != NULL) {
        if (!cJSON_IsNumber(v))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "value", "must be an integer constant "
                           "(-2147483648..4294967295), \"uniform\" or \"lane\"");
        if (api_num_int(v, "value", -2147483648.0, 4294967295.0, &in->value, err) < 0)
            return -1;
        in->value_kind = INSTR_VALUE_CONST;
    }
    if (g != NULL && atomic_form_guard_parse(cJSON_IsString(g) ? g->valuestring : NULL,
                                             &in->guard, err) < 0)
        return -1;
    return 0;
}

/* An atomic's "func" and "type" (defaults add, u32; bytes follows the type
 * unless given, when instr_check holds it to the type's).  Other ops take
 * neither: a "func" on ld would otherwise pass silently. */
static int read_form(const cJSON *obj, struct instr *in, struct sz_error *err)
{
    static const char *const names[] = {"func", "type"};
    for (int i = 0; i < 2; i++) {
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, names[i]);
        if (f == NULL)
            continue;
        if (!instr_is_atomic(in->op))
            return sz_fail(err, SZ_INVALID_ARGUMENT, names[i], "only atom and red take %s",
                           names[i]);
        const char *v = cJSON_IsString(f) ? f->valuestring : NULL;
        if (i == 0 ? instr_func_parse(v, &in->func, err) < 0
                   : instr_type_parse(v, &in->type, err) < 0)
            return -1;
    }
    in->bytes = instr_is_atomic(in->op) ? instr_type_bytes(in->type) : in->bytes;
    return read_operand(obj, in, err);
}


/* `arr` as 32 byte offsets into out[] (`name`: the field; `shape`: what the
 * message says it must be): null leaves a lane's entry as the caller set it
 * (inactive, or the default global offset). */
static int read_lane_offsets(const cJSON *arr, const char *name, const char *shape,
                             uint32_t out[INSTR_LANES], struct sz_error *err)
{
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != INSTR_LANES)
        return sz_fail(err, SZ_INVALID_ARGUMENT, name, "%s", shape);
    int t = 0;
    for (const cJSON *it = arr->child; it; it = it->next, t++) {
        char field[32];
        int64_t v;
        snprintf(field, sizeof field, "%s[%d]", name, t);
        if (cJSON_IsNull(it))
            continue;
        if (api_num_int(it, field, 0, SZ_OFFSET_LIMIT - 1.0, &v, err) < 0)
            return -1;
        out[t] = (uint32_t)v;
    }
    return 0;
}

int api_read_copy(const cJSON *obj, struct instr *in, struct sz_error *err)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(obj, "cache");
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(obj, "global_offsets");
    if ((c || g) && !instr_is_copy(in->op))
        return sz_fail(err, SZ_INVALID_ARGUMENT, c ? "cache" : "global_offsets",
                       "only cp.async takes %s", c ? "cache" : "global_offsets");
    if (!instr_is_copy(in->op))
        return 0;
    for (int t = 0; t < INSTR_LANES; t++)   /* bytes is read by now */
        in->global_offsets[t] = (uint32_t)t * in->bytes;
    if (c != NULL) {
        if (!cJSON_IsString(c) || (strcmp(c->valuestring, "ca") && strcmp(c->valuestring, "cg")))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "cache", "must be \"ca\" or \"cg\"");
        in->cg = strcmp(c->valuestring, "cg") == 0;
    }
    if (g == NULL)
        return 0;
    return read_lane_offsets(g, "global_offsets",
                             "an array of 32 byte offsets (one per lane, null for an idle lane)",
                             in->global_offsets, err);
}

int api_read_instr_fields(const cJSON *obj, int op_set, struct instr *in,
                          struct sz_error *err)
{
    if (!op_set) {
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(obj, "op");
        enum instr_op opv;
        char kinds[160];
        if (instr_op_parse(cJSON_IsString(op) ? op->valuestring : NULL, &opv, err) < 0)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "required, one of %s",
                           instr_kind_names(0, 0, 1, ", ", kinds, sizeof kinds));
        instr_defaults(in, opv);
    }
    if (read_form(obj, in, err) < 0 ||
        member_u32(obj, "bytes", 1, SZ_MAX_LANE_BYTES, &in->bytes, err) < 0 ||
        member_u32(obj, "matrices", 1, 4, &in->matrices, err) < 0)
        return -1;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, "trans");
    if (f != NULL && !cJSON_IsBool(f))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "trans", "must be true or false");
    if (f != NULL)
        in->trans = cJSON_IsTrue(f);
    if (member_u32(obj, "bank_bytes", 1, SZ_MAX_BANK_BYTES, &in->bank_bytes, err) < 0 ||
        member_u32(obj, "banks", 1, SZ_MAX_BANKS, &in->banks, err) < 0)
        return -1;
    /* A form PTX lacks is named before the offsets are read (func, type). */
    if (instr_is_atomic(in->op) && instr_check_shape(in, err) < 0)
        return -1;
    return 0;
}

int api_read_instr(const cJSON *obj, const char *const *extra, struct instr *in,
                   struct sz_error *err)
{
    static const char *const fields[] = {"op", "bytes", "matrices", "trans", "offsets",
                                         "bank_bytes", "banks", "func", "type", "value",
                                         "guard", "cache", "global_offsets"};
    const char *known[20];
    size_t nk = 0;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        known[nk++] = fields[i];
    for (; extra && *extra && nk < 19; extra++)
        known[nk++] = *extra;
    known[nk] = NULL;
    if (api_fields_check(obj, known, err) < 0 || api_read_instr_fields(obj, 0, in, err) < 0)
        return -1;
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, "offsets");
    if (read_lane_offsets(arr, "offsets", "required, an array of 32 byte offsets (one per "
                          "lane, null for an inactive lane)", in->offsets, err) < 0 ||
        api_read_copy(obj, in, err) < 0)
        return -1;
    return instr_check(in, err);
}

int api_read_warps(const cJSON *obj, const struct instr *in, uint32_t *warps,
                   struct sz_error *err)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, "warps");
    int64_t v;
    *warps = 0;
    if (f == NULL)
        return 0;
    /* the model's cycles hang on the warp count for atomics only (A14); a
     * load's wavefronts and cycles are an instruction's at any count */
    if (!(instr_kind(in->op)->operands & INSTR_O_WARPS))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "warps", "only atom and red take warps "
                       "(it changes only an atomic's cycles), not %s", instr_op_name(in->op));
    if (api_num_int(f, "warps", ATOMIC_WARPS_MIN, ATOMIC_WARPS_MAX, &v, err) < 0)
        return -1;
    *warps = (uint32_t)v;
    return 0;
}

/* A POST body that is one instruction, and no query arguments. */
int api_instr_body(const struct api_request *req, struct instr *in, uint32_t *warps,
                   struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const extra[] = {"warps", NULL};
    cJSON *root = NULL;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    int rc = api_read_instr(root, extra, in, err);
    if (rc == 0)
        rc = api_read_warps(root, in, warps, err);
    cJSON_Delete(root);
    return rc;
}
