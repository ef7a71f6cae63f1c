/* instr_json.h - the instruction-kind table (instr.c) as JSON text: what
 * GET /api/ops answers and `swizzlescope-measure --info` prints, so that the
 * page, the calibration scripts and the tool's users read one table.  It
 * only writes the table; it decides nothing. */
#ifndef SZ_INSTR_JSON_H
#define SZ_INSTR_JSON_H

#include "base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {"ops":[one object per kind, in enum order], "funcs":[...], "types":[...]}
 * as compact JSON into *out (malloc'd: the caller frees it).  A kind's
 * object: name, ptx, label, short_name; load, store, matrix, atomic, async;
 * operands (request fields: "bytes", "matrices", "trans", "func", "type");
 * widths and matrices (allowed values; matrices [] for non-matrix kinds),
 * default_bytes, default_matrices; min_cc ("7.5", or null: any);
 * smem_spare; ncu {source, wavefronts, conflicts, executed} (null: none).
 * Fails (SZ_INTERNAL) only when out of memory. */
int instr_json_kinds(char **out, struct sz_error *err);

#ifdef __cplusplus
}
#endif

#endif
