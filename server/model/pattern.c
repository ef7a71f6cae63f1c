/* pattern.c - the named access patterns as rows of data: instruction, steps
 * and per-lane logical offset, then the swizzle.  Pure; no I/O, no
 * allocation.  Adding a pattern is adding a row (and an offset function when
 * its shape is new); each shape's comment gives the kernel idiom it stands for. */
#include "pattern.h"

#include <string.h>

/* ---- shapes: steps and offsets ------------------------------------------ */

/* Rows walked front to back, the warp moving 32 x bytes consecutive bytes a
 * step (a coalesced tile copy). */
static uint32_t row_steps(const struct pattern *p, const struct pattern_tile *tile)
{
    return (uint32_t)((uint64_t)tile->row_bytes * tile->rows / (INSTR_LANES * p->bytes));
}

static uint32_t row_offset(const struct pattern *p, const struct pattern_tile *tile,
                           uint32_t t, uint32_t r)
{
    (void)tile;
    return r * INSTR_LANES * p->bytes + t * p->bytes;
}

/* Lane t reads chunk r of row t: a column walk.  Fewer than 32 rows: the
 * extra lanes re-read rows from the top, as a kernel with a short tile would
 * (they broadcast). */
static uint32_t col_steps(const struct pattern *p, const struct pattern_tile *tile)
{
    return tile->row_bytes / p->bytes;
}

static uint32_t col_offset(const struct pattern *p, const struct pattern_tile *tile,
                           uint32_t t, uint32_t r)
{
    return (t % tile->rows) * tile->row_bytes + r * p->bytes;
}

/* Seed 001's 16x32 transpose read: thread t reads (m = t%16, n = 2r + t/16). */
static uint32_t transpose_steps(const struct pattern *p, const struct pattern_tile *tile)
{
    return tile->row_bytes / (2 * p->bytes);
}

static uint32_t transpose_offset(const struct pattern *p, const struct pattern_tile *tile,
                                 uint32_t t, uint32_t r)
{
    return (t % 16) * tile->row_bytes + p->bytes * (2 * r + t / 16);
}

/* Four 8x8 b16 matrices side by side in 16-byte columns (seed 004): lane t
 * gives row t%8 of matrix t/8 (PTX); a step is one 8-row x 64-byte block,
 * blocks walked across a row first. */
static uint32_t matrix_steps(const struct pattern *p, const struct pattern_tile *tile)
{
    (void)p;
    return tile->row_bytes / 64 * (tile->rows / 8);
}

static uint32_t matrix_offset(const struct pattern *p, const struct pattern_tile *tile,
                              uint32_t t, uint32_t r)
{
    uint32_t kblocks = tile->row_bytes / 64, kb = r % kblocks, rb = r / kblocks;
    return (8 * rb + t % 8) * tile->row_bytes + p->bytes * (4 * kb + t / 8);
}

/* Shared-memory histograms of `bins` 4-byte counters from the tile's start,
 * 16 steps of one sample per lane.  Random: bin = a hash of (t, r) (murmur3's
 * finalizer), so lanes collide on addresses as real data does.  Adversarial:
 * bin = (32 t + r) mod bins, every lane in one bank: with 32 bins all on one
 * address (same-address serialization), with 256 on 8 words of one bank, 4
 * lanes each (a bank conflict and serialization together): 32 either way. */
static uint32_t hist_steps(const struct pattern *p, const struct pattern_tile *tile)
{
    return (uint64_t)tile->row_bytes * tile->rows >= 4ull * p->bins ? 16 : 0;
}

static uint32_t hist_random(const struct pattern *p, const struct pattern_tile *tile,
                            uint32_t t, uint32_t r)
{
    (void)tile;
    uint32_t h = t + 32 * r + 0x9e3779b9u;
    h ^= h >> 16, h *= 0x85ebca6bu, h ^= h >> 13, h *= 0xc2b2ae35u, h ^= h >> 16;
    return 4 * (h % p->bins);
}

static uint32_t hist_adversarial(const struct pattern *p, const struct pattern_tile *tile,
                                 uint32_t t, uint32_t r)
{
    (void)tile;
    return 4 * ((32 * t + r) % p->bins);
}

/* A warp-wide reduction: every lane adds into word r (one step per word of
 * the first bank row). */
static uint32_t reduce_steps(const struct pattern *p, const struct pattern_tile *tile)
{
    (void)p;
    uint64_t bytes = (uint64_t)tile->row_bytes * tile->rows;
    return bytes >= 128 ? 32 : (uint32_t)(bytes / 4);
}

static uint32_t reduce_offset(const struct pattern *p, const struct pattern_tile *tile,
                              uint32_t t, uint32_t r)
{
    (void)p, (void)tile, (void)t;
    return 4 * r;
}

/* The global side of a cp.async producer whose tile is a K-slice of a wider
 * row-major matrix: the tile's rows lie twice their width, rounded up to a
 * 128-byte line, apart in global memory, so no 128-byte global line holds
 * chunks of two tile rows (the lines decide the shared side's wavefronts,
 * access.c C1/C2).  The contiguous producers use row_offset: the tile dense
 * in global memory, as the shared tile's logical offsets. */
static uint32_t slice_global(const struct pattern *p, const struct pattern_tile *tile,
                             uint32_t t, uint32_t r)
{
    uint32_t o = row_offset(p, tile, t, r), pitch = 2 * ((tile->row_bytes + 127) / 128 * 128);
    return o / tile->row_bytes * pitch + o % tile->row_bytes;
}

/* ---- the patterns --------------------------------------------------------- */

/* The cp.async fields of a row that is no copy (unused). */
#define NOT_COPY 0, NULL
/* The func, type and bins of a row that is not an atomic (unused). */
#define NOT_ATOMIC INSTR_ADD, INSTR_U32, 0, 0, NOT_COPY
#define ADD_U32 INSTR_ADD, INSTR_U32
/* cp.async producers: the copy fields after the unused atomic ones */
#define COPY(CG, GLOBAL) INSTR_ADD, INSTR_U32, 0, 0, CG, GLOBAL

/* The atomic patterns, once for atom and once for red (P: the op's name; red
 * is what an atomicAdd whose result is dropped compiles to).  The histograms
 * and counters add the constant 1, as written (atomicAdd(&h[bin], 1)): red
 * then is ATOMS.POPC.INC.32, which merges lanes on one bin, and atom (the old
 * count used) ATOMS.ADD, which serializes them (atomic.c, A9; tests/data/
 * atomic_forms_*); the reduction adds each lane's own value. */
#define ATOMIC_PATTERNS(OP, P, HOW) \
    {P "_hist32_random", OP, 4, 1, hist_steps, hist_random, 0, 0, NULL, \
     P ".add.u32 of 1: a 32-bin histogram, each lane's bin random", \
     "a shared-memory histogram; lanes that draw one bin " HOW, ADD_U32, 32, 1, NOT_COPY}, \
    {P "_hist32_adversarial", OP, 4, 1, hist_steps, hist_adversarial, 0, 0, NULL, \
     P ".add.u32 of 1: a 32-bin histogram, every lane in one bin", \
     "a histogram of constant data: 32 lanes on one address", ADD_U32, 32, 1, NOT_COPY}, \
    {P "_hist256_random", OP, 4, 1, hist_steps, hist_random, 0, 0, NULL, \
     P ".add.u32 of 1: a 256-bin histogram, each lane's bin random", \
     "a shared-memory histogram with more bins than banks", ADD_U32, 256, 1, NOT_COPY}, \
    {P "_hist256_adversarial", OP, 4, 1, hist_steps, hist_adversarial, 0, 0, NULL, \
     P ".add.u32 of 1: a 256-bin histogram, 8 bins of one bank, 4 lanes each", \
     "bins 128 bytes apart: a bank conflict and same-address lanes at once", ADD_U32, 256, 1, NOT_COPY}, \
    {P "_reduce_one_word", OP, 4, 1, reduce_steps, reduce_offset, 0, 0, NULL, \
     P ".add.u32: every lane adds its own value into one word", \
     "a warp-wide reduction by atomics (a shuffle reduction avoids it)", ADD_U32, 0, 0, NOT_COPY}, \
    {P "_lane_counters", OP, 4, 1, row_steps, row_offset, 0, 0, NULL, \
     P ".add.u32 of 1: lane t bumps its own counter t", \
     "per-lane counters: no two lanes share a bank", ADD_U32, 0, 1, NOT_COPY}

#define TRANSPOSE_NEEDS "the transpose read walks 16 rows: use at least 16 grid rows"
#define MATRIX_NEEDS "four 8x8 b16 matrices need 8 rows of at least 64 bytes"

/* name, instruction, shape (steps, offsets, least tile), label, source */
static const struct pattern patterns[] = {
    {"row_store", INSTR_ST, 4, 1, row_steps, row_offset, 0, 0, NULL,
     "st.b32: the warp stores 128 consecutive bytes per step",
     "seed 001: the transpose's store, thread t holds column t", NOT_ATOMIC},
    {"row_store_128", INSTR_ST, 16, 1, row_steps, row_offset, 0, 0, NULL,
     "st.v4.b32: the warp stores 512 consecutive bytes per step, 16-byte chunks",
     "a tile copied from global memory in 16-byte row-major chunks (uint4 stores)", NOT_ATOMIC},
    {"col_read", INSTR_LD, 4, 1, col_steps, col_offset, 0, 0, NULL,
     "ld.b32: lane t reads word r of row t (a column walk)",
     "the classic column read that collides on row-major tiles", NOT_ATOMIC},
    {"transpose_read", INSTR_LD, 4, 1, transpose_steps, transpose_offset, 16, 0,
     TRANSPOSE_NEEDS, "ld.b32: 16x32 transpose read, lanes 0-15 column 2r, 16-31 column 2r+1",
     "seed 001: thread t reads (m = t%16, n = 2r + t/16)", NOT_ATOMIC},
    {"row_load_32", INSTR_LD, 4, 1, row_steps, row_offset, 0, 0, NULL,
     "ld.b32: 32-bit vector row load, 128 bytes per step", "coalesced tile read", NOT_ATOMIC},
    {"row_load_64", INSTR_LD, 8, 1, row_steps, row_offset, 0, 0, NULL,
     "ld.v2.b32: 64-bit vector row load, 256 bytes per step", "float2 tile read", NOT_ATOMIC},
    {"row_load_128", INSTR_LD, 16, 1, row_steps, row_offset, 0, 0, NULL,
     "ld.v4.b32: 128-bit vector row load, 512 bytes per step", "float4 / uint4 tile read",
     NOT_ATOMIC},
    {"col_read_128", INSTR_LD, 16, 1, col_steps, col_offset, 0, 0, NULL,
     "ld.v4.b32: lane t reads 16-byte chunk r of row t",
     "a 16-byte column walk, as cp.async tile copies and epilogues do", NOT_ATOMIC},
    {"ldmatrix_x4", INSTR_LDMATRIX, 16, 4, matrix_steps, matrix_offset, 8, 64, MATRIX_NEEDS,
     "ldmatrix.x4: four 8x8 b16 matrices side by side in 16-byte columns",
     "seed 004: the tensor-core fragment load", NOT_ATOMIC},
    {"stmatrix_x4", INSTR_STMATRIX, 16, 4, matrix_steps, matrix_offset, 8, 64, MATRIX_NEEDS,
     "stmatrix.x4: the same four matrices stored", "Hopper epilogue store", NOT_ATOMIC},
    /* cp.async producers (the write side of an Ampere-style pipeline: each
     * lane copies one 16-byte chunk of the tile, row-major, into its swizzled
     * place; costed by access.c C1 / C2, measured in tests/data/cp_async_*) */
    {"cp_async_ca_row_16", INSTR_CP_ASYNC, 16, 1, row_steps, row_offset, 0, 0, NULL,
     "cp.async.ca 16 B: lane t copies 16-byte chunk t of 512 consecutive tile bytes per step",
     "seed 004's producer: a tile copied global -> shared in 16-byte row-major chunks, the "
     "global tile dense", COPY(0, row_offset)},
    {"cp_async_cg_row_16", INSTR_CP_ASYNC, 16, 1, row_steps, row_offset, 0, 0, NULL,
     "cp.async.cg 16 B (L2 only): the same chunks, bypassing L1",
     "seed 004's producer through CUTLASS's SM80_CP_ASYNC_CACHEGLOBAL copy atom, the "
     "global tile dense", COPY(1, row_offset)},
    {"cp_async_ca_slice_16", INSTR_CP_ASYNC, 16, 1, row_steps, row_offset, 0, 0, NULL,
     "cp.async.ca 16 B: the same chunks, the tile's rows apart in a wider global matrix",
     "a K-slice of a row-major matrix: each 128-byte global line holds one tile row's chunks",
     COPY(0, slice_global)},
    {"cp_async_cg_slice_16", INSTR_CP_ASYNC, 16, 1, row_steps, row_offset, 0, 0, NULL,
     "cp.async.cg 16 B: the K-slice copy, bypassing L1",
     "a K-slice of a row-major matrix copied with .cg", COPY(1, slice_global)},
    /* shared-memory atomics (tests/data/atomics_*.json measures their shapes) */
    ATOMIC_PATTERNS(INSTR_ATOM, "atom", "serialize (ATOMS.ADD: the old count is used)"),
    ATOMIC_PATTERNS(INSTR_RED, "red", "merge (ATOMS.POPC.INC.32: the result is dropped)"),
};

const struct pattern *pattern_list(int *n)
{
    *n = (int)(sizeof patterns / sizeof patterns[0]);
    return patterns;
}

const struct pattern *pattern_find(const char *name)
{
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
        if (strcmp(patterns[i].name, name) == 0)
            return &patterns[i];
    return NULL;
}

int pattern_fill(const char *name, const struct swz *z, uint32_t row_bytes, uint32_t rows,
                 uint32_t step, struct instr *in, uint32_t *steps,
                 struct sz_error *err)
{
    const struct pattern *p = pattern_find(name);
    if (p == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "pattern",
                       "unknown pattern: see GET /api/patterns for the list");
    struct pattern_tile tile = {row_bytes, rows};
    if (rows < p->min_rows || row_bytes < p->min_row_bytes)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "rows", "%s",
                       p->needs ? p->needs : "the tile is too small for this pattern");
    uint32_t R = p->steps(p, &tile);
    if (R == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "rows",
                       "the tile (%u rows of %u bytes) is too small for one step of %s",
                       rows, row_bytes, name);
    if (step >= R)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "step",
                       "must be in 0..%u for %s on this tile, got %u", R - 1, name, step);
    /* a caller's instruction may hold an earlier kind's fields (guard, .cg,
     * global offsets): only the bank geometry is kept */
    uint32_t bank_bytes = in->bank_bytes, banks = in->banks;
    instr_defaults(in, p->op);
    in->bank_bytes = bank_bytes;
    in->banks = banks;
    in->bytes = p->bytes;
    in->matrices = p->matrices;
    in->func = p->func;
    in->type = p->type;
    in->value_kind = p->adds_one ? INSTR_VALUE_CONST : INSTR_VALUE_LANE;
    in->value = p->adds_one ? 1 : 0;
    in->cg = p->cg;
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        in->offsets[t] = swz_apply(z, p->offset(p, &tile, t, step));
        in->global_offsets[t] = p->global ? p->global(p, &tile, t, step) : 0;
    }
    *steps = R;
    return 0;
}
