/* api_read_layout.h - the readers of layouts that several routes take (after
 * api_read.h's query, body and instruction readers): a named pattern on a map,
 * a Triton distributed encoding, a pasted memory layout.  Each fills a core
 * struct or fails with an sz_error naming the field; none writes an answer.
 * Not the tool's: it reads with api_read.h alone. */
#ifndef SZ_API_READ_LAYOUT_H
#define SZ_API_READ_LAYOUT_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "api.h"
#include "base/error.h"
#include "layout/layout.h"
#include "layout/rosetta.h"

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

/* A pasted memory layout (a CuTe print, a Triton shared encoding or tma:MODE)
 * read from a body's "layout", "element_bits", "shape", "base", "descriptor"
 * and "descriptor_arch", its offsets evaluated, and what the answers need. */
struct api_tensor {
    struct lay l;
    uint32_t *off, *sorted, *tmp;       /* l.size each, one allocation */
    uint32_t collisions, dup, base;
    int has_desc;
    struct ros_desc desc;
};

/* Read the layout fields of `root` into *t (other members are the caller's to
 * check): parse, evaluate and sort the offsets, count collisions, decode the
 * descriptor.  Fails naming the field; api_tensor_free *t either way. */
int api_tensor_read(const cJSON *root, struct api_tensor *t, struct sz_error *err);

/* The request's JSON body read as a tensor: no query arguments, no member
 * outside `fields`.  0 with *root (cJSON_Delete it) and *t (api_tensor_free
 * it); -1 with both already freed. */
int api_tensor_body(const struct api_request *req, const char *const *fields,
                    cJSON **root, struct api_tensor *t, struct sz_error *err);

/* Free what api_tensor_read allocated (t zeroed or read). */
void api_tensor_free(struct api_tensor *t);

#endif
