/* instr.c - the instruction schema's rules (instr.h): names, defaults, the
 * atomic forms PTX has and sm_90 runs natively, validity for the model, and
 * what a GPU can run.  Pure: no I/O, no allocation.  Every rule that rejects
 * an instruction names the field a client would fix, because the API, the
 * page and the tool all print it. */
#include "instr.h"

#include <stdio.h>
#include <string.h>

static const char *const op_names[INSTR_NOPS] = {"ld", "st", "ldmatrix", "stmatrix", "atom",
                                                 "red"};
static const char *const func_names[INSTR_NFUNCS] = {"add", "min", "max", "inc", "dec",
                                                     "and", "or", "xor", "exch", "cas"};
static const char *const type_names[INSTR_NTYPES] = {"u32", "s32", "b32", "f32", "u64",
                                                     "s64", "b64", "f64", "f16x2", "bf16x2"};
#define OP_CHOICES "\"ld\", \"st\", \"ldmatrix\", \"stmatrix\", \"atom\", \"red\""

/* The atomic forms, one bit per type (enum instr_type order) per func.
 * allowed: what ptxas (CUDA 13.0) accepts for sm_90, tried form by form
 * (tests/calib/atomics/gen_ptxas_check.py -> ptxas_sm90.json; test_access
 * replays that file against this table).  red has no exch or cas.
 * native: what sm_90 runs as one ATOMS.<op> (cuobjdump of every form, the
 * "sass" column of tests/data/atomics_*.json); the rest of the allowed forms
 * (add.f32/f16x2/bf16x2/u64/f64, 64-bit min/max/and/or/xor) compile to a
 * load and an ATOMS.CAST.SPIN compare-and-swap retry loop. */
#define T(x) (1u << INSTR_##x)
static const uint16_t atom_allowed[INSTR_NFUNCS] = {
    [INSTR_ADD] = T(U32) | T(S32) | T(F32) | T(U64) | T(F64) | T(F16X2) | T(BF16X2),
    [INSTR_MIN] = T(U32) | T(S32) | T(U64) | T(S64),
    [INSTR_MAX] = T(U32) | T(S32) | T(U64) | T(S64),
    [INSTR_INC] = T(U32), [INSTR_DEC] = T(U32),
    [INSTR_AND] = T(B32) | T(B64), [INSTR_OR] = T(B32) | T(B64), [INSTR_XOR] = T(B32) | T(B64),
    [INSTR_EXCH] = T(B32) | T(B64), [INSTR_CAS] = T(B32) | T(B64),
};
static const uint16_t native_sm90[INSTR_NFUNCS] = {
    [INSTR_ADD] = T(U32) | T(S32), [INSTR_MIN] = T(U32) | T(S32), [INSTR_MAX] = T(U32) | T(S32),
    [INSTR_INC] = T(U32), [INSTR_DEC] = T(U32),
    [INSTR_AND] = T(B32), [INSTR_OR] = T(B32), [INSTR_XOR] = T(B32),
    [INSTR_EXCH] = T(B32) | T(B64), [INSTR_CAS] = T(B32) | T(B64),
};
#undef T


const char *instr_op_name(enum instr_op op)
{
    return (unsigned)op < INSTR_NOPS ? op_names[op] : "?";
}

const char *instr_func_name(enum instr_func f)
{
    return (unsigned)f < INSTR_NFUNCS ? func_names[f] : "?";
}

const char *instr_type_name(enum instr_type t)
{
    return (unsigned)t < INSTR_NTYPES ? type_names[t] : "?";
}

/* `name` in names[0..n): its index, or -1. */
static int lookup(const char *name, const char *const *names, int n)
{
    for (int i = 0; name && i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

int instr_op_parse(const char *name, enum instr_op *op, struct sz_error *err)
{
    int i = lookup(name, op_names, INSTR_NOPS);
    if (i < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "must be one of " OP_CHOICES);
    *op = (enum instr_op)i;
    return 0;
}

int instr_func_parse(const char *name, enum instr_func *f, struct sz_error *err)
{
    int i = lookup(name, func_names, INSTR_NFUNCS);
    if (i < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "func", "must be one of \"add\", \"min\", "
                       "\"max\", \"inc\", \"dec\", \"and\", \"or\", \"xor\", \"exch\", \"cas\"");
    *f = (enum instr_func)i;
    return 0;
}

int instr_type_parse(const char *name, enum instr_type *t, struct sz_error *err)
{
    int i = lookup(name, type_names, INSTR_NTYPES);
    if (i < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "type", "must be one of \"u32\", \"s32\", "
                       "\"b32\", \"f32\", \"u64\", \"s64\", \"b64\", \"f64\", \"f16x2\", "
                       "\"bf16x2\"");
    *t = (enum instr_type)i;
    return 0;
}

int instr_is_atomic(enum instr_op op)
{
    return op == INSTR_ATOM || op == INSTR_RED;
}

uint32_t instr_type_bytes(enum instr_type t)
{
    return t == INSTR_U64 || t == INSTR_S64 || t == INSTR_B64 || t == INSTR_F64 ? 8 : 4;
}

static uint32_t allowed_types(enum instr_op op, enum instr_func f)
{
    if (!instr_is_atomic(op) || (unsigned)f >= INSTR_NFUNCS)
        return 0;
    if (op == INSTR_RED && (f == INSTR_EXCH || f == INSTR_CAS))
        return 0;   /* red returns nothing: an exchange without its result is a store */
    return atom_allowed[f];
}

int instr_form_allowed(enum instr_op op, enum instr_func f, enum instr_type t)
{
    return (unsigned)t < INSTR_NTYPES && (allowed_types(op, f) >> t & 1);
}

int instr_form_native(enum instr_op op, enum instr_func f, enum instr_type t)
{
    return instr_form_allowed(op, f, t) && (native_sm90[f] >> t & 1);
}

const char *instr_form_name(const struct instr *in, char *buf, size_t cap)
{
    if (instr_is_atomic(in->op))
        snprintf(buf, cap, "%s.%s.%s", instr_op_name(in->op), instr_func_name(in->func),
                 instr_type_name(in->type));
    else
        snprintf(buf, cap, "%s", instr_op_name(in->op));
    return buf;
}

int instr_form_parse(const char *name, struct instr *in, struct sz_error *err)
{
    char part[3][16] = {"", "", ""};
    int n = 0;
    for (const char *p = name ? name : "";; n++) {
        if (n == 3)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "'%.40s': expected op or "
                           "op.func.type (atom.add.u32)", name);
        size_t len = strcspn(p, ".");
        /* a part too long for any name is cut: its lookup fails */
        memcpy(part[n], p, len < sizeof part[n] ? len : sizeof part[n] - 1);
        if (p[len] != '.') {
            n++;
            break;
        }
        p += len + 1;
    }
    enum instr_op op = INSTR_LD;
    if (instr_op_parse(part[0], &op, err) < 0)
        return -1;
    instr_defaults(in, op);
    if (n == 1)
        return 0;
    if (!instr_is_atomic(op) || n != 3)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "'%.40s': an atomic's form is "
                       "op.func.type (atom.add.u32); only atom and red take func and type",
                       name);
    if (instr_func_parse(part[1], &in->func, err) < 0 ||
        instr_type_parse(part[2], &in->type, err) < 0)
        return -1;
    in->bytes = instr_type_bytes(in->type);
    return 0;
}

/* Which forms PTX has, for an error message: "atom.min takes u32, s32, ...". */
static int form_error(const struct instr *in, struct sz_error *err)
{
    uint32_t types = allowed_types(in->op, in->func);
    if (types == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "func", "red.shared has no %s (PTX: red "
                       "returns nothing); use atom, or one of add, min, max, inc, dec, and, "
                       "or, xor", instr_func_name(in->func));
    char list[96] = "";
    size_t len = 0;
    for (int t = 0; t < INSTR_NTYPES; t++)
        if (types >> t & 1)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "",
                                    type_names[t]);
    return sz_fail(err, SZ_INVALID_ARGUMENT, "type", "%s.shared.%s takes %s (what ptxas accepts "
                   "for sm_90), got %s", instr_op_name(in->op), instr_func_name(in->func), list,
                   instr_type_name(in->type));
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
    in->func = INSTR_ADD;
    in->type = INSTR_U32;
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
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "must be one of " OP_CHOICES);
    int matrix = instr_is_matrix(in->op);
    if (instr_is_atomic(in->op)) {
        if ((unsigned)in->func >= INSTR_NFUNCS || (unsigned)in->type >= INSTR_NTYPES)
            return sz_fail(err, SZ_INVALID_ARGUMENT, (unsigned)in->func >= INSTR_NFUNCS ?
                           "func" : "type", "out of range");
        if (!instr_form_allowed(in->op, in->func, in->type))
            return form_error(in, err);
        if (in->bytes != instr_type_bytes(in->type))
            return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes", "%s moves %u bytes per lane; "
                           "omit bytes or give %u", instr_type_name(in->type),
                           instr_type_bytes(in->type), instr_type_bytes(in->type));
    }
    if (matrix && in->bytes != 16)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                       "ldmatrix/stmatrix rows are 16 bytes; omit bytes or give 16");
    if (!matrix && (!bits_is_pow2(in->bytes) || in->bytes > SZ_MAX_LANE_BYTES))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                       "bytes per lane must be 1, 2, 4, 8 or 16, got %u", in->bytes);
    if (matrix && in->matrices != 1 && in->matrices != 2 && in->matrices != 4)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices",
                       "%s takes 1, 2 or 4 matrices (.x1/.x2/.x4), got %u",
                       instr_op_name(in->op), in->matrices);
    if (!matrix && in->matrices != 1)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices",
                       "only ldmatrix/stmatrix take matrices");
    if (!instr_is_atomic(in->op) && (in->func != INSTR_ADD || in->type != INSTR_U32))
        return sz_fail(err, SZ_INVALID_ARGUMENT, in->func != INSTR_ADD ? "func" : "type",
                       "only atom and red take func and type");
    if (!matrix && in->trans)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "trans", "only ldmatrix/stmatrix have .trans");
    if (!bits_is_pow2(in->bank_bytes) || in->bank_bytes > SZ_MAX_BANK_BYTES)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bank_bytes",
                       "bytes per bank must be a power of two in 1..%u, got %u",
                       SZ_MAX_BANK_BYTES, in->bank_bytes);
    if (!bits_is_pow2(in->banks) || in->banks > SZ_MAX_BANKS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "banks",
                       "number of banks must be a power of two in 1..%u, got %u",
                       SZ_MAX_BANKS, in->banks);
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
        if (o >= SZ_OFFSET_LIMIT)
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
    if (instr_is_atomic(in->op) && in->type == INSTR_BF16X2 && cc && cc < 90)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "type",
                       "bf16x2 atomics need compute capability 9.0 or newer; this GPU has "
                       "%d.%d", cc / 10, cc % 10);
    uint32_t smem = gpu && gpu->smem_bytes ? gpu->smem_bytes : INSTR_SMEM_HARD_LIMIT;
    uint32_t spare = instr_is_matrix(in->op)   ? INSTR_MATRIX_SPARE
                     : instr_is_atomic(in->op) ? INSTR_ATOMIC_SPARE
                                               : 0;
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
            if (spare == 0)
                return sz_fail(err, SZ_INVALID_ARGUMENT, lane_field(field, t),
                               "the access at %u..%u does not fit in %u bytes of shared "
                               "memory (the GPU's)", o, o + w - 1, limit);
            return sz_fail(err, SZ_INVALID_ARGUMENT, lane_field(field, t),
                           "the access at %u..%u does not fit in %u bytes of shared memory "
                           "(the GPU's, less %u for the copies a%s measurement shifts)", o,
                           o + w - 1, limit, spare, instr_is_matrix(in->op) ? " matrix" :
                           "n atomic");
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
