// Needleman-Wunsch: Rodinia's global sequence alignment, as run by the inter-kernel reuse
// paper (NW: a 512 x 512 score matrix swept in anti-diagonal wavefronts of tiles, one launch
// per diagonal; the block count rises 1, 2, ... then falls again in a second kernel; 53% self,
// 47% other; compute- and scratchpad-bound, so placement gains little). Each block fills one
// 16 x 16 tile: it loads the tile's similarity scores and the row above and column left of
// the tile into shared memory, sweeps the tile's own anti-diagonals (16 threads, one per
// column), and writes the tile back. Block b of a launch reads the north border that block b
// of the previous launch wrote (self) and the west border that block b - 1 wrote (other).
// The similarity matrix stands in for BLOSUM62 lookups: scores in -4..=10.
// The knob N is the sequence length (a multiple of 16): the default 512 gives 32 x 32 tiles,
// 63 wavefront launches of 1..32..1 blocks, and a 1 MB score matrix plus a 1 MB reference.
#define N 512
#define BS 16
#define PENALTY 10

__device__ int maximum(int a, int b, int c) {
    int k = a;
    if (b > k) {
        k = b;
    }
    if (c > k) {
        k = c;
    }
    return k;
}

// Fills tile (tile_x, tile_y) of the score matrix; `cols` is N + 1 (row 0 and column 0 are
// the gap penalties).
__device__ void nw_tile(int* matrix, const int* reference, int cols, int penalty, int tile_x, int tile_y) {
    __shared__ int temp[BS + 1][BS + 1];
    __shared__ int ref[BS][BS];
    int tx = threadIdx.x;
    int index = cols * BS * tile_y + BS * tile_x + tx + cols + 1;
    int index_n = cols * BS * tile_y + BS * tile_x + tx + 1;
    int index_w = cols * BS * tile_y + BS * tile_x + cols;
    int index_nw = cols * BS * tile_y + BS * tile_x;

    if (tx == 0) {
        temp[0][0] = matrix[index_nw];
    }
    for (int ty = 0; ty < BS; ty++) {
        ref[ty][tx] = reference[index + cols * ty] - 4;
    }
    __syncthreads();
    temp[tx + 1][0] = matrix[index_w + cols * tx];
    temp[0][tx + 1] = matrix[index_n];
    __syncthreads();

    // The upper-left triangle of the tile, one anti-diagonal at a time.
    for (int m = 0; m < BS; m++) {
        if (tx <= m) {
            int x = tx + 1;
            int y = m - tx + 1;
            temp[y][x] = maximum(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty, temp[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    // The lower-right triangle.
    for (int m = BS - 2; m >= 0; m--) {
        if (tx <= m) {
            int x = tx + BS - m;
            int y = BS - tx;
            temp[y][x] = maximum(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty, temp[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int ty = 0; ty < BS; ty++) {
        matrix[index + ty * cols] = temp[ty + 1][tx + 1];
    }
}

// Row 0 and column 0: the cost of aligning a prefix against nothing.
__global__ void nw_init(int* matrix, int cols, int penalty) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < cols) {
        matrix[i] = -i * penalty;
        matrix[i * cols] = -i * penalty;
    }
}

// Diagonal d (1..tiles) of the upper-left half: block b fills tile (b, d - 1 - b).
__global__ void nw_rising(int* matrix, const int* reference, int cols, int penalty, int d) {
    int b = blockIdx.x;
    nw_tile(matrix, reference, cols, penalty, b, d - 1 - b);
}

// Diagonal d (tiles - 1 down to 1) of the lower-right half: block b fills tile
// (b + tiles - d, tiles - 1 - b).
__global__ void nw_falling(int* matrix, const int* reference, int cols, int penalty, int d, int tiles) {
    int b = blockIdx.x;
    nw_tile(matrix, reference, cols, penalty, b + tiles - d, tiles - 1 - b);
}

host {
    int score[(N + 1) * (N + 1)];
    int reference[(N + 1) * (N + 1)] = random(0, 14, 51);
    int tiles = N / BS;
    nw_init<<<(N + 1 + 63) / 64, 64>>>(score, N + 1, PENALTY);
    for (int d = 1; d <= tiles; d++) {
        nw_rising<<<d, BS>>>(score, reference, N + 1, PENALTY, d);
    }
    for (int d = tiles - 1; d >= 1; d--) {
        nw_falling<<<d, BS>>>(score, reference, N + 1, PENALTY, d, tiles);
    }
}
