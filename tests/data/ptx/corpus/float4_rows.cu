// float4_rows: 16-byte shared stores and loads: a row of float4 written by consecutive
// lanes (4 wavefronts a warp), then read with a stride of two float4 (lanes 0 and 4 share banks: 2-way).
__global__ void float4_rows(float4 *out)
{
    __shared__ float4 rows[512];
    unsigned t = threadIdx.x;
    rows[t] = make_float4((float)t, 1.0f, 2.0f, 3.0f);
    rows[t + 256] = make_float4(0.0f, (float)t, 0.0f, 0.0f);
    __syncthreads();
    float4 a = rows[(2 * t) & 511];
    float4 b = rows[t ^ 1];
    out[blockIdx.x * blockDim.x + t] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
