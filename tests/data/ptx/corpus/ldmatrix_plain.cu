// ldmatrix_plain: a 64x64 fp16 tile, rows of 128 B, filled with 16-byte stores and read
// with ldmatrix.x4 (inline PTX): the 8 rows of each matrix share banks, 8 wavefronts a phase.
#include <cuda_fp16.h>
__global__ void ldmatrix_plain(unsigned *out)
{
    __shared__ __align__(128) half tile[64 * 64];
    unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
    for (unsigned c = t; c < 64 * 64 / 8; c += blockDim.x)        /* 16-byte chunks */
        reinterpret_cast<uint4 *>(tile)[c] = make_uint4(c, c + 1, c + 2, c + 3);
    __syncthreads();
    unsigned r[4], acc = 0;
    for (unsigned k = 0; k < 64; k += 16) {
        /* lane l gives row (l % 16) of the warp's 16-row band, column block k + 8 * (l / 16) */
        unsigned row = warp * 16 + (lane & 15), col = k + 8 * (lane >> 4);
        unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[row * 64 + col]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
        acc += r[0] ^ r[1] ^ r[2] ^ r[3];
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
