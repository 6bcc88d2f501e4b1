// 256-bin histogram with global atomics: each thread adds one to the bin of its value. Values
// are uniform over 0..=255, so the lanes of a warp hit about 30 distinct bins, and all blocks
// update the same 256 words: the L2's atomic unit serialises the updates of each word.
#define N 1048576
#define BINS 256

__global__ void histogram(const int* data, int* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&hist[data[i]], 1);
    }
}

host {
    int data[N] = random(0, BINS - 1, 10);
    int hist[BINS];
    histogram<<<N / 256, 256>>>(data, hist, N);
}
