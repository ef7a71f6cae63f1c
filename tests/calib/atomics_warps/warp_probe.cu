/* warp_probe.cu - per-warp clock64 spans of the tool's atomic loop (cuda/kernels.cu's
 * atomic_kernel, guard none, the lane's value, 8 atomics 256 B apart an iteration,
 * atom folding its 8 results, red returning nothing) on one block of W warps, to see
 * how sub-partitions (warp % 4) share the pipe (issue 41, rule A14/A15).  It measures
 * only; it must not be read as the tool (the tool's own numbers come from
 * swizzlescope-measure).  Usage: warp_probe OP DEG W ITERS (OP atom|red, DEG 1|2|32:
 * lanes per 4-byte bank word spread over DEG wavefronts).  Prints one line per warp:
 * warp, start and end (cycles after the earliest start), and the launch's span. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>

template <bool Atom>
__global__ void __launch_bounds__(1024, 1) loop(const uint32_t *off, int iters, uint32_t seed,
                                                long long *t, uint32_t *sink)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t addr = (uint32_t)__cvta_generic_to_shared(smem) + off[lane];
    const uint32_t b = seed + lane;
    uint32_t acc = 0;
    __syncthreads();
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
        if constexpr (Atom) {
            uint32_t d0, d1, d2, d3, d4, d5, d6, d7;
            asm volatile("atom.shared.add.u32 %0, [%8+0], %9;\n\t"
                         "atom.shared.add.u32 %1, [%8+256], %9;\n\t"
                         "atom.shared.add.u32 %2, [%8+512], %9;\n\t"
                         "atom.shared.add.u32 %3, [%8+768], %9;\n\t"
                         "atom.shared.add.u32 %4, [%8+1024], %9;\n\t"
                         "atom.shared.add.u32 %5, [%8+1280], %9;\n\t"
                         "atom.shared.add.u32 %6, [%8+1536], %9;\n\t"
                         "atom.shared.add.u32 %7, [%8+1792], %9;"
                         : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3), "=r"(d4), "=r"(d5), "=r"(d6),
                           "=r"(d7)
                         : "r"(addr), "r"(b) : "memory");
            acc ^= d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7;
        } else {
            asm volatile("red.shared.add.u32 [%0+0], %1;\n\t"
                         "red.shared.add.u32 [%0+256], %1;\n\t"
                         "red.shared.add.u32 [%0+512], %1;\n\t"
                         "red.shared.add.u32 [%0+768], %1;\n\t"
                         "red.shared.add.u32 [%0+1024], %1;\n\t"
                         "red.shared.add.u32 [%0+1280], %1;\n\t"
                         "red.shared.add.u32 [%0+1536], %1;\n\t"
                         "red.shared.add.u32 [%0+1792], %1;" :: "r"(addr), "r"(b) : "memory");
        }
    }
    const long long t1 = clock64();
    __syncthreads();
    if (lane == 0) {
        t[2 * (threadIdx.x >> 5)] = t0;
        t[2 * (threadIdx.x >> 5) + 1] = t1;
    }
    sink[threadIdx.x] = acc;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: warp_probe atom|red DEG W ITERS\n");
        return 2;
    }
    const bool atom = !strcmp(argv[1], "atom");
    const int deg = atoi(argv[2]), w = atoi(argv[3]), iters = atoi(argv[4]);
    if (deg < 1 || deg > 32 || 32 % deg || w < 1 || w > 32 || iters < 1) {
        fprintf(stderr, "DEG 1|2|4|8|16|32, W 1..32, ITERS >= 1\n");
        return 2;
    }
    uint32_t off[32];
    for (int l = 0; l < 32; l++)   /* lane l: bank l % (32/deg), row l / (32/deg) */
        off[l] = 4u * (uint32_t)(l % (32 / deg)) + 128u * (uint32_t)(l / (32 / deg));
    uint32_t *doff, *sink;
    long long *dt, ht[64];
    cudaMalloc(&doff, sizeof off);
    cudaMalloc(&sink, 1024 * 4);
    cudaMalloc(&dt, sizeof ht);
    cudaMemcpy(doff, off, sizeof off, cudaMemcpyHostToDevice);
    long long best = -1, keep[64] = {0};
    for (int rep = 0; rep < 5; rep++) {   /* the fastest of 5, as the tool does */
        if (atom)
            loop<true><<<1, 32 * w, 6144>>>(doff, iters, 7u, dt, sink);
        else
            loop<false><<<1, 32 * w, 6144>>>(doff, iters, 7u, dt, sink);
        if (cudaDeviceSynchronize() != cudaSuccess) {
            fprintf(stderr, "launch failed\n");
            return 1;
        }
        cudaMemcpy(ht, dt, sizeof ht, cudaMemcpyDeviceToHost);
        long long lo = ht[0], hi = ht[1];
        for (int i = 1; i < w; i++) {
            lo = ht[2 * i] < lo ? ht[2 * i] : lo;
            hi = ht[2 * i + 1] > hi ? ht[2 * i + 1] : hi;
        }
        if (best < 0 || hi - lo < best) {
            best = hi - lo;
            for (int i = 0; i < w; i++)
                keep[2 * i] = ht[2 * i] - lo, keep[2 * i + 1] = ht[2 * i + 1] - lo;
        }
    }
    printf("%s deg%d warps %d iters %d span %lld cpi %.4f\n", argv[1], deg, w, iters, best,
           (double)best / (8.0 * w * iters));
    for (int i = 0; i < w; i++)
        printf("  warp %2d sub %d start %8lld end %8lld\n", i, i % 4, keep[2 * i], keep[2 * i + 1]);
    return 0;
}
