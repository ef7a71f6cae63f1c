/* access.h - what one warp-wide shared-memory instruction costs: its phases,
 * the banks and distinct words each phase touches, the wavefronts Nsight
 * Compute counts and the cycles the shared-memory pipe is held.
 *
 * Pure core: no I/O, no allocation; the result lives in the caller's struct.
 * The rules are calibrated on 32 banks x 4 bytes (tests/data/calib_*.json);
 * other geometries apply the same rules to their own bank row. */
#ifndef SZ_ACCESS_H
#define SZ_ACCESS_H

#include <stdint.h>

#include "error.h"

#define ACC_LANES 32
#define ACC_INACTIVE UINT32_MAX     /* offset of a lane that does not take part */
#define ACC_MAX_PHASES 32
#define ACC_MAX_BANKS 128

enum acc_op { ACC_LD, ACC_ST, ACC_LDMATRIX, ACC_STMATRIX };

struct acc_instr {
    enum acc_op op;
    uint32_t bytes;                 /* ld/st: 1, 2, 4, 8 or 16; ldmatrix: 16 per row */
    uint32_t matrices;              /* ldmatrix/stmatrix: 1, 2 or 4 */
    int trans;                      /* .trans: changes registers, not addresses */
    uint32_t bank_bytes, banks;     /* 4 and 32 on every NVIDIA GPU since Kepler */
    uint32_t offsets[ACC_LANES];    /* byte offsets, or ACC_INACTIVE */
};

/* Why a phase took the passes it took. */
enum acc_reason {
    ACC_CLEAN,       /* every bank touched once: one pass */
    ACC_BROADCAST,   /* lanes shared words, no bank needed two: one pass */
    ACC_CONFLICT,    /* some bank held several distinct words: one pass per word */
    ACC_EMPTY        /* no active lane: no wavefront, but the pipe still spends a cycle */
};

struct acc_phase {
    uint32_t lane_mask;             /* lanes whose addresses this phase serves */
    uint32_t active_mask;           /* of those, the active ones */
    uint32_t wavefronts;            /* as Nsight Compute counts them */
    uint32_t cycles;                /* pipe cycles */
    uint32_t words;                 /* distinct bank words touched */
    uint32_t max_per_bank;          /* most distinct words in one bank */
    uint32_t worst_bank;            /* a bank holding max_per_bank words */
    enum acc_reason reason;
};

struct acc_result {
    uint32_t wavefronts;            /* ncu: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_* */
    uint32_t source_wavefronts;     /* ncu's Source page (smsp__sass_l1tex_..._op_*): equal
                                     * to wavefronts except where noted in access.c */
    int paired;                     /* a vector load whose lane pairs share addresses:
                                     * served in half the phases */
    uint32_t ideal_wavefronts;      /* the same access with no bank conflict */
    uint32_t cycles;                /* SM cycles the pipe is held (what clock64 sees) */
    uint32_t nphases;
    struct acc_phase phases[ACC_MAX_PHASES];
    /* per lane: its phase, and the pass (0-based wavefront within the phase)
     * in which its words are served; -1 for inactive lanes */
    int lane_phase[ACC_LANES];
    int lane_pass[ACC_LANES];
    uint32_t bank_hits[ACC_MAX_BANKS];  /* lane-accesses per bank, all phases */
};

/* Validate `in`: op/width/matrices combination, bank geometry (bank_bytes
 * 1..32, banks 1..128, powers of two), every active offset aligned to its
 * access and below 2^31.  Names the field ("bytes", "offsets[7]", ...). */
int acc_check(const struct acc_instr *in, struct sz_error *err);

/* Cost `in` (which must pass acc_check) into `out`. */
void acc_cost(const struct acc_instr *in, struct acc_result *out);

/* The wire names: "ld", "st", "ldmatrix", "stmatrix"; "clean", "broadcast", ... */
const char *acc_op_name(enum acc_op op);
const char *acc_reason_name(enum acc_reason r);

/* Nsight Compute's metrics for this instruction: the hardware counters of
 * wavefronts and bank conflicts (summed over every instruction of the kind,
 * ldmatrix under op_ld, stmatrix under op_st) and the per-instruction
 * Source-page metric that source_wavefronts predicts. */
const char *acc_ncu_wavefront_metric(enum acc_op op);
const char *acc_ncu_conflict_metric(enum acc_op op);
const char *acc_ncu_source_metric(enum acc_op op);

#endif
