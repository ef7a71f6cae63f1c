// dynamic_after_static: two static shared arrays (odd sizes) and a 64 KiB dynamic array
// (launched with dynamic_shared = 65536: above the 48 KiB default, the opt-in attribute).
// Where ptxas places the dynamic array after the static ones decides the dynamic accesses' banks.
__global__ void dynamic_after_static(float *out, int stride)
{
    __shared__ float small[37];
    __shared__ short odd[5];
    extern __shared__ float dyn[];
    unsigned t = threadIdx.x;
    if (t < 37)
        small[t] = (float)t;
    if (t < 5)
        odd[t] = (short)t;
    for (unsigned i = t; i < 16384; i += blockDim.x)
        dyn[i] = (float)i;
    __syncthreads();
    float a = dyn[(t * stride) & 16383];
    float b = dyn[16383 - t];
    out[blockIdx.x * blockDim.x + t] = a + b + small[t % 37] + odd[t % 5];
}
