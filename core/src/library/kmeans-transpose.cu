// K-means transpose: Rodinia kmeans' point-major to feature-major swap of its input, the
// concurrent-kernel paper's ks, its most memory-intensive kernel but one (Table 2: 17 requests
// per memory instruction, every access a miss, eight failed attempts per access). Thread p
// reads point p's FEATURES consecutive words, so each warp load touches 34 lines 136 bytes
// apart, and writes them feature-major, coalesced, with almost no arithmetic. At full occupancy
// the warps' 34-line loads crowd the L1, so many of a warp's lines are gone before its next
// feature reads them; held to one or two loads in flight, they survive (the notes' §5.3).
// This is the memory kernel of `pair-compute-memory`, as a program of its own to run beside
// others (`backprop+kmeans-transpose` is the paper's bp+ks).
// The knob POINTS is the number of points: at the default 49152, 192 blocks of 256 threads
// (twelve per SM on the paper's 16 SMs), the input takes 6.4 MB, three times its L2.
#define POINTS 49152
#define FEATURES 34
#define BLOCK 256

__global__ void transpose_points(const float* points_major, float* features_major, int points) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= points) {
        return;
    }
    for (int f = 0; f < FEATURES; f++) {
        features_major[f * points + p] = points_major[p * FEATURES + f];
    }
}

host {
    float points_major[POINTS * FEATURES] = random(0.0, 1.0, 51);
    float features_major[POINTS * FEATURES];
    transpose_points<<<(POINTS + BLOCK - 1) / BLOCK, BLOCK>>>(points_major, features_major, POINTS);
}
