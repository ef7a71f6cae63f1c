// global_index: the one corpus kernel whose shared address depends on global data: each lane
// reads its slot index from a buffer (zero-filled in the corpus launch, so every lane hits
// word 0: a broadcast); an analysis without the buffer's contents must call this line unsure.
__global__ void global_index(float *out, const int *index)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = (float)t;
    __syncthreads();
    int k = index[blockIdx.x * blockDim.x + t] & 255;
    out[blockIdx.x * blockDim.x + t] = s[k];
}
