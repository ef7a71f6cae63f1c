// transpose_naive: 64x64 float transpose through a 32x32 shared tile, no padding.
// The column read tile[tx][ty + j] puts a warp's 32 lanes 128 B apart: one bank, 32 wavefronts.
#define TILE 32
#define ROWS 8
__global__ void transpose_naive(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
