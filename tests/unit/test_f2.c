/* test_f2.c - the F2 core against brute force: every closed form (rank,
 * membership, intersection, complement, canonical basis, inverse, kernel,
 * composition) beside an oracle that enumerates spans element by element,
 * over exhaustive small cases and seeded random ones up to 32 bits. */
#include <stdlib.h>
#include <string.h>

#include "linear/f2.h"
#include "check.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* The oracle: mark every XOR combination of v[0..n) (bits < 8) in a 256-bit
 * set; the span's size is 2^rank. */
static int enum_span(const uint32_t *v, int n, unsigned char *set)
{
    memset(set, 0, 256);
    int count = 0;
    for (uint32_t sub = 0; sub < (1u << n); sub++) {
        uint32_t x = 0;
        for (int i = 0; i < n; i++)
            if (sub >> i & 1)
                x ^= v[i];
        if (!set[x]) {
            set[x] = 1;
            count++;
        }
    }
    return count;
}

static int log2i(int x)
{
    int k = 0;
    while ((1 << k) < x)
        k++;
    return k;
}

/* Rank, membership, intersection and complement on 8-bit vectors, 2000 random
 * families of 0..7 vectors, every claim checked against the enumerated sets. */
static void test_spans_small(void)
{
    int fails = 0;
    for (int iter = 0; iter < 2000; iter++) {
        uint32_t a[8], b[8], inter[32];
        int na = (int)(rnd() % 8), nb = (int)(rnd() % 8);
        for (int i = 0; i < na; i++)
            a[i] = rnd() & (iter % 3 ? 0xFFu : 0x0Fu);
        for (int i = 0; i < nb; i++)
            b[i] = rnd() & 0xFFu;
        unsigned char sa[256], sb[256], si[256];
        int ca = enum_span(a, na, sa);
        enum_span(b, nb, sb);
        CHECK_QUIET(fails, (1 << f2_rank(a, na)) == ca, "rank %d, span %d", f2_rank(a, na), ca);
        struct f2_span s;
        f2_span_of(&s, a, na);
        for (uint32_t x = 0; x < 256; x++)
            CHECK_QUIET(fails, f2_in_span(&s, x) == sa[x], "membership of %u", x);
        int k = f2_intersect(a, na, b, nb, inter);
        int both = 0;
        for (int x = 0; x < 256; x++)
            both += sa[x] && sb[x];
        CHECK_QUIET(fails, (1 << k) == both, "intersection dim %d, oracle %d elements", k, both);
        int ci = enum_span(inter, k, si);
        CHECK_QUIET(fails, ci == (1 << k), "intersection basis is independent");
        for (int x = 0; x < 256; x++)
            CHECK_QUIET(fails, si[x] == (sa[x] && sb[x]), "intersection element %d", x);
        uint32_t comp[8];
        int nc = f2_complement(&s, 8, NULL, comp);
        CHECK_QUIET(fails, nc == 8 - log2i(ca) && s.n == 8, "complement %d of rank %d", nc,
                    log2i(ca));
        uint32_t all[16];
        memcpy(all, a, sizeof a[0] * (size_t)na);
        memcpy(all + na, comp, sizeof comp[0] * (size_t)nc);
        CHECK_QUIET(fails, f2_rank(all, na + nc) == 8, "a + complement spans F2^8");
        for (int i = 0; i < nc; i++)
            CHECK_QUIET(fails, (comp[i] & (comp[i] - 1)) == 0, "complement is unit vectors");
    }
    CHECK(fails == 0, "small spans: %d failures", fails);
}

/* The canonical basis: same span, pivots ascending and cleared everywhere else. */
static void test_canon(void)
{
    int fails = 0;
    for (int iter = 0; iter < 2000; iter++) {
        uint32_t v[8];
        int n = (int)(rnd() % 8);
        for (int i = 0; i < n; i++)
            v[i] = rnd() & 0xFFu;
        struct f2_span s;
        f2_span_of(&s, v, n);
        unsigned char before[256], after[256];
        enum_span(s.v, s.n, before);
        f2_span_canon(&s);
        enum_span(s.v, s.n, after);
        CHECK_QUIET(fails, memcmp(before, after, 256) == 0, "canon keeps the span");
        for (int i = 0; i < s.n; i++) {
            int p = 31;
            while (!(s.v[i] >> p & 1))
                p--;
            for (int j = 0; j < s.n; j++)
                CHECK_QUIET(fails, j == i || !(s.v[j] >> p & 1), "pivot %d cleared", p);
            if (i > 0)
                CHECK_QUIET(fails, s.v[i] > s.v[i - 1], "pivots ascend");
        }
    }
    CHECK(fails == 0, "canon: %d failures", fails);
}

/* out = a ∘ b (first b, then a); needs a->cols == b->rows.  The core never
 * composes matrices: this is the tests' oracle for f2_inverse (inv(a) a = I),
 * checked itself against applying twice. */
static void compose(const struct f2_mat *a, const struct f2_mat *b, struct f2_mat *out)
{
    struct f2_mat r = {.rows = a->rows, .cols = b->cols};
    for (int j = 0; j < b->cols; j++)
        r.col[j] = f2_apply(a, b->col[j]);
    *out = r;
}

/* Matrices up to 32x32: composition against applying twice, inverse against
 * the identity, kernel against brute force for small sizes and against rank. */
static void test_matrices(void)
{
    int fails = 0;
    for (int iter = 0; iter < 3000; iter++) {
        int n = 1 + (int)(rnd() % 32);
        struct f2_mat a = {.rows = n, .cols = n}, b = {.rows = n, .cols = n}, c, inv, id;
        uint32_t mask = n == 32 ? 0xFFFFFFFFu : (1u << n) - 1;
        for (int j = 0; j < n; j++) {
            a.col[j] = rnd() & mask;
            b.col[j] = rnd() & mask;
        }
        if (iter % 4 == 0 && n > 1)
            a.col[n - 1] = a.col[0] ^ a.col[n / 2];  /* often singular */
        compose(&a, &b, &c);
        for (int k = 0; k < 8; k++) {
            uint32_t x = rnd() & mask;
            CHECK_QUIET(fails, f2_apply(&c, x) == f2_apply(&a, f2_apply(&b, x)),
                        "compose at %u", x);
        }
        int r = f2_mat_rank(&a);
        int ok = f2_inverse(&a, &inv) == 0;
        CHECK_QUIET(fails, ok == (r == n), "inverse exists iff rank %d == %d", r, n);
        if (ok) {
            compose(&inv, &a, &id);
            for (int j = 0; j < n; j++)
                CHECK_QUIET(fails, id.col[j] == 1u << j, "inv(a) a = I at %d", j);
            compose(&a, &inv, &id);
            for (int j = 0; j < n; j++)
                CHECK_QUIET(fails, id.col[j] == 1u << j, "a inv(a) = I at %d", j);
        }
        uint32_t ker[32];
        int k = f2_kernel(&a, ker);
        CHECK_QUIET(fails, k == n - r, "kernel dim %d, rank %d of %d", k, r, n);
        CHECK_QUIET(fails, f2_rank(ker, k) == k, "kernel basis independent");
        for (int i = 0; i < k; i++)
            CHECK_QUIET(fails, f2_apply(&a, ker[i]) == 0, "kernel vector maps to 0");
        if (n <= 10) {
            int zeros = 0;
            for (uint32_t x = 0; x < (1u << n); x++)
                zeros += f2_apply(&a, x) == 0;
            CHECK_QUIET(fails, zeros == 1 << k, "kernel size %d, brute %d", 1 << k, zeros);
        }
    }
    CHECK(fails == 0, "matrices: %d failures", fails);
}

/* Full 32-bit vectors: rank against a second, naive elimination (pivot = lowest
 * bit, with the array modified in place), and intersection dimensions against
 * dim(A) + dim(B) - dim(A + B). */
static int rank_lowpivot(uint32_t *v, int n)
{
    int r = 0;
    for (int bit = 0; bit < 32; bit++) {
        int p = -1;
        for (int i = r; i < n; i++)
            if (v[i] >> bit & 1) {
                p = i;
                break;
            }
        if (p < 0)
            continue;
        uint32_t t = v[p];
        v[p] = v[r];
        v[r] = t;
        for (int i = 0; i < n; i++)
            if (i != r && (v[i] >> bit & 1))
                v[i] ^= v[r];
        r++;
    }
    return r;
}

static void test_wide(void)
{
    int fails = 0;
    for (int iter = 0; iter < 3000; iter++) {
        uint32_t a[32], b[32], ab[64], inter[32], tmp[64];
        int na = (int)(rnd() % 33), nb = (int)(rnd() % 33);
        uint32_t mask = iter % 2 ? 0xFFFFFFFFu : 0x000FFFFFu;
        for (int i = 0; i < na; i++)
            ab[i] = a[i] = rnd() & mask;
        for (int i = 0; i < nb; i++)
            ab[na + i] = b[i] = rnd() & mask;
        memcpy(tmp, a, sizeof a);
        int ra = f2_rank(a, na), rb = f2_rank(b, nb), rs = f2_rank(ab, na + nb);
        CHECK_QUIET(fails, ra == rank_lowpivot(tmp, na), "rank %d", ra);
        int k = f2_intersect(a, na, b, nb, inter);
        CHECK_QUIET(fails, k == ra + rb - rs, "dim(A∩B) %d = %d + %d - %d", k, ra, rb, rs);
        struct f2_span sa, sb;
        f2_span_of(&sa, a, na);
        f2_span_of(&sb, b, nb);
        for (int i = 0; i < k; i++)
            CHECK_QUIET(fails, f2_in_span(&sa, inter[i]) && f2_in_span(&sb, inter[i]),
                        "intersection vector in both");
    }
    CHECK(fails == 0, "32-bit: %d failures", fails);
}

int main(void)
{
    test_spans_small();
    test_canon();
    test_matrices();
    test_wide();
    return check_summary("test_f2");
}
