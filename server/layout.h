/* layout.h - a tensor layout as users' compilers print it (CuTe layout text,
 * Triton #ttg.swizzled_shared / #ttg.nvmma_shared over a shape, a dense TMA
 * box with a CU_TENSOR_MAP_SWIZZLE_* mode): parse it, then evaluate it as a
 * function coordinate -> byte offset, the first coordinate fastest.
 * Pure core: no I/O, no allocation, no JSON; callers own every buffer. */
#ifndef SZ_LAYOUT_H
#define SZ_LAYOUT_H

#include <stdint.h>

#include "error.h"
#include "linear.h"
#include "swizzle.h"

#define LAY_MAX_RANK 3
#define LAY_MAX_LEAVES 16           /* flattened modes of a CuTe layout */
#define LAY_MAX_DEPTH 6             /* tuple nesting of a CuTe layout */
#define LAY_MAX_SIZE (1u << 20)     /* elements: DESIGN.md sec. 5's million cells */
#define LAY_MAX_TEXT 1024           /* bytes of layout text */

enum lay_form {
    LAY_CUTE,               /* CuTe text: [swizzle o offset o] shape:stride */
    LAY_TRITON_SWIZZLED,    /* #ttg.swizzled_shared<{vec, perPhase, maxPhase, order}> */
    LAY_TRITON_NVMMA,       /* #ttg.nvmma_shared<{swizzlingByteWidth, transposed, ...}> */
    LAY_TMA                 /* tma:CU_TENSOR_MAP_SWIZZLE_* over a dense box */
};

/* Where a swizzle acts.  CuTe's `Sw<B,M,S> o _0 o L` acts on L's codomain, in
 * elements; `Sw<B,M,S> o smem_ptr[Nb](unset) o L` on the byte address (CuTe,
 * pointer_flagged.hpp: as_position_independent_swizzle_layout recasts it from
 * uint8_t to the element); TMA and NVMMA modes act on bytes. */
enum lay_domain { LAY_SWZ_NONE, LAY_SWZ_ELEMENTS, LAY_SWZ_BYTES };

struct lay {
    enum lay_form form;
    int element_bits;               /* 8, 16, 32 or 64 */
    int rank;                       /* 1..3 */
    uint32_t shape[LAY_MAX_RANK];   /* extent of each top-level mode */
    uint32_t size;                  /* product of shape, 1..LAY_MAX_SIZE */
    /* CuTe: the flattened modes, colexicographic, and the offset (elements) */
    int nleaves;
    uint32_t leaf_shape[LAY_MAX_LEAVES], leaf_stride[LAY_MAX_LEAVES];
    uint32_t offset;
    /* the swizzle, for CuTe and TMA (NVMMA's is inside `fwd`) */
    enum lay_domain domain;
    struct swz z;
    int swz_col;                    /* 1-based column of the swizzle in the text, or 0 */
    /* Triton: attributes as written; `fwd` is the forward map of the 2D tile
     * (linear_conv.c's definitions) for lin element e = r * 2^bits1 + c */
    int vec, per_phase, max_phase, order[LAY_MAX_RANK];
    int swizzle_bytes, transposed;  /* NVMMA and TMA: 0, 32, 64 or 128 */
    int row_dim, col_dim;           /* Triton: the tile's row and (contiguous) column dims */
    int lin_base[LAY_MAX_RANK];     /* lin bit of each dim's bit 0; -1: dense past the tile */
    struct lin_tile tile;
    uint32_t fwd[LIN_MAX_BITS];
    uint32_t tile_elems;
};

/* Parse `text` (NUL-terminated, at most LAY_MAX_TEXT bytes).  `element_bits` is
 * 0 when the request did not say (then 16, or what the text says); `shape` and
 * `rank` are required for Triton and TMA and must be 0 for CuTe.  Text errors
 * name "layout" and say "at column N:"; others name "element_bits" or "shape". */
int lay_parse(const char *text, int element_bits, const uint32_t *shape, int rank,
              struct lay *l, struct sz_error *err);

/* After the text set the form, shape and attributes of a Triton or TMA layout
 * (layout_text.c), derive its evaluator; fails naming "shape" or "layout". */
int lay_build(struct lay *l, struct sz_error *err);

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

/* The form's wire name: "cute", "triton_swizzled", "triton_nvmma", "tma". */
const char *lay_form_name(enum lay_form f);

/* ---- sorted offsets: one-to-one, and the access check ------------------- */

/* Sort n offsets into `sorted` (tmp: n more words of scratch); LSD radix. */
void lay_sort(const uint32_t *in, uint32_t n, uint32_t *sorted, uint32_t *tmp);

/* Offsets shared by two coordinates: the number of sorted entries equal to
 * their predecessor; *dup is one such offset (UINT32_MAX when none). */
uint32_t lay_collisions(const uint32_t *sorted, uint32_t n, uint32_t *dup);

/* Is `off` one of the sorted offsets? */
int lay_has_offset(const uint32_t *sorted, uint32_t n, uint32_t off);

#endif
