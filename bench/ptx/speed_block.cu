// speed_block: one block of 1024 threads, ~3 million lane-instructions: a
// 64-step loop of shared loads (a row and a column of a 32x33 tile), fmas
// and a barrier per step, the shape of a tiled GEMM's inner loop.
__global__ void speed_block(float *out, int steps)
{
    __shared__ float a[32][33];
    __shared__ float b[32][33];
    int x = threadIdx.x, y = threadIdx.y;
    float acc = 0.f;
    for (int s = 0; s < steps; s++) {
        a[y][x] = x + s;
        b[y][x] = y - s;
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < 32; k++)
            acc += a[y][k] * b[k][x];
        __syncthreads();
    }
    out[y * 32 + x] = acc;
}
