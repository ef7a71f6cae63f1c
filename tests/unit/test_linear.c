/* test_linear.c - the F2 layout core: seed 001's transpose (16 / 2 / 1
 * wavefronts, the store always 1, the optimum 32m + (n ^ 2m)), its toggle
 * grid swept with formula = simulation, random layout pairs optimized to the
 * lower bound, Triton's own swizzle cases (tests/unit/linear_triton.h), the
 * conversions against bit-by-bit oracles, validation, the bank view (the
 * instruction drawn is the one costed, its cells and banks), and the API routes
 * (tests/data/api_linear_cases.json; the bank view against /api/access).
 * SWZ_FULL_SWEEP=1: all 2^20 toggles. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "linear/f2.h"
#include "linear/linear.h"
#include "linear/linear_conv.h"
#include "linear/linear_opt.h"
#include "model/swizzle.h"
#include "check.h"
#include "client.h"
#include "linear_triton.h"

static uint64_t rng = 0x853c49e6748fea9bull;

/* PCG's LCG step, upper bits: seeded, so every run draws the same pairs. */
static uint32_t rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}

static const struct lin_tile seed_tile = {4, 5};   /* 16 x 32: m = dim0, n = dim1 */

/* Seed 001 sec. 01: the store writes row r with thread t at (r, t); the read
 * gives thread t the element (t % 16, 2r + t / 16). */
static void seed_problem(struct lin_problem *p)
{
    memset(p, 0, sizeof *p);
    p->tile = seed_tile;
    p->bitwidth = 32;
    p->num_banks = 32;
    for (int i = 0; i < 4; i++) {
        p->a.basis[LIN_REGISTER][i] = lin_elem(&seed_tile, 1u << i, 0);
        p->b.basis[LIN_REGISTER][i] = lin_elem(&seed_tile, 0, 2u << i);
        p->b.basis[LIN_LANE][i] = lin_elem(&seed_tile, 1u << i, 0);
    }
    for (int i = 0; i < 5; i++)
        p->a.basis[LIN_LANE][i] = lin_elem(&seed_tile, 0, 1u << i);
    p->b.basis[LIN_LANE][4] = lin_elem(&seed_tile, 0, 1);
    p->a.n[LIN_REGISTER] = p->b.n[LIN_REGISTER] = 4;
    p->a.n[LIN_LANE] = p->b.n[LIN_LANE] = 5;
}

/* The workbench's memory layout: offset 32m + (n ^ mask(m)), mask(m) the XOR
 * of col_mask[i] over the set row bits i.  Offset bit 5 + i holds the element
 * (2^i, col_mask[i]); offset bits 0..4 hold (0, 2^j). */
static void seed_mem(const uint32_t col_mask[4], struct lin_mem *m)
{
    m->n = 9;
    for (int j = 0; j < 5; j++)
        m->basis[j] = lin_elem(&seed_tile, 0, 1u << j);
    for (int i = 0; i < 4; i++)
        m->basis[5 + i] = lin_elem(&seed_tile, 1u << i, col_mask[i]);
}

static void test_seed(void)
{
    struct lin_problem p;
    struct lin_side st, ld;
    struct lin_mem m;
    struct sz_error err;
    seed_problem(&p);
    static const struct {
        uint32_t mask[4];
        uint32_t load;
    } rows[] = {
        {{0, 0, 0, 0}, 16},     /* row-major: a column is one bank */
        {{1, 2, 4, 8}, 2},      /* n ^ m: the column pair doubles up */
        {{2, 4, 8, 16}, 1},     /* n ^ 2m: conflict-free both ways */
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        seed_mem(rows[k].mask, &m);
        int rc = lin_evaluate(&p, &m, 0, LIN_SIM_MAX, &st, &ld, &err);
        CHECK(rc == 0, "seed %zu: %s", k, err.message);
        CHECK(ld.wavefronts == rows[k].load && ld.formula == rows[k].load &&
                  ld.lemma == rows[k].load && ld.wavefronts_min == rows[k].load,
              "seed %zu load: sim %u formula %u lemma %u, want %u", k, ld.wavefronts,
              ld.formula, ld.lemma, rows[k].load);
        CHECK(st.wavefronts == 1 && st.formula == 1, "seed %zu store: %u", k, st.wavefronts);
        CHECK(ld.instructions == 16 && ld.simulated == 16 && st.instructions == 16,
              "16 register steps each side");
    }
    struct lin_opt o;
    CHECK(lin_optimize(&p, &o, &err) == 0, "optimize: %s", err.message);
    /* offset = 32m + (n ^ 2m): offset bit j < 5 holds (0, 2^j); bit 5 + i
     * holds m = 2^i with n = 2^(i+1) (seed 001 sec. 06) */
    uint32_t want[4] = {2, 4, 8, 16};
    seed_mem(want, &m);
    CHECK(o.mem.n == 9 && memcmp(o.mem.basis, m.basis, 9 * sizeof m.basis[0]) == 0,
          "optimum is 32m + (n ^ 2m)");
    CHECK(o.vec_bits == 0 && o.bank_bits == 5 && o.seg_bits == 4 && o.n_shared == 1 &&
              o.n_pairs == 4 && o.n_free == 0 && o.conflict_free,
          "construction: vec %d bank %d seg %d I %d pairs %d free %d", o.vec_bits, o.bank_bits,
          o.seg_bits, o.n_shared, o.n_pairs, o.n_free);
    int b, mb, s;
    CHECK(lin_to_cute(&p.tile, 32, &o.mem, &b, &mb, &s) && b == 4 && mb == 3 && s == 4,
          "optimum as CuTe: Swizzle<4,3,4> (tests/api_cases.h: n ^ 2m)");
}

/* Seed 001 sec. 05: the lemma holds for every one of the 2^20 toggle grids.
 * Under ASan the simulation takes ~4 us an instruction, so make test walks
 * every configuration of row bits 0..2 (2^15) and a stride through the rest;
 * SWZ_FULL_SWEEP=1 (tests/README: make linear-sweep) walks all 2^20. */
static void test_seed_sweep(void)
{
    struct lin_problem p;
    struct lin_side st, ld;
    struct lin_mem m;
    struct sz_error err;
    seed_problem(&p);
    const char *full = getenv("SWZ_FULL_SWEEP");
    uint32_t step = full && *full == '1' ? 1 : 31, n = 0, fails = 0;
    int f = 0;
    uint32_t hist[17] = {0};
    for (uint32_t cfg = 0; cfg < (1u << 20); cfg += (cfg < (1u << 15) ? 1 : step)) {
        uint32_t mask[4];
        for (int i = 0; i < 4; i++)
            mask[i] = cfg >> (5 * i) & 31;
        seed_mem(mask, &m);
        if (lin_evaluate(&p, &m, 0, 1, &st, &ld, &err) < 0) {
            fails++;
            continue;
        }
        n++;
        if (ld.wavefronts <= 16)
            hist[ld.wavefronts]++;
        if (ld.formula != ld.wavefronts || ld.lemma != ld.wavefronts || st.wavefronts != 1 ||
            st.formula != 1 || st.lemma != 1) {
            fails++;
            CHECK_QUIET(f, 0, "toggles %05x: load sim %u formula %u lemma %u", cfg,
                        ld.wavefronts, ld.formula, ld.lemma);
        }
    }
    CHECK(fails == 0, "seed sweep: %u of %u configurations disagree", fails, n);
    printf("seed sweep: %u toggle configurations, formula = lemma = simulation; load "
           "wavefronts 1:%u 2:%u 4:%u 8:%u 16:%u\n", n, hist[1], hist[2], hist[4], hist[8],
           hist[16]);
}

/* ---- random pairs ------------------------------------------------------- */

/* A random layout of 2^d elements: a random basis of F2^d (unit vectors
 * permuted, or mixed), dealt out to nl lane bits, registers and warps, with
 * broadcast (zero) lanes and warps mixed in. */
static void random_layout(int d, int nl, int mixed, uint32_t reg0, struct lin_layout *l)
{
    uint32_t v[LIN_MAX_BITS];
    struct f2_span s;
    int n = 0;
    f2_span_clear(&s);
    if (reg0)   /* a register direction to share with the other side */
        v[n++] = reg0, f2_span_add(&s, reg0);
    while (n < d) {
        uint32_t x = mixed ? rnd() & ((1u << d) - 1) : 1u << (rnd() % (uint32_t)d);
        if (f2_span_add(&s, x))
            v[n++] = x;
    }
    memset(l, 0, sizeof *l);
    int used = 0;
    if (reg0)
        l->basis[LIN_REGISTER][l->n[LIN_REGISTER]++] = v[used++];
    for (int i = 0; i < nl; i++)
        l->basis[LIN_LANE][i] = (rnd() % 6 == 0 || used == d) ? 0 : v[used++];
    l->n[LIN_LANE] = nl;
    int nw = used < d ? (int)(rnd() % (uint32_t)(d - used + 1)) : 0;
    if (nw > 3)
        nw = 3;
    int nr = d - used - nw;
    for (int i = 0; i < nr; i++)
        l->basis[LIN_REGISTER][l->n[LIN_REGISTER]++] = v[used++];
    for (int i = 0; i < nw; i++) {
        if (rnd() % 4 == 0)
            l->basis[LIN_WARP][l->n[LIN_WARP]++] = 0;
        l->basis[LIN_WARP][l->n[LIN_WARP]++] = v[used++];
    }
}

/* A random (store, load) problem on 2^d elements: the tile's d bits split at
 * random, `bitwidth` elements, `banks` banks, `lanes` lanes a wave (5 or 6
 * lane bits); 4-bit elements get a register direction both sides share (no
 * sub-byte access).  iter picks which sides are mixed bases. */
static void random_problem(int d, int bitwidth, int banks, int lanes, int iter,
                           struct lin_problem *p)
{
    memset(p, 0, sizeof *p);
    p->tile.bits0 = (int)(rnd() % (uint32_t)(d + 1));
    p->tile.bits1 = d - p->tile.bits0;
    p->bitwidth = bitwidth;
    p->num_banks = banks;
    if (lanes == 64)
        p->lanes = 64;
    int nl = lanes == 64 ? 6 : 5;
    uint32_t r0 = bitwidth == 4 ? 1u << (rnd() % (uint32_t)d) : 0;
    random_layout(d, nl, iter % 3 != 0, r0, &p->a);
    random_layout(d, nl, iter % 4 != 0, r0, &p->b);
}

static void test_random_pairs(void)
{
    static const int widths[5] = {4, 8, 16, 32, 64};
    int pairs = 0, bound = 0, bijective = 0, vector_kept = 0, agree = 0, flagged = 0, f = 0;
    for (int iter = 0; iter < 600; iter++) {
        struct lin_problem p;
        struct sz_error err;
        int d = 6 + (int)(rnd() % 9);
        random_problem(d, widths[iter % 5], iter % 2 ? 64 : 32, 32, iter, &p);
        struct lin_opt o;
        if (lin_optimize(&p, &o, &err) < 0) {
            CHECK_QUIET(f, p.bitwidth == 4, "optimize refused %d-bit: %s", p.bitwidth,
                        err.message);
            continue;
        }
        pairs++;
        bijective += lin_mem_check(&p.tile, &o.mem, "m", NULL) == 0;
        uint32_t inter[32];
        int vmax = 0;
        while ((p.bitwidth << (vmax + 1)) <= 128)
            vmax++;
        int vd = f2_intersect(p.a.basis[LIN_REGISTER], p.a.n[LIN_REGISTER],
                              p.b.basis[LIN_REGISTER], p.b.n[LIN_REGISTER], inter);
        vector_kept += o.vec_bits == (vd < vmax ? vd : vmax);
        struct lin_side st, ld;
        if (lin_evaluate(&p, &o.mem, o.vec_bits, LIN_SIM_MAX, &st, &ld, &err) < 0) {
            CHECK_QUIET(f, 0, "evaluate the optimum: %s: %s", err.field, err.message);
            continue;
        }
        bound += st.wavefronts == st.lower_bound && ld.wavefronts == ld.lower_bound;
        agree += st.formula == st.wavefronts && ld.formula == ld.wavefronts &&
                 st.wavefronts_min == st.wavefronts && ld.wavefronts_min == ld.wavefronts;
        flagged += st.undercounts || ld.undercounts;
        CHECK_QUIET(f, st.wavefronts == st.lower_bound && ld.wavefronts == ld.lower_bound,
                    "iter %d (w %d, banks %d, d %d): store %u/%u load %u/%u", iter, p.bitwidth,
                    p.num_banks, d, st.wavefronts, st.lower_bound, ld.wavefronts,
                    ld.lower_bound);
    }
    CHECK(bound == pairs && bijective == pairs && vector_kept == pairs && agree == pairs,
          "random pairs: %d optimized, %d at the bound, %d bijective, %d vector kept, %d agree",
          pairs, bound, bijective, vector_kept, agree);
    printf("random pairs: %d optimized; %d at the lower bound, %d bijections, %d keep the "
           "vector width, %d formula = simulation, %d flag the lemma's undercount\n", pairs,
           bound, bijective, vector_kept, agree, flagged);
}

/* Where Lemma 9.4 on element space undercounts: 8-bit elements on a row-major
 * 32x32 tile (rows of 8 words, a bank row every 4 rows), lane 0 steps 4 rows
 * and one byte: a new word in the same bank, which the element-space
 * intersection misses (lane 0 is no segment vector) and the word-space
 * formula and the simulation count: 2 wavefronts, lemma 1, flagged. */
static void test_undercount(void)
{
    struct lin_problem p;
    struct lin_mem m = {.n = 10};
    struct lin_side st, ld;
    struct sz_error err;
    memset(&p, 0, sizeof p);
    p.tile = (struct lin_tile){5, 5};
    p.bitwidth = 8;
    p.num_banks = 32;
    static const uint32_t lane[5][2] = {{4, 1}, {0, 4}, {0, 8}, {0, 16}, {1, 0}};
    static const uint32_t reg[5][2] = {{0, 1}, {0, 2}, {2, 0}, {8, 0}, {16, 0}};
    for (int i = 0; i < 5; i++) {
        p.a.basis[LIN_LANE][i] = lin_elem(&p.tile, lane[i][0], lane[i][1]);
        p.a.basis[LIN_REGISTER][i] = lin_elem(&p.tile, reg[i][0], reg[i][1]);
    }
    p.a.n[LIN_LANE] = p.a.n[LIN_REGISTER] = 5;
    p.b = p.a;
    for (int k = 0; k < 10; k++)
        m.basis[k] = 1u << k;
    CHECK(lin_evaluate(&p, &m, 0, LIN_SIM_MAX, &st, &ld, &err) == 0, "%s", err.message);
    CHECK(st.wavefronts == 2 && st.formula == 2 && st.lemma == 1 && st.undercounts &&
              ld.wavefronts == 2 && ld.undercounts,
          "undercount: sim %u formula %u lemma %u flag %d", st.wavefronts, st.formula,
          st.lemma, st.undercounts);
}

static void to_layout(const struct lin_tile *t, const struct tl_layout *s, struct lin_layout *l)
{
    memset(l, 0, sizeof *l);
    const int n[3] = {s->nr, s->nl, s->nw};
    const int (*v[3])[2] = {s->reg, s->lane, s->warp};
    for (int in = 0; in < 3; in++) {
        l->n[in] = n[in];
        for (int i = 0; i < n[in]; i++)
            l->basis[in][i] = lin_elem(t, (uint32_t)v[in][i][0], (uint32_t)v[in][i][1]);
    }
}

/* Optimize Triton case c on `lanes`-lane hardware and evaluate the optimum:
 * it must be at the lower bound both ways with formula = simulation (and,
 * for 64 lanes, costed by the published rules).  Prints the numbers. */
static void run_triton_case(const struct tl_case *c, int lanes)
{
    struct lin_problem p;
    struct lin_opt o;
    struct lin_side st, ld;
    struct sz_error err;
    memset(&p, 0, sizeof p);
    p.tile.bits0 = __builtin_ctz((unsigned)c->shape[0]);
    p.tile.bits1 = __builtin_ctz((unsigned)c->shape[1]);
    p.bitwidth = c->bitwidth;
    p.num_banks = c->banks;
    p.lanes = lanes;
    to_layout(&p.tile, &c->src, &p.a);
    to_layout(&p.tile, &c->dst, &p.b);
    int ok = lin_optimize(&p, &o, &err) == 0 &&
             lin_evaluate(&p, &o.mem, o.vec_bits, LIN_SIM_MAX, &st, &ld, &err) == 0;
    CHECK(ok, "%s: %s", c->name, err.message);
    if (!ok)
        return;
    CHECK(st.wavefronts == st.lower_bound && ld.wavefronts == ld.lower_bound &&
              st.formula == st.wavefronts && ld.formula == ld.wavefronts &&
              st.phase.published == (lanes == 64) && ld.phase.published == (lanes == 64),
          "%s: store %u (bound %u), load %u (bound %u)", c->name, st.wavefronts,
          st.lower_bound, ld.wavefronts, ld.lower_bound);
    printf("triton %s (%d lanes, %d banks%s): vector %d elements, store %u, load %u wavefronts "
           "per instruction (both at the bound)\n", c->name, lanes, c->banks,
           lanes == 64 ? ", published rules" : "", 1 << o.vec_bits, st.wavefronts, ld.wavefronts);
}

/* Triton's cases: the optimum is conflict-free both ways (tests/unit/linear_triton.h). */
static void test_triton_cases(void)
{
    for (size_t k = 0; k < sizeof triton_cases / sizeof triton_cases[0]; k++)
        run_triton_case(&triton_cases[k], 32);
}

/* ---- 64-lane waves: AMD's published phase rules (server/linear/linear_hw.c) ---- */

/* The ds_read_b128 phase tables as triton-lang/triton PR #11365 lists them:
 * each phase is runs of 4 consecutive lanes starting at these lanes. */
static const struct {
    int banks, phases, runs;
    int start[8][4];
} b128_tables[] = {
    {32, 8, 2, {{0, 20}, {32, 52}, {4, 16}, {36, 48}, {8, 28}, {40, 60}, {12, 24}, {44, 56}}},
    {64, 4, 4, {{0, 12, 20, 24}, {32, 44, 52, 56}, {4, 8, 16, 28}, {36, 40, 48, 60}}},
};

/* Phase of each lane, from the published lists: the oracle. */
static void table_phases(int k, int *phase_of)
{
    for (int ph = 0; ph < b128_tables[k].phases; ph++)
        for (int r = 0; r < b128_tables[k].runs; r++)
            for (int i = 0; i < 4; i++)
                phase_of[b128_tables[k].start[ph][r] + i] = ph;
}

/* Wavefronts of one instruction, phases given lane by lane: per phase the
 * most distinct words in one bank (a shared word counts once). */
static uint32_t oracle_cost(const int *phase_of, int nphase, int banks, const uint32_t *addr,
                            uint32_t bytes)
{
    uint32_t total = 0, words = bytes < 4 ? 1 : bytes / 4;
    for (int ph = 0; ph < nphase; ph++) {
        uint32_t worst = 0;
        for (int b = 0; b < banks; b++) {
            uint32_t seen[256], n = 0;
            for (int t = 0; t < 64; t++) {
                if (phase_of[t] != ph)
                    continue;
                for (uint32_t k = 0; k < words; k++) {
                    uint32_t w = addr[t] / 4 + k, dup = 0;
                    if ((int)(w % (uint32_t)banks) != b)
                        continue;
                    for (uint32_t j = 0; j < n; j++)
                        dup |= seen[j] == w;
                    if (!dup)
                        seen[n++] = w;
                }
            }
            if (n > worst)
                worst = n;
        }
        total += worst;
    }
    return total;
}

static void test_wave64_rules(void)
{
    struct lin_problem p;
    struct lin_phase ph;
    int f = 0;
    memset(&p, 0, sizeof p);
    p.lanes = 64;
    for (int k = 0; k < 2; k++) {
        int want[64];
        p.num_banks = b128_tables[k].banks;
        table_phases(k, want);
        lin_phase_rule(p.lanes, p.num_banks, 16, 1, &ph);
        CHECK(ph.published && ph.lane_bits == 6 && (64 >> ph.n) == b128_tables[k].phases,
              "%d banks: ds_read_b128 has %d phases, published", p.num_banks,
              b128_tables[k].phases);
        /* two lanes share a phase in the rule iff they do in the table */
        for (int a = 0; a < 64; a++)
            for (int b = 0; b < 64; b++)
                CHECK_QUIET(f, (lin_phase_of(&ph, (uint32_t)a) == lin_phase_of(&ph, (uint32_t)b)) ==
                                   (want[a] == want[b]),
                            "%d banks: lanes %d, %d", p.num_banks, a, b);
        /* the simulator against the oracle on random addresses */
        for (int iter = 0; iter < 300; iter++) {
            uint32_t addr[64], span = 1u << (6 + rnd() % 8);
            for (int t = 0; t < 64; t++)
                addr[t] = (rnd() % span) * 16;
            uint32_t got = lin_sim_published(&ph, p.num_banks, addr, 16);
            uint32_t exp = oracle_cost(want, b128_tables[k].phases, p.num_banks, addr, 16);
            CHECK_QUIET(f, got == exp, "%d banks, b128: sim %u, oracle %u", p.num_banks, got, exp);
        }
    }
    /* everything else: phases of banks x 4 bytes of consecutive lanes */
    static const struct { int banks, bytes, is_load, lanes_per_phase; } contig[] = {
        {32, 16, 0, 8}, {64, 16, 0, 16}, {32, 8, 1, 16}, {64, 8, 1, 32}, {32, 4, 1, 32},
        {64, 4, 0, 64}, {32, 2, 1, 32}, {64, 1, 0, 64},
    };
    for (size_t k = 0; k < sizeof contig / sizeof contig[0]; k++) {
        int want[64];
        p.num_banks = contig[k].banks;
        lin_phase_rule(p.lanes, p.num_banks, (uint32_t)contig[k].bytes, contig[k].is_load, &ph);
        for (int t = 0; t < 64; t++)
            want[t] = t / contig[k].lanes_per_phase;
        CHECK_QUIET(f, ph.published && (1 << ph.n) == contig[k].lanes_per_phase,
                    "%d banks, %d bytes: %d lanes a phase, got %d", contig[k].banks,
                    contig[k].bytes, contig[k].lanes_per_phase, 1 << ph.n);
        for (int iter = 0; iter < 100; iter++) {
            uint32_t addr[64], span = 1u << (4 + rnd() % 10);
            for (int t = 0; t < 64; t++)
                addr[t] = (rnd() % span) * (uint32_t)contig[k].bytes;
            uint32_t got = lin_sim_published(&ph, p.num_banks, addr, (uint32_t)contig[k].bytes);
            uint32_t exp = oracle_cost(want, 64 / contig[k].lanes_per_phase, p.num_banks, addr,
                                       (uint32_t)contig[k].bytes);
            CHECK_QUIET(f, got == exp, "%d banks, %d bytes: sim %u, oracle %u",
                        contig[k].banks, contig[k].bytes, got, exp);
        }
    }
    /* 32 lanes stay NVIDIA's measured rule */
    p.lanes = 32;
    p.num_banks = 32;
    lin_phase_rule(p.lanes, p.num_banks, 16, 1, &ph);
    CHECK(!ph.published && ph.n == 3 && ph.lane[2] == 4, "32 lanes: 8 consecutive lanes, measured");
    CHECK(f == 0, "wave64 rules: %d disagreements with the published tables", f);
}

/* Triton's wave64 cases (tests/unit/linear_triton.h) under the published rules. */
static void test_triton_wave64(void)
{
    for (size_t k = 0; k < sizeof triton_cases_wave64 / sizeof triton_cases_wave64[0]; k++)
        run_triton_case(&triton_cases_wave64[k], 64);
}

/* Random pairs on 64-lane waves (32 and 64 banks, 4- to 64-bit elements):
 * the optimum is a bijection at the lower bound of the published rules, and
 * the formula equals their simulation. */
static void test_random_wave64(void)
{
    static const int widths[5] = {4, 8, 16, 32, 64};
    int pairs = 0, good = 0, b128 = 0, f = 0;
    for (int iter = 0; iter < 400; iter++) {
        struct lin_problem p;
        struct lin_opt o;
        struct lin_side st, ld;
        struct sz_error err;
        int d = 7 + (int)(rnd() % 8);
        random_problem(d, widths[iter % 5], iter % 2 ? 64 : 32, 64, iter, &p);
        if (lin_optimize(&p, &o, &err) < 0) {
            CHECK_QUIET(f, p.bitwidth == 4, "wave64 optimize refused %d-bit: %s", p.bitwidth,
                        err.message);
            continue;
        }
        pairs++;
        if (lin_mem_check(&p.tile, &o.mem, "m", NULL) < 0 ||
            lin_evaluate(&p, &o.mem, o.vec_bits, LIN_SIM_MAX, &st, &ld, &err) < 0) {
            CHECK_QUIET(f, 0, "wave64 iter %d: not a bijection or not evaluated", iter);
            continue;
        }
        b128 += ld.bytes == 16;
        int ok = st.wavefronts == st.lower_bound && ld.wavefronts == ld.lower_bound &&
                 st.formula == st.wavefronts && ld.formula == ld.wavefronts &&
                 st.wavefronts_min == st.wavefronts && ld.wavefronts_min == ld.wavefronts;
        good += ok;
        CHECK_QUIET(f, ok, "wave64 iter %d (w %d, banks %d, d %d): store %u/%u f %u, load %u/%u f %u",
                    iter, p.bitwidth, p.num_banks, d, st.wavefronts, st.lower_bound, st.formula,
                    ld.wavefronts, ld.lower_bound, ld.formula);
    }
    CHECK(good == pairs && pairs > 300, "wave64 random pairs: %d of %d at the bound", good, pairs);
    printf("wave64 random pairs: %d optimized (%d through ds_read_b128), %d at the lower bound "
           "with formula = simulation (published rules)\n", pairs, b128, good);
}

/* Offset bases name, for offset o, the element M o; the oracle below
 * computes each layout's element -> offset map from its own definition,
 * element by element, and checks M (offset(e)) == e for every element. */
static uint32_t mem_apply(const struct lin_mem *m, uint32_t o)
{
    uint32_t e = 0;
    for (int k = 0; k < m->n; k++)
        if (o >> k & 1)
            e ^= m->basis[k];
    return e;
}

static void test_conversions(void)
{
    int f = 0, n = 0;
    struct lin_tile t = {5, 6};     /* 32 x 64 */
    struct lin_mem m;
    for (int w = 8; w <= 64; w *= 2)
        for (int b = 0; b <= 3; b++)
            for (int mm = 0; mm <= 6; mm++)
                for (int s = -4; s <= 4; s++) {
                    struct swz z;
                    if (swz_init(&z, b, mm, s, NULL) < 0 ||
                        lin_from_cute(&t, w, b, mm, s, &m, NULL) < 0)
                        continue;
                    n++;
                    for (uint32_t e = 0; e < 2048; e++) {
                        uint32_t phys = swz_apply(&z, e * (uint32_t)w / 8) * 8 / (uint32_t)w;
                        CHECK_QUIET(f, mem_apply(&m, phys) == e, "cute <%d,%d,%d> w %d e %u", b,
                                    mm, s, w, e);
                    }
                    int b2, m2, s2;
                    struct lin_mem back;
                    CHECK_QUIET(f, lin_to_cute(&t, w, &m, &b2, &m2, &s2) &&
                                       lin_from_cute(&t, w, b2, m2, s2, &back, NULL) == 0 &&
                                       memcmp(back.basis, m.basis, 11 * sizeof m.basis[0]) == 0,
                                "cute round trip <%d,%d,%d>", b, mm, s);
                }
    for (int fast = 0; fast < 2; fast++)
        for (int vec = 1; vec <= 8; vec *= 2)
            for (int pp = 1; pp <= 8; pp *= 2)
                for (int mp = 1; mp * vec <= (fast ? 64 : 32); mp *= 2) {
                    int order[2] = {fast, 1 - fast};
                    if (lin_from_triton(&t, vec, pp, mp, order, &m, NULL) < 0) {
                        CHECK_QUIET(f, 0, "triton %d %d %d refused", vec, pp, mp);
                        continue;
                    }
                    n++;
                    for (uint32_t r = 0; r < 32; r++)
                        for (uint32_t c = 0; c < 64; c++) {
                            uint32_t x = fast ? c : r, y = fast ? r : c, xn = fast ? 64 : 32;
                            uint32_t ph = (y / (uint32_t)pp) % (uint32_t)mp;
                            uint32_t xs = ((x / (uint32_t)vec) ^ ph) * (uint32_t)vec + x % (uint32_t)vec;
                            CHECK_QUIET(f, mem_apply(&m, y * xn + xs) == lin_elem(&t, r, c),
                                        "triton %d %d %d at (%u, %u)", vec, pp, mp, r, c);
                        }
                    int v2, p2, m2, o2[2];
                    struct lin_mem back;
                    CHECK_QUIET(f, lin_to_triton(&t, &m, &v2, &p2, &m2, o2) &&
                                       lin_from_triton(&t, v2, p2, m2, o2, &back, NULL) == 0 &&
                                       memcmp(back.basis, m.basis, 11 * sizeof m.basis[0]) == 0,
                                "triton round trip");
                }
    /* NVMMA: rows of S bytes along dim1, stacked over dim0, blocks of dim1
     * after; byte address swizzled by Swizzle<log2(S/16),4,3> */
    for (int w = 8; w <= 32; w *= 2)
        for (int sw = 32; sw <= 128; sw *= 2) {
            struct swz z;
            swz_init(&z, sw == 32 ? 1 : sw == 64 ? 2 : 3, 4, 3, NULL);
            if (lin_from_nvmma(&t, w, sw, 0, &m, NULL) < 0)
                continue;
            n++;
            uint32_t per = (uint32_t)(sw * 8 / w);
            for (uint32_t r = 0; r < 32; r++)
                for (uint32_t c = 0; c < 64; c++) {
                    uint32_t lin = ((c / per) * 32 + r) * per + c % per;
                    uint32_t phys = swz_apply(&z, lin * (uint32_t)w / 8) * 8 / (uint32_t)w;
                    CHECK_QUIET(f, mem_apply(&m, phys) == lin_elem(&t, r, c), "nvmma %d w %d", sw,
                                w);
                }
            int s2, t2;
            CHECK_QUIET(f, lin_to_nvmma(&t, w, &m, &s2, &t2) && s2 == sw && t2 == 0,
                        "nvmma round trip %d", sw);
        }
    CHECK(f == 0 && n > 100, "conversions: %d layouts, %d failures", n, f);
}

/* ---- the bank view ------------------------------------------------------ */

static uint32_t lane_elem(const struct lin_layout *l, uint32_t t)
{
    uint32_t e = 0;
    for (int i = 0; i < l->n[LIN_LANE]; i++)
        if (t >> i & 1)
            e ^= l->basis[LIN_LANE][i];
    return e;
}

/* One (problem, memory, vector) through the bank view, against lin_evaluate,
 * access.c and the definitions: the instruction drawn costs what the side
 * reports; lane t's first element is one lane t holds (element ^ lane(t) in
 * the register and warp span); the access model's bank of each lane equals
 * the bank view's bank of its first element; the touched slots are exactly
 * each active lane's elements, their phase the lowest lane's.  Failures
 * are counted quietly in *f. */
static void check_view(const struct lin_problem *p, const struct lin_mem *m, int vec_bits,
                       const char *what, int *f)
{
    struct lin_side sd[2];
    struct sz_error err;
    if (lin_evaluate(p, m, vec_bits, LIN_SIM_MAX, &sd[0], &sd[1], &err) < 0) {
        CHECK_QUIET(*f, 0, "%s: evaluate: %s", what, err.message);
        return;
    }
    uint32_t w = (uint32_t)p->bitwidth, per = ((uint32_t)w << vec_bits) / w;
    struct lin_banks bk;
    lin_bank_geom(p, &bk);
    uint32_t total = 1u << (p->tile.bits0 + p->tile.bits1);
    CHECK_QUIET(*f, bk.per_row * w == 32u * (uint32_t)p->num_banks &&
                    bk.per_bank == (w < 32 ? 32 / w : 1) && bk.spanned == (w > 32 ? w / 32 : 1) &&
                    (uint64_t)bk.rows * bk.per_row >= total &&
                    (uint64_t)(bk.rows - 1) * bk.per_row < total,
                "%s: bank geometry: %u a row, %u rows for %u elements", what, bk.per_row,
                bk.rows, total);
    static struct lin_touch touch[LIN_TOUCH_MAX];
    for (int k = 0; k < 2; k++) {
        const struct lin_layout *l = k ? &p->b : &p->a;
        struct instr in;
        struct acc_result r;
        CHECK_QUIET(*f, sd[k].worst < sd[k].instructions, "%s side %d: worst in range", what, k);
        if (lin_side_instr(p, m, vec_bits, k, sd[k].worst, &in, &err) < 0) {
            CHECK_QUIET(*f, 0, "%s side %d: %s", what, k, err.message);
            continue;
        }
        acc_cost(&in, &r);
        CHECK_QUIET(*f, r.wavefronts == sd[k].wavefronts,
                    "%s side %d: drawn instruction %u wavefronts, evaluate %u", what, k,
                    r.wavefronts, sd[k].wavefronts);
        CHECK_QUIET(*f, in.op == (k ? INSTR_LD : INSTR_ST) && in.bytes == sd[k].bytes,
                    "%s side %d: op and width", what, k);
        struct f2_span held;
        f2_span_clear(&held);
        for (int d = 0; d < LIN_NIN; d++)
            if (d != LIN_LANE)
                for (int i = 0; i < l->n[d]; i++)
                    f2_span_add(&held, l->basis[d][i]);
        uint32_t pairs = 0;
        for (uint32_t t = 0; t < INSTR_LANES; t++) {
            uint32_t o = (uint32_t)((uint64_t)in.offsets[t] * 8 / w);
            CHECK_QUIET(*f, f2_in_span(&held, mem_apply(m, o) ^ lane_elem(l, t)),
                        "%s side %d lane %u: offset %u holds an element the lane lacks", what,
                        k, t, o);
            CHECK_QUIET(*f, r.lane_bank[t] == lin_bank_of(p, o),
                        "%s side %d lane %u: model bank %u, view bank %u", what, k, t,
                        r.lane_bank[t], lin_bank_of(p, o));
            pairs += per;
        }
        uint32_t n = lin_touched(p, m, in.offsets, INSTR_LANES, in.bytes, r.lane_phase, touch),
                 seen = 0;
        for (uint32_t i = 0; i < n; i++) {
            const struct lin_touch *c = &touch[i];
            CHECK_QUIET(*f, c->elem == mem_apply(m, c->offset) && c->lanes != 0 &&
                            c->phase == r.lane_phase[__builtin_ctzll(c->lanes)],
                        "%s side %d slot %u: element, lanes, phase", what, k, c->offset);
            for (uint32_t t = 0; t < INSTR_LANES; t++)
                if (c->lanes >> t & 1u) {
                    uint32_t o0 = (uint32_t)((uint64_t)in.offsets[t] * 8 / w);
                    CHECK_QUIET(*f, c->offset >= o0 && c->offset < o0 + per,
                                "%s side %d slot %u: lane %u does not touch it", what, k,
                                c->offset, t);
                    seen++;
                }
        }
        CHECK_QUIET(*f, seen == pairs, "%s side %d: %u (slot, lane) pairs, want %u", what, k,
                    seen, pairs);
        struct lin_plain v;
        lin_plain_view(p, in.bytes, &v);
        CHECK_QUIET(*f, v.b == 0 && (1u << v.m) == in.bytes && v.rows >= 1 &&
                        (uint64_t)v.rows * (4u * (uint32_t)p->num_banks / in.bytes) <= 1u << 20,
                    "%s side %d: the swizzle page's view <%d,%d,%d> x %u rows", what, k, v.b,
                    v.m, v.s, v.rows);
    }
}

/* A 64-lane wave's drawn instruction (the published rules, lane by lane)
 * against evaluate and a brute-force count: its wavefronts are the side's;
 * the phases partition the lanes; each phase costs the most distinct words
 * one bank holds, counted here word by word; every lane's pass is below its
 * phase's count; every lane's elements are touched. */
static void check_wave(const struct lin_problem *p, const struct lin_mem *m, int vec_bits, int *f)
{
    struct lin_side sd[2];
    struct sz_error err;
    if (lin_evaluate(p, m, vec_bits, LIN_SIM_MAX, &sd[0], &sd[1], &err) < 0) {
        CHECK_QUIET(*f, 0, "wave: evaluate: %s", err.message);
        return;
    }
    static struct lin_touch touch[LIN_TOUCH_MAX];
    uint32_t nb = (uint32_t)p->num_banks;
    for (int k = 0; k < 2; k++) {
        uint32_t addr[64], bytes;
        struct lin_pub d;
        uint32_t nl = lin_side_addrs(p, m, vec_bits, k, sd[k].worst, addr, &bytes);
        lin_published_detail(&sd[k].phase, p->num_banks, addr, bytes, &d);
        CHECK_QUIET(*f, nl == 64 && bytes == sd[k].bytes && d.wavefronts == sd[k].wavefronts,
                    "wave side %d: %u lanes, drawn %u wavefronts, evaluate %u", k, nl,
                    d.wavefronts, sd[k].wavefronts);
        uint64_t all = 0;
        uint32_t sum = 0, wpl = bytes < 4 ? 1 : bytes / 4;
        for (uint32_t r = 0; r < d.nphases; r++) {
            CHECK_QUIET(*f, (all & d.phase_mask[r]) == 0 && d.phase_mask[r] != 0,
                        "wave side %d phase %u: lanes overlap or none", k, r);
            all |= d.phase_mask[r];
            sum += d.phase_wf[r];
            uint32_t most = 0;
            for (uint32_t b = 0; b < nb; b++) {
                uint32_t words[256], n = 0;
                for (uint32_t t = 0; t < 64; t++)
                    for (uint32_t j = 0; (d.phase_mask[r] >> t & 1u) && j < wpl; j++) {
                        uint32_t w = addr[t] / 4 + j, i = 0;
                        while (i < n && words[i] != w)
                            i++;
                        if (w % nb == b && i == n)
                            words[n++] = w;
                    }
                most = n > most ? n : most;
            }
            CHECK_QUIET(*f, d.phase_wf[r] == most, "wave side %d phase %u: %u wavefronts, "
                        "brute force %u", k, r, d.phase_wf[r], most);
        }
        CHECK_QUIET(*f, all == UINT64_MAX && sum == d.wavefronts, "wave side %d: phases", k);
        for (uint32_t t = 0; t < 64; t++)
            CHECK_QUIET(*f, d.pass[t] >= 0 && (uint32_t)d.pass[t] < d.phase_wf[d.phase[t]] &&
                            d.bank[t] == addr[t] / 4 % nb,
                        "wave side %d lane %u: pass %d bank %u", k, t, d.pass[t], d.bank[t]);
        uint32_t n = lin_touched(p, m, addr, 64, bytes, d.phase, touch), seen = 0;
        for (uint32_t i = 0; i < n; i++)
            seen += (uint32_t)__builtin_popcountll(touch[i].lanes);
        CHECK_QUIET(*f, seen == 64 * (bytes * 8 / (uint32_t)p->bitwidth),
                    "wave side %d: %u (slot, lane) pairs", k, seen);
    }
}

static void test_bank_view(void)
{
    int f = 0, n = 0;
    struct lin_problem p;
    struct lin_mem m;
    struct sz_error err;
    seed_problem(&p);
    static const uint32_t masks[3][4] = {{0, 0, 0, 0}, {1, 2, 4, 8}, {2, 4, 8, 16}};
    for (int k = 0; k < 3; k++, n++) {
        seed_mem(masks[k], &m);
        check_view(&p, &m, 0, "seed", &f);
    }
    /* the seed's row-major read by hand: lane t reads (t % 16, t / 16) at
     * offset 32 (t % 16) + t / 16, bank t / 16: 16 lanes in banks 0 and 1 */
    seed_mem(masks[0], &m);
    struct lin_side st, ld;
    struct instr in;
    struct acc_result r;
    lin_evaluate(&p, &m, 0, LIN_SIM_MAX, &st, &ld, &err);
    CHECK(lin_side_instr(&p, &m, 0, 1, ld.worst, &in, &err) == 0, "seed load instruction");
    int ok = 1;
    for (uint32_t t = 0; t < 32; t++)
        ok &= in.offsets[t] == 4 * (32 * (t % 16) + t / 16) + 4 * 2 * (uint32_t)ld.worst;
    acc_cost(&in, &r);
    CHECK(ok && r.wavefronts == 16, "seed row-major load: offsets 4 (32 (t %% 16) + t / 16), 16 "
          "wavefronts (instruction %llu)", (unsigned long long)ld.worst);
    /* banks by hand: offset p, element bits w -> bank (p w / 32) mod 32 */
    static const struct {
        int w;
        uint32_t off, bank;
    } banks[] = {{32, 33, 1}, {16, 65, 0}, {8, 5, 1}, {4, 9, 1}, {64, 17, 2}, {16, 62, 31}};
    for (size_t i = 0; i < sizeof banks / sizeof banks[0]; i++) {
        p.bitwidth = banks[i].w;
        CHECK(lin_bank_of(&p, banks[i].off) == banks[i].bank, "%d-bit offset %u: bank %u",
              banks[i].w, banks[i].off, banks[i].bank);
    }
    /* 64-lane waves: no access-model instruction, the field named */
    p.bitwidth = 32;
    p.lanes = 64;
    CHECK(lin_side_instr(&p, &m, 0, 0, 0, &in, &err) < 0 &&
              strcmp(err.field, "lanes_per_wavefront") == 0, "wave64: no drawn instruction");
    /* random pairs on their optimum and on row-major memory */
    static const int widths[5] = {4, 8, 16, 32, 64};
    for (int iter = 0; iter < 200; iter++) {
        int d = 6 + (int)(rnd() % 9);
        random_problem(d, widths[iter % 5], iter % 3 == 0 ? 64 : iter % 3 == 1 ? 32 : 16, 32,
                       iter, &p);
        struct lin_opt o;
        if (lin_optimize(&p, &o, &err) < 0)
            continue;
        check_view(&p, &o.mem, o.vec_bits, "random optimum", &f);
        n++;
        if (p.bitwidth >= 8) {
            struct lin_mem rm = {.n = d};
            for (int b = 0; b < d; b++)
                rm.basis[b] = 1u << b;
            check_view(&p, &rm, 0, "random row-major", &f);
            n++;
        }
    }
    /* 64-lane waves on their optimum and on row-major memory */
    int waves = 0;
    for (int iter = 0; iter < 120; iter++) {
        int d = 7 + (int)(rnd() % 8);
        random_problem(d, widths[1 + iter % 4], iter % 2 ? 64 : 32, 64, iter, &p);
        struct lin_opt o;
        if (lin_optimize(&p, &o, &err) < 0)
            continue;
        check_wave(&p, &o.mem, o.vec_bits, &f);
        struct lin_mem rm = {.n = d};
        for (int b = 0; b < d; b++)
            rm.basis[b] = 1u << b;
        check_wave(&p, &rm, 0, &f);
        waves += 2;
    }
    n += waves;
    CHECK(f == 0 && waves > 150, "bank view: %d layouts (%d on 64-lane waves), the drawn "
          "instruction is the costed one", n, waves);
    printf("bank view: %d layouts (the seed's three, random optima and row-major, %d on 64-lane "
           "waves), each side's drawn instruction costs what evaluate reports, %d failures\n", n,
           waves, f);
}

/* The routes, through the handler: tests/data/api_linear_cases.json lists
 * {path, body (an object, or a string sent as is), status, want (a substring)}. */
static void test_api(void)
{
    FILE *fp = fopen("tests/data/api_linear_cases.json", "rb");
    static char text[1 << 16];
    size_t n = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
    if (fp)
        fclose(fp);
    cJSON *cases = cJSON_ParseWithLength(text, n);
    CHECK(cJSON_GetArraySize(cases) > 30, "tests/data/api_linear_cases.json readable");
    int k = 0;
    for (const cJSON *c = cases ? cases->child : NULL; c; c = c->next, k++) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(c, "body");
        const char *path = cJSON_GetObjectItemCaseSensitive(c, "path")->valuestring;
        const char *want = cJSON_GetObjectItemCaseSensitive(c, "want")->valuestring;
        int status = cJSON_GetObjectItemCaseSensitive(c, "status")->valueint;
        char *body = cJSON_IsString(b) ? NULL : cJSON_PrintUnformatted(b);
        struct api_response r = client_api_call("POST", path, "", "application/json",
                                                body ? body : b->valuestring, 0);
        CHECK(r.status == status && r.body && strstr(r.body, want),
              "case %d %s: %d, want %d with %s; got %.300s", k, path, r.status, status, want,
              r.body ? r.body : "(null)");
        free(body);
        free(r.body);
    }
    cJSON_Delete(cases);
}

/* The bank view across routes: each side's drawn instruction, sent to GET
 * /api/access as the answer's access_view says (offsets taken as physical on
 * the unswizzled grid), costs what /api/linear/evaluate reports, touches as
 * many cells, and every cell's element is the memory's log_of at its slot.
 * The seed's three layouts and the mma preset's optimum (no CuTe form). */
static void test_api_bank_view(void)
{
    static const char *const seed =
        "\"shape\":[16,32],\"bitwidth\":32,\"num_banks\":32,\"vec\":1,"
        "\"A\":{\"register\":[[1,0],[2,0],[4,0],[8,0]],\"lane\":[[0,1],[0,2],[0,4],[0,8],[0,16]]},"
        "\"B\":{\"register\":[[0,2],[0,4],[0,8],[0,16]],\"lane\":[[1,0],[2,0],[4,0],[8,0],[0,1]]},";
    static const char *const mma =
        "\"shape\":[16,16],\"bitwidth\":16,\"num_banks\":32,\"vec\":2,"
        "\"A\":{\"register\":[[0,1],[0,2],[0,4]],\"lane\":[[0,8],[1,0],[2,0],[4,0],[8,0]]},"
        "\"B\":{\"register\":[[0,1],[8,0],[0,8]],\"lane\":[[0,2],[0,4],[1,0],[2,0],[4,0]]},";
    static const struct {
        const char *problem, *mem, *name;
        uint32_t st, ld;
    } rows[] = {
        {NULL, "[[0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,0],[4,0],[8,0]]", "seed row-major", 1, 16},
        {NULL, "[[0,1],[0,2],[0,4],[0,8],[0,16],[1,1],[2,2],[4,4],[8,8]]", "seed XOR m", 1, 2},
        {NULL, "[[0,1],[0,2],[0,4],[0,8],[0,16],[1,2],[2,4],[4,8],[8,16]]", "seed XOR 2m", 1, 1},
        /* /api/linear/optimize's answer for the workbench's mma preset */
        {"mma", "[[0,1],[0,2],[0,4],[1,0],[2,0],[4,0],[0,10],[8,4]]", "mma optimum", 1, 1},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        char body[1024];
        snprintf(body, sizeof body, "{%s\"swizzle_offset_bases\":%s}", rows[k].problem ? mma : seed,
                 rows[k].mem);
        struct api_response r = client_api_call("POST", "/api/linear/evaluate", "",
                                                "application/json", body, 0);
        cJSON *a = r.body ? cJSON_Parse(r.body) : NULL;
        const cJSON *bv = cJSON_GetObjectItemCaseSensitive(a, "bank_view");
        CHECK(r.status == 200 && cJSON_IsObject(bv), "%s: evaluate answers a bank_view",
              rows[k].name);
        /* every layout has a Triton shared_linear form: its offset bases, as sent */
        {
            char want[512];
            size_t n = (size_t)snprintf(want, sizeof want, "#ttg.shared_linear<{offset = [");
            cJSON *mem = cJSON_Parse(rows[k].mem);
            int i = 0;
            for (const cJSON *v = mem ? mem->child : NULL; v; v = v->next, i++)
                n += (size_t)snprintf(want + n, sizeof want - n, "%s[%d, %d]", i ? ", " : "",
                                      cJSON_GetArrayItem(v, 0)->valueint,
                                      cJSON_GetArrayItem(v, 1)->valueint);
            snprintf(want + n, sizeof want - n, "]}, alignment = 16>");
            cJSON_Delete(mem);
            const cJSON *sl = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(a, "equivalents"), "shared_linear");
            CHECK(cJSON_IsString(sl) && strcmp(sl->valuestring, want) == 0, "%s: shared_linear %s",
                  rows[k].name, cJSON_IsString(sl) ? sl->valuestring : "(none)");
        }
        const cJSON *log_of = cJSON_GetObjectItemCaseSensitive(bv, "log_of");
        for (int side = 0; side < 2 && bv; side++) {
            const char *nm = side ? "load" : "store";
            const cJSON *ins = cJSON_GetObjectItemCaseSensitive(bv, nm);
            const cJSON *rep = cJSON_GetObjectItemCaseSensitive(a, nm);
            int wf = cJSON_GetObjectItemCaseSensitive(
                         cJSON_GetObjectItemCaseSensitive(ins, "cost"), "wavefronts")->valueint;
            int want = cJSON_GetObjectItemCaseSensitive(rep, "wavefronts_per_instruction")->valueint;
            CHECK(wf == want && (uint32_t)want == (side ? rows[k].ld : rows[k].st),
                  "%s %s: drawn %d wavefronts, evaluate %d, seed/optimum %u", rows[k].name, nm,
                  wf, want, side ? rows[k].ld : rows[k].st);
            const cJSON *slots = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(ins, "cells"), "slots");
            int bad = 0;
            for (const cJSON *c = slots ? slots->child : NULL; c; c = c->next) {
                int p = cJSON_GetObjectItemCaseSensitive(c, "slot")->valueint;
                bad += cJSON_GetArrayItem(log_of, p)->valueint !=
                       cJSON_GetObjectItemCaseSensitive(c, "logical")->valueint;
            }
            CHECK(bad == 0 && cJSON_GetArraySize(slots) > 0, "%s %s: cells hold log_of's elements",
                  rows[k].name, nm);
            /* the swizzle page's access view of the same instruction */
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(ins, "access_view");
            char q[1024], offs[512] = "";
            size_t at = 0;
            for (const cJSON *o = cJSON_GetObjectItemCaseSensitive(ins, "offsets")->child; o;
                 o = o->next)
                at += (size_t)snprintf(offs + at, sizeof offs - at, "%s%d", at ? "," : "",
                                       o->valueint);
#define VI(key) cJSON_GetObjectItemCaseSensitive(v, key)->valueint
            snprintf(q, sizeof q,
                     "b=%d&m=%d&s=%d&bank_bytes=%d&banks=%d&rows=%d&match_bank_row=%d&space=%s"
                     "&op=%s&bytes=%d&offsets=%s", VI("b"), VI("m"), VI("s"), VI("bank_bytes"),
                     VI("banks"), VI("rows"), VI("match_bank_row"),
                     cJSON_GetObjectItemCaseSensitive(v, "space")->valuestring,
                     cJSON_GetObjectItemCaseSensitive(ins, "op")->valuestring,
                     cJSON_GetObjectItemCaseSensitive(ins, "bytes")->valueint, offs);
#undef VI
            struct api_response ar = client_api_call("GET", "/api/access", q, NULL, NULL, 0);
            cJSON *acc = ar.body ? cJSON_Parse(ar.body) : NULL;
            const cJSON *cost = cJSON_GetObjectItemCaseSensitive(acc, "cost");
            const cJSON *cells = cJSON_GetObjectItemCaseSensitive(acc, "cells");
            CHECK(ar.status == 200 && cost &&
                      cJSON_GetObjectItemCaseSensitive(cost, "wavefronts")->valueint == want &&
                      cJSON_GetObjectItemCaseSensitive(cells, "outside")->valueint == 0,
                  "%s %s: /api/access on the access_view: %d wavefronts as evaluate (%.200s)",
                  rows[k].name, nm, cost ? cJSON_GetObjectItemCaseSensitive(cost, "wavefronts")->valueint : -1,
                  ar.body ? ar.body : "");
            cJSON_Delete(acc);
            free(ar.body);
        }
        cJSON_Delete(a);
        free(r.body);
    }
}

int main(void)
{
    test_seed();
    test_seed_sweep();
    test_random_pairs();
    test_undercount();
    test_triton_cases();
    test_wave64_rules();
    test_triton_wave64();
    test_random_wave64();
    test_conversions();
    test_bank_view();
    test_api();
    test_api_bank_view();
    return check_summary("test_linear");
}
