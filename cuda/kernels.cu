/* kernels.cu - the measurement tool's GPU kernels (kernels.h): per
 * instruction form, a loop of 8 independent copies of one warp instruction
 * as inline PTX, timed with clock64 between two barriers.  The method is
 * probe.cu's header; this file only issues instructions: no host I/O, no
 * timing arithmetic, no report. */
#include <cuda_runtime.h>

#include <stdint.h>

#include "kernels.h"

/* Extra shared memory behind a matrix pattern: accesses 1..7 of an iteration
 * are shifted by 128..896 bytes (see LDSM1); the schema keeps that much free. */
static_assert(INSTR_MATRIX_SPARE == 128u * (ACCESSES_PER_ITER - 1),
              "instr.h's INSTR_MATRIX_SPARE is the shift of the last matrix access");

/* Kernel kinds: one instantiation per instruction form. */
enum {
    K_LD1, K_LD2, K_LD4, K_LD8, K_LD16,
    K_ST1, K_ST2, K_ST4, K_ST8, K_ST16,
    K_LDSM1, K_LDSM2, K_LDSM4, K_LDSM1T, K_LDSM2T, K_LDSM4T,
    K_STSM1, K_STSM2, K_STSM4, K_STSM1T, K_STSM2T, K_STSM4T,
    K_BASELINE,
    K_COUNT
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

/* The end of every timed loop: the clock, the barrier, the warp's span, and
 * the folded results stored so that nothing is dead code. */
__device__ __forceinline__ void finish(const ProbeArgs &a, long long t0, uint32_t acc)
{
    const long long t1 = clock64();
    __syncthreads();
    if ((threadIdx.x & 31u) == 0) {
        a.t_start[threadIdx.x >> 5] = t0;
        a.t_end[threadIdx.x >> 5] = t1;
    }
    a.sink[threadIdx.x] = acc;
}

template <int K>
__global__ void __launch_bounds__(MAX_WARPS * 32, 1) probe_kernel(ProbeArgs a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t lane = threadIdx.x & 31u;
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
    finish(a, t0, acc);
}

/* ---- atomics -------------------------------------------------------------------
 * Kernels per atom/red form ptxas accepts for sm_90 (instr.c's table), with
 * tests/calib/atomics/gen_probe.py's method, which measured
 * tests/data/atomics_*.json, and per operand and guard (issue 23: the forms of
 * tests/calib/atomic_forms, tests/data/atomic_forms_*.json): each iteration
 * issues 8 atomics (predicated, or with guard "none" unconditional) 256
 * bytes apart (two bank rows: the same banks and address equalities, and no
 * dependence between them; instr.h's INSTR_ATOMIC_SPARE keeps the room), atom
 * folds its 8 results into the return value, red returns nothing.  ptxas
 * turns a predicated ATOMS into a branch; with lanes off the warp diverges,
 * which is part of what is measured (access.c, A6).  Forms that are not native
 * run ptxas's compare-and-swap loop: measured, never modelled. */
#define APRED(n) "{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %" #n ", 0;\n\t"
/* The guard (instr.h): "each" predicates every atomic (the issue-17 method,
 * BSSY + BRA per ATOMS in the SASS); "none" issues it unconditionally, as
 * tests/calib/atomic_forms' forms do (no branch: A10), on all 32 lanes
 * (instr_check_gpu refuses an idle lane). */
#define GEACH(n) APRED(n) "@p "
#define GNONE(n) "{\n\t"
/* V: the operand.  A register (CL) holds the lane's or the warp's value
 * (atomic_kernel picks which); an immediate (I, "n") is what ptxas needs to
 * see for ATOMS.POPC.INC (atomic_form.c). */
#define ATOM1(G, PTX, CL, V, O, k) asm volatile(G(1) "atom.shared." PTX " %0, [%2+" O "], %3;\n\t}" \
                                                : "=" CL(d[k]) : "r"(act), "r"(addr), V : "memory")
#define CAS1(G, PTX, CL, V, O, k) asm volatile(G(1) "atom.shared." PTX " %0, [%2+" O "], %3, %4;\n\t}" \
                                               : "=" CL(d[k]) : "r"(act), "r"(addr), V, CL(c) : "memory")
#define RED1(G, PTX, CL, V, O, k) asm volatile(G(0) "red.shared." PTX " [%1+" O "], %2;\n\t}" \
                                               :: "r"(act), "r"(addr), V : "memory")
#define AREP8(X, G, PTX, CL, V) X(G, PTX, CL, V, "0", 0); X(G, PTX, CL, V, "256", 1); \
                                X(G, PTX, CL, V, "512", 2); X(G, PTX, CL, V, "768", 3); \
                                X(G, PTX, CL, V, "1024", 4); X(G, PTX, CL, V, "1280", 5); \
                                X(G, PTX, CL, V, "1536", 6); X(G, PTX, CL, V, "1792", 7)
#define FOLD_ATOM return (uint32_t)(unsigned long long)(d[0] + d[1] + d[2] + d[3] + d[4] + \
                                                        d[5] + d[6] + d[7])
#define FOLD_CAS FOLD_ATOM
#define FOLD_RED return 0

/* op, func, type (instr.h's names), asm kind, PTX suffix, C type, constraint:
 * the forms atom and red share, then atom's exch and cas (red has neither). */
#define SHARED_FORMS(X, OP, KIND) \
    X(OP, ADD, U32, KIND, "add.u32", unsigned, "r") \
    X(OP, ADD, S32, KIND, "add.s32", unsigned, "r") \
    X(OP, ADD, F32, KIND, "add.f32", float, "f") \
    X(OP, ADD, U64, KIND, "add.u64", unsigned long long, "l") \
    X(OP, ADD, F64, KIND, "add.f64", double, "d") \
    X(OP, ADD, F16X2, KIND, "add.noftz.f16x2", unsigned, "r") \
    X(OP, ADD, BF16X2, KIND, "add.noftz.bf16x2", unsigned, "r") \
    X(OP, MIN, U32, KIND, "min.u32", unsigned, "r") \
    X(OP, MIN, S32, KIND, "min.s32", unsigned, "r") \
    X(OP, MIN, U64, KIND, "min.u64", unsigned long long, "l") \
    X(OP, MIN, S64, KIND, "min.s64", unsigned long long, "l") \
    X(OP, MAX, U32, KIND, "max.u32", unsigned, "r") \
    X(OP, MAX, S32, KIND, "max.s32", unsigned, "r") \
    X(OP, MAX, U64, KIND, "max.u64", unsigned long long, "l") \
    X(OP, MAX, S64, KIND, "max.s64", unsigned long long, "l") \
    X(OP, INC, U32, KIND, "inc.u32", unsigned, "r") \
    X(OP, DEC, U32, KIND, "dec.u32", unsigned, "r") \
    X(OP, AND, B32, KIND, "and.b32", unsigned, "r") \
    X(OP, AND, B64, KIND, "and.b64", unsigned long long, "l") \
    X(OP, OR, B32, KIND, "or.b32", unsigned, "r") \
    X(OP, OR, B64, KIND, "or.b64", unsigned long long, "l") \
    X(OP, XOR, B32, KIND, "xor.b32", unsigned, "r") \
    X(OP, XOR, B64, KIND, "xor.b64", unsigned long long, "l")
#define ATOMIC_FORMS(X) \
    SHARED_FORMS(X, ATOM, ATOM) \
    SHARED_FORMS(X, RED, RED) \
    X(ATOM, EXCH, B32, ATOM, "exch.b32", unsigned, "r") \
    X(ATOM, EXCH, B64, ATOM, "exch.b64", unsigned long long, "l") \
    X(ATOM, CAS, B32, CAS, "cas.b32", unsigned, "r") \
    X(ATOM, CAS, B64, CAS, "cas.b64", unsigned long long, "l")

/* The operand of an atomic kernel: the lane's register (seed + lane, the
 * default), the warp's (the seed: a kernel parameter, so a uniform register),
 * or an immediate (AV_IMM, the value in the template). */
enum { AV_LANE, AV_UNIFORM, AV_IMM };

/* The forms with a uniform and an immediate operand besides the lane's
 * (instr.h's INSTR_TOOL_VALUES, which instr_check_gpu tests too), and the
 * immediates 1, 2 and -1.  The SASS of every kernel (cuobjdump -sass -arch
 * sm_90, nvcc 13.0; tests/gpu/atomic_sass.py against /api/conflicts's
 * atomic.sass: 164 of 164, bench/results/sass-atomic-kernels-h100-2026-11-24.txt):
 *   red add.u32 1, red inc.u32 -1                 ATOMS.POPC.INC.32 (it merges)
 *   red add.u32 2 / -1 / uniform, atom add.u32 any ATOMS.ADD
 *   add.s32 any (1 included, red or atom)         ATOMS.ADD.S32
 *   atom inc.u32 -1 (its result used)             ATOMS.ADD
 *   inc.u32 1 / 2 / uniform / lane                ATOMS.INC; dec.u32 any: ATOMS.DEC
 * with 8 BSSY a loop (one per atomic) under guard "each" and none under
 * "none"; every other form as before, under either guard.  Every atomic kernel
 * has one BSSY more, before the loop: the starting-phase wait (2026-11-29,
 * tests/gpu/atomic_sass.py counts it). */

/* bf16x2 atomics exist from sm_90 on (PTX); the older targets get an empty body
 * (instr_check_gpu refuses bf16x2 below cc 9.0 before any launch). */
#define FORM_STRUCT(OP, FN, TY, KIND, PTX, T, CL) \
    struct F_##OP##_##FN##_##TY { \
        typedef T value; \
        static constexpr bool values = INSTR_TOOL_VALUES(INSTR_##FN, INSTR_##TY); \
        template <bool On, bool Each, int V, int I> \
        static __device__ __forceinline__ uint32_t body(uint32_t addr, uint32_t act, T b, T c) \
        { \
            T d[8]; \
            (void)c, (void)d, (void)addr, (void)act, (void)b; \
            if constexpr (!On) { \
                return 0; \
            } else { \
                if constexpr (V == AV_IMM && Each) { AREP8(KIND##1, GEACH, PTX, CL, "n"(I)); } \
                else if constexpr (V == AV_IMM) { AREP8(KIND##1, GNONE, PTX, CL, "n"(I)); } \
                else if constexpr (Each) { AREP8(KIND##1, GEACH, PTX, CL, CL(b)); } \
                else { AREP8(KIND##1, GNONE, PTX, CL, CL(b)); } \
                FOLD_##KIND; \
            } \
        } \
        template <bool Each, int V, int I> \
        static __device__ __forceinline__ uint32_t run(uint32_t addr, uint32_t act, T b, T c) \
        { \
            return body<INSTR_##TY != INSTR_BF16X2 || FORM_BF16, Each, V, I>(addr, act, b, c); \
        } \
    };
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define FORM_BF16 1
#else
#define FORM_BF16 0
#endif
ATOMIC_FORMS(FORM_STRUCT)

template <class F, bool Each, int V, int I>
__global__ void __launch_bounds__(MAX_WARPS * 32, 1) atomic_kernel(ProbeArgs a)
{
    typedef typename F::value T;
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t addr = (uint32_t)__cvta_generic_to_shared(smem) + a.off[lane];
    const uint32_t act = (a.active >> lane) & 1u;
    const T b = V == AV_UNIFORM ? (T)a.seed : (T)(a.seed + lane), c = (T)(a.seed ^ lane);
    uint32_t acc = 0;

    __syncthreads();
    /* The warps' starting phase (probe.cu's STAGGERS): each waits whole, so
     * no lane diverges, and before its own t0 (the launch's span still runs
     * from the first warp's start: probe.cu bounds what that adds). */
    if (a.stagger) {
        const long long s0 = clock64(), wait = (long long)(threadIdx.x >> 5) * a.stagger;
        while (clock64() - s0 < wait) {
        }
    }
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < a.iters; i++)
        acc ^= F::template run<Each, V, I>(addr, act, b, c);
    finish(a, t0, acc);
}

/* The kernel of form F for the operand and guard of `p` (NULL: none, which
 * instr_check_gpu refuses first).  Every form: the lane's value, either
 * guard; F::values forms: also the uniform value and the immediates. */
template <class F, bool Each>
static kernel_fn atomic_guarded(const struct instr *p)
{
    if (p->value_kind == INSTR_VALUE_LANE)
        return atomic_kernel<F, Each, AV_LANE, 0>;
    if constexpr (F::values) {
        if (p->value_kind == INSTR_VALUE_UNIFORM)
            return atomic_kernel<F, Each, AV_UNIFORM, 0>;
        switch ((uint32_t)p->value) {
        case 1: return atomic_kernel<F, Each, AV_IMM, 1>;
        case 2: return atomic_kernel<F, Each, AV_IMM, 2>;
        case 0xffffffffu: return atomic_kernel<F, Each, AV_IMM, -1>;
        default: break;
        }
    }
    return NULL;
}

template <class F>
static kernel_fn atomic_for(const struct instr *p)
{
    return p->guard == INSTR_GUARD_NONE ? atomic_guarded<F, false>(p)
                                        : atomic_guarded<F, true>(p);
}

/* ---- cp.async (LDGSTS) ---------------------------------------------------------
 * tests/calib/cp_async/cp_probe.cu's method, which measured tests/data/
 * cp_async_*.json: each iteration issues 8 cp.async per lane, shared offsets
 * INSTR_COPY_SPARE / 7 = 4 KiB apart (the same banks) and global sources
 * 64 KiB apart (the same line relations, other lines), then commit_group +
 * wait_all, so the time is latency-bound (access.c says so) while the
 * counters count the 8 copies.  An idle lane branches around its 8 copies, as
 * the calibration does: ncu's Source-page (SASS-instrumented) wavefronts read 0
 * for a predicated @P LDGSTS.E.BYPASS.128 while the data still moves
 * (tests/calib/cp_async/tool_check.sh, H100, 2026-11-24: 0 of 4/32/1 on three
 * .cg rows; .ca read its counts either way). */
static_assert(INSTR_COPY_SPARE == 4096u * (ACCESSES_PER_ITER - 1),
              "instr.h's INSTR_COPY_SPARE is the shift of the last copy");
#define CPA(K, SH, GL) \
    asm volatile("cp.async." CACHE ".shared.global [%0+" SH "], [%1+" GL "], %2;" \
                 :: "r"(addr), "l"(g), "n"(B) : "memory")
template <int B, bool CG>
__device__ __forceinline__ void copy8(uint32_t addr, const unsigned char *g)
{
#define CACHE "ca"
    if constexpr (!CG) {
        CPA(0, "0", "0"); CPA(1, "4096", "65536"); CPA(2, "8192", "131072");
        CPA(3, "12288", "196608"); CPA(4, "16384", "262144"); CPA(5, "20480", "327680");
        CPA(6, "24576", "393216"); CPA(7, "28672", "458752");
    }
#undef CACHE
#define CACHE "cg"
    if constexpr (CG) {
        CPA(0, "0", "0"); CPA(1, "4096", "65536"); CPA(2, "8192", "131072");
        CPA(3, "12288", "196608"); CPA(4, "16384", "262144"); CPA(5, "20480", "327680");
        CPA(6, "24576", "393216"); CPA(7, "28672", "458752");
    }
#undef CACHE
}
#undef CPA

template <int B, bool CG>
__global__ void __launch_bounds__(MAX_WARPS * 32, 1) copy_kernel(ProbeArgs a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const uint32_t lane = threadIdx.x & 31u;
    const uint32_t addr = (uint32_t)__cvta_generic_to_shared(smem) + a.off[lane];
    const uint32_t act = (a.active >> lane) & 1u;
    const unsigned char *g = a.gsrc + a.goff[lane];

    __syncthreads();
    const long long t0 = clock64();
#pragma unroll 1
    for (int i = 0; i < a.iters; i++) {
        if (act)
            copy8<B, CG>(addr, g);
        asm volatile("cp.async.commit_group;\n\tcp.async.wait_all;" ::: "memory");
    }
    finish(a, t0, 0);
}

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

kernel_fn kernel_for(const struct instr *p)
{
    switch (p->op) {
    case INSTR_LD: return kernels[K_LD1 + width_index((int)p->bytes)];
    case INSTR_ST: return kernels[K_ST1 + width_index((int)p->bytes)];
    case INSTR_LDMATRIX:
        return kernels[K_LDSM1 + matrix_index((int)p->matrices) + (p->trans ? 3 : 0)];
    case INSTR_STMATRIX:
        return kernels[K_STSM1 + matrix_index((int)p->matrices) + (p->trans ? 3 : 0)];
    case INSTR_CP_ASYNC:
        return p->cg ? copy_kernel<16, true>
               : p->bytes == 4 ? copy_kernel<4, false>
               : p->bytes == 8 ? copy_kernel<8, false> : copy_kernel<16, false>;
    default: break;
    }
#define X(OP, FN, TY, KIND, PTX, T, CL) \
    if (p->op == INSTR_##OP && p->func == INSTR_##FN && p->type == INSTR_##TY) \
        return atomic_for<F_##OP##_##FN##_##TY>(p);
    ATOMIC_FORMS(X)
#undef X
    return NULL;
}

kernel_fn kernel_baseline(void)
{
    return kernels[K_BASELINE];
}
