/* ptx_rules.h - what ptxas does to a kernel's shared-memory instructions that
 * changes what the hardware counts, each a rule with its pin (a measurement,
 * or "assumed, not measured"): placement, merged 64/128-bit accesses, an
 * unused atom as a red (POPC.INC), CAS loops, predication, placeholders.
 * Pure: no I/O; it annotates an entry and costs a CAS loop's accesses. */
#ifndef SZ_PTX_RULES_H
#define SZ_PTX_RULES_H

#include <stdint.h>

#include "base/error.h"
#include "model/instr.h"
#include "ptx_cost.h"
#include "ptx_parse.h"

enum ptx_rule_id {
    PTX_RULE_PLACE, PTX_RULE_DYNAMIC, PTX_RULE_MERGE, PTX_RULE_RED, PTX_RULE_CONST,
    PTX_RULE_CAS, PTX_RULE_PREDICATE, PTX_RULE_INLINED, PTX_RULE_CP_PLACEHOLDER, PTX_NRULES
};


/* The never-true loads ptxas puts before a run of cp.async (PTX_RULE_CP_PLACEHOLDER). */
#define PTX_CP_PLACEHOLDERS 3

/* A branch's region that ptxas predicates (PTX_RULE_PREDICATE): at most
 * PTX_PREDICATE_MAX instructions that are not integer address arithmetic or
 * moves (ptxas computes those unpredicated: the SASS of reduce_interleaved
 * and predicate_k4), and at most PTX_PREDICATE_SPAN in all (assumed).
 * Measured 2026-11-28 on an H200 (driver 580.159.04, ncu 2025.3.1.0, nvcc
 * 13.0.88): predicate_k4 (ld.shared and 4 fma: 5) is if-converted, @P0 LDS
 * executed on 8 warps, 4 with no thread on; predicate_k5 (ld.shared and 5
 * fma: 6) is branched around, @!P0 BRA, LDS on 4; reduce_interleaved's
 * region (2 ld.shared, add.f32, st.shared: 4, with 5 integer ops) is
 * if-converted.  ptxas weighs its instructions; this counts them. */
#define PTX_PREDICATE_MAX 5
#define PTX_PREDICATE_SPAN 16

/* Decode an atomic's PTX type into the schema's; -1 for a type it lacks. */
int ptx_rules_atomic_type(enum ptx_type t, enum instr_type *out);

/* Annotate `e` for a launch with `dynamic_shared` bytes: place every static
 * .shared variable (ptx_var.offset, e->shared_static, e->dyn_align), mark
 * unused atom results, constant atomic operands, merge groups and predicated
 * branches.  Fails (too_large, "dynamic_shared") when the shared memory
 * passes INSTR_SMEM_HARD_LIMIT. */
int ptx_rules_apply(struct ptx_entry *e, uint64_t dynamic_shared, struct sz_error *err);

/* The dynamic shared memory's base offset after the static variables. */
uint64_t ptx_rules_dynamic_base(const struct ptx_entry *e);

/* The text of rule `id` for an answer's assumptions: what ptxas does and
 * the measurement that pins it (or "assumed, not measured"). */
const char *ptx_rules_text(enum ptx_rule_id id);

/* One warp-level execution of a non-native atomic `in` (active lanes in its
 * offsets) as ptxas compiles it: trips of a load and a compare-and-swap of
 * the lanes still pending, one lane per word succeeding each trip; each
 * costed through ptx_cost_add at instruction `insn`. */
int ptx_rules_cas_loop(struct ptx_report *r, uint32_t insn, const struct instr *in,
                       struct sz_error *err);

#endif
