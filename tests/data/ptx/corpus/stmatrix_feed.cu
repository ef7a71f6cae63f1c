// stmatrix_feed: a warp's 16x16 fp16 accumulator fragment stored with stmatrix.x4 (inline PTX)
// into a tile of 128-byte rows, once plainly (8-way) and once XOR-swizzled (conflict-free),
// then read back as 16-byte rows so that nothing is dead.
#include <cuda_fp16.h>
__global__ void stmatrix_feed(uint4 *out)
{
    __shared__ __align__(128) half plain[64 * 64];
    __shared__ __align__(128) half swz[64 * 64];
    unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
    unsigned v0 = t, v1 = t * 3u, v2 = t * 5u, v3 = t * 7u;
    for (unsigned k = 0; k < 64; k += 16) {
        unsigned row = warp * 16 + (lane & 15), col = k + 8 * (lane >> 4);
        unsigned a = (unsigned)__cvta_generic_to_shared(&plain[row * 64 + col]);
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                     :: "r"(a), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
        unsigned sc = ((col >> 3) ^ (row & 7)) << 3;
        unsigned b = (unsigned)__cvta_generic_to_shared(&swz[row * 64 + sc]);
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                     :: "r"(b), "r"(v3), "r"(v2), "r"(v1), "r"(v0) : "memory");
    }
    __syncthreads();
    uint4 p = reinterpret_cast<uint4 *>(plain)[t];
    uint4 s = reinterpret_cast<uint4 *>(swz)[t];
    out[blockIdx.x * blockDim.x + t] = make_uint4(p.x ^ s.x, p.y ^ s.y, p.z ^ s.z, p.w ^ s.w);
}
