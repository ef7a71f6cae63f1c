/* api_compare.c - /api/access's compare=b,m,s;... member (declared in
 * api_write.h): the same access (its logical offsets) on other swizzles, each
 * costed by access.c, and the best.  Reads the list and writes the "compare"
 * member; holds no cost rule and is no route. */
#include <stdlib.h>

#include "model/access.h"
#include "api_read.h"
#include "api_write.h"
#include "model/swizzle.h"
#include "model/verdict.h"

#define COMPARE_MAX 8

static void put_summary(struct buf *out, const struct acc_result *r)
{
    buf_printf(out, "\"wavefronts\":%u,\"ideal_wavefronts\":%u,\"bank_conflicts\":%u,"
               "\"cycles\":%u,\"ways\":%u,\"verdict_class\":\"%s\"", r->wavefronts,
               r->ideal_wavefronts, r->bank_conflicts, r->cycles, r->ways,
               verdict_name(verdict_of(r)));
    /* An atomic's extra wavefronts split as the access's own cost splits them
     * (api_cost.c), so that a card and the verdict beside it cannot disagree
     * on what they are (issue 27.5). */
    if (r->atomic.is_atomic && r->atomic.native)
        buf_printf(out, ",\"conflict_wavefronts\":%u,\"serial_wavefronts\":%u",
                   r->atomic.conflict_wavefronts, r->atomic.serial_wavefronts);
}

/* The instruction `in` (on swizzle z) read as logical offsets: the swizzle is
 * an involution, so swz(physical) is the unswizzled address of the same data.
 * Each listed swizzle gets those logical offsets through its own apply (as a
 * kernel on that layout would), a swizzle whose units are narrower than the
 * accesses is refused (torn vectors); `unswizzled` is the identity, `best` the
 * listed one with the fewest wavefronts, then cycles (the first of equals). */
int api_put_compare(struct buf *out, const char *list, const struct instr *in,
                       const struct swz *z, struct sz_error *err)
{
    int b[COMPARE_MAX], m[COMPARE_MAX], s[COMPARE_MAX], n = 0;
    const char *p = list;
    while (*p) {
        char *end;
        long v[3];
        for (int k = 0; k < 3; k++) {
            v[k] = strtol(p, &end, 10);
            if (end == p || v[k] < -64 || v[k] > 64 || (k < 2 && *end != ',') ||
                (k == 2 && *end != ';' && *end != '\0'))
                return sz_fail(err, SZ_INVALID_ARGUMENT, "compare",
                               "a list of b,m,s separated by ';', at most %d", COMPARE_MAX);
            p = end + (*end != '\0');
        }
        if (n == COMPARE_MAX)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "compare",
                           "at most %d swizzles", COMPARE_MAX);
        b[n] = (int)v[0]; m[n] = (int)v[1]; s[n] = (int)v[2];
        n++;
    }
    struct instr logical = *in, k;
    struct acc_result r;
    for (int t = 0; t < INSTR_LANES; t++)
        if (in->offsets[t] != INSTR_INACTIVE)
            logical.offsets[t] = swz_apply(z, in->offsets[t]);
    acc_cost(&logical, &r);
    buf_puts(out, "\"compare\":{\"unswizzled\":{");
    put_summary(out, &r);
    buf_puts(out, "},\"swizzles\":[");
    int best = -1;
    uint32_t best_wf = 0, best_cy = 0;
    for (int i = 0; i < n; i++) {
        struct swz zk;
        struct sz_error e;
        buf_printf(out, "%s{\"b\":%d,\"m\":%d,\"s\":%d,", i ? "," : "", b[i], m[i], s[i]);
        if (swz_init(&zk, b[i], m[i], s[i], &e) < 0) {
            buf_puts(out, "\"error\":");
            buf_json_str(out, e.message);
            buf_putc(out, '}');
            continue;
        }
        if (zk.b > 0 && (1u << zk.m) < instr_lane_bytes(in)) {
            buf_printf(out, "\"error\":\"its %u-byte units are narrower than the "
                       "%u-byte accesses\"}", 1u << zk.m, instr_lane_bytes(in));
            continue;
        }
        k = logical;
        for (int t = 0; t < INSTR_LANES; t++)
            if (k.offsets[t] != INSTR_INACTIVE)
                k.offsets[t] = swz_apply(&zk, k.offsets[t]);
        if (instr_check(&k, &e) < 0) {
            buf_puts(out, "\"error\":");
            buf_json_str(out, e.message);
            buf_putc(out, '}');
            continue;
        }
        acc_cost(&k, &r);
        put_summary(out, &r);
        buf_putc(out, '}');
        if (best < 0 || r.wavefronts < best_wf || (r.wavefronts == best_wf && r.cycles < best_cy)) {
            best = i;
            best_wf = r.wavefronts;
            best_cy = r.cycles;
        }
    }
    buf_printf(out, "],\"best\":%d}", best);
    return 0;
}
