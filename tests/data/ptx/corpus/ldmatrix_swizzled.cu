// ldmatrix_swizzled: the same feed as ldmatrix_plain with the tile's 16-byte chunks
// XOR-swizzled by row (chunk c of row r at c ^ (r % 8), CuTe's Swizzle<3,3,3> on halves):
// the 8 rows of each matrix land in 8 different bank groups, 1 wavefront a phase.
#include <cuda_fp16.h>
__device__ __forceinline__ unsigned swz(unsigned row, unsigned col)   /* in halves */
{
    return row * 64 + ((((col >> 3) ^ (row & 7)) << 3) | (col & 7));
}
__global__ void ldmatrix_swizzled(unsigned *out)
{
    __shared__ __align__(128) half tile[64 * 64];
    unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
    for (unsigned c = t; c < 64 * 64 / 8; c += blockDim.x) {
        unsigned row = c / 8, col = (c % 8) * 8;
        *reinterpret_cast<uint4 *>(&tile[swz(row, col)]) = make_uint4(c, c + 1, c + 2, c + 3);
    }
    __syncthreads();
    unsigned r[4], acc = 0;
    for (unsigned k = 0; k < 64; k += 16) {
        unsigned row = warp * 16 + (lane & 15), col = k + 8 * (lane >> 4);
        unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[swz(row, col)]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
        acc += r[0] ^ r[1] ^ r[2] ^ r[3];
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
