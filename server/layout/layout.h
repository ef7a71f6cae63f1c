/* layout.h - a memory layout as users' compilers print it (CuTe layout text,
 * Triton #ttg.swizzled_shared / #ttg.nvmma_shared over a shape, a dense TMA
 * box with a CU_TENSOR_MAP_SWIZZLE_* mode): parse it, then evaluate it as a
 * function coordinate -> byte offset, the first coordinate fastest.  Each
 * form is one row of the form table (struct lay_form) with a struct of its
 * own in struct lay; README's "Adding a layout form" says how to add one.
 * A thread layout ((register, lane, warp) -> coordinate) is thread.h's.
 * Pure core: no I/O, no allocation, no JSON; callers own every buffer. */
#ifndef SZ_LAYOUT_H
#define SZ_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "linear/linear.h"
#include "model/swizzle.h"

#define LAY_MAX_RANK 4               /* CuTe (SM100's staged smem is rank 4) */
#define LAY_MAX_SHAPED_RANK 3        /* Triton and TMA forms: the request's shape */
#define LAY_MAX_LEAVES 16           /* flattened modes of a CuTe layout */
#define LAY_MAX_DEPTH 6             /* tuple nesting of a CuTe layout */
#define LAY_MAX_SIZE (1u << 20)     /* elements: DESIGN.md sec. 5's million cells */
#define LAY_MAX_TEXT 1024           /* bytes of layout text */

/* Where a swizzle acts.  CuTe's `Sw<B,M,S> o _0 o L` acts on L's codomain, in
 * elements; `Sw<B,M,S> o smem_ptr[Nb](unset) o L` on the byte address (CuTe,
 * pointer_flagged.hpp: as_position_independent_swizzle_layout recasts it from
 * uint8_t to the element); TMA and NVMMA modes act on bytes. */
enum lay_domain { LAY_SWZ_NONE, LAY_SWZ_ELEMENTS, LAY_SWZ_BYTES };

/* ---- what each form's text says (its row's parse fills it) -------------- */

struct lay_cute {
    int swz_col;                    /* 1-based column of the swizzle in the text, or 0 */
    /* a tensor print's pointer: `smem_ptr[16b](0x7f0000000400) o ...` or the
     * swizzle pointer `Sw<3,4,3>_smem_ptr[16b](0x...) o ...` */
    int has_address, ptr_col;       /* ptr_col: 1-based column of the pointer */
    uint64_t address;
    int body_col;                   /* 0-based index where shape:stride begins */
};
struct lay_tma {                    /* tma:CU_TENSOR_MAP_SWIZZLE_* */
    int swizzle_bytes;              /* 0, 32, 64 or 128 */
};
struct lay_tlinear {                /* every Triton shared encoding (triton_shared.c's bases) */
    int n;                          /* offset bits: the element (coordinate) at offset 2^k */
    int32_t b[LIN_MAX_BITS][LAY_MAX_RANK];
    int nvmma_bytes;                /* nvmma_shared's swizzlingByteWidth; else 0 */
};

/* ---- the evaluator (the row's build fills it; lay_eval runs it) --------- */

enum lay_kind {
    LAY_STRIDED,    /* CuTe leaves: offset + sum of coordinate x stride, then the swizzle */
    LAY_LINEAR      /* F2: coordinate bits XOR their element offsets (Triton, NVMMA) */
};

struct lay {
    const struct lay_form *form;    /* its row in the form table */
    int element_bits;               /* 8, 16, 32 or 64 */
    int rank;                       /* 1..LAY_MAX_RANK (shaped forms: 1..3) */
    uint32_t shape[LAY_MAX_RANK];   /* extent of each top-level mode */
    uint32_t size;                  /* product of shape, 1..LAY_MAX_SIZE */
    union {                         /* the form's attributes, as the text wrote them */
        struct lay_cute cute;
        struct lay_tma tma;
        struct lay_tlinear tlinear;
    } a;
    enum lay_kind kind;
    /* LAY_STRIDED: the flattened modes, colexicographic, and the offset (elements) */
    int nleaves;
    uint32_t leaf_shape[LAY_MAX_LEAVES], leaf_stride[LAY_MAX_LEAVES];
    uint32_t offset;
    /* the swizzle a strided layout applies (CuTe, TMA); NVMMA's is inside `fwd` */
    enum lay_domain domain;
    struct swz z;
    /* the pointer's low bits (mod 2^31) when a byte swizzle acts on the full
     * address (CuTe's swizzle_ptr): offset = Z(addr + x) - addr, x the plain
     * byte offset; 0 otherwise */
    uint32_t addr;
    /* LAY_LINEAR: `fwd` is the forward map of the 2D tile (linear_conv.c's
     * definitions) for lin element e = r * 2^bits1 + c; lin_base[d] is the lin
     * bit of dim d's bit 0, -1 for a dim dense past the tile */
    int lin_base[LAY_MAX_RANK];
    struct lin_tile tile;
    uint32_t fwd[LIN_MAX_BITS];
    /* padded_shared: after every pad_every[k] elements, pad_by[k] more (the
     * element offset e becomes e + sum of (e / pad_every[k]) * pad_by[k]) */
    int npad;
    uint32_t pad_every[4], pad_by[4];
};

/* ---- the form table: one row per layout form ------------------------------ */

struct cute_cur;    /* a cursor in the text (cute_text.h) */

struct lay_form {
    const char *name;       /* wire name: "cute", "triton_swizzled", ... */
    const char *label;      /* in messages: "CuTe", "Triton nvmma_shared", ... */
    /* The text that selects the row, after an optional `#alias =`; "#ttg."
     * also matches "#triton_gpu.".  NULL: the default row (CuTe). */
    const char *opener;
    int shaped;             /* 1: the request gives the shape; 0: the text carries it */
    /* Read the text after the opener into l->a (and, for a form that carries
     * its shape, l->shape/rank/size); errors through the cursor, naming
     * "layout" and its column, or "shape" / "element_bits". */
    int (*parse)(struct cute_cur *c, struct lay *l);
    /* Fill the evaluator from l->a and the shape (l->element_bits is final);
     * NULL when parse did.  Fails naming "shape" or "layout". */
    int (*build)(struct lay *l, struct sz_error *err);
    /* The Swizzle<B,M,S> on bytes this layout is (b = 0: none): 1, or 0 when
     * the form has no such form (lay_swizzles); NULL: never. */
    int (*swizzle)(const struct lay *l, struct swz *bytes);
};

/* The rows, in the order lay_parse tries them (layout_text.c's table). */
extern const struct lay_form lay_form_cute, lay_form_triton_swizzled, lay_form_triton_nvmma,
    lay_form_tma, lay_form_triton_linear, lay_form_triton_padded, lay_form_triton_rotating, lay_form_triton_shared,
    lay_form_triton_memdesc;
const struct lay_form *const *lay_forms(int *n);

/* Parse `text` (NUL-terminated, at most LAY_MAX_TEXT bytes).  `element_bits` is
 * 0 when the request did not say (then 16, or what the text says); `shape` and
 * `rank` are required for Triton and TMA and must be 0 for CuTe.  Text errors
 * name "layout" and say "at column N:"; others name "element_bits" or "shape". */
int lay_parse(const char *text, int element_bits, const uint32_t *shape, int rank,
              struct lay *l, struct sz_error *err);

/* CuTe's tile_to_shape(L, target) for the CuTe text `text` that l was parsed
 * from (target[d] a multiple of l->shape[d]; rank >= l->rank, a dim the
 * layout lacks counted as _1:_0): the same prefix (swizzle, pointer) over
 * each mode d tiled (mode_d, target_d / shape_d), as CuTe prints it, into
 * out (cap bytes).  Fails naming "shape" or "layout". */
int lay_cute_tile_to_shape(const char *text, const struct lay *l, const uint32_t *target,
                           int rank, char *out, size_t cap, struct sz_error *err);

/* For a row's build: the strided evaluator of a dense layout, the first
 * coordinate fastest (or the last, for a Triton row-major fallback). */
void lay_dense(struct lay *l, int last_fastest);

/* For a row's swizzle: the byte swizzle of a strided layout's `z` and `domain`. */
int lay_strided_swizzle(const struct lay *l, struct swz *bytes);

/* Byte offsets of every index i in 0..l->size-1 into out[i] (colexicographic:
 * for shape [A, B], i = a + A*b).  Never fails once lay_parse succeeded. */
void lay_eval(const struct lay *l, uint32_t *out);

/* The index of a coordinate (each c[k] < shape[k]). */
uint32_t lay_index(const struct lay *l, const uint32_t *c);

/* The coordinate of index i (< l->size) into c[0..rank). */
void lay_coords(const struct lay *l, uint32_t i, uint32_t *c);

/* The swizzle on bytes and on elements that this layout applies (b = 0 when
 * none; *elements_ok = 0 when the byte swizzle splits an element).  Returns 1
 * when the layout has a Swizzle<B,M,S> form, 0 (Triton swizzled_shared) if not. */
int lay_swizzles(const struct lay *l, struct swz *bytes, struct swz *elems, int *elements_ok);


/* ---- sorted offsets: one-to-one, and the access check ------------------- */

/* Sort n offsets into `sorted` (tmp: n more words of scratch); LSD radix. */
void lay_sort(const uint32_t *in, uint32_t n, uint32_t *sorted, uint32_t *tmp);

/* Offsets shared by two coordinates: the number of sorted entries equal to
 * their predecessor; *dup is one such offset (UINT32_MAX when none). */
uint32_t lay_collisions(const uint32_t *sorted, uint32_t n, uint32_t *dup);

/* Is `off` one of the sorted offsets? */
int lay_has_offset(const uint32_t *sorted, uint32_t n, uint32_t off);

#endif
