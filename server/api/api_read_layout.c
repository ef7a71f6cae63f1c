/* api_read_layout.c - the readers of api_read_layout.h: a named pattern on a
 * map's layout, a Triton distributed encoding and a pasted memory layout,
 * read from a request into the core's structs (pattern.c, triton_dist.c,
 * layout.c, rosetta.c), each error naming its field.  It writes no answer.
 * Apart from api_read.c because the measurement tool links api_read.c alone
 * (Makefile TOOL_SERVER) and must not pull these in. */
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

/* ---- a pasted memory layout ---------------------------------------------- */

/* "0x" and hex digits, or decimal digits (leading zeros allowed): 0 and the
 * value, 1 when it is 2^64 or more, -1 when it is no such text. */
static int desc_value(const char *s, uint64_t *out)
{
    unsigned base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    const char *p = base == 16 ? s + 2 : s;
    uint64_t v = 0;
    int over = 0;
    if (*p == '\0')
        return -1;
    for (; *p; p++) {
        unsigned dg = *p >= '0' && *p <= '9' ? (unsigned)(*p - '0')
                    : base == 16 && *p >= 'a' && *p <= 'f' ? (unsigned)(*p - 'a' + 10)
                    : base == 16 && *p >= 'A' && *p <= 'F' ? (unsigned)(*p - 'A' + 10) : 99;
        if (dg >= base)
            return -1;
        if (v > (UINT64_MAX - dg) / base)
            over = 1;
        v = v * base + dg;
    }
    *out = v;
    return over;
}

static int read_desc(const cJSON *root, struct api_tensor *t, struct sz_error *err)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "descriptor");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "descriptor_arch");
    int sm100 = 0;
    if (a && (!cJSON_IsString(a) || (strcmp(a->valuestring, "sm90") != 0 &&
                                      strcmp(a->valuestring, "sm100") != 0)))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "descriptor_arch", "must be \"sm90\" or \"sm100\"");
    if (a)
        sm100 = strcmp(a->valuestring, "sm100") == 0;
    if (d == NULL)
        return 0;
    /* 64 bits do not fit a JSON number: a string, hex (0x...) or decimal */
    const char *s = cJSON_IsString(d) ? d->valuestring : NULL;
    uint64_t v = 0;
    int r = s ? desc_value(s, &v) : -1;
    if (r < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "descriptor",
                       "must be a string holding a 64-bit integer, \"0x...\" or decimal");
    if (r > 0)      /* strtoull would clamp it to 2^64-1: refused instead */
        return sz_fail(err, SZ_INVALID_ARGUMENT, "descriptor",
                       "is 2^64 or more: a descriptor has 64 bits");
    t->has_desc = 1;
    return ros_desc_decode(v, sm100, &t->desc, err);
}

int api_tensor_read(const cJSON *root, struct api_tensor *t, struct sz_error *err)
{
    memset(t, 0, sizeof *t);
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(root, "layout");
    if (!cJSON_IsString(text))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout",
                       "required, the layout's text (CuTe print, #ttg.* encoding or tma:MODE)");
    int64_t bits = 0, base = 0;
    const cJSON *eb = cJSON_GetObjectItemCaseSensitive(root, "element_bits");
    if (eb && api_num_int(eb, "element_bits", 8, 64, &bits, err) < 0)
        return -1;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "base");
    if (b && api_num_int(b, "base", 0, SZ_OFFSET_LIMIT - 1.0, &base, err) < 0)
        return -1;
    t->base = (uint32_t)base;
    uint32_t shape[LAY_MAX_RANK] = {0};
    int rank = 0;
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(root, "shape");
    if (sh) {
        if (!cJSON_IsArray(sh) || cJSON_GetArraySize(sh) < 1 || cJSON_GetArraySize(sh) > 3)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "must be an array of 1 to 3 extents");
        for (const cJSON *it = sh->child; it; it = it->next) {
            int64_t v;
            if (api_num_int(it, "shape", 1, LAY_MAX_SIZE, &v, err) < 0)
                return -1;
            shape[rank++] = (uint32_t)v;
        }
    }
    if (read_desc(root, t, err) < 0 || lay_parse(text->valuestring, (int)bits, shape, rank,
                                                  &t->l, err) < 0)
        return -1;
    t->off = malloc((size_t)t->l.size * 3 * sizeof *t->off);
    if (t->off == NULL)
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    t->sorted = t->off + t->l.size;
    t->tmp = t->sorted + t->l.size;
    lay_eval(&t->l, t->off);
    lay_sort(t->off, t->l.size, t->sorted, t->tmp);
    t->collisions = lay_collisions(t->sorted, t->l.size, &t->dup);
    return 0;
}

void api_tensor_free(struct api_tensor *t) { free(t->off); }

int api_tensor_body(const struct api_request *req, const char *const *fields,
                    cJSON **root, struct api_tensor *t, struct sz_error *err)
{
    static const char *const known_args[] = {NULL};
    *root = NULL;
    memset(t, 0, sizeof *t);
    if (api_args_check(req, known_args, err) < 0 || api_body_object(req, root, err) < 0)
        return -1;
    if (api_fields_check(*root, fields, err) < 0 || api_tensor_read(*root, t, err) < 0) {
        cJSON_Delete(*root);
        *root = NULL;
        api_tensor_free(t);
        return -1;
    }
    return 0;
}
