/* linear.h - layouts as linear maps over F2, as Triton writes them: a
 * distributed layout (register, lane, warp bases) and a shared-memory layout
 * (offset bases) on a power-of-two 2D tile; what a (store, load) pair costs on
 * a memory layout, by the subspace formula and by simulating every instruction
 * through access.c; the bank view (the memory by bank, one simulated
 * instruction per side).  The phases are linear_hw.h's, the optimal layout
 * linear_opt.h's, the conversions linear_conv.h's.  Pure core: no I/O, no
 * allocation, no JSON. */
#ifndef SZ_LINEAR_H
#define SZ_LINEAR_H

#include <stdint.h>

#include "model/access.h"
#include "base/error.h"
#include "model/instr.h"
#include "linear_hw.h"

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

/* Validate a problem: the hardware (a 32-lane warp, or a 64-lane wave on 32
 * or 64 banks; names "lanes_per_wavefront" or "num_banks") and both layouts
 * (lin_layout_check, "A" and "B"). */
int lin_problem_check(const struct lin_problem *p, struct sz_error *err);

/* Cost A's stores and B's loads of 2^vec_bits elements per lane on memory layout
 * m: formula, Lemma 9.4 and up to sim_max simulated instructions per side.  The
 * vector (offsets 0..2^vec_bits-1) must lie in both register spans; names "vec". */
int lin_evaluate(const struct lin_problem *p, const struct lin_mem *m, int vec_bits,
                 uint32_t sim_max, struct lin_side *store, struct lin_side *load,
                 struct sz_error *err);

/* The geometry and phases lin_evaluate counts with, for the optimizer: the
 * offset bits that pick the banks above a side's unit (vector, or the 32-bit
 * word when narrower), and the element directions of phase 0's lanes of
 * layout l (pairing included) whose vector directions span `vec`, into dirs
 * (room for 8); returns how many. */
struct f2_span;
int lin_bank_bits(const struct lin_problem *p, int vec_bits);
int lin_phase_dirs(const struct lin_problem *p, const struct lin_layout *l, int is_load,
                   const struct f2_span *vec, int vec_bits, uint32_t *dirs);

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

#endif
