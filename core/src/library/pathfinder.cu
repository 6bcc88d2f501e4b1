// Pathfinder: Rodinia's dynamic programming over a grid of wall costs, as run by the
// inter-kernel reuse paper (PF: 10 rows x 100K columns, about 10 launches, 256-thread blocks,
// 100% self-dependency). Launch t finds, for every column, the cheapest path from the top
// row down to row t: cost[x] = wall[t][x] + min(prev[x - 1], prev[x], prev[x + 1]).
// Each 256-thread block loads 256 entries of the previous row (the 254 columns it owns plus a
// one-column halo on each side) into shared memory and writes its 254 columns of the next
// row; the host swaps the two rows between launches. So block b of launch t+1 reads exactly
// the strip block b wrote in launch t (plus two halo words): the reuse that placing block b on
// the same SM can keep in L1. The wall rows are read once each (streamed).
// The knob COLS is the number of columns: at the default 65536 there are 259 blocks per
// launch, each row is 256 KB and a launch touches about 768 KB (the GTX 480's L2 size).
#define COLS 65536
#define STEPS 10
#define BLOCK 256
#define OWNED 254

__global__ void pathfinder(const int* wall, const int* prev, int* next, int cols, int row) {
    __shared__ int strip[BLOCK];
    int tx = threadIdx.x;
    // Thread tx looks after column x; threads 0 and BLOCK - 1 only load the halo.
    int x = blockIdx.x * OWNED + tx - 1;
    bool inside = x >= 0 && x < cols;
    if (inside) {
        strip[tx] = prev[x];
    }
    __syncthreads();

    if (tx >= 1 && tx <= OWNED && x < cols) {
        int up = strip[tx];
        int best = up;
        if (x > 0) {
            best = min(best, strip[tx - 1]);
        }
        if (x < cols - 1) {
            best = min(best, strip[tx + 1]);
        }
        next[x] = best + wall[row * cols + x];
    }
}

host {
    int wall[STEPS * COLS] = random(0, 9, 21);   // row t is the cost of stepping onto row t + 1
    int cost[COLS] = random(0, 9, 22);           // the top row's costs
    int next[COLS];
    for (int t = 0; t < STEPS; t++) {
        pathfinder<<<(COLS + OWNED - 1) / OWNED, BLOCK>>>(wall, cost, next, COLS, t);
        swap(cost, next);
    }
}
