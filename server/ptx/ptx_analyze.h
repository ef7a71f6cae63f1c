/* ptx_analyze.h - one kernel's analysis from a parsed module and a launch:
 * pick the entry, apply ptxas's rules, run every block, gather the lines.
 * The one sequence the command, the route and the tests share.  Pure: no
 * I/O; the report owns what it allocates. */
#ifndef SZ_PTX_ANALYZE_H
#define SZ_PTX_ANALYZE_H

#include "base/error.h"
#include "ptx_cost.h"
#include "ptx_exec.h"
#include "ptx_parse.h"

/* Analyse entry `kernel` (NULL or "": the module's only entry) of `m` under
 * `l` into `r` (which the caller frees with ptx_cost_free, also after a
 * failure); *entry gets the entry.  Fails on "kernel", the launch's fields,
 * or "ptx" for a kernel fault (with its line). */
int ptx_analyze(struct ptx_module *m, const char *kernel, const struct ptx_launch *l,
                struct ptx_report *r, struct ptx_entry **entry, struct sz_error *err);

#endif
