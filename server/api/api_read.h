/* api_read.h - request readers: query arguments, strict JSON bodies and the
 * parameter blocks routes share (swizzle, grid, instruction).  Every reader
 * fills a core struct or fails with an sz_error naming the field; none
 * writes an answer.  The measurement tool (cuda/) reads its stdin with
 * api_json_parse and api_read_instr, so it accepts exactly what the API does. */
#ifndef SZ_API_READ_H
#define SZ_API_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "base/error.h"
#include "model/instr.h"
#include "model/swizzle.h"

/* Refuse query keys not in `known` (NULL-terminated), repeated keys and keys
 * that are not UTF-8: a typo like `bankbytes=8` must not pass as the default. */
int api_args_check(const struct api_request *req, const char *const *known,
                   struct sz_error *err);

/* The decoded value of query key `key`, or NULL when absent. */
const char *api_arg(const struct api_request *req, const char *key);

/* Strict decimal (optional '-', 1..10 digits) in [lo, hi]; absent gives `def`
 * unless `required`.  Fails on `key`. */
int api_arg_int(const struct api_request *req, const char *key, long lo, long hi,
                int required, long def, long *out, struct sz_error *err);

/* Exactly INSTR_LANES comma-separated byte offsets in query key `key` (which
 * must be present): strict decimal below SZ_OFFSET_LIMIT, or "-" / "null"
 * for an inactive lane (INSTR_INACTIVE).  Fails on `key`, naming the lane. */
int api_arg_offsets(const struct api_request *req, const char *key, uint32_t *out,
                    struct sz_error *err);

/* 0/1/false/true; absent is 0. */
int api_arg_bool(const struct api_request *req, const char *key, int *out,
                 struct sz_error *err);

/* RFC 3629 UTF-8 (no overlongs, surrogates or values past U+10FFFF). */
int api_utf8_valid(const unsigned char *s, size_t n);

/* Parse text[0..len) as exactly one RFC 8259 JSON value (whitespace may
 * follow); *out is the caller's to cJSON_Delete.  Fails with SZ_BAD_JSON on
 * field "body" and the byte where it went wrong. */
int api_json_parse(const char *text, size_t len, cJSON **out, struct sz_error *err);

/* A POST body: Content-Type application/json, one JSON object. */
int api_body_object(const struct api_request *req, cJSON **out, struct sz_error *err);

/* Refuse members not in `known` (NULL-terminated) and repeated members. */
int api_fields_check(const cJSON *obj, const char *const *known, struct sz_error *err);

/* A JSON number that is an integer in [lo, hi] (1e2 is 100, 1.5 is refused);
 * api_field_int reads the required member `field` of `obj`. */
int api_num_int(const cJSON *v, const char *field, double lo, double hi, int64_t *out,
                struct sz_error *err);
int api_field_int(const cJSON *obj, const char *field, double lo, double hi,
                  int64_t *out, struct sz_error *err);

/* The grid a map route draws for `z`: swz_geom_init, except that `rows` == 0
 * (absent) is one tile height raised to the least whole number of tiles with at
 * least API_MIN_DEFAULT_ROWS rows where that grid is valid. */
#define API_MIN_DEFAULT_ROWS 8u
int api_geom_make(struct swz_geom *g, const struct swz *z, uint32_t bank_bytes,
                  uint32_t banks, uint32_t rows, int match, struct sz_error *err);

/* The swizzle (`b`, `m`, `s`, all required) and grid (`bank_bytes`, `banks`,
 * `rows`, `match_bank_row`) of a map route's query. */
int api_swz_args(const struct api_request *req, struct swz *z, struct sz_error *err);
int api_geom_args(const struct api_request *req, const struct swz *z, struct swz_geom *g,
                  struct sz_error *err);

/* cp.async's "cache" ("ca", the default, or "cg") and "global_offsets" (32
 * byte offsets, null for an idle lane; default lane t at t * bytes, so
 * in->bytes is read first), into in.  Other ops take neither: naming one
 * fails.  Checks no unknown field. */
int api_read_copy(const cJSON *obj, struct instr *in, struct sz_error *err);

/* The instruction fields of `obj` except its offsets (which stay inactive):
 * "op" (required) and its form, or, when `op_set`, the op and form `in`
 * already holds, with obj's fields read over them; then bytes, matrices,
 * trans, bank_bytes, banks, each checked and naming its field.  Checks no
 * unknown field. */
int api_read_instr_fields(const cJSON *obj, int op_set, struct instr *in,
                          struct sz_error *err);

/* One instruction object (the /api/conflicts body): "op" required, the rest
 * defaulted by instr_defaults ("func" and "type" for atom/red only; bytes
 * follows the type), members other than the schema's and `extra`
 * (NULL-terminated, may be NULL) refused, then instr_check. */
int api_read_instr(const cJSON *obj, const char *const *extra, struct instr *in,
                   struct sz_error *err);

/* An atomic's optional "warps" in `obj` (warps a block as the tool launches
 * them, 1..32) into *warps; absent: 0 (the tool's 16, which the model's other
 * rules are for).  400 on "warps" for another op or out of range. */
int api_read_warps(const cJSON *obj, const struct instr *in, uint32_t *warps,
                   struct sz_error *err);

/* A POST body that is one instruction (api_read_instr, plus an atomic's
 * "warps": api_read_warps into *warps) and no query arguments: what
 * /api/conflicts takes. */
int api_instr_body(const struct api_request *req, struct instr *in, uint32_t *warps,
                   struct sz_error *err);

#endif
