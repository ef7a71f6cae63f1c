/* access.c - warp instruction -> phases -> wavefronts and cycles.
 *
 * The hardware model lives here and only here; every rule below cites the
 * measurement that taught it (tests/data/calib_*.json, pattern names in
 * quotes).  Pure: no I/O, no allocation. */
#include "access.h"

#include <stdio.h>
#include <string.h>

static int is_pow2(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

const char *acc_op_name(enum acc_op op)
{
    static const char *const names[] = {"ld", "st", "ldmatrix", "stmatrix"};
    return (unsigned)op < 4 ? names[op] : "?";
}

const char *acc_reason_name(enum acc_reason r)
{
    static const char *const names[] = {"clean", "broadcast", "conflict", "merged", "empty"};
    return (unsigned)r < 5 ? names[r] : "?";
}

const char *acc_ncu_wavefront_metric(enum acc_op op)
{
    switch (op) {
    case ACC_LD: return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
    case ACC_ST: return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
    case ACC_LDMATRIX: return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum";
    case ACC_STMATRIX: return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum";
    }
    return "";
}

const char *acc_ncu_conflict_metric(enum acc_op op)
{
    switch (op) {
    case ACC_LD: return "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
    case ACC_ST: return "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
    case ACC_LDMATRIX: return "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum";
    case ACC_STMATRIX: return "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum";
    }
    return "";
}

/* Bytes one lane reads or writes. */
static uint32_t lane_bytes(const struct acc_instr *in)
{
    return (in->op == ACC_LDMATRIX || in->op == ACC_STMATRIX) ? 16 : in->bytes;
}

/* Lanes whose addresses the instruction uses: ldmatrix .xN reads row
 * addresses from lanes 0..8N-1 only (PTX ISA, ldmatrix). */
static uint32_t used_lanes(const struct acc_instr *in)
{
    if (in->op == ACC_LDMATRIX || in->op == ACC_STMATRIX)
        return 8 * in->matrices;
    return ACC_LANES;
}

int acc_check(const struct acc_instr *in, struct sz_error *err)
{
    if (!is_pow2(in->bank_bytes) || in->bank_bytes > 32)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "bank_bytes",
                       "bytes per bank must be a power of two in 1..32, got %u",
                       in->bank_bytes);
    if (!is_pow2(in->banks) || in->banks > ACC_MAX_BANKS)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "banks",
                       "number of banks must be a power of two in 1..128, got %u",
                       in->banks);
    if (in->op == ACC_LD || in->op == ACC_ST) {
        if (!is_pow2(in->bytes) || in->bytes > 16)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "bytes",
                           "bytes per lane must be 1, 2, 4, 8 or 16, got %u", in->bytes);
    } else if (in->op == ACC_LDMATRIX || in->op == ACC_STMATRIX) {
        if (in->matrices != 1 && in->matrices != 2 && in->matrices != 4)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "matrices",
                           "%s takes 1, 2 or 4 matrices (.x1/.x2/.x4), got %u",
                           acc_op_name(in->op), in->matrices);
    } else {
        return sz_fail(err, SZ_INVALID_ARGUMENT, "op",
                       "must be ld, st, ldmatrix or stmatrix");
    }
    uint32_t w = lane_bytes(in), n = used_lanes(in);
    for (uint32_t t = 0; t < ACC_LANES; t++) {
        uint32_t o = in->offsets[t];
        if (o == ACC_INACTIVE)
            continue;
        char field[24];
        snprintf(field, sizeof field, "offsets[%u]", t);
        if (o >= 0x80000000u)
            return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                           "offsets are byte offsets in 0..2147483647, got %u", o);
        if (o % w != 0)
            return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                           "a %u-byte access must be %u-byte aligned (the hardware "
                           "faults on misaligned shared memory), got offset %u",
                           w, w, o);
        (void)n;
    }
    /* ldmatrix/stmatrix are .sync.aligned: the whole warp executes them. */
    if (in->op == ACC_LDMATRIX || in->op == ACC_STMATRIX)
        for (uint32_t t = 0; t < n; t++)
            if (in->offsets[t] == ACC_INACTIVE) {
                char field[24];
                snprintf(field, sizeof field, "offsets[%u]", t);
                return sz_fail(err, SZ_INVALID_ARGUMENT, field,
                               "%s.x%u is warp-wide (.sync.aligned): lanes 0..%u must "
                               "all supply a row address", acc_op_name(in->op),
                               in->matrices, n - 1);
            }
    return 0;
}

/* ---- costing ------------------------------------------------------------- */

#define MAX_WORDS (ACC_LANES * 16)  /* 32 lanes x 16 bytes on 1-byte banks */

struct wordset {
    uint32_t n;
    uint32_t word[MAX_WORDS];   /* distinct bank words (byte offset / bank_bytes) */
};

static void ws_add(struct wordset *s, uint32_t w)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->word[i] == w)
            return;
    s->word[s->n++] = w;
}

/* The bank words lane t touches: its bytes [o, o+w) cut at bank boundaries. */
static uint32_t lane_words(const struct acc_instr *in, uint32_t t, uint32_t *out)
{
    uint32_t w = lane_bytes(in), o = in->offsets[t];
    uint32_t first = o / in->bank_bytes, last = (o + w - 1) / in->bank_bytes;
    uint32_t n = 0;
    for (uint32_t x = first; x <= last; x++)
        out[n++] = x;
    return n;
}

/* Distinct words per bank over `s`; the most of them, and where. */
static uint32_t max_per_bank(const struct acc_instr *in, const struct wordset *s,
                             uint32_t *worst)
{
    uint32_t count[ACC_MAX_BANKS] = {0}, best = 0;
    *worst = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t b = s->word[i] % in->banks;
        if (++count[b] > best) {
            best = count[b];
            *worst = b;
        }
    }
    return best;
}

/* The pass in which each lane is served: in each bank, distinct words are
 * served in the order lanes first ask for them; a lane waits for its latest. */
static void assign_passes(const struct acc_instr *in, uint32_t lanes, struct acc_result *r)
{
    uint32_t seen_word[MAX_WORDS], seen_rank[MAX_WORDS], nseen = 0;
    uint32_t next_rank[ACC_MAX_BANKS] = {0};
    for (uint32_t t = 0; t < ACC_LANES; t++) {
        if (!(lanes >> t & 1) || in->offsets[t] == ACC_INACTIVE)
            continue;
        uint32_t words[16], n = lane_words(in, t, words);
        int pass = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = 0;
            while (i < nseen && seen_word[i] != words[k])
                i++;
            if (i == nseen) {
                seen_word[nseen] = words[k];
                seen_rank[nseen++] = next_rank[words[k] % in->banks]++;
            }
            if ((int)seen_rank[i] > pass)
                pass = (int)seen_rank[i];
        }
        r->lane_pass[t] = pass;
    }
}

/* Lanes per phase: a phase moves at most one bank row (banks x bank_bytes,
 * 128 B on the hardware), so 32 lanes of <= 4 B, 16 of 8 B, 8 of 16 B; an
 * ldmatrix phase is one 8x16 B matrix. */
static uint32_t lanes_per_phase(const struct acc_instr *in)
{
    uint32_t row = in->banks * in->bank_bytes, w = lane_bytes(in);
    uint32_t n = row / w;
    if (n == 0)
        n = 1;
    return n > ACC_LANES ? ACC_LANES : n;
}

void acc_cost(const struct acc_instr *in, struct acc_result *r)
{
    memset(r, 0, sizeof *r);
    for (uint32_t t = 0; t < ACC_LANES; t++)
        r->lane_phase[t] = r->lane_pass[t] = -1;
    uint32_t used = used_lanes(in), per = lanes_per_phase(in);
    r->nphases = (used + per - 1) / per;
    for (uint32_t p = 0; p < r->nphases; p++) {
        struct acc_phase *ph = &r->phases[p];
        struct wordset ws = {0};
        ph->merged_into = -1;
        for (uint32_t t = p * per; t < (p + 1) * per && t < used; t++) {
            ph->lane_mask |= 1u << t;
            if (in->offsets[t] == ACC_INACTIVE)
                continue;
            ph->active_mask |= 1u << t;
            r->lane_phase[t] = (int)p;
            uint32_t words[16], n = lane_words(in, t, words);
            for (uint32_t k = 0; k < n; k++) {
                ws_add(&ws, words[k]);
                r->bank_hits[words[k] % in->banks]++;
            }
        }
        ph->words = ws.n;
        if (ph->active_mask == 0) {
            ph->reason = ACC_EMPTY;
            ph->cycles = 1;
            continue;
        }
        ph->max_per_bank = max_per_bank(in, &ws, &ph->worst_bank);
        ph->wavefronts = ph->max_per_bank;
        ph->cycles = ph->wavefronts;
        uint32_t lane_accesses = 0;
        for (uint32_t t = 0; t < ACC_LANES; t++)
            if (ph->active_mask >> t & 1)
                lane_accesses += lane_bytes(in) > in->bank_bytes
                                     ? lane_bytes(in) / in->bank_bytes : 1;
        ph->reason = ph->max_per_bank > 1 ? ACC_CONFLICT
                     : ws.n < lane_accesses ? ACC_BROADCAST : ACC_CLEAN;
        assign_passes(in, ph->active_mask, r);
    }
    for (uint32_t p = 0; p < r->nphases; p++) {
        r->wavefronts += r->phases[p].wavefronts;
        r->cycles += r->phases[p].cycles;
        r->ideal_wavefronts += r->phases[p].active_mask ? 1 : 0;
    }
}
