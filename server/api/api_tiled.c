/* api_tiled.c - a CuTe tiled copy (or an MMA operand's thread-value layout)
 * costed on a pasted shared-memory layout: one warp instruction per (warp,
 * instruction index), each with its wavefronts, and the chosen one for the
 * picture.  The (thread, value) -> (m, n) map is thread_cute.c's, the cost
 * access.c's; this file reads the request and writes the answer. */
#include "api_tiled.h"

#include <stdio.h>
#include <string.h>

#include "model/access.h"
#include "api_read.h"

#define TILED_MAX_INSTR 4096        /* a 128x128 tile of 16-bit values by 4-byte lanes */

/* The instruction: the atom's when the print fixes it (ldmatrix/stmatrix),
 * else the request's op, with a one-thread atom's width as its bytes. */
static int tiled_op(const cJSON *root, const struct thr *th, struct instr *in,
                    struct sz_error *err)
{
    static const char *const fixed[] = {"op", "bytes", "matrices", "trans"};
    if (th->has_instr) {
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            if (cJSON_GetObjectItemCaseSensitive(root, fixed[i]))
                return sz_fail(err, SZ_INVALID_ARGUMENT, fixed[i],
                               "is set by the copy atom (%s)", th->name);
        instr_defaults(in, th->op);
        in->bytes = 16;
        in->matrices = th->matrices;
        in->trans = th->trans;
        return api_read_instr_fields(root, 1, in, err);
    }
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(root, "op");
    enum instr_op o;
    if (op == NULL)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                       "required: %s name no instruction; give ld or ldmatrix (shared memory "
                       "is the source, S) or st or stmatrix (the destination, D)",
                       th->tv.atom == THR_ATOM_ONE_THREAD ?
                       "the one-thread copy atom's layouts (UniversalCopy, cp.async)" :
                       th->tv.atom == THR_ATOM_MMA ? "an MMA's layout lines" : "print_latex's TV lines");
    if (instr_op_parse(cJSON_IsString(op) ? op->valuestring : NULL, &o, err) < 0)
        return -1;
    instr_defaults(in, o);
    if (th->tv.atom == THR_ATOM_ONE_THREAD && !instr_is_matrix(o))
        in->bytes = th->tv.atom_bytes;
    return api_read_instr_fields(root, 1, in, err);
}

int api_tiled_instr(const cJSON *root, const struct lay *l, const uint32_t *off, struct thr *th,
                    const int64_t *origin, struct instr *in, int64_t c[][LAY_MAX_RANK],
                    struct buf *tiled, struct sz_error *err)
{
    struct thr_tv *tv = &th->tv;
    if (tiled_op(root, th, in, err) < 0 || instr_check_shape(in, err) < 0 ||
        thr_tv_side(th, in->op, instr_lane_bytes(in), l->element_bits, "thread", err) < 0)
        return -1;
    if (l->rank < 2)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "thread",
                       "a tiled copy's (m, n) needs a layout of rank 2 or more");
    uint64_t n = thr_instructions(th, 0);
    if (n > TILED_MAX_INSTR)
        return sz_fail(err, SZ_TOO_LARGE, "thread", "%llu warp instructions, more than %d",
                       (unsigned long long)n, TILED_MAX_INSTR);
    int64_t sel = 0;
    const cJSON *js = cJSON_GetObjectItemCaseSensitive(root, "instruction");
    if (js && api_num_int(js, "instruction", 0, (double)n - 1, &sel, err) < 0)
        return -1;
    int side = tv->side;
    uint32_t g = (uint32_t)tv->group, groups = tv->values[side] / g;
    uint32_t eb = (uint32_t)l->element_bits / 8, used = instr_used_lanes(in);
    uint64_t wf = 0, ideal = 0, cyc = 0, worst = 0;
    buf_printf(tiled, ",\"tiled\":{\"form\":\"%s\",\"side\":\"%s\",\"label\":",
               th->form ? th->form->name : "?", side ? "D" : "S");
    buf_json_str(tiled, tv->label[side]);
    buf_printf(tiled, ",\"coords\":\"%s\",\"threads\":%u,\"values\":%u,"
               "\"values_per_instruction\":%u,\"warps\":%u,\"instructions\":%llu,"
               "\"origin\":", tv->coords, tv->threads[side], tv->values[side], g, (tv->threads[side] + 31) / 32,
               (unsigned long long)n);
    buf_printf(tiled, "[%lld", (long long)origin[0]);
    for (int d = 1; d < l->rank; d++)
        buf_printf(tiled, ",%lld", (long long)origin[d]);
    buf_puts(tiled, "],\"note\":");
    if (tv->atom == THR_ATOM_ONE_THREAD && tv->atom_bytes == 16 && in->op == INSTR_ST)
        buf_json_str(tiled, "a one-thread 16-byte atom is UniversalCopy<uint128_t> or cp.async "
                     "(SM80_CP_ASYNC_*): the print does not say which. Its shared-memory side is "
                     "costed as st.shared.v4 (16 bytes per lane); the model has no cp.async kind "
                     "yet, and cp.async's cost also depends on .ca/.cg and the global addresses");
    else if (!tv->has[1 - side] && tv->atom != THR_ATOM_MMA)
        buf_json_str(tiled, "print_latex's lines name no atom: the instruction is the request's");
    else
        buf_puts(tiled, "null");
    buf_puts(tiled, ",\"list\":[");
    for (uint64_t k = 0; k < n; k++) {
        struct instr ik = *in;
        int64_t lc[THR_MAX_LANES][LAY_MAX_RANK];
        uint64_t warp = k / groups, grp = k % groups;
        for (int ln = 0; ln < INSTR_LANES; ln++) {
            uint64_t thread = warp * 32 + (uint64_t)ln;
            ik.offsets[ln] = INSTR_INACTIVE;
            lc[ln][0] = THR_IDLE;
            if (thread >= tv->threads[side] || (uint32_t)ln >= used)
                continue;
            uint32_t prev = 0;
            for (uint32_t j = 0; j < g; j++) {      /* the lane's values: consecutive bytes */
                int64_t p[LAY_MAX_RANK], m, nn;
                thr_tv_coord(tv, side, (uint32_t)thread, (uint32_t)(grp * g + j), &m, &nn);
                p[0] = m + origin[0], p[1] = nn + origin[1];
                uint32_t cc[LAY_MAX_RANK] = {0};
                for (int d = 0; d < l->rank; d++) {
                    if (d >= 2)
                        p[d] = origin[d];
                    if (p[d] < 0 || p[d] >= l->shape[d])
                        return sz_fail(err, SZ_INVALID_ARGUMENT, "origin",
                                       "thread %llu's value %llu is at (%lld, %lld) of the "
                                       "tile: coordinate %lld of dim %d is outside the shape "
                                       "(%u)", (unsigned long long)thread,
                                       (unsigned long long)(grp * g + j), (long long)m,
                                       (long long)nn, (long long)p[d], d, l->shape[d]);
                    cc[d] = (uint32_t)p[d];
                }
                uint32_t o = off[lay_index(l, cc)];
                if (j == 0) {
                    ik.offsets[ln] = o;
                    memcpy(lc[ln], p, sizeof p);
                } else if (o != prev + eb) {
                    return sz_fail(err, SZ_INVALID_ARGUMENT, "thread",
                                   "instruction %llu: thread %llu's values %llu..%llu are not "
                                   "consecutive in memory on this layout (value %llu at byte "
                                   "%u, not %u): a %u-byte %s cannot move them",
                                   (unsigned long long)k, (unsigned long long)thread,
                                   (unsigned long long)(grp * g),
                                   (unsigned long long)(grp * g + g - 1),
                                   (unsigned long long)(grp * g + j), o, prev + eb,
                                   instr_lane_bytes(in), instr_op_name(in->op));
                }
                prev = o;
            }
        }
        if (instr_check(&ik, err) < 0) {     /* the lane errors, said of this instruction */
            char msg[sizeof err->message];
            memcpy(msg, err->message, sizeof msg);
            msg[sizeof msg - 24] = '\0';
            return sz_fail(err, SZ_INVALID_ARGUMENT, "thread", "instruction %llu, %s",
                           (unsigned long long)k, msg);
        }
        struct acc_result r;
        acc_cost(&ik, &r);
        wf += r.wavefronts, ideal += r.ideal_wavefronts, cyc += r.cycles;
        worst = r.wavefronts > worst ? r.wavefronts : worst;
        buf_printf(tiled, "%s{\"index\":%llu,\"warp\":%llu,\"step\":%llu,\"wavefronts\":%u,"
                   "\"ideal_wavefronts\":%u,\"bank_conflicts\":%u,\"cycles\":%u}", k ? "," : "",
                   (unsigned long long)k, (unsigned long long)warp, (unsigned long long)grp,
                   r.wavefronts, r.ideal_wavefronts, r.bank_conflicts, r.cycles);
        if ((int64_t)k == sel) {
            *in = ik;
            memcpy(c, lc, sizeof lc);
        }
    }
    buf_printf(tiled, "],\"selected\":%lld,\"totals\":{\"wavefronts\":%llu,"
               "\"ideal_wavefronts\":%llu,\"bank_conflicts\":%llu,\"cycles\":%llu,"
               "\"worst_wavefronts\":%llu}}", (long long)sel, (unsigned long long)wf,
               (unsigned long long)ideal, (unsigned long long)(wf - ideal),
               (unsigned long long)cyc, (unsigned long long)worst);
    return tiled->oom ? sz_fail(err, SZ_INTERNAL, NULL, "out of memory") : 0;
}
