// Adaptive mesh refinement with dynamic parallelism, after the LaPerm paper's AMR (a combustion
// simulation; parents 256 threads per block, a hot cell refined into 32 finer cells by a child
// of 1 block x 32 threads, recursing up to maxRefineLevel 4, i.e. 3 nested child levels).
// The coarse N x N grid holds a ring-shaped flame front, PEAK / (1 + |r - N/4| / WIDTH) around
// the centre, times a per-cell fuel factor. A parent thread per coarse cell whose value is at
// least THRESHOLD launches a child that splits the cell into 8 x 4 sub-cells; each child thread
// evaluates the front at its sub-cell's centre, compares it with the bilinear interpolation of
// the coarse grid there (re-reading the coarse values around its parent's cell: parent-child
// and sibling sharing), and itself launches a finer child when its value is at least the
// threshold of its level (THRESHOLD x GROWTH^level), up to MAX_LEVEL. The front is thin, so each
// level refines a narrower band: launches are balanced over the ring (the paper's "center cells
// refine alike").
// Results are order-independent: level-1 sub-cell values go to fixed slots of `fine`, and every
// sub-cell adds to its coarse cell's sub-cell count and fixed-point refinement error with integer
// atomics; `launched[l]` counts the grids of level l.
// The knob N is the side of the coarse grid: at the default 128 (16384 parent threads) 837
// level-1, 4037 level-2 and 9577 level-3 grids; the 2 MB `fine` array is beyond the L2.
#define N 128
#define PEAK 6000.0f
#define WIDTH 0.035f
#define THRESHOLD 100.0f
#define GROWTH 6.0f
#define MAX_LEVEL 4
#define SUB_X 8
#define SUB_Y 4
#define SUBCELLS 32

// The flame front at point (px, py) of an n x n grid (coarse-cell units).
__device__ float front(float px, float py, int n) {
    float centre = (float)n * 0.5f;
    float radius = (float)n * 0.25f;
    float dx = px - centre;
    float dy = py - centre;
    float d = sqrtf(dx * dx + dy * dy);
    float s = fabsf(d - radius) / WIDTH;
    return PEAK / (1.0f + s);
}

__global__ void amr_init(float* val, const float* fuel, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n * n) {
        int x = i % n;
        int y = i / n;
        val[i] = front((float)x + 0.5f, (float)y + 0.5f, n) * fuel[i];
    }
}

// A child: splits the region (x0, y0, w x h) of coarse cell `root` into SUB_X x SUB_Y sub-cells,
// one per thread.
__global__ void amr_refine(const float* val, const float* fuel, float* fine, int* cells, int* err, int* launched,
                           int n, int root, float x0, float y0, float w, float h, int level, float thr) {
    int t = threadIdx.x;
    int ix = t % SUB_X;
    int iy = t / SUB_X;
    float cw = w / (float)SUB_X;
    float ch = h / (float)SUB_Y;
    float cx = x0 + (float)ix * cw;
    float cy = y0 + (float)iy * ch;
    float px = cx + 0.5f * cw;
    float py = cy + 0.5f * ch;

    // What the coarse grid says here: bilinear interpolation between coarse-cell centres.
    float gx = fminf(fmaxf(px - 0.5f, 0.0f), (float)(n - 1));
    float gy = fminf(fmaxf(py - 0.5f, 0.0f), (float)(n - 1));
    int bx = min((int)gx, n - 2);
    int by = min((int)gy, n - 2);
    float fx = gx - (float)bx;
    float fy = gy - (float)by;
    int b = by * n + bx;
    float top = val[b] * (1.0f - fx) + val[b + 1] * fx;
    float bottom = val[b + n] * (1.0f - fx) + val[b + n + 1] * fx;
    float coarse = top * (1.0f - fy) + bottom * fy;

    // What the finer level resolves.
    float value = front(px, py, n) * fuel[root];
    atomicAdd(&cells[root], 1);
    atomicAdd(&err[root], (int)(fabsf(value - coarse) * 16.0f));
    if (level == 1) {
        fine[root * SUBCELLS + t] = value;
    }
    if (level + 1 < MAX_LEVEL && value >= thr) {
        amr_refine<<<1, SUBCELLS>>>(val, fuel, fine, cells, err, launched, n, root, cx, cy, cw, ch, level + 1,
                                    thr * GROWTH);
        atomicAdd(&launched[level + 1], 1);
    }
}

// A parent: one thread per coarse cell.
__global__ void amr_parent(const float* val, const float* fuel, float* fine, int* cells, int* err, int* launched,
                           int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n * n) {
        return;
    }
    if (val[i] >= THRESHOLD) {
        int x = i % n;
        int y = i / n;
        amr_refine<<<1, SUBCELLS>>>(val, fuel, fine, cells, err, launched, n, i, (float)x, (float)y, 1.0f, 1.0f, 1,
                                    THRESHOLD * GROWTH);
        atomicAdd(&launched[1], 1);
    }
}

host {
    float fuel[N * N] = random(0.8, 1.2, 5);
    float val[N * N];
    float fine[N * N * SUBCELLS];
    int cells[N * N];
    int err[N * N];
    int launched[MAX_LEVEL];
    amr_init<<<(N * N + 255) / 256, 256>>>(val, fuel, N);
    amr_parent<<<(N * N + 255) / 256, 256>>>(val, fuel, fine, cells, err, launched, N);
}
