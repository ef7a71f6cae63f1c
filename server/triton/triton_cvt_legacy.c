/* triton_cvt_legacy.c - Triton 3.0/3.1's convert_layout through its padded
 * scratch, costed per warp instruction.  Written from Triton v3.0/v3.1's
 * lib/Analysis/Allocation.cpp and lib/Conversion/TritonGPUToLLVM/
 * ConvertLayoutOpToLLVM.cpp as read (the rules, not the code).  Must not
 * allocate, print or read JSON. */
#include "triton_cvt_legacy.h"

#include <stdio.h>
#include <string.h>

#include "model/access.h"
#include "model/instr.h"

enum { TCL_BLOCKED, TCL_SLICE, TCL_MMA };

/* What the era's helpers read off an encoding: getOrder (none for MMA, whose
 * order getCvtOrder takes from the other side), getShapePerCTATile and
 * getContigPerThread. */
struct tcl_info {
    int kind;
    int order[TLL_MAX_RANK];
    int64_t tile[TLL_MAX_RANK], contig[TLL_MAX_RANK];
};

static int info(struct ta_parser *p, int node, int rank, struct tcl_info *s, int depth,
                struct sz_error *err)
{
    int a, n;
    int64_t v[TLL_MAX_RANK], t[TLL_MAX_RANK], w[TLL_MAX_RANK], o[TLL_MAX_RANK];
    if (depth > 4)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "text", "slices nested too deep");
    if (ta_resolve(p, node, &a, err) < 0)
        return -1;
    memset(s, 0, sizeof *s);
    if (ta_is(p, a, "blocked")) {
        /* triton_dist_build has checked these entries already */
        if (ta_ints(p, a, "sizePerThread", "blocked", 1, 1 << 16, 1, v, TLL_MAX_RANK, &n, err) < 0 ||
            ta_ints(p, a, "threadsPerWarp", "blocked", 1, 64, 1, t, TLL_MAX_RANK, &n, err) < 0 ||
            ta_ints(p, a, "warpsPerCTA", "blocked", 1, 1 << 16, 1, w, TLL_MAX_RANK, &n, err) < 0 ||
            ta_ints(p, a, "order", "blocked", 0, TLL_MAX_RANK - 1, 0, o, TLL_MAX_RANK, &n, err) < 0)
            return -1;
        s->kind = TCL_BLOCKED;
        for (int d = 0; d < rank; d++)
            s->order[d] = (int)o[d], s->tile[d] = v[d] * t[d] * w[d], s->contig[d] = v[d];
        return 0;
    }
    if (ta_is(p, a, "slice")) {
        int64_t dim;
        struct tcl_info par;
        if (ta_int(p, a, "dim", "slice", 1, 0, 0, TLL_MAX_RANK - 1, &dim, err) < 0 ||
            info(p, ta_get(p, a, "parent"), rank + 1, &par, depth + 1, err) < 0)
            return -1;
        /* SliceEncodingAttr: the parent's order, tile and contiguity with
         * the sliced dim removed and the dims above it renumbered */
        s->kind = TCL_SLICE;
        for (int d = 0, j = 0; d <= rank; d++) {
            if (par.order[d] != dim)
                s->order[j++] = par.order[d] > dim ? par.order[d] - 1 : par.order[d];
        }
        for (int d = 0, j = 0; d <= rank; d++)
            if (d != dim)
                s->tile[j] = par.tile[d], s->contig[j++] = par.contig[d];
        return 0;
    }
    if (ta_is(p, a, "nvidia_mma")) {
        int64_t major, in[TLL_MAX_RANK];
        int ni = 0;
        if (ta_int(p, a, "versionMajor", "nvidia_mma", 1, 0, 2, 3, &major, err) < 0 ||
            ta_ints(p, a, "warpsPerCTA", "nvidia_mma", 1, 1 << 16, 1, w, TLL_MAX_RANK, &n, err) < 0)
            return -1;
        if (ta_get(p, a, "instrShape") >= 0 &&
            ta_ints(p, a, "instrShape", "nvidia_mma", 1, 256, 0, in, TLL_MAX_RANK, &ni, err) < 0)
            return -1;
        s->kind = TCL_MMA;
        /* getShapePerCTATile: v2 16 x 8 per warp (a leading batch dim of
         * one per warp), v3 16 x instrShape[1]; getOrder: row-major;
         * getContigPerThread: two along the last dim */
        for (int d = 0; d < rank; d++) {
            s->order[d] = rank - 1 - d;
            s->contig[d] = d == rank - 1 ? 2 : 1;
            s->tile[d] = w[d];
        }
        s->tile[rank - 1] *= major == 3 && ni >= 2 ? in[1] : 8;
        if (rank >= 2)
            s->tile[rank - 2] *= 16;
        return 0;
    }
    if (ta_is(p, a, "dot_op"))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                       "dot_op: Triton 3.0/3.1 makes a dot operand in registers (from an MMA) "
                       "or through local_alloc + local_load, not the scratch: not costed");
    return sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                   "%s: Triton 3.0/3.1's scratch path is modelled for blocked, slice and NVIDIA "
                   "MMA layouts", ta_is(p, a, "linear") ? "linear" : "this layout");
}

/* The element coordinate of (register r, lane t, warp w): XOR of the bases
 * of the set bits, as Triton's linear layouts compose. */
static void coord(const struct td_layout *l, uint32_t r, uint32_t t, uint32_t w, int32_t *c)
{
    const uint32_t idx[3] = {r, t, w};
    for (int d = 0; d < l->rank; d++)
        c[d] = 0;
    for (int in = 0; in < 3; in++)
        for (int k = 0; k < l->n[in]; k++)
            if (idx[in] >> k & 1)
                for (int d = 0; d < l->rank; d++)
                    c[d] ^= l->b[in][k][d];
}

/* processReplica's address: the coordinate within its repetition,
 * linearized over the padded shape in the scratch's order. */
static uint32_t offset_of(const struct tcl_result *o, const int32_t *c)
{
    uint64_t off = 0, stride = 1;
    for (int i = 0; i < o->rank; i++) {
        int d = o->order[i];
        off += (uint64_t)(c[d] % o->rep[d]) * stride;
        stride *= (uint64_t)o->padded[d];
    }
    return (uint32_t)off;
}

/* Each warp's instructions of one side: `vec` consecutive registers a
 * vector (split at 16 bytes, as the NVPTX backend legalizes a wider one). */
static void side(const struct tcl_result *o, const struct td_layout *l, int vec, int eb,
                 int is_load, struct tcl_side *s)
{
    uint32_t chunk = (uint32_t)vec;
    while (chunk * (uint32_t)eb > 16)
        chunk /= 2;
    uint32_t regs = 1u << l->n[TLL_REGISTER], warps = 1u << l->n[TLL_WARP];
    memset(s, 0, sizeof *s);
    s->vec = vec;
    s->bytes = chunk * (uint32_t)eb;
    s->per_warp = regs / chunk;
    for (uint32_t w = 0; w < warps; w++)
        for (uint32_t i = 0; i < s->per_warp; i++) {
            struct instr in = {.op = is_load ? INSTR_LD : INSTR_ST, .bytes = s->bytes,
                               .matrices = 1, .bank_bytes = 4, .banks = 32};
            for (uint32_t t = 0; t < 32; t++) {
                int32_t c[TLL_MAX_RANK];
                coord(l, i * chunk, t, w, c);
                in.offsets[t] = offset_of(o, c) * (uint32_t)eb;
            }
            struct acc_result r;
            acc_cost(&in, &r);
            s->wavefronts_cta += r.wavefronts;
            s->ideal_cta += r.ideal_wavefronts;
            if (r.wavefronts > s->wavefronts_max)
                s->wavefronts_max = r.wavefronts, s->ideal_max = r.ideal_wavefronts;
        }
}

/* The instructions simulated, all warps: a bound on the work of one op. */
#define TCL_MAX_INSTR (1u << 16)

int triton_cvt_legacy(struct ta_parser *p, int src_node, const struct td_layout *src,
                      int dst_node, const struct td_layout *dst, int bits,
                      struct tcl_result *out, struct sz_error *err)
{
    struct tcl_info si, di;
    int rank = src->rank;
    memset(out, 0, sizeof *out);
    if (rank != dst->rank || memcmp(src->shape, dst->shape, sizeof(int64_t) * (size_t)rank))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "the two tensors of a convert_layout have different shapes");
    if (src->n[TLL_LANE] != 5 || dst->n[TLL_LANE] != 5)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                       "Triton 3.0/3.1's scratch path is modelled for 32-lane warps only");
    if (src->n[TLL_WARP] != dst->n[TLL_WARP])
        return sz_fail(err, SZ_INVALID_ARGUMENT, "text", "the two layouts' warp counts differ");
    out->rank = rank;
    out->warps = 1 << src->n[TLL_WARP];
    /* lowerDistributedToDistributed: a one-element tensor is copied in registers */
    int64_t elems = 1;
    for (int d = 0; d < rank; d++)
        elems *= src->shape[d];
    if (elems == 1) {
        snprintf(out->why, sizeof out->why, "a one-element tensor: Triton copies the value in "
                 "registers, no shared memory");
        return 0;
    }
    size_t nl = sizeof src->b[0][0] * (size_t)src->n[TLL_LANE],
           nw = sizeof src->b[0][0] * (size_t)src->n[TLL_WARP];
    /* lanes and warps hold the same elements: only registers move, and
     * Triton moves them in registers (its transferWithinThread) */
    if (!memcmp(src->b[TLL_LANE], dst->b[TLL_LANE], nl) &&
        !memcmp(src->b[TLL_WARP], dst->b[TLL_WARP], nw)) {
        snprintf(out->why, sizeof out->why, "every lane keeps its own elements: moved between "
                 "registers, no shared memory (assumed: Triton's transferWithinThread; without "
                 "it the scratch path)");
        return 0;
    }
    if (info(p, src_node, rank, &si, 0, err) < 0 || info(p, dst_node, rank, &di, 0, err) < 0)
        return -1;
    if (si.kind == TCL_MMA && di.kind == TCL_MMA)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "text",
                       "MMA -> MMA: Triton 3.0/3.1 converts some in registers "
                       "(isMmaToMmaShortcut); which ones is not modelled: not costed");
    out->shared = 1;
    /* getRepShapeForCvt: per dim the larger of the two layouts' CTA tiles,
     * each cut to the tensor */
    out->reps = 1;
    for (int d = 0; d < rank; d++) {
        int64_t a = src->shape[d] < si.tile[d] ? src->shape[d] : si.tile[d];
        int64_t b = src->shape[d] < di.tile[d] ? src->shape[d] : di.tile[d];
        out->rep[d] = out->padded[d] = a > b ? a : b;
        out->reps *= (uint32_t)(src->shape[d] / out->rep[d]);
    }
    /* getCvtOrder: an MMA side has no order of its own and takes the other's */
    const int *in_ord = si.kind == TCL_MMA ? di.order : si.order;
    const int *out_ord = di.kind == TCL_MMA ? si.order : di.order;
    memcpy(out->order, out_ord, sizeof out->order);
    int inner = rank - 1;
    int64_t sc = si.contig[in_ord[0]], dc = di.contig[out_ord[0]];
    sc = sc < src->shape[in_ord[0]] ? sc : src->shape[in_ord[0]];   /* getUniqueContigPerThread */
    dc = dc < src->shape[out_ord[0]] ? dc : src->shape[out_ord[0]];
    /* getScratchConfigForCvt: vectors only when both orders run along the
     * last dim (the "legacy issue" its comment names); an MMA source read
     * back as blocked keeps the blocked side's vector */
    int in_vec = out_ord[0] != inner || in_ord[0] != inner ? 1 : (int)sc;
    int out_vec = out_ord[0] != inner ? 1 : (int)dc;
    if (si.kind == TCL_MMA && di.kind == TCL_BLOCKED)
        out_vec = (int)dc;
    /* the pad: max(inVec, outVec) elements on the destination's fastest
     * dim when it is blocked, else on the last dim; none for rank 1 */
    out->pad_dim = di.kind == TCL_BLOCKED ? di.order[0] : inner;
    out->pad = rank > 1 ? (in_vec > out_vec ? in_vec : out_vec) : 0;
    out->padded[out->pad_dim] += out->pad;
    uint32_t work = (uint32_t)out->warps *
                    ((1u << src->n[TLL_REGISTER]) + (1u << dst->n[TLL_REGISTER]));
    if (work > TCL_MAX_INSTR)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "shape",
                       "Triton 3.0/3.1's scratch conversion of this tensor is over %u warp "
                       "instructions: too large to simulate here", TCL_MAX_INSTR);
    int eb = bits < 8 ? 1 : bits / 8;
    side(out, src, in_vec, eb, 0, &out->store);
    side(out, dst, out_vec, eb, 1, &out->load);
    return 0;
}
