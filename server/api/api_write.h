/* api_write.h - the answer writers that more than one route uses (api_write.c),
 * and the access answer's fit= and compare= members (api_fit.c, api_compare.c):
 * every JSON piece a route file takes from outside itself.  Each writes into
 * `out` (a buf: out of memory is its oom flag); none reads a request body, none
 * is a route.  Route files include this, never one another's files. */
#ifndef SZ_API_WRITE_H
#define SZ_API_WRITE_H

#include <stdint.h>

#include "base/buf.h"

struct acc_result;
struct api_request;
struct instr;
struct lay;
struct lin_tile;
struct preset;
struct swz;
struct sz_error;
struct td_layout;

/* `"key":` (key escaped). */
void api_put_key(struct buf *out, const char *key);

/* `"key":"v"`, or `"key":null` when v is NULL (a name no source gives). */
void api_put_str_or_null(struct buf *out, const char *key, const char *v);

/* Preset p's hardware modes as one object: {"preset":..,"tma":..,"tma_cuda":..,
 * "tma_status":..,"gmma":..,"gmma_name":..,"gmma_atom":..,"umma":..,
 * "umma_name":..,"umma_words":..} (a name the preset lacks is null). */
void api_put_hardware(struct buf *out, const struct preset *p);

/* "hardware" (the preset whose map z is, with its TMA / GMMA / UMMA modes, or
 * null) and "elements" (z on 1-, 2-, 4- and 8-byte element indices), as two
 * JSON members, no comma around them. */
void api_put_names(struct buf *out, const struct swz *z);

/* "[v0,v1,...]": n integers (a shape, an order). */
void api_put_ints(struct buf *out, const int64_t *v, int n);

/* "[t,...]": the lanes set in `mask`, in order. */
void api_put_lanes(struct buf *out, uint32_t mask);

/* The /api/conflicts answer for `in` (which passed instr_check) costed as `r`
 * (acc_cost): one object, counts null where the model has none. */
void api_put_cost(struct buf *out, const struct instr *in, const struct acc_result *r);

/* F2 vectors v[0..n) of tile t as "[[dim0,dim1],...]" (what /api/linear,
 * /api/recommend and /api/ttgir call offset bases). */
void api_put_bases(struct buf *out, const struct lin_tile *t, const uint32_t *v, int n);

/* A distributed layout as members, no braces: "encoding":..,"shape":[..],
 * "lanes_per_warp":..,"warps":..,"register":[..],"lane":[..],"warp":[..],
 * "block":[..]. */
void api_put_dist(struct buf *out, const struct td_layout *l);

/* "[c0,c1,...]": the coordinates of element index i of layout l (rank of them). */
void api_put_coords(struct buf *out, const struct lay *l, uint32_t i);

/* `{"code":...,"field":...,"message":...}` (and `"at":{"line","column"}` when
 * it points into pasted text): an error as every answer names
 * one (the error body's inner object, a refusal's "why"). */
void api_put_error(struct buf *out, const struct sz_error *e);

/* ---- /api/access's members (api_fit.c, api_compare.c) --------------------- */

/* The fit=1 answer for a view (pattern NULL) or a pattern on it (rows_now its
 * rows) that does not fit: `why` it would be refused, and the one value of
 * why->field that would fit, or null.  Reads the view from req's query
 * leniently.  Never fails (returns 0). */
int api_put_unfit(const struct api_request *req, struct buf *out, const char *pattern,
                  long rows_now, const struct sz_error *why);

/* The "compare" member: instruction `in` on swizzle z, read as logical
 * offsets, on each swizzle of `list` ("b,m,s;b,m,s", at most 8); fails
 * naming "compare" on a malformed list (nothing useful written then). */
int api_put_compare(struct buf *out, const char *list, const struct instr *in,
                    const struct swz *z, struct sz_error *err);

#endif
