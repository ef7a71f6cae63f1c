/* presets.c - the named swizzles and their hardware modes (presets.h).
 * Every row is cited; a swizzle no source names has no row, so the page
 * shows "software addressing only" rather than a guessed mode.
 * Pure core: no I/O, no allocation. */
#include "presets.h"

/* Sources:
 * - TMA: CUDA driver API CUtensorMapSwizzle (the 128B_ATOM_* modes since
 *   CUDA 12.8), and CuTe's Swizzle -> TMA map (cute/atom/
 *   copy_traits_sm90_tma_swizzle.hpp get_tma_swizzle_bits / _base with
 *   cute/arch/copy_sm90_desc.hpp to_CUtensorMapSwizzle): M == 4 gives
 *   NONE/32B/64B/128B by B; <2,5,2> gives B128 + SWIZZLE_BASE_32B =
 *   CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B.
 * - CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B has no row: CuTe reaches it only from
 *   Swizzle<2,6,S> with S unchecked (get_tma_swizzle_bits asserts B == 2 for
 *   M == 6), not from <1,6,1>; no CuTe layout atom uses it; and no GPU here
 *   can show which map it is: on an H100 (driver 13.0) cuTensorMapEncodeTiled
 *   refuses all three 128B_ATOM_* modes (CUDA_ERROR_INVALID_VALUE, a 32 x 8
 *   u32 box of 128-byte rows) while the same box under 32B / 64B / 128B lands
 *   as <1,4,3> / <2,4,3> / <3,4,3> (2026-11-24).  The ATOM_32B row rests on
 *   CuTe's map alone, for the same reason; its tma_status says so.  The H200
 *   (same driver, same day) refused them too (tests/data/tma_placement_*.json: encode 1, CUDA_ERROR_INVALID_VALUE,
 *   on every 128B_ATOM_* configuration).
 * - GMMA: cute/arch/mma_sm90_desc.hpp GMMA::LayoutType and
 *   cute/atom/mma_traits_sm90_gmma.hpp Layout_K_SW*_Atom.
 * - UMMA: cute/arch/mma_sm100_desc.hpp UMMA::LayoutType; the words are the
 *   PTX ISA's tcgen05 shared-memory descriptor "swizzling mode" field. */
const struct preset presets[] = {
    {"none", "None", 0, 4, 3, "CU_TENSOR_MAP_SWIZZLE_NONE", NULL, 0,
     0, "INTERLEAVE", "Layout_K_INTER_Atom", 0, "SWIZZLE_NONE", "no swizzling",
     "measured on sm_90 (H100, H200, driver 580.159.04, 2026-11-24): every box lands where /api/layout's tma: form says (tests/data/tma_placement_*.json)", 0},
    {"32B", "32B", 1, 4, 3, "CU_TENSOR_MAP_SWIZZLE_32B", NULL, 32,
     3, "B32", "Layout_K_SW32_Atom", 6, "SWIZZLE_32B", "32-byte swizzling",
     "measured on sm_90 (H100, H200, driver 580.159.04, 2026-11-24): every box lands where /api/layout's tma: form says (tests/data/tma_placement_*.json)", 32},
    {"64B", "64B", 2, 4, 3, "CU_TENSOR_MAP_SWIZZLE_64B", NULL, 64,
     2, "B64", "Layout_K_SW64_Atom", 4, "SWIZZLE_64B", "64-byte swizzling",
     "measured on sm_90 (H100, H200, driver 580.159.04, 2026-11-24): every box lands where /api/layout's tma: form says (tests/data/tma_placement_*.json)", 64},
    {"128B", "128B", 3, 4, 3, "CU_TENSOR_MAP_SWIZZLE_128B", NULL, 128,
     1, "B128", "Layout_K_SW128_Atom", 2, "SWIZZLE_128B", "128-byte swizzling",
     "measured on sm_90 (H100, H200, driver 580.159.04, 2026-11-24): every box lands where /api/layout's tma: form says (tests/data/tma_placement_*.json)", 128},
    {"128B-32Bunit", "128B, 32B unit", 2, 5, 2, "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", "12.8",
     -1, -1, NULL, NULL, 1, "SWIZZLE_128B_BASE32B",
     "128-byte with 32-byte atomic swizzling",
     "the driver refuses it on sm_90 (measured, H100/H200, driver 580.159.04, 2026-11-24)", 128},
};
const size_t presets_count = sizeof presets / sizeof presets[0];

const struct preset *presets_find(int b, int m, int s)
{
    for (size_t i = 0; i < presets_count; i++) {
        const struct preset *p = &presets[i];
        if (p->b == b && (b == 0 || (p->m == m && p->s == s)))
            return p;
    }
    return NULL;
}

static const struct preset *find_mode(int which, int v)
{
    for (size_t i = 0; i < presets_count; i++) {
        const struct preset *p = &presets[i];
        if ((which == 0 ? p->tma_span : which == 1 ? p->gmma : p->umma) == v && v >= 0)
            return p;
    }
    return NULL;
}

const struct preset *presets_tma(int span) { return find_mode(0, span); }
const struct preset *presets_gmma(int t) { return find_mode(1, t); }
const struct preset *presets_umma(int t) { return find_mode(2, t); }
