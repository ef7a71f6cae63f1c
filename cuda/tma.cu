/* tma.cu - the TMA placement probe (tma.h): one box, encoded, copied and
 * found.  No host I/O, no report: probe.cu prints.  The kernel is sm_90's
 * (cp.async.bulk.tensor, mbarrier expect_tx); older targets get a trap. */
#include <cuda.h>
#include <cudaTypedefs.h>

#include <stdio.h>
#include <string.h>

#include "gpu.h"
#include "tma.h"

__global__ void tma_kernel(const __grid_constant__ CUtensorMap map, int dims, unsigned bytes,
                           unsigned *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ unsigned char raw[];
    __shared__ __align__(8) unsigned long long bar;
    unsigned base = (unsigned)__cvta_generic_to_shared(raw);
    unsigned pad = (1024u - (base & 1023u)) & 1023u;    /* the swizzle sees address bits 4-9 */
    unsigned *win = (unsigned *)(raw + pad);
    for (unsigned i = threadIdx.x; i < TMA_WINDOW / 4; i += blockDim.x)
        win[i] = 0xDEADBEEFu;
    unsigned dst = base + pad, b = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(b) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     :: "r"(b), "r"(bytes) : "memory");
        if (dims == 2)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3}], [%4];"
                         :: "r"(dst), "l"(&map), "r"(0), "r"(0), "r"(b) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5];"
                         :: "r"(dst), "l"(&map), "r"(0), "r"(0), "r"(0), "r"(b) : "memory");
    }
    asm volatile("{\n\t.reg .pred P1;\n\tTMA_WAIT:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0;\n\t"
                 "@!P1 bra TMA_WAIT;\n\t}" :: "r"(b) : "memory");
    __syncthreads();
    for (unsigned i = threadIdx.x; i < TMA_WINDOW / 4; i += blockDim.x)
        out[i] = win[i];
#else
    (void)map, (void)dims, (void)bytes, (void)out;
    __trap();
#endif
}

int tma_check(const struct tma_request *q, const char **field, char *msg, size_t cap)
{
    uint32_t inner = q->box[0] * (uint32_t)q->elem_bytes;
    *field = "shape";
    if (q->swizzle_bytes != 0 && q->swizzle_bytes != 32 && q->swizzle_bytes != 64 &&
        q->swizzle_bytes != 128)
        return *field = "layout", snprintf(msg, cap, "the probe runs NONE, 32B, 64B and 128B"), -1;
    if (q->elem_bytes != 1 && q->elem_bytes != 2 && q->elem_bytes != 4 && q->elem_bytes != 8)
        return *field = "element_bits", snprintf(msg, cap, "elements of 1, 2, 4 or 8 bytes"), -1;
    if (q->rank < 2 || q->rank > 3)
        return snprintf(msg, cap, "the probe copies 2-D and 3-D boxes"), -1;
    if (inner % 16 || inner == 0 || inner > TMA_ROW_BYTES / 2)
        return snprintf(msg, cap, "the box's inner extent must be a multiple of 16 bytes up to "
                        "%d (got %u)", TMA_ROW_BYTES / 2, inner), -1;
    if (q->box[1] < 1 || q->box[1] > 256 || q->box[2] < 1 || q->box[2] > TMA_PLANES)
        return snprintf(msg, cap, "rows 1..256 and planes 1..%d (the probe's tensor)",
                        TMA_PLANES), -1;
    /* the span a padded box row takes, times rows and planes, fits half the window */
    uint32_t row = q->swizzle_bytes && inner < (uint32_t)q->swizzle_bytes ?
                   (uint32_t)q->swizzle_bytes : inner;
    if ((uint64_t)row * q->box[1] * q->box[2] > TMA_WINDOW / 2)
        return snprintf(msg, cap, "the box takes more than %d bytes of shared memory",
                        TMA_WINDOW / 2), -1;
    return 0;
}

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                              const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                              const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
typedef CUresult (*errname_fn)(CUresult, const char **);

#define TRY(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { rc = e_; goto done; } } while (0)

cudaError_t tma_place(const struct tma_request *q, double timeout_s, struct tma_result *r)
{
    memset(r, 0, sizeof *r);
    void *enc = NULL, *nm = NULL;
    cudaDriverEntryPointQueryResult qr;
    cudaError_t rc = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &enc, 12000,
                                                      cudaEnableDefault, &qr);
    if (rc != cudaSuccess || enc == NULL)
        return rc != cudaSuccess ? rc : cudaErrorSymbolNotFound;
    cudaGetDriverEntryPointByVersion("cuGetErrorName", &nm, 12000, cudaEnableDefault, &qr);

    const size_t gbytes = (size_t)TMA_ROW_BYTES * TMA_ROWS * TMA_PLANES;
    unsigned *host = (unsigned *)malloc(gbytes), *win = (unsigned *)malloc(TMA_WINDOW);
    unsigned *g = NULL, *out = NULL;
    cudaEvent_t done = NULL;
    rc = cudaSuccess;
    if (!host || !win) {
        rc = cudaErrorMemoryAllocation;
        goto done;
    }
    for (size_t c = 0; c < gbytes / 16; c++) {  /* chunk c carries its index 4 ways */
        host[c * 4 + 0] = (unsigned)c;
        host[c * 4 + 1] = ~(unsigned)c;
        host[c * 4 + 2] = 0x7A6D0000u ^ (unsigned)c;
        host[c * 4 + 3] = (unsigned)c * 2654435761u;
    }
    TRY(cudaMalloc(&g, gbytes));
    TRY(cudaMalloc(&out, TMA_WINDOW));
    TRY(cudaMemcpy(g, host, gbytes, cudaMemcpyHostToDevice));
    {
        const int e = q->elem_bytes;
        CUtensorMapDataType dt = e == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                 : e == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                 : e == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32
                                          : CU_TENSOR_MAP_DATA_TYPE_UINT64;
        CUtensorMapSwizzle sw = q->swizzle_enum >= 0 ? (CUtensorMapSwizzle)q->swizzle_enum
                                : q->swizzle_bytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                : q->swizzle_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                : q->swizzle_bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                                          : CU_TENSOR_MAP_SWIZZLE_NONE;
        cuuint64_t gdim[3] = {(cuuint64_t)(TMA_ROW_BYTES / e), TMA_ROWS, TMA_PLANES};
        cuuint64_t gstride[2] = {TMA_ROW_BYTES, (cuuint64_t)TMA_ROW_BYTES * TMA_ROWS};
        cuuint32_t box[3] = {q->box[0], q->box[1], q->rank == 3 ? q->box[2] : 1};
        cuuint32_t estride[3] = {1, 1, 1};
        CUtensorMap map;
        memset(&map, 0, sizeof map);
        CUresult cr = ((encode_fn)enc)(&map, dt, (cuuint32_t)q->rank, g, gdim, gstride, box,
                                       estride, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                                       CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        const char *name = NULL;
        if (nm)
            ((errname_fn)nm)(cr, &name);
        r->encode = (int)cr;
        snprintf(r->encode_name, sizeof r->encode_name, "%s", name ? name : "?");
        const int cpr = (int)(q->box[0] * (uint32_t)e / 16);
        const int planes = q->rank == 3 ? (int)q->box[2] : 1;
        r->nchunks = cpr * (int)q->box[1] * planes;
        if (cr != CUDA_SUCCESS)
            goto done;
        unsigned bytes = (unsigned)(q->box[0] * (uint32_t)e * q->box[1] * (uint32_t)planes);
        TRY(cudaFuncSetAttribute(tma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 TMA_WINDOW + 1024));
        TRY(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
        tma_kernel<<<1, 128, TMA_WINDOW + 1024>>>(map, q->rank, bytes, out);
        TRY(cudaGetLastError());
        TRY(cudaEventRecord(done));
        TRY(gpu_wait(done, timeout_s));
        TRY(cudaMemcpy(win, out, TMA_WINDOW, cudaMemcpyDeviceToHost));
        for (int i = 0; i < r->nchunks; i++)
            r->slots[i] = -1;
        for (int s = 0; s < TMA_WINDOW / 16; s++) {
            const unsigned *w = &win[s * 4];
            unsigned c = w[0];
            if (w[1] != ~c || w[2] != (0x7A6D0000u ^ c) || w[3] != c * 2654435761u)
                continue;
            r->written++;
            unsigned z = c / (TMA_ROW_BYTES * TMA_ROWS / 16), y = c / (TMA_ROW_BYTES / 16) % TMA_ROWS,
                     x = c % (TMA_ROW_BYTES / 16);
            if ((int)z < planes && y < q->box[1] && (int)x < cpr)
                r->slots[((size_t)z * q->box[1] + y) * (size_t)cpr + x] = s;
        }
    }
done:
    if (done)
        cudaEventDestroy(done);
    cudaFree(g);
    cudaFree(out);
    free(host);
    free(win);
    return rc;
}
