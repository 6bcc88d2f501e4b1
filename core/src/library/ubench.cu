// The inter-kernel reuse paper's microbenchmark (§5.4.1): each thread loads, adds to and stores
// 8 words of its block's private 8 KB slice, and the same kernel runs 16 times on the same
// array, in place. Block b re-reads exactly what block b wrote the launch before (100 %
// self-dependency), so where block b runs decides whether its data is still in an L1.
// The knob T is the number of blocks. On the paper's 3-CU system (32 KB L1s, a 256 KB L2):
// 12 blocks (4 per SM = 32 KB) fit the L1s (GPU-small), 36 split between the L1s and the L2
// (GPU-medium), 96 (768 KB) exceed both (GPU-large). The slice layout (8 rows of B words per
// block, row j read by every thread in step j) and B = 256 are the notes' suggestion.
#define T 12
#define B 256
#define LAUNCHES 16

__global__ void ubench(float* a) {
    int tb = blockIdx.x;
    for (int j = 0; j < 8; j++) {
        int i = (tb * 8 + j) * B + threadIdx.x;
        a[i] = a[i] + 1.0f;
    }
}

host {
    float a[T * 8 * B] = iota();
    for (int k = 0; k < LAUNCHES; k++) {
        ubench<<<T, B>>>(a);
    }
}
