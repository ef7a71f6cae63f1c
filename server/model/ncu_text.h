/* ncu_text.h - what a pasted Nsight Compute result says about shared memory:
 * the metrics of one launch of ncu's CSV (wide `--page raw` or the long
 * details form, read by ncu_csv.h) or of the Details page's metric lines
 * (`name  [unit]  value`), and the explanation of a bank-conflict count
 * against the model's (instructions x (wavefronts - ideal)): what the access
 * explains, what is left, whether the arbitration counter says what it is,
 * and the ncu command line that would separate them.
 * Pure core: no I/O, no allocation, no JSON. */
#ifndef SZ_NCU_TEXT_H
#define SZ_NCU_TEXT_H

#include <stdint.h>

#include "base/error.h"
#include "instr.h"

#define NCU_MAX_METRICS 256       /* counters kept from one launch (l1tex__, sm__, smsp__, sass__) */
#define NCU_NAME 128
#define NCU_MAX_TEXT (256u * 1024)

struct ncu_metric {
    char name[NCU_NAME];            /* as printed, with its .sum / .avg suffix if any */
    double value;
    int line;                       /* 1-based line of the text */
};

struct ncu_text {
    int csv;                        /* 1: ncu's CSV (either form); 0: metric lines */
    int n;
    struct ncu_metric m[NCU_MAX_METRICS];
    char kernel[NCU_NAME];          /* the CSV's Kernel Name, or a Details header's; "" if none */
};

/* Read `text` (NUL-terminated, at most NCU_MAX_TEXT bytes).  A CSV with
 * several launches needs `kernel` (a substring of one launch's Kernel Name;
 * NULL for none); only that launch's counters are kept.  Fails naming "ncu" ("at line N, column C: ...") on a
 * malformed CSV, or naming "kernel". */
int ncu_parse(const char *text, const char *kernel, struct ncu_text *t, struct sz_error *err);

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
    const char *instr_source;       /* "counter", "request", "wavefronts", "unknown" */
    double predicted;               /* instructions x (wavefronts - ideal) per instruction; < 0 unknown */
    double remainder;               /* measured - predicted (valid when both are known) */
    int has_arbitration;
    double arbitration;
    int has_sass;                   /* the Source-page conflict counter (sm__sass_..., where
                                     * ncu has it: n/a on an H100 with ncu 2025.3) */
    double sass;
    int has_source;                 /* the kind's Source-page wavefronts (deterministic) */
    double source_wavefronts;       /* and, with the count, the address conflicts they hold: */
    double source_conflicts;        /* source_wavefronts - instructions x ideal (< 0: unknown) */
    const char *verdict;            /* "reproduced", "arbitration", "arbitration_partly",
                                     * "unexplained", "model_above", "no_count" */
    char message[512];
    char command[1024];             /* the ncu command line that separates them */
};

/* Explain t's conflict count with the model m; never fails (what is missing
 * is said in e->message and e->verdict). */
void ncu_explain(const struct ncu_text *t, const struct ncu_model *m, struct ncu_explain *e);

/* The metrics ncu_explain looks for, for a 4xx that found none. */
const char *ncu_looked_for(void);

#endif
