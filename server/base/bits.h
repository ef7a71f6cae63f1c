/* bits.h - powers of two, and the ranges the whole C side accepts, each defined
 * once with its why (issue 22: "constants once").  Server, model, tool (cuda/)
 * and tests read these; a range that a message prints is printed from here.
 * Pure: static inlines and constants only, no I/O, no state.  Ranges of one
 * module alone (LAY_*, LIN_*, API_*) stay in that module's header. */
#ifndef SZ_BITS_H
#define SZ_BITS_H

#include <stdint.h>

/* x is a power of two (1, 2, 4, ...); 0 is not. */
static inline int bits_is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

/* The largest k with 2^k <= x (x >= 1), and 0 for x = 0: bit positions, the
 * width of a field that holds 0..x-1 when x is a power of two. */
static inline int bits_log2_floor(uint32_t x)
{
    int k = 0;
    while (x > 1) {
        x >>= 1;
        k++;
    }
    return k;
}

/* The smallest k with 2^k >= x (x <= 2^31), and 0 for x <= 1: the bits an
 * index below x needs; equal to bits_log2_floor on powers of two. */
static inline int bits_log2_ceil(uint32_t x)
{
    int k = 0;
    while ((1u << k) < x)
        k++;
    return k;
}

/* Offsets are byte offsets in [0, 2^31): a Swizzle<B,M,S> then touches bits
 * 0..30 only (M + |S| + B <= 31), and an offset survives any int arithmetic. */
#define SZ_OFFSET_LIMIT 0x80000000u

/* Swizzle<B,M,S>'s fields: B 0..15, M 0..30, S -30..30.  Every bit the
 * swizzle moves lies below bit 31 (SZ_OFFSET_LIMIT: M + |S| + B <= 31, and
 * |S| >= B), so B stops at 15 (a B of 16 needs 32 bits) and, with B >= 1, M
 * at 29 and |S| at 30; with B = 0 (nothing moves) M and |S| of 30 keep 2^M
 * and 2^|S| below the offset limit.  Each field is checked alone first, so an error names it. */
#define SZ_SWZ_B_MAX 15
#define SZ_SWZ_M_MAX 30
#define SZ_SWZ_S_MAX 30

/* A map draws its tile cell by cell: (2^B)^2 cells at most SWZ_MAX_CELLS =
 * 2^20 (swizzle.h), so the map routes take B in 0..10. */
#define SZ_MAP_B_MAX 10

/* Bank geometry: bank_bytes and banks are powers of two, bank_bytes 1..32 and
 * banks 1..128.  Every NVIDIA GPU since Kepler has 32 banks of 4 bytes; the
 * wider ranges let a user draw other geometries (AMD's 64 banks included),
 * and per-bank counts live in fixed arrays of SZ_MAX_BANKS. */
#define SZ_MAX_BANK_BYTES 32u
#define SZ_MAX_BANKS 128u

/* The widest shared-memory access of one lane: 16 bytes (ld/st.shared.v4.b32,
 * one ldmatrix/stmatrix row). */
#define SZ_MAX_LANE_BYTES 16u

/* The most bank words one lane's access touches: an aligned access of
 * SZ_MAX_LANE_BYTES on banks of 1 byte. */
#define SZ_MAX_LANE_WORDS SZ_MAX_LANE_BYTES

#endif
