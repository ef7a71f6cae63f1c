// atomic_float: float atomicAdd on shared memory (no native shared float add on sm_90: a
// compare-and-swap loop). Pairs of lanes share a word within a warp, warps never share one.
__global__ void atomic_float(float *out)
{
    __shared__ float acc[256];
    unsigned t = threadIdx.x;
    acc[t] = 0.0f;
    __syncthreads();
    atomicAdd(&acc[(t & ~31u) + ((t & 31) >> 1)], 1.5f);
    atomicAdd(&acc[t], 0.25f);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = acc[t];
}
