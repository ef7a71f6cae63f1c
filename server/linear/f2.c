/* f2.c - linear algebra over F2 on 32-bit vectors (f2.h): echelon bases,
 * Zassenhaus intersection, unit-vector complements, matrix inverse and kernel.
 * Pure: no I/O, no allocation.  Everything here is Gaussian elimination with
 * XOR as addition; the brute-force oracles live in tests/unit/test_f2.c. */
#include "f2.h"

#include <string.h>

static int top_bit(uint64_t x)
{
    int b = -1;
    while (x) {
        b++;
        x >>= 1;
    }
    return b;
}

void f2_span_clear(struct f2_span *s)
{
    s->n = 0;
}

/* Reduce x by the echelon vectors v[0..n), carrying the tags t (may be NULL)
 * into *tag.  Pivots are highest bits, so clearing the highest set bit first
 * never reintroduces a bit already cleared: each step lowers the top bit. */
static uint32_t reduce(const uint32_t *v, const uint32_t *t, int n, uint32_t x, uint32_t *tag)
{
    for (int hb = top_bit(x); x && hb >= 0; hb = top_bit(x)) {
        int i = 0;
        while (i < n && top_bit(v[i]) != hb)
            i++;
        if (i == n)
            break;
        x ^= v[i];
        if (t)
            *tag ^= t[i];
    }
    return x;
}

uint32_t f2_reduce(const struct f2_span *s, uint32_t x)
{
    return reduce(s->v, NULL, s->n, x, NULL);
}

int f2_span_add(struct f2_span *s, uint32_t x)
{
    x = f2_reduce(s, x);
    if (x == 0 || s->n >= F2_MAX)
        return 0;
    s->v[s->n++] = x;
    return 1;
}

int f2_in_span(const struct f2_span *s, uint32_t x)
{
    return f2_reduce(s, x) == 0;
}

int f2_span_of(struct f2_span *s, const uint32_t *v, int n)
{
    f2_span_clear(s);
    for (int i = 0; i < n; i++)
        f2_span_add(s, v[i]);
    return s->n;
}

int f2_rank(const uint32_t *v, int n)
{
    struct f2_span s;
    return f2_span_of(&s, v, n);
}

/* 64-bit echelon insertion for Zassenhaus' rows (u | u) and (w | 0). */
static int add64(uint64_t *rows, int n, uint64_t x)
{
    for (;;) {
        if (x == 0)
            return n;
        int hb = top_bit(x), found = 0;
        for (int i = 0; i < n; i++)
            if (top_bit(rows[i]) == hb) {
                x ^= rows[i];
                found = 1;
                break;
            }
        if (!found)
            break;
    }
    rows[n] = x;
    return n + 1;
}

/* Zassenhaus: echelonize the rows (a_i | a_i) and (b_j | 0), the left half in
 * the high word so that it is eliminated first.  A row whose left half ends
 * up zero is (0 | x) with x = sum of some a_i = sum of some b_j, and those x
 * form a basis of the intersection. */
int f2_intersect(const uint32_t *a, int na, const uint32_t *b, int nb, uint32_t *out)
{
    uint64_t rows[2 * F2_MAX];
    int n = 0, k = 0;
    for (int i = 0; i < na && n < 2 * F2_MAX; i++)
        n = add64(rows, n, (uint64_t)a[i] << 32 | a[i]);
    for (int j = 0; j < nb && n < 2 * F2_MAX; j++)
        n = add64(rows, n, (uint64_t)b[j] << 32);
    for (int i = 0; i < n; i++)
        if ((rows[i] >> 32) == 0)
            out[k++] = (uint32_t)rows[i];
    return k;
}

int f2_complement(struct f2_span *s, int bits, const int *order, uint32_t *out)
{
    int k = 0;
    for (int i = 0; i < bits; i++) {
        int b = order ? order[i] : i;
        if (f2_span_add(s, 1u << b))
            out[k++] = 1u << b;
    }
    return k;
}

static void sort_by_pivot(struct f2_span *s, int descending)
{
    for (int i = 1; i < s->n; i++)
        for (int j = i; j > 0; j--) {
            int later = top_bit(s->v[j]) > top_bit(s->v[j - 1]);
            if (later != descending)
                break;
            uint32_t t = s->v[j];
            s->v[j] = s->v[j - 1];
            s->v[j - 1] = t;
        }
}

/* Descending pivots: clearing pivot p from the others XORs in only bits at or
 * below p, so a pivot cleared earlier (a higher one) never comes back. */
void f2_span_canon(struct f2_span *s)
{
    sort_by_pivot(s, 1);
    for (int i = 0; i < s->n; i++) {
        int p = top_bit(s->v[i]);
        for (int j = 0; j < s->n; j++)
            if (j != i && (s->v[j] >> p & 1))
                s->v[j] ^= s->v[i];
    }
    sort_by_pivot(s, 0);
}

uint32_t f2_apply(const struct f2_mat *m, uint32_t x)
{
    uint32_t y = 0;
    for (int j = 0; j < m->cols; j++)
        if (x >> j & 1)
            y ^= m->col[j];
    return y;
}

int f2_mat_rank(const struct f2_mat *m)
{
    return f2_rank(m->col, m->cols);
}

/* Columns with tags: v = M t.  Eliminating on v while carrying t expresses
 * every reduced vector as M applied to a known input. */
struct tagged {
    int n;
    uint32_t v[F2_MAX], t[F2_MAX];
};

/* Reduce (v, t) by the basis; returns the reduced v, *t carried along. */
static uint32_t tagged_reduce(const struct tagged *b, uint32_t v, uint32_t *t)
{
    return reduce(b->v, b->t, b->n, v, t);
}

/* Insert every column; the tags of those that reduce to zero are kernel vectors. */
static int tagged_build(const struct f2_mat *m, struct tagged *b, uint32_t *kernel)
{
    int k = 0;
    b->n = 0;
    for (int j = 0; j < m->cols; j++) {
        uint32_t t = 1u << j, v = tagged_reduce(b, m->col[j], &t);
        if (v) {
            b->v[b->n] = v;
            b->t[b->n++] = t;
        } else if (kernel) {
            kernel[k++] = t;
        }
    }
    return k;
}

int f2_inverse(const struct f2_mat *m, struct f2_mat *out)
{
    struct tagged b;
    if (m->rows != m->cols)
        return -1;
    tagged_build(m, &b, NULL);
    if (b.n != m->cols)
        return -1;
    struct f2_mat r = {.rows = m->cols, .cols = m->rows};
    for (int i = 0; i < m->rows; i++) {
        uint32_t t = 0;
        tagged_reduce(&b, 1u << i, &t);
        r.col[i] = t;
    }
    *out = r;
    return 0;
}

int f2_kernel(const struct f2_mat *m, uint32_t *out)
{
    struct tagged b;
    return tagged_build(m, &b, out);
}
