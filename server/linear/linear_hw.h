/* linear_hw.h - the hardware under the F2 view (linear_hw.c): which lanes
 * one phase of a shared-memory access serves, NVIDIA's as measured (access.c)
 * and AMD's 64-lane waves by their published rules, and the wavefronts of an
 * instruction under a published rule.  Pure core: no I/O, no allocation. */
#ifndef SZ_LINEAR_HW_H
#define SZ_LINEAR_HW_H

#include <stdint.h>

/* The lanes one phase serves (linear_hw.c): phase 0 is the span of lane[]
 * (lane-index vectors, bit i = lane bit i), the other phases its cosets. */
struct lin_phase {
    int n, lane_bits;
    uint32_t lane[6];
    int published;          /* 1: a published rule, not measured here */
    const char *rule;       /* the rule in words */
    const char *source;     /* where it was measured or published */
};

/* "published, not measured here": the status of every AMD answer. */
extern const char *const lin_published;

/* 5 for a 32-lane warp, 6 for a 64-lane wave (lanes: 32 or 64). */
int lin_lane_bits(int lanes);

/* The phase rule for accesses of `bytes` per lane (a load when is_load) on
 * hardware of `lanes` lanes and `num_banks` 4-byte banks: NVIDIA (32 lanes,
 * measured, access.c) or, for 64 lanes, AMD's published tables (ds_read_b128
 * on MI300 / MI350, consecutive lanes otherwise).  It takes the hardware, not
 * linear.h's problem, so that linear.h may include this header one way only. */
int lin_phase_rule(int lanes, int num_banks, uint32_t bytes, int is_load,
                   struct lin_phase *ph);

/* The phase of lane t: the canonical member of t's coset (0 for phase 0). */
uint32_t lin_phase_of(const struct lin_phase *ph, uint32_t t);

/* The lanes of phase 0, ascending, into out (room for 64); returns how many. */
uint32_t lin_phase_lanes(const struct lin_phase *ph, uint32_t *out);

/* Wavefronts of one instruction under a published rule: addr[t] is lane t's
 * byte address (all 2^lane_bits lanes active), `bytes` per lane. */
uint32_t lin_sim_published(const struct lin_phase *ph, int num_banks, const uint32_t *addr,
                           uint32_t bytes);

/* The same instruction lane by lane, as access.c details NVIDIA's: phases
 * numbered 0.. in order of their lowest lane, each lane's pass (0-based
 * wavefront of its phase), first bank and banks covered; per phase its lanes,
 * wavefronts and a bank holding the most words. */
struct lin_pub {
    uint32_t wavefronts, nphases, ways;
    int phase[64], pass[64];
    uint32_t bank[64], nbanks[64];
    uint64_t phase_mask[64];
    uint32_t phase_wf[64], phase_worst[64];
};
void lin_published_detail(const struct lin_phase *ph, int num_banks, const uint32_t *addr,
                          uint32_t bytes, struct lin_pub *d);

#endif
