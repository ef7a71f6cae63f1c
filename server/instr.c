/* instr.c - the instruction schema's rules (instr.h): names, defaults,
 * validity for the model, and what a GPU can run.  Pure: no I/O, no
 * allocation.  Every rule that rejects an instruction names the field a
 * client would fix, because the API, the page and the tool all print it. */
#include "instr.h"

#include <stdio.h>
#include <string.h>

static const char *const op_names[INSTR_NOPS] = {"ld", "st", "ldmatrix", "stmatrix"};

static int is_pow2(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

const char *instr_op_name(enum instr_op op)
{
    return (unsigned)op < INSTR_NOPS ? op_names[op] : "?";
}

int instr_op_parse(const char *name, enum instr_op *op, struct sz_error *err)
{
    for (int i = 0; name && i < INSTR_NOPS; i++)
        if (strcmp(name, op_names[i]) == 0) {
            *op = (enum instr_op)i;
            return 0;
        }
    return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                   "must be one of \"ld\", \"st\", \"ldmatrix\", \"stmatrix\"");
}

int instr_is_matrix(enum instr_op op)
{
    return op == INSTR_LDMATRIX || op == INSTR_STMATRIX;
}

void instr_defaults(struct instr *in, enum instr_op op)
{
    memset(in, 0, sizeof *in);
    in->op = op;
    in->bytes = instr_is_matrix(op) ? 16 : 4;
    in->matrices = instr_is_matrix(op) ? 4 : 1;
    in->bank_bytes = 4;
    in->banks = 32;
    for (int t = 0; t < INSTR_LANES; t++)
        in->offsets[t] = INSTR_INACTIVE;
}

uint32_t instr_lane_bytes(const struct instr *in)
{
    return instr_is_matrix(in->op) ? 16 : in->bytes;
}

uint32_t instr_used_lanes(const struct instr *in)
{
    return instr_is_matrix(in->op) ? 8 * in->matrices : INSTR_LANES;
}

/* "offsets[t]" into field (a caller's 24-byte buffer). */
static const char *lane_field(char *field, uint32_t t)
{
    snprintf(field, 24, "offsets[%u]", t);
    return field;
}

int instr_check_shape(const struct instr *in, struct sz_error *err)
{
    if ((unsigned)in->op >= INSTR_NOPS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                       "must be one of \"ld\", \"st\", \"ldmatrix\", \"stmatrix\"");
    int matrix = instr_is_matrix(in->op);
    if (matrix && in->bytes != 16)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                       "ldmatrix/stmatrix rows are 16 bytes; omit bytes or give 16");
    if (!matrix && (!is_pow2(in->bytes) || in->bytes > 16))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                       "bytes per lane must be 1, 2, 4, 8 or 16, got %u", in->bytes);
    if (matrix && in->matrices != 1 && in->matrices != 2 && in->matrices != 4)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices",
                       "%s takes 1, 2 or 4 matrices (.x1/.x2/.x4), got %u",
                       instr_op_name(in->op), in->matrices);
    if (!matrix && in->matrices != 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices",
                       "only ldmatrix/stmatrix take matrices");
    if (!matrix && in->trans)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "trans", "only ldmatrix/stmatrix have .trans");
    if (!is_pow2(in->bank_bytes) || in->bank_bytes > 32)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bank_bytes",
                       "bytes per bank must be a power of two in 1..32, got %u",
                       in->bank_bytes);
    if (!is_pow2(in->banks) || in->banks > INSTR_MAX_BANKS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "banks",
                       "number of banks must be a power of two in 1..128, got %u",
                       in->banks);
    return 0;
}

int instr_check(const struct instr *in, struct sz_error *err)
{
    if (instr_check_shape(in, err) < 0)
        return -1;
    int matrix = instr_is_matrix(in->op);
    uint32_t w = instr_lane_bytes(in), n = instr_used_lanes(in);
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        uint32_t o = in->offsets[t];
        char field[24];
        if (o == INSTR_INACTIVE) {
            /* ldmatrix/stmatrix are .sync.aligned: the whole warp executes them. */
            if (matrix && t < n)
                return sz_fail(err, SZ_INVALID_ARGUMENT, lane_field(field, t),
                               "%s.x%u is warp-wide (.sync.aligned): lanes 0..%u must all "
                               "supply a row address", instr_op_name(in->op), in->matrices,
                               n - 1);
            continue;
        }
        if (o >= INSTR_OFFSET_LIMIT)
            return sz_fail(err, SZ_INVALID_ARGUMENT, lane_field(field, t),
                           "offsets are byte offsets in 0..2147483647, got %u", o);
        if (o % w != 0)
            return sz_fail(err, SZ_INVALID_ARGUMENT, lane_field(field, t),
                           "a %u-byte access must be %u-byte aligned (the hardware faults on "
                           "misaligned shared memory), got offset %u", w, w, o);
    }
    return 0;
}

int instr_check_gpu(const struct instr *in, const struct instr_gpu *gpu,
                    struct sz_error *err)
{
    if (instr_check(in, err) < 0)
        return -1;
    if (in->bank_bytes != 4 || in->banks != 32)
        return sz_fail(err, SZ_INVALID_ARGUMENT, in->bank_bytes != 4 ? "bank_bytes" : "banks",
                       "the GPU has 32 banks of 4 bytes: measure with bank_bytes 4, banks 32");
    int cc = gpu ? gpu->cc : 0;
    if (in->op == INSTR_LDMATRIX && cc && cc < 75)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                       "ldmatrix needs compute capability 7.5 or newer; this GPU has %d.%d",
                       cc / 10, cc % 10);
    if (in->op == INSTR_STMATRIX && cc && cc < 90)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                       "stmatrix needs compute capability 9.0 or newer; this GPU has %d.%d",
                       cc / 10, cc % 10);
    uint32_t smem = gpu && gpu->smem_bytes ? gpu->smem_bytes : INSTR_SMEM_HARD_LIMIT;
    uint32_t spare = instr_is_matrix(in->op) ? INSTR_MATRIX_SPARE : 0;
    uint32_t limit = smem > spare ? smem - spare : 0;
    uint32_t w = instr_lane_bytes(in);
    int active = 0;
    for (uint32_t t = 0; t < INSTR_LANES; t++) {
        uint32_t o = in->offsets[t];
        if (o == INSTR_INACTIVE)
            continue;
        active = 1;
        if ((uint64_t)o + w > limit) {
            char field[24];
            return sz_fail(err, SZ_INVALID_ARGUMENT, lane_field(field, t),
                           "the access at %u..%u does not fit in %u bytes of shared memory "
                           "(the GPU's%s)", o, o + w - 1, limit,
                           spare ? ", less 896 for the copies a matrix measurement shifts" : "");
        }
    }
    if (!active)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "offsets",
                       "no active lane: a GPU cannot time an instruction that moves nothing; "
                       "give at least one offset that is not null");
    return 0;
}

uint32_t instr_smem_bytes(const struct instr *in)
{
    uint32_t end = 16, w = instr_lane_bytes(in);
    for (int t = 0; t < INSTR_LANES; t++)
        if (in->offsets[t] != INSTR_INACTIVE && in->offsets[t] + w > end)
            end = in->offsets[t] + w;
    return (end + 15u) & ~15u;
}
