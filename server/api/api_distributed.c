/* api_distributed.c - POST /api/layout/distributed: a Triton distributed
 * encoding as TTGIR text (with the alias lines it refers to) on a tensor
 * shape -> its register / lane / warp / block bases, as Triton's
 * toLinearLayout gives them (triton_dist.c).  Reads with api_read_layout.c
 * (which /api/linear shares), writes with api_write.c; no layout arithmetic
 * here. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_read_layout.h"
#include "api_routes.h"
#include "api_write.h"
#include "triton/triton_dist.h"

int api_route_layout_distributed(const struct api_request *req, struct buf *out,
                                 struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const fields[] = {"layout", "shape", "aliases", NULL};
    cJSON *root = NULL;
    int64_t shape[TLL_MAX_RANK];
    int rank;
    struct td_layout l;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    int rc = api_fields_check(root, fields, err) < 0 || api_dist_shape(root, shape, &rank, err) < 0 ||
                     api_dist_read(cJSON_GetObjectItemCaseSensitive(root, "layout"),
                                   cJSON_GetObjectItemCaseSensitive(root, "aliases"), shape, rank,
                                   &l, err) < 0
                 ? -1
                 : 0;
    cJSON_Delete(root);
    if (rc < 0)
        return -1;
    buf_putc(out, '{');
    api_put_dist(out, &l);
    buf_puts(out, ",\"source\":\"Triton's toLinearLayout (lib/Dialect/TritonGPU/IR/"
             "LinearLayoutConversions.cpp), single CTA\"}");
    return 0;
}
