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
#include "cute_text.h"
#include "layout_text.h"


/* ---- CuTe ------------------------------------------------------------------ */

/* What a memory layout admits of shape:stride (cute_text.h reads it): the
 * leaves, nesting and rank struct lay holds, sizes within 2^20 and byte
 * strides below 2^31, no scaled basis (that is a coordinate layout). */
static const struct cute_rules rules = {
    .leaves = LAY_MAX_LEAVES, .depth = LAY_MAX_DEPTH, .rank = LAY_MAX_RANK,
    .shape_hi = LAY_MAX_SIZE, .stride_lo = 0, .stride_hi = SZ_OFFSET_LIMIT - 1, .basis = 0,
};

/* A non-negative CuTe integer (`_N` or `N`) of at most hi. */
static int u32(struct cute_cur *c, uint32_t hi, uint32_t *v)
{
    int64_t x;
    if (cute_int(c, 0, hi, &x, NULL) < 0)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

/* `[Nb]`: the element of a pointer print, which a request's element_bits
 * must agree with (col: the pointer's column). */
static int ptr_bits(struct cute_cur *c, struct lay *l, size_t col)
{
    uint32_t bits;
    if (u32(c, 64, &bits) < 0)
        return -1;
    if (c->s[c->i] != 'b' || c->s[c->i + 1] != ']')
        return CUTE_AT(c, "expected 'b]' after the pointer's element bits");
    c->i += 2;
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        return cute_fail(c, col, "%s", "smem_ptr element must be 8, 16, 32 or 64 bits");
    if (l->element_bits && l->element_bits != (int)bits)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "element_bits",
                       "is %d but the layout's smem_ptr says %u bits", l->element_bits, bits);
    l->element_bits = (int)bits;
    return 0;
}

/* `(0x7f0000000400)`: a tensor print's pointer value. */
static int ptr_address(struct cute_cur *c, struct lay *l, size_t col)
{
    if (c->s[c->i] != '(' || c->s[c->i + 1] != '0' || c->s[c->i + 2] != 'x')
        return CUTE_AT(c, "expected the pointer's address, (0x...)");
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
            return cute_fail(c, start, "%s", "address wider than 64 bits");
        a = a << 4 | (uint64_t)d;
    }
    if (c->i == start)
        return CUTE_AT(c, "expected hex digits of the address");
    if (cute_want(c, ')') < 0)
        return -1;
    l->a.cute.has_address = 1;
    l->a.cute.ptr_col = (int)col + 1;
    l->a.cute.address = a;
    return 0;
}

/* `Sw<B,M,S>` or `Swizzle<B,M,S>` at the cursor into l->z (start: its column). */
static int swizzle_params(struct cute_cur *c, struct lay *l, size_t start)
{
    uint32_t v[3];
    int neg[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        cute_ws(c);
        if (k == 2 && c->s[c->i] == '-')
            neg[k] = 1, c->i++;
        if (c->s[c->i] < '0' || c->s[c->i] > '9')
            return CUTE_AT(c, "expected a digit in Sw<B,M,S>");
        if (u32(c, 31, &v[k]) < 0 || cute_want(c, k < 2 ? ',' : '>') < 0)
            return -1;
    }
    struct sz_error e2 = {0};
    if (swz_init(&l->z, (int)v[0], (int)v[1], neg[2] ? -(int)v[2] : (int)v[2], &e2) < 0)
        return cute_fail(c, start, "%s", e2.message);
    l->a.cute.swz_col = (int)start + 1;
    return 0;
}

/* A MixedBits offset, as local_tile leaves it: `M_S|(D&F)=V` (CuTe
 * swizzle.hpp's print of MixedBits), V = S | (D & F). */
static int mixed_bits(struct cute_cur *c, uint32_t *off)
{
    size_t at = c->i;
    uint32_t s, d, f, v;
    c->i += 2;
    if (u32(c, SZ_OFFSET_LIMIT - 1, &s) < 0 || cute_want(c, '|') < 0 ||
        cute_want(c, '(') < 0 || u32(c, SZ_OFFSET_LIMIT - 1, &d) < 0 ||
        cute_want(c, '&') < 0 || u32(c, SZ_OFFSET_LIMIT - 1, &f) < 0 ||
        cute_want(c, ')') < 0 || cute_want(c, '=') < 0 || u32(c, SZ_OFFSET_LIMIT - 1, &v) < 0)
        return -1;
    if (v != (s | (d & f)))
        return cute_fail(c, at, "%s", "MixedBits M_S|(D&F)=V must have V = S | (D & F)");
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
static int swizzle_prefix(struct cute_cur *c, struct lay *l)
{
    cute_ws(c);
    size_t start = c->i;
    if (cute_word(c, "smem_ptr[")) {     /* a tensor print: pointer, then a layout */
        if (ptr_bits(c, l, start) < 0 || ptr_address(c, l, start) < 0)
            return -1;
        if (!cute_word(c, "o"))
            return CUTE_AT(c, "expected 'o' after the pointer");
        cute_ws(c);
        start = c->i;
    } else if (cute_word(c, "gmem_ptr[") || cute_word(c, "ptr[")) {
        return cute_fail(c, start, "%s",
                         "not a shared-memory tensor: paste a smem_ptr tensor or a layout");
    }
    if (!cute_word(c, "Swizzle<") && !cute_word(c, "Sw<"))
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
        return cute_word(c, "o") ? 0 : CUTE_AT(c, "expected 'o' after the pointer");
    }
    if (!cute_word(c, "o"))
        return CUTE_AT(c, "expected 'o' after the swizzle (or _smem_ptr[Nb](0x...) after it)");
    /* the offset: smem_ptr[Nb](unset) (swizzle on bytes), or an integer */
    cute_ws(c);
    size_t off_col = c->i;
    if (cute_word(c, "smem_ptr[")) {
        if (ptr_bits(c, l, off_col) < 0)
            return -1;
        if (!cute_word(c, "(unset)"))
            return CUTE_AT(c, "expected '(unset)': a swizzle's smem_ptr flag has no address");
        l->domain = LAY_SWZ_BYTES;
        return cute_word(c, "o") ? 0 : CUTE_AT(c, "expected 'o' after smem_ptr");
    }
    size_t save = c->i;
    uint32_t off = 0;   /* set where read; -O2 cannot see through mixed_bits */
    if (c->s[c->i] == 'M' && c->s[c->i + 1] == '_') {
        if (mixed_bits(c, &off) < 0)
            return -1;
        if (!cute_word(c, "o"))
            return CUTE_AT(c, "expected 'o' after the offset");
        l->offset = off;
        return 0;
    }
    if (u32(c, SZ_OFFSET_LIMIT - 1, &off) == 0 && cute_word(c, "o")) {
        l->offset = off;
        return 0;
    }
    c->i = save;    /* no offset: `Sw<..> o L` */
    return 0;
}

/* A swizzle on the full address (swizzle_ptr): the pointer's bits below the
 * swizzle's top bit, and no element may land before the pointer (which a
 * base with bits in both fields can do: Z(addr) < addr). */
static int address_bits(struct cute_cur *c, struct lay *l, int eb_log)
{
    if (!l->a.cute.has_address || l->domain != LAY_SWZ_BYTES || l->z.b == 0)
        return 0;
    int hi = (l->z.yyy_lo > l->z.zzz_lo ? l->z.yyy_lo : l->z.zzz_lo) + l->z.b;
    l->addr = (uint32_t)(l->a.cute.address & ((1ull << hi) - 1));
    /* flips stay below bit hi: x >= 2^hi cannot come out below the pointer */
    for (uint64_t x = 0; x < (1ull << hi) && x < (1ull << 22); x += 1u << eb_log)
        if (swz_apply(&l->z, l->addr + (uint32_t)x) < l->addr) {
            return cute_fail(c, (size_t)l->a.cute.ptr_col - 1,
                             "at this pointer (low bits %u) the swizzle on the full address "
                             "puts byte %llu at %u, before the pointer: CuTe's offsets from it "
                             "go negative; paste it at a pointer aligned to %u bytes",
                             l->addr, (unsigned long long)x,
                             swz_apply(&l->z, l->addr + (uint32_t)x), 1u << hi);
        }
    return 0;
}

static int parse(struct cute_cur *c, struct lay *l)
{
    struct cute_layout L;
    if (swizzle_prefix(c, l) < 0)
        return -1;
    /* the request's element, else smem_ptr[Nb]'s, else 16 bits */
    if (!l->element_bits)
        l->element_bits = 16;
    cute_ws(c);
    l->a.cute.body_col = (int)c->i;
    if (cute_layout(c, &rules, &L, NULL) < 0)
        return -1;
    cute_ws(c);
    if (c->s[c->i] != '\0')
        return CUTE_AT(c, "unexpected text after the layout");
    l->rank = L.modes ? L.modes : 1;
    for (int d = 0; d < l->rank; d++)
        l->shape[d] = 1;
    uint64_t size = 1, hi = l->offset;
    for (int k = 0; k < L.n; k++) {
        size *= L.shape[k];
        if (size > LAY_MAX_SIZE)
            return sz_fail(c->err, SZ_TOO_LARGE, "layout",
                           "has more than 2^20 elements (%llu so far)", (unsigned long long)size);
        l->shape[L.mode[k]] *= L.shape[k];
        l->leaf_shape[k] = L.shape[k];
        l->leaf_stride[k] = (uint32_t)L.stride[k];
        hi += (uint64_t)(L.shape[k] - 1) * (uint64_t)L.stride[k];
    }
    l->nleaves = L.n;
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
        return cute_fail(c, (size_t)l->a.cute.swz_col - 1, "%s",
                         "this swizzle on bytes moves bytes inside one element");
    return 0;
}

/* ---- tile_to_shape -------------------------------------------------------- */

int lay_cute_tile_to_shape(const char *text, const struct lay *l, const uint32_t *target,
                           int rank, char *out, size_t cap, struct sz_error *err)
{
    if (l->form != &lay_form_cute)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "tile_to_shape is CuTe's");
    /* the text of each top-level mode, as the reader found it the first time */
    size_t body = (size_t)l->a.cute.body_col;
    struct cute_cur c = {text, body, err, "layout", 0};
    struct cute_layout L;
    struct cute_spans sp;
    if (cute_layout(&c, &rules, &L, &sp) < 0 || (L.modes ? L.modes : 1) != l->rank)
        return sz_fail(err, SZ_INTERNAL, "layout", "the parsed layout's text did not split");
    const size_t *sat = sp.at[0], *slen = sp.len[0], *dat = sp.at[1], *dlen = sp.len[1];
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
