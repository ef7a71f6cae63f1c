/* api_read_layout.c - the readers of api_read_layout.h: a named pattern on a
 * map's layout and a Triton distributed encoding, read from a request into
 * the core's structs (pattern.c, triton_dist.c), each error naming its field.
 * It writes no answer.  Apart from api_read.c because the measurement tool
 * links api_read.c alone (Makefile TOOL_SERVER) and must not pull these in. */
#include "api_read_layout.h"

#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "model/pattern.h"
#include "triton/triton_dist.h"

/* ---- a named pattern on a map ------------------------------------------- */

/* Step `step` of named pattern `name` on the layout (z, g): pattern_fill,
 * then refuse a swizzle whose units are narrower than the pattern's accesses. */
int api_pattern_on(const char *name, const struct swz *z, const struct swz_geom *g,
                      uint32_t step, struct instr *in, uint32_t *steps, struct sz_error *err)
{
    if (pattern_fill(name, z, g->row_bytes, g->rows, step, in, steps, err) < 0)
        return -1;
    uint32_t w = instr_lane_bytes(in);
    if (z->b > 0 && g->unit_bytes < w)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "m",
                       "Swizzle<%d,%d,%d> moves %u-byte units, narrower than this "
                       "pattern's %u-byte accesses: the vectors would be torn apart "
                       "(misaligned). Use M >= %d", z->b, z->m, z->s, g->unit_bytes, w,
                       w == 16 ? 4 : w == 8 ? 3 : 2);
    return 0;
}

/* ---- a Triton distributed encoding --------------------------------------- */

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
