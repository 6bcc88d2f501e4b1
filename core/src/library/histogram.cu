// Histogram: the CUDA SDK's 256-bin histogram, an atomics-heavy kernel for the
// concurrent-kernel-execution paper's pairings. Each block clears a shared-memory histogram,
// streams ELEMS_PER_THREAD values per thread through it with shared atomicAdd (a coalesced
// load, then a data-dependent shared-memory atomic), and finally adds its 256 bins into the
// global histogram with global atomicAdd. Its global traffic is a streamed read plus a burst
// of atomics at the end of each block; integer atomics make the result order-independent.
// The bin of value v is v * v / 256, so the low bins are hot (as dark pixels are in images)
// and same-bin conflicts within a warp are common.
// The knob N is the number of values (a multiple of 2048): the default 2097152 is 1024 blocks
// of 256 threads reading 8 MB, ten times the GTX 480's L2.
#define N 2097152
#define BINS 256
#define ELEMS_PER_THREAD 8
#define BLOCK 256

__global__ void histogram(const int* data, int* hist, int n) {
    __shared__ int local[BINS];
    int tx = threadIdx.x;
    for (int b = tx; b < BINS; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + tx; i < n; i += stride) {
        int v = data[i];
        atomicAdd(&local[v * v / BINS], 1);
    }
    __syncthreads();
    for (int b = tx; b < BINS; b += blockDim.x) {
        int count = local[b];
        if (count != 0) {
            atomicAdd(&hist[b], count);
        }
    }
}

host {
    int data[N] = random(0, 255, 101);
    int hist[BINS];
    histogram<<<N / (BLOCK * ELEMS_PER_THREAD), BLOCK>>>(data, hist, N);
}
