/* verdict.h - the verdict class of one cost answer: conflict-free (with or
 * without broadcast), a bank conflict, an atomic's same-address
 * serialization (alone or with a conflict), or a form with no exact count.
 * The page words each class (verdict.js); it classifies nothing itself.
 * Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_VERDICT_H
#define SZ_VERDICT_H

#include "access.h"

enum verdict_class {
    VERDICT_CONFLICT_FREE,           /* no extra wavefront */
    VERDICT_CONFLICT_FREE_BROADCAST, /* none, and some phase's lanes shared words */
    VERDICT_CONFLICT,                /* extra wavefronts from banks; "ways" says how many */
    VERDICT_SERIALIZATION,           /* an atomic's extra wavefronts: same-address lanes only */
    VERDICT_CONFLICT_AND_SERIALIZATION, /* an atomic's: both */
    VERDICT_NOT_NATIVE               /* an atomic sm_90 runs as a loop: no exact count */
};

/* The class of `r` (access.c's answer).  Never fails. */
enum verdict_class verdict_of(const struct acc_result *r);

/* Its wire name ("conflict_free", ...); never NULL. */
const char *verdict_name(enum verdict_class v);

#endif
