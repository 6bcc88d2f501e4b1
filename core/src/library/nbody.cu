// N-body: all-pairs gravitational forces with shared-memory tiles (the CUDA SDK / GPU Gems 3
// kernel), the cache-insensitive, compute-bound control of the cache-sensitivity set (the CCWS
// paper's CI class). A thread per body; each block loads a tile of TILE bodies' positions and
// masses into shared memory with one coalesced load per thread, then every thread accumulates
// the softened acceleration from each body of the tile (about 20 arithmetic instructions per
// interaction, one rsqrtf). Global memory is touched once per tile per block, so neither the
// number of warps nor the cache policy changes its speed much. Velocities are updated in place,
// positions written to a second set of arrays; the host swaps them between the STEPS steps.
// The knob N is the number of bodies (rounded down to a multiple of TILE): at the default 2048,
// 16 blocks of 128 threads and 4 M interactions per step.
#define N 2048
#define TILE 128
#define BODIES (N / TILE * TILE)
#define STEPS 2
#define SOFTENING 0.01f
#define DT 0.01f

__global__ void nbody_step(const float* px, const float* py, const float* pz, const float* mass, float* vx, float* vy,
                           float* vz, float* qx, float* qy, float* qz, int n) {
    __shared__ float sx[TILE];
    __shared__ float sy[TILE];
    __shared__ float sz[TILE];
    __shared__ float sm[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float xi = px[i];
    float yi = py[i];
    float zi = pz[i];
    float ax = 0.0f;
    float ay = 0.0f;
    float az = 0.0f;
    for (int tile = 0; tile < n / TILE; tile++) {
        int j = tile * TILE + threadIdx.x;
        sx[threadIdx.x] = px[j];
        sy[threadIdx.x] = py[j];
        sz[threadIdx.x] = pz[j];
        sm[threadIdx.x] = mass[j];
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            float dx = sx[k] - xi;
            float dy = sy[k] - yi;
            float dz = sz[k] - zi;
            float d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
            float inv = rsqrtf(d2);
            float s = sm[k] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    float nvx = vx[i] + ax * DT;
    float nvy = vy[i] + ay * DT;
    float nvz = vz[i] + az * DT;
    vx[i] = nvx;
    vy[i] = nvy;
    vz[i] = nvz;
    qx[i] = xi + nvx * DT;
    qy[i] = yi + nvy * DT;
    qz[i] = zi + nvz * DT;
}

host {
    float px[BODIES] = random(-1.0, 1.0, 51);
    float py[BODIES] = random(-1.0, 1.0, 52);
    float pz[BODIES] = random(-1.0, 1.0, 53);
    float mass[BODIES] = random(0.5, 1.0, 54);
    float vx[BODIES];
    float vy[BODIES];
    float vz[BODIES];
    float qx[BODIES];
    float qy[BODIES];
    float qz[BODIES];
    for (int step = 0; step < STEPS; step++) {
        nbody_step<<<BODIES / TILE, TILE>>>(px, py, pz, mass, vx, vy, vz, qx, qy, qz, BODIES);
        swap(px, qx);
        swap(py, qy);
        swap(pz, qz);
    }
}
