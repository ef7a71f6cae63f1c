// predicated_if: short ifs that ptxas turns into predicated shared loads and stores: odd
// lanes store, lanes of the first half-warp load, and one warp of the block stores nothing.
__global__ void predicated_if(float *out, int limit)
{
    __shared__ float s[512];
    unsigned t = threadIdx.x;
    s[t] = (float)t;
    s[t + 256] = 0.0f;
    __syncthreads();
    if (t & 1)
        s[t + 256] = s[t - 1] * 2.0f;
    float v = 0.0f;
    if ((t & 31) < 16)
        v = s[(t * 2) & 511];
    if ((int)t < limit)
        s[t ^ 32] = v;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = v + s[t + 256];
}
