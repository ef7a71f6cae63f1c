/* ptx_alu.c - one lane's integer, float, compare and convert operations as
 * the PTX ISA defines them (ptx_alu.h), in 64-bit arithmetic on values
 * extended from their type; no undefined C conversion (saturating helpers).
 * Must not know warps, memory or registers: the executor calls it per lane. */
#include "ptx_alu.h"

/* The high 64 bits of a 64 x 64-bit product (ISO C has no 128-bit type):
 * four 32-bit partial products, then the signed correction. */
static uint64_t mulhi64(uint64_t a, uint64_t b, int sg)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    if (sg) {
        if ((int64_t)a < 0)
            hi -= b;
        if ((int64_t)b < 0)
            hi -= a;
    }
    return hi;
}

/* Integer arithmetic on one lane for the binary/ternary ops. */
int ptx_alu_int(const struct ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t *res)
{
    unsigned bits = ptx_op_bits(in->oc.type);
    int sg = ptx_op_signed(in->oc.type);
    uint64_t A = sg ? ptx_alu_sx(a, bits) : ptx_alu_zx(a, bits);
    uint64_t B = sg ? ptx_alu_sx(b, bits) : ptx_alu_zx(b, bits);
    switch (in->oc.op) {
    case OP_ADD: *res = A + B; return 0;
    case OP_SUB: *res = A - B; return 0;
    case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24: {
        uint64_t p;
        if (in->oc.op == OP_MUL24 || in->oc.op == OP_MAD24) {
            A = sg ? ptx_alu_sx(A, 24) : ptx_alu_zx(A, 24);
            B = sg ? ptx_alu_sx(B, 24) : ptx_alu_zx(B, 24);
        }
        if (in->oc.mode == PM_WIDE) {
            p = A * B;      /* the operands extended to 64 bits: exact for 8..32-bit types */
            if (bits == 64)
                return -1;
        } else if (in->oc.mode == PM_HI) {
            if (bits == 64) {
                p = mulhi64(A, B, sg);
            } else {
                p = (uint64_t)(sg ? (uint64_t)((int64_t)A * (int64_t)B) : A * B) >> bits;
            }
        } else {
            p = A * B;
        }
        if (in->oc.op == OP_MAD || in->oc.op == OP_MAD24)
            p += in->oc.mode == PM_WIDE ? c : (sg ? ptx_alu_sx(c, bits) : ptx_alu_zx(c, bits));
        *res = p;
        return 0;
    }
    case OP_DIV: case OP_REM:
        if (B == 0 || (sg && (int64_t)B == -1 && (int64_t)A == INT64_MIN))
            return -1;
        if (sg)
            *res = in->oc.op == OP_DIV ? (uint64_t)((int64_t)A / (int64_t)B)
                                       : (uint64_t)((int64_t)A % (int64_t)B);
        else
            *res = in->oc.op == OP_DIV ? A / B : A % B;
        return 0;
    case OP_MIN: *res = sg ? ((int64_t)A < (int64_t)B ? A : B) : (A < B ? A : B); return 0;
    case OP_MAX: *res = sg ? ((int64_t)A > (int64_t)B ? A : B) : (A > B ? A : B); return 0;
    case OP_AND: *res = a & b; return 0;
    case OP_OR: *res = a | b; return 0;
    case OP_XOR: *res = a ^ b; return 0;
    case OP_SHL: *res = ptx_alu_zx(b, 32) >= bits ? 0 : a << ptx_alu_zx(b, 32); return 0;
    case OP_SHR: {
        uint64_t s = ptx_alu_zx(b, 32);
        if (sg)
            *res = s >= bits ? (uint64_t)((int64_t)A < 0 ? -1 : 0) : (uint64_t)((int64_t)A >> s);
        else
            *res = s >= bits ? 0 : A >> s;
        return 0;
    }
    default:
        return -1;
    }
}

int ptx_alu_float(const struct ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t *res)
{
    int dbl = in->oc.type == PT_F64;
    if (in->oc.type != PT_F32 && !dbl)
        return -1;
    double A = dbl ? ptx_alu_as_d(a) : ptx_alu_as_f(a);
    double B = dbl ? ptx_alu_as_d(b) : ptx_alu_as_f(b);
    double C = dbl ? ptx_alu_as_d(c) : ptx_alu_as_f(c);
    double v;
    switch (in->oc.op) {
    case OP_ADD: v = A + B; break;
    case OP_SUB: v = A - B; break;
    case OP_MUL: v = A * B; break;
    case OP_MAD: case OP_FMA:
        v = dbl ? fma(A, B, C) : (double)fmaf((float)A, (float)B, (float)C);
        break;
    case OP_DIV: v = A / B; break;
    case OP_MIN: v = fmin(A, B); break;
    case OP_MAX: v = fmax(A, B); break;
    case OP_ABS: v = fabs(A); break;
    case OP_NEG: v = -A; break;
    case OP_RCP: v = 1.0 / A; break;
    case OP_SQRT: v = sqrt(A); break;
    case OP_RSQRT: v = 1.0 / sqrt(A); break;
    case OP_EX2: v = exp2(A); break;
    case OP_LG2: v = log2(A); break;
    case OP_SIN: v = sin(A); break;
    case OP_COS: v = cos(A); break;
    case OP_COPYSIGN: v = copysign(B, A); break;
    default: return -1;
    }
    *res = dbl ? ptx_alu_of_d(v) : ptx_alu_f32_bits(v);
    return 0;
}

int ptx_alu_compare(const struct ptx_insn *in, uint64_t a, uint64_t b)
{
    enum ptx_type t = in->oc.type;
    unsigned bits = ptx_op_bits(t);
    int c = in->oc.cmp;
    if (ptx_op_float(t)) {
        double A = t == PT_F64 ? ptx_alu_as_d(a) : ptx_alu_as_f(a);
        double B = t == PT_F64 ? ptx_alu_as_d(b) : ptx_alu_as_f(b);
        int un = isnan(A) || isnan(B);
        switch (c) {
        case PC_EQ: return !un && A == B;
        case PC_NE: return !un && A != B;
        case PC_LT: return !un && A < B;
        case PC_LE: return !un && A <= B;
        case PC_GT: return !un && A > B;
        case PC_GE: return !un && A >= B;
        case PC_EQU: return un || A == B;
        case PC_NEU: return un || A != B;
        case PC_LTU: return un || A < B;
        case PC_LEU: return un || A <= B;
        case PC_GTU: return un || A > B;
        case PC_GEU: return un || A >= B;
        case PC_NUM: return !un;
        case PC_NAN: return un;
        default: return 0;
        }
    }
    int sg = ptx_op_signed(t);
    uint64_t A = sg ? ptx_alu_sx(a, bits) : ptx_alu_zx(a, bits);
    uint64_t B = sg ? ptx_alu_sx(b, bits) : ptx_alu_zx(b, bits);
    int64_t SA = (int64_t)A, SB = (int64_t)B;
    switch (c) {
    case PC_EQ: return A == B;
    case PC_NE: return A != B;
    case PC_LT: return sg ? SA < SB : A < B;
    case PC_LE: return sg ? SA <= SB : A <= B;
    case PC_GT: return sg ? SA > SB : A > B;
    case PC_GE: return sg ? SA >= SB : A >= B;
    case PC_LO: return A < B;
    case PC_LS: return A <= B;
    case PC_HI: return A > B;
    case PC_HS: return A >= B;
    default: return 0;
    }
}

/* cvt: one lane; -1 where a type is not modelled (f16, bf16, tf32). */
int ptx_alu_convert(const struct ptx_insn *in, uint64_t a, uint64_t *res)
{
    enum ptx_type d = in->oc.type, s = in->oc.type2 ? in->oc.type2 : in->oc.type;
    unsigned db = ptx_op_bits(d), sb = ptx_op_bits(s);
    int df = ptx_op_float(d), sf = ptx_op_float(s);
    if ((df && d != PT_F32 && d != PT_F64) || (sf && s != PT_F32 && s != PT_F64))
        return -1;
    if (!df && !sf) {
        uint64_t v = ptx_op_signed(s) ? ptx_alu_sx(a, sb) : ptx_alu_zx(a, sb);
        if (in->oc.flags & PF_SAT) {
            int64_t lo = ptx_op_signed(d) ? -(int64_t)(1ull << (db - 1)) : 0;
            int64_t hi = ptx_op_signed(d) ? (int64_t)((1ull << (db - 1)) - 1)
                                          : (db >= 63 ? INT64_MAX : (int64_t)((1ull << db) - 1));
            if (ptx_op_signed(s) && (int64_t)v < lo) v = (uint64_t)lo;
            else if ((!ptx_op_signed(s) || (int64_t)v >= 0) && v > (uint64_t)hi) v = (uint64_t)hi;
        }
        *res = ptx_alu_zx(v, db);
        return 0;
    }
    double v;
    if (sf)
        v = s == PT_F64 ? ptx_alu_as_d(a) : ptx_alu_as_f(a);
    else
        v = ptx_op_signed(s) ? (double)(int64_t)ptx_alu_sx(a, sb) : (double)ptx_alu_zx(a, sb);
    if (df) {
        if (sf && (in->oc.flags & PF_FLOAT_ROUND_INT)) {
            switch (in->oc.mode) {
            case 'n': v = nearbyint(v); break;
            case 'z': v = trunc(v); break;
            case 'm': v = floor(v); break;
            default: v = ceil(v); break;
            }
        }
        *res = d == PT_F64 ? ptx_alu_of_d(v) : ptx_alu_f32_bits(v);
        return 0;
    }
    /* float to integer: rounded as asked (PTX requires a mode), saturated */
    switch (in->oc.mode) {
    case 'n': v = nearbyint(v); break;
    case 'm': v = floor(v); break;
    case 'p': v = ceil(v); break;
    default: v = trunc(v); break;
    }
    if (isnan(v)) {
        *res = 0;
        return 0;
    }
    if (ptx_op_signed(d)) {
        double lo = -ldexp(1, (int)db - 1), hi = ldexp(1, (int)db - 1) - 1;
        int64_t iv = db == 64 ? ptx_alu_i64_sat(v)
                              : v < lo ? (int64_t)lo : v > hi ? (int64_t)hi : (int64_t)v;
        *res = ptx_alu_zx((uint64_t)iv, db);
    } else {
        double hi = ldexp(1, (int)db) - 1;
        uint64_t uv = v <= 0 ? 0 : v >= hi ? (db == 64 ? UINT64_MAX : (uint64_t)hi) : (uint64_t)v;
        *res = ptx_alu_zx(uv, db);
    }
    return 0;
}

