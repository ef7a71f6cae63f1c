/* instr.c - the instruction schema's rules (instr.h): the instruction-kind
 * table, names, defaults, the atomic forms PTX has and sm_90 runs natively,
 * validity for the model, and what a GPU can run.  Pure: no I/O, no allocation.  Every rule that rejects
 * an instruction names the field a client would fix, because the API, the
 * page and the tool all print it. */
#include "instr.h"

#include <stdio.h>
#include <string.h>

/* ---- the instruction kinds -------------------------------------------------
 *
 * One row per kind; every layer reads it (the model, the API's answers and
 * GET /api/ops, the tool and its counter pass, the calibration scripts
 * through tests/data/ops.json, the page through /api/ops).
 *
 * The ncu metrics, per kind, are the ones the tool reads (cuda/ncu.c) and
 * the calibrations measured: the Source-page metric (smsp__sass_*) has one op
 * per kind; on sm_90 the hardware counters file ldmatrix under op_ld and
 * stmatrix under op_st (the _op_ldsm/_op_stsm variants do not exist there:
 * tests/data/calib_*.json, "metrics_unavailable"), and ncu has no
 * executed-instruction count for stmatrix (smsp__inst_executed_op_stsm is
 * unavailable too).  atom and red both run as ATOMS and count under op_atom
 * (tests/data/atomics_*.json, "method"); no bank-conflict counter of op_atom
 * was among the measured metrics, so none is named.  The Source page's own
 * execution count (smsp__sass_inst_executed_op_*) names its op per kind as
 * ncu --query-metrics lists it on an H200 with ncu 2025.3 (stmatrix
 * _op_shared_stsm, ldmatrix and LDGSTS without "shared"), and `sass` is the
 * opcode the Source page prints (tests/data/ptx/ncu_csv/: LDS, LDS.64, STS,
 * LDSM.16.M88.4, STSM, ATOMS.ADD, ATOMS.POPC.INC, LDGSTS.E.BYPASS.128): red
 * runs as ATOMS too. */
#define SASS_WF "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_"
#define HW_WF "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
#define BANK "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
#define INST "smsp__inst_executed_op_"
#define SASS_INST "smsp__sass_inst_executed_op_"
#define W(n) (1u << (n))
#define VECTOR_WIDTHS (W(1) | W(2) | W(4) | W(8) | W(16))
/* What the matrix kinds share: 8x16-byte rows, .x1/.x2/.x4 (default .x4),
 * .trans, and the room the tool's shifted copies need. */
#define MATRIX_SHAPE                                                                   \
    .operands = INSTR_O_MATRICES | INSTR_O_TRANS, .widths = W(16), .default_bytes = 16, \
    .matrices = W(1) | W(2) | W(4), .default_matrices = 4, .smem_spare = INSTR_MATRIX_SPARE
/* What the atomics share: func and type (bytes follows the type: 4 or 8),
 * any lanes, one form per lane, the room of the tool's 8 copies. */
#define ATOMIC_SHAPE                                                                   \
    .flags = INSTR_F_ATOMIC,                                                           \
    .operands = INSTR_O_FUNC | INSTR_O_TYPE | INSTR_O_VALUE | INSTR_O_GUARD | INSTR_O_WARPS,\
    .widths = W(4) | W(8), .default_bytes = 4, .default_matrices = 1,                  \
    .smem_spare = INSTR_ATOMIC_SPARE

const struct instr_kind instr_kinds[] = {
    [INSTR_LD] = {
        .name = "ld", .ptx = "ld.shared", .label = "ld (load)", .short_name = "ld", .sass = "LDS",
        .flags = INSTR_F_LOAD, .operands = INSTR_O_BYTES,
        .widths = VECTOR_WIDTHS, .default_bytes = 4, .default_matrices = 1,
        .ncu = {SASS_WF "ld.sum", HW_WF "ld.sum", BANK "ld.sum", INST "shared_ld.sum",
                SASS_INST "shared_ld.sum"},
    },
    [INSTR_ST] = {
        .name = "st", .ptx = "st.shared", .label = "st (store)", .short_name = "st", .sass = "STS",
        .flags = INSTR_F_STORE, .operands = INSTR_O_BYTES,
        .widths = VECTOR_WIDTHS, .default_bytes = 4, .default_matrices = 1,
        .ncu = {SASS_WF "st.sum", HW_WF "st.sum", BANK "st.sum", INST "shared_st.sum",
                SASS_INST "shared_st.sum"},
    },
    [INSTR_LDMATRIX] = {
        .name = "ldmatrix", .ptx = "ldmatrix.sync.aligned.m8n8", .label = "ldmatrix",
        .short_name = "ldsm", .sass = "LDSM", .flags = INSTR_F_LOAD | INSTR_F_MATRIX, MATRIX_SHAPE,
        .min_cc = 75,
        .ncu = {SASS_WF "ldsm.sum", HW_WF "ld.sum", BANK "ld.sum", INST "ldsm.sum",
                SASS_INST "ldsm.sum"},
    },
    [INSTR_STMATRIX] = {
        .name = "stmatrix", .ptx = "stmatrix.sync.aligned.m8n8", .label = "stmatrix",
        .short_name = "stsm", .sass = "STSM", .flags = INSTR_F_STORE | INSTR_F_MATRIX, MATRIX_SHAPE,
        .min_cc = 90,
        .ncu = {SASS_WF "stsm.sum", HW_WF "st.sum", BANK "st.sum", NULL,
                SASS_INST "shared_stsm.sum"},
    },
    [INSTR_ATOM] = {
        .name = "atom", .ptx = "atom.shared", .label = "atom (atomic, returns the old value)",
        .short_name = "atom", .sass = "ATOMS", ATOMIC_SHAPE,
        .ncu = {SASS_WF "atom.sum", HW_WF "atom.sum", NULL, INST "shared_atom.sum",
                SASS_INST "shared_atom.sum"},
    },
    [INSTR_RED] = {
        .name = "red", .ptx = "red.shared", .label = "red (atomic reduction, returns nothing)",
        .short_name = "red", .sass = "ATOMS", ATOMIC_SHAPE,
        .ncu = {SASS_WF "atom.sum", HW_WF "atom.sum", NULL, INST "shared_atom.sum",
                SASS_INST "shared_atom.sum"},
    },
    /* issue 23 (tests/data/cp_async_*.json): SASS LDGSTS.E/.64/.128 (.ca) and
     * .BYPASS.128 (.cg); sm_90 has no l1tex wavefront counter of op_ldgsts: the
     * deterministic sm__sass_ twin stands in (equal to the Source page's on all
     * 596 rows); its bank-conflict counter does not count what C1/C2 call
     * conflicts, so none is named.  The tool runs it (cuda/kernels.cu,
     * copy_kernel: cp_probe.cu's method). */
    [INSTR_CP_ASYNC] = {
        .name = "cp.async", .ptx = "cp.async.shared.global",
        .label = "cp.async (global -> shared, LDGSTS)", .short_name = "ldgsts", .sass = "LDGSTS",
        .flags = INSTR_F_ASYNC | INSTR_F_STORE,
        .operands = INSTR_O_BYTES | INSTR_O_CACHE | INSTR_O_GLOBAL,
        .widths = W(4) | W(8) | W(16), .default_bytes = 16, .default_matrices = 1,
        .min_cc = 80, .smem_spare = INSTR_COPY_SPARE,
        .ncu = {SASS_WF "ldgsts.sum", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
                NULL, INST "ldgsts.sum", SASS_INST "ldgsts.sum"},
    },
};
/* A row left out at the end is a compile error here; one left out in the
 * middle is a row of NULLs that test_access's spec on the table names. */
_Static_assert(sizeof instr_kinds / sizeof instr_kinds[0] == INSTR_NOPS,
               "instr_kinds[] needs one row per enum instr_op");
#undef MATRIX_SHAPE
#undef ATOMIC_SHAPE
#undef SASS_WF
#undef HW_WF
#undef BANK
#undef INST
#undef SASS_INST

static const char *const operand_names[INSTR_NOPERANDS] = {
    "bytes", "matrices", "trans", "func", "type", "value", "guard", "cache", "global_offsets",
    "warps"};
static const char *const func_names[INSTR_NFUNCS] = {"add", "min", "max", "inc", "dec",
                                                     "and", "or", "xor", "exch", "cas"};
static const char *const type_names[INSTR_NTYPES] = {"u32", "s32", "b32", "f32", "u64",
                                                     "s64", "b64", "f64", "f16x2", "bf16x2"};

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


/* The members of a set of small numbers (bit n: n), for a message: "1, 2, 4,
 * 8 or 16" (sep NULL... given "": ", " and " or "), or with sep "/" and
 * prefix ".x": ".x1/.x2/.x4". */
static const char *set_text(uint32_t set, const char *prefix, const char *sep, char *buf,
                            size_t cap)
{
    size_t len = 0;
    int left = 0;
    for (uint32_t x = set; x; x &= x - 1)
        left++;
    buf[0] = '\0';
    for (unsigned n = 0; n < 32 && len < cap; n++) {
        if (!(set >> n & 1))
            continue;
        const char *between = len == 0 ? "" : *sep ? sep : left == 1 ? " or " : ", ";
        len += (size_t)snprintf(buf + len, cap - len, "%s%s%u", between, prefix, n);
        left--;
    }
    return buf;
}

const struct instr_kind *instr_kind(enum instr_op op)
{
    return (unsigned)op < INSTR_NOPS ? &instr_kinds[op] : NULL;
}

const char *instr_operand_name(unsigned operand)
{
    for (int i = 0; i < INSTR_NOPERANDS; i++)
        if (operand == 1u << i)
            return operand_names[i];
    return "?";
}

const char *instr_kind_names(unsigned flags, unsigned operands, int quoted, const char *sep,
                             char *buf, size_t cap)
{
    int pick[INSTR_NOPS], n = 0;
    for (int k = 0; k < INSTR_NOPS; k++)
        if ((!flags && !operands) || (instr_kinds[k].flags & flags) ||
            (instr_kinds[k].operands & operands))
            pick[n++] = k;
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < cap; i++) {
        const char *between = i == 0 ? "" : sep ? sep : i == n - 1 ? " and " : ", ";
        const char *q = quoted ? "\"" : "";
        len += (size_t)snprintf(buf + len, cap - len, "%s%s%s%s", between, q,
                                instr_kinds[pick[i]].name, q);
    }
    return buf;
}

const char *instr_op_name(enum instr_op op)
{
    return (unsigned)op < INSTR_NOPS ? instr_kinds[op].name : "?";
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

/* "\"add\", \"min\", ..." of names[0..n), into buf: the allowed values of an
 * error message, from the one list the lookup reads. */
static const char *choices(const char *const *names, int n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s\"%s\"", i ? ", " : "", names[i]);
    return buf;
}

int instr_op_parse(const char *name, enum instr_op *op, struct sz_error *err)
{
    for (int k = 0; name && k < INSTR_NOPS; k++)
        if (strcmp(name, instr_kinds[k].name) == 0) {
            *op = (enum instr_op)k;
            return 0;
        }
    char list[160];
    return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "must be one of %s",
                   instr_kind_names(0, 0, 1, ", ", list, sizeof list));
}

int instr_func_parse(const char *name, enum instr_func *f, struct sz_error *err)
{
    char list[160];
    int i = lookup(name, func_names, INSTR_NFUNCS);
    if (i < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "func", "must be one of %s",
                       choices(func_names, INSTR_NFUNCS, list, sizeof list));
    *f = (enum instr_func)i;
    return 0;
}

int instr_type_parse(const char *name, enum instr_type *t, struct sz_error *err)
{
    char list[160];
    int i = lookup(name, type_names, INSTR_NTYPES);
    if (i < 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "type", "must be one of %s",
                       choices(type_names, INSTR_NTYPES, list, sizeof list));
    *t = (enum instr_type)i;
    return 0;
}

static unsigned flags_of(enum instr_op op)
{
    return (unsigned)op < INSTR_NOPS ? instr_kinds[op].flags : 0;
}

int instr_is_atomic(enum instr_op op) { return (flags_of(op) & INSTR_F_ATOMIC) != 0; }
int instr_is_matrix(enum instr_op op) { return (flags_of(op) & INSTR_F_MATRIX) != 0; }
int instr_is_load(enum instr_op op) { return (flags_of(op) & INSTR_F_LOAD) != 0; }

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
    enum instr_op whole = INSTR_LD;
    /* an op whose own name has a dot ("cp.async") is the whole token */
    if (name && instr_op_parse(name, &whole, NULL) == 0) {
        instr_defaults(in, whole);
        return 0;
    }
    for (const char *p = name ? name : "";; n++) {
        if (n == 3)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "'%.*s': expected op or "
                           "op.func.type (atom.add.u32)", sz_utf8_prec(name, 40), name);
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
    if (!instr_is_atomic(op) || n != 3) {
        char who[96];
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op", "'%.*s': an atomic's form is "
                       "op.func.type (atom.add.u32); only %s take func and type",
                       sz_utf8_prec(name, 40), name,
                       instr_kind_names(0, INSTR_O_FUNC, 0, NULL, who, sizeof who));
    }
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

int instr_is_copy(enum instr_op op)
{
    return op == INSTR_CP_ASYNC;
}

void instr_defaults(struct instr *in, enum instr_op op)
{
    memset(in, 0, sizeof *in);
    in->op = op;
    const struct instr_kind *k = instr_kind(op);
    in->bytes = k ? k->default_bytes : 4;
    in->matrices = k ? k->default_matrices : 1;
    in->func = INSTR_ADD;
    in->type = INSTR_U32;
    in->bank_bytes = 4;
    in->banks = 32;
    for (int t = 0; t < INSTR_LANES; t++) {
        in->offsets[t] = INSTR_INACTIVE;
        /* only cp.async reads global memory; other ops keep zeros, so two
         * readers of one instruction agree byte for byte */
        in->global_offsets[t] = instr_is_copy(op) ? (uint32_t)t * in->bytes : 0;
    }
}

uint32_t instr_lane_bytes(const struct instr *in)
{
    /* a matrix row: the kind's one width */
    return instr_is_matrix(in->op) ? instr_kinds[in->op].default_bytes : in->bytes;
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

/* "only ldmatrix/stmatrix take matrices": the kinds with `operand`, from the table. */
static int operand_error(unsigned operand, const char *field, const char *what,
                         struct sz_error *err)
{
    char who[96];
    return sz_fail(err, SZ_INVALID_ARGUMENT, field, "only %s %s", instr_kind_names(0, operand,
                   0, operand & (INSTR_O_FUNC | INSTR_O_TYPE) ? NULL : "/", who, sizeof who),
                   what);
}

int instr_check_shape(const struct instr *in, struct sz_error *err)
{
    const struct instr_kind *k = instr_kind(in->op);
    if (!k)
        return instr_op_parse(NULL, NULL, err);
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
    char set[48];
    if (in->bytes > SZ_MAX_LANE_BYTES || !(k->widths >> in->bytes & 1)) {
        char who[96];
        if (bits_is_pow2(k->widths))   /* one width: the kind moves rows of it */
            return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes", "%s rows are %u bytes; omit "
                           "bytes or give %u", k->flags & INSTR_F_MATRIX ?
                           instr_kind_names(INSTR_F_MATRIX, 0, 0, "/", who, sizeof who) :
                           k->name, k->default_bytes, k->default_bytes);
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes", "bytes per lane must be %s, got %u",
                       set_text(k->widths, "", "", set, sizeof set), in->bytes);
    }
    if (k->matrices && (in->matrices > 16 || !(k->matrices >> in->matrices & 1))) {
        char xs[48];
        return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices", "%s takes %s matrices (%s), got %u",
                       k->name, set_text(k->matrices, "", "", set, sizeof set),
                       set_text(k->matrices, ".x", "/", xs, sizeof xs), in->matrices);
    }
    if (!k->matrices && in->matrices != 1)
        return operand_error(INSTR_O_MATRICES, "matrices", "take matrices", err);
    if (!(k->operands & INSTR_O_FUNC) && (in->func != INSTR_ADD || in->type != INSTR_U32))
        return operand_error(INSTR_O_FUNC, in->func != INSTR_ADD ? "func" : "type",
                             "take func and type", err);
    if (!(k->operands & INSTR_O_TRANS) && in->trans)
        return operand_error(INSTR_O_TRANS, "trans", "have .trans", err);
    if (!(k->operands & INSTR_O_CACHE) && in->cg)
        return operand_error(INSTR_O_CACHE, "cache", "take cache", err);
    if (in->cg && in->bytes != 16)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "cache", "cp.async.cg copies 16 bytes only");
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
        uint32_t g = in->global_offsets[t];
        if (instr_is_copy(in->op) && (g >= SZ_OFFSET_LIMIT || g % w != 0)) {
            snprintf(field, sizeof field, "global_offsets[%u]", t);
            return sz_fail(err, SZ_INVALID_ARGUMENT, field, "a %u-byte cp.async source must "
                           "be a %u-byte aligned offset in 0..2147483647, got %u", w, w, g);
        }
    }
    return 0;
}

/* The atomic operands and guards the tool's kernels compile (cuda/kernels.cu's
 * atomic_kernel).  Every form runs with a per-lane value and either guard; a
 * warp-uniform register or an immediate (1: ATOMS.POPC.INC where it merges, 2,
 * -1) only for INSTR_TOOL_VALUES forms.  Guard "none" runs the atomics
 * unconditionally, so every lane is on; "once" (one `if` around the 8, the
 * calibration's *_if forms) is not a kernel. */
static int instr_check_tool_atomic(const struct instr *in, struct sz_error *err)
{
    if (in->guard == INSTR_GUARD_ONCE)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "guard", "the tool has kernels for \"each\" "
                       "and \"none\"; \"once\" (one `if` around several) is modelled only");
    if (in->guard == INSTR_GUARD_NONE)
        for (uint32_t t = 0; t < INSTR_LANES; t++)
            if (in->offsets[t] == INSTR_INACTIVE)
                return sz_fail(err, SZ_INVALID_ARGUMENT, "guard", "the tool runs guard "
                               "\"none\" atomics unconditionally, on all 32 lanes, and lane "
                               "%u is idle: give every lane an offset, or guard \"each\"", t);
    if (in->value_kind == INSTR_VALUE_LANE)
        return 0;
    if (!INSTR_TOOL_VALUES(in->func, in->type))
        return sz_fail(err, SZ_INVALID_ARGUMENT, "value", "the tool measures a uniform or "
                       "constant value for add.u32, add.s32, inc.u32 and dec.u32; %s.%s takes "
                       "value \"lane\"", instr_func_name(in->func), instr_type_name(in->type));
    uint32_t v = (uint32_t)in->value;
    if (in->value_kind == INSTR_VALUE_CONST && v != 1 && v != 2 && v != 0xffffffffu)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "value", "the tool's kernels hold the "
                       "immediates 1, 2 and -1 (4294967295); got %lld: give one of them, "
                       "\"uniform\" or \"lane\"", (long long)in->value);
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
    /* What the tool's kernels do not hold: cp.async sources stay in its
     * buffer; atomics' operands and guards as instr_check_tool_atomic says. */
    for (uint32_t t = 0; instr_is_copy(in->op) && t < INSTR_LANES; t++)
        if (in->offsets[t] != INSTR_INACTIVE &&
            in->global_offsets[t] + in->bytes > INSTR_COPY_GLOBAL_LIMIT) {
            char field[32];
            snprintf(field, sizeof field, "global_offsets[%u]", t);
            return sz_fail(err, SZ_INVALID_ARGUMENT, field, "the measurement tool's global "
                           "source holds %u bytes: a source offset must be below %u, got %u",
                           INSTR_COPY_GLOBAL_LIMIT, INSTR_COPY_GLOBAL_LIMIT - in->bytes + 1,
                           in->global_offsets[t]);
        }
    if (instr_is_atomic(in->op) && instr_check_tool_atomic(in, err) < 0)
        return -1;
    const struct instr_kind *k = instr_kind(in->op);
    int cc = gpu ? gpu->cc : 0;
    if (cc && cc < k->min_cc)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                       "%s needs compute capability %d.%d or newer; this GPU has %d.%d",
                       k->name, k->min_cc / 10, k->min_cc % 10, cc / 10, cc % 10);
    if (instr_is_atomic(in->op) && in->type == INSTR_BF16X2 && cc && cc < 90)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "type",
                       "bf16x2 atomics need compute capability 9.0 or newer; this GPU has "
                       "%d.%d", cc / 10, cc % 10);
    uint32_t smem = gpu && gpu->smem_bytes ? gpu->smem_bytes : INSTR_SMEM_HARD_LIMIT;
    uint32_t spare = k->smem_spare;
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
                           "(the GPU's, less %u for the copies the tool's %s measurement "
                           "shifts)", o, o + w - 1, limit, spare, k->name);
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
