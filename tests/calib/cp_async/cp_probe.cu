// cp_probe.cu: times and counts cp.async (LDGSTS) warp instructions, issue 23
// part 3.  stdin: patterns.txt lines (name bytes cache s0..s31 g0..g31, -1 = lane
// idle); argv[1] iters, argv[2] warps, argv[3] where the global lines are when the
// copies issue (default cold), argv[4] 1 = every (warp, iteration) copies from a
// region of its own, 512 KiB apart (default 0: all from the same lines).  Each
// iteration: 8 cp.async per lane, shared offsets 4 KB apart (same banks), global
// offsets 64 KB apart (other lines), then commit + wait_all.  Prints
// name,cycles per cp.async.  States (ncu --cache-control all flushes L1 and L2
// before the launch; the prefetch runs in the same launch, before the copies):
//   cold  no prefetch: every line comes from DRAM (tests/data/cp_async_*.json);
//   l2    each lane first reads its copies' exact bytes with ld.global.cg (L2,
//         not L1), waits for them, then copies: L2 hits, L1 misses;
//   l1    the same with ld.global.ca: the lines are in L1 (and L2).
// It must not model anything: the numbers go to tests/data through collect.py.
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o cp_probe cp_probe.cu
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

struct Args {
    int soff[32], goff[32];
    int iters, distinct;
    const unsigned char *src;
    long long *t0, *t1;
    unsigned *sink;
};

// One region per (warp, iteration) when distinct: 8 copies 64 KiB apart plus
// the pattern's 8 KiB of offsets fit in 512 KiB.
#define REGION (512u << 10)
#define MAX_REGIONS 64

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

// The prefetch: the copy's own bytes, through L2 only (PF 1, ld.global.cg) or
// into L1 as well (PF 2, ld.global.ca); the caller waits on the value.
#define PF_LOADS(Q) \
    if constexpr (B == 4) \
        asm volatile("ld.global." Q ".u32 %0, [%1];" : "=r"(x) : "l"(g) : "memory"); \
    else if constexpr (B == 8) \
        asm volatile("ld.global." Q ".v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "l"(g) : "memory"); \
    else \
        asm volatile("ld.global." Q ".v4.u32 {%0, %1, %2, %3}, [%4];" \
                     : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(g) : "memory")
template <int B, int PF>
__device__ __forceinline__ unsigned pf1(const unsigned char *g)
{
    unsigned x = 0, y = 0, z = 0, w = 0;
    if constexpr (PF == 1) {
        PF_LOADS("cg");
    } else {
        PF_LOADS("ca");
    }
    return x ^ y ^ z ^ w;
}
#undef PF_LOADS

template <int B, bool CG, int PF>
__global__ void __launch_bounds__(512, 1) cp_kernel(Args a)
{
    extern __shared__ __align__(128) unsigned char smem[];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    const bool on = a.soff[lane] >= 0;
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem) + (on ? a.soff[lane] : 0);
    const unsigned char *g = a.src + (on ? a.goff[lane] : 0);
    const unsigned step = a.distinct ? REGION : 0u;
    const unsigned char *gw = g + (size_t)warp * a.iters * step;
    if constexpr (PF != 0) {
        unsigned acc = 0;
        if (on)
            for (int i = 0; i < a.iters; i++)
#pragma unroll
                for (int k = 0; k < 8; k++)
                    acc ^= pf1<B, PF>(gw + (size_t)i * step + k * 65536);
        if (acc == 0x9e3779b9u)        // never true (the buffer holds 0x07 bytes): the wait
            a.sink[threadIdx.x] = acc;
    }
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < a.iters; i++) {
        if (on) {
#pragma unroll
            for (int k = 0; k < 8; k++)
                cp1<B, CG>(s + k * 4096, gw + (size_t)i * step + k * 65536);
        }
        asm volatile("cp.async.commit_group;\n\tcp.async.wait_all;" ::: "memory");
    }
    long long t1 = clock64();
    __syncthreads();
    if (lane == 0) { a.t0[warp] = t0; a.t1[warp] = t1; }
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: cp_probe ITERS WARPS [cold|l2|l1] [DISTINCT]\n"); return 2; }
    int iters = atoi(argv[1]), warps = atoi(argv[2]);
    const char *state = argc > 3 ? argv[3] : "cold";
    int pf = !strcmp(state, "cold") ? 0 : !strcmp(state, "l2") ? 1 : !strcmp(state, "l1") ? 2 : -1;
    int distinct = argc > 4 ? atoi(argv[4]) : 0;
    if (pf < 0 || iters < 1 || warps < 1 || warps > 16 || (distinct && warps * iters > MAX_REGIONS)) {
        fprintf(stderr, "cp_probe: bad state, iters or warps\n"); return 2;
    }
    long long *t0, *t1;
    unsigned *sink;
    unsigned char *src;
    const size_t bytes = distinct ? (size_t)MAX_REGIONS * REGION : (size_t)1 << 20;
    CK(cudaMalloc(&t0, 64 * 8)); CK(cudaMalloc(&t1, 64 * 8)); CK(cudaMalloc(&sink, 512 * 4));
    CK(cudaMalloc(&src, bytes)); CK(cudaMemset(src, 7, bytes));
    void (*all[3][4])(Args) = {
        {cp_kernel<4, false, 0>, cp_kernel<8, false, 0>, cp_kernel<16, false, 0>, cp_kernel<16, true, 0>},
        {cp_kernel<4, false, 1>, cp_kernel<8, false, 1>, cp_kernel<16, false, 1>, cp_kernel<16, true, 1>},
        {cp_kernel<4, false, 2>, cp_kernel<8, false, 2>, cp_kernel<16, false, 2>, cp_kernel<16, true, 2>}};
    void (**ks)(Args) = all[pf];
    for (int i = 0; i < 4; i++)
        CK(cudaFuncSetAttribute(ks[i], cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    char name[160], cache[8];
    int b;
    Args a;
    while (scanf("%159s %d %7s", name, &b, cache) == 3) {
        for (int t = 0; t < 32; t++) if (scanf("%d", &a.soff[t]) != 1) return 3;
        for (int t = 0; t < 32; t++) if (scanf("%d", &a.goff[t]) != 1) return 3;
        a.iters = iters; a.distinct = distinct; a.src = src; a.t0 = t0; a.t1 = t1; a.sink = sink;
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
