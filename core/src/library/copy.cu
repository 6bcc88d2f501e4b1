// Copy: a streaming device-to-device copy, the simplest memory-intensive ("M") kernel for the
// concurrent-kernel-execution paper's pairings (its s2/sad2-like "almost pure streaming"
// case). Each thread copies ELEMS_PER_THREAD words with a grid-stride loop: one coalesced
// load and one coalesced store per word and almost no arithmetic, nothing ever reused. The
// L1 misses on every load, so the warps' requests fill the miss queue and MSHRs and stall
// the memory pipeline for any kernel sharing the SM.
// The knob N is the number of words (a multiple of 1024): the default 2097152 is 2048 blocks
// of 256 threads moving 8 MB in and 8 MB out, ten times the GTX 480's L2.
#define N 2097152
#define ELEMS_PER_THREAD 4
#define BLOCK 256

__global__ void copy(const float* src, float* dst, int n) {
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        dst[i] = src[i];
    }
}

host {
    float src[N] = random(0.0, 1.0, 91);
    float dst[N];
    copy<<<N / (BLOCK * ELEMS_PER_THREAD), BLOCK>>>(src, dst, N);
}
