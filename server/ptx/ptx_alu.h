/* ptx_alu.h - one lane's arithmetic as PTX defines it: integer ops of every
 * width and signedness (mul.hi/.wide, mad, div/rem, shifts, min/max), f32 and
 * f64 ops, setp's compares, cvt between integer and float types; and the
 * bit-level helpers (sign/zero extension, float bits) the executor shares.
 * Pure: no state, no I/O; knows nothing of warps, memory or registers. */
#ifndef SZ_PTX_ALU_H
#define SZ_PTX_ALU_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ptx_parse.h"

/* v's low `bits` bits sign-extended (sx) or zero-extended (zx) to 64 bits. */
static inline uint64_t ptx_alu_sx(uint64_t v, unsigned bits)
{
    if (bits >= 64 || bits == 0)
        return v;
    uint64_t m = 1ull << (bits - 1);
    v &= (1ull << bits) - 1;
    return (v ^ m) - m;
}

static inline uint64_t ptx_alu_zx(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/* A double as float bits: past float's range, the infinity of its sign (the
 * conversion itself would be undefined there). */
static inline uint64_t ptx_alu_f32_bits(double d)
{
    float f;
    if (d > 3.4028234663852886e38)
        f = HUGE_VALF;
    else if (d < -3.4028234663852886e38)
        f = -HUGE_VALF;
    else
        f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* A double as an int64, saturated (NaN: 0). */
static inline int64_t ptx_alu_i64_sat(double d)
{
    if (!(d == d))
        return 0;
    if (d >= 9223372036854775807.0)
        return INT64_MAX;
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

static inline float ptx_alu_as_f(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline double ptx_alu_as_d(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t ptx_alu_of_f(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t ptx_alu_of_d(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* in's integer op (add, sub, mul/mad in .lo/.hi/.wide, mul24/mad24, div, rem,
 * min, max, and, or, xor, shl, shr) on a, b (and c) of in's type into *res;
 * -1 where PTX leaves the result undefined (division by zero) or the form is
 * not modelled (.wide of 64 bits). */
int ptx_alu_int(const struct ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t *res);

/* in's f32 or f64 op (add, sub, mul, mad/fma, div, min, max, abs, neg, rcp,
 * sqrt, rsqrt, ex2, lg2, sin, cos, copysign) into *res as float bits; -1 for
 * other float types (f16, bf16, tf32). */
int ptx_alu_float(const struct ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t *res);

/* setp's compare (in->oc.cmp) of a and b as in's type: 1 or 0, NaN-aware. */
int ptx_alu_compare(const struct ptx_insn *in, uint64_t a, uint64_t b);

/* cvt from in's second type to its first, with its rounding and .sat
 * (float to integer saturates, as PTX's cvt does); -1 for 16-bit floats. */
int ptx_alu_convert(const struct ptx_insn *in, uint64_t a, uint64_t *res);

#endif
