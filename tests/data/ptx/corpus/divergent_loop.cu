// divergent_loop: every lane loops (t % 5) + 1 times, reading and writing its own words of
// a shared array: the warp's active lanes shrink from iteration to iteration.
__global__ void divergent_loop(float *out)
{
    __shared__ float s[1024];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 1024; i += blockDim.x)
        s[i] = 0.0f;
    __syncthreads();
    unsigned trips = t % 5 + 1;
    float acc = 0.0f;
    for (unsigned i = 0; i < trips; i++) {
        acc += s[(t * 4 + i * 33) & 1023];
        s[(t + i * 128) & 1023] = acc + 1.0f;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = acc + s[t];
}
