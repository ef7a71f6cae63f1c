// hist_lane: the histogram with a per-lane operand (a weight from the lane's index) and a
// second pass that keeps the old value, so that the adds stay ATOMS.ADD and serialize per bank.
__global__ void hist_lane(unsigned *out, int items)
{
    __shared__ unsigned h[64];
    __shared__ unsigned seen[256];
    unsigned t = threadIdx.x;
    if (t < 64)
        h[t] = 0;
    __syncthreads();
    for (int i = t; i < items; i += blockDim.x)
        atomicAdd(&h[(i * 3) & 63], (unsigned)(i & 3) + 1u);
    __syncthreads();
    seen[t] = atomicAdd(&h[t & 7], 1u);
    __syncthreads();
    if (t < 64)
        out[blockIdx.x * 64 + t] = h[t] + seen[t * 4];
}
