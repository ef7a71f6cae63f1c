// inline_ptx: shared accesses written as inline PTX with their own address arithmetic
// (mov, shl, add in the asm): st.shared.u32, a ld.shared.v2.u32 pair read, a .b64 store.
extern "C" __global__ void inline_ptx(unsigned *out)
{
    __shared__ __align__(16) unsigned w[1024];
    unsigned t = threadIdx.x, base = (unsigned)__cvta_generic_to_shared(w), lo, hi;
    asm volatile("{\n\t.reg .u32 a;\n\t"
                 "shl.b32 a, %1, 2;\n\t"
                 "add.u32 a, a, %0;\n\t"
                 "st.shared.u32 [a], %1;\n\t"
                 "}" :: "r"(base), "r"(t) : "memory");
    __syncthreads();
    asm volatile("{\n\t.reg .u32 a;\n\t"
                 "mul.lo.u32 a, %2, 24;\n\t"
                 "and.b32 a, a, 4088;\n\t"
                 "add.u32 a, a, %3;\n\t"
                 "ld.shared.v2.u32 {%0, %1}, [a];\n\t"
                 "}" : "=r"(lo), "=r"(hi) : "r"(t), "r"(base) : "memory");
    unsigned long long both = ((unsigned long long)hi << 32) | lo;
    asm volatile("st.shared.b64 [%0], %1;" :: "r"(base + 2048 + ((t * 8) & 2047)), "l"(both)
                 : "memory");
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = w[512 + (t & 511)] + lo;
}
