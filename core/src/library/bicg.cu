// BiCG sub-kernel (PolyBench/GPU): s = A^T r and q = A p for an N x N matrix, the two
// matrix-vector products of one BiCGStab step, in PolyBench/GPU's two kernels.
// bicg_kernel1 gives every thread one COLUMN of A (coalesced loads, streaming, no reuse);
// bicg_kernel2 gives every thread one ROW: the 32 lanes of a warp load 32 different 128-byte
// lines and each lane re-reads its line for the next 31 iterations, so a warp's hot set is
// 32 lines (4 KB) and 8 warps already overflow the 16 KB L1 twice over. The warps evict each
// other's lines: the large-working-set interference of CIAO (Table II: BICG, 64 MB, LWS class,
// 2 warps per SM best). The same two access patterns as ATAX, in the opposite order.
// PolyBench/GPU accumulates in s[j] / q[i] in global memory; here the sum stays in a register
// and is stored once (the same values: PolyBench zeroes them first).
// The knob N is the matrix side. At the default 1024 the matrix is 4 MB (above the 768 KB L2)
// and each kernel runs 4 blocks of 8 warps.
#define N 1024
#define BLOCK 256

__global__ void bicg_kernel1(const float* A, const float* r, float* s, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        float sum = 0.0f;
        for (int i = 0; i < n; i++) {
            sum += A[i * n + j] * r[i];
        }
        s[j] = sum;
    }
}

__global__ void bicg_kernel2(const float* A, const float* p, float* q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int j = 0; j < n; j++) {
            sum += A[i * n + j] * p[j];
        }
        q[i] = sum;
    }
}

host {
    float A[N * N] = random(0.0, 1.0, 23);
    float r[N] = random(0.0, 1.0, 24);
    float p[N] = random(0.0, 1.0, 25);
    float s[N];
    float q[N];
    bicg_kernel1<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(A, r, s, N);
    bicg_kernel2<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(A, p, q, N);
}
