/* pattern.c - the named access patterns: logical offsets per lane and step,
 * then the swizzle.  Pure; no I/O, no allocation.  Each pattern's comment
 * gives the kernel idiom (or seed) it stands for. */
#include "pattern.h"

#include <string.h>

static const struct pattern_info patterns[] = {
    {"row_store", "st", "st.b32: the warp stores 128 consecutive bytes per step",
     "seed 001: the transpose's store, thread t holds column t"},
    {"col_read", "ld", "ld.b32: lane t reads word r of row t (a column walk)",
     "the classic column read that collides on row-major tiles"},
    {"transpose_read", "ld", "ld.b32: 16x32 transpose read, lanes 0-15 column 2r, 16-31 column 2r+1",
     "seed 001: thread t reads (m = t%16, n = 2r + t/16)"},
    {"row_load_32", "ld", "ld.b32: 32-bit vector row load, 128 bytes per step", "coalesced tile read"},
    {"row_load_64", "ld", "ld.v2.b32: 64-bit vector row load, 256 bytes per step", "float2 tile read"},
    {"row_load_128", "ld", "ld.v4.b32: 128-bit vector row load, 512 bytes per step",
     "float4 / uint4 tile read"},
    {"col_read_128", "ld", "ld.v4.b32: lane t reads 16-byte chunk r of row t",
     "a 16-byte column walk, as cp.async tile copies and epilogues do"},
    {"ldmatrix_x4", "ldmatrix", "ldmatrix.x4: four 8x8 b16 matrices side by side in 16-byte columns",
     "seed 004: the tensor-core fragment load"},
    {"stmatrix_x4", "stmatrix", "stmatrix.x4: the same four matrices stored", "Hopper epilogue store"},
};

const struct pattern_info *pattern_list(int *n)
{
    *n = (int)(sizeof patterns / sizeof patterns[0]);
    return patterns;
}

int pattern_fill(const char *name, const struct swz *z, uint32_t row_bytes, uint32_t rows,
                 uint32_t step, struct instr *in, uint32_t *steps,
                 struct sz_error *err)
{
    uint64_t tile = (uint64_t)row_bytes * rows;
    uint32_t off[INSTR_LANES];
    uint32_t R = 0;
    in->op = INSTR_LD;
    in->bytes = 4;
    in->matrices = 1;
    in->trans = 0;
    uint32_t row_w = strcmp(name, "row_store") == 0 || strcmp(name, "row_load_32") == 0 ? 4
                     : strcmp(name, "row_load_64") == 0                                 ? 8
                     : strcmp(name, "row_load_128") == 0                                ? 16
                                                                                        : 0;
    if (row_w) {
        uint32_t w = row_w;
        if (strcmp(name, "row_store") == 0)
            in->op = INSTR_ST;
        in->bytes = w;
        R = (uint32_t)(tile / (32u * w));
        for (uint32_t t = 0; t < INSTR_LANES; t++)
            off[t] = step * 32 * w + t * w;
    } else if (strcmp(name, "col_read") == 0 || strcmp(name, "col_read_128") == 0) {
        /* Fewer than 32 rows: the extra lanes re-read rows from the top, as a
         * kernel with a short tile would (they broadcast). */
        uint32_t w = name[8] ? 16 : 4;
        in->bytes = w;
        R = row_bytes / w;
        for (uint32_t t = 0; t < INSTR_LANES; t++)
            off[t] = (t % rows) * row_bytes + step * w;
    } else if (strcmp(name, "transpose_read") == 0) {
        if (rows < 16)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "rows",
                           "the transpose read walks 16 rows: use at least 16 grid rows");
        R = row_bytes / 8;
        for (uint32_t t = 0; t < INSTR_LANES; t++)
            off[t] = (t % 16) * row_bytes + 4 * (2 * step + t / 16);
    } else if (strcmp(name, "ldmatrix_x4") == 0 || strcmp(name, "stmatrix_x4") == 0) {
        if (rows < 8 || row_bytes < 64)
            return sz_fail(err, SZ_INVALID_ARGUMENT, "rows",
                           "four 8x8 b16 matrices need 8 rows of at least 64 bytes");
        in->op = name[0] == 'l' ? INSTR_LDMATRIX : INSTR_STMATRIX;
        in->bytes = 16;
        in->matrices = 4;
        uint32_t kblocks = row_bytes / 64;
        R = kblocks * (rows / 8);
        uint32_t kb = R ? step % kblocks : 0, rb = R ? step / kblocks : 0;
        for (uint32_t t = 0; t < INSTR_LANES; t++)
            off[t] = (8 * rb + t % 8) * row_bytes + 16 * (4 * kb + t / 8);
    } else {
        return sz_fail(err, SZ_INVALID_ARGUMENT, "pattern",
                       "unknown pattern: see GET /api/patterns for the list");
    }
    if (R == 0)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "rows",
                       "the tile (%u rows of %u bytes) is too small for one step of %s",
                       rows, row_bytes, name);
    if (step >= R)
        return sz_fail(err, SZ_INVALID_ARGUMENT, "step",
                       "must be in 0..%u for %s on this tile, got %u", R - 1, name, step);
    for (uint32_t t = 0; t < INSTR_LANES; t++)
        in->offsets[t] = swz_apply(z, off[t]);
    *steps = R;
    return 0;
}
