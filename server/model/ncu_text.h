/* ncu_text.h - what a pasted Nsight Compute result says about shared memory:
 * the metrics of one launch of ncu's CSV (wide `--page raw`, the long
 * `--page details` / `--metrics` form, read by ncu_csv.h), the Source page's
 * shared-memory instructions summed per SASS kind (`--page source --csv`),
 * or the Details page's metric lines (`name  [unit]  value`); every launch
 * the text holds, by its full name; and the explanation of a bank-conflict count
 * against the model's (instructions x (wavefronts - ideal)): what the access
 * explains, what is left, whether the arbitration counter says what it is,
 * and the ncu command line that would separate them.
 * Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_NCU_TEXT_H
#define SZ_NCU_TEXT_H

#include <stdint.h>

#include "base/error.h"
#include "instr.h"
#include "ncu_csv.h"

#define NCU_MAX_METRICS 256       /* counters kept from one launch (those the explanation
                                   * reads: ncu_text.c wanted()) */
#define NCU_NAME 128
#define NCU_MAX_LAUNCHES 1024     /* launches listed by name; more are counted */
#define NCU_SRC_KINDS INSTR_NOPS  /* the Source page's sums: a slot per SASS opcode of the
                                   * kinds' table (instr.c's `sass`), kinds sharing one
                                   * (atom, red: ATOMS) summed in the first's */
#define NCU_SRC_ADDRS 16384       /* shared-memory instructions of one launch, told apart */

struct ncu_metric {
    char name[NCU_NAME];            /* as printed, with its .sum / .avg suffix if any */
    double value;
    int line;                       /* 1-based line of the text */
};

/* A launch as the text names it: spans of the text, so a name of any
 * length is kept whole (issue 39 item 5: no 40-character cut). */
struct ncu_listed {
    int index;                      /* 0-based, in the text's order */
    int line;                       /* 1-based line of its first row */
    struct ncu_field id, kernel;    /* kernel: doubled quotes as two bytes (ncu_field_copy) */
};

/* One SASS kind's rows of the Source page: what ncu filed under them. */
struct ncu_src_sum {
    int rows;                       /* its instructions with a thread predicated on */
    double executed;                /* their "Instructions Executed" (warp level) */
    double wavefronts, ideal;       /* "L1 Wavefronts Shared" and "... Ideal" */
};

/* The numbers of ncu's SharedMemoryConflicts rule text, which the default
 * details page of sections prints instead of the section's table. */
struct ncu_rule_count {
    int line;                       /* 1-based line of the rule's row; 0: none read */
    char rule[48];                  /* its "Rule Name" */
    double requests;                /* "across all N shared load requests": a warp
                                     * instruction each (the text's launch: 32 = 32) */
    double conflicts, wavefronts;   /* "N bank conflicts", "of the overall N wavefronts" */
};

/* What ncu_parse keeps: bounded by these arrays, whatever the text's length
 * (the reader keeps spans of the text, which the caller holds meanwhile). */
struct ncu_text {
    const char *form;               /* "wide" (--page raw), "long" (--page details,
                                     * --metrics), "details" (the long form with the
                                     * rules' columns: --page details of sections),
                                     * "source" (--page source), "lines" */
    int csv;                        /* 1: a CSV (any of the first three) */
    int n;
    struct ncu_metric m[NCU_MAX_METRICS];
    char kernel[NCU_NAME];          /* lines: the Details header's function name; "" if none */
    int launches, listed;           /* launches in the text; those in launch[] */
    int chosen;                     /* the explained launch's index; -1 for lines */
    struct ncu_listed launch[NCU_MAX_LAUNCHES];
    struct ncu_field kernel_name;   /* the chosen launch's Kernel Name (len 0: none) */
    struct ncu_src_sum src[NCU_SRC_KINDS];
    struct ncu_rule_count rule[2];  /* the chosen launch's rule text: [0] shared loads,
                                     * [1] shared stores */
    int naddr;                      /* the chosen launch's shared-memory instructions seen */
    uint64_t addr[NCU_SRC_ADDRS];   /* their addresses, hashed (0: free): the cuda,sass view
                                     * files an inlined instruction under each of its lines */
};

/* Read `text` (NUL-terminated; any length: the read is one pass and keeps
 * what struct ncu_text holds).  The launch to explain is `launch` (its
 * 0-based index; < 0: none given) and, or else, the one whose Kernel Name
 * holds `kernel` (NULL: none given); a text of one launch needs neither.
 * Fails naming "ncu" ("at line N, column C: ..."), "launch" or "kernel".
 * With `list` set, every launch is listed and none is chosen or kept (no
 * launch or kernel needed; t->chosen -1). */
int ncu_parse(const char *text, const char *kernel, int launch, int list, struct ncu_text *t,
              struct sz_error *err);

/* The text of launch k's Kernel Name (or the chosen launch's, k < 0; for
 * lines, t->kernel) into dst[0..cap), quotes undoubled; its length. */
size_t ncu_kernel_name(const struct ncu_text *t, int k, char *dst, size_t cap);

/* The value of metric `base` (a ".sum" on either name ignored), 1 if found. */
int ncu_get(const struct ncu_text *t, const char *base, double *v);

/* The model's side of an explanation: the instruction kind (its ncu metric
 * names are instr.c's table's, kind->ncu.conflicts not NULL) and, per
 * instruction (or per tile of `per_unit` instructions), the wavefronts and
 * the ideal. */
struct ncu_model {
    const struct instr_kind *kind;
    double wavefronts, ideal;       /* per unit */
    double per_unit;                /* warp instructions per unit (1, or a tiled copy's) */
    double instructions;            /* the request's count of warp instructions; < 0 if none */
};

struct ncu_explain {
    const char *conflicts_metric;   /* the measured counter used, or NULL */
    double measured;                /* its value */
    const char *instr_metric;       /* the counter the instruction count came from, or NULL */
    double instructions;            /* warp instructions of the access (< 0: unknown) */
    const char *instr_source;       /* "counter", "request", "wavefronts", "source page",
                                     * "unknown" */
    double predicted;               /* instructions x (wavefronts - ideal) per instruction; < 0 unknown */
    double remainder;               /* measured - predicted (valid when both are known) */
    int has_arbitration;
    double arbitration;
    int has_sass;                   /* the Source-page conflict counter (sm__sass_..., where
                                     * ncu has it: n/a on an H100 with ncu 2025.3) */
    double sass;
    int has_source;                 /* the kind's Source-page wavefronts (deterministic) */
    double source_wavefronts;       /* and, with the count, the address conflicts they hold: */
    int has_source_conflicts;
    double source_conflicts;        /* source_wavefronts - instructions x ideal, or less the
                                     * Source page's own ideal (negative: the model's ideal
                                     * exceeds what ran) */
    int has_source_ideal;           /* the Source page's "Ideal" summed (source_ideal) */
    double source_ideal;
    const struct ncu_rule_count *rule;  /* the rule text the counts came from, or NULL */
    const char *verdict;            /* "reproduced", "arbitration", "arbitration_partly",
                                     * "unexplained", "model_above", "no_count" */
    char message[768];
};

/* Explain t's conflict count with the model m; never fails (what is missing
 * is said in e->message and e->verdict). */
void ncu_explain(const struct ncu_text *t, const struct ncu_model *m, struct ncu_explain *e);

/* The ncu command line that separates what the explanation could not,
 * into dst[0..cap): the kind's counters and the arbitration one, for the
 * launch explained, as a shell runs it: the -k argument is single-quoted
 * and its regex matches the launch's whole Kernel Name (every regex
 * metacharacter escaped, anchored; --kernel-name-base demangled for a CSV's
 * demangled names, function for a Details header's).  Returns the length
 * it needs (NUL excluded): cap >= ncu_command_cap(t) always suffices. */
size_t ncu_command(const struct ncu_text *t, const struct ncu_model *m, char *dst, size_t cap);
size_t ncu_command_cap(const struct ncu_text *t);

/* For the details page of sections (t->form "details"), the command that
 * prints MemoryWorkloadAnalysis_Tables' counters for the same launch
 * (--print-details all), quoted as ncu_command's, into dst[0..cap); its
 * length (cap >= ncu_command_cap(t) suffices).  Any other form: "" and 0. */
size_t ncu_rerun(const struct ncu_text *t, char *dst, size_t cap);

/* The metrics ncu_explain looks for, for a 4xx that found none. */
const char *ncu_looked_for(void);

#endif
