/* footprint.h - the grid cells one warp instruction touches: which physical
 * slots each active lane's bytes fall in, the logical unit stored in each,
 * and the phase that first reaches it (what the page outlines on the maps).
 *
 * Pure core: no I/O, no allocation; the caller owns the result. */
#ifndef SZ_FOOTPRINT_H
#define SZ_FOOTPRINT_H

#include <stdint.h>

#include "access.h"
#include "instr.h"
#include "swizzle.h"

/* A lane touches at most 16 bytes, so at most 16 one-byte slots. */
#define FOOTPRINT_MAX_SLOTS (INSTR_LANES * 16)

struct footprint_slot {
    uint32_t slot;          /* physical slot p: bytes [p*unit, (p+1)*unit) */
    uint32_t logical;       /* the logical unit stored there (the grid's log_of[p]) */
    int phase;              /* phase of the lowest lane touching it */
    uint32_t lanes;         /* mask of the active lanes touching it */
};

struct footprint {
    uint32_t nslots;        /* in order of the lowest lane touching each */
    struct footprint_slot slot[FOOTPRINT_MAX_SLOTS];
    uint32_t outside;       /* active lanes whose access starts past the grid */
};

/* The slots instruction `in`, costed as `r` (acc_cost), touches on grid `g`
 * swizzled by `z`.  A lane is active when r gave it a phase; its bytes are
 * [offset, offset + instr_lane_bytes(in)), cut at the grid's end. */
void footprint_of(const struct instr *in, const struct acc_result *r, const struct swz *z,
                  const struct swz_geom *g, struct footprint *fp);

#endif
