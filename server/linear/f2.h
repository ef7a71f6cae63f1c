/* f2.h - linear algebra over F2 = {0, 1} (addition is XOR) on bit vectors of up
 * to 32 bits: spans kept as reduced bases, rank, membership, intersection,
 * complement, and 32x32 matrices with composition and inversion.
 *
 * Pure core: no I/O, no allocation; every result lands in the caller's struct.
 * It knows nothing of layouts, banks or JSON (linear.c gives the vectors meaning). */
#ifndef SZ_F2_H
#define SZ_F2_H

#include <stdint.h>

#define F2_MAX 32

/* A span, kept as an echelon basis: v[i] has its highest set bit (its pivot)
 * in a bit no other v[j] has set.  n == 0 is the zero space. */
struct f2_span {
    int n;
    uint32_t v[F2_MAX];
};

/* A linear map from F2^cols to F2^rows: col[j] is the image of input bit j.
 * rows, cols in 0..32. */
struct f2_mat {
    int rows, cols;
    uint32_t col[F2_MAX];
};

/* The zero space. */
void f2_span_clear(struct f2_span *s);

/* x reduced by s: 0 exactly when x is in span(s); otherwise a vector whose
 * highest bit is no pivot of s, differing from x by an element of span(s). */
uint32_t f2_reduce(const struct f2_span *s, uint32_t x);

/* Add x to s; returns 1 when the span grew (x was independent), else 0. */
int f2_span_add(struct f2_span *s, uint32_t x);

/* 1 when x is in span(s). */
int f2_in_span(const struct f2_span *s, uint32_t x);

/* The span of v[0..n); returns its dimension. */
int f2_span_of(struct f2_span *s, const uint32_t *v, int n);

/* The rank of the vectors v[0..n) (Gaussian elimination). */
int f2_rank(const uint32_t *v, int n);

/* A basis of span(a[0..na)) ∩ span(b[0..nb)) into out (room for 32); returns
 * its dimension (Zassenhaus' algorithm on 64-bit rows). */
int f2_intersect(const uint32_t *a, int na, const uint32_t *b, int nb, uint32_t *out);

/* Extend span(s) to all of F2^bits with unit vectors, trying bits in the order
 * given by order[0..bits) (NULL: ascending); the chosen units go to out (room
 * for bits) and s grows to the whole space.  Returns how many were chosen. */
int f2_complement(struct f2_span *s, int bits, const int *order, uint32_t *out);

/* Reduce s fully (every pivot bit clear in every other vector) and sort by
 * pivot, ascending: the canonical basis of span(s). */
void f2_span_canon(struct f2_span *s);

/* M x. */
uint32_t f2_apply(const struct f2_mat *m, uint32_t x);

/* The rank of m (of its columns). */
int f2_mat_rank(const struct f2_mat *m);

/* out = m^-1 for square invertible m (Gauss-Jordan); returns 0, or -1 when m
 * is not square or not invertible (out is then unspecified). */
int f2_inverse(const struct f2_mat *m, struct f2_mat *out);

/* A basis of the kernel {x : m x = 0} into out (room for m->cols); returns
 * its dimension. */
int f2_kernel(const struct f2_mat *m, uint32_t *out);

#endif
