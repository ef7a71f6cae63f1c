// reduce_interleaved: block sum with interleaved addressing (index = 2*s*tid): the active
// lanes of a warp are 2*s words apart, so each step's loads and stores conflict 2, 4, ... ways.
__global__ void reduce_interleaved(float *out, const float *in)
{
    extern __shared__ float sdata[];
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid] + (float)tid;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
