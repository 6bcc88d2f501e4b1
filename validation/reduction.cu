// Shared-memory tree reduction: each block of 256 threads loads 256 floats, halves the active
// threads each step with a barrier between steps, and writes one partial sum.
#define N 4194304
#define BLOCK 256

__global__ void reduce(const float* in, float* partial, int n) {
    __shared__ float s[BLOCK];
    int tx = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tx;
    s[tx] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int step = blockDim.x / 2; step > 0; step /= 2) {
        if (tx < step) {
            s[tx] += s[tx + step];
        }
        __syncthreads();
    }
    if (tx == 0) {
        partial[blockIdx.x] = s[0];
    }
}

host {
    float in[N] = random(0.0, 1.0, 7);
    float partial[N / BLOCK];
    reduce<<<N / BLOCK, BLOCK>>>(in, partial, N);
}
