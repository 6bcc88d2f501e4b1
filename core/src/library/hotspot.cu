// Hotspot: Rodinia's thermal simulation of a chip, as run by the inter-kernel reuse paper
// (a 256 x 256 grid, 20 launches of one kernel). Each 16 x 16 block reads its tile of the
// temperature and power maps and writes its tile of the next temperature map; the host swaps
// the two maps between launches. So block b of launch k+1 reads exactly what block b of launch
// k wrote: the reuse a placement policy can keep in L1 if it runs block b on the same SM.
// The knob N is the side of the grid (a multiple of 16).
#define N 256
#define STEPS 20
#define TILE 16

__global__ void hotspot(const float* power, const float* temp_in, float* temp_out, int n) {
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int row = blockIdx.y * TILE + ty;
    int i = row * n + col;
    float c = temp_in[i];
    tile[ty][tx] = c;
    __syncthreads();

    // Neighbours inside the tile come from shared memory, the halo from global memory;
    // outside the chip a cell sees its own temperature.
    float north = c;
    if (ty > 0) north = tile[ty - 1][tx];
    else if (row > 0) north = temp_in[i - n];
    float south = c;
    if (ty < TILE - 1) south = tile[ty + 1][tx];
    else if (row < n - 1) south = temp_in[i + n];
    float west = c;
    if (tx > 0) west = tile[ty][tx - 1];
    else if (col > 0) west = temp_in[i - 1];
    float east = c;
    if (tx < TILE - 1) east = tile[ty][tx + 1];
    else if (col < n - 1) east = temp_in[i + 1];

    temp_out[i] = c + 0.1f * (north + south + east + west - 4.0f * c) + 0.05f * power[i];
}

host {
    float power[N * N] = random(0.0, 1.0, 11);
    float temp[N * N] = random(320.0, 340.0, 12);
    float next[N * N];
    for (int step = 0; step < STEPS; step++) {
        hotspot<<<dim3(N / TILE, N / TILE), dim3(TILE, TILE)>>>(power, temp, next, N);
        swap(temp, next);
    }
}
