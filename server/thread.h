/* thread.h - a thread layout: the coordinate of the tensor that each
 * (register, lane, warp, block) of an access touches.  It sits beside the
 * memory layout (layout.h: coordinate -> byte offset); an access is a thread
 * layout over a memory layout.  Two kinds: F2 bases (Triton's distributed
 * encodings and LinearLayouts, a CuTe thread-value layout that is linear)
 * and explicit lanes (one warp instruction: lanes as given, a named atom).
 * Text forms are rows of the thread-form table (thread.c), as memory forms
 * are rows of layout.h's.  Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_THREAD_H
#define SZ_THREAD_H

#include <stdint.h>

#include "error.h"
#include "instr.h"
#include "layout.h"

#define THR_MAX_LANES 64        /* an AMD wave; a warp is 32 */
#define THR_MAX_BASES 24        /* per input: 2^24 registers, lanes, ... is past any tile */
#define THR_IDLE (-1)           /* lane[t][0] of a lane that makes no access */

enum thr_in { THR_REGISTER, THR_LANE, THR_WARP, THR_BLOCK, THR_NIN };

enum thr_kind {
    THR_LANES,      /* one warp instruction, a coordinate per lane */
    THR_BASES       /* input bit i of `in` moves the coordinate by basis[in][i] (XOR per dim) */
};

struct thr {
    const struct thr_form *form;    /* the row that read it; NULL for lanes as given */
    enum thr_kind kind;
    int rank;                       /* of the coordinates, 1..LAY_MAX_RANK */
    int lanes;                      /* per warp: 32 (64 for an AMD wave) */
    /* THR_BASES */
    int n[THR_NIN];
    uint32_t basis[THR_NIN][THR_MAX_BASES][LAY_MAX_RANK];
    /* THR_LANES; lane[t][0] = THR_IDLE for an idle lane */
    int64_t lane[THR_MAX_LANES][LAY_MAX_RANK];
    /* the instruction the form fixes (a named atom, a copy atom), when has_instr */
    int has_instr;
    enum instr_op op;
    uint32_t bytes, matrices;
    int trans;
    const char *name;               /* the atom's name, for the answer; NULL if none */
};

/* What a thread form reads against: the memory layout's element and shape,
 * and the request field its errors name. */
struct thr_ctx {
    const char *field;              /* "atom", "thread", ... */
    int element_bits;
    int rank;
    const uint32_t *shape;
};

/* A row of the thread-form table: one text form of thread layout. */
struct thr_form {
    const char *name;               /* wire name: "atom", ... */
    /* 1 when `text` is this row's (an opener, a name it knows) */
    int (*match)(const char *text);
    /* `text` -> t (every field set); errors name ctx->field */
    int (*parse)(const char *text, const struct thr_ctx *ctx, struct thr *t,
                 struct sz_error *err);
};

/* The rows: named atoms (atoms.c) first; issue 24 adds Triton's distributed
 * encodings, issue 25 CuTe's thread-value prints. */
extern const struct thr_form thr_form_atom;
extern const struct thr_form thr_form_triton;    /* triton_dist.c: #ttg.blocked, ... */

/* Read `text` with the first row that matches it; fails naming ctx->field
 * ("unknown thread layout ...") when none does. */
int thr_parse(const char *text, const struct thr_ctx *ctx, struct thr *t, struct sz_error *err);

/* The warp instructions of t when each lane moves 2^vec_bits consecutive
 * registers (THR_BASES; vec_bits <= n[THR_REGISTER]); 1 for THR_LANES;
 * UINT64_MAX when that count needs 64 bits or more. */
uint64_t thr_instructions(const struct thr *t, int vec_bits);

/* Lane coordinates of instruction k (< thr_instructions) into c[0..t->lanes):
 * register group, then warp, then block, from k's low bits up. */
void thr_instr(const struct thr *t, int vec_bits, uint64_t k, int64_t c[][LAY_MAX_RANK]);

/* Move every active lane of a THR_LANES layout by `origin` (rank `rank`) and
 * check it stays inside `shape`; fails naming "origin". */
int thr_place(struct thr *t, const int64_t *origin, const uint32_t *shape, int rank,
              struct sz_error *err);

#endif
