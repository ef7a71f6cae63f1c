/* probe.cu: swizzlescope-measure, the live measurement tool. Reads warp access
 * patterns (pattern.h line format) on stdin and prints, per pattern, the SM
 * cycles one warp instruction costs when the shared-memory pipe is saturated.
 * It must stay standalone (CUDA runtime only), touch nothing but its own GPU
 * buffers, and exit nonzero with a message on stderr on any error.
 *
 * Method: one block of W warps (default 16) on one SM; every lane of every
 * warp runs the same pattern. Each loop iteration issues 8 independent copies
 * of the instruction (separate volatile PTX, separate registers); inactive
 * lanes are predicated off inside the asm, so the warp never diverges.
 * ldmatrix/stmatrix have no volatile form: access k of an iteration adds
 * k*128 bytes to every lane's address (same banks, same address equalities)
 * so that the compiler can neither merge nor hoist them.
 *   cycles/instr = (max_w end_w - min_w start_w) / (W * iters * 8)
 * with start after a __syncthreads() and end before one, read with clock64().
 * Under ncu (--ncu-iters N) each pattern is exactly one launch, in input order,
 * so the profiler's rows map to the input lines by position. */
#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"

#define CHECK(call)                                                                     \
    do {                                                                                \
        cudaError_t err_ = (call);                                                      \
        if (err_ != cudaSuccess) {                                                      \
            fprintf(stderr, "swizzlescope-measure: %s:%d: %s: %s\n", __FILE__, __LINE__, \
                    #call, cudaGetErrorString(err_));                                   \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

enum { ACCESSES_PER_ITER = 8, MAX_WARPS = 32, MAX_PATTERNS = 4096 };

/* Extra shared memory behind a matrix pattern: accesses 1..7 of an iteration
 * are shifted by 128..896 bytes (see LDSM1). */
#define MATRIX_SHIFT_BYTES (128u * (ACCESSES_PER_ITER - 1))

/* Kernel kinds: one instantiation per instruction form. */
enum {
    K_LD1, K_LD2, K_LD4, K_LD8, K_LD16,
    K_ST1, K_ST2, K_ST4, K_ST8, K_ST16,
    K_LDSM1, K_LDSM2, K_LDSM4, K_LDSM1T, K_LDSM2T, K_LDSM4T,
    K_STSM1, K_STSM2, K_STSM4, K_STSM1T, K_STSM2T, K_STSM4T,
    K_BASELINE,
    K_COUNT
};

struct ProbeArgs {
    uint32_t off[PROBE_LANES]; /* byte offset into dynamic shared memory, per lane */
    uint32_t active;           /* bit t: lane t accesses */
    uint32_t seed;             /* keeps store values opaque to the compiler */
    uint32_t zero;             /* always 0; the compiler cannot know it */
    int iters;
    long long *t_start;        /* [MAX_WARPS] */
    long long *t_end;          /* [MAX_WARPS] */
    uint32_t *sink;            /* [MAX_WARPS * 32] */
};

/* ---- one access, as inline PTX -------------------------------------------
 * Each macro is one volatile asm statement = one warp instruction. Loads and
 * stores carry their own predicate so that inactive lanes stay converged. */

#define PRED "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"

#define LD1(v) asm volatile(PRED "@p ld.volatile.shared.u8 %0, [%2];\n\t}" \
                            : "=r"(v[0]) : "r"(act), "r"(addr) : "memory")
#define LD2(v) asm volatile(PRED "@p ld.volatile.shared.u16 %0, [%2];\n\t}" \
                            : "=r"(v[0]) : "r"(act), "r"(addr) : "memory")
#define LD4(v) asm volatile(PRED "@p ld.volatile.shared.u32 %0, [%2];\n\t}" \
                            : "=r"(v[0]) : "r"(act), "r"(addr) : "memory")
#define LD8(v) asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %2, 0;\n\t" \
                            "@p ld.volatile.shared.v2.u32 {%0, %1}, [%3];\n\t}" \
                            : "=r"(v[0]), "=r"(v[1]) : "r"(act), "r"(addr) : "memory")
#define LD16(v) asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %4, 0;\n\t" \
                             "@p ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%5];\n\t}" \
                             : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) \
                             : "r"(act), "r"(addr) : "memory")

#define SPRED "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %0, 0;\n\t"
#define ST1(v) asm volatile(SPRED "@p st.volatile.shared.u8 [%1], %2;\n\t}" \
                            :: "r"(act), "r"(addr), "r"(v[0]) : "memory")
#define ST2(v) asm volatile(SPRED "@p st.volatile.shared.u16 [%1], %2;\n\t}" \
                            :: "r"(act), "r"(addr), "r"(v[0]) : "memory")
#define ST4(v) asm volatile(SPRED "@p st.volatile.shared.u32 [%1], %2;\n\t}" \
                            :: "r"(act), "r"(addr), "r"(v[0]) : "memory")
#define ST8(v) asm volatile(SPRED "@p st.volatile.shared.v2.u32 [%1], {%2, %3};\n\t}" \
                            :: "r"(act), "r"(addr), "r"(v[0]), "r"(v[1]) : "memory")
#define ST16(v) asm volatile(SPRED "@p st.volatile.shared.v4.u32 [%1], {%2, %3, %4, %5};\n\t}" \
                             :: "r"(act), "r"(addr), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]) \
                             : "memory")

/* ldmatrix/stmatrix are .sync.aligned: every lane executes them, unpredicated.
 * They have no .volatile form, so ptxas may merge identical ones (it did:
 * 8 ldmatrix of one address became 2) or hoist them out of the loop. Access k
 * therefore adds k*128 bytes to every lane's address (O) - the same shift for
 * all lanes, a whole number of bank rows, so banks and address equalities
 * are those of the pattern - and the base changes with the loop counter
 * through a register the compiler cannot prove zero. */
#define LDSM1(v, T, O) asm volatile("ldmatrix.sync.aligned.m8n8.x1" T ".shared.b16 {%0}, [%1+" O "];" \
                                    : "=r"(v[0]) : "r"(addr) : "memory")
#define LDSM2(v, T, O) asm volatile("ldmatrix.sync.aligned.m8n8.x2" T ".shared.b16 {%0, %1}, [%2+" O "];" \
                                    : "=r"(v[0]), "=r"(v[1]) : "r"(addr) : "memory")
#define LDSM4(v, T, O) asm volatile("ldmatrix.sync.aligned.m8n8.x4" T \
                                    ".shared.b16 {%0, %1, %2, %3}, [%4+" O "];" \
                                    : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "r"(addr) : "memory")
#define STSM1(v, T, O) asm volatile("stmatrix.sync.aligned.m8n8.x1" T ".shared.b16 [%0+" O "], {%1};" \
                                    :: "r"(addr), "r"(v[0]) : "memory")
#define STSM2(v, T, O) asm volatile("stmatrix.sync.aligned.m8n8.x2" T ".shared.b16 [%0+" O "], {%1, %2};" \
                                    :: "r"(addr), "r"(v[0]), "r"(v[1]) : "memory")
#define STSM4(v, T, O) asm volatile("stmatrix.sync.aligned.m8n8.x4" T \
                                    ".shared.b16 [%0+" O "], {%1, %2, %3, %4};" \
                                    :: "r"(addr), "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]) : "memory")

/* The baseline replaces the access by a register move: the loop's own cost. */
#define NOP(v) asm volatile("mov.b32 %0, %1;" : "=r"(v[0]) : "r"(addr))

#define REP8(X) X(r[0]); X(r[1]); X(r[2]); X(r[3]); X(r[4]); X(r[5]); X(r[6]); X(r[7])
#define REP8T(X, T) X(r[0], T, "0"); X(r[1], T, "128"); X(r[2], T, "256"); X(r[3], T, "384"); \
                    X(r[4], T, "512"); X(r[5], T, "640"); X(r[6], T, "768"); X(r[7], T, "896")
#define REP8S(X) X(s[0]); X(s[1]); X(s[2]); X(s[3]); X(s[4]); X(s[5]); X(s[6]); X(s[7])
#define REP8S_T(X, T) X(s[0], T, "0"); X(s[1], T, "128"); X(s[2], T, "256"); X(s[3], T, "384"); \
                      X(s[4], T, "512"); X(s[5], T, "640"); X(s[6], T, "768"); X(s[7], T, "896")

/* One loop iteration: 8 accesses. Loads fold the first word of each result
 * into the return value (one 3-input XOR per two loads) so that the loop's
 * issue cost stays far below one wavefront per access; the other words are
 * still written, because the asm is volatile. */
template <int K>
__device__ __forceinline__ uint32_t step(uint32_t addr, uint32_t act, const uint32_t (&s)[8][4])
{
    constexpr bool kStore = (K >= K_ST1 && K <= K_ST16) || (K >= K_STSM1 && K <= K_STSM4T);
    (void)act;
    if constexpr (kStore) {
        if constexpr (K == K_ST1) { REP8S(ST1); }
        else if constexpr (K == K_ST2) { REP8S(ST2); }
        else if constexpr (K == K_ST4) { REP8S(ST4); }
        else if constexpr (K == K_ST8) { REP8S(ST8); }
        else if constexpr (K == K_ST16) { REP8S(ST16); }
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
        else if constexpr (K == K_STSM1) { REP8S_T(STSM1, ""); }
        else if constexpr (K == K_STSM2) { REP8S_T(STSM2, ""); }
        else if constexpr (K == K_STSM4) { REP8S_T(STSM4, ""); }
        else if constexpr (K == K_STSM1T) { REP8S_T(STSM1, ".trans"); }
        else if constexpr (K == K_STSM2T) { REP8S_T(STSM2, ".trans"); }
        else if constexpr (K == K_STSM4T) { REP8S_T(STSM4, ".trans"); }
#endif
        return 0;
    } else {
        uint32_t r[8][4];
        if constexpr (K == K_LD1) { REP8(LD1); }
        else if constexpr (K == K_LD2) { REP8(LD2); }
        else if constexpr (K == K_LD4) { REP8(LD4); }
        else if constexpr (K == K_LD8) { REP8(LD8); }
        else if constexpr (K == K_LD16) { REP8(LD16); }
        else if constexpr (K == K_LDSM1) { REP8T(LDSM1, ""); }
        else if constexpr (K == K_LDSM2) { REP8T(LDSM2, ""); }
        else if constexpr (K == K_LDSM4) { REP8T(LDSM4, ""); }
        else if constexpr (K == K_LDSM1T) { REP8T(LDSM1, ".trans"); }
        else if constexpr (K == K_LDSM2T) { REP8T(LDSM2, ".trans"); }
        else if constexpr (K == K_LDSM4T) { REP8T(LDSM4, ".trans"); }
        else { REP8(NOP); }
        return r[0][0] ^ r[1][0] ^ r[2][0] ^ r[3][0] ^ r[4][0] ^ r[5][0] ^ r[6][0] ^ r[7][0];
    }
}

template <int K>
__global__ void __launch_bounds__(MAX_WARPS * 32, 1) probe_kernel(ProbeArgs a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t warp = threadIdx.x >> 5;
    const uint32_t addr = (uint32_t)__cvta_generic_to_shared(smem) + a.off[lane];
    const uint32_t act = (a.active >> lane) & 1u;
    uint32_t s[8][4];
    uint32_t acc = 0;

    /* Distinct values for every store of the iteration and every lane. */
#pragma unroll
    for (int k = 0; k < 8; k++)
#pragma unroll
        for (int c = 0; c < 4; c++)
            s[k][c] = a.seed ^ (threadIdx.x << 8) ^ (uint32_t)(k << 4) ^ (uint32_t)c;

    __syncthreads();
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < a.iters; i++) {
        if constexpr (K >= K_LDSM1 && K <= K_STSM4T)
            acc ^= step<K>(addr ^ ((uint32_t)i & a.zero), act, s); /* one LOP3 */
        else
            acc ^= step<K>(addr, act, s);
    }
    const long long t1 = clock64();
    __syncthreads();

    if (lane == 0) {
        a.t_start[warp] = t0;
        a.t_end[warp] = t1;
    }
    a.sink[threadIdx.x] = acc;
}

typedef void (*kernel_fn)(ProbeArgs);

static const kernel_fn kernels[K_COUNT] = {
    probe_kernel<K_LD1>, probe_kernel<K_LD2>, probe_kernel<K_LD4>, probe_kernel<K_LD8>,
    probe_kernel<K_LD16>, probe_kernel<K_ST1>, probe_kernel<K_ST2>, probe_kernel<K_ST4>,
    probe_kernel<K_ST8>, probe_kernel<K_ST16>, probe_kernel<K_LDSM1>, probe_kernel<K_LDSM2>,
    probe_kernel<K_LDSM4>, probe_kernel<K_LDSM1T>, probe_kernel<K_LDSM2T>, probe_kernel<K_LDSM4T>,
    probe_kernel<K_STSM1>, probe_kernel<K_STSM2>, probe_kernel<K_STSM4>, probe_kernel<K_STSM1T>,
    probe_kernel<K_STSM2T>, probe_kernel<K_STSM4T>, probe_kernel<K_BASELINE>,
};

static int width_index(int bytes)
{
    switch (bytes) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return 4;
    }
}

static int matrix_index(int matrices)
{
    return matrices == 1 ? 0 : matrices == 2 ? 1 : 2;
}

static int kernel_kind(const probe_pattern *p)
{
    switch (p->op) {
    case PROBE_LD: return K_LD1 + width_index(p->bytes);
    case PROBE_ST: return K_ST1 + width_index(p->bytes);
    case PROBE_LDMATRIX: return K_LDSM1 + matrix_index(p->matrices) + (p->trans ? 3 : 0);
    default: return K_STSM1 + matrix_index(p->matrices) + (p->trans ? 3 : 0);
    }
}

struct Options {
    int iters = 512;
    int reps = 5;
    int warps = 16;
    int ncu = 0;      /* one launch per pattern, no warm-up */
    int baseline = 0; /* add a row for the loop without accesses */
    int device = 0;
};

struct DeviceBuffers {
    long long *t_start, *t_end;
    uint32_t *sink;
};

struct Timing {
    long long span; /* max end - min start, best of the repetitions */
    long long instructions;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: swizzlescope-measure [--iters N] [--reps N] [--warps N] [--ncu-iters N]\n"
            "                            [--baseline] [--device N] < patterns.txt\n"
            "Each input line: name op bytes matrices trans o0 ... o31\n"
            "  op ld|st|ldmatrix|stmatrix, bytes 1|2|4|8|16, matrices 1|2|4, trans 0|1,\n"
            "  oN the byte offset of lane N in shared memory, or '-' for an inactive lane.\n"
            "Prints CSV: name,cycles_per_instr,raw_cycles,instructions\n"
            "  --iters N      loop iterations (8 accesses each) per warp, default 512\n"
            "  --reps N       timed launches per pattern, the fastest is kept, default 5\n"
            "  --warps N      warps in the one block, 1..32, default 16\n"
            "  --ncu-iters N  profiler mode: N iterations, exactly one launch per pattern\n"
            "  --baseline     first row '_baseline': the same loop with register moves\n");
}

static int parse_int_arg(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_options(int argc, char **argv, Options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int *dst = NULL, lo = 1, hi = 1 << 20;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--baseline")) {
            o->baseline = 1;
            continue;
        } else if (!strcmp(a, "--iters")) {
            dst = &o->iters;
        } else if (!strcmp(a, "--reps")) {
            dst = &o->reps, hi = 1000;
        } else if (!strcmp(a, "--warps")) {
            dst = &o->warps, hi = MAX_WARPS;
        } else if (!strcmp(a, "--ncu-iters")) {
            dst = &o->iters, o->ncu = 1;
        } else if (!strcmp(a, "--device")) {
            dst = &o->device, lo = 0, hi = 1024;
        } else {
            fprintf(stderr, "swizzlescope-measure: unknown option '%s'\n", a);
            usage(stderr);
            return -1;
        }
        if (!v || parse_int_arg(v, lo, hi, dst)) {
            fprintf(stderr, "swizzlescope-measure: %s needs an integer in %d..%d\n", a, lo, hi);
            return -1;
        }
        i++;
    }
    if (o->ncu)
        o->reps = 1;
    return 0;
}

/* Reads every pattern before touching the GPU, so that a bad line costs no
 * launch and the error names the line. Returns the count or -1. */
static int read_patterns(FILE *in, probe_pattern *pats, int max)
{
    char line[4096], err[PROBE_ERR_MAX];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(in)) {
            fprintf(stderr, "swizzlescope-measure: line %d: longer than %zu characters\n", lineno,
                    sizeof line - 1);
            return -1;
        }
        if (n == max) {
            fprintf(stderr, "swizzlescope-measure: more than %d patterns\n", max);
            return -1;
        }
        int rc = probe_parse_line(line, &pats[n], err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "swizzlescope-measure: line %d: %s\n", lineno, err);
            return -1;
        }
        n += rc;
    }
    if (ferror(in)) {
        fprintf(stderr, "swizzlescope-measure: reading stdin failed\n");
        return -1;
    }
    return n;
}

static Timing run_one(int kind, const probe_pattern *p, const Options *o, const DeviceBuffers *b)
{
    ProbeArgs a;
    long long h_start[MAX_WARPS], h_end[MAX_WARPS];
    const uint32_t smem = probe_smem_bytes(p) + (kind >= K_LDSM1 && kind <= K_STSM4T ? MATRIX_SHIFT_BYTES : 0);
    const int launches = o->ncu ? 1 : o->reps + 1; /* the first is a warm-up */
    Timing best = {-1, (long long)o->warps * o->iters * ACCESSES_PER_ITER};

    memcpy(a.off, p->off, sizeof a.off);
    a.active = p->active;
    a.seed = 0x5a5a0000u;
    a.zero = 0;
    a.iters = o->iters;
    a.t_start = b->t_start;
    a.t_end = b->t_end;
    a.sink = b->sink;
    if (smem > 48u * 1024u)
        CHECK(cudaFuncSetAttribute(kernels[kind], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));

    for (int l = 0; l < launches; l++) {
        kernels[kind]<<<1, o->warps * 32, smem>>>(a);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h_start, b->t_start, sizeof(long long) * o->warps, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(h_end, b->t_end, sizeof(long long) * o->warps, cudaMemcpyDeviceToHost));
        long long lo = h_start[0], hi = h_end[0];
        for (int w = 1; w < o->warps; w++) {
            if (h_start[w] < lo) lo = h_start[w];
            if (h_end[w] > hi) hi = h_end[w];
        }
        if (l == 0 && launches > 1)
            continue;
        if (best.span < 0 || hi - lo < best.span)
            best.span = hi - lo;
    }
    return best;
}

static void print_row(const char *name, Timing t)
{
    printf("%s,%.4f,%lld,%lld\n", name, (double)t.span / (double)t.instructions, t.span, t.instructions);
}

int main(int argc, char **argv)
{
    Options o;
    cudaDeviceProp prop;
    DeviceBuffers b;
    char err[PROBE_ERR_MAX];
    static probe_pattern pats[MAX_PATTERNS];

    if (parse_options(argc, argv, &o))
        return 2;
    int n = read_patterns(stdin, pats, MAX_PATTERNS);
    if (n < 0)
        return 2;

    int ndev = 0;
    CHECK(cudaGetDeviceCount(&ndev));
    if (o.device >= ndev) {
        fprintf(stderr, "swizzlescope-measure: no CUDA device %d (%d present)\n", o.device, ndev);
        return 1;
    }
    CHECK(cudaSetDevice(o.device));
    CHECK(cudaGetDeviceProperties(&prop, o.device));
    const int cc = prop.major * 10 + prop.minor;
    for (int i = 0; i < n; i++) {
        const probe_pattern *p = &pats[i];
        uint32_t limit = (uint32_t)prop.sharedMemPerBlockOptin;
        if (p->op == PROBE_LDMATRIX || p->op == PROBE_STMATRIX)
            limit -= MATRIX_SHIFT_BYTES;
        if (probe_validate(p, limit, err, sizeof err)) {
            fprintf(stderr, "swizzlescope-measure: %s\n", err);
            return 2;
        }
        if ((p->op == PROBE_LDMATRIX && cc < 75) || (p->op == PROBE_STMATRIX && cc < 90)) {
            fprintf(stderr, "swizzlescope-measure: %s: %s needs compute capability %s, device has %d.%d\n",
                    p->name, probe_op_name(p->op), p->op == PROBE_LDMATRIX ? "7.5" : "9.0",
                    prop.major, prop.minor);
            return 2;
        }
    }

    CHECK(cudaMalloc(&b.t_start, sizeof(long long) * MAX_WARPS));
    CHECK(cudaMalloc(&b.t_end, sizeof(long long) * MAX_WARPS));
    CHECK(cudaMalloc(&b.sink, sizeof(uint32_t) * MAX_WARPS * 32));

    printf("# swizzlescope-measure device=\"%s\" cc=%d.%d sms=%d warps=%d iters=%d reps=%d mode=%s\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, o.warps, o.iters, o.reps,
           o.ncu ? "ncu" : "clock64");
    printf("name,cycles_per_instr,raw_cycles,instructions\n");
    if (o.baseline && !o.ncu) {
        probe_pattern base;
        memset(&base, 0, sizeof base);
        base.op = PROBE_LD;
        base.bytes = 4;
        base.active = 0xffffffffu;
        print_row("_baseline", run_one(K_BASELINE, &base, &o, &b));
    }
    for (int i = 0; i < n; i++) {
        if (o.ncu)
            fprintf(stderr, "ncu-launch %d %s\n", i, pats[i].name);
        print_row(pats[i].name, run_one(kernel_kind(&pats[i]), &pats[i], &o, &b));
        fflush(stdout);
    }

    CHECK(cudaFree(b.t_start));
    CHECK(cudaFree(b.t_end));
    CHECK(cudaFree(b.sink));
    return 0;
}
