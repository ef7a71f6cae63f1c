/* api_access.h - what /api/access's files share (api_access.c, api_fit.c,
 * api_compare.c): the pattern check, the fit=1 answer and the compare=
 * member.  Route functions are api_routes.h's. */
#ifndef SZ_API_ACCESS_H
#define SZ_API_ACCESS_H

#include <stdint.h>

#include "api.h"
#include "base/buf.h"
#include "base/error.h"
#include "model/instr.h"
#include "model/swizzle.h"

/* Step `step` of named pattern `name` on the layout (z, g): pattern_fill,
 * then refuse a swizzle whose units are narrower than the pattern's accesses
 * (naming "m"). */
int api_pattern_on(const char *name, const struct swz *z, const struct swz_geom *g,
                   uint32_t step, struct instr *in, uint32_t *steps, struct sz_error *err);

#endif
