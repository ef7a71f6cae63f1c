/* api_cost.c - POST /api/conflicts: one instruction in the body, its cost out
 * as the cost object every access answer carries (api_write.c's api_put_cost:
 * counts, phases, lanes, bank hits, ncu metric names and, for atomics, what
 * serializes, re-costed for an atomic's "warps": atomic_warps.c).  The
 * numbers are the model's; this file only reads the body and writes JSON. */
#include "model/access.h"
#include "model/atomic_warps.h"
#include "api_read.h"
#include "api_routes.h"
#include "api_write.h"

int api_route_conflicts(const struct api_request *req, struct buf *out,
                           struct sz_error *err)
{
    struct instr in;
    uint32_t warps;
    if (api_instr_body(req, &in, &warps, err) < 0)
        return -1;
    struct acc_result r;
    acc_cost(&in, &r);
    if (warps)
        atomic_warps_apply(&in, warps, &r);
    api_put_cost(out, &in, &r);
    return 0;
}

