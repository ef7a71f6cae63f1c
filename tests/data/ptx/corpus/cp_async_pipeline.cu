// cp_async_pipeline: a two-stage global -> shared pipeline with cp.async (inline PTX):
// 16-byte .cg copies of one stage and 4-byte .ca copies of a second array, commit_group and
// wait_group 1 / 0, each stage summed from shared memory by every thread.
__device__ __forceinline__ void cp16(void *smem, const void *gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp4(void *smem, const void *gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(s), "l"(gmem) : "memory");
}
__global__ void cp_async_pipeline(float *out, const float4 *in, const float *scale, int stages)
{
    __shared__ __align__(16) float4 buf[2][128];
    __shared__ float sc[2][128];
    unsigned t = threadIdx.x;
    const float4 *src = in + blockIdx.x * stages * 128;
    cp16(&buf[0][t], &src[t]);
    cp4(&sc[0][t], &scale[t]);
    asm volatile("cp.async.commit_group;" ::: "memory");
    float acc = 0.0f;
    for (int s = 0; s < stages; s++) {
        if (s + 1 < stages) {
            cp16(&buf[(s + 1) & 1][t], &src[(s + 1) * 128 + t]);
            cp4(&sc[(s + 1) & 1][t], &scale[(s + 1) * 128 + t]);
            asm volatile("cp.async.commit_group;" ::: "memory");
            asm volatile("cp.async.wait_group 1;" ::: "memory");
        } else {
            asm volatile("cp.async.wait_group 0;" ::: "memory");
        }
        __syncthreads();
        float4 v = buf[s & 1][(t * 5) & 127];
        acc += (v.x + v.y + v.z + v.w) * sc[s & 1][(t * 2) & 127];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}
