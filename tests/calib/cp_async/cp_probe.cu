// cp_probe.cu: times and counts cp.async (LDGSTS) warp instructions, issue 23
// part 3.  stdin: patterns.txt lines (name bytes cache s0..s31 g0..g31, -1 = lane
// idle); argv[1] iters, argv[2] warps.  Each iteration: 8 cp.async per lane,
// shared offsets 4 KB apart (same banks), global offsets 64 KB apart (other
// lines), then commit + wait_all.  Prints name,cycles per cp.async.
// It must not model anything: the numbers go to tests/data through collect.py.
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o cp_probe cp_probe.cu
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

struct Args {
    int soff[32], goff[32];
    int iters;
    const unsigned char *src;
    long long *t0, *t1;
};

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(4); } } while (0)

template <int B, bool CG>
__device__ __forceinline__ void cp1(unsigned s, const unsigned char *g)
{
    if constexpr (CG)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" :: "r"(s), "l"(g), "n"(B) : "memory");
}

template <int B, bool CG>
__global__ void __launch_bounds__(512, 1) cp_kernel(Args a)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const bool on = a.soff[lane] >= 0;
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem) + (on ? a.soff[lane] : 0);
    const unsigned char *g = a.src + (on ? a.goff[lane] : 0);
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < a.iters; i++) {
        if (on) {
#pragma unroll
            for (int k = 0; k < 8; k++)
                cp1<B, CG>(s + k * 4096, g + k * 65536);
        }
        asm volatile("cp.async.commit_group;\n\tcp.async.wait_all;" ::: "memory");
    }
    long long t1 = clock64();
    __syncthreads();
    if (lane == 0) { a.t0[warp] = t0; a.t1[warp] = t1; }
}

int main(int argc, char **argv)
{
    int iters = atoi(argv[1]), warps = atoi(argv[2]);
    long long *t0, *t1;
    unsigned char *src;
    CK(cudaMalloc(&t0, 64 * 8)); CK(cudaMalloc(&t1, 64 * 8));
    CK(cudaMalloc(&src, 1 << 20)); CK(cudaMemset(src, 7, 1 << 20));
    void (*ks[4])(Args) = {cp_kernel<4, false>, cp_kernel<8, false>, cp_kernel<16, false>,
                           cp_kernel<16, true>};
    for (int i = 0; i < 4; i++)
        CK(cudaFuncSetAttribute(ks[i], cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    char name[160], cache[8];
    int b;
    Args a;
    while (scanf("%159s %d %7s", name, &b, cache) == 3) {
        for (int t = 0; t < 32; t++) if (scanf("%d", &a.soff[t]) != 1) return 3;
        for (int t = 0; t < 32; t++) if (scanf("%d", &a.goff[t]) != 1) return 3;
        a.iters = iters; a.src = src; a.t0 = t0; a.t1 = t1;
        int k = strcmp(cache, "cg") == 0 ? 3 : b == 4 ? 0 : b == 8 ? 1 : 2;
        double best = 1e30;
        for (int rep = 0; rep < (iters > 8 ? 3 : 1); rep++) {
            ks[k]<<<1, warps * 32, 64 * 1024>>>(a);
            CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            long long h0[64], h1[64];
            CK(cudaMemcpy(h0, t0, warps * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h1, t1, warps * 8, cudaMemcpyDeviceToHost));
            long long mn = h0[0], mx = h1[0];
            for (int w = 0; w < warps; w++) { if (h0[w] < mn) mn = h0[w]; if (h1[w] > mx) mx = h1[w]; }
            double c = (double)(mx - mn) / ((double)warps * iters * 8);
            if (c < best) best = c;
        }
        printf("%s,%.4f\n", name, best);
        fflush(stdout);
    }
    return 0;
}
