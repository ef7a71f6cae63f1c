/* verify.cu: the layout round trip of verify.h. One block per preset swizzle
 * writes a 16 KiB tile of distinct 32-bit values into shared memory at
 * swizzled addresses, reads every element back through the same swizzle and
 * copies the raw (physical) tile out. It must use the server's address
 * formula (swz_apply_masked, server/model/swizzle.h) and no other, so that what is
 * proven is the formula the pages draw. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/swizzle.h"
#include "gpu.h"
#include "verify.h"

enum { TILE_BYTES = 16384, TILE_ELEMS = TILE_BYTES / 4, VERIFY_THREADS = 512 };

/* none, 32B, 64B, 128B, and 128B with a 32-byte unit: GET /api/presets. */
static const int presets[VERIFY_PRESETS][3] = {{0, 4, 3}, {1, 4, 3}, {2, 4, 3}, {3, 4, 3}, {2, 5, 2}};

#define SENTINEL 0xffffffffu

/* YYY mask of Swizzle<b,m,s> (swz_init's: (2^B - 1) << (M + max(0,S))). */
static uint32_t yyy_mask(int b, int m, int s)
{
    return ((1u << b) - 1u) << (m + (s > 0 ? s : 0));
}

/* Element i's value: distinct within a tile and across presets, never SENTINEL. */
__host__ __device__ static inline uint32_t tag(int preset, uint32_t i)
{
    return (uint32_t)(preset + 1) << 24 | i;
}

__global__ void verify_kernel(const uint32_t *yyy, const int *shift, uint32_t *image,
                              unsigned long long *bad)
{
    extern __shared__ __align__(16) uint32_t tile[];
    const int p = blockIdx.x;
    const uint32_t msk = yyy[p];
    const int s = shift[p];
    for (uint32_t i = threadIdx.x; i < TILE_ELEMS; i += blockDim.x)
        tile[i] = SENTINEL;
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < TILE_ELEMS; i += blockDim.x)
        tile[swz_apply_masked(i * 4u, msk, s) / 4u] = tag(p, i);
    __syncthreads();
    unsigned long long n = 0;
    for (uint32_t i = threadIdx.x; i < TILE_ELEMS; i += blockDim.x)
        n += tile[swz_apply_masked(i * 4u, msk, s) / 4u] != tag(p, i);
    if (n)
        atomicAdd(&bad[p], n);
    for (uint32_t i = threadIdx.x; i < TILE_ELEMS; i += blockDim.x)
        image[(size_t)p * TILE_ELEMS + i] = tile[i];
}

cudaError_t verify_presets(struct verify_result *r, double timeout_s)
{
    uint32_t h_yyy[VERIFY_PRESETS];
    int h_s[VERIFY_PRESETS];
    unsigned long long h_bad[VERIFY_PRESETS];
    uint32_t *d_yyy = NULL, *d_image = NULL;
    int *d_s = NULL;
    unsigned long long *d_bad = NULL;
    cudaEvent_t ev = NULL;
    uint32_t *image = (uint32_t *)malloc(sizeof(uint32_t) * TILE_ELEMS * VERIFY_PRESETS);
    cudaError_t e;

    memset(r, 0, sizeof *r);
    if (!image)
        return cudaErrorMemoryAllocation;
    for (int p = 0; p < VERIFY_PRESETS; p++) {
        h_yyy[p] = yyy_mask(presets[p][0], presets[p][1], presets[p][2]);
        h_s[p] = presets[p][2];
    }
#define TRY(call)                 \
    do {                          \
        if ((e = (call)) != cudaSuccess) \
            goto done;            \
    } while (0)
    TRY(cudaMalloc(&d_yyy, sizeof h_yyy));
    TRY(cudaMalloc(&d_s, sizeof h_s));
    TRY(cudaMalloc(&d_bad, sizeof h_bad));
    TRY(cudaMalloc(&d_image, sizeof(uint32_t) * TILE_ELEMS * VERIFY_PRESETS));
    TRY(cudaMemcpy(d_yyy, h_yyy, sizeof h_yyy, cudaMemcpyHostToDevice));
    TRY(cudaMemcpy(d_s, h_s, sizeof h_s, cudaMemcpyHostToDevice));
    TRY(cudaMemset(d_bad, 0, sizeof h_bad));
    TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    verify_kernel<<<VERIFY_PRESETS, VERIFY_THREADS, TILE_BYTES>>>(d_yyy, d_s, d_image, d_bad);
    TRY(cudaGetLastError());
    TRY(cudaEventRecord(ev));
    TRY(gpu_wait(ev, timeout_s));
    TRY(cudaMemcpy(h_bad, d_bad, sizeof h_bad, cudaMemcpyDeviceToHost));
    TRY(cudaMemcpy(image, d_image, sizeof(uint32_t) * TILE_ELEMS * VERIFY_PRESETS,
                   cudaMemcpyDeviceToHost));
#undef TRY

    /* The device's own read-back, then the physical image: element i must sit
     * at swz(i) as the host computes it, and every slot must have been
     * written (a slot left at SENTINEL means two elements collided). */
    r->count = VERIFY_PRESETS;
    for (int p = 0; p < VERIFY_PRESETS; p++) {
        const uint32_t *img = image + (size_t)p * TILE_ELEMS;
        long bad = (long)h_bad[p];
        for (uint32_t i = 0; i < TILE_ELEMS; i++) {
            if (img[swz_apply_masked(i * 4u, h_yyy[p], h_s[p]) / 4u] != tag(p, i))
                bad++;
            if (img[i] == SENTINEL)
                bad++;
        }
        snprintf(r->names[p], sizeof r->names[p], "Swizzle<%d,%d,%d>", presets[p][0],
                 presets[p][1], presets[p][2]);
        r->per[p] = bad;
        r->mismatches += bad;
        r->elements += TILE_ELEMS;
    }
    r->ok = r->mismatches == 0;
    e = cudaSuccess;
done:
    if (e == cudaErrorLaunchTimeout)
        return e; /* the kernel still runs: freeing would wait for it */
    if (ev)
        cudaEventDestroy(ev);
    cudaFree(d_yyy);
    cudaFree(d_s);
    cudaFree(d_bad);
    cudaFree(d_image);
    free(image);
    return e;
}
