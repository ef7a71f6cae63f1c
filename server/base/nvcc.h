/* nvcc.h - CUDA source to PTX with the user's own nvcc (issue 38: a request
 * may carry "cuda" instead of "ptx"): the source's #include lines checked,
 * the file written to a private temporary folder (0700) that is removed
 * afterwards, nvcc run through proc.c with a deadline, the PTX read back.
 * It never parses PTX or JSON, never runs what it compiles (-ptx compiles
 * device code only: no host compiler, no link), and never reads a file the
 * source names outside the toolkit's and the system's include folders. */
#ifndef SZ_NVCC_H
#define SZ_NVCC_H

#include <stddef.h>

#include "error.h"

/* A source bigger than this is refused before nvcc runs (a kernel file is
 * tens of KiB; the request body's own limit is 2 MiB). */
#define NVCC_MAX_SOURCE (512u * 1024u)

/* nvcc's PTX for one file is a few hundred KiB at most; more is cut off and
 * refused rather than buffered without bound. */
#define NVCC_MAX_PTX (4u << 20)

/* Compiles at once; one more is refused (SZ_OVERLOADED, 503 with Retry-After). */
#define NVCC_MAX_RUNNING 2

/* The most of nvcc's messages kept (the first errors say why). */
#define NVCC_MAX_LOG (16u * 1024u)

/* What to compile with. */
struct nvcc_config {
    const char *nvcc;       /* a path, or NULL: PATH, then /usr/local/cuda/bin/nvcc */
    const char *arch;       /* "sm_90a" (the default when NULL): sm_NN or sm_NNa */
    double timeout_s;       /* 0: 60 s */
};

/* What came back: PTX (malloc'd, NUL-terminated) and nvcc's messages. */
struct nvcc_result {
    char *ptx;
    size_t ptx_len;
    char log[NVCC_MAX_LOG];         /* stderr (warnings too), NUL-terminated */
    char path[512];                 /* the nvcc that ran */
    char file[32];                  /* the name the source had: "kernel.cu" */
};

/* Where nvcc is: cfg_path if not NULL, else $SWZ_NVCC (a path; "none":
 * compiling is off, as the fuzz target sets it), else PATH, else
 * /usr/local/cuda/bin/nvcc.  0 and the path in out, or -1 with
 * SZ_COMPILER_UNAVAILABLE saying what to install. */
int nvcc_find(const char *cfg_path, char *out, size_t cap, struct sz_error *err);

/* Whether src[0..len) may be compiled: no NUL byte, and every #include,
 * #include_next and #import (also spelt %:include, or spread over continued
 * lines) names a header in angle brackets: a relative name of letters,
 * digits and _ . / + - without "..", so that only the include folders are
 * searched (a quoted or absolute name, or a macro, could read any file).
 * 0, or -1 with SZ_INVALID_ARGUMENT on "cuda" and `at` on the directive. */
int nvcc_check_source(const char *src, size_t len, struct sz_error *err);

/* Compile src[0..len) (checked by nvcc_check_source first) as kernel.cu with
 * `nvcc -O3 -lineinfo -arch=ARCH -ptx`.  0 and r->ptx (free with nvcc_free),
 * or -1: SZ_COMPILER_UNAVAILABLE (no nvcc), SZ_INVALID_ARGUMENT on "cuda"
 * (nvcc refused the source: its first error in the message, with `at` where
 * nvcc names kernel.cu's line; r->log holds all it said) or on "arch",
 * SZ_TOO_LARGE on "cuda" (over NVCC_MAX_SOURCE, or nvcc ran past the
 * deadline), SZ_OVERLOADED (NVCC_MAX_RUNNING compiles under way),
 * SZ_INTERNAL (no temporary folder).  Thread-safe.  r is filled either way. */
int nvcc_compile(const struct nvcc_config *cfg, const char *src, size_t len,
                 struct nvcc_result *r, struct sz_error *err);

void nvcc_free(struct nvcc_result *r);

#endif
