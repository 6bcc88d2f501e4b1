// SRAD v2: Rodinia's speckle-reducing anisotropic diffusion of an ultrasound image, as run by
// the inter-kernel reuse paper (SD2: 512 x 512, 10 iterations of 2 kernels on 16 x 16 tiles,
// 91% self-dependency). Per iteration, srad1 reads the image J (its tile through shared
// memory, the neighbouring tiles' border cells from global memory) and writes the four
// directional derivatives and the diffusion coefficient c; srad2 reads c (plus the south and
// east neighbours' c) and the derivatives and updates J in place. Block b of each kernel
// reads what block b of the kernel before it wrote: J from the last srad2, dN/dS/dW/dE/c from
// the srad1 just before. In Rodinia the CPU recomputes q0sqr from a region of interest
// between iterations; here it is a host constant, so an iteration is exactly two launches.
// The knob N is the side of the image (a multiple of 16): at the default 256 there are 256
// blocks per kernel and the six arrays take 1.5 MB, twice the GTX 480's L2.
#define N 256
#define ITERATIONS 10
#define TILE 16

__global__ void srad1(const float* J, float* dN, float* dS, float* dW, float* dE, float* C, int n, float q0sqr) {
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    int i = row * n + col;
    float jc = J[i];
    tile[ty][tx] = jc;
    __syncthreads();

    // At the image's edge a pixel is its own neighbour (Rodinia's clamped indices).
    float north = jc;
    if (ty > 0) {
        north = tile[ty - 1][tx];
    } else if (row > 0) {
        north = J[i - n];
    }
    float south = jc;
    if (ty < TILE - 1) {
        south = tile[ty + 1][tx];
    } else if (row < n - 1) {
        south = J[i + n];
    }
    float west = jc;
    if (tx > 0) {
        west = tile[ty][tx - 1];
    } else if (col > 0) {
        west = J[i - 1];
    }
    float east = jc;
    if (tx < TILE - 1) {
        east = tile[ty][tx + 1];
    } else if (col < n - 1) {
        east = J[i + 1];
    }

    float n_ = north - jc;
    float s_ = south - jc;
    float w_ = west - jc;
    float e_ = east - jc;
    float g2 = (n_ * n_ + s_ * s_ + w_ * w_ + e_ * e_) / (jc * jc);
    float l = (n_ + s_ + w_ + e_) / jc;
    float num = 0.5f * g2 - 0.0625f * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    if (c < 0.0f) {
        c = 0.0f;
    } else if (c > 1.0f) {
        c = 1.0f;
    }
    dN[i] = n_;
    dS[i] = s_;
    dW[i] = w_;
    dE[i] = e_;
    C[i] = c;
}

__global__ void srad2(float* J, const float* dN, const float* dS, const float* dW, const float* dE, const float* C, int n, float lambda) {
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    int i = row * n + col;
    float cc = C[i];
    tile[ty][tx] = cc;
    __syncthreads();

    float cs = cc;
    if (ty < TILE - 1) {
        cs = tile[ty + 1][tx];
    } else if (row < n - 1) {
        cs = C[i + n];
    }
    float ce = cc;
    if (tx < TILE - 1) {
        ce = tile[ty][tx + 1];
    } else if (col < n - 1) {
        ce = C[i + 1];
    }
    float d = cc * dN[i] + cs * dS[i] + cc * dW[i] + ce * dE[i];
    J[i] = J[i] + 0.25f * lambda * d;
}

host {
    float J[N * N] = random(1.0, 2.0, 31);   // exp(image) in Rodinia: positive intensities
    float dN[N * N];
    float dS[N * N];
    float dW[N * N];
    float dE[N * N];
    float C[N * N];
    for (int iter = 0; iter < ITERATIONS; iter++) {
        srad1<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(J, dN, dS, dW, dE, C, N, 0.05);
        srad2<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(J, dN, dS, dW, dE, C, N, 0.5);
    }
}
