/* linear_conv.h - memory layouts between their F2 form and CuTe Swizzle<B,M,S>,
 * Triton swizzled_shared and NVMMA / TMA swizzles (linear_conv.c), both ways.
 * Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_LINEAR_CONV_H
#define SZ_LINEAR_CONV_H

#include "base/error.h"
#include "linear.h"

/* CuTe Swizzle<b,m,s> on the byte offsets of a row-major tile of `bitwidth`
 * elements.  Fails when the swizzle splits an element or leaves the tile. */
int lin_from_cute(const struct lin_tile *t, int bitwidth, int b, int m, int s,
                  struct lin_mem *out, struct sz_error *err);
/* The first <b,m,s> (b, then m, then s ascending, s >= 0 first) giving m; 1 if found. */
int lin_to_cute(const struct lin_tile *t, int bitwidth, const struct lin_mem *m, int *b,
                int *mb, int *s);

/* Triton swizzled_shared: order[0] is the fastest dimension; within a row of
 * that dimension, vector index ^= (row / per_phase) % max_phase. */
int lin_from_triton(const struct lin_tile *t, int vec, int per_phase, int max_phase,
                    const int order[2], struct lin_mem *out, struct sz_error *err);
/* The smallest (max_phase, vec, per_phase) and order giving m; 1 if found. */
int lin_to_triton(const struct lin_tile *t, const struct lin_mem *m, int *vec,
                  int *per_phase, int *max_phase, int order[2]);

/* NVMMA / TMA swizzle of 32, 64 or 128 bytes: rows of `swizzle_bytes` bytes
 * along the contiguous dim (dim1, or dim0 when transposed), stacked row by row,
 * then Swizzle<log2(swizzle_bytes/16), 4, 3> on bytes. */
int lin_from_nvmma(const struct lin_tile *t, int bitwidth, int swizzle_bytes, int transposed,
                   struct lin_mem *out, struct sz_error *err);
/* The mode giving m (32, 64 or 128, untransposed first); 1 if found. */
int lin_to_nvmma(const struct lin_tile *t, int bitwidth, const struct lin_mem *m,
                 int *swizzle_bytes, int *transposed);

#endif
