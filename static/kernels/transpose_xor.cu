// transpose_xor: the transpose with an XOR-swizzled tile instead of padding:
// element (r, c) lives at column c ^ r, so both the row write and the column read are conflict-free.
#define TILE 32
#define ROWS 8
__global__ void transpose_xor(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int r = threadIdx.y + j;
        tile[r][threadIdx.x ^ r] = in[(y + j) * n + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        int c = threadIdx.y + j;
        out[(y + j) * n + x] = tile[threadIdx.x][c ^ threadIdx.x];
    }
}
