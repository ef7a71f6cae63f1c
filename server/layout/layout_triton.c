/* layout_triton.c - the Triton shared-encoding rows of the layout form table:
 * #ttg.swizzled_shared, #ttg.nvmma_shared, #ttg.shared_linear,
 * #ttg.padded_shared and #ttg.amd_rotating_shared (#triton_gpu. too) over the
 * request's shape.  The text is read by the reader /api/ttgir uses
 * (ttgir_attr.c) and placed by triton_shared.c, so both routes take the same
 * texts and give the same offsets; this file adds only what the request says
 * (the element width) and the evaluator.  Pure core: no I/O, no allocation. */
#include <string.h>

#include "base/bits.h"
#include "linear/f2.h"
#include "layout_text.h"
#include "triton/triton_shared.h"
#include "triton/ttgir_dump.h"

#define TLIN_NODES 640          /* values in LAY_MAX_TEXT bytes of `[[0, 1], ...]` */

/* nvmma_shared's elementBitWidth against the request's element_bits: the
 * text's when the request is silent, refused when they differ (a width the
 * reader refuses is left to it). */
static int element_bits(const struct ta_parser *p, int attr, struct lay *l, struct sz_error *err)
{
    int e = ta_is(p, attr, "nvmma_shared") ? ta_get(p, attr, "elementBitWidth") : -1;
    int64_t w = e >= 0 && p->node[e].kind == TA_INT ? p->node[e].v : 0;
    if (w != 8 && w != 16 && w != 32 && w != 64)
        w = 0;
    if (w && l->element_bits && w != l->element_bits)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "element_bits",
                       "is %d but the encoding's elementBitWidth is %d", l->element_bits, (int)w);
    if (!l->element_bits)
        l->element_bits = w ? (int)w : 16;
    return 0;
}

/* The encoding at `node` built on l's shape (l->rank, l->shape set) into
 * l: its offset bases and padding, and for nvmma_shared the byte swizzle
 * its swizzlingByteWidth names; `field` is what a too-large shape names. */
static int take_encoding(struct ta_parser *p, int node, struct lay *l, const char *field,
                         struct sz_error *err)
{
    struct tsh_layout sh;
    int64_t shape[LAY_MAX_RANK];
    for (int d = 0; d < l->rank; d++)
        shape[d] = l->shape[d];
    if (element_bits(p, node, l, err) < 0 ||
        triton_shared_build(p, node, shape, l->rank, l->element_bits, &sh, err) < 0)
        return -1;
    if (sh.n > LIN_MAX_BITS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, field, "at most 2^%d elements", LIN_MAX_BITS);
    l->a.tlinear.n = sh.n;
    for (int k = 0; k < sh.n; k++)
        for (int d = 0; d < l->rank; d++)
            l->a.tlinear.b[k][d] = sh.b[k][d];
    l->npad = sh.npad;
    for (int k = 0; k < sh.npad; k++) {
        l->pad_every[k] = (uint32_t)sh.interval[k];
        l->pad_by[k] = (uint32_t)sh.pad[k];
    }
    int sw = ta_is(p, node, "nvmma_shared") ? ta_get(p, node, "swizzlingByteWidth") : -1;
    l->a.tlinear.nvmma_bytes = sw >= 0 ? (int)p->node[sw].v : 0;    /* checked by the reader */
    return 0;
}

/* The whole text (from its first byte: an alias line's `#x =` included):
 * its offset bases and padding on the request's shape, and for nvmma_shared
 * the byte swizzle its swizzlingByteWidth names. */
static int parse_triton(struct cute_cur *c, struct lay *l)
{
    struct ta_node nodes[TLIN_NODES];
    struct ta_parser p;
    int node;
    ta_use(&p, nodes, TLIN_NODES, NULL, 0);
    if (ta_init(&p, c->s, "layout", NULL, NULL, c->err) < 0 ||
        ta_parse(&p, 0, 0, 1, 1, &node, c->err) < 0 || ta_resolve(&p, node, &node, c->err) < 0)
        return -1;
    return take_encoding(&p, node, l, "shape", c->err);
}

static int build_triton(struct lay *l, struct sz_error *err);

/* The row of a memdesc's encoding: the one whose opener (after "#ttg.")
 * names its attribute, so that the answer's form and swizzle are the
 * encoding's own; NULL for an attribute no row reads. */
static const struct lay_form *encoding_row(const struct ta_parser *p, int node)
{
    const struct lay_form *rows[] = {&lay_form_triton_swizzled, &lay_form_triton_nvmma,
                                     &lay_form_triton_linear, &lay_form_triton_padded,
                                     &lay_form_triton_rotating, &lay_form_triton_shared};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        if (ta_is(p, node, rows[k]->opener + 5))
            return rows[k];
    return NULL;
}

/* `!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{...}>, #smem, mutable>` (issue
 * 39 item 7): the type a TTGIR op names carries the shape, the element type
 * and the encoding, read by the reader /api/ttgir uses (tdump_type).  An
 * encoding given by its alias (`#shared`, as TTGIR prints it) is defined
 * elsewhere in the module: the error says to paste that line. */
static int parse_memdesc(struct cute_cur *c, struct lay *l)
{
    struct ta_node nodes[TLIN_NODES];
    struct ta_parser p;
    int64_t shape[TLL_MAX_RANK];
    int rank, bits, node;
    size_t at = c->i - 1;           /* the opener's '<': the cursor is just past it */
    ta_use(&p, nodes, TLIN_NODES, NULL, 0);
    if (ta_init(&p, c->s, "layout", NULL, NULL, c->err) < 0)
        return -1;
    /* the encoding, after the dims, the element type and a comma */
    size_t enc = at + 1;
    int depth = 0;
    while (c->s[enc] && (depth > 0 || c->s[enc] != ',')) {
        depth += c->s[enc] == '<' ? 1 : c->s[enc] == '>' ? -1 : 0;
        enc++;
    }
    if (c->s[enc] == ',')
        enc++;
    while (c->s[enc] == ' ' || c->s[enc] == '\t')
        enc++;
    if (c->s[enc] == '#' && strncmp(c->s + enc, "#ttg.", 5) != 0 &&
        strncmp(c->s + enc, "#triton_gpu.", 12) != 0) {
        size_t n = 1;
        while (n < 40 && (c->s[enc + n] == '_' || c->s[enc + n] == '.' ||
                          (c->s[enc + n] >= '0' && c->s[enc + n] <= '9') ||
                          ((c->s[enc + n] | 32) >= 'a' && (c->s[enc + n] | 32) <= 'z')))
            n++;
        return cute_fail(c, enc, "its encoding %.*s is an alias defined in the module: paste "
                         "its line (%.*s = #ttg...<{...}>) or the encoding itself", (int)n,
                         c->s + enc, (int)n, c->s + enc);
    }
    if (tdump_type(&p, (int)at, shape, &rank, &bits, &node, c->err) < 0 ||
        ta_resolve(&p, node, &node, c->err) < 0)
        return -1;
    const struct lay_form *row = encoding_row(&p, node);
    if (row == NULL)
        return cute_fail(c, enc, "%s", "the memdesc's encoding is no shared-memory encoding "
                         "(swizzled_shared, nvmma_shared, shared_linear, padded_shared, "
                         "amd_rotating_shared, or 3.0/3.1's shared)");
    if (rank > LAY_MAX_SHAPED_RANK)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "layout", "the memdesc has %d dims: "
                       "1 to %d are modelled", rank, LAY_MAX_SHAPED_RANK);
    if (l->element_bits && bits != l->element_bits)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "element_bits", "is %d but the memdesc's "
                       "element type is %d bits", l->element_bits, bits);
    uint64_t size = 1;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 1 || shape[d] > LAY_MAX_SIZE)
            return sz_fail(c->err, SZ_INVALID_ARGUMENT, "layout", "the memdesc's extents "
                           "must be 1..2^20");
        size *= (uint64_t)shape[d];
        l->shape[d] = (uint32_t)shape[d];
    }
    if (size > LAY_MAX_SIZE)
        return sz_fail(c->err, SZ_TOO_LARGE, "layout", "the memdesc has %llu elements, more "
                       "than 2^20", (unsigned long long)size);
    l->rank = rank;
    l->size = (uint32_t)size;
    l->element_bits = bits;
    l->form = row;
    if (take_encoding(&p, node, l, "layout", c->err) < 0)
        return -1;
    if ((uint64_t)l->size * (uint32_t)(bits / 8) > SZ_OFFSET_LIMIT)
        return sz_fail(c->err, SZ_INVALID_ARGUMENT, "layout", "reaches bytes at or above 2^31");
    return build_triton(l, c->err);
}

/* The evaluator: the tile is the shape flattened row-major (the last dim
 * fastest); fwd inverts the offset bases. */
static int build_triton(struct lay *l, struct sz_error *err)
{
    const struct lay_tlinear *a = &l->a.tlinear;
    int base = 0;
    for (int d = l->rank - 1; d >= 0; d--) {
        l->lin_base[d] = base;
        base += bits_log2_ceil(l->shape[d]);
    }
    l->tile = (struct lin_tile){base - bits_log2_ceil(l->shape[l->rank - 1]),
                                bits_log2_ceil(l->shape[l->rank - 1])};
    struct f2_mat mm = {.rows = a->n, .cols = a->n}, fwd;
    for (int k = 0; k < a->n; k++) {
        uint32_t e = 0;
        for (int d = 0; d < l->rank; d++)
            e |= (uint32_t)a->b[k][d] << l->lin_base[d];
        mm.col[k] = e;
    }
    if (f2_inverse(&mm, &fwd) < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "layout", "the offset bases are not one to one");
    for (int j = 0; j < a->n; j++)
        l->fwd[j] = fwd.col[j];
    l->kind = LAY_LINEAR;
    return 0;
}

/* NVMMA's modes are Swizzle<1|2|3,4,3> on bytes (none for 0). */
static int nvmma_swizzle(const struct lay *l, struct swz *bytes)
{
    int sw = l->a.tlinear.nvmma_bytes;
    swz_init(bytes, sw ? bits_log2_ceil((uint32_t)sw / 16) : 0, 4, 3, NULL);
    return 1;
}

/* ---- the rows ------------------------------------------------------------------- */

/* swizzled_shared, shared_linear, padded_shared and amd_rotating_shared have
 * no Swizzle<B,M,S> form of their own (rosetta.c finds the one they may equal). */
const struct lay_form lay_form_triton_swizzled = {
    .name = "triton_swizzled", .label = "Triton swizzled_shared",
    .opener = "#ttg.swizzled_shared", .shaped = 1,
    .parse = parse_triton, .build = build_triton, .swizzle = NULL,
};

const struct lay_form lay_form_triton_nvmma = {
    .name = "triton_nvmma", .label = "Triton nvmma_shared",
    .opener = "#ttg.nvmma_shared", .shaped = 1,
    .parse = parse_triton, .build = build_triton, .swizzle = nvmma_swizzle,
};

const struct lay_form lay_form_triton_linear = {
    .name = "triton_shared_linear", .label = "Triton shared_linear",
    .opener = "#ttg.shared_linear", .shaped = 1,
    .parse = parse_triton, .build = build_triton, .swizzle = NULL,
};

const struct lay_form lay_form_triton_padded = {
    .name = "triton_padded", .label = "Triton padded_shared",
    .opener = "#ttg.padded_shared", .shaped = 1,
    .parse = parse_triton, .build = build_triton, .swizzle = NULL,
};

const struct lay_form lay_form_triton_rotating = {
    .name = "triton_amd_rotating", .label = "Triton amd_rotating_shared",
    .opener = "#ttg.amd_rotating_shared", .shaped = 1,
    .parse = parse_triton, .build = build_triton, .swizzle = NULL,
};

/* Triton 3.0/3.1's #triton_gpu.shared<{vec, perPhase, maxPhase, order,
 * hasLeadingOffset}>, read by the attribute reader /api/ttgir uses
 * (triton_shared.c's old_shared): one reader for both routes.  After the
 * rows above in lay_forms: its opener is a prefix of shared_linear's. */
const struct lay_form lay_form_triton_shared = {
    .name = "triton_shared", .label = "Triton 3.0/3.1 shared",
    .opener = "#ttg.shared", .shaped = 1,
    .parse = parse_triton, .build = build_triton, .swizzle = NULL,
};

/* A memdesc type: the text carries its shape; parse_memdesc puts the
 * encoding's own row in the layout it reads. */
const struct lay_form lay_form_triton_memdesc = {
    .name = "triton_memdesc", .label = "Triton memdesc",
    .opener = "!ttg.memdesc<", .shaped = 0,
    .parse = parse_memdesc, .build = NULL, .swizzle = NULL,
};
