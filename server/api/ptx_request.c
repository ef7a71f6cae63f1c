/* ptx_request.c - a POST /api/ptx body read (api_read.c's readers), compiled
 * when it is "cuda" (base/nvcc.c), parsed and analysed (ptx/ptx_analyze.h):
 * the one reading /api/ptx and /api/ptx/measure share.  It writes only the
 * analysis's answer (ptx_json.c) and never runs the measurement tool. */
#include "ptx_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_read.h"
#include "ptx_json.h"
#include "recommend/rec_match.h"

/* The recommender's tile rows: one bank row (32 banks of 4 bytes), as its
 * page draws a tile with match_bank_row. */
#define PTX_REQUEST_ROW_BYTES 128u

/* A request's lane-instructions: 50 million unless it asks, at most 100
 * million (under 1 s here; 10 s under the fuzzer's sanitizers, its timeout:
 * a fuzzed request at 200 million took 10.9 s there). */
#define API_PTX_DEFAULT_BUDGET 50000000u
#define API_PTX_BUDGET 100000000.0

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
    if (e->nparams > PTX_REQUEST_PARAMS)
        return sz_fail(err, SZ_TOO_LARGE, "params", "the entry has %d parameters; at most %d",
                       e->nparams, PTX_REQUEST_PARAMS);
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

int ptx_request_run(const struct api_request *req, const char *const *extra,
                    struct ptx_request *q, struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    static const char *const base[] = {"ptx", "cuda", "arch", "kernel", "block", "grid",
                                       "params", "dynamic_shared", "global_bytes", "budget"};
    const char *fields[sizeof base / sizeof base[0] + 8];
    size_t nf = 0;
    for (; nf < sizeof base / sizeof base[0]; nf++)
        fields[nf] = base[nf];
    for (size_t i = 0; extra && extra[i] && nf < sizeof fields / sizeof fields[0] - 1; i++)
        fields[nf++] = extra[i];
    fields[nf] = NULL;
    memset(q, 0, sizeof *q);
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, &q->root, err) < 0)
        return -1;
    const cJSON *root = q->root;
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "ptx");
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(root, "kernel");
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(root, "cuda");
    const cJSON *arch = cJSON_GetObjectItemCaseSensitive(root, "arch");
    struct ptx_launch *l = &q->l;
    if (api_fields_check(root, fields, err) < 0)
        return -1;
    if (cuda && text)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "cuda", "give \"ptx\" or \"cuda\", not both");
    if (arch && (!cuda || !cJSON_IsString(arch)))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "arch", cuda ? "a string: sm_90a, sm_80, ..."
                       : "only with \"cuda\" (PTX names its own target)");
    q->arch = arch ? arch->valuestring : "sm_90a";
    if (cuda) {
        if (!cJSON_IsString(cuda))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "cuda", "the kernel's CUDA source as text");
        /* The PTX nvcc makes of it is analysed as a request's "ptx" would be. */
        struct nvcc_config cfg = {.arch = arch ? arch->valuestring : NULL, .timeout_s = 30};
        q->cc = malloc(sizeof *q->cc);
        if (!q->cc)
            return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
        if (nvcc_compile(&cfg, cuda->valuestring, strlen(cuda->valuestring), q->cc, err) < 0)
            return -1;      /* ptx_request_free frees what it made */
        q->cuda = cuda->valuestring;
    } else if (!cJSON_IsString(text)) {
        return sz_fail(err, SZ_INVALID_ARGUMENT, "ptx", "required: the kernel's PTX as text (or "
                       "\"cuda\": its source, compiled here by nvcc)");
    }
    q->ptx = q->cc ? q->cc->ptx : text->valuestring;
    if (kernel && !cJSON_IsString(kernel))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "kernel", "the entry's name as a string");
    if (read_dims(root, "block", l->block, 1, err) < 0 ||
        read_dims(root, "grid", l->grid, 0, err) < 0 ||
        read_u64(root, "dynamic_shared", INSTR_SMEM_HARD_LIMIT, &l->dynamic_shared, err) < 0 ||
        read_u64(root, "global_bytes", (double)PTX_MAX_GLOBAL_TOTAL, &l->global_bytes, err) < 0 ||
        read_u64(root, "budget", API_PTX_BUDGET, &l->budget, err) < 0)
        return -1;
    if (!l->budget)
        l->budget = API_PTX_DEFAULT_BUDGET;
    if (ptx_parse(q->ptx, strlen(q->ptx), &q->m, err) < 0 ||
        ptx_parse_entry(&q->m, kernel ? kernel->valuestring : NULL, &q->e, err) < 0 ||
        read_params(root, q->e, q->vals, q->nulls, err) < 0)
        return -1;
    l->nparams = q->e->nparams;
    l->params = q->vals;
    l->param_null = q->nulls;
    return ptx_analyze(&q->m, q->e->name, l, &q->r, &q->e, err);
}

/* The site of line `ln` whose worst warp access has the most excess, or NULL. */
static const struct ptx_site *worst_site(const struct ptx_request *q, const struct ptx_line *ln)
{
    const struct ptx_site *best = NULL;
    for (uint32_t i = 0; i < q->r.nsites; i++) {
        const struct ptx_site *s = &q->r.sites[i];
        int loc = q->e->insns[s->insn].loc;
        if (!s->has_worst || s->kind != ln->kind || loc < 0 ||
            q->e->locs[loc].file != ln->file || q->e->locs[loc].line != ln->line)
            continue;
        if (!best || s->worst_wavefronts - s->worst_ideal > best->worst_wavefronts - best->worst_ideal)
            best = s;
    }
    return best;
}

/* ,"tiles":[...]: each line with excess wavefronts whose worst access is a
 * named pattern's step on a 2-D tile that another instruction writes (or
 * reads) at the same base: the pair GET /api/recommend takes, so that the
 * page asks the recommender for its fix (nothing here costs a layout). */
static void put_tiles(struct buf *out, const struct ptx_request *q)
{
    buf_puts(out, ",\"tiles\":[");
    int n = 0;
    for (uint32_t i = 0; i < q->r.nlines; i++) {
        const struct ptx_line *ln = &q->r.lines[i];
        const struct ptx_site *s = ln->excess ? worst_site(q, ln) : NULL;   /* a fix is for excess */
        if (!s || (s->kind != PK_LD && s->kind != PK_ST && s->kind != PK_LDSM && s->kind != PK_STSM))
            continue;
        int is_load = instr_is_load(s->worst.op);
        struct rec_pair pair;
        int found = 0;
        for (uint32_t k = 0; k < q->r.nsites && !found; k++) {
            const struct ptx_site *o = &q->r.sites[k];
            if (o == s || !o->has_worst || instr_is_load(o->worst.op) == is_load)
                continue;
            found = rec_match_pair(is_load ? &o->worst : &s->worst, is_load ? &s->worst : &o->worst,
                                   PTX_REQUEST_ROW_BYTES, &pair);
        }
        if (!found)
            continue;
        buf_puts(out, n++ ? ",{\"file\":" : "{\"file\":");
        buf_json_str(out, ptx_parse_file(&q->m, ln->file));
        buf_printf(out, ",\"line\":%d,\"kind\":\"%s\",\"write\":\"%s\",\"read\":\"%s\","
                   "\"rows\":%u,\"row_bytes\":%u,\"base\":%u}", ln->line,
                   ptx_cost_kind_name(ln->kind), pair.write, pair.read, pair.rows, pair.row_bytes,
                   pair.base);
    }
    buf_putc(out, ']');
}

void ptx_request_answer(struct buf *out, const struct ptx_request *q)
{
    struct ptx_json_source src = {q->cc ? q->cc->file : NULL, q->cuda, q->cc ? q->cc->path : NULL,
                                  q->arch, q->cc ? q->cc->log : NULL};
    struct buf tiles = {0};
    put_tiles(&tiles, q);
    ptx_json_answer(out, &q->m, q->e, &q->l, &q->r, q->cc ? &src : NULL,
                    tiles.oom ? NULL : tiles.p);
    buf_free(&tiles);
}

void ptx_request_free(struct ptx_request *q)
{
    if (q->cc)
        nvcc_free(q->cc);
    free(q->cc);
    ptx_cost_free(&q->r);
    ptx_module_free(&q->m);
    cJSON_Delete(q->root);
    memset(q, 0, sizeof *q);
}
