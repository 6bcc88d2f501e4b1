// 3DCONV (PolyBench/GPU): a 3 x 3 x 3 convolution of an N x N x N volume, written as PolyBench/GPU
// writes it: the host launches one kernel per interior plane i, and each launch gives every
// (j, k) of that plane a thread in 32 x 8 blocks, with PolyBench/GPU's 15-term stencil (its
// repeated corner terms included). A warp is 32 neighbouring k of one row, so every load is
// coalesced; the reuse is between neighbouring rows and planes, i.e. across warps and across
// launches. A stencil control like 2DCONV (CIAO's compute-intensive class): a policy that
// throttles or isolates warps here has nothing to gain.
// The knob N is the side of the volume. At the default 96 each volume is 3.4 MB (above the
// 768 KB L2) and each of the 94 launches runs 3 x 12 blocks of 8 warps.
#define N 96
#define BX 32
#define BY 8

__global__ void convolution3D_kernel(const float* A, float* B, int ni, int nj, int nk, int i) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    float c11 = 2.0f;
    float c21 = 5.0f;
    float c31 = -8.0f;
    float c12 = -3.0f;
    float c22 = 6.0f;
    float c32 = -9.0f;
    float c13 = 4.0f;
    float c23 = 7.0f;
    float c33 = 10.0f;
    if (i < ni - 1 && j < nj - 1 && k < nk - 1 && i > 0 && j > 0 && k > 0) {
        int p = nk * nj;
        B[i * p + j * nk + k] = c11 * A[(i - 1) * p + (j - 1) * nk + (k - 1)] + c13 * A[(i + 1) * p + (j - 1) * nk + (k - 1)]
            + c21 * A[(i - 1) * p + (j - 1) * nk + (k - 1)] + c23 * A[(i + 1) * p + (j - 1) * nk + (k - 1)]
            + c31 * A[(i - 1) * p + (j - 1) * nk + (k - 1)] + c33 * A[(i + 1) * p + (j - 1) * nk + (k - 1)]
            + c12 * A[i * p + (j - 1) * nk + k] + c22 * A[i * p + j * nk + k]
            + c32 * A[i * p + (j + 1) * nk + k] + c11 * A[(i - 1) * p + (j - 1) * nk + (k + 1)]
            + c13 * A[(i + 1) * p + (j - 1) * nk + (k + 1)] + c21 * A[(i - 1) * p + j * nk + (k + 1)]
            + c23 * A[(i + 1) * p + j * nk + (k + 1)] + c31 * A[(i - 1) * p + (j + 1) * nk + (k + 1)]
            + c33 * A[(i + 1) * p + (j + 1) * nk + (k + 1)];
    }
}

host {
    float A[N * N * N] = random(0.0, 1.0, 42);
    float B[N * N * N];
    for (int i = 1; i < N - 1; i++) {
        convolution3D_kernel<<<dim3((N + BX - 1) / BX, (N + BY - 1) / BY), dim3(BX, BY)>>>(A, B, N, N, N, i);
    }
}
