/* ptx_json.h - a PTX analysis (ptx/ptx_analyze.h) as the JSON answer that
 * POST /api/ptx gives and `swizzlescope-ptx --json` prints, so the route and
 * the command write one format.  It only writes; it reads no request and
 * costs nothing but the worst access's banks (through acc_cost). */
#ifndef SZ_PTX_JSON_H
#define SZ_PTX_JSON_H

#include "base/buf.h"
#include "ptx/ptx_analyze.h"

/* The answer for entry `e` of `m` run under `l` into `r` (ptx_analyze done):
 * one JSON object (docs/api.md, POST /api/ptx) appended to `out`. */
void ptx_json_answer(struct buf *out, const struct ptx_module *m, const struct ptx_entry *e,
                     const struct ptx_launch *l, const struct ptx_report *r);

#endif
