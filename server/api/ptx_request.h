/* ptx_request.h - one POST /api/ptx body read, compiled (a "cuda" text, by the
 * user's nvcc), parsed and analysed: what /api/ptx answers with and what
 * /api/ptx/measure runs on the GPU beside it, read once so the two routes
 * cannot take a body differently.  It writes no answer and runs no tool. */
#ifndef SZ_PTX_REQUEST_H
#define SZ_PTX_REQUEST_H

#include <cjson/cJSON.h>

#include "api.h"
#include "base/buf.h"
#include "base/nvcc.h"
#include "ptx/ptx_analyze.h"

#define PTX_REQUEST_PARAMS 64

/* A request analysed: the module, the entry, the launch and the report. */
struct ptx_request {
    cJSON *root;
    struct ptx_module m;
    struct ptx_report r;
    struct ptx_launch l;
    struct ptx_entry *e;
    uint64_t vals[PTX_REQUEST_PARAMS];
    uint8_t nulls[PTX_REQUEST_PARAMS];
    struct nvcc_result *cc;     /* "cuda": nvcc's answer; NULL for "ptx" */
    const char *ptx;            /* the PTX analysed (the request's, or nvcc's) */
    const char *cuda;           /* the request's CUDA source, or NULL */
    const char *arch;           /* "sm_90a" unless asked */
};

/* Reads req's body (the fields of docs/api.md's POST /api/ptx, plus the names
 * in `extra`), compiles it when it is "cuda", parses and analyses it into *q.
 * 0, or -1 with err: a 4xx naming the field for a client's mistake,
 * compiler_unavailable without nvcc.  ptx_request_free(q) after either. */
int ptx_request_run(const struct api_request *req, const char *const *extra,
                    struct ptx_request *q, struct sz_error *err);

/* The /api/ptx answer for q (ptx_request_run returned 0), appended to out. */
void ptx_request_answer(struct buf *out, const struct ptx_request *q);

void ptx_request_free(struct ptx_request *q);

#endif
