// Tiled matrix multiply: 16 x 16 tiles of A and B staged through shared memory (the CUDA
// programming guide's kernel), 16 multiply-adds per tile out of shared memory.
#define N 256
#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
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
    float A[N * N] = random(-1.0, 1.0, 5);
    float B[N * N] = random(-1.0, 1.0, 6);
    float C[N * N];
    matmul_tiled<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(A, B, C, N);
}
