// Matrix multiply: C = A x B with 16 x 16 shared-memory tiles (the CUDA programming guide's
// kernel), a compute-intensive ("C") kernel for the concurrent-kernel-execution paper's
// pairings. Each block loads one tile of A and one of B per step (two coalesced loads per
// thread), synchronises, and runs 16 multiply-adds out of shared memory, so the global
// memory pipeline is lightly loaded and the shared-memory and ALU pipelines busy. Blocks in
// the same row of C share A's tiles and blocks in the same column share B's, through L2.
// The knob N is the side of the matrices (a multiple of 16): the default 192 is 144 blocks of
// 256 threads, three 144 KB matrices (432 KB: more than all 15 L1s, within the L2).
#define N 192
#define TILE 16

__global__ void matmul(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            sum += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    C[row * n + col] = sum;
}

host {
    float A[N * N] = random(-1.0, 1.0, 81);
    float B[N * N] = random(-1.0, 1.0, 82);
    float C[N * N];
    matmul<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(A, B, C, N);
}
