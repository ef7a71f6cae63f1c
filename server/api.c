/* api.c - routes -> core calls; the only file that parses (cJSON) or writes JSON.
 *
 * Each route validates every input into a core struct first, so the core only
 * ever sees valid values, then writes its answer with buf.c's writers.  Nothing
 * a client sends may produce a 5xx: every failure is an sz_error with a field. */
#include "api.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "buf.h"
#include "cache.h"
#include "error.h"
#include "expr.h"
#include "measure.h"
#include "pattern.h"
#include "swizzle.h"

#define SZ_VERSION "0.1.0"

/* Set once by api_configure before any request, read-only afterwards. */
static struct {
    char tool[4096];
    int timeout_ms;
    int available;
    char *device;           /* the tool's device object, as JSON */
    char reason[320];       /* why measurement is unavailable */
} msr = {.reason = "no measurement tool configured"};

static int utf8_valid(const unsigned char *s, size_t n);

/* ---- query arguments --------------------------------------------------- */

/* Refuse unknown and repeated keys: a typo like `bankbytes=8` must not be
 * silently ignored while the page shows the default. */
static int args_check(const struct api_request *req, const char *const *known,
                      struct sz_error *err)
{
    for (int i = 0; i < req->nargs; i++) {
        const char *k = req->args[i].key;
        if (!utf8_valid((const unsigned char *)k, strlen(k)))
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

static const char *arg_get(const struct api_request *req, const char *key)
{
    for (int i = 0; i < req->nargs; i++)
        if (strcmp(req->args[i].key, key) == 0)
            return req->args[i].value;
    return NULL;
}

/* Strict decimal: optional '-', 1..10 digits, nothing else (no spaces, '+',
 * hex or fractions), value in [lo, hi].  Absent: *out = def, unless required. */
static int arg_int(const struct api_request *req, const char *key, long lo, long hi,
                   int required, long def, long *out, struct sz_error *err)
{
    const char *v = arg_get(req, key);
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

static int arg_bool(const struct api_request *req, const char *key, int *out,
                    struct sz_error *err)
{
    const char *v = arg_get(req, key);
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
static int utf8_valid(const unsigned char *s, size_t n)
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

/* Parse the body as exactly one JSON object (whitespace may follow, nothing else). */
static int body_object(const struct api_request *req, cJSON **out,
                       struct sz_error *err)
{
    const char *ct = req->content_type;
    /* Browsers send cross-origin "simple" POSTs only as text/plain or forms;
     * requiring application/json keeps other sites from driving the API. */
    if (ct == NULL || strncmp(ct, "application/json", 16) != 0 ||
        (ct[16] != '\0' && ct[16] != ';' && ct[16] != ' '))
        return sz_fail(err, SZ_UNSUPPORTED_MEDIA, "Content-Type",
                       "POST bodies must be sent as Content-Type: application/json");
    if (req->body == NULL || req->body_len == 0)
        return sz_fail(err, SZ_BAD_JSON, "body", "empty body: expected a JSON object");
    if (!utf8_valid((const unsigned char *)req->body, req->body_len))
        return sz_fail(err, SZ_BAD_JSON, "body", "body is not valid UTF-8");
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(req->body, req->body_len, &end, 0);
    if (root == NULL) {
        size_t at = end ? (size_t)(end - req->body) : 0;
        return sz_fail(err, SZ_BAD_JSON, "body", "invalid JSON near byte %zu", at);
    }
    long bad = json_bad_number(req->body, req->body_len);
    if (bad >= 0) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_BAD_JSON, "body", "invalid JSON number at byte %ld", bad);
    }
    size_t at = (size_t)(end - req->body);
    while (at < req->body_len && strchr(" \t\r\n", req->body[at]) && req->body[at])
        at++;
    if (at != req->body_len) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_BAD_JSON, "body",
                       "trailing data after the JSON value at byte %zu", at);
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return sz_fail(err, SZ_INVALID_ARGUMENT, "body", "must be a JSON object");
    }
    *out = root;
    return 0;
}

/* Refuse unknown and duplicate members, for the same reason as args_check. */
static int fields_check(const cJSON *obj, const char *const *known, struct sz_error *err)
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
static int num_int(const cJSON *v, const char *field, double lo, double hi,
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

static int field_int(const cJSON *obj, const char *field, double lo, double hi,
                     int64_t *out, struct sz_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, field);
    if (v == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                       "required, an integer in %.0f..%.0f", lo, hi);
    return num_int(v, field, lo, hi, out, err);
}

/* ---- shared parameter blocks ------------------------------------------- */

static int swz_from_args(const struct api_request *req, struct swz *z,
                         struct sz_error *err)
{
    long b, m, s;
    if (arg_int(req, "b", 0, 15, 1, 0, &b, err) < 0 ||
        arg_int(req, "m", 0, 30, 1, 0, &m, err) < 0 ||
        arg_int(req, "s", -30, 30, 1, 0, &s, err) < 0)
        return -1;
    return swz_init(z, (int)b, (int)m, (int)s, err);
}

static int geom_from_args(const struct api_request *req, const struct swz *z,
                          struct swz_geom *g, struct sz_error *err)
{
    long bank_bytes, banks, rows;
    int match = 0;
    if (arg_int(req, "bank_bytes", 1, 32, 0, 4, &bank_bytes, err) < 0 ||
        arg_int(req, "banks", 1, 128, 0, 32, &banks, err) < 0 ||
        arg_int(req, "rows", 1, SWZ_MAX_CELLS, 0, 0, &rows, err) < 0 ||
        arg_bool(req, "match_bank_row", &match, err) < 0)
        return -1;
    return swz_geom_init(g, z, (uint32_t)bank_bytes, (uint32_t)banks,
                         (uint32_t)rows, match, err);
}

static void put_key(struct buf *out, const char *key)
{
    buf_json_str(out, key);
    buf_putc(out, ':');
}

/* ---- routes -------------------------------------------------------------- */

static int route_health(const struct api_request *req, struct buf *out,
                        struct sz_error *err)
{
    static const char *const known[] = {NULL};
    if (args_check(req, known, err) < 0)
        return -1;
    buf_puts(out, "{\"ok\":true,\"version\":\"" SZ_VERSION "\",\"measure\":{\"available\":");
    buf_puts(out, msr.available ? "true" : "false");
    buf_puts(out, ",\"device\":");
    buf_puts(out, msr.device ? msr.device : "null");
    buf_puts(out, ",\"reason\":");
    buf_json_str(out, msr.available ? "" : msr.reason);
    buf_puts(out, "}}");
    return 0;
}

static const struct preset {
    const char *id, *label;
    int b, m, s;
} presets[] = {
    {"none", "None", 0, 4, 3},
    {"32B", "32B", 1, 4, 3},
    {"64B", "64B", 2, 4, 3},
    {"128B", "128B", 3, 4, 3},
    {"128B-32Bunit", "128B, 32B unit", 2, 5, 2},
};

static int route_presets(const struct api_request *req, struct buf *out,
                         struct sz_error *err)
{
    static const char *const known[] = {NULL};
    if (args_check(req, known, err) < 0)
        return -1;
    buf_puts(out, "{\"presets\":[");
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        const struct preset *p = &presets[i];
        buf_puts(out, i ? ",{" : "{");
        put_key(out, "id");
        buf_json_str(out, p->id);
        buf_putc(out, ',');
        put_key(out, "label");
        buf_json_str(out, p->label);
        buf_printf(out, ",\"b\":%d,\"m\":%d,\"s\":%d,\"name\":\"Swizzle<%d,%d,%d>\"}",
                   p->b, p->m, p->s, p->b, p->m, p->s);
    }
    buf_puts(out, "]}");
    return 0;
}

static void put_masks(struct buf *out, const struct swz *z)
{
    int abs_s = z->s < 0 ? -z->s : z->s;
    int ylo = z->m + (z->s > 0 ? abs_s : 0);
    int zlo = z->m + (z->s < 0 ? abs_s : 0);
    buf_printf(out, "\"masks\":{\"yyy\":%u,\"zzz\":%u,\"yyy_lo\":%d,\"yyy_hi\":%d,"
               "\"zzz_lo\":%d,\"zzz_hi\":%d,\"period_bytes\":%llu}",
               z->yyy_msk, z->zzz_msk, ylo, ylo + z->b, zlo, zlo + z->b,
               1ull << swz_period_bits(z));
}

static void put_params(struct buf *out, const struct swz *z, const struct swz_geom *g)
{
    buf_printf(out, "\"params\":{\"b\":%d,\"m\":%d,\"s\":%d,\"bank_bytes\":%u,"
               "\"banks\":%u,\"rows\":%u,\"match_bank_row\":%s},"
               "\"name\":\"Swizzle<%d,%d,%d>\"",
               z->b, z->m, z->s, g->bank_bytes, g->banks, g->rows,
               g->match_bank_row ? "true" : "false", z->b, z->m, z->s);
}

static int route_swizzle(const struct api_request *req, struct buf *out,
                         struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks",
                                        "rows", "match_bank_row", NULL};
    struct swz z;
    struct swz_geom g;
    if (args_check(req, known, err) < 0 || swz_from_args(req, &z, err) < 0)
        return -1;
    /* The tile view draws (2^B)^2 cells: the same cell budget as the grid. */
    if (z.b > 10)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "b",
                       "a tile of 2^B x 2^B units is drawn cell by cell and must be "
                       "at most 2^20 cells: B in 0..10 here, got %d", z.b);
    if (geom_from_args(req, &z, &g, err) < 0)
        return -1;
    uint32_t tcells = g.tile * g.tile;
    uint32_t *mem = malloc(((size_t)g.cells * 3 + (size_t)tcells * 2) * sizeof *mem);
    if (mem == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    uint32_t *log_of = mem, *phys_of = mem + g.cells, *bank_of = mem + 2 * g.cells;
    uint32_t *tlog = mem + 3 * (size_t)g.cells, *tphys = tlog + tcells;
    swz_grid_maps(&z, &g, log_of, phys_of, bank_of);
    swz_tile_maps(&z, tlog, tphys);

    uint32_t bank_row = g.bank_bytes * g.banks;
    uint64_t grid_bytes = (uint64_t)g.cells * g.unit_bytes;
    uint64_t row_bytes = (uint64_t)g.cols * g.unit_bytes;
    buf_putc(out, '{');
    put_params(out, &z, &g);
    buf_putc(out, ',');
    put_masks(out, &z);
    buf_printf(out, ",\"unit\":{\"bytes\":%u,\"banks_spanned\":%u,\"per_bank\":%u}",
               g.unit_bytes, swz_unit_banks(&g), swz_units_per_bank(&g));
    buf_printf(out, ",\"bank_row_bytes\":%u", bank_row);
    buf_printf(out, ",\"tile\":{\"size\":%u,\"bytes\":%llu,\"log_of\":", g.tile,
               (unsigned long long)tcells * g.unit_bytes);
    buf_u32_array(out, tlog, tcells);
    buf_puts(out, ",\"phys_of\":");
    buf_u32_array(out, tphys, tcells);
    buf_printf(out, "},\"grid\":{\"rows\":%u,\"cols\":%u,\"row_bytes\":%llu,"
               "\"bytes\":%llu,\"tiles_per_row\":%u,\"tile_rows\":%u,\"log_of\":",
               g.rows, g.cols, (unsigned long long)row_bytes,
               (unsigned long long)grid_bytes, g.cols >= g.tile ? g.cols / g.tile : 1,
               (g.rows + g.tile - 1) / g.tile);
    buf_u32_array(out, log_of, g.cells);
    buf_puts(out, ",\"phys_of\":");
    buf_u32_array(out, phys_of, g.cells);
    buf_puts(out, ",\"bank_of\":");
    buf_u32_array(out, bank_of, g.cells);
    buf_printf(out, "},\"banks_view\":{\"rows\":%llu,\"units_per_row\":%u,"
               "\"rows_per_unit\":%u}}",
               (unsigned long long)((grid_bytes + bank_row - 1) / bank_row),
               g.unit_bytes <= bank_row ? bank_row / g.unit_bytes : 0,
               g.unit_bytes > bank_row ? g.unit_bytes / bank_row : 0);
    free(mem);
    return 0;
}

/* "0b..." of the low `width` bits of v, most significant first. */
static void put_bin(struct buf *out, uint32_t v, int width)
{
    char s[40];
    int n = 0;
    s[n++] = '"';
    for (int i = width - 1; i >= 0; i--)
        s[n++] = (char)('0' + ((v >> i) & 1));
    s[n++] = '"';
    buf_put(out, s, (size_t)n);
}

static void put_addr(struct buf *out, const char *key, uint32_t unit, uint32_t cols,
                     uint32_t addr, int width)
{
    buf_printf(out, "\"%s\":{\"row\":%u,\"col\":%u,\"unit\":%u,\"addr\":%u,"
               "\"hex\":\"0x%x\",\"bin\":", key, unit / cols, unit % cols, unit, addr, addr);
    put_bin(out, addr, width);
    buf_putc(out, '}');
}

static int route_inspect(const struct api_request *req, struct buf *out,
                         struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks", "rows",
                                        "match_bank_row", "row", "col", NULL};
    struct swz z;
    struct swz_geom g;
    long row, col;
    if (args_check(req, known, err) < 0 || swz_from_args(req, &z, err) < 0 ||
        geom_from_args(req, &z, &g, err) < 0 ||
        arg_int(req, "row", 0, (long)g.rows - 1, 1, 0, &row, err) < 0 ||
        arg_int(req, "col", 0, (long)g.cols - 1, 1, 0, &col, err) < 0)
        return -1;
    uint32_t lunit = (uint32_t)row * g.cols + (uint32_t)col;
    uint32_t laddr = lunit << z.m;
    uint32_t paddr = swz_apply(&z, laddr);
    uint32_t punit = paddr >> z.m;
    /* Show every bit up to the higher of the swizzle's top and the grid's top. */
    int width = swz_period_bits(&z);
    uint64_t top = (uint64_t)g.cells << z.m;
    while (width < 31 && ((uint64_t)1 << width) < top)
        width++;
    if (width < 1)
        width = 1;
    int abs_s = z.s < 0 ? -z.s : z.s;
    int ylo = z.m + (z.s > 0 ? abs_s : 0), zlo = z.m + (z.s < 0 ? abs_s : 0);
    uint32_t ones = g.tile - 1;
    uint32_t yv = (laddr >> ylo) & ones, zv = (laddr >> zlo) & ones;
    uint32_t first = swz_bank_of(paddr, g.bank_bytes, g.banks);
    uint32_t nbanks = swz_unit_banks(&g);

    buf_putc(out, '{');
    put_params(out, &z, &g);
    buf_putc(out, ',');
    put_addr(out, "logical", lunit, g.cols, laddr, width);
    buf_putc(out, ',');
    put_addr(out, "physical", punit, g.cols, paddr, width);
    buf_printf(out, ",\"bits\":%d,\"tile\":{\"row\":%u,\"col\":%u,\"row_in_tile\":%u,"
               "\"col_in_tile\":%u,\"row_mod\":%u,\"slot\":%u}",
               width, (uint32_t)row / g.tile, (uint32_t)col / g.tile,
               (uint32_t)row % g.tile, (uint32_t)col % g.tile, (uint32_t)row & ones,
               ((uint32_t)col % g.tile) ^ ((uint32_t)row & ones));
    buf_printf(out, ",\"yyy\":{\"lo\":%d,\"hi\":%d,\"value\":%u},"
               "\"zzz\":{\"lo\":%d,\"hi\":%d,\"value\":%u,\"swizzled\":%u}",
               ylo, ylo + z.b, yv, zlo, zlo + z.b, zv, zv ^ yv);
    buf_printf(out, ",\"banks\":{\"first\":%u,\"count\":%u,\"per_bank\":%u,\"list\":[",
               first, nbanks, swz_units_per_bank(&g));
    for (uint32_t i = 0; i < nbanks; i++)
        buf_printf(out, i ? ",%u" : "%u", (first + i) % g.banks);
    buf_puts(out, "]}}");
    return 0;
}

static int route_apply(const struct api_request *req, struct buf *out,
                       struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const known[] = {"b", "m", "s", "offsets", NULL};
    cJSON *root = NULL;
    if (args_check(req, known_args, err) < 0 || body_object(req, &root, err) < 0)
        return -1;
    int rc = -1;
    int64_t b, m, s;
    struct swz z;
    uint32_t *offs = NULL;
    const cJSON *arr;
    if (fields_check(root, known, err) < 0 || field_int(root, "b", 0, 15, &b, err) < 0 ||
        field_int(root, "m", 0, 30, &m, err) < 0 ||
        field_int(root, "s", -30, 30, &s, err) < 0 ||
        swz_init(&z, (int)b, (int)m, (int)s, err) < 0)
        goto done;
    arr = cJSON_GetObjectItemCaseSensitive(root, "offsets");
    if (!cJSON_IsArray(arr)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "offsets",
                "required, an array of byte offsets in 0..2147483647");
        goto done;
    }
    int n = cJSON_GetArraySize(arr);
    if (n > API_MAX_OFFSETS) {
        sz_fail(err, SZ_TOO_LARGE, "offsets", "at most %d offsets per request, got %d",
                API_MAX_OFFSETS, n);
        goto done;
    }
    offs = malloc(((size_t)n + 1) * sizeof *offs);
    if (offs == NULL) {
        sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        goto done;
    }
    int i = 0;
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        int64_t v;
        char field[32];
        snprintf(field, sizeof field, "offsets[%d]", i);
        if (num_int(it, field, 0, SWZ_OFFSET_LIMIT - 1.0, &v, err) < 0)
            goto done;
        offs[i] = swz_apply(&z, (uint32_t)v);
    }
    buf_puts(out, "{\"swizzled\":");
    buf_u32_array(out, offs, (size_t)n);
    buf_printf(out, ",\"name\":\"Swizzle<%d,%d,%d>\"}", z.b, z.m, z.s);
    rc = 0;
done:
    free(offs);
    cJSON_Delete(root);
    return rc;
}

/* Parse the /api/conflicts (and /api/measure) body into an instruction. */
static int instr_from_json(const cJSON *root, struct acc_instr *in, struct sz_error *err)
{
    static const char *const known[] = {"op", "bytes", "matrices", "trans", "offsets",
                                        "bank_bytes", "banks", NULL};
    if (fields_check(root, known, err) < 0)
        return -1;
    memset(in, 0, sizeof *in);
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(root, "op");
    static const char *const ops[] = {"ld", "st", "ldmatrix", "stmatrix"};
    int opi = -1;
    for (int i = 0; i < 4 && cJSON_IsString(op); i++)
        if (strcmp(op->valuestring, ops[i]) == 0)
            opi = i;
    if (opi < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                       "required, one of \"ld\", \"st\", \"ldmatrix\", \"stmatrix\"");
    in->op = (enum acc_op)opi;
    int matrix = in->op == ACC_LDMATRIX || in->op == ACC_STMATRIX;
    int64_t v;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(root, "bytes");
    if (f == NULL) {
        in->bytes = matrix ? 16 : 4;
    } else {
        if (num_int(f, "bytes", 1, 16, &v, err) < 0)
            return -1;
        if (matrix && v != 16)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                           "ldmatrix/stmatrix rows are 16 bytes; omit bytes or give 16");
        in->bytes = (uint32_t)v;
    }
    f = cJSON_GetObjectItemCaseSensitive(root, "matrices");
    if (f == NULL) {
        in->matrices = matrix ? 4 : 1;
    } else {
        if (num_int(f, "matrices", 1, 4, &v, err) < 0)
            return -1;
        if (!matrix && v != 1)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices",
                           "only ldmatrix/stmatrix take matrices");
        in->matrices = (uint32_t)v;
    }
    f = cJSON_GetObjectItemCaseSensitive(root, "trans");
    if (f != NULL && !cJSON_IsBool(f))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "trans", "must be true or false");
    in->trans = cJSON_IsTrue(f);
    if (in->trans && !matrix)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "trans",
                       "only ldmatrix/stmatrix have .trans");
    in->bank_bytes = 4;
    in->banks = 32;
    if ((f = cJSON_GetObjectItemCaseSensitive(root, "bank_bytes")) != NULL) {
        if (num_int(f, "bank_bytes", 1, 32, &v, err) < 0)
            return -1;
        in->bank_bytes = (uint32_t)v;
    }
    if ((f = cJSON_GetObjectItemCaseSensitive(root, "banks")) != NULL) {
        if (num_int(f, "banks", 1, 128, &v, err) < 0)
            return -1;
        in->banks = (uint32_t)v;
    }
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "offsets");
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != ACC_LANES)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "offsets",
                       "required, an array of 32 byte offsets (one per lane, null for "
                       "an inactive lane)");
    int t = 0;
    for (const cJSON *it = arr->child; it; it = it->next, t++) {
        char field[24];
        snprintf(field, sizeof field, "offsets[%d]", t);
        if (cJSON_IsNull(it)) {
            in->offsets[t] = ACC_INACTIVE;
            continue;
        }
        if (num_int(it, field, 0, SWZ_OFFSET_LIMIT - 1.0, &v, err) < 0)
            return -1;
        in->offsets[t] = (uint32_t)v;
    }
    return acc_check(in, err);
}

/* A POST body that is one instruction, and no query arguments. */
static int instr_from_request(const struct api_request *req, struct acc_instr *in,
                              struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    cJSON *root = NULL;
    if (args_check(req, known_args, err) < 0 || body_object(req, &root, err) < 0)
        return -1;
    int rc = instr_from_json(root, in, err);
    cJSON_Delete(root);
    return rc;
}

static void put_lane_list(struct buf *out, uint32_t mask)
{
    buf_putc(out, '[');
    int first = 1;
    for (int t = 0; t < ACC_LANES; t++)
        if (mask >> t & 1) {
            if (!first)
                buf_putc(out, ',');
            buf_i64(out, t);
            first = 0;
        }
    buf_putc(out, ']');
}

static void put_cost(struct buf *out, const struct acc_instr *in, const struct acc_result *r)
{
    buf_printf(out, "{\"op\":\"%s\",\"bytes\":%u,\"matrices\":%u,\"trans\":%s,"
               "\"bank_bytes\":%u,\"banks\":%u,\"calibrated\":%s,",
               acc_op_name(in->op), in->bytes, in->matrices, in->trans ? "true" : "false",
               in->bank_bytes, in->banks,
               in->bank_bytes == 4 && in->banks == 32 ? "true" : "false");
    uint32_t ways = 0;  /* the n of "n-way": the worst phase's conflict degree */
    for (uint32_t p = 0; p < r->nphases; p++)
        if (r->phases[p].max_per_bank > ways)
            ways = r->phases[p].max_per_bank;
    buf_printf(out, "\"wavefronts\":%u,\"ideal_wavefronts\":%u,\"bank_conflicts\":%u,"
               "\"cycles\":%u,\"source_wavefronts\":%u,\"paired\":%s,\"ways\":%u,"
               "\"phases\":[",
               r->wavefronts, r->ideal_wavefronts, r->wavefronts - r->ideal_wavefronts,
               r->cycles, r->source_wavefronts, r->paired ? "true" : "false", ways);
    for (uint32_t p = 0; p < r->nphases; p++) {
        const struct acc_phase *ph = &r->phases[p];
        buf_puts(out, p ? ",{\"lanes\":" : "{\"lanes\":");
        put_lane_list(out, ph->lane_mask);
        buf_puts(out, ",\"active\":");
        put_lane_list(out, ph->active_mask);
        buf_printf(out, ",\"wavefronts\":%u,\"cycles\":%u,\"words\":%u,"
                   "\"max_per_bank\":%u,\"worst_bank\":%u,\"reason\":\"%s\"}",
                   ph->wavefronts, ph->cycles, ph->words, ph->max_per_bank, ph->worst_bank,
                   acc_reason_name(ph->reason));
    }
    buf_puts(out, "],\"lanes\":[");
    for (int t = 0; t < ACC_LANES; t++) {
        uint32_t o = in->offsets[t];
        if (t)
            buf_putc(out, ',');
        if (o == ACC_INACTIVE || r->lane_phase[t] < 0) {
            buf_printf(out, "{\"lane\":%d,\"offset\":%s,\"active\":false}", t,
                       o == ACC_INACTIVE ? "null" : "0");
            continue;
        }
        uint32_t w = in->op == ACC_LD || in->op == ACC_ST ? in->bytes : 16;
        uint32_t first = o / in->bank_bytes % in->banks;
        uint32_t nb = w > in->bank_bytes ? w / in->bank_bytes : 1;
        buf_printf(out, "{\"lane\":%d,\"offset\":%u,\"active\":true,\"phase\":%d,"
                   "\"pass\":%d,\"bank\":%u,\"nbanks\":%u}",
                   t, o, r->lane_phase[t], r->lane_pass[t], first, nb);
    }
    buf_puts(out, "],\"bank_hits\":");
    buf_u32_array(out, r->bank_hits, in->banks);
    buf_printf(out, ",\"ncu\":{\"wavefronts_metric\":\"%s\",\"conflicts_metric\":\"%s\","
               "\"source_metric\":\"%s\",\"wavefronts_per_instruction\":%u,"
               "\"conflicts_per_instruction\":%u,\"source_wavefronts_per_instruction\":%u}}",
               acc_ncu_wavefront_metric(in->op), acc_ncu_conflict_metric(in->op),
               acc_ncu_source_metric(in->op), r->wavefronts,
               r->wavefronts - r->ideal_wavefronts, r->source_wavefronts);
}

static int route_conflicts(const struct api_request *req, struct buf *out,
                           struct sz_error *err)
{
    struct acc_instr in;
    if (instr_from_request(req, &in, err) < 0)
        return -1;
    struct acc_result r;
    acc_cost(&in, &r);
    put_cost(out, &in, &r);
    return 0;
}

/* ---- access patterns over a layout ------------------------------------- */

static int route_patterns(const struct api_request *req, struct buf *out,
                          struct sz_error *err)
{
    static const char *const known[] = {NULL};
    if (args_check(req, known, err) < 0)
        return -1;
    int n;
    const struct pattern_info *p = pattern_list(&n);
    buf_puts(out, "{\"patterns\":[");
    for (int i = 0; i < n; i++) {
        buf_puts(out, i ? ",{\"name\":" : "{\"name\":");
        buf_json_str(out, p[i].name);
        buf_puts(out, ",\"op\":");
        buf_json_str(out, p[i].op);
        buf_puts(out, ",\"label\":");
        buf_json_str(out, p[i].label);
        buf_puts(out, ",\"source\":");
        buf_json_str(out, p[i].source);
        buf_putc(out, '}');
    }
    buf_puts(out, "]}");
    return 0;
}

/* swz() inside an access expression: the swizzle of the current view. */
static int expr_swz(void *ctx, int64_t x, int64_t *out, struct sz_error *err)
{
    if (x < 0 || x >= (int64_t)SWZ_OFFSET_LIMIT)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "expr",
                       "offset %lld is outside 0..2147483647", (long long)x);
    *out = swz_apply(ctx, (uint32_t)x);
    return 0;
}

/* A custom pattern: `expr` in t and r gives each lane's byte offset; `op`,
 * `bytes`, `matrices` name the instruction, `steps` how many r there are. */
static int access_from_expr(const struct api_request *req, struct swz *z, long step,
                            struct acc_instr *in, uint32_t *steps, struct sz_error *err)
{
    static const char *const ops[] = {"ld", "st", "ldmatrix", "stmatrix"};
    const char *opname = arg_get(req, "op");
    int opi = opname ? -1 : 0;
    for (int i = 0; opname && i < 4; i++)
        if (strcmp(opname, ops[i]) == 0)
            opi = i;
    if (opi < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "one of ld, st, ldmatrix, stmatrix");
    in->op = (enum acc_op)opi;
    int matrix = in->op == ACC_LDMATRIX || in->op == ACC_STMATRIX;
    long bytes, matrices, nsteps;
    if (arg_int(req, "bytes", 1, 16, 0, matrix ? 16 : 4, &bytes, err) < 0 ||
        arg_int(req, "matrices", 1, 4, 0, matrix ? 4 : 1, &matrices, err) < 0 ||
        arg_int(req, "steps", 1, 1024, 0, 1, &nsteps, err) < 0)
        return -1;
    if (matrix && bytes != 16)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                       "ldmatrix/stmatrix rows are 16 bytes");
    if (!matrix && matrices != 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices",
                       "only ldmatrix/stmatrix take matrices");
    if (step >= nsteps)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "step", "must be in 0..%ld, got %ld",
                       nsteps - 1, step);
    in->bytes = (uint32_t)bytes;
    in->matrices = (uint32_t)matrices;
    struct expr e;
    int64_t off[ACC_LANES];
    if (expr_compile(arg_get(req, "expr"), &e, err) < 0 ||
        expr_eval_warp(&e, step, expr_swz, z, off, err) < 0)
        return -1;
    for (int t = 0; t < ACC_LANES; t++) {
        if (off[t] < 0 || off[t] >= (int64_t)SWZ_OFFSET_LIMIT)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "expr",
                           "lane %d at step %ld gives offset %lld, outside 0..2147483647", t,
                           step, (long long)off[t]);
        in->offsets[t] = (uint32_t)off[t];
    }
    *steps = (uint32_t)nsteps;
    return 0;
}

static int route_access(const struct api_request *req, struct buf *out,
                        struct sz_error *err)
{
    static const char *const known[] = {"b", "m", "s", "bank_bytes", "banks", "rows",
                                        "match_bank_row", "pattern", "step", "expr",
                                        "op", "bytes", "matrices", "steps", NULL};
    struct swz z;
    struct swz_geom g;
    long step;
    if (args_check(req, known, err) < 0 || swz_from_args(req, &z, err) < 0 ||
        geom_from_args(req, &z, &g, err) < 0 ||
        arg_int(req, "step", 0, SWZ_MAX_CELLS, 0, 0, &step, err) < 0)
        return -1;
    const char *name = arg_get(req, "pattern");
    const char *expr = arg_get(req, "expr");
    struct acc_instr in = {.bank_bytes = g.bank_bytes, .banks = g.banks};
    uint32_t steps;
    if (name && expr)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "expr",
                       "give either pattern or expr, not both");
    if (expr) {
        if (access_from_expr(req, &z, step, &in, &steps, err) < 0)
            return -1;
        name = "custom";
    } else {
        if (name == NULL)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "pattern",
                           "required (or expr): see GET /api/patterns for the list");
        for (const char *k = "op\0bytes\0matrices\0steps\0"; *k; k += strlen(k) + 1)
            if (arg_get(req, k))
                return sz_fail(err, SZ_INVALID_ARGUMENT, k,
                               "named patterns fix the instruction; %s goes with expr", k);
        if (pattern_fill(name, &z, g.cols * g.unit_bytes, g.rows, (uint32_t)step, &in,
                         &steps, err) < 0)
            return -1;
        uint32_t w = in.op == ACC_LD || in.op == ACC_ST ? in.bytes : 16;
        if (z.b > 0 && g.unit_bytes < w)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "m",
                           "Swizzle<%d,%d,%d> moves %u-byte units, narrower than this "
                           "pattern's %u-byte accesses: the vectors would be torn apart "
                           "(misaligned). Use M >= %d", z.b, z.m, z.s, g.unit_bytes, w,
                           w == 16 ? 4 : w == 8 ? 3 : 2);
    }
    if (acc_check(&in, err) < 0)
        return -1;
    struct acc_result r;
    acc_cost(&in, &r);
    buf_puts(out, "{\"pattern\":");
    buf_json_str(out, name);
    buf_printf(out, ",\"step\":%ld,\"steps\":%u,\"row_bytes\":%u,\"offsets\":[", step,
               steps, g.cols * g.unit_bytes);
    for (int t = 0; t < ACC_LANES; t++) {
        if (t)
            buf_putc(out, ',');
        if (in.offsets[t] == ACC_INACTIVE)
            buf_puts(out, "null");
        else
            buf_i64(out, in.offsets[t]);
    }
    buf_puts(out, "],\"cost\":");
    put_cost(out, &in, &r);
    buf_putc(out, '}');
    return 0;
}

/* ---- measurement ------------------------------------------------------- */

/* The tool's --json answer or error object; NULL when stdout is not JSON. */
static cJSON *tool_json(const struct measure_output *mo)
{
    if (mo->len == 0 || !utf8_valid((const unsigned char *)mo->out, mo->len))
        return NULL;
    cJSON *j = cJSON_ParseWithLength(mo->out, mo->len);
    if (j && !cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

/* Why a tool run failed, in one sentence: its own error message when it
 * printed one, else how it ended. */
static void tool_failure(const struct measure_output *mo, const cJSON *j, char *msg,
                         size_t cap)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "message");
    if (mo->timed_out)
        snprintf(msg, cap, "the measurement tool did not finish in time and was killed");
    else if (cJSON_IsString(m))
        snprintf(msg, cap, "%.250s", m->valuestring);
    else if (mo->signal)
        snprintf(msg, cap, "the measurement tool crashed (signal %d)%s%.200s", mo->signal,
                 mo->err[0] ? ": " : "", mo->err);
    else if (mo->truncated)
        snprintf(msg, cap, "the measurement tool printed more than %u bytes",
                 MEASURE_MAX_OUTPUT);
    else if (mo->exit_code != 0)
        snprintf(msg, cap, "the measurement tool failed (exit %d)%s%.200s", mo->exit_code,
                 mo->err[0] ? ": " : "", mo->err);
    else
        snprintf(msg, cap, "the measurement tool printed something that is not its JSON "
                 "answer");
}

void api_configure(const struct api_config *cfg)
{
    msr.available = 0;
    free(msr.device);
    msr.device = NULL;
    msr.timeout_ms = cfg->measure_timeout_ms > 0 ? cfg->measure_timeout_ms : 30000;
    if (cfg->measure_tool == NULL) {
        snprintf(msr.reason, sizeof msr.reason, "no measurement tool configured");
        return;
    }
    snprintf(msr.tool, sizeof msr.tool, "%s", cfg->measure_tool);
    char *argv[] = {msr.tool, "--info", NULL};
    struct measure_output mo;
    struct sz_error err;
    if (measure_run(argv, "", 0, cfg->info_timeout_ms > 0 ? cfg->info_timeout_ms : 15000,
                    &mo, &err) < 0) {
        snprintf(msr.reason, sizeof msr.reason, "%s", err.message);
        return;
    }
    cJSON *j = tool_json(&mo);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device");
    if (mo.exit_code == 0 && !mo.timed_out && cJSON_IsObject(dev) &&
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(dev, "name"))) {
        msr.device = cJSON_PrintUnformatted(dev);
        msr.available = msr.device != NULL;
    } else {
        tool_failure(&mo, j, msr.reason, sizeof msr.reason);
    }
    cJSON_Delete(j);
    free(mo.out);
}

void api_measure_status(char *line, size_t cap)
{
    if (msr.available) {
        cJSON *d = cJSON_Parse(msr.device);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
        snprintf(line, cap, "live measurement: on %s", cJSON_IsString(name) ? name->valuestring : "a GPU");
        cJSON_Delete(d);
    } else {
        snprintf(line, cap, "live measurement: unavailable: %s", msr.reason);
    }
}

int api_is_slow(const char *path) { return strcmp(path, "/api/measure") == 0; }

/* The instruction as the tool reads it: validated, canonical, no extras. */
static void put_instr(struct buf *b, const struct acc_instr *in)
{
    buf_printf(b, "{\"op\":\"%s\",\"bytes\":%u,\"matrices\":%u,\"trans\":%s,"
               "\"offsets\":[", acc_op_name(in->op), in->bytes, in->matrices,
               in->trans ? "true" : "false");
    for (int t = 0; t < ACC_LANES; t++) {
        if (t)
            buf_putc(b, ',');
        if (in->offsets[t] == ACC_INACTIVE)
            buf_puts(b, "null");
        else
            buf_i64(b, in->offsets[t]);
    }
    buf_puts(b, "]}");
}

static int route_measure(const struct api_request *req, struct buf *out,
                         struct sz_error *err)
{
    struct acc_instr in;
    if (instr_from_request(req, &in, err) < 0)
        return -1;
    if (in.bank_bytes != 4 || in.banks != 32)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "banks",
                       "the GPU has 32 banks of 4 bytes: measure with bank_bytes 4, banks 32");
    if (!msr.available)
        return sz_fail(err, SZ_GPU_UNAVAILABLE, NULL, "%s", msr.reason);
    if (measure_try_lock(err) < 0)
        return -1;
    struct buf body = {0};
    put_instr(&body, &in);
    char *argv[] = {msr.tool, "--json", NULL};
    struct measure_output mo;
    int rc = measure_run(argv, body.p ? body.p : "", body.len, msr.timeout_ms, &mo, err);
    measure_unlock();
    buf_free(&body);
    if (rc < 0)
        return -1;
    cJSON *j = tool_json(&mo);
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(j, "results");
    const cJSON *res = cJSON_GetArrayItem(results, 0);
    const cJSON *cyc = cJSON_GetObjectItemCaseSensitive(res, "cycles_per_instr");
    if (mo.exit_code != 0 || mo.timed_out || !cJSON_IsObject(res) || !cJSON_IsNumber(cyc)) {
        char msg[300];
        tool_failure(&mo, j, msg, sizeof msg);
        cJSON_Delete(j);
        free(mo.out);
        return sz_fail(err, SZ_MEASURE_FAILED, NULL, "%s", msg);
    }
    struct acc_result r;
    acc_cost(&in, &r);
    /* The tool reads two ncu numbers: the Source-page metric, which
     * source_wavefronts predicts, and for loads the hardware counter, which
     * wavefronts predicts (for stores that counter over-counts: access.c). */
    const cJSON *wf = cJSON_GetObjectItemCaseSensitive(res, "wavefronts_per_instr");
    const cJSON *hw = cJSON_GetObjectItemCaseSensitive(res, "wavefronts_hw_per_instr");
    int load = in.op == ACC_LD || in.op == ACC_LDMATRIX;
    int wf_ok = cJSON_IsNumber(wf) && fabs(wf->valuedouble - r.source_wavefronts) < 0.01 &&
                (!load || !cJSON_IsNumber(hw) || fabs(hw->valuedouble - r.wavefronts) < 0.01);
    double mc = cyc->valuedouble;
    /* Cycles agree within 2% (clock64 timing noise); wavefronts are counts. */
    int cyc_ok = fabs(mc - r.cycles) <= 0.02 * r.cycles;
    buf_puts(out, "{\"predicted\":");
    put_cost(out, &in, &r);
    char *measured = cJSON_PrintUnformatted(res);
    char *device = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "device"));
    char *ncu = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "ncu"));
    char *verify = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "verify"));
    buf_puts(out, ",\"measured\":");
    buf_puts(out, measured ? measured : "null");
    buf_puts(out, ",\"device\":");
    buf_puts(out, device ? device : "null");
    buf_puts(out, ",\"ncu\":");
    buf_puts(out, ncu ? ncu : "null");
    buf_puts(out, ",\"verify\":");
    buf_puts(out, verify ? verify : "null");
    buf_printf(out, ",\"agree\":{\"cycles\":%s,\"wavefronts\":%s}}",
               cyc_ok ? "true" : "false",
               cJSON_IsNumber(wf) ? (wf_ok ? "true" : "false") : "null");
    free(measured);
    free(device);
    free(ncu);
    free(verify);
    cJSON_Delete(j);
    free(mo.out);
    return 0;
}

/* ---- dispatch ------------------------------------------------------------ */

typedef int (*route_fn)(const struct api_request *, struct buf *, struct sz_error *);

/* `cached`: the answer is a pure function of the query, so a repeat is
 * served from cache.c (health is not: it reports live state). */
static const struct route {
    const char *path;
    const char *method;     /* GET routes also answer HEAD */
    route_fn fn;
    int cached;
} routes[] = {
    {"/api/health", "GET", route_health, 0},
    {"/api/presets", "GET", route_presets, 1},
    {"/api/swizzle", "GET", route_swizzle, 1},
    {"/api/inspect", "GET", route_inspect, 1},
    {"/api/apply", "POST", route_apply, 0},
    {"/api/conflicts", "POST", route_conflicts, 0},
    {"/api/patterns", "GET", route_patterns, 1},
    {"/api/access", "GET", route_access, 1},
    {"/api/measure", "POST", route_measure, 0},
};

/* The cache key: the path and every argument, length-prefixed so that no two
 * different argument lists (values may hold '&' and '=') share a key. */
static void cache_key(const struct api_request *req, struct buf *key)
{
    buf_puts(key, req->path);
    for (int i = 0; i < req->nargs; i++)
        buf_printf(key, "|%zu:%s|%zu:%s", strlen(req->args[i].key), req->args[i].key,
                   strlen(req->args[i].value), req->args[i].value);
}

void api_error_response(const struct sz_error *err, struct api_response *resp)
{
    struct buf b = {0};
    buf_puts(&b, "{\"error\":{\"code\":");
    buf_json_str(&b, sz_code_name(err->code));
    buf_puts(&b, ",\"field\":");
    buf_json_str(&b, err->field);
    buf_puts(&b, ",\"message\":");
    buf_json_str(&b, err->message);
    buf_puts(&b, "}}");
    resp->status = sz_code_status(err->code);
    resp->body = buf_take(&b, &resp->len);
    if (resp->body == NULL) {
        resp->status = 500;
        resp->len = 0;
    }
}

void api_handle(const struct api_request *req, struct api_response *resp)
{
    struct sz_error err = {0};
    struct buf out = {0};
    const struct route *r = NULL;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(routes[i].path, req->path) == 0)
            r = &routes[i];
    if (r == NULL) {
        sz_fail(&err, SZ_NOT_FOUND, "path", "no such API route");
        goto fail;
    }
    int head_ok = strcmp(r->method, "GET") == 0 && strcmp(req->method, "HEAD") == 0;
    if (strcmp(r->method, req->method) != 0 && !head_ok) {
        sz_fail(&err, SZ_METHOD_NOT_ALLOWED, "method", "%s answers %s only",
                r->path, r->method);
        goto fail;
    }
    struct buf key = {0};
    if (r->cached) {
        cache_key(req, &key);
        if (key.p && cache_get(key.p, &resp->body, &resp->len)) {
            buf_free(&key);
            resp->status = 200;
            return;
        }
    }
    if (r->fn(req, &out, &err) < 0) {
        buf_free(&key);
        goto fail;
    }
    if (key.p && !out.oom)
        cache_put(key.p, out.p, out.len);
    buf_free(&key);
    resp->body = buf_take(&out, &resp->len);
    if (resp->body == NULL) {
        sz_fail(&err, SZ_INTERNAL, NULL, "out of memory");
        goto fail;
    }
    resp->status = 200;
    return;
fail:
    buf_free(&out);
    api_error_response(&err, resp);
}
