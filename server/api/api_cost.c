/* api_cost.c - POST /api/conflicts: one instruction in the body, its cost out
 * as the cost object every access answer carries (api_write.c's api_put_cost:
 * counts, phases, lanes, bank hits, ncu metric names and, for atomics, what
 * serializes).  The numbers are access.c's; this file only reads the body and
 * writes JSON. */
#include "model/access.h"
#include "api_read.h"
#include "api_routes.h"
#include "api_write.h"

int api_route_conflicts(const struct api_request *req, struct buf *out,
                           struct sz_error *err)
{
    struct instr in;
    if (api_instr_body(req, &in, err) < 0)
        return -1;
    struct acc_result r;
    acc_cost(&in, &r);
    api_put_cost(out, &in, &r);
    return 0;
}

