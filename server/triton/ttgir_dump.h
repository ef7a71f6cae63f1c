/* ttgir_dump.h - a TTGIR dump (MLIR_ENABLE_DUMP output, a lit test, one op)
 * scanned for the ops that touch shared memory: ttg.local_load,
 * ttg.local_store, ttg.local_alloc (with its initial value) and the async
 * copies into shared memory, each with the tensor and memdesc types it names;
 * the other shared-memory ops it recognises (TMA copies, allocs without a
 * value, wgmma / tcgen05 reading by descriptor) are listed as skipped with
 * the reason.  It costs nothing (api_ttgir.c does).  Pure: no I/O, no
 * allocation. */
#ifndef SZ_TTGIR_DUMP_H
#define SZ_TTGIR_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "triton_ll.h"
#include "ttgir_attr.h"

#define TDUMP_MAX_OPS 512

enum tdump_kind { TDUMP_LOAD, TDUMP_STORE, TDUMP_ALLOC, TDUMP_ASYNC_COPY, TDUMP_SKIP };

struct tdump_op {
    enum tdump_kind kind;
    const char *name;           /* "local_load", ... or the skipped op's name */
    int name_len;
    int line, pos;              /* 1-based line; byte offset of the op name */
    int tensor, memdesc;        /* offsets of `tensor<` and `!ttg.memdesc<`; -1 if absent */
    int types, types_len;       /* the text after ` : ` to the line's end (-1, 0: none) */
    const char *reason;         /* TDUMP_SKIP: why it is not costed */
};

struct tdump {
    int nops, truncated;        /* truncated: more than TDUMP_MAX_OPS */
    struct tdump_op op[TDUMP_MAX_OPS];
    int num_banks;              /* from `ttg.target`: 64 on gfx950, else 32 */
    const char *target;         /* the target string's first byte, or NULL */
    int target_len;
};

/* Scan text (n bytes) for its shared-memory ops, in order. */
void tdump_scan(const char *text, size_t n, struct tdump *d);

/* A type `tensor<AxBxT, #enc>` or `!ttg.memdesc<AxBxT, #enc, ...>` at text[0]
 * offset pos (p's text 0): its shape, element bits and the encoding's node.
 * Errors name the line and column. */
int tdump_type(struct ta_parser *p, int pos, int64_t *shape, int *rank, int *bits, int *enc,
               struct sz_error *err);

#endif
