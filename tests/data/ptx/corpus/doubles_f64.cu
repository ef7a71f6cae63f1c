// doubles_f64: 8-byte shared accesses: doubles written by consecutive lanes (a warp spans
// 256 B: 2 wavefronts) and read at strides of 2 and 16 doubles.
__global__ void doubles_f64(double *out)
{
    __shared__ double d[1024];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 1024; i += blockDim.x)
        d[i] = (double)i * 0.5;
    __syncthreads();
    double a = d[(t * 2) & 1023];
    double b = d[(t * 16) & 1023];
    out[blockIdx.x * blockDim.x + t] = a + b;
}
