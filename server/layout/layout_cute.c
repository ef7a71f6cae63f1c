/* layout_cute.c - the CuTe row of the layout form table: CuTe's print of a
 * shared-memory layout (`Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_8),(_64,_1)):
 * ((_64,_512),(_1,_0))`, `Sw<3,3,3> o _0 o ...`, local_tile's `M_0|(32&32)=32`
 * offsets, tensor prints `Sw<3,4,3>_smem_ptr[16b](0x...) o L` and
 * `smem_ptr[16b](0x...) o Sw<3,3,3> o _0 o L`, nested tuples, rank 1-4,
 * dynamic ints) read straight into the strided evaluator.  Every error names
 * "layout" and its column, or "element_bits"; it evaluates nothing. */
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
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
            return LAY_AT(c, "rank above 4");
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

/* `[Nb]`: the element of a pointer print, which a request's element_bits
 * must agree with (col: the pointer's column). */
static int ptr_bits(struct lay_cur *c, struct lay *l, size_t col)
{
    uint32_t bits;
    if (lay_int(c, 64, &bits) < 0)
        return -1;
    if (c->s[c->i] != 'b' || c->s[c->i + 1] != ']')
        return LAY_AT(c, "expected 'b]' after the pointer's element bits");
    c->i += 2;
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        return lay_at(c, col, "smem_ptr element must be 8, 16, 32 or 64 bits", NULL);
    if (l->element_bits && l->element_bits != (int)bits)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "element_bits",
                       "is %d but the layout's smem_ptr says %u bits", l->element_bits, bits);
    l->element_bits = (int)bits;
    return 0;
}

/* `(0x7f0000000400)`: a tensor print's pointer value. */
static int ptr_address(struct lay_cur *c, struct lay *l, size_t col)
{
    if (c->s[c->i] != '(' || c->s[c->i + 1] != '0' || c->s[c->i + 2] != 'x')
        return LAY_AT(c, "expected the pointer's address, (0x...)");
    c->i += 3;
    size_t start = c->i;
    uint64_t a = 0;
    for (;; c->i++) {
        char ch = c->s[c->i];
        int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 :
                ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (d < 0)
            break;
        if (c->i - start >= 16)
            return lay_at(c, start, "address wider than 64 bits", NULL);
        a = a << 4 | (uint64_t)d;
    }
    if (c->i == start)
        return LAY_AT(c, "expected hex digits of the address");
    if (lay_want(c, ')') < 0)
        return -1;
    l->a.cute.has_address = 1;
    l->a.cute.ptr_col = (int)col + 1;
    l->a.cute.address = a;
    return 0;
}

/* `Sw<B,M,S>` or `Swizzle<B,M,S>` at the cursor into l->z (start: its column). */
static int swizzle_params(struct lay_cur *c, struct lay *l, size_t start)
{
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
    return 0;
}

/* A MixedBits offset, as local_tile leaves it: `M_S|(D&F)=V` (CuTe
 * swizzle.hpp's print of MixedBits), V = S | (D & F). */
static int mixed_bits(struct lay_cur *c, uint32_t *off)
{
    size_t at = c->i;
    uint32_t s, d, f, v;
    c->i += 2;
    if (lay_int(c, SZ_OFFSET_LIMIT - 1, &s) < 0 || lay_want(c, '|') < 0 ||
        lay_want(c, '(') < 0 || lay_int(c, SZ_OFFSET_LIMIT - 1, &d) < 0 ||
        lay_want(c, '&') < 0 || lay_int(c, SZ_OFFSET_LIMIT - 1, &f) < 0 ||
        lay_want(c, ')') < 0 || lay_want(c, '=') < 0 || lay_int(c, SZ_OFFSET_LIMIT - 1, &v) < 0)
        return -1;
    if (v != (s | (d & f)))
        return lay_at(c, at, "MixedBits M_S|(D&F)=V must have V = S | (D & F)", NULL);
    *off = v;
    return 0;
}

/* What comes before the layout, any of:
 *   Sw<B,M,S>_smem_ptr[Nb](0x...) o            swizzle on the full address
 *   smem_ptr[Nb](0x...) o                      a tensor's plain pointer, then
 *   Sw<B,M,S> o smem_ptr[Nb](unset) o          swizzle on bytes
 *   Sw<B,M,S> o OFFSET o   (N or M_S|(D&F)=V)  swizzle on elements
 *   Sw<B,M,S> o                                the same, offset 0
 * None is fine. */
static int swizzle_prefix(struct lay_cur *c, struct lay *l)
{
    lay_ws(c);
    size_t start = c->i;
    if (lay_word(c, "smem_ptr[")) {     /* a tensor print: pointer, then a layout */
        if (ptr_bits(c, l, start) < 0 || ptr_address(c, l, start) < 0)
            return -1;
        if (!lay_word(c, "o"))
            return LAY_AT(c, "expected 'o' after the pointer");
        lay_ws(c);
        start = c->i;
    } else if (lay_word(c, "gmem_ptr[") || lay_word(c, "ptr[")) {
        return lay_at(c, start, "not a shared-memory tensor: paste a smem_ptr tensor or a layout",
                      NULL);
    }
    if (!lay_word(c, "Swizzle<") && !lay_word(c, "Sw<"))
        return 0;
    if (swizzle_params(c, l, start) < 0)
        return -1;
    l->domain = LAY_SWZ_ELEMENTS;
    size_t ptr_col = c->i;
    if (!l->a.cute.has_address && strncmp(c->s + c->i, "_smem_ptr[", 10) == 0) {
        /* swizzle_ptr: the swizzle acts on the full address (CuTe
         * pointer_swizzle.hpp), so the pointer's low bits move elements */
        c->i += 10;
        if (ptr_bits(c, l, ptr_col) < 0 || ptr_address(c, l, ptr_col) < 0)
            return -1;
        l->domain = LAY_SWZ_BYTES;
        return lay_word(c, "o") ? 0 : LAY_AT(c, "expected 'o' after the pointer");
    }
    if (!lay_word(c, "o"))
        return LAY_AT(c, "expected 'o' after the swizzle (or _smem_ptr[Nb](0x...) after it)");
    /* the offset: smem_ptr[Nb](unset) (swizzle on bytes), or an integer */
    lay_ws(c);
    size_t off_col = c->i;
    if (lay_word(c, "smem_ptr[")) {
        if (ptr_bits(c, l, off_col) < 0)
            return -1;
        if (!lay_word(c, "(unset)"))
            return LAY_AT(c, "expected '(unset)': a swizzle's smem_ptr flag has no address");
        l->domain = LAY_SWZ_BYTES;
        return lay_word(c, "o") ? 0 : LAY_AT(c, "expected 'o' after smem_ptr");
    }
    size_t save = c->i;
    uint32_t off;
    if (c->s[c->i] == 'M' && c->s[c->i + 1] == '_') {
        if (mixed_bits(c, &off) < 0)
            return -1;
        if (!lay_word(c, "o"))
            return LAY_AT(c, "expected 'o' after the offset");
        l->offset = off;
        return 0;
    }
    if (lay_int(c, SZ_OFFSET_LIMIT - 1, &off) == 0 && lay_word(c, "o")) {
        l->offset = off;
        return 0;
    }
    c->i = save;    /* no offset: `Sw<..> o L` */
    return 0;
}

/* A swizzle on the full address (swizzle_ptr): the pointer's bits below the
 * swizzle's top bit, and no element may land before the pointer (which a
 * base with bits in both fields can do: Z(addr) < addr). */
static int address_bits(struct lay_cur *c, struct lay *l, int eb_log)
{
    if (!l->a.cute.has_address || l->domain != LAY_SWZ_BYTES || l->z.b == 0)
        return 0;
    int hi = (l->z.yyy_lo > l->z.zzz_lo ? l->z.yyy_lo : l->z.zzz_lo) + l->z.b;
    l->addr = (uint32_t)(l->a.cute.address & ((1ull << hi) - 1));
    /* flips stay below bit hi: x >= 2^hi cannot come out below the pointer */
    for (uint64_t x = 0; x < (1ull << hi) && x < (1ull << 22); x += 1u << eb_log)
        if (swz_apply(&l->z, l->addr + (uint32_t)x) < l->addr) {
            sz_fail(c->err, SZ_INVALID_ARGUMENT, "layout",
                    "at column %d: at this pointer (low bits %u) the swizzle on the full "
                    "address puts byte %llu at %u, before the pointer: CuTe's offsets "
                    "from it go negative; paste it at a pointer aligned to %u bytes",
                    l->a.cute.ptr_col, l->addr, (unsigned long long)x,
                    swz_apply(&l->z, l->addr + (uint32_t)x), 1u << hi);
            return sz_fail_pos(c->err, c->s, SIZE_MAX, (size_t)l->a.cute.ptr_col - 1);
        }
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
    lay_ws(c);
    l->a.cute.body_col = (int)c->i;
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
    if (address_bits(c, l, eb_log) < 0)
        return -1;
    if (top > 31 || (l->addr && top >= 31))
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "layout",
                       "reaches byte offsets at or above 2^31");
    if (l->domain == LAY_SWZ_BYTES && l->z.b > 0 && l->z.m < eb_log)
        return lay_at(c, (size_t)l->a.cute.swz_col - 1,
                      "this swizzle on bytes moves bytes inside one element", NULL);
    return 0;
}

/* ---- tile_to_shape -------------------------------------------------------- */

/* The top-level modes of one side of shape:stride, as [at, at+len) spans. */
static int top_modes(const char *s, size_t from, size_t to, size_t *at, size_t *len, int max)
{
    while (from < to && s[from] == ' ')
        from++;
    while (to > from && s[to - 1] == ' ')
        to--;
    if (s[from] != '(') {               /* a bare integer: rank 1 */
        at[0] = from, len[0] = to - from;
        return 1;
    }
    int n = 0, depth = 0;
    size_t start = from + 1;
    for (size_t i = from; i < to; i++) {
        depth += s[i] == '(';
        depth -= s[i] == ')';
        if ((depth == 1 && s[i] == ',') || (depth == 0 && s[i] == ')')) {
            if (n == max)
                return -1;
            at[n] = start, len[n] = i - start;
            n++;
            start = i + 1;
        }
    }
    return n;
}

int lay_cute_tile_to_shape(const char *text, const struct lay *l, const uint32_t *target,
                           int rank, char *out, size_t cap, struct sz_error *err)
{
    if (l->form != &lay_form_cute)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "tile_to_shape is CuTe's");
    size_t body = (size_t)l->a.cute.body_col, end = strlen(text), colon = body;
    int depth = 0;
    for (; colon < end && !(depth == 0 && text[colon] == ':'); colon++)
        depth += (text[colon] == '(') - (text[colon] == ')');
    size_t sat[LAY_MAX_RANK], slen[LAY_MAX_RANK], dat[LAY_MAX_RANK], dlen[LAY_MAX_RANK];
    int ns = top_modes(text, body, colon, sat, slen, LAY_MAX_RANK);
    int nd = top_modes(text, colon + 1, end, dat, dlen, LAY_MAX_RANK);
    if (colon == end || ns != l->rank || nd != l->rank)
        return sz_fail(err, SZ_INTERNAL, "layout", "the parsed layout's text did not split");
    if (rank < l->rank || rank > LAY_MAX_RANK)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "tile_to_shape: rank %d below the "
                       "layout's %d or above %d", rank, l->rank, LAY_MAX_RANK);
    /* blocked_product with a column-major block layout: rest strides start
     * at the layout's cosize (CuTe's tile_to_shape, layout.hpp) */
    uint64_t rest = 1;
    for (int k = 0; k < l->nleaves; k++)
        rest += (uint64_t)(l->leaf_shape[k] - 1) * l->leaf_stride[k];
    size_t k = (size_t)snprintf(out, cap, "%.*s(", (int)body, text);
    char strides[LAY_MAX_TEXT];
    size_t m = 0;
    for (int d = 0; d < rank && k < cap && m < sizeof strides; d++) {
        /* a dim the layout lacks is its mode _1:_0, as CuTe appends it */
        uint32_t ext = d < l->rank ? l->shape[d] : 1;
        if (target[d] % ext || target[d] < ext)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "shape", "tile_to_shape: %u is not a "
                           "multiple of dim %d's %u", target[d], d, ext);
        uint32_t r = target[d] / ext;
        k += (size_t)snprintf(out + k, cap - k, "%s(%.*s,_%u)", d ? "," : "",
                              d < l->rank ? (int)slen[d] : 2, d < l->rank ? text + sat[d] : "_1",
                              r);
        m += (size_t)snprintf(strides + m, sizeof strides - m, "%s(%.*s,_%llu)", d ? "," : "",
                              d < l->rank ? (int)dlen[d] : 2, d < l->rank ? text + dat[d] : "_0",
                              r == 1 ? 0ull : (unsigned long long)rest);
        rest *= r;
    }
    if (k < cap)
        k += (size_t)snprintf(out + k, cap - k, "):(%s)", m < sizeof strides ? strides : "");
    if (k >= cap || m >= sizeof strides || rest - 1 > SZ_OFFSET_LIMIT)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "tile_to_shape: the tiled layout is "
                       "too large");
    return 0;
}

/* Sw<B,M,S> o L: the swizzle as the text placed it; none is Swizzle<0,4,3>. */
const struct lay_form lay_form_cute = {
    .name = "cute", .label = "CuTe", .opener = NULL, .shaped = 0,
    .parse = parse, .build = NULL, .swizzle = lay_strided_swizzle,
};
