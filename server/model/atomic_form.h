/* atomic_form.h - which SASS instruction a shared-memory atomic compiles to on
 * sm_90 (ptxas, CUDA 13.0), read off cuobjdump for every form measured
 * (tests/data/atomic_forms_*.json, tests/data/atomics_*.json), and the names
 * of the operand kinds and guards the API takes.  Pure: no I/O, no costing
 * (access.c costs what this names). */
#ifndef SZ_ATOMIC_FORM_H
#define SZ_ATOMIC_FORM_H

#include <stddef.h>

#include "base/error.h"
#include "instr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The SASS opcode of `in` (an atomic): "ATOMS.POPC.INC.32", "ATOMS.ADD",
 * "ATOMS.CAS.64", "ATOMS.CAST.SPIN" (a compare-and-swap loop: not native)...;
 * "" for other ops.  Static storage. */
const char *atomic_form_sass(const struct instr *in);

/* Whether `in` compiles to ATOMS.POPC.INC: a red (an atomic whose result is
 * unused) that adds the constant 1 (add.u32; not .s32), or inc.u32 with the bound
 * 0xffffffff (the same increment).  Lanes on one address merge into one update
 * (the popcount of the lanes): measured, tests/data/atomic_forms_*.json. */
int atomic_form_merges(const struct instr *in);

/* "lane", "uniform", "const"; "each", "none", "once".  "?" out of range. */
const char *atomic_form_value_name(enum instr_value v);
const char *atomic_form_guard_name(enum instr_guard g);

/* An atomic's operand and guard as the JSON members every answer and the
 * tool's report give them: "value":1,"guard":"none" (a constant bare, a kind
 * by name).  Writes at most `cap` bytes (64 hold any) into `dst`; returns dst. */
const char *atomic_form_json(const struct instr *in, char *dst, size_t cap);

/* Parse "each", "none" or "once" into `g`; fails on "guard" naming all three. */
int atomic_form_guard_parse(const char *name, enum instr_guard *g, struct sz_error *err);

#ifdef __cplusplus
}
#endif

#endif
