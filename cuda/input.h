/* input.h - the measurement tool's stdin: named instructions as JSON (a POST
 * /api/conflicts body plus an optional "name", or an array), read with the
 * server's readers, or as lines `name op bytes matrices trans o0 ... o31`
 * (an atomic's op is its PTX form, `atom.add.u32`).
 * Both end in the schema's struct instr, checked by instr_check_gpu, so the
 * tool accepts what the API accepts.  Pure C11: no CUDA, no I/O; the device's
 * own limits are the caller's to check once it knows them. */
#ifndef SZ_INPUT_H
#define SZ_INPUT_H

#include <stddef.h>

#include "base/error.h"
#include "model/instr.h"

#ifdef __cplusplus
extern "C" {
#endif

#define INPUT_NAME_MAX 96   /* bytes of a name, its NUL included */
#define INPUT_WHERE_MAX 128

/* One instruction to measure and the name its results carry. */
struct input_pattern {
    char name[INPUT_NAME_MAX];
    struct instr in;
};

/* The first byte of text that is not white space is '{' or '['. */
int input_is_json(const char *text, size_t len);

/* JSON text[0..len) into pats[0..max): an object, or a non-empty array of
 * objects, each with the fields of api_read_instr plus "name" (1..95 bytes of
 * UTF-8 without control characters; default "pattern<i>").  Returns the
 * number of patterns, or -1 with err naming the field as the API would and
 * `where` (cap INPUT_WHERE_MAX) saying which pattern. */
int input_parse_json(const char *text, size_t len, struct input_pattern *pats, int max,
                     struct sz_error *err, char *where);

/* One line `name op bytes matrices trans o0 ... o31 [ca|cg g0 ... g31]`
 * (an atomic: `... o31 [value [guard]]`, value lane|uniform|integer, guard each|none)
 * (the cache and global offsets: cp.async only, default contiguous; white-space separated;
 * op "ld", ..., or an atomic's form "red.min.s32" (bare "atom": add.u32);
 * '-' for an inactive lane; trans 0, 1, true or false; a name of letters,
 * digits, '_', '-' and '.').  1 and *out on a pattern, 0 on a blank or '#'
 * line, -1 with err naming the field. */
int input_parse_line(const char *line, struct input_pattern *out, struct sz_error *err);

/* A whole input: JSON when input_is_json, else lines (refused when
 * json_only).  Returns the number of patterns (>= 1), or -1 with err and
 * `where` ("pattern 2 (\"x\")", "line 7", or "" for the input as a whole). */
int input_parse(const char *text, size_t len, int json_only, struct input_pattern *pats,
                int max, struct sz_error *err, char *where);

/* The line of `p` that input_parse_line reads back as `p` (its name replaced
 * by `name` when not NULL), newline included, into buf; its length, or -1
 * when it does not fit cap. */
int input_format_line(const struct input_pattern *p, const char *name, char *buf,
                      size_t cap);

/* What the kernel is given for `in`: lane t's offset and, in *active, bit t
 * set when lane t accesses.  An inactive ld/st lane gets offset 0 (it is
 * predicated off); ldmatrix/stmatrix ignore the addresses of lanes
 * t >= 8 x matrices, which get lane t % (8 x matrices)'s so that every lane
 * of the warp-wide instruction holds a valid one. */
void input_lanes(const struct instr *in, uint32_t off[INSTR_LANES], uint32_t *active);

#ifdef __cplusplus
}
#endif

#endif
