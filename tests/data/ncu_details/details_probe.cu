// details_probe.cu - one launch for `ncu --page details` with sections (issue 39
// item 5): a 32x32 float tile stored by rows (conflict-free) and read by columns
// (32-way), so the details page's shared-memory tables have a conflict to show.
// Team-written; built and profiled on the GPU machine by the command in
// README.md beside it. Not part of the product or of make test's build.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void column_read(float *out, const float *in)
{
    __shared__ float tile[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * 32 + x];
    __syncthreads();
    out[y * 32 + x] = tile[x][y];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 32 * 32 * sizeof(float));
    cudaMalloc(&out, 32 * 32 * sizeof(float));
    cudaMemset(in, 0, 32 * 32 * sizeof(float));
    column_read<<<1, dim3(32, 32)>>>(out, in);
    cudaError_t e = cudaDeviceSynchronize();
    printf("column_read: %s\n", cudaGetErrorString(e));
    cudaFree(in);
    cudaFree(out);
    return e != cudaSuccess;
}
