/* ptx_exec.c - the interpreter: one block at a time, registers as uint64 per
 * thread (register-major: a warp's lanes of one register adjacent), each
 * instruction run for all active lanes of a warp in one loop, warps in SIMT
 * order, bar.sync across the block, shared accesses handed to ptx_cost.
 * Must not do I/O; every memory access is bounds-checked, every loop bounded
 * by the budget. */

/* SIMT order by "lowest PC first": a warp runs the smallest PC among its
 * live threads with every thread at that PC active.  That reconverges
 * compiler-structured code (if/else, loops with lane-varying trip counts) at
 * the first instruction all paths reach, as the hardware does, with no
 * reconvergence stack to get wrong (an IPDOM stack needs the post-dominator
 * tree; this needs nothing and agrees with it on structured code).
 *
 * Each register value carries a meta byte: the low 5 bits are the trailing
 * zero bits ptxas can prove (its alignment analysis, emulated: symbols,
 * immediates, shifts, multiplies, masks), then "unknown" (an operation not
 * modelled produced it) and "global" (it depends on global memory the
 * request did not give). */
#include "ptx_exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/instr.h"
#include "ptx_alu.h"
#include "ptx_rules.h"

#define M_ALIGN 0x1fu
#define M_UNK 0x20u
#define M_GLOB 0x40u
#define M_TAINT (M_UNK | M_GLOB)

#define G_SHARED (1ull << 48)     /* generic address of shared byte 0 */
#define G_LOCAL (2ull << 48)      /* generic address of a thread's local byte 0 */
#define G_BUF_SHIFT 40            /* global buffer i at (i + 1) << 40 */

enum { TS_RUN, TS_BAR, TS_EXIT };

struct ex {
    struct ptx_entry *e;
    const struct ptx_launch *l;
    struct ptx_report *r;
    struct sz_error *err;
    uint32_t T, W, ctaid[3];
    uint64_t *R;
    uint8_t *M;
    uint64_t *rmask;            /* per register: the bits its class holds */
    uint32_t *pc;
    uint8_t *st;
    uint8_t *smem, *smeta;
    uint64_t smem_bytes;
    uint8_t *gmem;              /* nbuf buffers of gbytes */
    int nbuf;
    uint64_t gbytes;
    uint8_t *lmem;
    uint64_t lbytes;
    uint8_t *pbuf;
    uint64_t *sym_addr;         /* per var: its address in its space */
    uint8_t *sym_meta;
    int32_t merged[PTX_MAX_THREADS / 32];       /* per warp: the merge group last led */
    uint32_t merged_bytes[PTX_MAX_THREADS / 32]; /* its access width (0: not merged) */
    int64_t merged_off[PTX_MAX_THREADS / 32];    /* its lowest offset */
    uint64_t budget, used;
    int stop;
};

static unsigned tz64(uint64_t v)
{
    unsigned n = 0;
    if (!v)
        return 31;
    while (!(v & 1) && n < 31) {
        v >>= 1;
        n++;
    }
    return n;
}

static int line_of(const struct ex *x, uint32_t pc)
{
    return pc < x->e->ninsns ? x->e->insns[pc].text_line : 0;
}

static int fault(struct ex *x, uint32_t pc, const char *what)
{
    sz_fail(x->err, SZ_INVALID_ARGUMENT, "ptx", "line %d: %s", line_of(x, pc), what);
    return sz_set_at(x->err, line_of(x, pc), x->e->insns[pc].text_col);
}

/* The opcode as written ("mma.sync.aligned..."), cut to fit buf. */
static void opname(const struct ex *x, const struct ptx_insn *in, char *buf, size_t cap)
{
    int n = in->oc.name_len > 60 ? 60 : in->oc.name_len;
    if (x->e->text)
        snprintf(buf, cap, "%.*s", n, x->e->text + in->oc.name_off);
    else
        snprintf(buf, cap, "%s", ptx_op_name(in->oc.op));
}

/* ---- operands ---- */

static uint64_t special(const struct ex *x, int id, uint32_t t)
{
    const uint32_t *b = x->l->block;
    uint32_t lane = t % 32;
    switch (id) {
    case PS_TID_X: return t % b[0];
    case PS_TID_Y: return t / b[0] % b[1];
    case PS_TID_Z: return t / (b[0] * b[1]);
    case PS_NTID_X: return b[0];
    case PS_NTID_Y: return b[1];
    case PS_NTID_Z: return b[2];
    case PS_CTAID_X: return x->ctaid[0];
    case PS_CTAID_Y: return x->ctaid[1];
    case PS_CTAID_Z: return x->ctaid[2];
    case PS_NCTAID_X: return x->l->grid[0];
    case PS_NCTAID_Y: return x->l->grid[1];
    case PS_NCTAID_Z: return x->l->grid[2];
    case PS_LANEID: return lane;
    case PS_WARPID: return t / 32;
    case PS_LANEMASK_EQ: return 1ull << lane;
    case PS_LANEMASK_LT: return (1ull << lane) - 1;
    case PS_LANEMASK_LE: return (2ull << lane) - 1;
    case PS_LANEMASK_GT: return ~((2ull << lane) - 1) & 0xffffffffu;
    case PS_LANEMASK_GE: return ~((1ull << lane) - 1) & 0xffffffffu;
    case PS_DYNSMEM: return x->l->dynamic_shared;
    case PS_TOTALSMEM: return x->smem_bytes;
    default: return 0;
    }
}

/* Specials whose value the launch does not fix (%smid, %clock, ...). */
static int special_unknown(int id)
{
    return id == PS_NWARPID || id == PS_SMID || id == PS_NSMID || id == PS_GRIDID ||
           id == PS_CLOCK || id == PS_CLOCK64 || id == PS_GLOBALTIMER;
}

static inline uint64_t rv(const struct ex *x, const struct ptx_operand *o, uint32_t t)
{
    switch (o->kind) {
    case PO_REG: return x->R[(size_t)o->reg * x->T + t];
    case PO_IMM: return (uint64_t)o->imm;
    case PO_SPECIAL: return special(x, o->reg, t);
    case PO_SYM: return x->sym_addr[o->sym] + (uint64_t)o->imm;
    default: return 0;
    }
}

static inline uint8_t rm(const struct ex *x, const struct ptx_operand *o, uint32_t t)
{
    switch (o->kind) {
    case PO_REG: return x->M[(size_t)o->reg * x->T + t];
    case PO_IMM: return (uint8_t)tz64((uint64_t)o->imm);
    case PO_SPECIAL: return special_unknown(o->reg) ? M_UNK : 0;
    case PO_SYM: {
        unsigned a = x->sym_meta[o->sym] & M_ALIGN, b = tz64((uint64_t)o->imm);
        return (uint8_t)((a < b ? a : b) | (x->sym_meta[o->sym] & M_TAINT));
    }
    default: return 0;
    }
}

static inline void wr(struct ex *x, const struct ptx_operand *o, uint32_t t, uint64_t v, unsigned m)
{
    if (o->kind != PO_REG)
        return;
    size_t k = (size_t)o->reg * x->T + t;
    x->R[k] = v & x->rmask[o->reg];
    x->M[k] = (uint8_t)m;
}

/* The meta of a result from sources' metas: their taint, and `align`. */
static inline unsigned meta(unsigned align, unsigned a, unsigned b, unsigned c)
{
    return (align > 31 ? 31 : align) | ((a | b | c) & M_TAINT);
}

static unsigned amin(unsigned a, unsigned b) { a &= M_ALIGN; b &= M_ALIGN; return a < b ? a : b; }
static unsigned amax(unsigned a, unsigned b) { a &= M_ALIGN; b &= M_ALIGN; return a > b ? a : b; }

/* An address operand [base + sym + imm] for lane t: its value and meta. */
static inline uint64_t addr_of(const struct ex *x, const struct ptx_operand *o, uint32_t t,
                               unsigned *m)
{
    uint64_t a = (uint64_t)o->imm;
    unsigned al = tz64(a), taint = 0;
    if (o->reg >= 0) {
        size_t k = (size_t)o->reg * x->T + t;
        a += x->R[k];
        al = amin(al, x->M[k]);
        taint |= x->M[k] & M_TAINT;
    }
    if (o->sym >= 0) {
        a += x->sym_addr[o->sym];
        al = amin(al, x->sym_meta[o->sym]);
        taint |= x->sym_meta[o->sym] & M_TAINT;
    }
    *m = al | taint;
    return a;
}

/* ---- memory ---- */

struct where {
    int space;      /* PSP_SHARED, PSP_GLOBAL, PSP_LOCAL, PSP_PARAM, PSP_CONST */
    uint8_t *p;     /* the bytes, NULL: none (a call frame, constant data) */
    uint8_t *meta;  /* shared memory's shadow, else NULL */
    uint64_t off;   /* shared: the offset */
};

/* Resolve `size` bytes at address a in `space` for thread t; a fault names it. */
static int resolve(struct ex *x, uint32_t pc, int space, uint64_t a, uint32_t size, uint32_t t,
                   int var_frame, struct where *w)
{
    char msg[160];
    memset(w, 0, sizeof *w);
    if (space == PSP_GENERIC) {
        if (a >= G_SHARED && a < G_SHARED + (1ull << 32)) {
            space = PSP_SHARED;
            a -= G_SHARED;
        } else if (a >= G_LOCAL && a < G_LOCAL + (1ull << 32)) {
            space = PSP_LOCAL;
            a -= G_LOCAL;
        } else {
            space = PSP_GLOBAL;
        }
    }
    w->space = space;
    if (size && a % size != 0 && space != PSP_PARAM) {
        snprintf(msg, sizeof msg, "a %u-byte access at a misaligned address 0x%llx (thread %u)",
                 size, (unsigned long long)a, t);
        return fault(x, pc, msg);
    }
    switch (space) {
    case PSP_SHARED:
        a &= 0xffffffffu;
        if (a + size > x->smem_bytes) {
            snprintf(msg, sizeof msg, "shared access of %u bytes at offset %llu is past the "
                     "block's %llu bytes of shared memory (thread %u)", size,
                     (unsigned long long)a, (unsigned long long)x->smem_bytes, t);
            return fault(x, pc, msg);
        }
        w->p = x->smem + a;
        w->meta = x->smeta + a;
        w->off = a;
        return 0;
    case PSP_LOCAL:
        if (a + size > x->lbytes) {
            snprintf(msg, sizeof msg, "local access at %llu is past the thread's %llu bytes",
                     (unsigned long long)a, (unsigned long long)x->lbytes);
            return fault(x, pc, msg);
        }
        w->p = x->lmem + (size_t)t * x->lbytes + a;
        return 0;
    case PSP_PARAM:
        if (var_frame)
            return 0;
        if (a + size > x->e->param_bytes) {
            snprintf(msg, sizeof msg, "parameter access at %llu is past the %llu parameter bytes",
                     (unsigned long long)a, (unsigned long long)x->e->param_bytes);
            return fault(x, pc, msg);
        }
        w->p = x->pbuf + a;
        return 0;
    case PSP_CONST:
        return 0;
    default: {
        uint64_t idx = (a >> G_BUF_SHIFT) - 1, off = a & ((1ull << G_BUF_SHIFT) - 1);
        if ((a >> G_BUF_SHIFT) == 0 || idx >= (uint64_t)x->nbuf || off + size > x->gbytes) {
            snprintf(msg, sizeof msg, "global access of %u bytes at 0x%llx is outside every "
                     "buffer (each pointer parameter given null has %llu bytes; thread %u)",
                     size, (unsigned long long)a, (unsigned long long)x->gbytes, t);
            return fault(x, pc, msg);
        }
        w->p = x->gmem + idx * x->gbytes + off;
        if (off + size > x->r->global_touched)
            x->r->global_touched = off + size;
        return 0;
    }
    }
}

static uint64_t load_bytes(const uint8_t *p, uint32_t n)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < n && i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void store_bytes(uint8_t *p, uint32_t n, uint64_t v)
{
    for (uint32_t i = 0; i < n && i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- notes ---- */

static void note(struct ex *x, int rule, uint32_t pc, int unsure, const char *fmt, const char *a)
{
    char text[320];
    snprintf(text, sizeof text, fmt, a ? a : "");
    ptx_cost_note(x->r, rule, line_of(x, pc), unsure, text);
}

static void note_rule(struct ex *x, int rule, uint32_t pc)
{
    ptx_cost_note(x->r, rule, line_of(x, pc), 0, ptx_rules_text(rule));
}

/* A value that decides an address or a branch: unsure when tainted. */
static void check_taint(struct ex *x, uint32_t pc, unsigned m, const char *what)
{
    char text[200];
    if (m & M_UNK) {
        snprintf(text, sizeof text, "%s depends on an instruction the interpreter does not "
                 "model", what);
        ptx_cost_note(x->r, -1, line_of(x, pc), 1, text);
    } else if (m & M_GLOB) {
        snprintf(text, sizeof text, "%s depends on global memory the request did not give "
                 "(read as zeros)", what);
        ptx_cost_note(x->r, -1, line_of(x, pc), 1, text);
    }
}

static void unsupported(struct ex *x, uint32_t pc, const char *why);

/* ---- the instructions ---- */

static const struct ptx_operand *opnd(const struct ex *x, const struct ptx_insn *in, unsigned k)
{
    /* operand k, counting a vector as one */
    const struct ptx_operand *o = &x->e->opnds[in->ops];
    for (unsigned i = 0; i < k; i++)
        o += 1 + (o->kind == PO_VEC ? o->n : 0);
    return o;
}

/* The shared-memory access of a warp: costed through ptx_cost. */
static int cost(struct ex *x, uint32_t pc, enum ptx_kind kind, const struct instr *in)
{
    return ptx_cost_add(x->r, pc, kind, in, x->err);
}

static uint32_t lane_mask_all(const struct ex *x, uint32_t w)
{
    uint32_t n = x->T - w * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* ld / st of every space; shared ones costed (merged groups at their leader). */
static int exec_ldst(struct ex *x, uint32_t w, uint32_t pc, const struct ptx_insn *in, uint32_t em)
{
    int is_ld = in->oc.op == OP_LD || in->oc.op == OP_LDU;
    const struct ptx_operand *data = opnd(x, in, is_ld ? 0 : 1), *ad = opnd(x, in, is_ld ? 1 : 0);
    unsigned bits = ptx_op_bits(in->oc.type);
    uint32_t vec = in->oc.vec, esz = bits == 128 ? 16 : bits / 8, size = esz * vec;
    if (esz == 0 || ad->kind != PO_ADDR) {
        unsupported(x, pc, "an operand form");
        return 0;
    }
    if (bits == 128 || size > 32) {
        unsupported(x, pc, "a 128-bit element or a vector past 32 bytes");
        if (in->oc.space != PSP_SHARED)
            return 0;
    }
    int frame = ad->sym >= 0 && x->e->vars[ad->sym].space == PSP_PARAM &&
                x->e->vars[ad->sym].is_extern == 2;
    struct instr acc;
    int shared_seen = 0, generic_shared = 0;
    instr_defaults(&acc, is_ld ? INSTR_LD : INSTR_ST);
    acc.bytes = size;
    for (uint32_t m = em; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), t = w * 32 + l;
        unsigned am;
        uint64_t a = addr_of(x, ad, t, &am);
        struct where wh;
        if (resolve(x, pc, in->oc.space, a, size <= 16 ? size : esz, t, frame, &wh) < 0)
            return -1;
        if (wh.space == PSP_SHARED) {
            shared_seen = 1;
            generic_shared |= in->oc.space == PSP_GENERIC;
            acc.offsets[l] = (uint32_t)wh.off;
            check_taint(x, pc, am, "a shared-memory address");
        }
        if (bits == 128 || size > 32)
            continue;
        for (uint32_t k = 0; k < vec; k++) {
            const struct ptx_operand *r = data->kind == PO_VEC ? data + 1 + k : data;
            if (is_ld) {
                uint64_t v = 0;
                unsigned mt = 0;
                if (wh.p) {
                    v = load_bytes(wh.p + k * esz, esz);
                    if (ptx_op_signed(in->oc.type))
                        v = ptx_alu_sx(v, bits);
                } else {
                    mt = M_UNK;
                }
                if (wh.meta)
                    for (uint32_t i = 0; i < esz; i++)
                        mt |= wh.meta[k * esz + i] & M_TAINT;
                if (wh.space == PSP_GLOBAL)
                    mt |= M_GLOB;
                wr(x, r, t, v, mt);
            } else if (wh.p) {
                store_bytes(wh.p + k * esz, esz, rv(x, r, t));
                if (wh.meta)
                    memset(wh.meta + k * esz, rm(x, r, t) & M_TAINT, esz);
            }
        }
    }
    if (generic_shared)
        note(x, -1, pc, 1, "a generic ld/st reached shared memory: counted as a shared "
             "access, which ptxas may not emit (LD/ST, not LDS/STS)%s", NULL);
    if (in->oc.space != PSP_SHARED && !shared_seen)
        return 0;
    /* PTX_RULE_MERGE: the group's leader picks the width the base's proven
     * alignment allows: the whole group (16 bytes) costed at the leader, or,
     * for 4-byte loads on an 8-byte-aligned base, two 8-byte halves, each
     * costed at the access that starts it; the others cost nothing. */
    if (in->group == (int32_t)pc && in->group_bytes) {
        unsigned align = 31;
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            struct ptx_operand base = *ad;
            base.imm = 0;
            unsigned am;
            (void)addr_of(x, &base, t, &am);
            align = amin(align, am);
        }
        unsigned need = (unsigned)tz64(in->group_bytes);
        x->merged[w] = (int32_t)pc;
        x->merged_bytes[w] = align >= need ? in->group_bytes
                           : in->group_bytes == 16 && esz == 4 && align >= 3 ? 8 : 0;
        x->merged_off[w] = in->group_off;
    }
    uint32_t mb = in->group >= 0 && x->merged[w] == in->group ? x->merged_bytes[w] : 0;
    if (mb) {
        int64_t rel = ad->imm - x->merged_off[w];
        if (rel % mb != 0)
            return 0;       /* inside a merged access another instruction costs */
        acc.bytes = mb;
        note_rule(x, PTX_RULE_MERGE, pc);
    }
    return cost(x, pc, is_ld ? PK_LD : PK_ST, &acc);
}

static int exec_atom(struct ex *x, uint32_t w, uint32_t pc, const struct ptx_insn *in, uint32_t em)
{
    int is_red = in->oc.op == OP_RED;
    const struct ptx_operand *d = is_red ? NULL : opnd(x, in, 0), *ad = opnd(x, in, is_red ? 0 : 1),
                             *b = opnd(x, in, is_red ? 1 : 2),
                             *c = in->nops > (is_red ? 2u : 3u) ? opnd(x, in, is_red ? 2 : 3) : NULL;
    unsigned bits = ptx_op_bits(in->oc.type);
    uint32_t size = bits / 8;
    enum instr_type it;
    int mapped = ptx_rules_atomic_type(in->oc.type, &it) == 0;
    struct instr acc;
    instr_defaults(&acc, is_red || (in->rule & PTX_R_NORET) ? INSTR_RED : INSTR_ATOM);
    acc.func = in->oc.mode;
    if (mapped)
        acc.type = it;
    acc.bytes = size;
    acc.guard = in->pred >= 0 ? INSTR_GUARD_EACH : INSTR_GUARD_NONE;
    if (in->rule & PTX_R_CONST) {
        acc.value_kind = INSTR_VALUE_CONST;
        acc.value = (int64_t)(uint32_t)in->cval;
    }
    int shared = 0, any_unk = 0;
    for (uint32_t m = em; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), t = w * 32 + l;
        unsigned am;
        uint64_t a = addr_of(x, ad, t, &am);
        struct where wh;
        if (size == 0 || resolve(x, pc, in->oc.space, a, size, t, 0, &wh) < 0)
            return size == 0 ? fault(x, pc, "an atomic without a type") : -1;
        if (wh.space == PSP_SHARED) {
            shared = 1;
            acc.offsets[l] = (uint32_t)wh.off;
            check_taint(x, pc, am, "a shared atomic's address");
        }
        if (!wh.p)
            continue;
        uint64_t old = load_bytes(wh.p, size), v = rv(x, b, t), nv = old;
        int sg = ptx_op_signed(in->oc.type), fl = ptx_op_float(in->oc.type);
        uint64_t O = sg ? ptx_alu_sx(old, bits) : old;
        uint64_t V = sg ? ptx_alu_sx(v, bits) : ptx_alu_zx(v, bits);
        uint64_t zo = ptx_alu_zx(old, bits), zv = ptx_alu_zx(v, bits);
        switch (in->oc.mode) {
        case INSTR_ADD:
            if (fl && bits == 32) nv = ptx_alu_of_f(ptx_alu_as_f(old) + ptx_alu_as_f(v));
            else if (fl && bits == 64) nv = ptx_alu_of_d(ptx_alu_as_d(old) + ptx_alu_as_d(v));
            else if (fl) any_unk = 1;
            else nv = old + v;
            break;
        case INSTR_MIN: nv = sg ? ((int64_t)O < (int64_t)V ? O : V) : (O < V ? O : V); break;
        case INSTR_MAX: nv = sg ? ((int64_t)O > (int64_t)V ? O : V) : (O > V ? O : V); break;
        case INSTR_INC: nv = zo >= zv ? 0 : old + 1; break;
        case INSTR_DEC: nv = (zo == 0 || zo > zv) ? v : old - 1; break;
        case INSTR_AND: nv = old & v; break;
        case INSTR_OR: nv = old | v; break;
        case INSTR_XOR: nv = old ^ v; break;
        case INSTR_EXCH: nv = v; break;
        case INSTR_CAS: nv = zo == zv && c ? rv(x, c, t) : old; break;
        default: any_unk = 1; break;
        }
        store_bytes(wh.p, size, nv);
        if (wh.meta)
            memset(wh.meta, (rm(x, b, t) | (any_unk ? M_UNK : 0)) & M_TAINT, size);
        if (d)
            wr(x, d, t, old, (wh.space == PSP_GLOBAL ? M_GLOB : 0) |
                             (wh.meta ? wh.meta[0] & M_TAINT : 0));
    }
    if (!shared && in->oc.space != PSP_SHARED)
        return 0;
    if (!mapped || !instr_form_allowed(acc.op, acc.func, acc.type)) {
        note(x, -1, pc, 1, "a shared atomic form the model lacks (%s): not counted",
             x->r ? "its type" : "");
        return 0;
    }
    if (acc.op == INSTR_RED && !is_red && instr_form_native(acc.op, acc.func, acc.type))
        note_rule(x, PTX_RULE_RED, pc);
    if ((in->rule & PTX_R_CONST) && b->kind == PO_REG)
        note_rule(x, PTX_RULE_CONST, pc);
    if (!instr_form_native(acc.op, acc.func, acc.type)) {
        note_rule(x, PTX_RULE_CAS, pc);
        return ptx_rules_cas_loop(x->r, pc, &acc, x->err);
    }
    return cost(x, pc, PK_ATOM, &acc);
}

/* ldmatrix / stmatrix: lane t gives row t%8 of matrix t/8; each lane holds
 * two 16-bit elements of each matrix (PTX ISA, "Warp-level matrix load"). */
static int exec_matrix(struct ex *x, uint32_t w, uint32_t pc, const struct ptx_insn *in,
                       uint32_t em, uint32_t mask)
{
    int is_ld = in->oc.op == OP_LDMATRIX;
    uint32_t nm = in->oc.mode ? in->oc.mode : 1;
    const struct ptx_operand *regs = opnd(x, in, is_ld ? 0 : 1), *ad = opnd(x, in, is_ld ? 1 : 0);
    if (ad->kind != PO_ADDR || regs->kind != PO_VEC || regs->n < nm)
        return fault(x, pc, "ldmatrix/stmatrix needs an address and a vector of .xN registers");
    uint32_t need = nm == 4 ? 0xffffffffu : (1u << (8 * nm)) - 1;
    if ((em & need) != need || mask != lane_mask_all(x, w) || lane_mask_all(x, w) != 0xffffffffu) {
        note(x, -1, pc, 1, "ldmatrix/stmatrix with lanes off (it is .sync.aligned: the whole "
             "warp must run it): not counted%s", NULL);
        return 0;
    }
    uint64_t row[32];
    struct instr acc;
    instr_defaults(&acc, is_ld ? INSTR_LDMATRIX : INSTR_STMATRIX);
    acc.matrices = nm;
    acc.trans = !!(in->oc.flags & PF_TRANS);
    for (uint32_t l = 0; l < 8 * nm; l++) {
        unsigned am;
        uint32_t t = w * 32 + l;
        uint64_t a = addr_of(x, ad, t, &am);
        struct where wh;
        if (resolve(x, pc, in->oc.space, a, 16, t, 0, &wh) < 0)
            return -1;
        if (wh.space != PSP_SHARED)
            return fault(x, pc, "ldmatrix/stmatrix address outside shared memory");
        row[l] = wh.off;
        acc.offsets[l] = (uint32_t)wh.off;
        check_taint(x, pc, am, "an ldmatrix/stmatrix row address");
    }
    for (uint32_t j = 0; j < nm; j++)
        for (uint32_t l = 0; l < 32; l++) {
            uint32_t t = w * 32 + l;
            const struct ptx_operand *r = regs + 1 + j;
            for (uint32_t k = 0; k < 2; k++) {
                /* element k of lane l: row l/4, column 2(l%4)+k; .trans swaps them */
                uint32_t rr = l / 4, cc = 2 * (l % 4) + k;
                uint64_t off = acc.trans ? row[j * 8 + cc] + 2 * rr : row[j * 8 + rr] + 2 * cc;
                uint8_t *p = x->smem + off;
                if (is_ld) {
                    uint64_t old = k ? x->R[(size_t)r->reg * x->T + t] : 0;
                    uint64_t v = old | load_bytes(p, 2) << (16 * k);
                    wr(x, r, t, v, (x->smeta[off] | x->smeta[off + 1]) & M_TAINT);
                } else {
                    store_bytes(p, 2, rv(x, r, t) >> (16 * k));
                    x->smeta[off] = x->smeta[off + 1] = rm(x, r, t) & M_TAINT;
                }
            }
        }
    return cost(x, pc, is_ld ? PK_LDSM : PK_STSM, &acc);
}

static int exec_cp_async(struct ex *x, uint32_t w, uint32_t pc, const struct ptx_insn *in,
                         uint32_t em)
{
    if (in->oc.mode != PM_COPY)
        return 0;
    if (in->nops < 3)
        return fault(x, pc, "cp.async needs [dst], [src], size");
    const struct ptx_operand *dst = opnd(x, in, 0), *src = opnd(x, in, 1), *sz = opnd(x, in, 2);
    const struct ptx_operand *srcsz = in->nops > 3 && opnd(x, in, 3)->kind != PO_NONE
                                          ? opnd(x, in, 3) : NULL;
    struct instr acc;
    instr_defaults(&acc, INSTR_CP_ASYNC);
    acc.cg = !!(in->oc.flags & PF_CG);
    for (uint32_t m = em; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), t = w * 32 + l;
        uint32_t n = (uint32_t)rv(x, sz, t);
        if (n != 4 && n != 8 && n != 16)
            return fault(x, pc, "cp.async copies 4, 8 or 16 bytes");
        acc.bytes = n;
        uint32_t keep = srcsz && (srcsz->kind == PO_REG || srcsz->kind == PO_IMM)
                            ? (uint32_t)rv(x, srcsz, t) : n;
        unsigned am, gm;
        uint64_t da = addr_of(x, dst, t, &am), sa = addr_of(x, src, t, &gm);
        struct where ws, wg;
        if (resolve(x, pc, PSP_SHARED, da, n, t, 0, &ws) < 0 ||
            resolve(x, pc, PSP_GLOBAL, sa, n, t, 0, &wg) < 0)
            return -1;
        for (uint32_t i = 0; i < n; i++) {
            ws.p[i] = i < keep ? wg.p[i] : 0;
            ws.meta[i] = M_GLOB;
        }
        acc.offsets[l] = (uint32_t)ws.off;
        acc.global_offsets[l] = (uint32_t)(sa & 0x7fffffffu);
        check_taint(x, pc, am, "a cp.async shared address");
    }
    if (cost(x, pc, PK_LDGSTS, &acc) < 0)
        return -1;
    if (in->rule & PTX_R_CP_FIRST) {
        struct instr none;
        instr_defaults(&none, INSTR_LD);
        for (int k = 0; k < PTX_CP_PLACEHOLDERS; k++)
            if (cost(x, pc, PK_LD, &none) < 0)
                return -1;
        note_rule(x, PTX_RULE_CP_PLACEHOLDER, pc);
    }
    return 0;
}

static void unsupported(struct ex *x, uint32_t pc, const char *why)
{
    const struct ptx_insn *in = &x->e->insns[pc];
    char name[64], text[200];
    opname(x, in, name, sizeof name);
    /* a shared-memory instruction not modelled leaves its wavefronts out */
    int shared = in->oc.space == PSP_SHARED || strstr(name, ".shared") ||
                 !strncmp(name, "wgmma", 5) ||
                 !strncmp(name, "wmma.load", 9) || !strncmp(name, "wmma.store", 10) ||
                 !strncmp(name, "tcgen05", 7) || !strncmp(name, "cp.async.bulk", 13);
    snprintf(text, sizeof text, "%s is not modelled (%s): its results are unknown%s", name, why,
             shared ? "; the shared-memory access it makes is not counted" : "");
    ptx_cost_note(x->r, -1, line_of(x, pc), shared, text);
}

static void mark_unknown(struct ex *x, uint32_t w, const struct ptx_insn *in, uint32_t em)
{
    if (in->nops == 0 || in->oc.op == OP_ST || in->oc.op == OP_RED || in->oc.op == OP_BRA)
        return;
    const struct ptx_operand *d = &x->e->opnds[in->ops];
    int n = d->kind == PO_VEC ? d->n : 1;
    const struct ptx_operand *r = d->kind == PO_VEC ? d + 1 : d;
    for (int k = 0; k < n; k++)
        for (uint32_t m = em; m; m &= m - 1)
            wr(x, &r[k], w * 32 + (uint32_t)__builtin_ctz(m), 0, M_UNK);
}

static int exec_shfl(struct ex *x, uint32_t w, uint32_t pc, const struct ptx_insn *in, uint32_t em)
{
    if (in->nops < 4)
        return fault(x, pc, "shfl.sync needs d, a, b, c, membermask");
    const struct ptx_operand *d = opnd(x, in, 0), *a = opnd(x, in, 1), *b = opnd(x, in, 2),
                             *c = opnd(x, in, 3);
    const struct ptx_operand *dv = d->kind == PO_VEC ? d + 1 : d,
                             *dp = d->kind == PO_VEC && d->n > 1 ? d + 2 : NULL;
    uint64_t out[32];
    uint8_t om[32], ok[32];
    for (uint32_t m = em; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), t = w * 32 + l;
        uint32_t bv = (uint32_t)rv(x, b, t) & 31, cv = (uint32_t)rv(x, c, t);
        uint32_t seg = cv >> 8 & 31, clamp = cv & 31;
        uint32_t maxl = (l & seg) | (clamp & ~seg), minl = l & seg, j;
        int pv;
        switch (in->oc.mode) {
        case PM_UP: j = l - bv; pv = (int32_t)j >= (int32_t)maxl; break;
        case PM_DOWN: j = l + bv; pv = j <= maxl; break;
        case PM_BFLY: j = l ^ bv; pv = j <= maxl; break;
        default: j = minl | (bv & ~seg); pv = j <= maxl; break;
        }
        if (!pv)
            j = l;
        uint32_t src = w * 32 + j;
        int live = j < 32 && (em >> j & 1);
        out[l] = live ? rv(x, a, src) : 0;
        om[l] = (uint8_t)(live ? rm(x, a, src) & M_TAINT : M_UNK);
        om[l] |= (rm(x, b, t) | rm(x, c, t)) & M_TAINT;
        ok[l] = (uint8_t)pv;
    }
    for (uint32_t m = em; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), t = w * 32 + l;
        wr(x, dv, t, out[l], om[l]);
        if (dp)
            wr(x, dp, t, ok[l], 0);
    }
    return 0;
}

static int exec_vote(struct ex *x, uint32_t w, const struct ptx_insn *in, uint32_t em)
{
    const struct ptx_operand *d = opnd(x, in, 0), *p = opnd(x, in, 1);
    uint32_t ballot = 0;
    unsigned taint = 0;
    for (uint32_t m = em; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), t = w * 32 + l;
        if ((rv(x, p, t) & 1) ^ p->neg)
            ballot |= 1u << l;
        taint |= rm(x, p, t) & M_TAINT;
    }
    uint64_t v = in->oc.mode == PM_BALLOT ? ballot
               : in->oc.mode == PM_ANY ? ballot != 0
               : in->oc.mode == PM_ALL ? ballot == em
               : (ballot == 0 || ballot == em);
    for (uint32_t m = em; m; m &= m - 1)
        wr(x, d, w * 32 + (uint32_t)__builtin_ctz(m), v, taint);
    return 0;
}

/* mov with vectors: pack {a,b} into one register, or unpack one into {a,b}. */
static void exec_mov(struct ex *x, uint32_t w, const struct ptx_insn *in, uint32_t em)
{
    const struct ptx_operand *d = opnd(x, in, 0), *s = opnd(x, in, 1);
    for (uint32_t m = em; m; m &= m - 1) {
        uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
        if (d->kind == PO_VEC && s->kind != PO_VEC) {
            uint64_t v = rv(x, s, t);
            unsigned mt = rm(x, s, t), part = ptx_op_bits(in->oc.type) / d->n;
            for (int k = 0; k < d->n; k++)
                wr(x, d + 1 + k, t, ptx_alu_zx(v >> (part * (unsigned)k), part), mt & M_TAINT);
        } else if (s->kind == PO_VEC && d->kind != PO_VEC) {
            uint64_t v = 0;
            unsigned mt = 0, part = ptx_op_bits(in->oc.type) / s->n;
            for (int k = 0; k < s->n; k++) {
                v |= ptx_alu_zx(rv(x, s + 1 + k, t), part) << (part * (unsigned)k);
                mt |= rm(x, s + 1 + k, t) & M_TAINT;
            }
            /* the low part's alignment carries (a pointer split in two halves) */
            wr(x, d, t, v, mt | (rm(x, s + 1, t) & M_ALIGN));
        } else if (s->kind != PO_VEC) {
            wr(x, d, t, rv(x, s, t), rm(x, s, t));
        }
    }
}

static int set_branch(struct ex *x, uint32_t w, uint32_t pc, const struct ptx_insn *in,
                      uint32_t mask, uint32_t em)
{
    if (in->nops != 1 || x->e->opnds[in->ops].kind != PO_LABEL || x->e->opnds[in->ops].reg < 0)
        return fault(x, pc, "a branch needs one label (indirect branches are not supported)");
    int32_t target = x->e->opnds[in->ops].reg;
    for (uint32_t m = em; m; m &= m - 1)
        x->pc[w * 32 + (uint32_t)__builtin_ctz(m)] = (uint32_t)target;
    if (in->pred >= 0) {
        for (uint32_t m = mask; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            check_taint(x, pc, x->M[(size_t)in->pred * x->T + t], "a branch");
        }
        /* a backward branch some lanes take and others leave: a loop whose trip
         * count differs between lanes */
        if (target <= (int32_t)pc && em && em != mask)
            note(x, -1, pc, 1, "a loop whose trip count differs between the lanes of a warp: "
                 "ptxas may restructure it%s", NULL);
        /* PTX_RULE_PREDICATE: every lane skips a region ptxas predicates; the
         * warp still runs its shared instructions, with no lane on */
        if ((in->rule & PTX_R_PREDICATED) && em == mask) {
            for (int32_t j = (int32_t)pc + 1; j < in->target_end; j++) {
                const struct ptx_insn *s = &x->e->insns[j];
                int sh = s->oc.space == PSP_SHARED && (s->rule & PTX_R_MERGED) == 0 &&
                         (s->oc.op == OP_LD || s->oc.op == OP_ST || s->oc.op == OP_ATOM ||
                          s->oc.op == OP_RED);
                if (!sh)
                    continue;
                struct instr none;
                instr_defaults(&none, s->oc.op == OP_LD ? INSTR_LD : s->oc.op == OP_ST ? INSTR_ST
                                                                                   : INSTR_RED);
                if (cost(x, (uint32_t)j, s->oc.op == OP_LD ? PK_LD
                                          : s->oc.op == OP_ST ? PK_ST : PK_ATOM, &none) < 0)
                    return -1;
                note_rule(x, PTX_RULE_PREDICATE, pc);
            }
        }
    }
    return 0;
}

static int step(struct ex *x, uint32_t w, uint32_t pc, uint32_t mask)
{
    const struct ptx_insn *in = &x->e->insns[pc];
    const struct ptx_operand *o = &x->e->opnds[in->ops];
    uint32_t em = mask;
    if (in->pred >= 0) {
        em = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            size_t k = (size_t)in->pred * x->T + w * 32 + l;
            if ((x->R[k] & 1) ^ in->pred_neg)
                em |= 1u << l;
        }
    }
    for (uint32_t m = mask; m; m &= m - 1)
        x->pc[w * 32 + (uint32_t)__builtin_ctz(m)] = pc + 1;
    uint64_t res;
    switch (in->oc.op) {
    case OP_NOP:
        return 0;
    case OP_MOV:
        if (in->nops != 2)
            return fault(x, pc, "mov needs two operands");
        exec_mov(x, w, in, em);
        return 0;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_MUL24: case OP_MAD24:
    case OP_DIV: case OP_REM: case OP_MIN: case OP_MAX: case OP_AND: case OP_OR: case OP_XOR:
    case OP_SHL: case OP_SHR: case OP_FMA: {
        unsigned n = in->nops;
        if (n < 3 || ((in->oc.op == OP_MAD || in->oc.op == OP_FMA || in->oc.op == OP_MAD24) && n < 4))
            return fault(x, pc, "too few operands");
        if (in->oc.flags & PF_CC) {
            unsupported(x, pc, "carry chains");
            mark_unknown(x, w, in, em);
            return 0;
        }
        const struct ptx_operand *d = o, *a = o + 1, *b = o + 2, *c = n > 3 ? o + 3 : NULL;
        int fl = ptx_op_float(in->oc.type);
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            uint64_t A = rv(x, a, t), B = rv(x, b, t), C = c ? rv(x, c, t) : 0;
            unsigned ma = rm(x, a, t), mb = rm(x, b, t), mc = c ? rm(x, c, t) : 0, al = 0;
            int bad = fl ? ptx_alu_float(in, A, B, C, &res) : ptx_alu_int(in, A, B, C, &res);
            if (!fl)
                switch (in->oc.op) {
                case OP_ADD: case OP_SUB: case OP_MIN: case OP_MAX: case OP_OR: case OP_XOR:
                    al = amin(ma, mb);
                    break;
                case OP_MUL: case OP_MUL24:
                    al = in->oc.mode == PM_HI ? 0 : (ma & M_ALIGN) + (mb & M_ALIGN);
                    break;
                case OP_MAD: case OP_MAD24:
                    al = in->oc.mode == PM_HI ? 0 : amin((ma & M_ALIGN) + (mb & M_ALIGN) > 31
                                                             ? 31 : (ma & M_ALIGN) + (mb & M_ALIGN), mc);
                    break;
                case OP_AND: al = amax(ma, mb); break;
                case OP_SHL:
                    al = b->kind == PO_IMM ? (ma & M_ALIGN) + (unsigned)(B & 63) : ma & M_ALIGN;
                    break;
                case OP_SHR:
                    al = b->kind == PO_IMM && (ma & M_ALIGN) > (B & 63)
                             ? (ma & M_ALIGN) - (unsigned)(B & 63) : 0;
                    break;
                default: al = 0; break;
                }
            if (bad) {
                wr(x, d, t, 0, M_UNK);
                note(x, -1, pc, 0, "%s with a result PTX leaves undefined (division by zero, "
                     "or a type not modelled): unknown", ptx_op_name(in->oc.op));
            } else {
                wr(x, d, t, res, meta(al, ma, mb, mc));
            }
        }
        return 0;
    }
    case OP_ABS: case OP_NEG: case OP_NOT: case OP_CNOT: case OP_POPC: case OP_CLZ: case OP_BREV:
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS: {
        if (in->nops != 2)
            return fault(x, pc, "a unary op needs two operands");
        unsigned bits = ptx_op_bits(in->oc.type);
        int fl = ptx_op_float(in->oc.type);
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            uint64_t A = rv(x, o + 1, t);
            unsigned ma = rm(x, o + 1, t);
            int bad = 0;
            if (fl) {
                bad = ptx_alu_float(in, A, 0, 0, &res);
            } else {
                uint64_t z = ptx_alu_zx(A, bits);
                switch (in->oc.op) {
                case OP_ABS: res = (int64_t)ptx_alu_sx(A, bits) < 0 ? -ptx_alu_sx(A, bits) : ptx_alu_sx(A, bits); break;
                case OP_NEG: res = -A; break;
                case OP_NOT: res = ~A; break;
                case OP_CNOT: res = z == 0; break;
                case OP_POPC: res = (uint64_t)__builtin_popcountll(z); break;
                case OP_CLZ: res = z ? (uint64_t)(__builtin_clzll(z) - (64 - (int)bits)) : bits; break;
                case OP_BREV: {
                    res = 0;
                    for (unsigned i = 0; i < bits; i++)
                        res |= (z >> i & 1) << (bits - 1 - i);
                    break;
                }
                default: bad = 1; break;
                }
            }
            unsigned al = in->oc.op == OP_NEG || in->oc.op == OP_ABS ? ma & M_ALIGN : 0;
            wr(x, o, t, bad ? 0 : res, bad ? M_UNK : meta(al, ma, 0, 0));
        }
        return 0;
    }
    case OP_BFE: case OP_BFI: case OP_PRMT: case OP_SAD: {
        if (in->nops < 4 || (in->oc.op == OP_BFI && in->nops < 5))
            return fault(x, pc, "too few operands");
        unsigned bits = ptx_op_bits(in->oc.type);
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            uint64_t a = rv(x, o + 1, t), b = rv(x, o + 2, t), c = rv(x, o + 3, t);
            unsigned mt = rm(x, o + 1, t) | rm(x, o + 2, t) | rm(x, o + 3, t);
            int bad = 0;
            if (in->oc.op == OP_BFE) {
                unsigned pos = (unsigned)(b & 0xff), len = (unsigned)(c & 0xff);
                int sg = ptx_op_signed(in->oc.type);
                uint64_t z = ptx_alu_zx(a, bits);
                if (len == 0) {
                    res = 0;
                } else {
                    uint64_t f = pos >= bits ? 0 : z >> pos;
                    unsigned l2 = len > bits ? bits : len;
                    int sbit = sg && (pos + l2 - 1 >= bits ? (int)(z >> (bits - 1) & 1)
                                                           : (int)(z >> (pos + l2 - 1) & 1));
                    f = l2 >= 64 ? f : f & ((1ull << l2) - 1);
                    if (sbit && l2 < 64)
                        f |= ~0ull << l2;
                    res = f;
                }
            } else if (in->oc.op == OP_BFI) {
                uint64_t d4 = rv(x, o + 4, t);
                unsigned pos = (unsigned)(c & 0xff), len = (unsigned)(d4 & 0xff);
                mt |= rm(x, o + 4, t);
                res = b;
                for (unsigned i = 0; i < len && pos + i < bits; i++)
                    res = (res & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
            } else if (in->oc.op == OP_PRMT) {
                if (in->oc.mode != 0 || in->oc.type2 != PT_NONE) {
                    /* prmt modes (.f4e, ...) are not modelled */
                }
                uint64_t bytes = ptx_alu_zx(a, 32) | ptx_alu_zx(b, 32) << 32;
                res = 0;
                for (unsigned i = 0; i < 4; i++) {
                    unsigned sel = (unsigned)(c >> (4 * i)) & 0xf;
                    uint64_t by = bytes >> (8 * (sel & 7)) & 0xff;
                    if (sel & 8)
                        by = (by & 0x80) ? 0xff : 0;
                    res |= by << (8 * i);
                }
            } else {
                bad = 1;
            }
            wr(x, o, t, bad ? 0 : res, bad ? M_UNK : (mt & M_TAINT));
        }
        return 0;
    }
    case OP_SETP: {
        if (in->nops < 3)
            return fault(x, pc, "setp needs p, a, b");
        const struct ptx_operand *d = o, *a = opnd(x, in, 1), *b = opnd(x, in, 2),
                                 *c = in->nops > 3 ? opnd(x, in, 3) : NULL;
        const struct ptx_operand *p = d->kind == PO_VEC ? d + 1 : d,
                                 *q = d->kind == PO_VEC && d->n > 1 ? d + 2 : NULL;
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            int r = ptx_alu_compare(in, rv(x, a, t), rv(x, b, t)), nr = !r;
            unsigned mt = (rm(x, a, t) | rm(x, b, t)) & M_TAINT;
            if (c) {
                int cv = (int)((rv(x, c, t) & 1) ^ c->neg);
                mt |= rm(x, c, t) & M_TAINT;
                switch (in->oc.bop) {
                case PB_AND: r = r && cv; nr = nr && cv; break;
                case PB_OR: r = r || cv; nr = nr || cv; break;
                default: r = r ^ cv; nr = nr ^ cv; break;
                }
            }
            wr(x, p, t, (uint64_t)r, mt);
            if (q)
                wr(x, q, t, (uint64_t)nr, mt);
        }
        return 0;
    }
    case OP_SELP: case OP_SLCT: {
        if (in->nops != 4)
            return fault(x, pc, "selp/slct need four operands");
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            uint64_t cv = rv(x, o + 3, t);
            int take;
            if (in->oc.op == OP_SELP)
                take = (int)((cv & 1) ^ o[3].neg);
            else if (in->oc.type2 == PT_F32)
                take = ptx_alu_as_f(cv) >= 0.0f;
            else
                take = (int32_t)cv >= 0;
            const struct ptx_operand *s = take ? o + 1 : o + 2;
            wr(x, o, t, rv(x, s, t), rm(x, s, t) | (rm(x, o + 3, t) & M_TAINT));
        }
        return 0;
    }
    case OP_CVT: {
        if (in->nops != 2)
            return fault(x, pc, "cvt needs two operands");
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            int bad = ptx_alu_convert(in, rv(x, o + 1, t), &res);
            unsigned ma = rm(x, o + 1, t);
            int keeps = !ptx_op_float(in->oc.type) && !ptx_op_float(in->oc.type2);
            wr(x, o, t, bad ? 0 : res, bad ? M_UNK : meta(keeps ? ma & M_ALIGN : 0, ma, 0, 0));
        }
        if (ptx_op_float(in->oc.type) && in->oc.type != PT_F32 && in->oc.type != PT_F64)
            note(x, -1, pc, 0, "a conversion to a 16-bit float is not modelled: unknown%s", NULL);
        return 0;
    }
    case OP_CVTA: {
        if (in->nops != 2)
            return fault(x, pc, "cvta needs two operands");
        int sp = in->oc.space, to = !!(in->oc.flags & PF_TO);
        uint64_t base = sp == PSP_SHARED ? G_SHARED : sp == PSP_LOCAL ? G_LOCAL : 0;
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m);
            uint64_t v = rv(x, o + 1, t);
            unsigned ma = rm(x, o + 1, t);
            v = to ? v - base : v + base;
            if (ptx_op_bits(in->oc.type) == 32)
                v &= 0xffffffffu;
            wr(x, o, t, v, ma);
        }
        return 0;
    }
    case OP_LD: case OP_LDU: case OP_ST:
        return exec_ldst(x, w, pc, in, em);
    case OP_ATOM: case OP_RED:
        return exec_atom(x, w, pc, in, em);
    case OP_LDMATRIX: case OP_STMATRIX:
        return exec_matrix(x, w, pc, in, em, mask);
    case OP_CP_ASYNC:
        return exec_cp_async(x, w, pc, in, em);
    case OP_BRA:
        return set_branch(x, w, pc, in, mask, em);
    case OP_BAR:
        if (in->oc.mode == PM_ARRIVE)
            return 0;
        if (in->oc.mode == PM_RED) {
            unsupported(x, pc, "bar.red");
            mark_unknown(x, w, in, em);
        }
        if (in->nops > 1 && o[1].kind == PO_IMM && (uint64_t)o[1].imm != x->T)
            note(x, -1, pc, 1, "a barrier for part of the block: run as one for every "
                 "thread%s", NULL);
        for (uint32_t m = mask; m; m &= m - 1)
            x->st[w * 32 + (uint32_t)__builtin_ctz(m)] = TS_BAR;
        if (em != mask)
            note(x, -1, pc, 1, "a predicated barrier: run as one for every thread%s", NULL);
        return 0;
    case OP_RET: case OP_EXIT:
        for (uint32_t m = em; m; m &= m - 1)
            x->st[w * 32 + (uint32_t)__builtin_ctz(m)] = TS_EXIT;
        return 0;
    case OP_TRAP:
        if (em)
            return fault(x, pc, "the kernel executes trap");
        return 0;
    case OP_SHFL:
        return exec_shfl(x, w, pc, in, em);
    case OP_VOTE:
        if (in->nops < 2)
            return fault(x, pc, "vote needs d, p");
        return exec_vote(x, w, in, em);
    case OP_ACTIVEMASK:
        for (uint32_t m = em; m; m &= m - 1)
            wr(x, o, w * 32 + (uint32_t)__builtin_ctz(m), mask, 0);
        return 0;
    case OP_MATCH: {
        /* match.any.sync.b32 d, a, membermask: the lanes holding a's value */
        if (in->nops < 3 || opnd(x, in, 0)->kind == PO_VEC) {
            unsupported(x, pc, "match.all");
            mark_unknown(x, w, in, em);
            return 0;
        }
        for (uint32_t m = em; m; m &= m - 1) {
            uint32_t t = w * 32 + (uint32_t)__builtin_ctz(m), same = 0;
            for (uint32_t n = em; n; n &= n - 1) {
                uint32_t u = (uint32_t)__builtin_ctz(n);
                if (rv(x, o + 1, w * 32 + u) == rv(x, o + 1, t))
                    same |= 1u << u;
            }
            wr(x, o, t, same, rm(x, o + 1, t) & M_TAINT);
        }
        return 0;
    }
    default: {
        unsupported(x, pc, "not implemented");
        mark_unknown(x, w, in, em);
        return 0;
    }
    }
}

/* ---- the launch ---- */

int ptx_exec_check(const struct ptx_entry *e, const struct ptx_launch *l, struct sz_error *err)
{
    uint64_t t = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (!l->block[0] || !l->block[1] || !l->block[2] || t > PTX_MAX_THREADS || l->block[2] > 64)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "block", "a block has 1..1024 threads (z up to "
                       "64), got %u x %u x %u", l->block[0], l->block[1], l->block[2]);
    for (int k = 0; k < 3; k++)
        if (e->reqntid[k] && e->reqntid[k] != l->block[k])
            return sz_fail(err, SZ_INVALID_ARGUMENT, "block", "the entry requires .reqntid "
                           "%u, %u, %u", e->reqntid[0], e->reqntid[1], e->reqntid[2]);
    if (!l->grid[0] || !l->grid[1] || !l->grid[2] || l->grid[1] > 65535 || l->grid[2] > 65535)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "grid", "a grid has at least 1 block in each "
                       "dimension (y and z up to 65535), got %u x %u x %u", l->grid[0],
                       l->grid[1], l->grid[2]);
    if (l->nparams != e->nparams)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "params", "the entry takes %d parameters, "
                       "got %d", e->nparams, l->nparams);
    uint64_t g = l->global_bytes ? l->global_bytes : PTX_DEFAULT_GLOBAL;
    int nbuf = 0;
    for (int i = 0; i < l->nparams; i++)
        nbuf += l->param_null && l->param_null[i];
    if (g > PTX_MAX_GLOBAL_TOTAL || (uint64_t)nbuf * g > PTX_MAX_GLOBAL_TOTAL)
        return sz_fail(err, SZ_TOO_LARGE, "global_bytes", "%d buffers of %llu bytes pass the "
                       "%llu bytes global memory may take", nbuf, (unsigned long long)g,
                       (unsigned long long)PTX_MAX_GLOBAL_TOTAL);
    if (l->budget > PTX_MAX_BUDGET)
        return sz_fail(err, SZ_TOO_LARGE, "budget", "at most %llu lane-instructions",
                       (unsigned long long)PTX_MAX_BUDGET);
    return 0;
}

static int run_block(struct ex *x)
{
    struct ptx_entry *e = x->e;
    memset(x->R, 0, (size_t)e->nregs * x->T * sizeof *x->R);
    memset(x->M, 0, (size_t)e->nregs * x->T);
    memset(x->smem, 0, x->smem_bytes);
    memset(x->smeta, 0, x->smem_bytes);
    if (x->lbytes)
        memset(x->lmem, 0, (size_t)x->lbytes * x->T);
    for (uint32_t t = 0; t < x->T; t++) {
        x->pc[t] = 0;
        x->st[t] = TS_RUN;
    }
    for (;;) {
        for (uint32_t w = 0; w < x->W; w++) {
            uint32_t lo = w * 32, n = x->T - lo < 32 ? x->T - lo : 32;
            x->merged[w] = -1;
            for (;;) {
                uint32_t pc = UINT32_MAX, mask = 0;
                for (uint32_t l = 0; l < n; l++) {
                    uint32_t t = lo + l;
                    if (x->st[t] != TS_RUN)
                        continue;
                    if (x->pc[t] >= e->ninsns) {    /* fell off the end: an exit */
                        x->st[t] = TS_EXIT;
                        continue;
                    }
                    if (x->pc[t] < pc) {
                        pc = x->pc[t];
                        mask = 1u << l;
                    } else if (x->pc[t] == pc) {
                        mask |= 1u << l;
                    }
                }
                if (!mask)
                    break;
                x->used += (uint64_t)__builtin_popcount(mask);
                x->r->warp_insns++;
                if (x->used > x->budget) {
                    x->stop = 1;
                    snprintf(x->r->stopped, sizeof x->r->stopped, "stopped after %llu "
                             "lane-instructions (the budget) in block (%u, %u, %u), warp %u, at "
                             "PTX line %d", (unsigned long long)x->budget, x->ctaid[0],
                             x->ctaid[1], x->ctaid[2], w, line_of(x, pc));
                    return 0;
                }
                if (step(x, w, pc, mask) < 0)
                    return -1;
            }
        }
        int waiting = 0;
        for (uint32_t t = 0; t < x->T; t++)
            if (x->st[t] == TS_BAR) {
                x->st[t] = TS_RUN;
                waiting = 1;
            }
        if (!waiting)
            return 0;
    }
}

/* Convert decimal float immediates to the bits of their instruction's type. */
static void float_immediates(struct ptx_entry *e)
{
    for (uint32_t i = 0; i < e->ninsns; i++) {
        const struct ptx_insn *in = &e->insns[i];
        enum ptx_type t = in->oc.op == OP_CVT && in->oc.type2 ? in->oc.type2 : in->oc.type;
        for (uint32_t k = in->ops; k < in->ops + in->nops + 8 && k < e->nopnds; k++) {
            struct ptx_operand *o = &e->opnds[k];
            if (o->kind != PO_IMM || !o->fimm)
                continue;
            double d;
            memcpy(&d, &o->imm, sizeof d);
            o->imm = t == PT_F32 ? (int64_t)ptx_alu_f32_bits(d) : t == PT_F64 ? (int64_t)ptx_alu_of_d(d)
                                                                    : ptx_alu_i64_sat(d);
            o->fimm = 0;
        }
    }
}

int ptx_exec_run(struct ptx_entry *e, const struct ptx_launch *l, struct ptx_report *r,
                 struct sz_error *err)
{
    if (ptx_exec_check(e, l, err) < 0)
        return -1;
    struct ex x;
    memset(&x, 0, sizeof x);
    x.e = e;
    x.l = l;
    x.r = r;
    x.err = err;
    x.T = l->block[0] * l->block[1] * l->block[2];
    x.W = (x.T + 31) / 32;
    x.budget = l->budget ? l->budget : PTX_DEFAULT_BUDGET;
    x.gbytes = l->global_bytes ? l->global_bytes : PTX_DEFAULT_GLOBAL;
    uint64_t regs = (uint64_t)e->nregs * x.T;
    if (regs * 9 > PTX_MAX_STATE)
        return sz_fail(err, SZ_TOO_LARGE, "block", "%d registers x %u threads pass the %llu "
                       "bytes one block may take", e->nregs, x.T,
                       (unsigned long long)PTX_MAX_STATE);
    for (int i = 0; i < e->nvars; i++)
        if (e->vars[i].space == PSP_LOCAL) {
            e->vars[i].offset = (x.lbytes + e->vars[i].align - 1) / e->vars[i].align *
                                e->vars[i].align;
            x.lbytes = e->vars[i].offset + e->vars[i].size;
        }
    if (x.lbytes * x.T > PTX_MAX_STATE)
        return sz_fail(err, SZ_TOO_LARGE, "ptx", "local memory of %llu bytes per thread is too "
                       "much", (unsigned long long)x.lbytes);
    x.smem_bytes = ptx_rules_dynamic_base(e) + l->dynamic_shared;
    for (int i = 0; i < l->nparams; i++)
        x.nbuf += l->param_null && l->param_null[i];
    float_immediates(e);
    int rc = -1;
    x.R = malloc(regs * sizeof *x.R + 1);
    x.M = malloc(regs + 1);
    x.rmask = malloc(((size_t)e->nregs + 1) * sizeof *x.rmask);
    x.pc = malloc(x.T * sizeof *x.pc);
    x.st = malloc(x.T);
    x.smem = malloc(x.smem_bytes + 1);
    x.smeta = malloc(x.smem_bytes + 1);
    x.gmem = calloc((size_t)x.nbuf * x.gbytes + 1, 1);
    x.lmem = malloc((size_t)x.lbytes * x.T + 1);
    x.pbuf = calloc(e->param_bytes + 8, 1);
    x.sym_addr = calloc((size_t)e->nvars + 1, sizeof *x.sym_addr);
    x.sym_meta = calloc((size_t)e->nvars + 1, 1);
    if (!x.R || !x.M || !x.rmask || !x.pc || !x.st || !x.smem || !x.smeta || !x.gmem || !x.lmem ||
        !x.pbuf || !x.sym_addr || !x.sym_meta) {
        sz_fail(err, SZ_INTERNAL, NULL, "out of memory for the interpreter's state");
        goto out;
    }
    for (int i = 0; i < e->nregs; i++) {
        unsigned b = ptx_op_bits(e->reg_type[i]);
        x.rmask[i] = b >= 64 ? ~0ull : (1ull << (b ? b : 64)) - 1;
    }
    /* parameters: values in the parameter buffer; a null pointer its buffer */
    for (int i = 0, buf = 0; i < e->nparams; i++) {
        uint64_t v = l->params ? l->params[i] : 0;
        if (l->param_null && l->param_null[i])
            v = (uint64_t)(++buf) << G_BUF_SHIFT;
        store_bytes(x.pbuf + e->params[i].offset, e->params[i].size < 8 ? (uint32_t)e->params[i].size : 8, v);
    }
    for (int i = 0; i < e->nvars; i++) {
        const struct ptx_var *v = &e->vars[i];
        unsigned al = tz64(v->align);
        switch (v->space) {
        case PSP_SHARED:
            x.sym_addr[i] = v->offset;
            /* ptxas knows where it placed a static variable; the dynamic base
             * only to its alignment */
            x.sym_meta[i] = (uint8_t)(v->is_extern ? al : tz64(v->offset));
            break;
        case PSP_LOCAL: case PSP_PARAM:
            x.sym_addr[i] = v->offset;
            x.sym_meta[i] = (uint8_t)al;
            break;
        default:
            x.sym_addr[i] = 0;
            x.sym_meta[i] = M_UNK;
            break;
        }
    }
    uint64_t blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    for (uint64_t b = 0; b < blocks; b++) {
        x.ctaid[0] = (uint32_t)(b % l->grid[0]);
        x.ctaid[1] = (uint32_t)(b / l->grid[0] % l->grid[1]);
        x.ctaid[2] = (uint32_t)(b / l->grid[0] / l->grid[1]);
        if (run_block(&x) < 0)
            goto out;
        if (x.stop) {
            r->partial = 1;
            break;
        }
        r->blocks_run++;
    }
    r->lane_insns = x.used > x.budget ? x.budget : x.used;
    if (l->out && x.nbuf)
        memcpy(l->out, x.gmem, l->out_bytes < x.gbytes ? l->out_bytes : x.gbytes);
    rc = 0;
out:
    free(x.R);
    free(x.M);
    free(x.rmask);
    free(x.pc);
    free(x.st);
    free(x.smem);
    free(x.smeta);
    free(x.gmem);
    free(x.lmem);
    free(x.pbuf);
    free(x.sym_addr);
    free(x.sym_meta);
    return rc;
}
