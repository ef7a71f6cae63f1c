/* api_ptx.c - POST /api/ptx {"ptx": TEXT, "kernel", "block", "grid", "params",
 * "dynamic_shared", "global_bytes", "budget"}: one kernel's launch through
 * the PTX interpreter (ptx/ptx_analyze.h), answered per kind, per source
 * line and per instruction as Nsight Compute's Source page counts them, with
 * the assumptions and unsure points the answer relied on; "cuda" (and
 * "arch") instead of "ptx": compiled first by the user's nvcc (base/nvcc.c).
 * Reads and analyses with ptx_request.c, writes with ptx_json.c. */
#include "api_routes.h"
#include "ptx_request.h"

int api_route_ptx(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    struct ptx_request q;
    int rc = ptx_request_run(req, NULL, &q, err);
    if (rc == 0)
        ptx_request_answer(out, &q);
    ptx_request_free(&q);
    return rc;
}
