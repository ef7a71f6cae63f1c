// hist_const: a 64-bin shared histogram of index-derived keys, atomicAdd(&h[b], 1) with the
// result unused (ptxas's ATOMS.POPC.INC form), then the bins written out.
__global__ void hist_const(unsigned *out, int items)
{
    __shared__ unsigned h[64];
    unsigned t = threadIdx.x;
    if (t < 64)
        h[t] = 0;
    __syncthreads();
    for (int i = t; i < items; i += blockDim.x) {
        unsigned key = (unsigned)(i * 7 + blockIdx.x * 13) * 2654435761u;
        atomicAdd(&h[key >> 26], 1u);
    }
    __syncthreads();
    if (t < 64)
        out[blockIdx.x * 64 + t] = h[t];
}
