/* jsonin.h: the measurement tool's JSON input, a strict reader for one fixed
 * schema: one pattern object (the body of POST /api/conflicts, plus an
 * optional "name") or an array of them. Pure C11: no CUDA, no allocation, no
 * I/O. It accepts exactly RFC 8259 JSON and refuses unknown or repeated
 * fields, so that a typo cannot be measured as a default. */
#ifndef SWZ_JSONIN_H
#define SWZ_JSONIN_H

#include <stddef.h>

#include "pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses text[0..len) into pats[0..max). Fields: "op" (required: "ld", "st",
 * "ldmatrix", "stmatrix"), "offsets" (required: 32 integers or null),
 * "bytes" (1|2|4|8|16; default 4, and 16 for the matrix ops, which take only
 * 16), "matrices" (1|2|4; default 1, and 4 for the matrix ops; ld/st take
 * only 1), "trans" (bool; matrix ops only), "name" (string, at most
 * PROBE_NAME_MAX-1 bytes of UTF-8; default "pattern<i>"), "bank_bytes" (4)
 * and "banks" (32), the only bank geometry a GPU has. Each pattern is
 * finished with probe_finish. Returns the number of patterns (>= 1), or -1
 * with a message in err naming the pattern, the field and, for syntax
 * errors, the byte offset. */
int probe_json_parse(const char *text, size_t len, probe_pattern *pats, int max, char *err,
                     size_t errlen);

/* The first non-whitespace byte of text is '[' or '{'. */
int probe_json_looks_like(const char *text, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SWZ_JSONIN_H */
