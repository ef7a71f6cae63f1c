/* api_ptx.c - POST /api/ptx {"ptx": TEXT, "kernel", "block", "grid", "params",
 * "dynamic_shared", "global_bytes", "budget"}: one kernel's launch through
 * the PTX interpreter (ptx/ptx_analyze.h), answered per kind, per source
 * line and per instruction as Nsight Compute's Source page counts them, with
 * the assumptions and unsure points the answer relied on; "cuda" (and
 * "arch") instead of "ptx": compiled first by the user's nvcc (base/nvcc.c).
 * Reads with api_read.c, writes with ptx_json.c; costs nothing itself. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "api_routes.h"
#include "base/nvcc.h"
#include "ptx/ptx_analyze.h"
#include "ptx_json.h"

/* A request's lane-instructions: 50 million unless it asks, at most 100
 * million (under 1 s here; 10 s under the fuzzer's sanitizers, its timeout:
 * a fuzzed request at 200 million took 10.9 s there). */
#define API_PTX_DEFAULT_BUDGET 50000000u
#define API_PTX_BUDGET 100000000.0
#define API_PTX_PARAMS 64

/* "block"/"grid": an array of 1..3 positive integers (the rest 1), or absent (dflt). */
static int read_dims(const cJSON *root, const char *field, uint32_t d[3], int required,
                     struct sz_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, field);
    d[0] = d[1] = d[2] = 1;
    if (!v && !required)
        return 0;
    int n = cJSON_GetArraySize(v);
    if (!cJSON_IsArray(v) || n < 1 || n > 3)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field, "an array of 1 to 3 positive integers "
                       "[x, y, z]");
    for (int k = 0; k < n; k++) {
        int64_t x;
        if (api_num_int(cJSON_GetArrayItem(v, k), field, 1, 2147483647, &x, err) < 0)
            return -1;
        d[k] = (uint32_t)x;
    }
    return 0;
}

static int read_u64(const cJSON *root, const char *field, double hi, uint64_t *out,
                    struct sz_error *err)
{
    int64_t v;
    if (!cJSON_GetObjectItemCaseSensitive(root, field))
        return 0;
    if (api_field_int(root, field, 0, hi, &v, err) < 0)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* "params": one per parameter: an integer (negative ones as two's complement
 * in the parameter's bytes), a number for an .f32/.f64 parameter, or null. */
static int read_params(const cJSON *root, const struct ptx_entry *e, uint64_t *vals,
                       uint8_t *nulls, struct sz_error *err)
{
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(root, "params");
    int n = ps ? cJSON_GetArraySize(ps) : 0;
    if (ps && !cJSON_IsArray(ps))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "params", "an array: a number or null per "
                       "parameter");
    if (e->nparams > API_PTX_PARAMS)
        return sz_fail(err, SZ_TOO_LARGE, "params", "the entry has %d parameters; at most %d",
                       e->nparams, API_PTX_PARAMS);
    if (!ps) {      /* none given: 64-bit parameters are pointers, the others 0 */
        for (int i = 0; i < e->nparams; i++) {
            vals[i] = 0;
            nulls[i] = ptx_op_bits(e->params[i].type) == 64 && !ptx_op_float(e->params[i].type);
        }
        return 0;
    }
    if (n != e->nparams)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "params", "%s takes %d parameters, got %d",
                       e->name, e->nparams, n);
    for (int i = 0; i < n; i++) {
        const cJSON *v = cJSON_GetArrayItem(ps, i);
        char field[24];
        snprintf(field, sizeof field, "params[%d]", i);
        nulls[i] = cJSON_IsNull(v);
        vals[i] = 0;
        if (nulls[i])
            continue;
        if (!cJSON_IsNumber(v))
            return sz_fail(err, SZ_INVALID_ARGUMENT, field, "a number, or null for a pointer "
                           "given its own zero-filled buffer");
        double d = cJSON_GetNumberValue(v);
        if (e->params[i].type == PT_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            vals[i] = u;
        } else if (e->params[i].type == PT_F64) {
            memcpy(&vals[i], &d, 8);
        } else {
            int64_t x;
            if (api_num_int(v, field, -9007199254740991.0, 9007199254740991.0, &x, err) < 0)
                return -1;
            vals[i] = (uint64_t)x;
        }
    }
    return 0;
}

int api_route_ptx(const struct api_request *req, struct buf *out, struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const fields[] = {"ptx", "cuda", "arch", "kernel", "block", "grid",
                                         "params", "dynamic_shared", "global_bytes", "budget",
                                         NULL};
    cJSON *root = NULL;
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &root, err) < 0)
        return -1;
    int rc = -1;
    struct ptx_module m;
    struct ptx_report r;
    memset(&m, 0, sizeof m);
    memset(&r, 0, sizeof r);
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "ptx");
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(root, "kernel");
    struct ptx_launch l;
    memset(&l, 0, sizeof l);
    uint64_t vals[API_PTX_PARAMS];
    uint8_t nulls[API_PTX_PARAMS];
    struct ptx_entry *e = NULL;
    struct nvcc_result *cc = NULL;
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(root, "cuda");
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(root, "arch");
    if (api_fields_check(root, fields, err) < 0)
        goto done;
    if (cuda && text) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "cuda", "give \"ptx\" or \"cuda\", not both");
        goto done;
    }
    if (arch && (!cuda || !cJSON_IsString(arch))) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "arch", cuda ? "a string: sm_90a, sm_80, ..."
                : "only with \"cuda\" (PTX names its own target)");
        goto done;
    }
    if (cuda) {
        if (!cJSON_IsString(cuda)) {
            sz_fail(err, SZ_INVALID_ARGUMENT, "cuda", "the kernel's CUDA source as text");
            goto done;
        }
        /* The PTX nvcc makes of it is analysed as a request's "ptx" would be. */
        struct nvcc_config cfg = {.arch = arch ? arch->valuestring : NULL, .timeout_s = 30};
        cc = malloc(sizeof *cc);
        if (!cc) {
            sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
            goto done;
        }
        if (nvcc_compile(&cfg, cuda->valuestring, strlen(cuda->valuestring), cc, err) < 0)
            goto done;
    } else if (!cJSON_IsString(text)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "ptx", "required: the kernel's PTX as text (or "
                "\"cuda\": its source, compiled here by nvcc)");
        goto done;
    }
    const char *ptx = cc ? cc->ptx : text->valuestring;
    if (kernel && !cJSON_IsString(kernel)) {
        sz_fail(err, SZ_INVALID_ARGUMENT, "kernel", "the entry's name as a string");
        goto done;
    }
    if (read_dims(root, "block", l.block, 1, err) < 0 || read_dims(root, "grid", l.grid, 0, err) < 0 ||
        read_u64(root, "dynamic_shared", INSTR_SMEM_HARD_LIMIT, &l.dynamic_shared, err) < 0 ||
        read_u64(root, "global_bytes", (double)PTX_MAX_GLOBAL_TOTAL, &l.global_bytes, err) < 0 ||
        read_u64(root, "budget", API_PTX_BUDGET, &l.budget, err) < 0)
        goto done;
    if (!l.budget)
        l.budget = API_PTX_DEFAULT_BUDGET;
    if (ptx_parse(ptx, strlen(ptx), &m, err) < 0 ||
        ptx_parse_entry(&m, kernel ? kernel->valuestring : NULL, &e, err) < 0 ||
        read_params(root, e, vals, nulls, err) < 0)
        goto done;
    l.nparams = e->nparams;
    l.params = vals;
    l.param_null = nulls;
    if (ptx_analyze(&m, e->name, &l, &r, &e, err) < 0)
        goto done;
    struct ptx_json_source src = {cc ? cc->file : NULL, cuda ? cuda->valuestring : NULL,
                                  cc ? cc->path : NULL,
                                  arch ? arch->valuestring : "sm_90a", cc ? cc->log : NULL};
    ptx_json_answer(out, &m, e, &l, &r, cc ? &src : NULL);
    rc = 0;
done:
    if (cc)
        nvcc_free(cc);
    free(cc);
    ptx_cost_free(&r);
    ptx_module_free(&m);
    cJSON_Delete(root);
    return rc;
}
