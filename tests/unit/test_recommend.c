/* test_recommend.c - the recommender (recommend.c) against issue 26's three
 * problems, the lesson's and the workbench's answers to the same problem,
 * and a property over every pair of named write and read patterns at the
 * 128B preset: never worse than any preset (costed here step by step through
 * pattern.c and access.c, not through recommend.c) and never worse than the
 * F2 optimizer's bound where the pair can be expressed for it.
 * TEST_SMALL=1 (make test's sanitizer build) runs the two sweeps on 8 rows
 * only; make test also runs the whole sweeps on the plain build
 * (build/plain/test_recommend). */
#include <stdlib.h>
#include <string.h>

#include "model/access.h"
#include "linear/f2.h"
#include "linear/linear.h"
#include "model/pattern.h"
#include "recommend/recommend.h"
#include "recommend/rec_match.h"
#include "check.h"

static const int presets[][3] = {{0, 4, 3}, {1, 4, 3}, {2, 4, 3}, {3, 4, 3}, {2, 5, 2}};

/* The view (b, m, s, rows, match) with write wr and read rd: rec_plan and
 * rec_search as GET /api/recommend runs them.  Returns 0 when rec_plan fails. */
static int exhaustive;     /* run() costs every step (no translation shortcut) */
static struct rec_meter *meter;    /* run()'s work bound (NULL: none) */
static int small;          /* TEST_SMALL: the sweeps' first row count only */

static int run(struct rec_work *w, const char *wr, const char *rd, int b, int m, int s,
               uint32_t rows, int match, int elem_bits)
{
    struct swz_geom g;
    struct sz_error e;
    memset(w, 0, sizeof *w);
    w->exhaustive = exhaustive;
    w->meter = meter;
    w->names[0] = wr, w->names[1] = rd;
    if (swz_init(&w->cur, b, m, s, &e) < 0 || swz_geom_init(&g, &w->cur, 4, 32, rows, match, &e) < 0)
        return 0;
    w->rows = g.rows, w->row_bytes = g.row_bytes, w->bank_bytes = 4, w->banks = 32;
    w->cur_match = match;
    w->elem_bits = elem_bits ? elem_bits : rec_default_elem(w->names);
    w->elem_given = elem_bits != 0;
    if (rec_plan(w, &e) < 0)
        return 0;
    rec_search(w);
    return 1;
}

static const struct rec_cand *recommended(const struct rec_work *w)
{
    return w->pick_opt ? &w->opt : w->best >= 0 ? &w->c[w->best] : NULL;
}

/* Side `name` over the whole tile under Swizzle<b,m,s>, independently of
 * recommend.c: pattern_fill each step, acc_cost it.  -1 when it cannot run. */
static long oracle_side(const char *name, int b, int m, int s, uint32_t row_bytes, uint32_t rows,
                        uint32_t *worst)
{
    struct swz z;
    struct instr in;
    struct acc_result r;
    uint32_t R;
    long total = 0;
    if (strcmp(name, REC_TMA) == 0)
        return 0;
    if (swz_init(&z, b, m, s, NULL) < 0 ||
        pattern_fill(name, &z, row_bytes, rows, 0, &in, &R, NULL) < 0)
        return -1;
    if (b > 0 && (1u << m) < instr_lane_bytes(&in))
        return -1;
    *worst = 0;
    for (uint32_t k = 0; k < R; k++) {
        pattern_fill(name, &z, row_bytes, rows, k, &in, &R, NULL);
        in.bank_bytes = 4, in.banks = 32;
        if (instr_check(&in, NULL) < 0)
            return -1;
        acc_cost(&in, &r);
        total += r.wavefronts;
        if (r.wavefronts > *worst)
            *worst = r.wavefronts;
    }
    return total;
}

/* ---- issue 26's three problems ------------------------------------------- */

/* Seed 001's 16x32 fp32 transpose (/?b=0&m=2&s=5&rows=16&elem=fp32&rd=transpose_read):
 * 1 + 1 wavefronts per instruction, as the lesson's step 9 (Swizzle<4,3,4>)
 * and the workbench's optimal layout give. */
static void transpose(struct rec_work *w)
{
    CHECK(run(w, "row_store", "transpose_read", 0, 2, 5, 16, 0, 32), "runs");
    const struct rec_cand *r = recommended(w);
    CHECK(r && r->ok, "a recommendation");
    if (!r)
        return;
    CHECK(r->side[0].steps == 16 && r->side[1].steps == 16, "16 + 16 instructions, got %u + %u",
          r->side[0].steps, r->side[1].steps);
    CHECK(r->side[0].worst == 1 && r->side[1].worst == 1, "1 + 1 per instruction, got %u + %u",
          r->side[0].worst, r->side[1].worst);
    CHECK(r->total == 32, "32 wavefronts over the tile, got %llu", (unsigned long long)r->total);
    CHECK(w->reaches && w->bound.expressible, "reaches the optimizer's bound: %s", w->verdict);
    CHECK(r->lay.kind == REC_SWIZZLE, "a swizzle reaches it");
    /* the current layout: the 16-way conflict of seed 001 sec. 02 */
    CHECK(w->c[0].side[1].worst == 16, "unswizzled read: 16-way, got %u", w->c[0].side[1].worst);

    /* the lesson's step 9: Swizzle<4,3,4> on the same tile costs the same */
    uint32_t ww, wr;
    long lw = oracle_side("row_store", 4, 3, 4, 128, 16, &ww);
    long lr = oracle_side("transpose_read", 4, 3, 4, 128, 16, &wr);
    CHECK(lw + lr == (long)r->total && ww == 1 && wr == 1, "lesson: %ld + %ld", lw, lr);
    /* and the recommended swizzle costs, recomputed step by step, what it says */
    if (r->lay.kind == REC_SWIZZLE) {
        long a = oracle_side("row_store", r->lay.b, r->lay.m, r->lay.s, 128, 16, &ww);
        long b = oracle_side("transpose_read", r->lay.b, r->lay.m, r->lay.s, 128, 16, &wr);
        CHECK(a + b == (long)r->total, "oracle %ld + %ld vs %llu", a, b,
              (unsigned long long)r->total);
    }

    /* the workbench's problem, its bases as seed 001 writes them (A: thread
     * t holds column t, registers walk rows; B: t%16 walks rows, t/16 picks
     * the column parity, registers walk column pairs), optimized there */
    struct lin_problem p;
    memset(&p, 0, sizeof p);
    p.tile.bits0 = 4, p.tile.bits1 = 5, p.bitwidth = 32, p.num_banks = 32, p.lanes = 32;
    for (int i = 0; i < 4; i++)
        p.a.basis[LIN_REGISTER][i] = lin_elem(&p.tile, 1u << i, 0);
    for (int i = 0; i < 5; i++)
        p.a.basis[LIN_LANE][i] = lin_elem(&p.tile, 0, 1u << i);
    for (int i = 0; i < 4; i++)
        p.b.basis[LIN_REGISTER][i] = lin_elem(&p.tile, 0, 2u << i);
    for (int i = 0; i < 4; i++)
        p.b.basis[LIN_LANE][i] = lin_elem(&p.tile, 1u << i, 0);
    p.b.basis[LIN_LANE][4] = lin_elem(&p.tile, 0, 1);
    p.a.n[LIN_REGISTER] = p.b.n[LIN_REGISTER] = 4;
    p.a.n[LIN_LANE] = p.b.n[LIN_LANE] = 5;
    struct lin_opt o;
    struct lin_side st, ld;
    struct sz_error e;
    CHECK(lin_optimize(&p, &o, &e) == 0 && lin_evaluate(&p, &o.mem, o.vec_bits, LIN_SIM_MAX, &st,
                                                        &ld, &e) == 0, "workbench optimizes");
    CHECK(st.wavefronts == 1 && ld.wavefronts == 1, "workbench: 1 + 1, got %u + %u",
          st.wavefronts, ld.wavefronts);
    CHECK(w->bound.sd[0].wavefronts == st.wavefronts && w->bound.sd[1].wavefronts == ld.wavefronts,
          "the recommender's bound is the workbench's answer");
    /* the recommender read the same pair off the patterns: same lane spans */
    for (int k = 0; k < 2; k++) {
        const struct lin_layout *mine = k ? &w->bound.p.b : &w->bound.p.a, *seed = k ? &p.b : &p.a;
        struct f2_span s1, s2;
        f2_span_of(&s1, mine->basis[LIN_LANE], 5);
        f2_span_of(&s2, seed->basis[LIN_LANE], 5);
        int same = s1.n == s2.n;
        for (int i = 0; i < s2.n; i++)
            same &= f2_in_span(&s1, s2.v[i]);
        CHECK(same, "side %d: the patterns' lanes span the seed's", k);
    }

    /* the three fixes each reach the ideal here */
    CHECK(w->pad.ok && w->pad.total == 32 && w->pad.extra_bytes > 0,
          "padding: %llu wavefronts, %llu bytes", (unsigned long long)w->pad.total,
          (unsigned long long)w->pad.extra_bytes);
    CHECK(w->sched[0].ok && w->sched[1].ok && w->sched[0].wavefronts + w->sched[1].wavefronts == 32 &&
          w->sched[1].how.sched != 0, "lane schedule: %llu + %llu",
          (unsigned long long)w->sched[0].wavefronts, (unsigned long long)w->sched[1].wavefronts);

    /* pasteable: the element form of the recommended swizzle for fp32 */
    struct rec_code c;
    rec_code(w, &r->lay, &c);
    CHECK(strstr(c.cute, "composition(Swizzle<") && strstr(c.triton, "#ttg.swizzled_shared"),
          "cute %s, triton %s", c.cute, c.triton);
}

/* A 32-row column read at the 128B preset (/?b=3&m=4&s=3&rows=32): 1 + 1. */
static void column(struct rec_work *w)
{
    CHECK(run(w, "row_store", "col_read", 3, 4, 3, 32, 0, 0), "runs");
    const struct rec_cand *r = recommended(w);
    CHECK(r && r->side[0].worst == 1 && r->side[1].worst == 1, "1 + 1 per instruction");
    CHECK(r && r->total == 64 && w->reaches, "64 over 32 + 32 instructions: %s", w->verdict);
    CHECK(w->c[0].side[1].worst == 4, "the 128B preset reads 4-way, got %u", w->c[0].side[1].worst);
    /* Swizzle<5,2,5>, the example, is among the tried and costs as much */
    int found = 0;
    for (int i = 0; i < w->n; i++)
        if (w->c[i].lay.kind == REC_SWIZZLE && w->c[i].lay.b == 5 && w->c[i].lay.m == 2 &&
            w->c[i].lay.s == 5)
        {
            found = 1;
            CHECK(w->c[i].total == 64, "<5,2,5> costs %llu", (unsigned long long)w->c[i].total);
        }
    CHECK(found, "Swizzle<5,2,5> tried");
}

/* Seed 004's ldmatrix feed (the lesson's b=0, rows=8, ldmatrix_x4): the ideal
 * 4 wavefronts per ldmatrix.x4, from 32 (8-way). */
static void ldmatrix(struct rec_work *w)
{
    static const char *const producers[] = {"row_store", "row_store_128", "stmatrix_x4"};
    for (int i = 0; i < 3; i++) {
        CHECK(run(w, producers[i], "ldmatrix_x4", 0, 4, 3, 8, 0, 0), "runs");
        const struct rec_cand *r = recommended(w);
        CHECK(r && r->side[1].worst == 4 && r->side[1].wavefronts == r->side[1].ideal,
              "%s: ldmatrix at its ideal 4", producers[i]);
        CHECK(r && r->side[0].wavefronts == r->side[0].ideal, "%s: the write at its ideal",
              producers[i]);
        CHECK(w->c[0].side[1].worst == 32, "unswizzled: 8-way, 32 wavefronts, got %u",
              w->c[0].side[1].worst);
        CHECK(w->reaches, "%s: %s", producers[i], w->verdict);
    }
    /* 128B swizzle on 128-byte rows of fp16 matches the GMMA atom; Triton's vec is 8 */
    struct rec_code c;
    const struct rec_cand *r = recommended(w);
    rec_code(w, &r->lay, &c);
    CHECK(strstr(c.atom, "Layout_K_SW128_Atom<half_t>") != NULL, "atom: %s", c.atom);
    CHECK(strstr(c.triton, "vec = 8,") != NULL, "fp16 triton: %s", c.triton);
    CHECK(strstr(c.tma, "CU_TENSOR_MAP_SWIZZLE_128B") != NULL, "tma: %s", c.tma);
    /* the same swizzle for fp32: vec 4 */
    CHECK(run(w, "row_store", "row_load_32", 3, 4, 3, 8, 0, 32), "runs");
    rec_code(w, &w->c[0].lay, &c);
    CHECK(strstr(c.triton, "vec = 4,") != NULL, "fp32 triton: %s", c.triton);
    CHECK(strstr(c.cute, "Swizzle<3,2,3>") != NULL, "fp32 cute: %s", c.cute);
}

/* ---- the property ---------------------------------------------------------- */

static void property(struct rec_work *w)
{
    static const uint32_t rows[] = {8, 16, 32, 64};
    static const int elems[] = {0, 16, 32};
    int n, cases = 0, runs = 0, expressed = 0, fails = 0;
    const struct pattern *p = pattern_list(&n);
    const char *writes[16], *reads[32];
    int nw = 0, nr = 0;
    for (int i = 0; i < n; i++) {
        if (p[i].op == INSTR_ST || p[i].op == INSTR_STMATRIX)
            writes[nw++] = p[i].name;
        else
            reads[nr++] = p[i].name;
    }
    writes[nw++] = REC_TMA;
    for (size_t ri = 0; ri < (small ? 1 : sizeof rows / sizeof rows[0]); ri++)
        for (size_t ei = 0; ei < sizeof elems / sizeof elems[0]; ei++)
            for (int a = 0; a < nw; a++)
                for (int b = 0; b < nr; b++) {
                    cases++;
                    if (!run(w, writes[a], reads[b], 3, 4, 3, rows[ri], 0, elems[ei]))
                        continue;
                    const struct rec_cand *r = recommended(w);
                    uint32_t x;
                    long pw = oracle_side(writes[a], 0, 4, 3, 128, rows[ri], &x);
                    long pr = oracle_side(reads[b], 0, 4, 3, 128, rows[ri], &x);
                    if (pw < 0 || pr < 0) {
                        /* the patterns do not fit this tile at all */
                        CHECK_QUIET(fails, r == NULL || !r->ok, "%s/%s rows %u: runs where the "
                                    "patterns do not", writes[a], reads[b], rows[ri]);
                        continue;
                    }
                    runs++;
                    CHECK_QUIET(fails, r != NULL, "%s/%s rows %u: no recommendation", writes[a],
                                reads[b], rows[ri]);
                    if (!r)
                        continue;
                    for (size_t k = 0; k < sizeof presets / sizeof presets[0]; k++) {
                        /* the preset on the same tile: 128-byte rows (<2,5,2> drawn
                         * with bank rows as its rows) */
                        long tw = oracle_side(writes[a], presets[k][0], presets[k][1],
                                              presets[k][2], 128, rows[ri], &x);
                        long tr = oracle_side(reads[b], presets[k][0], presets[k][1],
                                              presets[k][2], 128, rows[ri], &x);
                        if (tw < 0 || tr < 0)
                            continue;
                        /* a TMA write keeps only TMA's modes, all presets among them */
                        CHECK_QUIET(fails, (long)r->total <= tw + tr, "%s/%s rows %u elem %d: "
                                    "%llu worse than preset <%d,%d,%d> %ld", writes[a], reads[b],
                                    rows[ri], elems[ei], (unsigned long long)r->total,
                                    presets[k][0], presets[k][1], presets[k][2], tw + tr);
                    }
                    if (w->bound.expressible) {
                        expressed++;
                        uint64_t bt = w->bound.total[0] + w->bound.total[1];
                        CHECK_QUIET(fails, r->total <= bt, "%s/%s rows %u elem %d: %llu above "
                                    "the bound %llu", writes[a], reads[b], rows[ri], elems[ei],
                                    (unsigned long long)r->total, (unsigned long long)bt);
                    }
                }
    printf("property: %d cases (%d writes x %d reads x %d row counts x 3 element widths), %d "
           "runnable, %d expressible for the optimizer\n", cases, nw, nr, small ? 1 : 4, runs,
           expressed);
    CHECK(fails == 0, "%d property failures", fails);
    CHECK(runs > (small ? 75 : 300) && expressed > (small ? 25 : 100),
          "the property covers enough: %d runs, %d expressed", runs, expressed);
}

/* The translation shortcut (recommend.c: a linear walk under a linear layout
 * costs step 0's pieces once per step) against costing every step: every
 * candidate's, the optimizer's and the fixes' totals agree, on every pair at
 * 8 and 32 rows. */
static void shortcut(struct rec_work *w)
{
    static const uint32_t rows[] = {8, 32};
    struct rec_work *x = malloc(sizeof *x);
    int n, fails = 0, compared = 0;
    const struct pattern *p = pattern_list(&n);
    if (x == NULL)
        return;
    for (size_t ri = 0; ri < (small ? 1u : 2u); ri++)
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                if (!(p[a].op == INSTR_ST || p[a].op == INSTR_STMATRIX) ||
                    p[b].op == INSTR_ST || p[b].op == INSTR_STMATRIX)
                    continue;
                exhaustive = 0;
                int ok = run(w, p[a].name, p[b].name, 0, 4, 3, rows[ri], 0, 0);
                exhaustive = 1;
                int okx = run(x, p[a].name, p[b].name, 0, 4, 3, rows[ri], 0, 0);
                exhaustive = 0;
                CHECK_QUIET(fails, ok == okx, "%s/%s: runs differ", p[a].name, p[b].name);
                if (!ok || !okx)
                    continue;
                compared++;
                int same = w->n == x->n && w->best == x->best && w->pick_opt == x->pick_opt &&
                           w->opt.total == x->opt.total && w->pad.total == x->pad.total;
                for (int i = 0; same && i < w->n; i++)
                    for (int k = 0; k < 2; k++)
                        same &= w->c[i].side[k].ok == x->c[i].side[k].ok &&
                                w->c[i].side[k].wavefronts == x->c[i].side[k].wavefronts &&
                                w->c[i].side[k].cycles == x->c[i].side[k].cycles &&
                                w->c[i].side[k].ideal == x->c[i].side[k].ideal &&
                                w->c[i].side[k].worst == x->c[i].side[k].worst;
                CHECK_QUIET(fails, same, "%s/%s rows %u: the shortcut differs from every step",
                            p[a].name, p[b].name, rows[ri]);
            }
    free(x);
    printf("shortcut: %d pairs compared with every step costed\n", compared);
    CHECK(fails == 0 && compared > 50, "%d differences over %d pairs", fails, compared);
}

/* The work budget (issue 36: one GET held a thread for seconds): the
 * costliest named pair found (row_store both ways, 1024 rows of 128 B: 202,646
 * warp instructions in a sweep of every pair, B 0..5, rows up to 16384, both
 * bank settings) fits REC_MAX_WORK and answers as the unbounded search does;
 * one unit less than it spends stops it (over), at the same point every run. */
static void budget(struct rec_work *w)
{
    struct rec_work *x = malloc(sizeof *x);
    struct rec_meter m = {.budget = REC_MAX_WORK}, m2;
    if (x == NULL)
        return;
    meter = NULL;
    int ran = run(x, "row_store", "row_store", 3, 4, 3, 1024, 0, 0);
    meter = &m;
    ran &= run(w, "row_store", "row_store", 3, 4, 3, 1024, 0, 0);
    CHECK(ran && !m.over && m.spent == 202646, "the costliest named view fits the budget: "
          "spent %llu (202646), over %d", (unsigned long long)m.spent, m.over);
    CHECK(w->n == x->n && w->best == x->best && w->pick_opt == x->pick_opt &&
          w->c[w->best].total == x->c[x->best].total,
          "under the budget the answer is the unbounded one");
    m2 = m = (struct rec_meter){.budget = 202645};
    run(w, "row_store", "row_store", 3, 4, 3, 1024, 0, 0);
    CHECK(m.over && m.spent <= m.budget, "one unit short stops it: over %d, spent %llu",
          m.over, (unsigned long long)m.spent);
    meter = &m2;
    run(w, "row_store", "row_store", 3, 4, 3, 1024, 0, 0);
    CHECK(m2.over && m2.spent == m.spent, "it stops at the same work every run: %llu, %llu",
          (unsigned long long)m2.spent, (unsigned long long)m.spent);
    meter = NULL;
    free(x);
}

/* A kernel's warp accesses recognised as the recommender's patterns: the
 * transpose's store (lane t: word t of row 5) and column read (lane t: word
 * 3 of row t) at one 4096-byte-aligned base are (row_store, col_read) on 32
 * rows; the same read one word off a row start, a lane moved, or two tiles
 * apart is no pair (exact or nothing). */
static void matches(void)
{
    struct instr st, ld;
    instr_defaults(&st, INSTR_ST);
    instr_defaults(&ld, INSTR_LD);
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        st.offsets[t] = 8192 + 5 * 128 + 4 * t;
        ld.offsets[t] = 8192 + t * 128 + 4 * 3;
    }
    struct rec_pair p;
    CHECK(rec_match_pair(&st, &ld, 128, &p) == 1 && !strcmp(p.write, "row_store") &&
          !strcmp(p.read, "col_read") && p.rows == 32 && p.base == 8192 && p.write_step == 5 &&
          p.read_step == 3, "the transpose's pair: %s/%s rows %u base %u steps %u %u",
          p.write, p.read, p.rows, p.base, p.write_step, p.read_step);
    CHECK(rec_match_pair(&ld, &st, 128, &p) == 0, "a load as the write: no pair");
    struct instr moved = ld;
    moved.offsets[7] += 4;
    CHECK(rec_match_pair(&st, &moved, 128, &p) == 0, "one lane off its column: no pair");
    struct instr apart = st;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        apart.offsets[t] += 65536;
    CHECK(rec_match_pair(&apart, &ld, 128, &p) == 0, "the store 64 KiB away (another tile): no pair");
    struct instr wide = ld;
    wide.bytes = 8;
    CHECK(rec_match_pair(&st, &wide, 128, &p) == 0, "an 8-byte read is not the 4-byte column read");
}

int main(void)
{
    struct rec_work *w = malloc(sizeof *w);
    small = check_small();
    if (w == NULL)
        return 1;
    transpose(w);
    column(w);
    ldmatrix(w);
    property(w);
    shortcut(w);
    budget(w);
    matches();
    free(w);
    return check_summary("test_recommend");
}
