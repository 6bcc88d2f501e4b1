// ATAX (PolyBench/GPU): y = A^T (A x) for an N x N matrix, in PolyBench/GPU's two kernels.
// atax_kernel1 gives every thread one ROW of A and walks along it, so the 32 lanes of a warp
// touch 32 different 128-byte lines per load, and each lane comes back to its line for the next
// 31 iterations. A warp's hot set is 32 lines (4 KB): one 256-thread block (8 warps) on an SM
// already wants twice the 16 KB L1, so warps evict each other's lines before their owners return
// to them. This is the large-working-set interference CIAO detects (a victim-tag hit names the
// warp that evicted the line) and cures by isolating or stalling the interfering warp; CIAO runs
// ATAX at N = 4096 (64 MB) and finds 2 warps per SM best (Table II, LWS class).
// atax_kernel2 gives every thread one COLUMN: its loads are coalesced and stream through A with
// no reuse, the cache-insensitive second phase of the paper's ATAX time line (Fig. 9).
// PolyBench/GPU accumulates in tmp[i] / y[j] in global memory; here the sum stays in a register
// and is stored once (the same values: the sums start at 0).
// The knob N is the matrix side. At the default 1024 the matrix is 4 MB (above the 768 KB L2)
// and each kernel runs 4 blocks of 8 warps, i.e. the paper's 8 warps per busy SM.
#define N 1024
#define BLOCK 256

__global__ void atax_kernel1(const float* A, const float* x, float* tmp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int j = 0; j < n; j++) {
            sum += A[i * n + j] * x[j];
        }
        tmp[i] = sum;
    }
}

__global__ void atax_kernel2(const float* A, const float* tmp, float* y, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        float sum = 0.0f;
        for (int i = 0; i < n; i++) {
            sum += A[i * n + j] * tmp[i];
        }
        y[j] = sum;
    }
}

host {
    float A[N * N] = random(0.0, 1.0, 21);
    float x[N] = random(0.0, 1.0, 22);
    float tmp[N];
    float y[N];
    atax_kernel1<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(A, x, tmp, N);
    atax_kernel2<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(A, tmp, y, N);
}
