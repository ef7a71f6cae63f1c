// sgemm_tiled: C = A * B (row-major, M = N = K = 64) with 32x32 tiles of C per block, 8x8
// threads each computing 4x4; the k-major tiles are 16-byte aligned, so the four consecutive
// floats a thread reads from a tile row are one wide load when ptxas can prove the alignment.
#define BM 32
#define BN 32
#define BK 8
__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 8 + tx;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int i = t; i < BM * BK; i += 64) {
            int r = i / BK, k = i % BK;          /* A tile, stored transposed (k-major) */
            As[k][r] = A[(row0 + r) * K + k0 + k];
            int kk = i / BN, c = i % BN;
            Bs[kk][c] = B[(k0 + kk) * N + col0 + c];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[4], b[4];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                a[i] = As[k][ty * 4 + i];
                b[i] = Bs[k][tx * 4 + i];
            }
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
}
