/* layout_text.c - the text of a layout, as users paste it: CuTe's print
 * (`Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))`),
 * Triton's #ttg.swizzled_shared / #ttg.nvmma_shared attributes, TMA's
 * tma:CU_TENSOR_MAP_SWIZZLE_*.  Every error names "layout" and its column.
 * It reads text only: layout.c builds and evaluates what it parsed. */
#include <stddef.h>
#include <string.h>

#include "layout.h"

#define log2u lay_log2

/* ---- text cursor ----------------------------------------------------------- */

struct cur {
    const char *s;
    size_t i;
    struct sz_error *err;
};

#define AT(c, ...) at_col((c), (c)->i, __VA_ARGS__)
static int at_col(struct cur *c, size_t i, const char *fmt, const char *what)
{
    return sz_fail(c->err, SZ_INVALID_ARGUMENT, "layout", "at column %zu: %s%s", i + 1, fmt,
                   what ? what : "");
}

static void ws(struct cur *c)
{
    while (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' || c->s[c->i] == '\r')
        c->i++;
}

static int eat(struct cur *c, char ch)
{
    ws(c);
    if (c->s[c->i] != ch)
        return 0;
    c->i++;
    return 1;
}

static int want(struct cur *c, char ch)
{
    if (eat(c, ch))
        return 0;
    return sz_fail(c->err, SZ_INVALID_ARGUMENT, "layout", "at column %zu: expected '%c'",
                   c->i + 1, ch);
}

static int word(struct cur *c, const char *w)
{
    ws(c);
    size_t n = strlen(w);
    if (strncmp(c->s + c->i, w, n) != 0)
        return 0;
    c->i += n;
    return 1;
}

/* A CuTe integer as print writes it: `_N` (static) or `N` (dynamic), N <= hi. */
static int integer(struct cur *c, uint32_t hi, uint32_t *v)
{
    ws(c);
    if (c->s[c->i] == '_')
        c->i++;
    if (c->s[c->i] == '-')
        return AT(c, "negative values are not supported", NULL);
    if (c->s[c->i] < '0' || c->s[c->i] > '9')
        return AT(c, "expected an integer (_N or N)", NULL);
    size_t start = c->i;
    uint64_t x = 0;
    while (c->s[c->i] >= '0' && c->s[c->i] <= '9') {
        x = x * 10 + (uint64_t)(c->s[c->i++] - '0');
        if (x > hi)
            return at_col(c, start, "integer too large", NULL);
    }
    if (c->s[c->i] == '@')
        return AT(c, "scaled-basis strides (coordinate layouts) are not memory layouts",
                  NULL);
    *v = (uint32_t)x;
    return 0;
}

/* ---- CuTe ------------------------------------------------------------------ */

/* One side of shape:stride: leaves in order, and the tuple structure as a
 * token string ('(' ')' ',' 'x') so that stride and shape can be compared. */
#define SIDE_TOKENS (4 * LAY_MAX_LEAVES + 2 * LAY_MAX_DEPTH * LAY_MAX_LEAVES)
struct side {
    int n, ntok, top;               /* leaves, tokens, top-level modes (0: bare int) */
    uint32_t v[LAY_MAX_LEAVES];
    int mode[LAY_MAX_LEAVES];
    char tok[SIDE_TOKENS];
    size_t col[SIDE_TOKENS];
};

static int tok(struct cur *c, struct side *sd, char t)
{
    if ((size_t)sd->ntok >= sizeof sd->tok)
        return AT(c, "layout too deeply nested", NULL);
    sd->col[sd->ntok] = c->i;
    sd->tok[sd->ntok++] = t;
    return 0;
}

static int tuple(struct cur *c, struct side *sd, uint32_t hi, int depth)
{
    ws(c);
    if (c->s[c->i] != '(') {
        if (sd->n == LAY_MAX_LEAVES)
            return AT(c, "too many modes", NULL);
        if (tok(c, sd, 'x') < 0 || integer(c, hi, &sd->v[sd->n]) < 0)
            return -1;
        sd->mode[sd->n++] = depth == 0 ? 0 : sd->top - 1;
        return 0;
    }
    if (depth == LAY_MAX_DEPTH)
        return AT(c, "tuples nested too deeply", NULL);
    if (tok(c, sd, '(') < 0)
        return -1;
    c->i++;
    do {
        if (depth == 0 && ++sd->top > LAY_MAX_RANK)
            return AT(c, "rank above 3", NULL);
        if (tuple(c, sd, hi, depth + 1) < 0)
            return -1;
        ws(c);
        if (c->s[c->i] == ',' && tok(c, sd, ',') < 0)
            return -1;
    } while (eat(c, ','));
    if (tok(c, sd, ')') < 0)
        return -1;
    return want(c, ')');
}

/* `Sw<B,M,S>` or `Swizzle<B,M,S>`; none is fine. */
static int swizzle_prefix(struct cur *c, struct lay *l)
{
    ws(c);
    size_t start = c->i;
    if (!word(c, "Swizzle<") && !word(c, "Sw<"))
        return 0;
    uint32_t v[3];
    int neg[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        ws(c);
        if (k == 2 && c->s[c->i] == '-')
            neg[k] = 1, c->i++;
        if (c->s[c->i] < '0' || c->s[c->i] > '9')
            return AT(c, "expected a digit in Sw<B,M,S>", NULL);
        if (integer(c, 31, &v[k]) < 0 || want(c, k < 2 ? ',' : '>') < 0)
            return -1;
    }
    struct sz_error e2 = {0};
    if (swz_init(&l->z, (int)v[0], (int)v[1], neg[2] ? -(int)v[2] : (int)v[2], &e2) < 0)
        return at_col(c, start, "", e2.message);
    l->swz_col = (int)start + 1;
    l->domain = LAY_SWZ_ELEMENTS;
    if (!word(c, "o"))
        return AT(c, "expected 'o' after the swizzle", NULL);
    /* the offset: smem_ptr[Nb](unset) (swizzle on bytes), or an integer */
    ws(c);
    size_t off_col = c->i;
    if (word(c, "smem_ptr[")) {
        uint32_t bits;
        if (integer(c, 64, &bits) < 0)
            return -1;
        if (!word(c, "b](unset)"))
            return AT(c, "expected 'b](unset)'", NULL);
        if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
            return at_col(c, off_col, "smem_ptr element must be 8, 16, 32 or 64 bits", NULL);
        if (l->element_bits && l->element_bits != (int)bits)
            return sz_fail(c->err, SZ_INVALID_ARGUMENT, "element_bits",
                           "is %d but the layout's smem_ptr says %u bits", l->element_bits, bits);
        l->element_bits = (int)bits;
        l->domain = LAY_SWZ_BYTES;
        return word(c, "o") ? 0 : AT(c, "expected 'o' after smem_ptr", NULL);
    }
    size_t save = c->i;
    uint32_t off;
    if (integer(c, SWZ_OFFSET_LIMIT - 1, &off) == 0 && word(c, "o")) {
        l->offset = off;
        return 0;
    }
    c->i = save;    /* no offset: `Sw<..> o L` */
    return 0;
}

static int parse_cute(struct cur *c, struct lay *l)
{
    struct side shp, str;
    memset(&shp, 0, sizeof shp);
    memset(&str, 0, sizeof str);
    if (swizzle_prefix(c, l) < 0 || tuple(c, &shp, LAY_MAX_SIZE, 0) < 0 || want(c, ':') < 0)
        return -1;
    size_t stride_col = c->i;
    if (tuple(c, &str, SWZ_OFFSET_LIMIT - 1, 0) < 0)
        return -1;
    ws(c);
    if (c->s[c->i] != '\0')
        return AT(c, "unexpected text after the layout", NULL);
    for (int k = 0; k < shp.ntok || k < str.ntok; k++)
        if (k >= shp.ntok || k >= str.ntok || shp.tok[k] != str.tok[k])
            return at_col(c, k < str.ntok ? str.col[k] : stride_col,
                          "the stride's tuple structure does not match the shape's", NULL);
    l->rank = shp.top ? shp.top : 1;
    for (int d = 0; d < l->rank; d++)
        l->shape[d] = 1;
    uint64_t size = 1, hi = l->offset;
    for (int k = 0; k < shp.n; k++) {
        if (shp.v[k] == 0)
            return at_col(c, shp.col[0], "a shape of 0 holds no element", NULL);
        size *= shp.v[k];
        if (size > LAY_MAX_SIZE)
            return sz_fail(c->err, SZ_TOO_LARGE, "layout",
                           "has more than 2^20 elements (%llu so far)", (unsigned long long)size);
        l->shape[shp.mode[k]] *= shp.v[k];
        l->leaf_shape[k] = shp.v[k];
        l->leaf_stride[k] = str.v[k];
        hi += (uint64_t)(shp.v[k] - 1) * str.v[k];
    }
    l->nleaves = shp.n;
    l->size = (uint32_t)size;
    /* every offset, swizzled, must stay a byte offset below 2^31 */
    int eb_log = log2u((uint32_t)l->element_bits / 8);
    int top = 0;    /* bits of the largest byte offset, swizzled or not */
    while (top < 40 && (hi >> top))
        top++;
    top += eb_log;
    if (l->domain != LAY_SWZ_NONE && l->z.b > 0) {
        int zt = (l->z.yyy_lo > l->z.zzz_lo ? l->z.yyy_lo : l->z.zzz_lo) + l->z.b;
        zt += l->domain == LAY_SWZ_ELEMENTS ? eb_log : 0;
        if (zt > top)
            top = zt;
    }
    if (top > 31)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "layout",
                       "reaches byte offsets at or above 2^31");
    if (l->domain == LAY_SWZ_BYTES && l->z.b > 0 && l->z.m < eb_log)
        return at_col(c, (size_t)l->swz_col - 1,
                      "this swizzle on bytes moves bytes inside one element", NULL);
    return 0;
}

/* ---- Triton ------------------------------------------------------------------ */

/* `name = value` pairs inside <{ ... }>: integers, true/false, [a, b, c]. */
static int attr_int(struct cur *c, uint32_t *v) { return integer(c, 1u << 24, v); }

static int attr_bool(struct cur *c, int *v)
{
    if (word(c, "true"))
        return *v = 1, 0;
    if (word(c, "false"))
        return *v = 0, 0;
    return AT(c, "expected true or false", NULL);
}

static int attr_list(struct cur *c, int *v, int *n)
{
    *n = 0;
    if (want(c, '[') < 0)
        return -1;
    do {
        uint32_t x;
        if (*n == LAY_MAX_RANK)
            return AT(c, "more than 3 dimensions", NULL);
        if (integer(c, 1u << 20, &x) < 0)
            return -1;
        v[(*n)++] = (int)x;
    } while (eat(c, ','));
    return want(c, ']');
}

static int all_ones(const int *v, int n)
{
    for (int k = 0; k < n; k++)
        if (v[k] != 1)
            return 0;
    return 1;
}

static int parse_triton_attrs(struct cur *c, struct lay *l, int nvmma)
{
    int seen_order = 0, nord = 0, seen_sw = 0, bits = 0;
    size_t names[16], nnames = 0;   /* where each attribute's name starts */
    if (want(c, '<') < 0 || want(c, '{') < 0)
        return -1;
    do {
        ws(c);
        size_t at = c->i;
        /* `vec = 8, vec = 1` must not pass as its last value: refuse a repeat */
        size_t len = strspn(c->s + at, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
        for (size_t k = 0; k < nnames && len > 0; k++)
            if (strspn(c->s + names[k], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
                    == len && memcmp(c->s + names[k], c->s + at, len) == 0) {
                char name[24];
                sz_echo(name, sizeof name, c->s + at, len);
                return at_col(c, at, "an attribute given twice: ", name);
            }
        if (nnames < sizeof names / sizeof names[0])
            names[nnames++] = at;
        uint32_t v;
        int list[LAY_MAX_RANK], n, b;
        if (!nvmma && word(c, "vec") && want(c, '=') == 0) {
            if (attr_int(c, &v) < 0)
                return -1;
            l->vec = (int)v;
        } else if (!nvmma && (c->i = at, word(c, "perPhase")) && want(c, '=') == 0) {
            if (attr_int(c, &v) < 0)
                return -1;
            l->per_phase = (int)v;
        } else if (!nvmma && (c->i = at, word(c, "maxPhase")) && want(c, '=') == 0) {
            if (attr_int(c, &v) < 0)
                return -1;
            l->max_phase = (int)v;
        } else if (!nvmma && (c->i = at, word(c, "order")) && want(c, '=') == 0) {
            if (attr_list(c, l->order, &nord) < 0)
                return -1;
            seen_order = 1;
        } else if (nvmma && (c->i = at, word(c, "swizzlingByteWidth")) && want(c, '=') == 0) {
            if (attr_int(c, &v) < 0)
                return -1;
            if (v != 0 && v != 32 && v != 64 && v != 128)
                return at_col(c, at, "swizzlingByteWidth must be 0, 32, 64 or 128", NULL);
            l->swizzle_bytes = (int)v;
            seen_sw = 1;
        } else if (nvmma && (c->i = at, word(c, "transposed")) && want(c, '=') == 0) {
            if (attr_bool(c, &l->transposed) < 0)
                return -1;
        } else if (nvmma && (c->i = at, word(c, "elementBitWidth")) && want(c, '=') == 0) {
            if (attr_int(c, &v) < 0)
                return -1;
            bits = (int)v;
            if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
                return at_col(c, at, "elementBitWidth must be 8, 16, 32 or 64", NULL);
        } else if (nvmma && (c->i = at, word(c, "fp4Padded")) && want(c, '=') == 0) {
            if (attr_bool(c, &b) < 0)
                return -1;
            if (b)
                return at_col(c, at, "fp4Padded layouts are not modelled", NULL);
        } else if ((c->i = at, word(c, "CTAsPerCGA") || word(c, "CTASplitNum")) &&
                   want(c, '=') == 0) {
            if (attr_list(c, list, &n) < 0)
                return -1;
            if (!all_ones(list, n))
                return at_col(c, at, "layouts split over several CTAs are not modelled", NULL);
        } else if ((c->i = at, word(c, "CTAOrder")) && want(c, '=') == 0) {
            if (attr_list(c, list, &n) < 0)
                return -1;
        } else {
            return at_col(c, at, nvmma ? "expected swizzlingByteWidth, transposed or "
                                         "elementBitWidth"
                                       : "expected vec, perPhase, maxPhase or order", NULL);
        }
    } while (eat(c, ','));
    if (want(c, '}') < 0 || want(c, '>') < 0)
        return -1;
    ws(c);
    if (c->s[c->i] != '\0')
        return AT(c, "unexpected text after the encoding", NULL);
    if (nvmma && !seen_sw)
        return AT(c, "swizzlingByteWidth is required", NULL);
    if (!nvmma && (!seen_order || l->vec == 0 || l->per_phase == 0 || l->max_phase == 0))
        return AT(c, "vec, perPhase, maxPhase and order are all required", NULL);
    if (!nvmma && nord != l->rank)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "shape",
                       "has rank %d but the encoding's order has %d entries", l->rank, nord);
    if (bits && l->element_bits && bits != l->element_bits)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "element_bits",
                       "is %d but the encoding's elementBitWidth is %d", l->element_bits, bits);
    if (bits)
        l->element_bits = bits;
    return 0;
}


/* ---- TMA --------------------------------------------------------------------- */

static int parse_tma(struct cur *c, struct lay *l)
{
    static const struct { const char *name; int bytes; } modes[] = {
        {"CU_TENSOR_MAP_SWIZZLE_NONE", 0}, {"CU_TENSOR_MAP_SWIZZLE_32B", 32},
        {"CU_TENSOR_MAP_SWIZZLE_64B", 64}, {"CU_TENSOR_MAP_SWIZZLE_128B", 128}};
    ws(c);
    size_t at = c->i;
    for (int k = 3; k >= 0; k--) {
        c->i = at;
        if (!word(c, modes[k].name))
            continue;
        ws(c);
        if (c->s[c->i] != '\0')
            return AT(c, "unexpected text after the swizzle mode (the 128B_ATOM_* modes "
                         "are not modelled)", NULL);
        l->swizzle_bytes = modes[k].bytes;
        return 0;
    }
    return AT(c, "expected CU_TENSOR_MAP_SWIZZLE_NONE, _32B, _64B or _128B", NULL);
}

int lay_parse(const char *text, int element_bits, const uint32_t *shape, int rank,
              struct lay *l, struct sz_error *err)
{
    memset(l, 0, sizeof *l);
    struct cur c = {text, 0, err};
    if (strlen(text) > LAY_MAX_TEXT)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "longer than %d bytes",
                       LAY_MAX_TEXT);
    if (element_bits && element_bits != 8 && element_bits != 16 && element_bits != 32 &&
        element_bits != 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "element_bits", "must be 8, 16, 32 or 64");
    l->element_bits = element_bits;
    ws(&c);
    if (c.s[c.i] == '#') {              /* `#shared = #ttg...` names an alias: skip it */
        size_t save = c.i;
        while (c.s[c.i] && c.s[c.i] != '=' && c.s[c.i] != '<')
            c.i++;
        if (c.s[c.i] != '=')
            c.i = save;
        else
            c.i++;
    }
    int triton = word(&c, "#ttg.") || word(&c, "#triton_gpu.");
    if (triton) {
        size_t at = c.i;
        if (word(&c, "swizzled_shared"))
            l->form = LAY_TRITON_SWIZZLED;
        else if (word(&c, "nvmma_shared"))
            l->form = LAY_TRITON_NVMMA;
        else
            return at_col(&c, at, "expected swizzled_shared or nvmma_shared", NULL);
    } else if (word(&c, "tma:")) {
        l->form = LAY_TMA;
    } else {
        l->form = LAY_CUTE;
    }
    if (l->form == LAY_CUTE) {
        if (rank)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                           "CuTe text carries its own shape: leave shape out");
        if (!l->element_bits)
            l->element_bits = 16;
        if (parse_cute(&c, l) < 0)
            return -1;
        if (!l->element_bits)
            l->element_bits = 16;
        return 0;
    }
    if (rank < 1 || rank > LAY_MAX_RANK)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "is required for Triton and TMA layouts: 1 to 3 extents");
    uint64_t size = 1;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 1 || shape[d] > LAY_MAX_SIZE)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "extents must be 1..2^20");
        size *= shape[d];
        l->shape[d] = shape[d];
    }
    if (size > LAY_MAX_SIZE)
        return sz_fail(err, SZ_TOO_LARGE, "shape", "has %llu elements, more than 2^20",
                       (unsigned long long)size);
    l->rank = rank;
    l->size = (uint32_t)size;
    if (l->form == LAY_TMA ? parse_tma(&c, l) < 0
                           : parse_triton_attrs(&c, l, l->form == LAY_TRITON_NVMMA) < 0)
        return -1;
    if (!l->element_bits)
        l->element_bits = 16;
    if (lay_build(l, err) < 0)
        return -1;
    if ((uint64_t)l->size * (uint32_t)(l->element_bits / 8) > SWZ_OFFSET_LIMIT)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "reaches bytes at or above 2^31");
    return 0;
}

