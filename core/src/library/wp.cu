// Weather prediction: a column-physics kernel in the shape of WRF's WSM5 microphysics on the GPU
// (Michalakes and Vachharajani; the WP of Bakhoda et al.'s simulator workloads, which the CCWS
// paper counts among its moderately cache-sensitive programs, citing Rodinia for it). One thread
// owns one vertical column of the atmosphere and works down its LEVELS levels: first it brings
// each level's water vapour to saturation (the excess condenses into rain), then the rain falls
// through the column in STEPS sub-steps at a terminal velocity that grows with the rain's density.
// Memory: the temperature, pressure and vapour fields are stored level by level, so a warp's load
// of one level is one line, read once. The column's rain lives in the thread's private array
// `rain_local`, which a real port keeps in local memory because it is indexed by the level: CUDA
// interleaves local memory (word k of thread t at k * columns + t), so those loads are coalesced
// too. That array (LEVELS lines per warp) is the only data re-read, by the same thread, once per
// sub-step, and each level costs two dozen arithmetic instructions and two transcendental ones
// per sub-step: locality there is, but thin next to the arithmetic.
// A difference that matters: the kernel language has no local memory, so `rain_local` is a global
// buffer laid out as local memory would be. Fermi's L1 writes local data back but evicts a line on
// a global store, and each sub-step writes every level it reads, so here the re-reads miss: this
// stand-in has no L1 locality at all, where the paper's WP has a little (its Fig. 12).
// Sizes: LEVELS is 28, the vertical levels of WRF's default configuration (within the notes'
// 16 to 32 words of private array per thread); STEPS is 3, "reused a few times" in the notes'
// sketch. The physics is simplified (constant fall distance per sub-step, an exponential
// reference atmosphere); the memory pattern and the arithmetic per load are the point. Blocks are
// 128 threads (four warps; the port's block shape is not given).
#define N 16384
#define LEVELS 28
#define STEPS 3
#define DZ 500.0f
#define DT 10.0f

__global__ void wp_column(const float* t, const float* p, float* qv, float* qr, float* rain_local,
                          float* surface_rain, int columns) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= columns) return;
    // Saturation adjustment, level by level (Bolton's saturation vapour pressure, in Pa).
    for (int k = 0; k < LEVELS; k++) {
        int at = k * columns + col;
        float tk = t[at];
        float es = 611.2f * expf(17.67f * (tk - 273.15f) / (tk - 29.65f));
        float qs = 0.622f * es / (p[at] - es);
        float excess = qv[at] - qs;
        float condensed = 0.0f;
        if (excess > 0.0f) {
            qv[at] = qs;
            condensed = excess;
        }
        rain_local[at] = qr[at] + condensed;
    }
    // Sedimentation: each sub-step sweeps the column from the top; a level keeps what does not
    // fall and receives what falls from above; what leaves the lowest level reaches the ground.
    float fallen = 0.0f;
    for (int s = 0; s < STEPS; s++) {
        float incoming = 0.0f;
        for (int k = LEVELS - 1; k >= 0; k--) {
            int at = k * columns + col;
            float q = rain_local[at];
            float density = 1.225f * expf(-(float)k * DZ / 8000.0f);
            float outgoing = 0.0f;
            if (q > 0.0f) {
                float velocity = 841.99667f * expf(0.8f * logf(density * q)) * sqrtf(1.225f / density);
                outgoing = q * fminf(1.0f, velocity * DT / DZ);
            }
            rain_local[at] = q - outgoing + incoming;
            incoming = outgoing;
        }
        fallen += incoming;
    }
    for (int k = 0; k < LEVELS; k++) {
        int at = k * columns + col;
        qr[at] = rain_local[at];
    }
    surface_rain[col] = fallen;
}

host {
    // Temperatures 250 to 300 K and pressures 50 to 100 kPa; vapour up to 2 % by mass, so that
    // some levels are supersaturated and condense; a little rain already aloft.
    float t[LEVELS * N] = random(250.0, 300.0, 21);
    float p[LEVELS * N] = random(50000.0, 100000.0, 22);
    float qv[LEVELS * N] = random(0.0, 0.02, 23);
    float qr[LEVELS * N] = random(0.0, 0.0005, 24);
    float rain_local[LEVELS * N];
    float surface_rain[N];
    wp_column<<<(N + 127) / 128, 128>>>(t, p, qv, qr, rain_local, surface_rain, N);
}
