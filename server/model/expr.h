/* expr.h - a small, safe expression language for a warp's access pattern:
 * `4 * (32 * (t % 16) + ((2*r + t/16) ^ (t % 16)))` gives lane t's byte offset
 * at register step r, compiled once into a fixed-size program, then evaluated
 * per lane.  Pure core: no I/O, no allocation, no dependency on swizzle.h (swz()
 * calls back into the caller).  Nothing a user types may crash, loop or overflow it. */
#ifndef SZ_EXPR_H
#define SZ_EXPR_H

#include <stdint.h>

#include "base/error.h"

/* Grammar (C precedence and left associativity, tightest first):
 *
 *   primary := integer | t | r | ( expr ) | swz ( expr )
 *            | min ( expr , expr ) | max ( expr , expr )
 *   unary   := - unary | ~ unary | primary
 *   binary  := * / %  >  + -  >  << >>  >  &  >  ^  >  |
 *
 * Integers are decimal without leading zeros, 0x hex or 0b binary.  Values are
 * 64-bit signed; / and % truncate toward zero like C; a << n is a * 2^n and
 * a >> n is floor(a / 2^n) (so -1 >> 1 == -1).  Division or modulo by zero,
 * a shift count outside 0..62 and any result outside int64 are errors. */

#define EXPR_MAX_LEN 512    /* characters of source */
#define EXPR_MAX_DEPTH 32   /* parentheses, calls and unary operators, nested */
#define EXPR_MAX_NODES 256  /* operands and operators of the compiled program */

/* Which variables and functions a compiled expression uses (expr.uses). */
#define EXPR_USES_T 1u
#define EXPR_USES_R 2u
#define EXPR_USES_SWZ 4u

/* One postfix instruction; `col` is the 1-based source column it came from,
 * so that an evaluation error can point at its operator. */
struct expr_op {
    int64_t imm;
    uint16_t col;
    uint8_t code;
    uint16_t line, column;  /* col as a position in the text (sz_text_pos), for "at" */
};

/* A compiled expression: plain data, no pointers; copy it freely. */
struct expr {
    uint16_t n;             /* instructions in op[] */
    uint16_t max_stack;     /* deepest evaluation stack the program reaches */
    unsigned uses;          /* EXPR_USES_* */
    struct expr_op op[EXPR_MAX_NODES];
};

/* The swizzle behind swz(x): store the image of x in *out and return 0, or fail
 * with an sz_error (its message is shown after "at column N: swz(x): "). */
typedef int (*expr_swz_fn)(void *ctx, int64_t x, int64_t *out, struct sz_error *err);

/* Compile the NUL-terminated `src` into `out`.  Fails with SZ_INVALID_ARGUMENT,
 * field "expr", message "at column N: ..." (N 1-based, in bytes) on a syntax
 * error, an integer literal outside int64, or a limit above exceeded.
 * Never echoes a byte outside printable ASCII into the message. */
int expr_compile(const char *src, struct expr *out, struct sz_error *err);

/* Evaluate `e` (from a successful expr_compile) at lane t, step r into *out.
 * `swz` may be NULL when e->uses lacks EXPR_USES_SWZ.  Fails with field "expr"
 * and "at column N: ..." naming the operator (division by zero, overflow, bad
 * shift count, swz's own failure) and the t and r it failed at. */
int expr_eval(const struct expr *e, int64_t t, int64_t r, expr_swz_fn swz, void *ctx,
              int64_t *out, struct sz_error *err);

/* expr_eval for the 32 lanes t = 0..31 of one step r; stops at the first lane
 * that fails (out[] is then partly written). */
int expr_eval_warp(const struct expr *e, int64_t r, expr_swz_fn swz, void *ctx,
                   int64_t out[32], struct sz_error *err);

#endif
