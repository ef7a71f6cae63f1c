/* verdict.c - the verdict class of a cost answer (verdict.h), from access.c's
 * counts: which of the extra wavefronts are bank conflicts and which an
 * atomic's same-address serialization (access.c, rule A2).  It counts
 * nothing itself.  Pure core: no I/O, no allocation. */
#include "verdict.h"

enum verdict_class verdict_of(const struct acc_result *r)
{
    const struct acc_atomic *a = &r->atomic;
    if (a->is_atomic && !a->native)
        return VERDICT_NOT_NATIVE;
    if (a->is_atomic && a->serial_wavefronts > 0)
        return a->conflict_wavefronts > 0 ? VERDICT_CONFLICT_AND_SERIALIZATION
                                          : VERDICT_SERIALIZATION;
    if (r->bank_conflicts > 0)
        return VERDICT_CONFLICT;
    for (uint32_t p = 0; p < r->nphases; p++)
        if (r->phases[p].reason == ACC_BROADCAST)
            return VERDICT_CONFLICT_FREE_BROADCAST;
    return VERDICT_CONFLICT_FREE;
}

const char *verdict_name(enum verdict_class v)
{
    switch (v) {
    case VERDICT_CONFLICT_FREE: return "conflict_free";
    case VERDICT_CONFLICT_FREE_BROADCAST: return "conflict_free_broadcast";
    case VERDICT_CONFLICT: return "conflict";
    case VERDICT_SERIALIZATION: return "serialization";
    case VERDICT_CONFLICT_AND_SERIALIZATION: return "conflict_and_serialization";
    case VERDICT_NOT_NATIVE: return "not_native";
    }
    return "conflict";
}
