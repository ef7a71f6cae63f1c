/* api_fit.c - /api/access's fit=1 member (declared in api_write.h): a view (or
 * a named pattern on it) that the layout routes would refuse is answered with
 * the error it would get and the one value of one field that would make it
 * fit.  It tries views through the readers' rules (api_geom_make and the
 * pattern check); it costs nothing and is no route. */
#include <string.h>

#include "api_read.h"
#include "api_read_layout.h"
#include "api_write.h"
#include "model/swizzle.h"

/* The view's parameters as numbers; rows 0 is the default grid. */
struct fit_vals {
    long b, m, s, bank_bytes, banks, rows;
    int match;
    const char *pattern;    /* NULL: the layout alone */
};

/* 0 when the layout of `v` is valid and step 0 of its pattern fits it. */
static int fit_try(const struct fit_vals *v, struct sz_error *err)
{
    struct swz z;
    struct swz_geom g;
    struct instr in = {.bank_bytes = 4, .banks = 32};
    uint32_t steps;
    if (swz_init(&z, (int)v->b, (int)v->m, (int)v->s, err) < 0 ||
        api_geom_make(&g, &z, (uint32_t)v->bank_bytes, (uint32_t)v->banks,
                      (uint32_t)v->rows, v->match, err) < 0)
        return -1;
    if (v->pattern == NULL)
        return 0;
    in.bank_bytes = g.bank_bytes;
    in.banks = g.banks;
    return api_pattern_on(v->pattern, &z, &g, 0, &in, &steps, err);
}

/* The value of `field` nearest to the current one (larger first) with which
 * everything else as given fits; -1 when changing that field alone cannot. */
static int fit_fix(const struct fit_vals *cur, const char *field, long *value)
{
    struct fit_vals v = *cur;
    long *slot, lo, hi;
    int pow2 = 0;
    if (strcmp(field, "match_bank_row") == 0) {
        v.match = !v.match;
        *value = v.match;
        return fit_try(&v, NULL);
    }
    if (strcmp(field, "b") == 0) { slot = &v.b; lo = 0; hi = SZ_MAP_B_MAX; }
    else if (strcmp(field, "m") == 0) { slot = &v.m; lo = 0; hi = SZ_SWZ_M_MAX; }
    else if (strcmp(field, "s") == 0) { slot = &v.s; lo = -SZ_SWZ_S_MAX; hi = SZ_SWZ_S_MAX; }
    else if (strcmp(field, "rows") == 0) { slot = &v.rows; lo = 1; hi = SWZ_MAX_CELLS; }
    else if (strcmp(field, "bank_bytes") == 0) { slot = &v.bank_bytes; lo = 1; hi = SZ_MAX_BANK_BYTES; pow2 = 1; }
    else if (strcmp(field, "banks") == 0) { slot = &v.banks; lo = 1; hi = SZ_MAX_BANKS; pow2 = 1; }
    else return -1;
    long c = *slot;
    /* Powers of two step by doublings; rows search at most 2^16 either way. */
    for (long d = 1; d <= (pow2 ? 7 : 1L << 16); d++) {
        long cand[2] = {pow2 ? c << d : c + d, pow2 ? c >> d : c - d};
        for (int k = 0; k < 2; k++) {
            if (cand[k] < lo || cand[k] > hi || (pow2 && cand[k] == 0) ||
                (k == 1 && pow2 && c >> d << d != c))
                continue;
            *slot = cand[k];
            if (fit_try(&v, NULL) == 0) {
                *value = cand[k];
                return 0;
            }
        }
    }
    if (slot != &v.rows)
        return -1;
    /* Rows farther than 2^16 (2^30 asked of a 2^17-row limit): the rows that fit
     * are the multiples of the swizzle's period, a power of two, up to a bound
     * that is a power of two (cells, or 2^31 bytes, over a power-of-two row):
     * the nearest is c rounded up or down to some 2^k, or some 2^k itself. */
    long best = -1;
    for (int k = 0; k <= 30; k++) {
        long p = 1L << k, cand[3] = {c / p * p, (c + p - 1) / p * p, p};
        for (int j = 0; j < 3; j++) {
            long r = cand[j], d = r > c ? r - c : c - r, bd = best > c ? best - c : c - best;
            if (r < lo || r > hi || (best >= 0 && (d > bd || (d == bd && r <= best))))
                continue;
            *slot = r;
            if (fit_try(&v, NULL) == 0)
                best = r;
        }
    }
    if (best < 0)
        return -1;
    *value = best;
    return 0;
}

/* The view's parameters as given, leniently: -1 when one is not a number. */
static int fit_read(const struct api_request *req, const char *pattern, long rows_now,
                    struct fit_vals *v)
{
    v->pattern = pattern;
    v->rows = rows_now;
    if (api_arg_int(req, "b", -1000, 1000, 1, 0, &v->b, NULL) < 0 ||
        api_arg_int(req, "m", -1000, 1000, 1, 0, &v->m, NULL) < 0 ||
        api_arg_int(req, "s", -1000, 1000, 1, 0, &v->s, NULL) < 0 ||
        api_arg_int(req, "bank_bytes", 0, 1 << 20, 0, 4, &v->bank_bytes, NULL) < 0 ||
        api_arg_int(req, "banks", 0, 1 << 20, 0, 32, &v->banks, NULL) < 0 ||
        (rows_now == 0 && api_arg_int(req, "rows", 0, 1L << 30, 0, 0, &v->rows, NULL) < 0) ||
        api_arg_bool(req, "match_bank_row", &v->match, NULL) < 0)
        return -1;
    return 0;
}

/* The fit=1 answer for a view (or pattern) that does not fit: the error it
 * would have been refused with, and the one value that would fit, if any. */
int api_put_unfit(const struct api_request *req, struct buf *out, const char *pattern,
                     long rows_now, const struct sz_error *why)
{
    struct fit_vals v;
    long value;
    buf_puts(out, "{\"pattern\":");
    if (pattern)
        buf_json_str(out, pattern);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"fits\":false,\"why\":");
    api_put_error(out, why);
    buf_puts(out, ",\"fix\":");
    if (fit_read(req, pattern, rows_now, &v) == 0 && fit_fix(&v, why->field, &value) == 0) {
        buf_puts(out, "{\"field\":");
        buf_json_str(out, why->field);
        buf_printf(out, ",\"value\":%ld}}", value);
    } else {
        buf_puts(out, "null}");
    }
    return 0;
}
