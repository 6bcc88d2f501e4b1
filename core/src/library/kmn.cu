// KMN: the k-means of Mars (the GPU MapReduce framework), which CIAO runs as KMN (Table II:
// 168 KB, large-working-set class, 4 warps per SM best, a barrier per block). Mars stores each
// point's features together (row-major), so each thread, one point, reads its own 128-byte line
// of FEATURES floats: a warp's load touches 32 lines. A lane reads its line's 32 floats one after
// another, and again for every cluster; between two clusters the other warps have each had a
// whole pass over their own lines to push it out. So every resident warp keeps 32 lines live
// for the whole kernel: 48 warps of 4 KB each, twelve times the 16 KB L1 and six times the
// 32 KB that CIAO's redirection finds in unused shared memory.
// (Rodinia's kmeans, in the library as `kmeans`, stores the features transposed, so its loads
// coalesce.) The centroids are read by every lane at once (a broadcast). The block's one
// barrier, before the result is written, stands for Mars's per-block bookkeeping.
// The knob POINTS is the number of points: at the default 3072 the points
// take 384 KB and fill 12 blocks of 8 warps, the 48 warps of two GTX 480 SMs (the notes' size
// for 1-2 SM runs).
#define POINTS 3072
#define FEATURES 32
#define CLUSTERS 8
#define BLOCK 256

__global__ void kmn_assign(const float* points, const float* centroids, int* membership, int n) {
    __shared__ int nearest[BLOCK];
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int best = 0;
    if (p < n) {
        float best_dist = 0.0f;
        for (int c = 0; c < CLUSTERS; c++) {
            float dist = 0.0f;
            for (int f = 0; f < FEATURES; f++) {
                float diff = points[p * FEATURES + f] - centroids[c * FEATURES + f];
                dist += diff * diff;
            }
            if (c == 0 || dist < best_dist) {
                best_dist = dist;
                best = c;
            }
        }
    }
    nearest[threadIdx.x] = best;
    __syncthreads();
    if (p < n) {
        membership[p] = nearest[threadIdx.x];
    }
}

host {
    float points[POINTS * FEATURES] = random(0.0, 1.0, 81);
    float centroids[CLUSTERS * FEATURES] = random(0.0, 1.0, 82);
    int membership[POINTS];
    kmn_assign<<<(POINTS + BLOCK - 1) / BLOCK, BLOCK>>>(points, centroids, membership, POINTS);
}
