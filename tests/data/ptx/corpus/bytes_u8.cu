// bytes_u8: 1-byte shared accesses: a byte per lane written contiguously (4 lanes a word),
// then read with a stride of 4 and of 128 bytes (a warp on one bank, 32 distinct words).
__global__ void bytes_u8(unsigned char *out)
{
    __shared__ unsigned char b[4096];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 4096; i += blockDim.x)
        b[i] = (unsigned char)(i * 7);
    __syncthreads();
    unsigned char x = b[(t * 4) & 4095];
    unsigned char y = b[(t * 128 + (t >> 5)) & 4095];
    volatile unsigned char *vb = b;
    unsigned char z = vb[t ^ 3];
    out[blockIdx.x * blockDim.x + t] = (unsigned char)(x + y + z);
}
