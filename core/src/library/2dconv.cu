// 2DCONV (PolyBench/GPU): a 3 x 3 convolution of an N x N image, one thread per output pixel
// in 32 x 8 blocks, exactly PolyBench/GPU's kernel and coefficients. A warp is 32 neighbouring
// pixels of one row, so its nine loads are coalesced (three rows, two lines each) and the rows
// it shares with the warps above and below are the only reuse. CIAO uses it (4096 x 4096, 64 MB)
// as a compute-intensive control: little memory traffic per instruction (APKI 9) and no
// interference worth managing (36 warps per SM best, Table II), so a cache policy should leave
// its speed alone.
// The knob N is the image side. At the default 1024 the image is 4 MB (above the 768 KB L2) and
// the grid is 32 x 128 blocks of 8 warps.
#define N 1024
#define BX 32
#define BY 8

__global__ void Convolution2D_kernel(const float* A, float* B, int ni, int nj) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    float c11 = 0.2f;
    float c21 = 0.5f;
    float c31 = -0.8f;
    float c12 = -0.3f;
    float c22 = 0.6f;
    float c32 = -0.9f;
    float c13 = 0.4f;
    float c23 = 0.7f;
    float c33 = 0.1f;
    if (i < ni - 1 && j < nj - 1 && i > 0 && j > 0) {
        B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + j] + c31 * A[(i - 1) * nj + (j + 1)]
            + c12 * A[i * nj + (j - 1)] + c22 * A[i * nj + j] + c32 * A[i * nj + (j + 1)]
            + c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + j] + c33 * A[(i + 1) * nj + (j + 1)];
    }
}

host {
    float A[N * N] = random(0.0, 1.0, 41);
    float B[N * N];
    Convolution2D_kernel<<<dim3((N + BX - 1) / BX, (N + BY - 1) / BY), dim3(BX, BY)>>>(A, B, N, N);
}
