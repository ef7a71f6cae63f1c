/* atomic_form.c - an atomic's SASS opcode on sm_90, from its PTX form, its
 * operand and whether its result is used (atomic_form.h).  Every line cites
 * the cuobjdump that showed it; it must not cost anything (access.c does). */
#include "atomic_form.h"

#include <stdio.h>
#include <string.h>

/* ptxas's opcodes for the native forms (cuobjdump -sass, CUDA 13.0, sm_90:
 * the "sass" column of tests/data/atomics_*.json, every form once): the
 * signed min/max/add carry .S32, the 64-bit exch/cas .64. */
static const char *native_sass(const struct instr *in)
{
    int s32 = in->type == INSTR_S32, b64 = instr_type_bytes(in->type) == 8;
    switch (in->func) {
    case INSTR_ADD: return s32 ? "ATOMS.ADD.S32" : "ATOMS.ADD";
    case INSTR_MIN: return s32 ? "ATOMS.MIN.S32" : "ATOMS.MIN";
    case INSTR_MAX: return s32 ? "ATOMS.MAX.S32" : "ATOMS.MAX";
    case INSTR_INC:   /* inc with the bound 0xffffffff is +1: ptxas adds ("cu_inc_max_used") */
        return in->value_kind == INSTR_VALUE_CONST && (uint32_t)in->value == 0xffffffffu
                   ? "ATOMS.ADD" : "ATOMS.INC";
    case INSTR_DEC: return "ATOMS.DEC";
    case INSTR_AND: return "ATOMS.AND";
    case INSTR_OR: return "ATOMS.OR";
    case INSTR_XOR: return "ATOMS.XOR";
    case INSTR_EXCH: return b64 ? "ATOMS.EXCH.64" : "ATOMS.EXCH";
    case INSTR_CAS: return b64 ? "ATOMS.CAS.64" : "ATOMS.CAS";
    case INSTR_NFUNCS: break;
    }
    return "ATOMS";
}

/* tests/data/atomic_forms_*.json (gen_forms.py's kernels, cuobjdump):
 * ATOMS.POPC.INC.32 for red.add.u32 [a], 1 ("red_add_u32_i1"), an atom.add
 * of 1 whose result is unused ("atom_add_u32_i1_unused"), CUDA's
 * atomicAdd(p, 1) on unsigned or int ("cu_add_1", "cu_add_1_s32": both PTX
 * atom.add.u32 with the result unused), red.inc.u32 / atomicInc with the
 * bound 0xffffffff ("red_inc_u32_imax", "cu_inc_max").  Not for: PTX's
 * red.add.s32 of 1 ("red_add_s32_i1": ATOMS.ADD.S32), the result used
 * ("cu_add_1_used", and "cu_inc_max_used", "atom_inc_u32_imax_used": ATOMS.ADD,
 * inc to the bound 0xffffffff being +1), -1 ("cu_sub_1", "red_add_s32_im1": ATOMS.ADD), 2 or
 * 7 ("cu_add_2", "cu_add_7"), a uniform or per-lane register holding any value
 * ("cu_add_uni", "red_add_u32_lane"), dec with the bound 0xffffffff
 * ("red_dec_u32_imax": ATOMS.DEC), inc with another bound ("cu_inc_15"). */
int atomic_form_merges(const struct instr *in)
{
    if (in->op != INSTR_RED || in->value_kind != INSTR_VALUE_CONST)
        return 0;
    uint32_t v = (uint32_t)in->value;
    if (in->func == INSTR_ADD && in->type == INSTR_U32)
        return v == 1;
    return in->func == INSTR_INC && in->type == INSTR_U32 && v == 0xffffffffu;
}

const char *atomic_form_sass(const struct instr *in)
{
    if (!instr_is_atomic(in->op))
        return "";
    if (!instr_form_native(in->op, in->func, in->type))
        return instr_type_bytes(in->type) == 8 ? "ATOMS.CAST.SPIN.64" : "ATOMS.CAST.SPIN";
    return atomic_form_merges(in) ? "ATOMS.POPC.INC.32" : native_sass(in);
}

const char *atomic_form_value_name(enum instr_value v)
{
    static const char *const names[] = {"lane", "uniform", "const"};
    return (unsigned)v < 3 ? names[v] : "?";
}

const char *atomic_form_guard_name(enum instr_guard g)
{
    static const char *const names[] = {"each", "none", "once"};
    return (unsigned)g < 3 ? names[g] : "?";
}

const char *atomic_form_json(const struct instr *in, char *dst, size_t cap)
{
    if (in->value_kind == INSTR_VALUE_CONST)
        snprintf(dst, cap, "\"value\":%lld,\"guard\":\"%s\"", (long long)in->value,
                 atomic_form_guard_name(in->guard));
    else
        snprintf(dst, cap, "\"value\":\"%s\",\"guard\":\"%s\"",
                 atomic_form_value_name(in->value_kind), atomic_form_guard_name(in->guard));
    return dst;
}

int atomic_form_guard_parse(const char *name, enum instr_guard *g, struct sz_error *err)
{
    for (int i = 0; i < 3; i++)
        if (name && strcmp(name, atomic_form_guard_name((enum instr_guard)i)) == 0) {
            *g = (enum instr_guard)i;
            return 0;
        }
    return sz_fail(err, SZ_INVALID_ARGUMENT, "guard", "must be \"each\" (a branch around "
                   "every atomic, as `if (c) atomicAdd(..)` or setp + @p), \"none\" (no "
                   "branch) or \"once\" (one `if` around several atomics)");
}
