__global__ void pred_k5(float *out, float c)
{
    __shared__ float s[512];
    unsigned t = threadIdx.x;
    s[t] = (float)t;
    __syncthreads();
    float x = 0.0f;
    if (t & 32) {
        x = s[t ^ 1];
        x = x * x + c;
        x = x * x + c;
        x = x * x + c;
        x = x * x + c;
        x = x * x + c;
    }
    s[t + 256] = x;
    __syncthreads();
    out[t] = s[t + 256];
}
// predicate_k5 (issue 38, the predication bound): an if whose body is one shared load and 5 chained FMAs.
// ptxas (13.0, and the driver's JIT) if-converts it with 4 FMAs and branches around it with 5:
// tests/data/ptx/README.md, "the predication bound". Nothing may be added above: the lines are measured.
