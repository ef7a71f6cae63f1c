/* api_read_layout.h - the readers of layouts that several routes take (after
 * api_read.h's query, body and instruction readers): a named pattern on a map,
 * a Triton distributed encoding.  Each fills a core struct or fails with an
 * sz_error naming the field; none writes an answer.  Not the tool's: it reads
 * with api_read.h alone. */
#ifndef SZ_API_READ_LAYOUT_H
#define SZ_API_READ_LAYOUT_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "base/error.h"

struct instr;
struct swz;
struct swz_geom;
struct td_layout;

/* Step `step` of named pattern `name` on the layout (z, g) into *in (and its
 * step count into *steps): pattern_fill, then refuse a swizzle whose units
 * are narrower than the pattern's accesses (naming "m"). */
int api_pattern_on(const char *name, const struct swz *z, const struct swz_geom *g,
                   uint32_t step, struct instr *in, uint32_t *steps, struct sz_error *err);

/* The body's "shape" (member of obj): 1..3 integers into shape[0..*rank)
 * (powers of two checked when the layout is built); fails naming "shape". */
int api_dist_shape(const cJSON *obj, int64_t *shape, int *rank, struct sz_error *err);

/* `layout` (TTGIR text) and optional `aliases` (text, may be NULL) on shape ->
 * *out; fails naming "layout" or "aliases" (too large: SZ_TOO_LARGE). */
int api_dist_read(const cJSON *layout, const cJSON *aliases, const int64_t *shape, int rank,
                  struct td_layout *out, struct sz_error *err);

#endif
