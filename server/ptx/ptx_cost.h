/* ptx_cost.h - what a launch's shared-memory instructions cost, gathered:
 * each warp-level access the executor hands over becomes a `struct instr`
 * costed by acc_cost (model/access.h, the model /api/conflicts uses), added
 * per static instruction, per source line and per kind, with the worst warp
 * access kept, and the assumptions and unsure points an answer relied on.
 * Pure: no I/O; allocates only the report's own arrays. */
#ifndef SZ_PTX_COST_H
#define SZ_PTX_COST_H

#include <stdint.h>

#include "base/error.h"
#include "model/instr.h"
#include "ptx_parse.h"

/* The kinds Nsight Compute counts apart (smsp__sass_inst_executed_op_shared_*
 * and the Source page's wavefront columns). */
enum ptx_kind { PK_LD, PK_ST, PK_LDSM, PK_STSM, PK_ATOM, PK_LDGSTS, PK_NKINDS };

struct ptx_count {
    uint64_t executions;    /* warp-level executions with at least one lane predicated
                             * on: smsp__sass_inst_executed_op_shared_* (the totals) */
    uint64_t source_executions; /* every warp-level execution, a warp whose lanes are all
                             * predicated off included (where ptxas predicates: ptx_rules.h):
                             * the Source page's "Instructions Executed" (the lines) */
    uint64_t wavefronts;    /* acc_result.source_wavefronts summed */
    uint64_t ideal;         /* acc_result.ideal_wavefronts summed */
};

/* One static shared-memory instruction (a SASS instruction as ptxas emits it:
 * a merged group counts at its leader). */
struct ptx_site {
    uint32_t insn;          /* index in the entry */
    uint8_t kind;           /* enum ptx_kind */
    struct ptx_count count;
    int has_worst;
    uint32_t worst_wavefronts, worst_ideal;
    struct instr worst;     /* the access with the most excess wavefronts */
};

/* One source line: file, line and kind (a line with loads and stores has two).
 * An inlined instruction is filed under its own line and its caller's (at_file
 * 0 on the caller's row), as Nsight Compute's Source page files it
 * (tests/data/ptx/README.md, "Lines of inlined code"). */
struct ptx_line {
    int file, line, at_file, at_line;
    uint8_t kind;
    struct ptx_count count;
    uint64_t excess;        /* wavefronts - ideal */
};

#define PTX_MAX_NOTES 32

/* An assumption (rule applied, "assumed, not measured" where no measurement
 * pins it) or an unsure point that makes the answer not exact. */
struct ptx_note {
    int rule;               /* enum ptx_rule_id (ptx_rules.h); -1: unsure point */
    int text_line;          /* the PTX line it concerns (0: the whole kernel) */
    int unsure;             /* 1: the answer is not exact because of it */
    char text[320];
};

struct ptx_report {
    struct ptx_site *sites;
    uint32_t nsites;
    int32_t *site_of;       /* per instruction of the entry: its site, -1 */
    uint32_t ninsns;
    struct ptx_line *lines; /* ptx_cost_lines fills them, sorted by excess */
    uint32_t nlines;
    struct ptx_count totals[PK_NKINDS];
    struct ptx_note notes[PTX_MAX_NOTES];
    int nnotes;
    int notes_dropped;
    int partial;            /* the run stopped at a bound */
    char stopped[200];      /* where and why */
    uint64_t lane_insns, warp_insns, blocks_run;
    uint64_t global_touched;    /* 1 + the highest byte any global access reached in a
                                 * pointer's buffer (0: none): what a GPU run of the same
                                 * launch must allocate per buffer (/api/ptx/measure) */
};

/* Zero *r and size it for `e` (site_of: one per instruction). */
int ptx_cost_init(struct ptx_report *r, const struct ptx_entry *e, struct sz_error *err);

/* Free the report's arrays and zero it. */
void ptx_cost_free(struct ptx_report *r);

/* One warp-level execution of instruction `insn` of kind `kind`: `in` holds the
 * lanes that take part (INSTR_INACTIVE elsewhere); no lane at all is a
 * predicated-off execution (counted, no wavefront).  `in` must pass
 * instr_check when a lane takes part (the executor checks bounds and
 * alignment first).  A non-native atomic adds its execution and no wavefront
 * (ptx_rules.c costs its CAS loop as the accesses it makes). */
int ptx_cost_add(struct ptx_report *r, uint32_t insn, enum ptx_kind kind, const struct instr *in,
                 struct sz_error *err);

/* Record a note (deduplicated on rule, line and text); past PTX_MAX_NOTES
 * counted in notes_dropped.  unsure = 1 makes the answer not exact. */
void ptx_cost_note(struct ptx_report *r, int rule, int text_line, int unsure, const char *text);

/* Whether no note is unsure and the run was not partial. */
int ptx_cost_exact(const struct ptx_report *r);

/* Gather the sites into lines (by the .loc of each instruction: file and line,
 * and the kind), sorted by excess wavefronts, most first. */
int ptx_cost_lines(struct ptx_report *r, const struct ptx_entry *e, struct sz_error *err);

/* The wire name of a kind: "ld", "st", "ldsm", "stsm", "atom", "ldgsts". */
const char *ptx_cost_kind_name(enum ptx_kind k);

#endif
