/* ttgir_dump.h - a TTGIR dump (MLIR_ENABLE_DUMP output, a lit test, one op)
 * cut into its parts (lit's `// -----` modules, a dump's passes) and one part
 * scanned for the ops that touch shared memory: ttg.local_load,
 * ttg.local_store, ttg.local_alloc (with its initial value), the async
 * copies into shared memory and ttg.convert_layout (which may go through it), each with the tensor and memdesc types it names
 * and the SSA value of the buffer it touches (followed through memdesc
 * views and scf.for's loop-carried values to the value that allocated it);
 * the other shared-memory ops it recognises (TMA copies, allocs without a
 * value, wgmma / tcgen05 reading by descriptor) are listed as skipped with
 * the reason.  Triton 3.0/3.1's `triton_gpu.` dialect reads as `ttg.`.  It
 * costs nothing (api_ttgir.c does).  Pure: no I/O, no allocation. */
#ifndef SZ_TTGIR_DUMP_H
#define SZ_TTGIR_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "triton_ll.h"
#include "ttgir_attr.h"

#define TDUMP_MAX_OPS 512
#define TDUMP_MAX_NAMES 2048    /* SSA values that may hold a buffer (past it: unfollowed) */
#define TDUMP_MAX_PARTS 64

/* TDUMP_CONVERT: a ttg.convert_layout between two distributed layouts
 * (through shared memory when data crosses warps: api_ttgir.c decides). */
enum tdump_kind { TDUMP_LOAD, TDUMP_STORE, TDUMP_ALLOC, TDUMP_ASYNC_COPY, TDUMP_CONVERT,
                  TDUMP_SKIP };

struct tdump_op {
    enum tdump_kind kind;
    const char *name;           /* "local_load", ... or the skipped op's name */
    int name_len;
    int line, pos;              /* 1-based line; byte offset of the op name */
    int tensor, memdesc;        /* offsets of `tensor<` and `!ttg.memdesc<`; -1 if absent */
    int tensor2;                /* TDUMP_CONVERT: the result's `tensor<` (after `->`), or -1 */
    int types, types_len;       /* the text after ` : ` to the line's end (-1, 0: none) */
    const char *reason;         /* TDUMP_SKIP: why it is not costed */
    int old_dialect;            /* written `triton_gpu.` (Triton 3.0/3.1) */
    int value, value_len;       /* the buffer's SSA name as the op writes it (-1, 0: none) */
    int buffer;                 /* the root name it resolves to (tdump.name), -1: none */
};

/* An SSA name that may hold a buffer: the allocating value is a root
 * (parent -1); views and loop-carried values point at what they came from. */
struct tdump_name {
    int pos, len;               /* the name in the text ("%b", "%r#1") */
    int scope;                  /* the tt.func it is in: names repeat across functions */
    int parent, next;           /* next: the hash bucket's chain */
};

struct tdump {
    int nops, truncated;        /* truncated: more than TDUMP_MAX_OPS */
    struct tdump_op op[TDUMP_MAX_OPS];
    int num_banks;              /* from `ttg.target`: 64 on gfx950, else 32 */
    const char *target;         /* the target string's first byte, or NULL */
    int target_len;
    int num_warps;              /* the module's "ttg.num-warps" (or triton_gpu.); 0: absent */
    int nnames, names_full;     /* names_full: more than TDUMP_MAX_NAMES (some unfollowed) */
    struct tdump_name name[TDUMP_MAX_NAMES];
    int bucket[TDUMP_MAX_NAMES];
};

/* One part of a text: a lit file's module between `// -----` lines, or one
 * pass of an MLIR_ENABLE_DUMP dump (from its `// -----// IR Dump ...` line). */
struct tdump_part {
    size_t start, end;          /* byte range in the text */
    int first_line;             /* 1-based line of start */
    const char *title;          /* "IR Dump After ...", the first `@func`, or NULL */
    int title_len;
};

/* Cut text (n bytes) into at most max parts (blank or comment-only parts
 * dropped); returns how many; *more is set when parts were left over.  A
 * text with no boundary is one part. */
int tdump_split(const char *text, size_t n, struct tdump_part *parts, int max, int *more);

/* Scan text (n bytes) for its shared-memory ops, in order. */
void tdump_scan(const char *text, size_t n, struct tdump *d);

/* A type `tensor<AxBxT, #enc>` or `!ttg.memdesc<AxBxT, #enc, ...>` at text[0]
 * offset pos (p's text 0): its shape, element bits and the encoding's node.
 * Errors name the line and column. */
int tdump_type(struct ta_parser *p, int pos, int64_t *shape, int *rank, int *bits, int *enc,
               struct sz_error *err);

#endif
