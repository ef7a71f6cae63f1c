/* layout_cute.c - the CuTe row of the layout form table: CuTe's print of a
 * shared-memory layout (`Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):
 * ((_64,_512),(_1,_0))`, `Sw<3,3,3> o _0 o ...`, nested tuples, rank 1-3,
 * dynamic ints) read straight into the strided evaluator.  Every error names
 * "layout" and its column, or "element_bits"; it evaluates nothing. */
#include <string.h>

#include "bits.h"
#include "layout_text.h"


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

static int tok(struct lay_cur *c, struct side *sd, char t)
{
    if ((size_t)sd->ntok >= sizeof sd->tok)
        return LAY_AT(c, "layout too deeply nested");
    sd->col[sd->ntok] = c->i;
    sd->tok[sd->ntok++] = t;
    return 0;
}

static int tuple(struct lay_cur *c, struct side *sd, uint32_t hi, int depth)
{
    lay_ws(c);
    if (c->s[c->i] != '(') {
        if (sd->n == LAY_MAX_LEAVES)
            return LAY_AT(c, "too many modes");
        if (tok(c, sd, 'x') < 0 || lay_int(c, hi, &sd->v[sd->n]) < 0)
            return -1;
        sd->mode[sd->n++] = depth == 0 ? 0 : sd->top - 1;
        return 0;
    }
    if (depth == LAY_MAX_DEPTH)
        return LAY_AT(c, "tuples nested too deeply");
    if (tok(c, sd, '(') < 0)
        return -1;
    c->i++;
    do {
        if (depth == 0 && ++sd->top > LAY_MAX_RANK)
            return LAY_AT(c, "rank above 3");
        if (tuple(c, sd, hi, depth + 1) < 0)
            return -1;
        lay_ws(c);
        if (c->s[c->i] == ',' && tok(c, sd, ',') < 0)
            return -1;
    } while (lay_eat(c, ','));
    if (tok(c, sd, ')') < 0)
        return -1;
    return lay_want(c, ')');
}

/* `Sw<B,M,S>` or `Swizzle<B,M,S>`; none is fine. */
static int swizzle_prefix(struct lay_cur *c, struct lay *l)
{
    lay_ws(c);
    size_t start = c->i;
    if (!lay_word(c, "Swizzle<") && !lay_word(c, "Sw<"))
        return 0;
    uint32_t v[3];
    int neg[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        lay_ws(c);
        if (k == 2 && c->s[c->i] == '-')
            neg[k] = 1, c->i++;
        if (c->s[c->i] < '0' || c->s[c->i] > '9')
            return LAY_AT(c, "expected a digit in Sw<B,M,S>");
        if (lay_int(c, 31, &v[k]) < 0 || lay_want(c, k < 2 ? ',' : '>') < 0)
            return -1;
    }
    struct sz_error e2 = {0};
    if (swz_init(&l->z, (int)v[0], (int)v[1], neg[2] ? -(int)v[2] : (int)v[2], &e2) < 0)
        return lay_at(c, start, "", e2.message);
    l->a.cute.swz_col = (int)start + 1;
    l->domain = LAY_SWZ_ELEMENTS;
    if (!lay_word(c, "o"))
        return LAY_AT(c, "expected 'o' after the swizzle");
    /* the offset: smem_ptr[Nb](unset) (swizzle on bytes), or an integer */
    lay_ws(c);
    size_t off_col = c->i;
    if (lay_word(c, "smem_ptr[")) {
        uint32_t bits;
        if (lay_int(c, 64, &bits) < 0)
            return -1;
        if (!lay_word(c, "b](unset)"))
            return LAY_AT(c, "expected 'b](unset)'");
        if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
            return lay_at(c, off_col, "smem_ptr element must be 8, 16, 32 or 64 bits", NULL);
        if (l->element_bits && l->element_bits != (int)bits)
            return sz_fail(c->err, SZ_INVALID_ARGUMENT, "element_bits",
                           "is %d but the layout's smem_ptr says %u bits", l->element_bits, bits);
        l->element_bits = (int)bits;
        l->domain = LAY_SWZ_BYTES;
        return lay_word(c, "o") ? 0 : LAY_AT(c, "expected 'o' after smem_ptr");
    }
    size_t save = c->i;
    uint32_t off;
    if (lay_int(c, SZ_OFFSET_LIMIT - 1, &off) == 0 && lay_word(c, "o")) {
        l->offset = off;
        return 0;
    }
    c->i = save;    /* no offset: `Sw<..> o L` */
    return 0;
}

static int parse(struct lay_cur *c, struct lay *l)
{
    struct side shp, str;
    memset(&shp, 0, sizeof shp);
    memset(&str, 0, sizeof str);
    if (swizzle_prefix(c, l) < 0)
        return -1;
    /* the request's element, else smem_ptr[Nb]'s, else 16 bits */
    if (!l->element_bits)
        l->element_bits = 16;
    if (tuple(c, &shp, LAY_MAX_SIZE, 0) < 0 || lay_want(c, ':') < 0)
        return -1;
    size_t stride_col = c->i;
    if (tuple(c, &str, SZ_OFFSET_LIMIT - 1, 0) < 0)
        return -1;
    lay_ws(c);
    if (c->s[c->i] != '\0')
        return LAY_AT(c, "unexpected text after the layout");
    for (int k = 0; k < shp.ntok || k < str.ntok; k++)
        if (k >= shp.ntok || k >= str.ntok || shp.tok[k] != str.tok[k])
            return lay_at(c, k < str.ntok ? str.col[k] : stride_col,
                          "the stride's tuple structure does not match the shape's", NULL);
    l->rank = shp.top ? shp.top : 1;
    for (int d = 0; d < l->rank; d++)
        l->shape[d] = 1;
    uint64_t size = 1, hi = l->offset;
    for (int k = 0; k < shp.n; k++) {
        if (shp.v[k] == 0)
            return lay_at(c, shp.col[0], "a shape of 0 holds no element", NULL);
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
    int eb_log = bits_log2_ceil((uint32_t)l->element_bits / 8);
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
        return lay_at(c, (size_t)l->a.cute.swz_col - 1,
                      "this swizzle on bytes moves bytes inside one element", NULL);
    return 0;
}

/* Sw<B,M,S> o L: the swizzle as the text placed it; none is Swizzle<0,4,3>. */
const struct lay_form lay_form_cute = {
    .name = "cute", .label = "CuTe", .opener = NULL, .shaped = 0,
    .parse = parse, .build = NULL, .swizzle = lay_strided_swizzle,
};
