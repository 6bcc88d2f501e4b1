// MVT (PolyBench/GPU): x1 += A y1 and x2 += A^T y2 for an N x N matrix, in PolyBench/GPU's two
// kernels, both with one thread per element of the result.
// mvt_kernel1: thread i walks ROW i, so the 32 lanes of a warp load 32 different 128-byte lines
// and each lane re-reads its line for the next 31 iterations; a warp's hot set is 32 lines
// (4 KB) and 8 warps overflow the 16 KB L1 twice over, so warps evict each other's lines.
// mvt_kernel2: thread i walks COLUMN i, so a warp's loads are coalesced and stream with no reuse.
// CIAO runs MVT at 64 MB (Table II: LWS class, 2 warps per SM best).
// PolyBench/GPU accumulates in x1[i] / x2[i] in global memory; here the sum starts from x1[i]
// (x2[i]) in a register and is stored once, adding the same terms in the same order.
// The knob N is the matrix side. At the default 1024 the matrix is 4 MB (above the 768 KB L2)
// and each kernel runs 4 blocks of 8 warps.
#define N 1024
#define BLOCK 256

__global__ void mvt_kernel1(const float* a, float* x1, const float* y1, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = x1[i];
        for (int j = 0; j < n; j++) {
            sum += a[i * n + j] * y1[j];
        }
        x1[i] = sum;
    }
}

__global__ void mvt_kernel2(const float* a, float* x2, const float* y2, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = x2[i];
        for (int j = 0; j < n; j++) {
            sum += a[j * n + i] * y2[j];
        }
        x2[i] = sum;
    }
}

host {
    float a[N * N] = random(0.0, 1.0, 26);
    float x1[N] = random(0.0, 1.0, 27);
    float x2[N] = random(0.0, 1.0, 28);
    float y1[N] = random(0.0, 1.0, 29);
    float y2[N] = random(0.0, 1.0, 30);
    mvt_kernel1<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(a, x1, y1, N);
    mvt_kernel2<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(a, x2, y2, N);
}
