/* ptx_exec.h - runs a kernel's entry over a launch, block after block, every
 * thread with concrete %tid/%ctaid/..., warps in SIMT order, and hands every
 * warp-level shared-memory access to ptx_cost.  Pure: no I/O; its memory
 * (registers, shared, global buffers) is allocated per run and bounded. */
#ifndef SZ_PTX_EXEC_H
#define SZ_PTX_EXEC_H

#include <stdint.h>

#include "base/error.h"
#include "ptx_cost.h"
#include "ptx_parse.h"

#define PTX_MAX_THREADS 1024u                 /* per block, as on every sm_70+ GPU */
#define PTX_DEFAULT_BUDGET 200000000ull       /* lane-instructions over the launch */
#define PTX_MAX_BUDGET 4000000000ull
#define PTX_DEFAULT_GLOBAL (1u << 20)         /* bytes of each pointer's buffer */
#define PTX_MAX_GLOBAL_TOTAL (256ull << 20)   /* every buffer together */
#define PTX_MAX_STATE (512ull << 20)          /* registers of one block */

struct ptx_launch {
    uint32_t block[3], grid[3];
    int nparams;                    /* must equal the entry's */
    const uint64_t *params;         /* each parameter's value (little-endian bytes) */
    const uint8_t *param_null;      /* 1: a pointer given its own zero-filled buffer */
    uint64_t dynamic_shared;        /* bytes */
    uint64_t global_bytes;          /* each buffer; 0: PTX_DEFAULT_GLOBAL */
    uint64_t budget;                /* lane-instructions; 0: PTX_DEFAULT_BUDGET */
    uint8_t *out;                   /* optional: gets the first null pointer's buffer
                                     * after the run (out_bytes of it), for checks */
    uint64_t out_bytes;
};

/* Check the launch against `e` (threads 1..1024 per block, grid >= 1, one
 * value per parameter, buffers within PTX_MAX_GLOBAL_TOTAL), naming the
 * field ("block", "grid", "params", "global_bytes"). */
int ptx_exec_check(const struct ptx_entry *e, const struct ptx_launch *l, struct sz_error *err);

/* Run every block of the launch (e annotated by ptx_rules_apply) into r
 * (ptx_cost_init'ed).  Past the budget: r->partial and r->stopped, and 0.
 * A kernel fault (an access out of its memory, misaligned) fails naming its
 * PTX line, code invalid_argument, field "ptx". */
int ptx_exec_run(struct ptx_entry *e, const struct ptx_launch *l, struct ptx_report *r,
                 struct sz_error *err);

#endif
