/* linear.h - layouts as linear maps over F2, as Triton writes them: a
 * distributed layout (register, lane, warp bases) and a shared-memory layout
 * (offset bases) on a power-of-two 2D tile; what a (store, load) pair costs on
 * a memory layout, by the subspace formula and by simulating every instruction
 * through access.c; the bank view (the memory by bank, one simulated
 * instruction per side); the optimal memory layout; conversions from and to CuTe,
 * Triton swizzled_shared and NVMMA.  Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_LINEAR_H
#define SZ_LINEAR_H

#include <stdint.h>

#include "access.h"
#include "error.h"
#include "instr.h"

#define LIN_MAX_BITS 24     /* tile elements <= 2^24: byte offsets stay below 2^31 */
#define LIN_MAX_BASES 32    /* bases per input dimension */
#define LIN_SIM_MAX 64      /* instructions simulated per side (all when fewer) */

/* An element [c0, c1] of a tile of shape [2^bits0, 2^bits1] is the bit vector
 * e = c0 * 2^bits1 + c1: its row-major index, dim1 in the low bits. */
struct lin_tile {
    int bits0, bits1;
};

enum lin_in { LIN_REGISTER, LIN_LANE, LIN_WARP, LIN_NIN };

/* A distributed layout: input bit i of dimension `in` moves the element by
 * basis[in][i] (XOR); 0 is a broadcast. */
struct lin_layout {
    int n[LIN_NIN];
    uint32_t basis[LIN_NIN][LIN_MAX_BASES];
};

/* A shared-memory layout: the element stored at offset 2^k is basis[k]
 * (offsets count elements); a bijection has n == tile bits and full rank. */
struct lin_mem {
    int n;
    uint32_t basis[LIN_MAX_BITS];
};

/* A store layout A, a load layout B, the element and the banks. */
struct lin_problem {
    struct lin_tile tile;
    int bitwidth;           /* 4, 8, 16, 32 or 64 */
    int num_banks;          /* 8..128, power of two; 4-byte banks (32 or 64 for 64 lanes) */
    int lanes;              /* 0 or 32: an NVIDIA warp; 64: an AMD wave (published rules) */
    struct lin_layout a, b;
};

/* The lanes one phase serves (linear_hw.c): phase 0 is the span of lane[]
 * (lane-index vectors, bit i = lane bit i), the other phases its cosets. */
struct lin_phase {
    int n, lane_bits;
    uint32_t lane[6];
    int published;          /* 1: a published rule, not measured here */
    const char *rule;       /* the rule in words */
    const char *source;     /* where it was measured or published */
};

/* "published, not measured here": the status of every AMD answer. */
extern const char *const lin_published;

/* One side (A's stores or B's loads) of an evaluation, per warp instruction. */
struct lin_side {
    uint32_t wavefronts;        /* simulated through acc_cost: the most over those simulated */
    uint32_t wavefronts_min;    /* the fewest: equal to wavefronts (linearity) */
    uint32_t formula;           /* phases x 2^conflict_dim: the exact subspace formula */
    uint32_t lemma;             /* phases x 2^lemma_dim: Lemma 9.4 on element space */
    uint32_t lower_bound;       /* phases: one wavefront each, no conflict */
    int conflict_dim, lemma_dim;
    int undercounts;            /* lemma < wavefronts (sub-word or in-vector lane bits) */
    uint32_t bytes;             /* bytes per lane access */
    uint32_t lanes_per_phase, phases;
    int paired;                 /* a load whose lane pairs share addresses (access.c rule 3) */
    uint32_t instructions, simulated;
    uint64_t worst;             /* a simulated instruction costing `wavefronts` (the first) */
    int n_conflict;             /* a basis of the conflict directions, as elements */
    uint32_t conflict[LIN_MAX_BITS];
    struct lin_phase phase;     /* the phase rule used (pairing included) */
    int n_seg, n_thr;           /* the lemma's spans, as elements: M_Seg and one */
    uint32_t seg[LIN_MAX_BITS]; /* phase's lane directions (seed 001 sec. 05) */
    uint32_t thr[8];
};

/* The optimal memory layout and how it was built. */
struct lin_opt {
    struct lin_mem mem;
    int vec_bits, fill_bits, bank_bits, seg_bits;   /* offset bits, low to high */
    int n_shared, n_pairs, n_free, n_pad;           /* I, pairs e^f, C, padding used */
    int conflict_free;                              /* no padding was needed */
};

/* The element of [c0, c1]; its coordinates. */
uint32_t lin_elem(const struct lin_tile *t, uint32_t c0, uint32_t c1);
void lin_coords(const struct lin_tile *t, uint32_t e, uint32_t *c0, uint32_t *c1);

/* Validate a layout on the tile: every basis inside it, lane_bits lane bases
 * (5: a 32-lane warp, 6: a 64-lane wave), every element reached.  `name`
 * ("A", "B") prefixes the field. */
int lin_layout_check(const struct lin_tile *t, const struct lin_layout *l, int lane_bits,
                     const char *name, struct sz_error *err);

/* Validate a memory layout: one basis per offset bit, a bijection.  Names `field`. */
int lin_mem_check(const struct lin_tile *t, const struct lin_mem *m, const char *field,
                  struct sz_error *err);

/* Cost A's stores and B's loads of 2^vec_bits elements per lane on memory layout
 * m: formula, Lemma 9.4 and up to sim_max simulated instructions per side.  The
 * vector (offsets 0..2^vec_bits-1) must lie in both register spans; names "vec". */
int lin_evaluate(const struct lin_problem *p, const struct lin_mem *m, int vec_bits,
                 uint32_t sim_max, struct lin_side *store, struct lin_side *load,
                 struct sz_error *err);

/* The construction of the issue (subspace form): vector = register spans'
 * intersection, word fill, protect shared lane directions, pair A-only with
 * B-only, complete with free directions, pad when needed, banks last. */
int lin_optimize(const struct lin_problem *p, struct lin_opt *out, struct sz_error *err);

/* ---- the bank view (what the workbench draws) --------------------------- */

/* The memory as banks see it: offset p (in elements) holds element
 * lin_elem_at(p), its first byte in bank lin_bank_of(p); elements narrower
 * than a bank word share it (per_bank), wider ones span banks (spanned). */
struct lin_banks {
    uint32_t per_bank;          /* elements per 4-byte bank word (1 from 32 bits up) */
    uint32_t spanned;           /* banks one element covers (2 for 64 bits, else 1) */
    uint32_t per_row;           /* elements per bank row (num_banks x 4 bytes) */
    uint32_t rows;              /* bank rows the tile fills (the last may be partial) */
};
void lin_bank_geom(const struct lin_problem *p, struct lin_banks *b);
uint32_t lin_elem_at(const struct lin_tile *t, const struct lin_mem *m, uint32_t offset);
uint32_t lin_bank_of(const struct lin_problem *p, uint32_t offset);

/* Instruction `idx` of one side (0: A's stores, 1: B's loads), exactly as
 * lin_evaluate simulated it: lane t's byte address addr[t] (room for 64; all
 * 2^lane_bits lanes active), *bytes per lane (the vector).  p, m and vec_bits
 * must have passed lin_evaluate and idx be below its `instructions` (its
 * `worst` is).  Returns the number of lanes, 32 or 64. */
uint32_t lin_side_addrs(const struct lin_problem *p, const struct lin_mem *m, int vec_bits,
                        int is_load, uint64_t idx, uint32_t *addr, uint32_t *bytes);

/* The same for a 32-lane warp as the ld or st access.c costs.  Fails on
 * "lanes_per_wavefront" for a 64-lane wave (lin_published_detail's). */
int lin_side_instr(const struct lin_problem *p, const struct lin_mem *m, int vec_bits,
                   int is_load, uint64_t idx, struct instr *in, struct sz_error *err);

/* The element slots an instruction touches (lane t at byte addr[t], `bytes`
 * each, in phase lane_phase[t]; -1: inactive): offset, the element stored
 * there, the phase of the lowest lane touching it and the mask of the lanes
 * that do; in order of that lowest lane.  Returns how many (at most
 * LIN_TOUCH_MAX: 64 lanes x 16 bytes of 4-bit elements). */
#define LIN_TOUCH_MAX (64 * 32)
struct lin_touch {
    uint32_t offset, elem;
    int phase;
    uint64_t lanes;
};
uint32_t lin_touched(const struct lin_problem *p, const struct lin_mem *m, const uint32_t *addr,
                     uint32_t nlanes, uint32_t bytes, const int *lane_phase,
                     struct lin_touch *out);

/* The swizzle page's view that draws such an instruction as it is: no
 * swizzle (Swizzle<0,m,3>, units of the access's `bytes`, 2^m = bytes), bank
 * rows as its rows (match_bank_row), p's banks, enough rows for the tile (at
 * most 2^20 cells; offsets past them still cost the same there). */
struct lin_plain {
    int b, m, s;
    uint32_t rows;
};
void lin_plain_view(const struct lin_problem *p, uint32_t bytes, struct lin_plain *v);

/* ---- hardware phases (linear_hw.c) ------------------------------------- */

/* 5 for a 32-lane warp, 6 for a 64-lane wave. */
int lin_lane_bits(const struct lin_problem *p);

/* The phase rule for accesses of `bytes` per lane (a load when is_load) on
 * p's hardware: NVIDIA (measured, access.c) or, for 64 lanes, AMD's published
 * tables (ds_read_b128 on MI300 / MI350, consecutive lanes otherwise). */
int lin_phase_rule(const struct lin_problem *p, uint32_t bytes, int is_load,
                   struct lin_phase *ph);

/* The phase of lane t: the canonical member of t's coset (0 for phase 0). */
uint32_t lin_phase_of(const struct lin_phase *ph, uint32_t t);

/* The lanes of phase 0, ascending, into out (room for 64); returns how many. */
uint32_t lin_phase_lanes(const struct lin_phase *ph, uint32_t *out);

/* Wavefronts of one instruction under a published rule: addr[t] is lane t's
 * byte address (all 2^lane_bits lanes active), `bytes` per lane. */
uint32_t lin_sim_published(const struct lin_phase *ph, int num_banks, const uint32_t *addr,
                           uint32_t bytes);

/* The same instruction lane by lane, as access.c details NVIDIA's: phases
 * numbered 0.. in order of their lowest lane, each lane's pass (0-based
 * wavefront of its phase), first bank and banks covered; per phase its lanes,
 * wavefronts and a bank holding the most words. */
struct lin_pub {
    uint32_t wavefronts, nphases, ways;
    int phase[64], pass[64];
    uint32_t bank[64], nbanks[64];
    uint64_t phase_mask[64];
    uint32_t phase_wf[64], phase_worst[64];
};
void lin_published_detail(const struct lin_phase *ph, int num_banks, const uint32_t *addr,
                          uint32_t bytes, struct lin_pub *d);

/* ---- conversions (linear_conv.c) ---------------------------------------- */

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
