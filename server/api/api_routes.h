/* api_routes.h - what the route files (api_layout.c, api_cost.c, api_access.c,
 * api_measure.c, api_linear.c, api_tensor.c, api_recommend.c, ...) give the
 * dispatcher (api.c): the route types and one function per route, nothing
 * else.  What routes share is read with api_read*.h and written with
 * api_write.h.  Internal to the API: nothing outside server/api/ includes it. */
#ifndef SZ_API_ROUTES_H
#define SZ_API_ROUTES_H

#include "api.h"
#include "base/buf.h"
#include "base/error.h"

/* A route: validate every input of `req`, then write the JSON answer to `out`,
 * or fail with an sz_error (4xx for anything the client sent). */
typedef int (*api_route_fn)(const struct api_request *req, struct buf *out,
                            struct sz_error *err);

/* A route that may stream: validate `req` as the route does; for an answer of
 * more than API_STREAM_MIN bytes set *out to a finished stream of exactly the
 * bytes the route would write and return 1; return 0 (and stream nothing) for a
 * smaller one, -1 with `err` for a bad request or no memory. */
struct stream;
typedef int (*api_stream_fn)(const struct api_request *req, struct stream **out,
                             struct sz_error *err);

/* api_presets.c: the named swizzles (presets.c) and limits; what names a map. */
int api_route_presets(const struct api_request *, struct buf *, struct sz_error *);

/* api_layout.c: maps, the inspector, apply. */
int api_route_swizzle(const struct api_request *, struct buf *, struct sz_error *);
int api_stream_swizzle(const struct api_request *, struct stream **, struct sz_error *);
int api_route_inspect(const struct api_request *, struct buf *, struct sz_error *);
int api_route_apply(const struct api_request *, struct buf *, struct sz_error *);

/* api_cost.c: what an instruction costs; api_access.c: the named patterns, an access
 * over a map's layout, and the trace. */
int api_route_conflicts(const struct api_request *, struct buf *, struct sz_error *);
int api_route_patterns(const struct api_request *, struct buf *, struct sz_error *);
int api_route_access(const struct api_request *, struct buf *, struct sz_error *);
int api_route_trace(const struct api_request *, struct buf *, struct sz_error *);

/* api_measure.c: the live measurements (an instruction; a tma: box placed by
 * the GPU's copy engine beside /api/layout's offsets; a kernel's PTX launched
 * as /api/ptx analyses it, measured beside predicted), and the health answer
 * that reports them. */
int api_route_health(const struct api_request *, struct buf *, struct sz_error *);
int api_route_measure(const struct api_request *, struct buf *, struct sz_error *);
int api_route_measure_tma(const struct api_request *, struct buf *, struct sz_error *);
int api_route_ptx_measure(const struct api_request *, struct buf *, struct sz_error *);

/* api_linear.c: the F2 view of a (store, load) pair, and its optimal layout. */
int api_route_linear_evaluate(const struct api_request *, struct buf *, struct sz_error *);
int api_route_linear_optimize(const struct api_request *, struct buf *, struct sz_error *);

/* api_tensor.c: layouts as compilers print them, access on them, the atoms. */
int api_route_layout(const struct api_request *, struct buf *, struct sz_error *);
int api_route_layout_access(const struct api_request *, struct buf *, struct sz_error *);
int api_route_atoms(const struct api_request *, struct buf *, struct sz_error *);
/* POST /api/ncu/explain: a pasted ncu result explained against an access's model count (api_ncu.c). */
int api_route_ncu_explain(const struct api_request *, struct buf *, struct sz_error *);

/* api_ops.c: the instruction-kind table. */
int api_route_ops(const struct api_request *, struct buf *, struct sz_error *);

/* api_recommend.c: the best swizzle for a write and a read pattern (recommend.c). */
int api_route_recommend(const struct api_request *, struct buf *, struct sz_error *);

/* api_distributed.c: Triton distributed encodings (TTGIR text) -> bases. */
int api_route_layout_distributed(const struct api_request *, struct buf *, struct sz_error *);

/* api_ttgir.c: a TTGIR dump's shared-memory ops, costed. */
int api_route_ttgir(const struct api_request *, struct buf *, struct sz_error *);

/* api_ptx.c: a kernel's PTX and launch, every shared-memory instruction costed. */
int api_route_ptx(const struct api_request *, struct buf *, struct sz_error *);

#endif
