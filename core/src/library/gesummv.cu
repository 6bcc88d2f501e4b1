// GESUMMV (PolyBench/GPU): y = alpha A x + beta B x for two N x N matrices, in PolyBench/GPU's
// single kernel: thread i walks ROW i of both matrices at once. The 32 lanes of a warp load 32
// different lines of A and 32 of B per iteration and come back to them for the next 31
// iterations, so a warp's hot set is 64 lines (8 KB): two warps fill the 16 KB L1 and the rest
// evict each other's lines. CIAO runs it at 128 MB (Table II: the most memory-intensive
// benchmark, APKI 136, small-working-set class, 2 warps per SM best).
// PolyBench/GPU accumulates in tmp[i] and y[i] in global memory; here both sums stay in
// registers (starting at 0, as PolyBench's do) and are stored once.
// The knob N is the matrix side. At the default 1024 the two matrices are 8 MB (far above the
// 768 KB L2) and the kernel runs 4 blocks of 8 warps.
#define N 1024
#define BLOCK 256
#define ALPHA 1.5f
#define BETA 1.2f

__global__ void gesummv_kernel(const float* A, const float* B, const float* x, float* y, float* tmp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f;
        float s = 0.0f;
        for (int j = 0; j < n; j++) {
            t += A[i * n + j] * x[j];
            s += B[i * n + j] * x[j];
        }
        tmp[i] = t;
        y[i] = ALPHA * t + BETA * s;
    }
}

host {
    float A[N * N] = random(0.0, 1.0, 31);
    float B[N * N] = random(0.0, 1.0, 32);
    float x[N] = random(0.0, 1.0, 33);
    float y[N];
    float tmp[N];
    gesummv_kernel<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(A, B, x, y, tmp, N);
}
