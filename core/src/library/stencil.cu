// Stencil: a 2-D 5-point Jacobi relaxation iterated over many launches, after Parboil's
// stencil as run by the inter-kernel reuse paper (ST: 10 launches, 32 x 4 thread blocks that
// march through their footprint keeping the rows they have read in registers, in/out arrays
// swapped between launches; 92% self-dependency, 8% ghost). Here the grid is 2-D: each
// 32 x 4 block covers a 32-column x 16-row tile, each thread marching down 4 rows of one
// column. Unlike hotspot there is no shared memory: every neighbour comes from global memory,
// so the west/east and tile-edge reads hit in L1 only when the lines are still there. Block b
// of launch k+1 re-reads the tile block b wrote in launch k, plus a one-cell halo that its
// neighbours wrote (the ghost part). Border cells are fixed (Dirichlet).
// The knob N is the side of the grid (a multiple of 32): at the default 256 there are 128
// blocks per launch and the two arrays take 512 KB, far more than one SM's L1.
#define N 256
#define STEPS 10
#define TILE_X 32
#define ROWS_PER_THREAD 4
#define TILE_Y 16

__global__ void jacobi(const float* in, float* out, int n) {
    int x = blockIdx.x * TILE_X + threadIdx.x;
    int y = blockIdx.y * TILE_Y + threadIdx.y * ROWS_PER_THREAD;
    float up = 0.0f;
    if (y > 0) {
        up = in[(y - 1) * n + x];
    }
    float mid = in[y * n + x];
    for (int k = 0; k < ROWS_PER_THREAD; k++) {
        int row = y + k;
        float down = 0.0f;
        if (row + 1 < n) {
            down = in[(row + 1) * n + x];
        }
        float result = mid;
        if (x > 0 && x < n - 1 && row > 0 && row < n - 1) {
            float west = in[row * n + x - 1];
            float east = in[row * n + x + 1];
            result = 0.5f * mid + 0.125f * (up + down + west + east);
        }
        out[row * n + x] = result;
        up = mid;
        mid = down;
    }
}

host {
    float grid[N * N] = random(0.0, 100.0, 41);
    float next[N * N];
    for (int step = 0; step < STEPS; step++) {
        jacobi<<<dim3(N / TILE_X, N / TILE_Y), dim3(TILE_X, TILE_Y / ROWS_PER_THREAD)>>>(grid, next, N);
        swap(grid, next);
    }
}
