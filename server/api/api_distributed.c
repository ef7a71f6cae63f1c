/* api_distributed.c - POST /api/layout/distributed: a Triton distributed
 * encoding as TTGIR text (with the alias lines it refers to) on a tensor
 * shape -> its register / lane / warp / block bases, as Triton's
 * toLinearLayout gives them (triton_dist.c).  Also the reader other routes
 * use to take such a layout.  Reads with api_read.c, writes with buf.c; no
 * layout arithmetic here. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_routes.h"
#include "api_write.h"
#include "triton/triton_dist.h"

#define DIST_MAX_TEXT (1 << 20)     /* bytes of layout plus alias text */

int api_dist_shape(const cJSON *obj, int64_t *shape, int *rank, struct sz_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, "shape");
    int n = cJSON_GetArraySize(a);
    if (!cJSON_IsArray(a) || n < 1 || n > TD_MAX_RANK)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "required: the tensor shape, 1 to %d powers of two", TD_MAX_RANK);
    int i = 0;
    for (const cJSON *x = a->child; x; x = x->next, i++)
        if (api_num_int(x, "shape", 1, (double)((int64_t)1 << TLL_MAX_LOG2), &shape[i], err) < 0)
            return -1;
    *rank = n;
    return 0;
}

int api_dist_read(const cJSON *layout, const cJSON *aliases, const int64_t *shape, int rank,
                  struct td_layout *out, struct sz_error *err)
{
    if (!cJSON_IsString(layout))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout",
                       "required: the encoding as TTGIR prints it, e.g. #ttg.blocked<{...}> "
                       "or #mma with its alias line in aliases");
    if (aliases && !cJSON_IsString(aliases))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "aliases",
                       "must be text: lines such as \"#mma = #ttg.nvidia_mma<{...}>\"");
    const char *al = aliases ? aliases->valuestring : NULL;
    if (strlen(layout->valuestring) + (al ? strlen(al) : 0) > DIST_MAX_TEXT)
        return sz_fail(err, SZ_TOO_LARGE, "layout", "layout and aliases exceed %d bytes",
                       DIST_MAX_TEXT);
    /* the parser's node pool is too large for a request thread's stack */
    struct ta_space *sp = malloc(sizeof *sp);
    if (sp == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    int rc = triton_dist_layout(ta_space_init(sp), layout->valuestring, al, shape, rank, out, err);
    free(sp);
    return rc;
}

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
