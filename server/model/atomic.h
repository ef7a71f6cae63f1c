/* atomic.h - the cost of the atomics (atom.shared, red.shared): access.c
 * cuts every instruction into phases, and hands an atomic's to atomic_cost.
 * Pure core: no I/O, no allocation; the result lives in the caller's struct. */
#ifndef SZ_ATOMIC_H
#define SZ_ATOMIC_H

#include <stddef.h>
#include <stdint.h>

#include "access_words.h"
#include "instr.h"

/* Cost atomic `in` (which passed instr_check) in phases of `per` lanes into
 * r, which acc_cost zeroed (lane_phase and lane_pass -1): phases, lanes,
 * wavefronts, cycles and r->atomic.  A non-native form gets its phases and
 * lanes (one round of its loop) and no counts. */
void atomic_cost(const struct instr *in, uint32_t per, struct acc_result *r);

/* One line on why an atomic costs what it costs, for the page's verdict:
 * bank conflict versus same-address serialization, or what the loop of a
 * non-native form does.  Into buf (cap >= 256); "" for other ops. */
const char *atomic_verdict(const struct instr *in, const struct acc_result *r, char *buf,
                           size_t cap);

#endif
