/* ptx_rules.c - ptxas's transformations that change what Nsight Compute
 * counts, emulated on the decoded entry before it runs (ptx_rules.h).  Each
 * rule's comment and text name the measurement that pins it or say
 * "assumed, not measured".  Must not execute the kernel; the executor asks
 * these annotations what to count. */
#include "ptx_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rule_text[PTX_NRULES] = {
    [PTX_RULE_PLACE] =
        "static .shared variables placed in declaration order, each at its .align "
        "(tests/data/ptx/measured_h200.json: dynamic_after_static, read from the SASS)",
    [PTX_RULE_DYNAMIC] =
        "dynamic (extern) shared memory starts after the static variables, rounded up to 16 "
        "bytes or the extern's .align if larger (tests/data/ptx/measured_h200.json: "
        "dynamic_after_static at +0xa0 after 158 static bytes)",
    [PTX_RULE_MERGE] =
        "scalar ld/st.shared at consecutive offsets from one base whose alignment ptxas can "
        "prove (the symbol's placed offset, shifts, masks and multiplies of the thread index) "
        "merged into one 64/128-bit access (two 64-bit ones where only 8 bytes are proven), "
        "costed at the access that starts it (DESIGN section 4; the proof is emulated, not "
        "read from SASS; the 8-byte split is assumed, not measured)",
    [PTX_RULE_RED] =
        "an atom whose result no instruction reads is a red: red.add.u32 of 1 is "
        "ATOMS.POPC.INC, one update per address (tests/data/atomic_forms_*.json: "
        "atom_add_u32_i1_unused, cu_add_1)",
    [PTX_RULE_CONST] =
        "an atomic's register operand set once by mov of an immediate is that constant to "
        "ptxas (assumed, not measured)",
    [PTX_RULE_CAS] =
        "a shared atomic sm_90 lacks natively (float add, 64-bit add, ...) is a compare-and-swap "
        "loop: each trip a load and an ATOMS.CAST.SPIN, one lane per word succeeding per trip "
        "(tests/data/ptx/measured_h200.json, atomic_float: pairs of lanes on a word and one "
        "word per lane; other patterns assumed)",
    [PTX_RULE_PREDICATE] =
        "a forward branch over at most 5 instructions besides integer address arithmetic and "
        "moves (16 in all), with no branch, barrier or label target inside, is if-converted "
        "by ptxas: a warp whose lanes all skip still executes the region's shared "
        "instructions, counted by the Source page with no lane on; a branch to the kernel's "
        "end is an @P EXIT instead (tests/data/ptx/measured_h200.json: reduce_*, "
        "predicated_if, hist_const; the bound: predicate_k4, a load and 4 fma, predicated, "
        "predicate_k5, a load and 5 fma, branched: H200, driver 580.159.04, 2026-11-28; ptxas "
        "weighs its instructions, this counts them, so other regions near the bound are "
        "assumed)",
    [PTX_RULE_CP_PLACEHOLDER] =
        "ptxas puts three never-true loads (@!PT LDS RZ, [RZ]) before each run of cp.async: "
        "the Source page counts them executed, with no thread and no wavefront; "
        "smsp__sass_inst_executed_op_shared_ld does not (tests/data/ptx/measured_h200.json, "
        "cp_async_pipeline; a run is assumed to be the cp.async of one straight stretch)",
    [PTX_RULE_INLINED] =
        "an instruction of inlined code is filed under its own line (the .loc) and, when it "
        "lies inside a loop, under its caller's line (inlined_at) too (tests/data/ptx/"
        "measured_h200.json: so in hist_const, hist_lane, atomic_float and cp_async_pipeline; "
        "the loop condition is read off those four kernels, not a documented rule)",
};

const char *ptx_rules_text(enum ptx_rule_id id)
{
    return id < PTX_NRULES ? rule_text[id] : "?";
}

int ptx_rules_atomic_type(enum ptx_type t, enum instr_type *out)
{
    switch (t) {
    case PT_U32: *out = INSTR_U32; return 0;
    case PT_S32: *out = INSTR_S32; return 0;
    case PT_B32: *out = INSTR_B32; return 0;
    case PT_F32: *out = INSTR_F32; return 0;
    case PT_U64: *out = INSTR_U64; return 0;
    case PT_S64: *out = INSTR_S64; return 0;
    case PT_B64: *out = INSTR_B64; return 0;
    case PT_F64: *out = INSTR_F64; return 0;
    case PT_F16X2: *out = INSTR_F16X2; return 0;
    case PT_BF16X2: *out = INSTR_BF16X2; return 0;
    default: return -1;
    }
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

uint64_t ptx_rules_dynamic_base(const struct ptx_entry *e)
{
    return align_up(e->shared_static, e->dyn_align ? e->dyn_align : 16);
}

/* What an operation is to these rules: it writes no register (its operand 0
 * is a source), or it ends a straight-line stretch (a merge or a predicated
 * region may not cross it: control flow, barriers, warp-wide operations, and
 * whatever the interpreter does not know). */
enum { F_NO_DEST = 1, F_ENDS = 2 };
static const uint8_t op_flags[OP_NOPS] = {
    [OP_ST] = F_NO_DEST, [OP_RED] = F_NO_DEST, [OP_CP_ASYNC] = F_NO_DEST, [OP_NOP] = F_NO_DEST,
    [OP_BRA] = F_NO_DEST | F_ENDS, [OP_BAR] = F_NO_DEST | F_ENDS, [OP_RET] = F_NO_DEST | F_ENDS,
    [OP_EXIT] = F_NO_DEST | F_ENDS, [OP_STMATRIX] = F_NO_DEST | F_ENDS,
    [OP_TRAP] = F_NO_DEST | F_ENDS, [OP_UNSUPPORTED] = F_ENDS, [OP_SHFL] = F_ENDS,
    [OP_VOTE] = F_ENDS, [OP_LDMATRIX] = F_ENDS,
};

/* The first operand an instruction reads (before it: what it writes). */
static uint32_t first_source(const struct ptx_insn *in)
{
    return op_flags[in->oc.op] & F_NO_DEST ? 0 : 1;
}

static void mark_reads(const struct ptx_entry *e, uint8_t *read)
{
    for (uint32_t i = 0; i < e->ninsns; i++) {
        const struct ptx_insn *in = &e->insns[i];
        if (in->pred >= 0)
            read[in->pred] = 1;
        /* every operand after the first source, vectors' registers included */
        uint32_t k = in->ops, end = in->ops;
        for (uint32_t n = 0; n < in->nops; n++)
            end += 1 + (e->opnds[end].kind == PO_VEC ? e->opnds[end].n : 0);
        uint32_t src = in->ops;
        for (uint32_t n = 0; n < first_source(in) && src < end; n++)
            src += 1 + (e->opnds[src].kind == PO_VEC ? e->opnds[src].n : 0);
        for (k = src; k < end; k++) {
            const struct ptx_operand *o = &e->opnds[k];
            if ((o->kind == PO_REG || o->kind == PO_ADDR) && o->reg >= 0)
                read[o->reg] = 1;
        }
        if (in->oc.op == OP_UNSUPPORTED)    /* it may read anything: be safe */
            for (k = in->ops; k < end; k++)
                if (e->opnds[k].kind == PO_REG)
                    read[e->opnds[k].reg] = 1;
    }
}

/* The register instruction i writes first (operand 0), or -1. */
static int dest_reg(const struct ptx_entry *e, const struct ptx_insn *in)
{
    if (first_source(in) == 0 || in->nops == 0)
        return -1;
    const struct ptx_operand *o = &e->opnds[in->ops];
    return o->kind == PO_REG ? o->reg : -1;
}

static int writes_reg(const struct ptx_entry *e, const struct ptx_insn *in, int reg)
{
    if (first_source(in) == 0 || in->nops == 0)
        return 0;
    const struct ptx_operand *o = &e->opnds[in->ops];
    if (o->kind == PO_REG)
        return o->reg == reg;
    if (o->kind == PO_VEC)
        for (int k = 1; k <= o->n; k++)
            if (o[k].kind == PO_REG && o[k].reg == reg)
                return 1;
    return in->oc.op == OP_UNSUPPORTED;
}

/* Constant atomic operands: an immediate, or a register whose one definition
 * in the entry is a mov of an immediate (PTX_RULE_CONST). */
static void const_operands(struct ptx_entry *e)
{
    for (uint32_t i = 0; i < e->ninsns; i++) {
        struct ptx_insn *in = &e->insns[i];
        if (in->oc.op != OP_ATOM && in->oc.op != OP_RED)
            continue;
        uint32_t vi = in->oc.op == OP_ATOM ? 2 : 1;
        if (in->nops <= vi)
            continue;
        const struct ptx_operand *v = &e->opnds[in->ops + vi];
        if (v->kind == PO_IMM && !v->fimm) {
            in->rule |= PTX_R_CONST;
            in->cval = v->imm;
        } else if (v->kind == PO_REG) {
            int defs = 0;
            int64_t val = 0;
            for (uint32_t j = 0; j < e->ninsns && defs < 2; j++)
                if (writes_reg(e, &e->insns[j], v->reg)) {
                    const struct ptx_insn *d = &e->insns[j];
                    defs++;
                    const struct ptx_operand *s = &e->opnds[d->ops + 1];
                    if (d->oc.op == OP_MOV && d->nops == 2 && d->pred < 0 && s->kind == PO_IMM &&
                        !s->fimm)
                        val = s->imm;
                    else
                        defs = 2;
                }
            if (defs == 1) {
                in->rule |= PTX_R_CONST;
                in->cval = val;
            }
        }
    }
}

static int ends_stretch(const struct ptx_insn *in)
{
    return (op_flags[in->oc.op] & F_ENDS) != 0;
}

static int shared_scalar(const struct ptx_entry *e, const struct ptx_insn *in, int op)
{
    if (in->oc.op != op || in->oc.space != PSP_SHARED || in->oc.vec != 1 || in->nops != 2)
        return 0;
    unsigned bits = ptx_op_bits(in->oc.type);
    const struct ptx_operand *a = &e->opnds[in->ops + (op == OP_LD ? 1 : 0)];
    return (bits == 32 || bits == 64) && a->kind == PO_ADDR;
}

/* PTX_RULE_MERGE: groups of scalar shared loads (or stores) of one width from
 * one base at consecutive offsets inside one straight-line stretch with no
 * write of the base and, for loads, no shared write between (for stores, no
 * shared access between).  The executor merges a group only when the base's
 * proven alignment allows it. */
static void merge_groups(struct ptx_entry *e, const uint8_t *target)
{
    enum { WINDOW = 64, MAXC = 16 };
    for (uint32_t i = 0; i < e->ninsns; i++) {
        struct ptx_insn *lead = &e->insns[i];
        int op = lead->oc.op;
        if (lead->group >= 0 || !(shared_scalar(e, lead, OP_LD) || shared_scalar(e, lead, OP_ST)))
            continue;
        uint32_t w = ptx_op_bits(lead->oc.type) / 8;
        const struct ptx_operand *la = &e->opnds[lead->ops + (op == OP_LD ? 1 : 0)];
        uint32_t cand[MAXC];
        int64_t off[MAXC];
        int nc = 0;
        cand[nc] = i;
        off[nc++] = la->imm;
        for (uint32_t j = i + 1; j < e->ninsns && j < i + WINDOW && nc < MAXC; j++) {
            const struct ptx_insn *in = &e->insns[j];
            if (target[j] || ends_stretch(in))
                break;
            if (shared_scalar(e, in, op) && in->group < 0 && in->oc.type == lead->oc.type &&
                in->pred == lead->pred && in->pred_neg == lead->pred_neg) {
                const struct ptx_operand *a = &e->opnds[in->ops + (op == OP_LD ? 1 : 0)];
                if (a->reg == la->reg && a->sym == la->sym) {
                    cand[nc] = j;
                    off[nc++] = a->imm;
                }
            } else if (in->oc.space == PSP_SHARED || in->oc.space == PSP_GENERIC) {
                int writes = in->oc.op == OP_ST || in->oc.op == OP_ATOM || in->oc.op == OP_RED ||
                             in->oc.op == OP_CP_ASYNC;
                int touches = writes || in->oc.op == OP_LD;
                if (op == OP_LD ? writes : touches)
                    break;
            }
            if (la->reg >= 0 && writes_reg(e, in, la->reg))
                break;
            if (op == OP_LD && writes_reg(e, in, dest_reg(e, lead)) && dest_reg(e, lead) == la->reg)
                break;
        }
        if (nc < 2)
            continue;
        /* the 16-byte window holding the leader's offset, else the 8-byte one */
        for (uint32_t bytes = 16; bytes >= 8; bytes /= 2) {
            if (bytes <= w)
                break;
            int64_t start = off[0] - (int64_t)((uint64_t)off[0] % bytes);
            int members[MAXC], nm = 0;
            for (int64_t o = start; o < start + (int64_t)bytes; o += w) {
                int found = -1;
                for (int c = 0; c < nc && found < 0; c++)
                    if (off[c] == o)
                        found = c;
                if (found < 0) {
                    nm = 0;
                    break;
                }
                members[nm++] = found;
            }
            if (nm == 0)
                continue;
            lead->group = (int32_t)i;
            lead->group_bytes = (uint8_t)bytes;
            lead->group_off = (int32_t)start;
            for (int k = 0; k < nm; k++)
                if (cand[members[k]] != i) {
                    e->insns[cand[members[k]]].group = (int32_t)i;
                    e->insns[cand[members[k]]].rule |= PTX_R_MERGED;
                }
            break;
        }
    }
}

/* Integer arithmetic and moves, which ptxas computes above the branch with
 * no predicate (the address of a predicated load): they do not count
 * towards PTX_PREDICATE_MAX. */
static int address_arith(const struct ptx_opcode *oc)
{
    switch (oc->op) {
    case OP_MOV: case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_MUL24:
    case OP_MAD24: case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_SHL:
    case OP_SHR: case OP_CVTA:
        return !ptx_op_float(oc->type) && !(oc->flags & PF_CC);
    default:
        return 0;
    }
}

/* PTX_RULE_PREDICATE: a guarded forward branch over a short straight region. */
static void predicated_branches(struct ptx_entry *e, const uint8_t *target)
{
    for (uint32_t i = 0; i < e->ninsns; i++) {
        struct ptx_insn *in = &e->insns[i];
        if (in->oc.op != OP_BRA || in->pred < 0 || in->nops != 1)
            continue;
        int32_t t = e->opnds[in->ops].reg;
        if (t <= (int32_t)i + 1 || (uint32_t)t - i - 1 > PTX_PREDICATE_SPAN)
            continue;
        int ok = 1, weight = 0;
        for (int32_t j = (int32_t)i + 1; j < t && ok; j++) {
            ok = !target[j] && !ends_stretch(&e->insns[j]);
            weight += !address_arith(&e->insns[j].oc);
        }
        ok = ok && weight <= PTX_PREDICATE_MAX;
        /* a branch to the kernel's end is an @P EXIT, not a predicated region
         * (reduce_*, hist_const, hist_lane: "LDS ... after @P0 EXIT") */
        int op_t = (uint32_t)t < e->ninsns ? e->insns[t].oc.op : OP_RET;
        if (ok && (op_t == OP_RET || op_t == OP_EXIT))
            ok = 0;
        if (ok) {
            in->rule |= PTX_R_PREDICATED;
            in->target_end = t;
        }
    }
}

int ptx_rules_apply(struct ptx_entry *e, uint64_t dynamic_shared, struct sz_error *err)
{
    uint64_t cur = 0;
    uint32_t dyn_align = 16;
    for (int i = 0; i < e->nvars; i++) {
        struct ptx_var *v = &e->vars[i];
        if (v->space != PSP_SHARED)
            continue;
        if (v->is_extern) {
            if (v->align > dyn_align)
                dyn_align = v->align;
            continue;
        }
        cur = align_up(cur, v->align);
        v->offset = cur;
        cur += v->size;
    }
    e->shared_static = cur;
    e->dyn_align = dyn_align;
    uint64_t total = ptx_rules_dynamic_base(e) + dynamic_shared;
    if (total > INSTR_SMEM_HARD_LIMIT)
        return sz_fail(err, SZ_TOO_LARGE, "dynamic_shared", "the kernel's shared memory would be "
                       "%llu bytes (%llu static, %llu dynamic), over the %u a block may have",
                       (unsigned long long)total, (unsigned long long)e->shared_static,
                       (unsigned long long)dynamic_shared, INSTR_SMEM_HARD_LIMIT);
    for (int i = 0; i < e->nvars; i++)
        if (e->vars[i].space == PSP_SHARED && e->vars[i].is_extern)
            e->vars[i].offset = ptx_rules_dynamic_base(e);

    uint8_t *read = calloc((size_t)e->nregs + 1, 1), *target = calloc((size_t)e->ninsns + 1, 1);
    if (!read || !target) {
        free(read);
        free(target);
        return sz_fail(err, SZ_INTERNAL, NULL, "out of memory");
    }
    mark_reads(e, read);
    for (uint32_t i = 0; i < e->ninsns; i++) {
        struct ptx_insn *in = &e->insns[i];
        in->group = -1;
        in->rule = 0;
        if (in->oc.op == OP_BRA && in->nops == 1 && e->opnds[in->ops].kind == PO_LABEL &&
            e->opnds[in->ops].reg >= 0 && (uint32_t)e->opnds[in->ops].reg < e->ninsns)
            target[e->opnds[in->ops].reg] = 1;
        enum instr_type it;
        if ((in->oc.op == OP_ATOM || in->oc.op == OP_RED) && in->oc.space == PSP_SHARED &&
            ptx_rules_atomic_type(in->oc.type, &it) == 0 &&
            instr_form_allowed(INSTR_ATOM, in->oc.mode, it) &&
            !instr_form_native(INSTR_ATOM, in->oc.mode, it))
            in->rule |= PTX_R_CAS;
        int d = dest_reg(e, in);
        if (in->oc.op == OP_ATOM && (d < 0 || !read[d]) &&
            !(in->nops > 0 && e->opnds[in->ops].kind == PO_VEC))
            in->rule |= PTX_R_NORET;
    }
    /* PTX_RULE_CP_PLACEHOLDER: the first cp.async copy of each straight stretch */
    for (uint32_t i = 0, in_run = 0; i < e->ninsns; i++) {
        struct ptx_insn *in = &e->insns[i];
        if (target[i] || ends_stretch(in))
            in_run = 0;
        if (in->oc.op == OP_CP_ASYNC && in->oc.mode == PM_COPY) {
            if (!in_run)
                in->rule |= PTX_R_CP_FIRST;
            in_run = 1;
        }
    }
    const_operands(e);
    merge_groups(e, target);
    predicated_branches(e, target);
    free(read);
    free(target);
    return 0;
}

int ptx_rules_cas_loop(struct ptx_report *r, uint32_t insn, const struct instr *in,
                       struct sz_error *err)
{
    /* atomic_float (tests/data/ptx/measured_h200.json, lines 9 and 10): each
     * trip of the loop re-reads the word (LDS) and runs ATOMS.CAST.SPIN, 2
     * wavefronts and 2 ideal for 32 lanes on 16 words (pairs) as for 32 lanes
     * on 32 words, and 2 for the 16 lanes of the second trip: the shape of a
     * 2w-byte store (compare and new value) to each lane's word, which is how
     * the swap is costed here (assumed beyond these two measured patterns). */
    uint32_t w = instr_type_bytes(in->type);
    struct instr ld, cas;
    instr_defaults(&ld, INSTR_LD);
    ld.bytes = w;
    instr_defaults(&cas, INSTR_ST);
    cas.bytes = 2 * w;
    uint32_t pending = 0;
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        if (in->offsets[t] != INSTR_INACTIVE)
            pending |= 1u << t;
    while (pending) {
        uint32_t won = 0;
        for (uint32_t t = 0; t < INSTR_LANES; t++) {
            int on = pending >> t & 1, first = on;
            ld.offsets[t] = on ? in->offsets[t] : INSTR_INACTIVE;
            cas.offsets[t] = on ? 2 * in->offsets[t] : INSTR_INACTIVE;
            for (uint32_t u = 0; u < t && first; u++)   /* one lane per word wins a trip */
                first = !(pending >> u & 1 && in->offsets[u] == in->offsets[t]);
            if (first)
                won |= 1u << t;
        }
        if (ptx_cost_add(r, insn, PK_LD, &ld, err) < 0 || ptx_cost_add(r, insn, PK_ATOM, &cas, err) < 0)
            return -1;
        pending &= ~won;
    }
    return 0;
}
