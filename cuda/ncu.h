/* ncu.h: the measurement tool's counter pass. Runs the tool itself under
 * Nsight Compute (ncu --csv --page raw), one launch per pattern, and turns
 * the shared-memory counters into per-instruction numbers. POSIX, no CUDA:
 * the profiled process is a child, so a profiler failure is a reason in the
 * answer, never a crash or a hang of the tool. */
#ifndef SZ_NCU_H
#define SZ_NCU_H

#include <stddef.h>

#include "input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per pattern; a field is valid only where its has_ flag is set. */
struct ncu_counts {
    int has_src, has_hw, has_bc, has_sm, has_arb;
    double wavefronts_sm;     /* the deterministic sm__sass_..._op_* pair / instr (issue 23:
                               * equal to the Source page's on every row measured) */
    double arbitration;       /* l1tex__data_bank_conflicts_type_arbitration / instr: bank
                               * conflicts from arbitration (fills, tensor cores), not addresses */
    /* each the metric the kind's row names (instr.c, instr_kinds[].ncu) */
    double wavefronts;        /* the Source-page metric (ncu.source) / instr */
    double wavefronts_hw;     /* the hardware counter (ncu.wavefronts) / instr */
    double bank_conflicts;    /* the bank-conflict counter (ncu.conflicts) / instr */
    double instructions;      /* the divisor: ncu.executed, or the launched count
                               * where the row names none (stmatrix) */
};

struct ncu_status {
    int used;                 /* at least one pattern got counters */
    char path[512];           /* the ncu that ran (or "") */
    char version[64];         /* e.g. "2025.3.1.0", or "" */
    char reason[512];         /* why not used, or what was partial; "" when all is well */
    int profiled;             /* patterns with counters */
    double seconds;           /* wall time of the pass */
};

struct ncu_config {
    const char *ncu;          /* path of ncu */
    const char *self;         /* path of this tool (re-run under ncu) */
    int device, warps, iters; /* the profiled launch: --warps, --ncu-iters */
    double deadline;          /* proc_now() seconds by which the pass must end */
    int chunk;                /* patterns per ncu process (a crash loses one chunk) */
};

/* Finds ncu: `override` if not NULL, else PATH, else /usr/local/cuda/bin/ncu.
 * 0 and the path in out, or -1 with a reason in out. */
int ncu_find(const char *override, char *out, size_t cap);

/* Starts `ncu --version` in the background (it needs no GPU) and, later,
 * collects "2025.3.1.0"-style text into st->version. */
void ncu_version_start(const char *ncu);
void ncu_version_finish(struct ncu_status *st, double deadline);

/* Profiles pats[0..n) and fills counts[0..n) (zeroed first) and st.
 * Never fails: what went wrong is st->reason (used = 0 when nothing came). */
void ncu_profile(const struct ncu_config *cfg, const struct input_pattern *pats, int n,
                 struct ncu_counts *counts, struct ncu_status *st);

/* Exposed for tests: reads one ncu --csv --page raw output (stdout) with
 * model/ncu_csv.h into counts for the n patterns of one chunk (launch i is
 * pattern i). Returns the number of launches, or -1 when there is no
 * header or the CSV is malformed. */
int ncu_parse_csv(const char *text, const struct input_pattern *pats, int n, int launched,
                  struct ncu_counts *counts);

#ifdef __cplusplus
}
#endif

#endif
