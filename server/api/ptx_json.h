/* ptx_json.h - a PTX analysis (ptx/ptx_analyze.h) as the JSON answer that
 * POST /api/ptx gives and `swizzlescope-ptx --json` prints, so the route and
 * the command write one format.  It only writes; it reads no request and
 * costs nothing but the worst access's banks (through acc_cost). */
#ifndef SZ_PTX_JSON_H
#define SZ_PTX_JSON_H

#include "base/buf.h"
#include "ptx/ptx_analyze.h"

/* Where the PTX came from when the server compiled it (a request's "cuda"):
 * the source, the name its .file lines give it, and what nvcc said. */
struct ptx_json_source {
    const char *name;       /* "kernel.cu" */
    const char *text;       /* the CUDA source, NUL-terminated */
    const char *nvcc, *arch, *log;
};

/* The answer for entry `e` of `m` run under `l` into `r` (ptx_analyze done):
 * one JSON object (docs/api.md, POST /api/ptx) appended to `out`.  With
 * `src` (NULL: PTX was given), "compiled" says how, and each line of src's
 * file carries its "source" text.  `more` (NULL: none): members the caller
 * adds at the end, each with its leading comma. */
void ptx_json_answer(struct buf *out, const struct ptx_module *m, const struct ptx_entry *e,
                     const struct ptx_launch *l, const struct ptx_report *r,
                     const struct ptx_json_source *src, const char *more);

#endif
