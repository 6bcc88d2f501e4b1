// SYR2K (PolyBench/GPU): C = alpha A B^T + alpha B A^T + beta C for N x N matrices (M = N), in
// PolyBench/GPU's kernel: one thread per element of C in 32 x 8 blocks. The lanes of a warp share
// i and differ in j, so a[i*M+k] and b[i*M+k] are broadcasts while b[j*M+k] and a[j*M+k] touch
// 32 different lines each, every line re-read for the next 31 values of k. The 8 warps of a
// block share those 64 lines; the blocks on one SM do not, so 2 blocks already fill the 16 KB L1
// and the rest evict each other's rows. CIAO runs it at 3 x 2048 x 2048 (48 MB) as a
// small-working-set benchmark (APKI 108, 6 warps per SM best, Table II).
// PolyBench/GPU accumulates in c[i*N+j] in global memory; here the sum stays in a register
// (starting from beta c) and is stored once, adding the same terms in the same order.
// The knob N is the matrix side (and the inner dimension). At the default 128 the grid is
// 4 x 16 blocks of 8 warps (16384 threads, about 4 blocks per SM wanting 4 x 8 KB of rows
// against the 16 KB L1) and the three matrices take 192 KB (the work grows as N^3).
#define N 128
#define BX 32
#define BY 8
#define ALPHA 1.5f
#define BETA 1.2f

__global__ void syr2k_kernel(const float* a, const float* b, float* c, int n, int m) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        float sum = c[i * n + j] * BETA;
        for (int k = 0; k < m; k++) {
            sum += ALPHA * a[i * m + k] * b[j * m + k] + ALPHA * b[i * m + k] * a[j * m + k];
        }
        c[i * n + j] = sum;
    }
}

host {
    float a[N * N] = random(0.0, 1.0, 51);
    float b[N * N] = random(0.0, 1.0, 52);
    float c[N * N] = random(0.0, 1.0, 53);
    syr2k_kernel<<<dim3((N + BX - 1) / BX, (N + BY - 1) / BY), dim3(BX, BY)>>>(a, b, c, N, N);
}
