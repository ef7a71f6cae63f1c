/* recommend_code.c - a recommended layout written the ways people paste it:
 * CuTe (composition with a Swizzle, or a padded stride) and the GMMA/UMMA atom
 * that matches, Triton's shared encodings (swizzled_shared, shared_linear,
 * padded_shared), the TMA swizzle mode, and plain C index arithmetic; and a
 * lane schedule as C.  Pure text from recommend.c's and linear_conv.c's maps:
 * it decides nothing about cost. */
#include <stdio.h>
#include <string.h>

#include "base/bits.h"
#include "linear/linear_conv.h"
#include "model/presets.h"
#include "recommend.h"


/* The same placement of every byte of the tile (linear maps: the images of
 * the tile's byte bits agree). */
static int same_map(const struct rec_work *w, const struct rec_layout *a, const struct swz *z)
{
    if (a->kind == REC_PADDED)
        return 0;
    int n = bits_log2_ceil(w->rows * w->row_bytes);
    for (int k = 0; k < n; k++)
        if (rec_apply(a, 1u << k) != swz_apply(z, 1u << k))
            return 0;
    return 1;
}

static const char *elem_type(int bits)
{
    return bits == 8 ? "uint8_t" : bits == 16 ? "half_t" : bits == 64 ? "double" : "float";
}

/* The TMA mode writing exactly this layout (presets.c's table): a box of the
 * tile's rows whose row is the mode's span (TMA pads a narrower row to the
 * span: DESIGN.md 4); no swizzle takes any row of whole 16-byte units. */
static void tma(const struct rec_work *w, const struct rec_layout *l, struct rec_code *o)
{
    for (size_t i = 0; i < presets_count; i++) {
        const struct preset *p = &presets[i];
        struct swz z;
        if (!p->tma || swz_init(&z, p->b, p->m, p->s, NULL) < 0 || !same_map(w, l, &z))
            continue;
        uint32_t span = p->b == 0 ? 0 : p->tma_span > 0 ? (uint32_t)p->tma_span : 128;
        if (span ? w->row_bytes != span : w->row_bytes % 16 != 0) {
            snprintf(o->why_tma, sizeof o->why_tma, span ? "%s swizzles %u-byte box rows; this "
                     "tile's rows are %u bytes" : "%s needs box rows of whole 16-byte units",
                     p->tma, span, w->row_bytes);
            return;
        }
        uint32_t cols = w->row_bytes * 8 / (uint32_t)w->elem_bits;
        if (p->tma_cuda)
            snprintf(o->tma, sizeof o->tma, "%s (CUDA %s), box {%u, %u} elements", p->tma,
                     p->tma_cuda, cols, w->rows);
        else
            snprintf(o->tma, sizeof o->tma, "%s, box {%u, %u} elements", p->tma, cols, w->rows);
        return;
    }
    snprintf(o->why_tma, sizeof o->why_tma, "TMA writes only the presets' swizzles "
             "(Swizzle<0..3,4,3> and <2,5,2>) on rows of the swizzle span");
}

/* GMMA/UMMA K-major atoms (presets.c) are the preset's swizzle on 8 rows of
 * its span (16 bytes for INTER); tiled down the rows they are that swizzle on
 * the tile when its rows are the span. */
static void atom(const struct rec_work *w, const struct rec_layout *l, const char *T,
                 struct rec_code *o)
{
    uint32_t cols = w->row_bytes * 8 / (uint32_t)w->elem_bits;
    for (size_t i = 0; i < presets_count; i++) {
        const struct preset *p = &presets[i];
        struct swz z;
        uint32_t row = p->b == 0 ? 16 : (uint32_t)p->tma_span;
        if (!p->gmma_atom || swz_init(&z, p->b, p->m, p->s, NULL) < 0 || w->row_bytes != row ||
            w->rows % 8 || !same_map(w, l, &z))
            continue;
        snprintf(o->atom, sizeof o->atom, "tile_to_shape(GMMA::%s<%s>{}, make_shape(Int<%u>{}, "
                 "Int<%u>{}))  // sm_90; K-major: a row is K", p->gmma_atom, T, w->rows, cols);
        if (p->umma >= 0) {
            size_t n = strlen(o->atom);
            snprintf(o->atom + n, sizeof o->atom - n, "; UMMA::%s<%s> on sm_100", p->gmma_atom, T);
        }
        return;
    }
}

void rec_shared_linear(const struct lin_tile *t, const struct lin_mem *m, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "#ttg.shared_linear<{offset = [");
    for (int k = 0; k < m->n && n < cap; k++) {
        uint32_t c0, c1;
        lin_coords(t, m->basis[k], &c0, &c1);
        n += (size_t)snprintf(out + n, cap - n, "%s[%u, %u]", k ? ", " : "", c0, c1);
    }
    if (n < cap)
        snprintf(out + n, cap - n, "]}, alignment = 16>");
}

static void cute_swizzle(char *out, size_t cap, int b, int m, int s, int le, uint32_t rows,
                         uint32_t cols)
{
    if (b == 0)
        snprintf(out, cap, "make_layout(make_shape(Int<%u>{}, Int<%u>{}), LayoutRight{})", rows,
                 cols);
    else
        snprintf(out, cap, "composition(Swizzle<%d,%d,%d>{}, make_layout(make_shape(Int<%u>{}, "
                 "Int<%u>{}), LayoutRight{}))", b, m - le, s, rows, cols);
}

void rec_code(const struct rec_work *w, const struct rec_layout *l, struct rec_code *o)
{
    memset(o, 0, sizeof *o);
    int le = bits_log2_ceil((uint32_t)w->elem_bits / 8);
    uint32_t eb = (uint32_t)w->elem_bits / 8, cols = w->row_bytes / eb;
    const char *T = elem_type(w->elem_bits);
    snprintf(o->elem, sizeof o->elem, "%s", T);
    struct lin_tile t;
    struct lin_mem mem;
    int have_mem = rec_mem(w, l, &mem), tile_ok = rec_tile(w, &t);

    /* CuTe */
    if (l->kind == REC_SWIZZLE) {
        if (l->b > 0 && l->m < le)
            snprintf(o->why_cute, sizeof o->why_cute, "Swizzle<%d,%d,%d> moves bytes inside a "
                     "%d-bit element", l->b, l->m, l->s, w->elem_bits);
        else
            cute_swizzle(o->cute, sizeof o->cute, l->b, l->m, l->s, le, w->rows, cols);
    } else if (l->kind == REC_LINEAR) {
        int b, m, s;
        if (have_mem && lin_to_cute(&t, w->elem_bits, &mem, &b, &m, &s))
            cute_swizzle(o->cute, sizeof o->cute, b, m, s, le, w->rows, cols);
        else
            snprintf(o->why_cute, sizeof o->why_cute, "no Swizzle<B,M,S> gives this layout: its "
                     "XOR terms are not one shifted bit field");
    } else if (l->interval == w->row_bytes && l->pad % eb == 0) {
        snprintf(o->cute, sizeof o->cute, "make_layout(make_shape(Int<%u>{}, Int<%u>{}), "
                 "make_stride(Int<%u>{}, Int<1>{}))", w->rows, cols, cols + l->pad / eb);
    } else {
        snprintf(o->why_cute, sizeof o->why_cute, "padding inside a row has no CuTe stride "
                 "(use the row-interval padding)");
    }
    if (l->kind != REC_PADDED)
        atom(w, l, T, o);

    /* Triton */
    if (l->kind == REC_PADDED) {
        if (l->pad % eb || l->interval % eb)
            snprintf(o->why_triton, sizeof o->why_triton, "the padding splits an element");
        else {
            snprintf(o->triton_form, sizeof o->triton_form, "padded_shared");
            snprintf(o->triton, sizeof o->triton, "#ttg.padded_shared<[%u:+%u] {order = [1, 0], "
                     "shape = [%u, %u]}>", l->interval / eb, l->pad / eb, w->rows, cols);
        }
    } else if (!have_mem) {
        snprintf(o->why_triton, sizeof o->why_triton, tile_ok ? "the layout splits a %d-bit "
                 "element" : "the tile is not a power-of-two tile of %d-bit elements",
                 w->elem_bits);
    } else {
        int vec, pp, mp, order[2];
        if (lin_to_triton(&t, &mem, &vec, &pp, &mp, order)) {
            snprintf(o->triton_form, sizeof o->triton_form, "swizzled_shared");
            snprintf(o->triton, sizeof o->triton, "#ttg.swizzled_shared<{vec = %d, perPhase = %d, "
                     "maxPhase = %d, order = [%d, %d]}>", vec, pp, mp, order[0], order[1]);
        } else {
            snprintf(o->triton_form, sizeof o->triton_form, "shared_linear");
            rec_shared_linear(&t, &mem, o->triton, sizeof o->triton);
        }
    }

    /* TMA */
    if (l->kind == REC_PADDED)
        snprintf(o->why_tma, sizeof o->why_tma, "TMA writes no padded layout");
    else
        tma(w, l, o);

    /* plain C */
    size_t n = (size_t)snprintf(o->c, sizeof o->c, "/* byte offset of %s element (row, col) of "
                                "the %u x %u tile */\nuint32_t off = row * %uu + col * %uu;\n",
                                T, w->rows, cols, w->row_bytes, eb);
    if (l->kind == REC_SWIZZLE && l->b > 0)
        snprintf(o->c + n, sizeof o->c - n, "off ^= (off %s %d) & 0x%xu;   /* Swizzle<%d,%d,%d> */",
                 l->s > 0 ? ">>" : "<<", l->s > 0 ? l->s : -l->s, l->z.zzz_msk, l->b, l->m, l->s);
    else if (l->kind == REC_PADDED && l->interval == w->row_bytes)
        snprintf(o->c, sizeof o->c, "/* byte offset of %s element (row, col), rows padded by %u "
                 "bytes */\nuint32_t off = row * %uu + col * %uu;", T, l->pad,
                 w->row_bytes + l->pad, eb);
    else if (l->kind == REC_PADDED)
        snprintf(o->c + n, sizeof o->c - n, "off += off / %uu * %uu;   /* +%u bytes every %u */",
                 l->interval, l->pad, l->pad, l->interval);
    else if (l->kind == REC_LINEAR) {
        int d = l->nbits;
        n += (size_t)snprintf(o->c + n, sizeof o->c - n, "/* F2-linear: XOR one constant per set "
                              "bit of the logical offset */\nstatic const uint32_t bit_off[%d] = {",
                              d);
        for (int k = 0; k < d && n < sizeof o->c; k++)
            n += (size_t)snprintf(o->c + n, sizeof o->c - n, "%s0x%x", k ? ", " : "", l->img[k]);
        if (n < sizeof o->c)
            snprintf(o->c + n, sizeof o->c - n, "};\nuint32_t p = 0;\nfor (int k = 0; k < %d; "
                     "k++)\n    if (off >> k & 1)\n        p ^= bit_off[k];\noff = p;", d);
    } else if (n > 0) {
        o->c[n - 1] = 0;    /* no swizzle: the row-major offset is the answer */
    }
}

void rec_sched_code(const struct rec_work *w, int k, const struct rec_total *t, char *out,
                    size_t cap)
{
    out[0] = 0;
    if (!t->ok || t->how.sched == 0)
        return;
    uint32_t R = w->steps[k];
    if (t->how.sched == 1)
        snprintf(out, cap, "/* %s: at step r (0..%u) lane t moves what its step rs moved;\n"
                 " * rs differs by lane, so a register array indexed by it needs the loop\n"
                 " * unrolled with a select (or the data kept in that order) */\n"
                 "uint32_t rs = (r + (lane >> %d)) %% %uu;", w->names[k], R - 1, t->how.shift, R);
    else
        snprintf(out, cap, "/* %s: at step r (0..%u) lane t moves what its step rs moved;\n"
                 " * rs differs by lane, so a register array indexed by it needs the loop\n"
                 " * unrolled with a select (or the data kept in that order) */\n"
                 "uint32_t rs = r ^ ((lane >> %d) & %uu);", w->names[k], R - 1, t->how.shift, R - 1);
}
