/* access.h - what one warp-wide shared-memory instruction costs: its phases,
 * the banks and distinct words each phase touches, the wavefronts Nsight
 * Compute counts and the cycles the shared-memory pipe is held; for atomics,
 * also what same-address lanes add and the issue floor of the cycles.
 * (atomic.c holds the atomics' rules.)
 * Pure core: no I/O, no allocation; the result lives in the caller's struct.
 * The rules are calibrated on 32 banks x 4 bytes (tests/data/calib_*.json);
 * other geometries apply the same rules to their own bank row. */
#ifndef SZ_ACCESS_H
#define SZ_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "access_words.h"
#include "base/error.h"
#include "instr.h"

/* Cost `in` (which must pass instr_check) into `out`.  A non-native atomic
 * gets its phases and lanes (one round of its loop) and no counts:
 * wavefronts, ideal_wavefronts, bank_conflicts and cycles are 0. */
void acc_cost(const struct instr *in, struct acc_result *out);

/* The clock64 cycles per instruction the model predicts for the probe:
 * `cycles` for loads and stores, atomic.cycles for atomics. */
double acc_clock_cycles(const struct acc_result *r);

#endif
