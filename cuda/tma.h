/* tma.h - the measurement tool's TMA placement probe (tma.cu): encode a
 * tensor map for a box (cuTensorMapEncodeTiled, reached through the runtime's
 * driver entry point, so the tool links no libcuda), copy the box with
 * cp.async.bulk.tensor into 1024-byte-aligned shared memory filled with a
 * poison, and find where each tagged 16-byte chunk of the box landed.  The
 * method of tests/calib/tma/tma_probe.cu (tests/data/tma_placement_*).  It
 * models nothing: the prediction is the server's (layout_tma.c). */
#ifndef SZ_TMA_H
#define SZ_TMA_H

#include <cuda_runtime.h>
#include <stdint.h>

/* The global tensor every box is cut from (at coordinate 0): 512-byte rows,
 * 512 rows, 4 planes, every 16-byte chunk tagged with its own index. */
enum { TMA_ROW_BYTES = 512, TMA_ROWS = 512, TMA_PLANES = 4, TMA_WINDOW = 160 * 1024,
       TMA_MAX_CHUNKS = TMA_WINDOW / 2 / 16 };

struct tma_request {
    int swizzle_bytes;      /* 0 (NONE), 32, 64, 128 */
    int elem_bytes;         /* 1, 2, 4, 8 */
    int rank;               /* 2 or 3 */
    uint32_t box[3];        /* inner elements, rows, planes (1 when rank 2) */
    int swizzle_enum;       /* a CUtensorMapSwizzle value to encode instead of
                             * swizzle_bytes' mode, or -1 (the calibration sweep,
                             * tests/calib/tma, asks for the 128B_ATOM_* modes too) */
};

struct tma_result {
    int encode;             /* cuTensorMapEncodeTiled's CUresult (0: accepted) */
    char encode_name[64];   /* its name, "CUDA_SUCCESS", "CUDA_ERROR_INVALID_VALUE" */
    int written;            /* tagged chunks found anywhere in the window */
    int nchunks;            /* chunks of the box: inner bytes / 16 x rows x planes */
    int slots[TMA_MAX_CHUNKS];  /* box order (plane, row, chunk): shared offset / 16, -1 lost */
};

/* Check `q` against the probe's limits: 0, or -1 with `field` ("shape",
 * "element_bits", "layout") and a sentence in msg (cap bytes). */
int tma_check(const struct tma_request *q, const char **field, char *msg, size_t cap);

/* Place one box on device `dev` (cc >= 9.0: the caller checks): cudaSuccess
 * with *r filled (r->encode != 0: the driver refused the map, no copy ran),
 * or the CUDA error of the launch or the wait (`timeout_s` per kernel). */
cudaError_t tma_place(const struct tma_request *q, double timeout_s, struct tma_result *r);

#endif
