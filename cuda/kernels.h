/* kernels.h - the measurement tool's GPU kernels (kernels.cu): one per
 * instruction form, each a timed loop of ACCESSES_PER_ITER copies of one warp
 * instruction, and the baseline loop without accesses.  The report and the
 * timing around them are probe.cu's. */
#ifndef SZ_KERNELS_H
#define SZ_KERNELS_H

#include <stdint.h>

#include "model/instr.h"

enum { ACCESSES_PER_ITER = 8, MAX_WARPS = 32 };

/* What every kernel takes (one block of W <= MAX_WARPS warps). */
struct ProbeArgs {
    uint32_t off[INSTR_LANES]; /* byte offset into dynamic shared memory, per lane */
    uint32_t active;           /* bit t: lane t accesses */
    uint32_t seed;             /* keeps store values opaque to the compiler */
    uint32_t zero;             /* always 0; the compiler cannot know it */
    int iters;
    int stagger;               /* atomics: warp w starts w * stagger cycles late */
    long long *t_start;        /* [MAX_WARPS] */
    long long *t_end;          /* [MAX_WARPS] */
    uint32_t *sink;            /* [MAX_WARPS * 32] */
    /* cp.async: lane t copies from gsrc + goff[t] (+ k * INSTR_COPY_SHIFT_GLOBAL
     * for copy k of an iteration); gsrc holds INSTR_COPY_GLOBAL_LIMIT + 7 shifts */
    uint32_t goff[INSTR_LANES];
    const unsigned char *gsrc;
};

/* Bytes of the global source buffer the cp.async kernels read. */
#define KERNELS_GSRC_BYTES ((size_t)INSTR_COPY_GLOBAL_LIMIT + \
                            (size_t)INSTR_COPY_SHIFT_GLOBAL * (ACCESSES_PER_ITER - 1))

typedef void (*kernel_fn)(ProbeArgs);

/* The kernel of an instruction that passed instr_check: NULL for a form with
 * none (none, while ATOMIC_FORMS lists every form instr_form_allowed
 * accepts). */
kernel_fn kernel_for(const struct instr *p);

/* The loop with a register move instead of the access: the loop's own cost. */
kernel_fn kernel_baseline(void);

#endif
