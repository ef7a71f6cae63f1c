/* placement_probe.cu - does where the tool's atomic loop sits in the code, or the launch,
 * decide its clock64 reading?  (issue 41, rule A14.)  The tool's loop (cuda/kernels.cu's
 * atomic_kernel, guard none, the lane's value: 8 atom.shared.add.u32 256 B apart an
 * iteration, atom folding its 8 results, red returning nothing) on one block of W warps,
 * compiled in 16 variants that differ only in PAD independent IMADs before the loop, so
 * the loop starts PAD*16 bytes later (cuobjdump -sass says where; run_placement.sh
 * records it).  The lanes' offsets are the tool's "deg1" rows (lane l at 4*l: one
 * wavefront), passed as a kernel parameter as the tool passes them.  It measures only and
 * must not be read as the tool (swizzlescope-measure is the tool).
 * COPIES (default 1) compiles each (op, pad) COPIES times as distinct kernels with the
 * same SASS, so the loop keeps its offset in the function while the function sits
 * elsewhere in the module: whether the offset or the absolute address decides.
 * STAGGERS_CSV (default 0) starts warp w's timed loop w*STAGGER cycles after the barrier
 * (a spin on clock64 before t0, the same in every lane): whether the warps' starting phase,
 * which a launch sets at run time, reaches the states the code address selects.
 * Usage: placement_probe PROC WARPS_CSV LAUNCHES [COPIES [STAGGERS_CSV]].  Prints one line
 * per launch:
 *   PROC op pad warps launch span cpi copy stagger
 * with cpi = (max end - min start) / (W * 2048 * 8), the tool's definition; launch 0 is
 * the warm-up the tool discards (printed, flagged by its index). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <utility>

#define ITERS 2048
#define NPAD 16
#define NCOPY 2

struct Args {
    uint32_t off[32];
    uint32_t seed;
    uint32_t zero;   /* 0, unknown to the compiler: ties the pad to the loop's address */
    int iters;
    int stagger;     /* cycles between consecutive warps' starts (STAGGERS_CSV) */
    long long *t_start, *t_end;
    uint32_t *sink;
};

/* PAD dependent IMADs on x (asm volatile: ptxas keeps them; x reaches the address and
 * the sink, so none is dead).  They only move the loop and run before it. */
template <int Pad>
__device__ __forceinline__ uint32_t pad(uint32_t x, uint32_t lane)
{
    if constexpr (Pad > 0) {
        asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(lane), "n"(Pad * 2 + 1));
        return pad<Pad - 1>(x, lane);
    }
    return x;
}

template <bool Atom, int Pad, int Copy>
__global__ void __launch_bounds__(1024, 1) loop(Args a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t x = pad<Pad>(a.seed ^ lane, lane);
    /* x & zero is 0 at run time; ptxas must compute x before the loop, so the pad
     * cannot sink past it and the loop really starts later. */
    const uint32_t addr = (uint32_t)__cvta_generic_to_shared(smem) + a.off[lane] + (x & a.zero);
    const uint32_t b = a.seed + lane;
    uint32_t acc = 0;
    __syncthreads();
    if (a.stagger) {   /* whole warps wait alike: no divergence */
        const long long s0 = clock64(), d = (long long)(threadIdx.x >> 5) * a.stagger;
        while (clock64() - s0 < d) {
        }
    }
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < a.iters; i++) {
        if constexpr (Atom) {
            uint32_t d0, d1, d2, d3, d4, d5, d6, d7;
            asm volatile("{\n\tatom.shared.add.u32 %0, [%1+0], %2;\n\t}" : "=r"(d0) : "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tatom.shared.add.u32 %0, [%1+256], %2;\n\t}" : "=r"(d1) : "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tatom.shared.add.u32 %0, [%1+512], %2;\n\t}" : "=r"(d2) : "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tatom.shared.add.u32 %0, [%1+768], %2;\n\t}" : "=r"(d3) : "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tatom.shared.add.u32 %0, [%1+1024], %2;\n\t}" : "=r"(d4) : "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tatom.shared.add.u32 %0, [%1+1280], %2;\n\t}" : "=r"(d5) : "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tatom.shared.add.u32 %0, [%1+1536], %2;\n\t}" : "=r"(d6) : "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tatom.shared.add.u32 %0, [%1+1792], %2;\n\t}" : "=r"(d7) : "r"(addr), "r"(b) : "memory");
            acc ^= d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7;
        } else {
            asm volatile("{\n\tred.shared.add.u32 [%0+0], %1;\n\t}" :: "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tred.shared.add.u32 [%0+256], %1;\n\t}" :: "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tred.shared.add.u32 [%0+512], %1;\n\t}" :: "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tred.shared.add.u32 [%0+768], %1;\n\t}" :: "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tred.shared.add.u32 [%0+1024], %1;\n\t}" :: "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tred.shared.add.u32 [%0+1280], %1;\n\t}" :: "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tred.shared.add.u32 [%0+1536], %1;\n\t}" :: "r"(addr), "r"(b) : "memory");
            asm volatile("{\n\tred.shared.add.u32 [%0+1792], %1;\n\t}" :: "r"(addr), "r"(b) : "memory");
        }
    }
    const long long t1 = clock64();
    __syncthreads();
    if (lane == 0) {
        a.t_start[threadIdx.x >> 5] = t0;
        a.t_end[threadIdx.x >> 5] = t1;
    }
    a.sink[threadIdx.x] = acc ^ x;
    (void)Copy;   /* only makes a distinct kernel */
}

typedef void (*kfn)(Args);

template <bool Atom, int Copy, int... P>
static void table(kfn *out, std::integer_sequence<int, P...>)
{
    const kfn k[] = {loop<Atom, P, Copy>...};
    for (int i = 0; i < (int)sizeof...(P); i++)
        out[i] = k[i];
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 6) {
        fprintf(stderr, "usage: placement_probe PROC WARPS_CSV LAUNCHES [COPIES [STAGGERS_CSV]]\n");
        return 2;
    }
    const int proc = atoi(argv[1]), launches = atoi(argv[3]);
    const int copies = argc >= 5 ? atoi(argv[4]) : 1;
    int warps[32], nw = 0, stag[64] = {0}, ns = 1;
    for (char *s = strtok(argv[2], ","); s && nw < 32; s = strtok(NULL, ","))
        warps[nw++] = atoi(s);
    if (argc == 6) {
        ns = 0;
        for (char *s = strtok(argv[5], ","); s && ns < 64; s = strtok(NULL, ","))
            stag[ns++] = atoi(s);
    }
    if (launches < 1 || nw < 1 || ns < 1 || copies < 1 || copies > NCOPY) {
        fprintf(stderr, "LAUNCHES >= 1, WARPS_CSV e.g. 5,7,9,11, COPIES 1..%d\n", NCOPY);
        return 2;
    }
    kfn ka[NCOPY][NPAD], kr[NCOPY][NPAD];
    table<true, 0>(ka[0], std::make_integer_sequence<int, NPAD>{});
    table<false, 0>(kr[0], std::make_integer_sequence<int, NPAD>{});
    table<true, 1>(ka[1], std::make_integer_sequence<int, NPAD>{});
    table<false, 1>(kr[1], std::make_integer_sequence<int, NPAD>{});
    Args a;
    for (int l = 0; l < 32; l++)
        a.off[l] = 4u * (uint32_t)l;   /* the tool's deg1 row: one wavefront */
    a.seed = 0x5a5a0000u;             /* the tool's seed */
    a.zero = 0;
    a.iters = ITERS;
    long long *dt, h[64];
    cudaMalloc(&dt, sizeof h);
    cudaMalloc(&a.sink, 1024 * 4);
    a.t_start = dt;
    a.t_end = dt + 32;
    const unsigned smem = 128u + 256u * 7u;   /* the deg1 row's bytes + INSTR_ATOMIC_SPARE */
    for (int wi = 0; wi < nw; wi++) {
        const int w = warps[wi];
        for (int op = 0; op < 2; op++) {
            for (int p = 0; p < NPAD; p++)
            for (int c = 0; c < copies; c++)
            for (int si = 0; si < ns; si++) {
                const kfn k = op == 0 ? ka[c][p] : kr[c][p];
                a.stagger = stag[si];
                for (int l = 0; l <= launches; l++) {
                    k<<<1, 32 * w, smem>>>(a);
                    if (cudaDeviceSynchronize() != cudaSuccess) {
                        fprintf(stderr, "launch failed\n");
                        return 1;
                    }
                    cudaMemcpy(h, dt, sizeof h, cudaMemcpyDeviceToHost);
                    long long lo = h[0], hi = h[32];
                    for (int i = 1; i < w; i++) {
                        lo = h[i] < lo ? h[i] : lo;
                        hi = h[32 + i] > hi ? h[32 + i] : hi;
                    }
                    printf("%d %s %d %d %d %lld %.4f %d %d\n", proc, op == 0 ? "atom" : "red", p, w,
                           l, hi - lo, (double)(hi - lo) / (8.0 * w * ITERS), c, a.stagger);
                }
            }
        }
    }
    return 0;
}
