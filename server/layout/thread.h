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

#include "base/error.h"
#include "model/instr.h"
#include "cute_text.h"
#include "layout.h"

#define THR_MAX_LANES 64        /* an AMD wave; a warp is 32 */
#define THR_MAX_BASES 24        /* per input: 2^24 registers, lanes, ... is past any tile */
#define THR_IDLE (-1)           /* lane[t][0] of a lane that makes no access */

enum thr_in { THR_REGISTER, THR_LANE, THR_WARP, THR_BLOCK, THR_NIN };

enum thr_kind {
    THR_LANES,      /* one warp instruction, a coordinate per lane */
    THR_BASES,      /* input bit i of `in` moves the coordinate by basis[in][i] (XOR per dim) */
    THR_TV          /* a CuTe thread-value layout (thread_cute.c): (thread, value) -> (m, n) */
};

/* What a CuTe tiled copy or MMA print says (thread_cute.c reads it): side 0
 * is the source (S; an MMA's one layout), side 1 the destination (D). */
struct thr_tv {
    int latex[2];                   /* the side came as print_latex's ArithTuple TV line */
    int has[2];                     /* the side is known */
    const char *label[2];           /* "Layout S TV", "LayoutA", ... */
    const char *coords;             /* what (m, n) are: "(m, n)", an MMA's "(m, k)", "(n, k)" */
    int64_t origin[2][2];           /* ArithTuple(m0, n0) */
    struct cute_layout tv[2];            /* latex: (thread, value) -> (m, n) */
    /* print(tiled_copy): Tiler_MN, TiledLayout_TV, ValLayoutSrc/Dst, right_inverse(Ref) */
    uint32_t tiler[2];
    struct cute_layout tiled, val[2], ref_inv;
    uint32_t atom_thr, atom_val;    /* size<0> and size<1> of ValLayoutRef */
    uint32_t threads[2], values[2];
    int value_bits;                 /* ValueType's bits; 0 when not printed */
    int atom;                       /* THR_ATOM_* the print's Copy_Atom is */
    int matrices, trans;            /* ldmatrix/stmatrix .xN, .trans */
    uint32_t atom_bytes;            /* bytes per thread of one atom */
    int side;                       /* the side an access costs (thr_tv_side) */
    int group;                      /* values per lane per instruction (thr_tv_side) */
    int by_descriptor;              /* an MMA operand line whose threads all see the whole
                                     * tile (thread strides 0: SM90 GMMA's SS operands,
                                     * ABLayout): wgmma reads it through its descriptor,
                                     * no thread addresses it */
};
enum { THR_ATOM_NONE, THR_ATOM_LDSM, THR_ATOM_STSM, THR_ATOM_ONE_THREAD, THR_ATOM_MMA };

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
    int swapped;                    /* dims 0 and 1 of the lanes swapped to the layout's order */
    struct thr_tv tv;               /* THR_TV */
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
extern const struct thr_form thr_form_atom, thr_form_cute_tv;
extern const struct thr_form thr_form_triton;    /* thread_triton.c: #ttg.blocked, ... */

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

/* THR_TV: pick the side an access of `op` reads or writes (ld, ldmatrix: the
 * source; st, stmatrix, cp.async: the destination) and the values each lane
 * moves per instruction (`lane_bytes` of `element_bits` elements); fails
 * naming `field` when the print has no such side, the atom is another
 * instruction, or the values do not split into instructions. */
int thr_tv_side(struct thr *t, enum instr_op op, uint32_t lane_bytes, int element_bits,
                const char *field, struct sz_error *err);

/* THR_TV: the (m, n) of thread `thread`'s value `value` on the chosen side. */
void thr_tv_coord(const struct thr_tv *tv, int side, uint32_t thread, uint32_t value,
                  int64_t *m, int64_t *n);

/* The extent each dim's coordinates reach: 1 + the largest coordinate of
 * any active lane (THR_LANES) or any (thread, value) of the chosen side, or
 * of side 0 when none is chosen (THR_TV), into ext[0..t->rank). */
void thr_extent(const struct thr *t, int64_t *ext);

/* Move every active lane of a THR_LANES layout by `origin` (rank `rank`) and
 * check it stays inside `shape`; fails naming "origin". */
int thr_place(struct thr *t, const int64_t *origin, const uint32_t *shape, int rank,
              struct sz_error *err);

#endif
