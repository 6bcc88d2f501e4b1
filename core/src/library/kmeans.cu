// K-means: Rodinia's clustering, the assignment step, as run by the inter-kernel reuse paper
// (KM: about 25K points x 34 features, 64-thread blocks, the kernel iterated by a host loop that
// recomputes the centroids on the CPU). Each thread is one point: it reads the point's
// features (stored feature-major, so a warp's loads coalesce), computes the squared distance
// to every centroid and writes the nearest one's index to membership[p]. This is the paper's
// control for inter-kernel reuse: no launch reads anything a previous launch wrote (0% self,
// ghost or other); block b only re-reads the same read-only feature slice in every launch.
// The CPU's centroid update is not simulated: launch t reads the t-th of ITERATIONS centroid
// sets prepared up front, so memberships change from launch to launch as in the real run.
// The knob POINTS is the number of points (a multiple of 64): at the default 8192 the
// features take 1.1 MB, more than the GTX 480's L2, read again by every launch.
#define POINTS 8192
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
        kmeans_assign<<<POINTS / BLOCK, BLOCK>>>(features, centroids, membership, POINTS, t);
    }
}
