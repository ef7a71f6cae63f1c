/* atomic_warps.h - an atomic's cycles per instruction when the tool's loop runs
 * on W warps of one block instead of its 16 (rule A14, atomic_warps.c).
 * Pure core: no I/O, no allocation; it edits the caller's acc_result. */
#ifndef SZ_ATOMIC_WARPS_H
#define SZ_ATOMIC_WARPS_H

#include <stdint.h>

#include "access_words.h"
#include "instr.h"

#define ATOMIC_WARPS_MIN 1
#define ATOMIC_WARPS_MAX 32      /* cuda/probe.cu's --warps: one block, 1..32 warps */
#define ATOMIC_WARPS_DEFAULT 16  /* the tool's launch, which every other rule is for */

/* What A14 says for `op` (INSTR_ATOM with its result used, or INSTR_RED) at
 * w wavefronts an instruction on `warps` warps: cycles per instruction of the
 * steady loop (no floor), whether the rule holds within 2% there (*exact), and
 * which bound sets it (*bound, a static string).  warps in 1..32, w >= 1. */
double atomic_warps_cycles(enum instr_op op, uint32_t w, uint32_t warps, int *exact,
                           const char **bound);

/* Re-cost atomic `in`, which acc_cost costed into r for the tool's 16 warps,
 * for `warps` (1..32): r->atomic.cycles, cycles_exact, warps and warps_bound.
 * 16 leaves every number as it was.  Forms A14 was not measured for (a branch
 * around the atomics, lanes off, 8 bytes, cas, ATOMS.POPC.INC) keep the
 * 16-warp cycles, marked not exact.  A non-native form is left alone. */
void atomic_warps_apply(const struct instr *in, uint32_t warps, struct acc_result *r);

#endif
