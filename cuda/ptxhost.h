/* ptxhost.h: the host side of the measurement tool's --ptx mode (issue 38, item 6): its
 * command line, the entry's .param list read from the PTX text (checked before any GPU is
 * touched), and Nsight Compute's answers about one launch (the raw page and the Source
 * page's sass and cuda,sass views, as CSV) turned into numbers per kind, per source line
 * and per SASS instruction. Plain C: it must not touch a GPU, start a process or exit. */
#ifndef SZ_PTXHOST_H
#define SZ_PTXHOST_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The shared-memory instruction kinds, named as the answers name them. */
enum ptxm_kind { PTXM_LD, PTXM_ST, PTXM_LDSM, PTXM_STSM, PTXM_ATOM, PTXM_LDGSTS, PTXM_NKINDS };
extern const char *const ptxm_kind_names[PTXM_NKINDS];

enum { PTXM_MAX_PARAMS = 64, PTXM_MSG = 512 };

struct ptxm_args {
    const char *ptx_path;             /* --ptx FILE */
    const char *kernel;               /* --kernel NAME, or NULL: the module's one entry */
    unsigned block[3], grid[3];       /* --block X,Y,Z (required), --grid (default 1,1,1) */
    int nparams;
    struct { int is_null; const char *text; } params[PTXM_MAX_PARAMS];   /* --param V|null */
    long dynamic_shared;              /* --dynamic-shared N (bytes, default 0) */
    long global_bytes;                /* --global-bytes N: each null param's buffer (65536) */
    int json, child, no_ncu, require_ncu, device;
    const char *ncu_path;             /* --ncu PATH */
    const char *keep_dir;             /* --keep DIR: ncu's three CSV pages are written there */
    const char *from_csv;             /* --from-csv DIR: no GPU, the pages --keep left there */
    double timeout;                   /* the kernel's deadline, seconds (--timeout, 10) */
    double ncu_timeout;               /* the whole counter pass, seconds (--ncu-timeout, 120) */
    int alarm_s;                      /* --alarm: the profiled child ends itself (from ncu.c) */
};

/* Parses argv (the tool's whole command line; --ptx must be among it) into a.
 * 0, or -1 with a one-line reason in msg (a usage error: exit 2). */
int ptxm_parse_args(int argc, char **argv, struct ptxm_args *a, char *msg, size_t cap);

/* One .param of an entry, as the PTX declares it. */
struct ptxm_param {
    char type[8];                     /* "u64", "f32", "b8", ... */
    int size;                         /* bytes (an array .b8 name[N]: N) */
    char name[128];
};

/* Finds the entry `kernel` (or the only entry when kernel is NULL) in the PTX text and
 * lists its parameters. 0 with the entry's name in name and ps[0..*n); -1 with a reason in
 * msg (no such entry: the entries there are named; a malformed .param list). */
int ptxm_find_entry(const char *ptx, const char *kernel, char *name, size_t name_cap,
                    struct ptxm_param *ps, int max, int *n, char *msg, size_t cap);

/* Encodes the value given for parameter p (not null) into out[0..p->size) as the
 * parameter's type reads it (integers: decimal or 0x hex, in range; f32/f64: any number).
 * A null param must be an 8-byte parameter (a pointer). 0, or -1 with a reason. */
int ptxm_encode_param(const struct ptxm_param *p, int is_null, const char *text,
                      unsigned char *out, char *msg, size_t cap);

/* ---- ncu's answers -------------------------------------------------------------- */

struct ptxm_counts {
    double executions, wavefronts, ideal;
};

struct ptxm_line {
    char file[256];
    int line;
    int kind;
    struct ptxm_counts c;
};

struct ptxm_instr {
    unsigned long pc;                 /* offset from the function's first instruction */
    char sass[160];
    char file[256];                   /* its source line: the first ncu files it under outside
                                       * the CUDA toolkit's headers, else the first ("" none) */
    int line;
    struct { char file[256]; int line; } at[4];   /* every line ncu files it under (inlined
                                                   * code: the header's and the caller's) */
    int nat;
    int kind;
    double executions, threads, wavefronts, ideal;  /* threads: predicated-on thread count */
};

struct ptxm_result {
    int has_raw, has_source;
    /* executions and wavefronts from the raw metrics (-1 where ncu gave none); ideal summed
     * from the Source page's instructions of the kind */
    struct ptxm_counts totals[PTXM_NKINDS];
    struct ptxm_counts source_totals[PTXM_NKINDS];  /* all three summed from the Source page */
    double wavefronts_all, ideal_all;               /* memory_l1_wavefronts_shared(_ideal) */
    struct ptxm_line *lines;
    int nlines, lines_cap;
    struct ptxm_instr *instrs;
    int ninstrs, instrs_cap;
};

/* The --metrics list the profiled run collects besides the SourceCounters section. */
const char *ptxm_metric_list(void);

/* The kind of a SASS instruction's text ("@!P0 LDS.U.128 R4, [R2]"), or -1 when it is
 * no shared-memory instruction the answers count. */
int ptxm_sass_kind(const char *sass);

/* Reads `ncu --import R --page raw --csv --print-units base` (its first launch) through
 * model/ncu_csv. 0, or -1 when it holds no launch or ncu_csv refuses it (a malformed row). */
int ptxm_parse_raw(const char *csv, struct ptxm_result *r);

/* Reads the Source page through model/ncu_csv's table reader: the sass view (every
 * instruction once; needed) and the cuda,sass view (instructions under their file and line;
 * may be NULL when the module has no line information). Fills instrs (shared-memory
 * instructions only), lines and source_totals, and the ideal of totals. 0, or -1 when the
 * sass view holds no instruction row or a view has a malformed row (an unterminated quote). */
int ptxm_parse_source(const char *sass_csv, const char *cuda_sass_csv, struct ptxm_result *r);

void ptxm_result_free(struct ptxm_result *r);

/* Writes r as the JSON members "totals", "source_totals", "lines", "instructions" (with a
 * leading comma each: the caller writes the object around them). */
void ptxm_print_result_json(FILE *f, const struct ptxm_result *r);

/* Writes s as a JSON string (quoted, escaped). */
void ptxm_json_str(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif
