/* recommend.h - the layout recommender: for one write and one read pattern on
 * a fixed tile (the view's rows x row bytes), cost every distinct valid
 * Swizzle<B,M,S> over every register step of both patterns, ask the F2
 * optimizer (linear.c) for its layout of the pair, and set three fixes side by
 * side: the XOR swizzle, padding, and a staggered lane schedule.  Pure core:
 * no I/O, no allocation, no JSON; the caller owns the (large) rec_work. */
#ifndef SZ_RECOMMEND_H
#define SZ_RECOMMEND_H

#include "model/access.h"
#include "model/instr.h"
#include "linear/linear.h"
#include "linear/linear_opt.h"
#include "model/swizzle.h"

#define REC_MAX_CANDS 1024  /* distinct swizzles of one tile (a 2^20-byte tile has fewer) */
#define REC_MAX_STEPS 1024  /* register steps costed per pattern */
#define REC_MAX_PADS 128    /* padding layouts tried */
#define REC_TMA "tma_box"   /* the write "pattern" of a TMA load into shared memory */

/* The most work one search may do, in warp instructions costed (access.c's
 * cost of one instruction of 32 lanes; a translating walk's check of its steps
 * counts one for every 32 steps).  The search's time is about proportional to
 * it (about 1.2 us a unit at -O2 on the 2-CPU VM), and it, unlike time, is the
 * same on every machine and every run, so the answer is too.  The costliest
 * named (write, read) pair over B 0..5, rows up to 16384 and both bank
 * settings spends 202,646 (0.24 s there): every such view is answered, and a
 * search past 250,000 (about 0.3 s) is refused, whatever grows the search. */
#define REC_MAX_WORK 250000u

/* What a search may spend and has spent (rec_work.meter). */
struct rec_meter {
    uint64_t budget;        /* in: warp instructions the search may cost */
    uint64_t spent;         /* out: what it costed, at most budget */
    int over;               /* out: it stopped at the budget: its results are partial */
};

/* Where a logical byte offset of the tile lives. */
enum rec_kind { REC_SWIZZLE, REC_LINEAR, REC_PADDED };
struct rec_layout {
    enum rec_kind kind;
    int b, m, s, match;         /* REC_SWIZZLE, and the match_bank_row of a view of the tile
                                 * that draws it (-1: none does) */
    struct swz z;
    int nbits;                  /* REC_LINEAR: img[k] is where byte-offset bit k goes */
    uint32_t img[32];
    uint32_t interval, pad;     /* REC_PADDED: +pad bytes after every interval bytes */
};

/* Physical byte offset of logical byte offset `o` under `l`. */
uint32_t rec_apply(const struct rec_layout *l, uint32_t o);

/* How a side issues its accesses: the lanes' steps staggered by `sched` (0:
 * none; 1: lane t does step (r + (t >> shift)) % R; 2: r ^ (t >> shift)), and
 * `split`: 0, or each lane access moved as ld/st of `split` bytes, one
 * instruction per piece (what a layout that keeps only that much of a
 * vector together needs). */
struct rec_how {
    int sched, shift;
    uint32_t split;
};

/* One side (0 write, 1 read) over the whole tile: every register step, each a
 * warp instruction (or `split` pieces), costed by access.c. */
struct rec_total {
    int ok;
    char why[200];
    struct rec_how how;
    uint32_t steps;                         /* instructions per tile */
    uint64_t wavefronts, ideal, cycles;     /* sums over the instructions */
    uint32_t worst, worst_step;             /* the most wavefronts of one, the first such */
};

struct rec_cand {
    struct rec_layout lay;
    const char *origin;         /* "current", "preset", "search", "optimizer", "padding" */
    int ok;                     /* both sides ok */
    uint64_t total, cycles;     /* write + read over the tile */
    uint64_t extra_bytes;       /* shared memory beyond the tile (padding) */
    struct rec_total side[2];
};

/* The F2 optimizer on the pair, where the patterns are linear maps. */
struct rec_bound {
    int expressible;
    char why[240];              /* why not, when not */
    struct lin_problem p;
    struct lin_opt o;
    struct lin_side sd[2];
    uint64_t total[2], ideal[2];    /* wavefronts over the tile: per instruction x instructions */
    int usable;                 /* its layout keeps every access of both patterns whole */
};

/* The problem and everything found. */
struct rec_work {
    /* in */
    const char *names[2];       /* write and read pattern names (write may be REC_TMA) */
    uint32_t rows, row_bytes, bank_bytes, banks;
    int elem_bits, elem_given;  /* 8, 16, 32 or 64; given by the client or chosen */
    struct swz cur;             /* the view's swizzle and its match_bank_row */
    int cur_match;
    /* the patterns' logical offsets, step by step (steps x 32) */
    struct instr shape[2];
    uint32_t steps[2];
    int side_ok[2];
    char side_why[2][200];
    uint32_t offs[2][REC_MAX_STEPS * INSTR_LANES];
    uint32_t access_bytes[2];   /* bytes one lane moves */
    int translate[2];           /* every step is step 0 XOR one offset (a linear walk): under a
                                 * linear layout every step then costs what step 0 costs */
    int exhaustive;             /* in: cost every step even so (the tests' cross-check) */
    struct rec_meter *meter;    /* in: the work bound (NULL: none, for the core's tests) */
    /* out */
    int tried, n;               /* (B,M,S) valid for the view; distinct on the tile */
    struct rec_cand c[REC_MAX_CANDS];
    uint32_t sig[REC_MAX_CANDS][32];    /* each candidate's byte-bit images, for repeats */
    int best;                   /* the best swizzle, -1 when none runs both */
    int cur_index;              /* the current swizzle's candidate, -1 when it cannot be one */
    const char *cur_why;        /* why not */
    struct rec_layout cur_lay;  /* the current swizzle as a layout, whatever it holds */
    struct rec_bound bound;
    struct rec_cand opt;        /* the optimizer's layout costed as the candidates are, each
                                 * side split to its vector when that is narrower */
    int pick_opt;               /* 1: the recommendation is the optimizer's layout */
    int reaches;                /* the recommendation costs no more than the bound */
    char verdict[700];          /* in words: reaches the bound, or why nothing does */
    struct rec_cand pad;        /* the best padding (ok 0 when none runs) */
    int npads;
    struct rec_total sched[2];  /* the best lane schedule per side on the current layout */
};

/* The element width chosen when the client names none: 16 when a side is a
 * matrix op (b16 rows), 32 when every access is a whole word, else 8. */
int rec_default_elem(const char *const names[2]);

/* Fill w's patterns: logical offsets of every step of both sides on the
 * tile.  A side that cannot run says why in side_why (not an error); fails
 * on "rows" when a pattern has more than REC_MAX_STEPS steps on the tile. */
int rec_plan(struct rec_work *w, struct sz_error *err);

/* Cost side k over the tile under layout l, issued as `how` says (NULL: as
 * the pattern is).  Past w->meter's budget it costs nothing: t->ok is 0 and
 * the meter says over. */
void rec_side_total(const struct rec_work *w, int k, const struct rec_layout *l,
                    const struct rec_how *how, struct rec_total *t);

/* The whole search after rec_plan: candidates (current first, presets, then
 * every valid (B,M,S) in order, one per distinct map of the tile), costs,
 * ranking, the optimizer's bound, padding and lane schedules.  When w->meter's
 * budget runs out it stops there (meter->over): the results are partial and
 * must not be shown as the answer. */
void rec_search(struct rec_work *w);

/* The F2 problem of the pair (tile in elements of w->elem_bits; lane, vector
 * and step bases read off the patterns and checked on every step): 1 when the
 * patterns are linear maps of (step, lane), else 0 and why. */
int rec_express(const struct rec_work *w, struct lin_problem *p, char *why, size_t cap);

/* Instruction `idx` (below rec_side_total's steps) of side k under l issued
 * as `how` says, for the answer's /api/conflicts detail. */
void rec_side_instr(const struct rec_work *w, int k, const struct rec_layout *l,
                    const struct rec_how *how, uint32_t idx, struct instr *in);

/* The tile in elements as a lin_tile; 0 when rows or row elements are not
 * powers of two. */
int rec_tile(const struct rec_work *w, struct lin_tile *t);

/* The layout l as offset bases on the tile (lin_mem); 0 when it has none
 * (padding, a non-power-of-two tile, a map that splits elements). */
int rec_mem(const struct rec_work *w, const struct rec_layout *l, struct lin_mem *m);

/* ---- the pasteable forms (recommend_code.c) ------------------------------ */

/* Layout l on w's tile, written as people paste it, for w's element type:
 * each text "" when the form has none, with `why_*` saying why. */
struct rec_code {
    char elem[16];              /* the C++ element type named: float, half_t, ... */
    char cute[320], why_cute[200];
    char atom[320];             /* the GMMA/UMMA atom tiled to the tile, when one matches */
    char triton[900], triton_form[24], why_triton[200];
    char tma[200], why_tma[200];
    char c[1400];               /* plain C: logical (row, col) -> shared-memory offset */
};
void rec_code(const struct rec_work *w, const struct rec_layout *l, struct rec_code *out);

/* Triton's #ttg.shared_linear text of memory layout m on tile t (any
 * bijection has one: its offset bases as [dim0, dim1]); cut at cap. */
void rec_shared_linear(const struct lin_tile *t, const struct lin_mem *m, char *out, size_t cap);

/* The lane schedule of side k (t->how) as C, "" for none. */
void rec_sched_code(const struct rec_work *w, int k, const struct rec_total *t, char *out,
                    size_t cap);

#endif
