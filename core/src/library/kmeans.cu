// K-means: Rodinia's clustering, the assignment step, as run by the inter-kernel reuse paper
// (KM: about 25K points x 34 features, 64-thread blocks, the kernel iterated by a host loop that
// recomputes the centroids on the CPU). Each thread is one point: it reads the point's
// features (stored feature-major, so a warp's loads coalesce), computes the squared distance
// to every centroid and writes the nearest one's index to membership[p]. This is the paper's
// control for inter-kernel reuse: no launch reads anything a previous launch wrote (0% self,
// ghost or other); block b only re-reads the same read-only feature slice in every launch.
// The CPU's centroid update is not simulated: launch t reads the t-th of ITERATIONS centroid
// sets prepared up front, so memberships change from launch to launch as in the real run.
// It is also the CCWS paper's KMN (highly cache-sensitive, reading global memory): each thread
// re-reads its point's FEATURES lines once per cluster, so a warp keeps 34 lines live.
// The knob POINTS is the number of points (a multiple of 64): at the default 8000 the
// features take 1.1 MB, more than the GTX 480's L2, read again by every launch. A power of
// two would be a bad default: feature rows 4 * POINTS bytes apart would then all start in the
// same set of an L1 indexed by line address modulo its sets (32 KB apart for 8192 points), so a
// warp's 34 feature lines would fight over one set's ways however few warps ran; 8000 points
// spread them over 16 sets.
#define POINTS 8000
#define FEATURES 34
#define CLUSTERS 5
#define ITERATIONS 5
#define BLOCK 64

__global__ void kmeans_assign(const float* features, const float* centroids, int* membership, int points, int set) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= points) {
        return;
    }
    int base = set * CLUSTERS * FEATURES;
    int best = 0;
    float best_dist = 0.0f;
    for (int k = 0; k < CLUSTERS; k++) {
        float dist = 0.0f;
        for (int f = 0; f < FEATURES; f++) {
            float diff = features[f * points + p] - centroids[base + k * FEATURES + f];
            dist += diff * diff;
        }
        if (k == 0 || dist < best_dist) {
            best_dist = dist;
            best = k;
        }
    }
    membership[p] = best;
}

host {
    float features[FEATURES * POINTS] = random(0.0, 1.0, 61);
    float centroids[ITERATIONS * CLUSTERS * FEATURES] = random(0.0, 1.0, 62);
    int membership[POINTS];
    for (int t = 0; t < ITERATIONS; t++) {
        kmeans_assign<<<(POINTS + BLOCK - 1) / BLOCK, BLOCK>>>(features, centroids, membership, POINTS, t);
    }
}
