// Naive matrix multiply: each thread computes one element of C with a loop over k reading a row
// of A (one word, broadcast to the warp) and a column of B (coalesced) from global memory.
#define N 256

__global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; k++) {
        sum += A[row * n + k] * B[k * n + col];
    }
    C[row * n + col] = sum;
}

host {
    float A[N * N] = random(-1.0, 1.0, 5);
    float B[N * N] = random(-1.0, 1.0, 6);
    float C[N * N];
    matmul_naive<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(A, B, C, N);
}
