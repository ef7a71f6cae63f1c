// reduce_sequential: block sum with sequential addressing (tid and tid + s): contiguous
// lanes, no bank conflict; warps with no active lane skip the step's accesses.
__global__ void reduce_sequential(float *out, const float *in)
{
    __shared__ float sdata[256];
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid] + (float)tid;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
