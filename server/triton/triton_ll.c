/* triton_ll.c - Triton's LinearLayout operations on struct tll (see
 * triton_ll.h).  The product's output order is the supremum of the two
 * orders, ties going to the inner layout's dim, because ensureNotSmaller
 * grows dims in that order and the tests see the difference.  Overflow marks
 * the layout (`over`) instead of writing past its arrays.  Pure. */
#include "triton_ll.h"

#include <string.h>

#include "base/bits.h"

int tll_check_shape(const int64_t *shape, int rank, int max_log2, struct sz_error *err)
{
    int64_t total = 1;
    if (rank < 1 || rank > TLL_MAX_RANK)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "rank must be 1..%d", TLL_MAX_RANK);
    for (int i = 0; i < rank; i++) {
        if (!bits_is_pow2((uint64_t)shape[i]))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                           "shape[%d] must be a power of two, got %lld", i, (long long)shape[i]);
        total *= shape[i];
        if (total > ((int64_t)1 << max_log2))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "at most 2^%d elements", max_log2);
    }
    return 0;
}

void tll_empty(struct tll *l) { memset(l, 0, sizeof *l); }

static void one_dim(struct tll *l, int64_t size, enum tll_in in, int dim, int zero)
{
    tll_empty(l);
    if (size == 0)
        return;
    if (size > ((int64_t)1 << TLL_MAX_LOG2)) {
        l->over = 1;
        return;
    }
    int k = bits_log2_ceil((uint32_t)size);
    l->nout = 1;
    l->out[0] = dim;
    l->lg[dim] = zero ? 0 : k;
    if (k > TLL_MAX_BASES || k > TLL_MAX_LOG2) {
        l->over = 1;
        return;
    }
    l->n[in] = k;
    for (int i = 0; i < k; i++)
        l->b[in][i][dim] = zero ? 0 : (int32_t)1 << i;
}

void tll_identity(struct tll *l, int64_t size, enum tll_in in, int dim)
{
    one_dim(l, size, in, dim, 0);
}

void tll_zeros(struct tll *l, int64_t size, enum tll_in in, int dim)
{
    one_dim(l, size, in, dim, 1);
}

static int pos_of(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return i;
    return -1;
}

/* The supremum of two orders: each list's relative order kept; where both
 * could come next, the one whose partner lies nearer (x's on a tie). */
static int supremum(const int *x, int nx, const int *y, int ny, int *out)
{
    int n = 0, i = 0, j = 0;
    const int inf = 1 << 20;
    while (i < nx || j < ny) {
        while (i < nx && pos_of(out, n, x[i]) >= 0)
            i++;
        while (j < ny && pos_of(out, n, y[j]) >= 0)
            j++;
        if (i >= nx && j >= ny)
            break;
        if (i < nx && j < ny && x[i] == y[j]) {
            out[n++] = x[i];
            i++, j++;
            continue;
        }
        int cx = inf, cy = inf;
        if (i < nx) {
            int p = pos_of(y, ny, x[i]);
            if (p >= j)
                cx = p;
        }
        if (j < ny) {
            int p = pos_of(x, nx, y[j]);
            if (p >= i)
                cy = p;
        }
        if (i < nx && cx == inf) {
            out[n++] = x[i++];
            continue;
        }
        if (j < ny && cy == inf) {
            out[n++] = y[j++];
            continue;
        }
        if (cx <= cy)
            out[n++] = x[i++];
        else
            out[n++] = y[j++];
    }
    return n;
}

void tll_mul(struct tll *a, const struct tll *b)
{
    int order[2 * TLL_MAX_RANK];
    int n = supremum(a->out, a->nout, b->out, b->nout, order);
    a->over |= b->over;
    for (int in = 0; in < TLL_NIN; in++) {
        if (a->n[in] + b->n[in] > TLL_MAX_BASES) {
            a->over = 1;
            continue;
        }
        for (int i = 0; i < b->n[in]; i++)
            for (int d = 0; d < TLL_MAX_RANK; d++) {
                int64_t v = (int64_t)b->b[in][i][d] << a->lg[d];
                if (v > ((int64_t)1 << TLL_MAX_LOG2))
                    a->over = 1, v = 0;
                a->b[in][a->n[in] + i][d] = (int32_t)v;
            }
        a->n[in] += b->n[in];
    }
    for (int d = 0; d < TLL_MAX_RANK; d++) {
        a->lg[d] += b->lg[d];
        if (a->lg[d] > TLL_MAX_LOG2)
            a->over = 1, a->lg[d] = TLL_MAX_LOG2;
    }
    a->nout = n > TLL_MAX_RANK ? TLL_MAX_RANK : n;
    memcpy(a->out, order, sizeof(int) * (size_t)a->nout);
}

void tll_mul_id(struct tll *a, int64_t size, enum tll_in in, int dim)
{
    struct tll t;
    tll_identity(&t, size, in, dim);
    tll_mul(a, &t);
}

void tll_transpose(struct tll *l, const int *order, int n)
{
    l->nout = n;
    memcpy(l->out, order, sizeof(int) * (size_t)n);
}

void tll_not_smaller(struct tll *l, const int64_t *shape)
{
    int order[TLL_MAX_RANK], n = l->nout;
    memcpy(order, l->out, sizeof order);
    for (int k = 0; k < n; k++) {
        int d = order[k];
        int64_t have = (int64_t)1 << l->lg[d];
        if (shape[d] > have)
            tll_mul_id(l, shape[d] / have, TLL_REGISTER, d);
    }
}

void tll_not_larger(struct tll *l, const int64_t *shape, int broadcast_registers)
{
    for (int k = 0; k < l->nout; k++) {
        int d = l->out[k], s = bits_log2_ceil((uint32_t)shape[d]);
        if (l->lg[d] > s)
            l->lg[d] = s;
    }
    for (int in = 0; in < TLL_NIN; in++) {
        int kept = 0;
        for (int i = 0; i < l->n[in]; i++) {
            int was_zero = 1, is_zero = 1;
            for (int d = 0; d < TLL_MAX_RANK; d++) {
                if (l->b[in][i][d] != 0)
                    was_zero = 0;
                if (l->b[in][i][d] >= ((int64_t)1 << l->lg[d]))
                    l->b[in][i][d] = 0;
                if (l->b[in][i][d] != 0)
                    is_zero = 0;
            }
            if (in == TLL_REGISTER && !broadcast_registers && !was_zero && is_zero)
                continue;
            memmove(l->b[in][kept], l->b[in][i], sizeof l->b[in][i]);
            kept++;
        }
        l->n[in] = kept;
    }
}

void tll_remove_dim(struct tll *l, int d)
{
    for (int in = 0; in < TLL_NIN; in++)
        for (int i = 0; i < l->n[in]; i++) {
            for (int k = d; k + 1 < TLL_MAX_RANK; k++)
                l->b[in][i][k] = l->b[in][i][k + 1];
            l->b[in][i][TLL_MAX_RANK - 1] = 0;
        }
    for (int k = d; k + 1 < TLL_MAX_RANK; k++)
        l->lg[k] = l->lg[k + 1];
    l->lg[TLL_MAX_RANK - 1] = 0;
    int n = 0;
    for (int k = 0; k < l->nout; k++)
        if (l->out[k] != d)
            l->out[n++] = l->out[k] > d ? l->out[k] - 1 : l->out[k];
    l->nout = n;
}

void tll_remove_zero_bases(struct tll *l, enum tll_in in)
{
    int kept = 0;
    for (int i = 0; i < l->n[in]; i++) {
        int zero = 1;
        for (int d = 0; d < TLL_MAX_RANK; d++)
            zero &= l->b[in][i][d] == 0;
        if (!zero)
            memmove(l->b[in][kept++], l->b[in][i], sizeof l->b[in][i]);
    }
    l->n[in] = kept;
}
