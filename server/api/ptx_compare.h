/* ptx_compare.h - a PTX analysis (ptx_request.h) beside what the measurement
 * tool's --ptx mode counted on the GPU for the same launch: per kind and per
 * source line, predicted and measured side by side with whether they agree.
 * It compares counts for equality and writes JSON; it models nothing and
 * runs nothing. */
#ifndef SZ_PTX_COMPARE_H
#define SZ_PTX_COMPARE_H

#include <cjson/cJSON.h>

#include "base/buf.h"
#include "ptx_request.h"

/* Appends the members ,"totals":[...],"lines":[...],"lines_agree":N,
 * "lines_total":N,"agree":true|false|null (a leading comma; the caller writes
 * the object around them) comparing q's analysis with `tool`, the tool's
 * --ptx --json answer.  A line is matched by its file's base name, its line
 * and its kind (the tool's files are the PTX's .file names, as the analysis's
 * are); null "measured" where ncu counted nothing for it, null "agree" where
 * ncu gave no counts at all (its "ncu.used" false). */
void ptx_compare_json(struct buf *out, const struct ptx_request *q, const cJSON *tool);

#endif
