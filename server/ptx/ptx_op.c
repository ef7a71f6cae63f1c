/* ptx_op.c - opcode text to fields: the base name picks the operation, each
 * dot-modifier after it is a type, a state space, a vector width, a compare,
 * a mode or a flag, in the PTX ISA's spelling.  Modifiers that change no
 * value the executor computes (rounding of integer ops, .sync, .aligned,
 * cache hints) are passed over.  Must not look at operands. */
#include "ptx_op.h"

#include <string.h>

#include "model/instr.h"

static const struct { const char *name; uint8_t bits, sgn, flt; } types[PT_NTYPES] = {
    [PT_NONE] = {"", 0, 0, 0},         [PT_B8] = {"b8", 8, 0, 0},
    [PT_B16] = {"b16", 16, 0, 0},      [PT_B32] = {"b32", 32, 0, 0},
    [PT_B64] = {"b64", 64, 0, 0},      [PT_B128] = {"b128", 128, 0, 0},
    [PT_U8] = {"u8", 8, 0, 0},         [PT_U16] = {"u16", 16, 0, 0},
    [PT_U32] = {"u32", 32, 0, 0},      [PT_U64] = {"u64", 64, 0, 0},
    [PT_S8] = {"s8", 8, 1, 0},         [PT_S16] = {"s16", 16, 1, 0},
    [PT_S32] = {"s32", 32, 1, 0},      [PT_S64] = {"s64", 64, 1, 0},
    [PT_F16] = {"f16", 16, 0, 1},      [PT_F16X2] = {"f16x2", 32, 0, 1},
    [PT_BF16] = {"bf16", 16, 0, 1},    [PT_BF16X2] = {"bf16x2", 32, 0, 1},
    [PT_F32] = {"f32", 32, 0, 1},      [PT_F64] = {"f64", 64, 0, 1},
    [PT_PRED] = {"pred", 1, 0, 0},     [PT_TF32] = {"tf32", 32, 0, 1},
};

static const char *const opnames[OP_NOPS] = {
    [OP_UNSUPPORTED] = "?", [OP_NOP] = "nop", [OP_MOV] = "mov", [OP_ADD] = "add",
    [OP_SUB] = "sub", [OP_MUL] = "mul", [OP_MAD] = "mad", [OP_MUL24] = "mul24",
    [OP_MAD24] = "mad24", [OP_DIV] = "div", [OP_REM] = "rem", [OP_ABS] = "abs",
    [OP_NEG] = "neg", [OP_MIN] = "min", [OP_MAX] = "max", [OP_AND] = "and", [OP_OR] = "or",
    [OP_XOR] = "xor", [OP_NOT] = "not", [OP_CNOT] = "cnot", [OP_SHL] = "shl",
    [OP_SHR] = "shr", [OP_BFE] = "bfe", [OP_BFI] = "bfi", [OP_PRMT] = "prmt",
    [OP_POPC] = "popc", [OP_CLZ] = "clz", [OP_BREV] = "brev", [OP_SAD] = "sad",
    [OP_SETP] = "setp", [OP_SELP] = "selp", [OP_SLCT] = "slct", [OP_CVT] = "cvt",
    [OP_CVTA] = "cvta", [OP_FMA] = "fma", [OP_RCP] = "rcp", [OP_SQRT] = "sqrt",
    [OP_RSQRT] = "rsqrt", [OP_EX2] = "ex2", [OP_LG2] = "lg2", [OP_SIN] = "sin",
    [OP_COS] = "cos", [OP_COPYSIGN] = "copysign", [OP_TESTP] = "testp", [OP_LD] = "ld",
    [OP_LDU] = "ldu", [OP_ST] = "st", [OP_ATOM] = "atom", [OP_RED] = "red",
    [OP_BRA] = "bra", [OP_BAR] = "bar", [OP_RET] = "ret", [OP_EXIT] = "exit",
    [OP_SHFL] = "shfl", [OP_VOTE] = "vote", [OP_ACTIVEMASK] = "activemask",
    [OP_LDMATRIX] = "ldmatrix", [OP_STMATRIX] = "stmatrix", [OP_CP_ASYNC] = "cp.async",
    [OP_MATCH] = "match", [OP_ISSPACEP] = "isspacep", [OP_TRAP] = "trap",
};

/* Base names that are another's spelling, and fences/hints that change no
 * value the analysis needs (they order memory; one block runs in order). */
static const struct { const char *name; uint8_t op; } alias[] = {
    {"barrier", OP_BAR}, {"membar", OP_NOP}, {"fence", OP_NOP}, {"prefetch", OP_NOP},
    {"prefetchu", OP_NOP}, {"nanosleep", OP_NOP}, {"pmevent", OP_NOP}, {"discard", OP_NOP},
    {"applypriority", OP_NOP}, {"createpolicy", OP_UNSUPPORTED}, {"brkpt", OP_NOP},
};

static const char *const cmps[] = {
    "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu",
    "leu", "gtu", "geu", "num", "nan",
};

static const struct { const char *name; uint8_t space; } spaces[] = {
    {"shared", PSP_SHARED}, {"shared::cta", PSP_SHARED}, {"global", PSP_GLOBAL},
    {"local", PSP_LOCAL}, {"param", PSP_PARAM}, {"const", PSP_CONST},
};

static int eq(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

enum ptx_type ptx_op_type(const char *s, size_t n)
{
    for (int t = 1; t < PT_NTYPES; t++)
        if (eq(s, n, types[t].name))
            return (enum ptx_type)t;
    return PT_NONE;
}

unsigned ptx_op_bits(enum ptx_type t) { return t < PT_NTYPES ? types[t].bits : 0; }
int ptx_op_signed(enum ptx_type t) { return t < PT_NTYPES && types[t].sgn; }
int ptx_op_float(enum ptx_type t) { return t < PT_NTYPES && types[t].flt; }
const char *ptx_op_name(enum ptx_opk op) { return op < OP_NOPS ? opnames[op] : "?"; }
const char *ptx_op_type_name(enum ptx_type t) { return t < PT_NTYPES ? types[t].name : ""; }

static int base_op(const char *s, size_t n)
{
    for (int o = 1; o < OP_NOPS; o++)
        if (eq(s, n, opnames[o]))
            return o;
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (eq(s, n, alias[i].name))
            return alias[i].op;
    return -1;
}

/* One modifier m[0..n) of an instruction whose operation is oc->op. */
static void modifier(struct ptx_opcode *oc, const char *m, size_t n)
{
    enum ptx_type t = ptx_op_type(m, n);
    if (t != PT_NONE) {
        if (oc->type == PT_NONE)
            oc->type = (uint8_t)t;
        else if (oc->type2 == PT_NONE)
            oc->type2 = (uint8_t)t;
        return;
    }
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (eq(m, n, spaces[i].name)) {
            /* cp.async.ca.shared.global: the destination's space first */
            if (oc->space == PSP_GENERIC)
                oc->space = spaces[i].space;
            return;
        }
    if (n >= 11 && memcmp(m, "shared::clu", 11) == 0) {   /* shared::cluster: DSMEM */
        oc->op = OP_UNSUPPORTED;
        return;
    }
    if (n == 2 && m[0] == 'v' && (m[1] == '2' || m[1] == '4' || m[1] == '8')) {
        oc->vec = (uint8_t)(m[1] - '0');
        return;
    }
    switch (oc->op) {
    case OP_SETP: case OP_SLCT:
        for (int c = 1; c < (int)(sizeof cmps / sizeof cmps[0]); c++)
            if (eq(m, n, cmps[c])) {
                oc->cmp = (uint8_t)c;
                return;
            }
        if (eq(m, n, "and")) oc->bop = PB_AND;
        else if (eq(m, n, "or")) oc->bop = PB_OR;
        else if (eq(m, n, "xor")) oc->bop = PB_XOR;
        return;
    case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24:
        if (eq(m, n, "hi")) oc->mode = PM_HI;
        else if (eq(m, n, "wide")) oc->mode = PM_WIDE;
        else if (eq(m, n, "cc")) oc->flags |= PF_CC;
        return;
    case OP_ADD: case OP_SUB:
        if (eq(m, n, "cc")) oc->flags |= PF_CC;
        if (eq(m, n, "sat")) oc->flags |= PF_SAT;
        return;
    case OP_SHFL:
        if (eq(m, n, "up")) oc->mode = PM_UP;
        else if (eq(m, n, "down")) oc->mode = PM_DOWN;
        else if (eq(m, n, "bfly")) oc->mode = PM_BFLY;
        return;
    case OP_VOTE:
        if (eq(m, n, "any")) oc->mode = PM_ANY;
        else if (eq(m, n, "uni")) oc->mode = PM_UNI;
        else if (eq(m, n, "ballot")) oc->mode = PM_BALLOT;
        return;
    case OP_BAR:
        if (eq(m, n, "warp")) oc->op = OP_NOP;    /* bar.warp.sync: no block barrier */
        else if (eq(m, n, "arrive")) oc->mode = PM_ARRIVE;
        else if (eq(m, n, "red")) oc->mode = PM_RED;
        return;
    case OP_ATOM: case OP_RED: {
        static const char *const funcs[INSTR_NFUNCS] = {
            [INSTR_ADD] = "add", [INSTR_MIN] = "min", [INSTR_MAX] = "max", [INSTR_INC] = "inc",
            [INSTR_DEC] = "dec", [INSTR_AND] = "and", [INSTR_OR] = "or", [INSTR_XOR] = "xor",
            [INSTR_EXCH] = "exch", [INSTR_CAS] = "cas"};
        for (int f = 0; f < INSTR_NFUNCS; f++)
            if (eq(m, n, funcs[f]))
                oc->mode = (uint8_t)f;
        return;
    }
    case OP_LDMATRIX: case OP_STMATRIX:
        if (eq(m, n, "x1")) oc->mode = 1;
        else if (eq(m, n, "x2")) oc->mode = 2;
        else if (eq(m, n, "x4")) oc->mode = 4;
        else if (eq(m, n, "trans")) oc->flags |= PF_TRANS;
        else if (eq(m, n, "m16n16") || eq(m, n, "m8n16") || eq(m, n, "b8x16"))
            oc->op = OP_UNSUPPORTED;    /* the 8-bit sm_100 forms */
        return;
    case OP_CVTA:
        if (eq(m, n, "to")) oc->flags |= PF_TO;
        return;
    case OP_CVT:
        if (eq(m, n, "rni") || eq(m, n, "rzi") || eq(m, n, "rmi") || eq(m, n, "rpi")) {
            oc->flags |= PF_FLOAT_ROUND_INT;
            oc->mode = (uint8_t)m[1];
        } else if (eq(m, n, "rn") || eq(m, n, "rz") || eq(m, n, "rm") || eq(m, n, "rp")) {
            oc->mode = (uint8_t)m[1];
        } else if (eq(m, n, "sat")) {
            oc->flags |= PF_SAT;
        }
        return;
    case OP_CP_ASYNC:
        if (eq(m, n, "cg")) oc->flags |= PF_CG;
        else if (eq(m, n, "commit_group")) oc->mode = PM_COMMIT;
        else if (eq(m, n, "wait_group") || eq(m, n, "wait_all")) oc->mode = PM_WAIT;
        else if (eq(m, n, "bulk") || eq(m, n, "mbarrier")) oc->op = OP_UNSUPPORTED;
        return;
    case OP_BRA:
        if (eq(m, n, "uni")) oc->flags |= PF_UNI;
        return;
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN:
    case OP_COS: case OP_DIV:
        if (eq(m, n, "approx")) oc->flags |= PF_APPROX;
        return;
    default:
        return;
    }
}

int ptx_op_decode(const char *s, size_t n, struct ptx_opcode *oc)
{
    memset(oc, 0, sizeof *oc);
    oc->vec = 1;
    oc->space = PSP_GENERIC;
    if (n == 0)
        return -1;
    size_t i = 0;
    while (i < n && s[i] != '.')
        i++;
    int op = base_op(s, i);
    /* "cp.async" is the one base name with a dot in it */
    if (op < 0 && eq(s, i, "cp") && n >= 8 && memcmp(s, "cp.async", 8) == 0 &&
        (n == 8 || s[8] == '.')) {
        op = OP_CP_ASYNC;
        i = 8;
    }
    if (op < 0) {
        oc->op = OP_UNSUPPORTED;
        return 0;
    }
    oc->op = (uint8_t)op;
    if (oc->op == OP_LDMATRIX || oc->op == OP_STMATRIX)
        oc->mode = 1;
    while (i < n && oc->op != OP_UNSUPPORTED) {
        size_t j = ++i;     /* past the dot */
        while (j < n && s[j] != '.') {
            /* "shared::cta", "L2::128B": a modifier may hold "::" */
            j++;
        }
        modifier(oc, s + i, j - i);
        i = j;
    }
    return 0;
}
