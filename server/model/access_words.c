/* access_words.c - the bank words of one warp instruction (access_words.h):
 * which words each lane touches, sets of distinct words, a phase's busiest
 * bank.  The cost rules that use them are access.c's and atomic.c's; this
 * file holds no rule of its own.  Pure: no I/O, no allocation. */
#include "access_words.h"

#include "base/bits.h"

const char *acc_reason_name(enum acc_reason r)
{
    static const char *const names[] = {"clean", "broadcast", "conflict", "empty", "serial"};
    return (unsigned)r < 5 ? names[r] : "?";
}

void acc_words_add(struct acc_words *s, uint32_t w)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->word[i] == w)
            return;
    s->word[s->n++] = w;
}

/* The bank words lane t touches: its bytes [o, o+w) cut at bank boundaries. */
uint32_t acc_lane_words(const struct instr *in, uint32_t t, uint32_t *out)
{
    uint32_t w = instr_lane_bytes(in), o = in->offsets[t], first, last;
    /* A shift where instr_check has made bank_bytes a power of two: this is
     * the costing's innermost call, and two divisions were a tenth of the
     * census's time (2026-11-29, perf). */
    if (bits_is_pow2(in->bank_bytes)) {
        int sh = bits_log2_floor(in->bank_bytes);
        first = o >> sh, last = (o + w - 1) >> sh;
    } else {
        first = o / in->bank_bytes, last = (o + w - 1) / in->bank_bytes;
    }
    uint32_t n = 0;
    for (uint32_t x = first; x <= last; x++)
        out[n++] = x;
    return n;
}

/* Distinct words per bank over `s`; the most of them, and where. */
static uint32_t max_per_bank(const struct instr *in, const struct acc_words *s,
                             uint32_t *worst)
{
    uint32_t count[SZ_MAX_BANKS] = {0}, best = 0;
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

/* A phase's distinct words and, when a lane is active, its busiest bank (1);
 * else access.c's rule 4, the empty phase:, one pipe cycle (0). */
int acc_phase_words(const struct instr *in, const struct acc_words *ws, struct acc_phase *ph)
{
    ph->words = ws->n;
    if (ph->active_mask == 0) {
        ph->reason = ACC_EMPTY;
        ph->cycles = 1;
        return 0;
    }
    ph->max_per_bank = max_per_bank(in, ws, &ph->worst_bank);
    return 1;
}
