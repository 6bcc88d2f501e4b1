// GEMM (PolyBench/GPU): C = alpha A B + beta C for N x N matrices, in PolyBench/GPU's naive
// kernel: one thread per element of C in 32 x 8 blocks, no shared-memory tiling. The lanes of a
// warp share i and differ in j, so a[i*N+k] is a broadcast (one line re-read for 32 values of
// k) and b[k*N+j] is one coalesced line that every warp of the same block column reads too. The
// reuse is across warps and blocks rather than inside a thread: a contrast to the row-walking
// LWS kernels (ATAX, BICG, MVT), where each warp thrashes on lines only it uses.
// PolyBench/GPU accumulates in c[i*N+j] in global memory; here the sum stays in a register
// (starting from beta c) and is stored once, adding the same terms in the same order.
// The knob N is the matrix side. At the default 192 the grid is 6 x 24 blocks of 8 warps
// (36864 threads) and the three matrices take 432 KB, 27 times the 16 KB L1 (the work grows
// as N^3).
#define N 192
#define BX 32
#define BY 8
#define ALPHA 1.5f
#define BETA 1.2f

__global__ void gemm_kernel(const float* a, const float* b, float* c, int ni, int nj, int nk) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float sum = c[i * nj + j] * BETA;
        for (int k = 0; k < nk; k++) {
            sum += ALPHA * a[i * nk + k] * b[k * nj + j];
        }
        c[i * nj + j] = sum;
    }
}

host {
    float a[N * N] = random(0.0, 1.0, 61);
    float b[N * N] = random(0.0, 1.0, 62);
    float c[N * N] = random(0.0, 1.0, 63);
    gemm_kernel<<<dim3((N + BX - 1) / BX, (N + BY - 1) / BY), dim3(BX, BY)>>>(a, b, c, N, N, N);
}
