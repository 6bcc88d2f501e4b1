// Adaptive mesh refinement on the LaPerm notes' input (laperm.md section 6): a coarse N x N grid
// holding a hot spot PEAK exp(-r^2 / sigma^2) around the centre, sigma = SIGMA N (the notes' 40
// cells of a 256 x 256 grid). A parent thread per coarse cell whose energy is at least THRESHOLD
// takes SUBCELLS slots of the `fine` array with an atomicAdd and launches a child of 1 block x 32
// threads over them; child thread t gives its sub-cell the share (t + 1) / 528 of the cell's
// energy (the shares of the 32 sub-cells sum to one) and, where that is still at least the
// threshold, refines it the same way, up to MAX_LEVEL levels. The notes leave the split open;
// this one conserves energy, so only cells near the peak refine twice.
// Every child writes a region of its own (child-sibling sharing near zero, as the paper says of
// its AMR), and the cells of the spot's middle refine alike, so launches spread evenly over the
// parent blocks that cross the spot: the paper's balanced case. The ring-shaped front of `amr`
// is not balanced in that sense (two parent blocks start twice the subtree of any other).
// Where a region lands in `fine` depends on the order of the atomics, so its layout varies with
// the schedule; what is in it does not (`cells` counts the refined cells per level, `ptr` says
// where each coarse cell's children went, and `fine` holds each sub-cell's energy).
// The knob N is the side of the coarse grid: at the default 128 (16384 parent threads) about
// 5 100 cells refine and 19 000 of their sub-cells again; `fine` (64 N^2 words, 4 MB) is
// beyond the L2.
#define N 128
#define PEAK 6000.0f
#define SIGMA 0.15625f
#define THRESHOLD 100.0f
#define MAX_LEVEL 4
#define SUBCELLS 32
#define SHARES 528.0f
#define CAPACITY (64 * N * N)

__global__ void hotspot_init(float* val, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n * n) {
        float centre = (float)n * 0.5f;
        float dx = (float)(i % n) + 0.5f - centre;
        float dy = (float)(i / n) + 0.5f - centre;
        float sigma = (float)n * SIGMA;
        val[i] = PEAK * expf(-(dx * dx + dy * dy) / (sigma * sigma));
    }
}

// A child: the SUBCELLS sub-cells at `off` of a cell with energy `energy`, one per thread.
__global__ void hotspot_refine(float* fine, int* alloc, int* cells, int off, float energy, int level) {
    int t = threadIdx.x;
    float value = energy * (float)(t + 1) / SHARES;
    fine[off + t] = value;
    if (value >= THRESHOLD && level + 1 < MAX_LEVEL) {
        int child = atomicAdd(alloc, SUBCELLS);
        if (child + SUBCELLS <= CAPACITY) {
            atomicAdd(&cells[level + 1], 1);
            hotspot_refine<<<1, SUBCELLS>>>(fine, alloc, cells, child, value, level + 1);
        }
    }
}

// A parent: one thread per coarse cell.
__global__ void hotspot_parent(const float* val, float* fine, int* ptr, int* alloc, int* cells, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n * n) {
        return;
    }
    ptr[i] = -1;
    if (val[i] >= THRESHOLD) {
        int off = atomicAdd(alloc, SUBCELLS);
        if (off + SUBCELLS <= CAPACITY) {
            ptr[i] = off;
            atomicAdd(&cells[1], 1);
            hotspot_refine<<<1, SUBCELLS>>>(fine, alloc, cells, off, val[i], 1);
        }
    }
}

host {
    float val[N * N];
    float fine[CAPACITY];
    int ptr[N * N];
    int alloc[1];
    int cells[MAX_LEVEL];
    hotspot_init<<<(N * N + 255) / 256, 256>>>(val, N);
    hotspot_parent<<<(N * N + 255) / 256, 256>>>(val, fine, ptr, alloc, cells, N);
}
