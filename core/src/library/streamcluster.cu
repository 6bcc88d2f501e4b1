// Streamcluster (Rodinia's CUDA port of PARSEC's), its gain kernel: the CCWS paper's STMCL, one of
// its moderately cache-sensitive programs with little locality. The host's local search asks, for
// one candidate centre x after another, what opening x would save; each ask is one launch in which
// every point works out its weighted distance to x and books the difference against its current
// assignment in its own row of `work_mem`.
// Memory, per launch: each point's DIM coordinates, stored dimension-major so a warp's loads are
// coalesced (one line per dimension per warp, read once); the candidate's coordinates, the same
// word for every lane (a broadcast); the point's record, three loads of one 32-byte record (a
// warp's eight lines, re-read straight away); and a read-modify-write of one word of the point's
// own (CENTERS + 1)-word row of `work_mem` (a different line for about every second lane). A
// launch reads each coordinate once, and the L1 starts empty at each launch, so the only reuse is
// the record's and the candidate's: little for a warp limit to keep.
// Where it differs from the paper's STMCL (measured on ccws-fermi): the candidate's lines are read
// by every warp, and under GTO the oldest warps run through all the dimensions ahead of the
// others, so the lines are gone by the time the youngest warps come to them. A limit of 8 warps
// keeps them (best static limit 8 at 1.16x the IPC of 32, 2.2x with Rodinia's 256 dimensions)
// and LRR, which keeps the warps abreast, beats GTO by about as much; the paper finds the
// scheduler matters little for STMCL (Best-SWL 32). CCWS does not act (its victim tags see only
// a warp's own lost lines), as in the paper.
// Differences from Rodinia, forced by the language: the record (weight, coordinate pointer,
// assignment, cost: 32 bytes on a 64-bit host) is eight floats with the assignment as a float; the
// membership flags are ints, not bools. Rodinia clears `work_mem` and the flags with cudaMemset
// before each launch, which is a copy, not a kernel, in the paper's simulator: here a small kernel
// does it, and the measured work is `stmcl_cost`. Sizes: Rodinia's run script asks for 256
// dimensions and 65,536 points; the CCWS paper does not give its input. The notes' sketch of a
// STMCL-like kernel reads 16 to 64 coordinates; DIM is 32, the middle of that range, CENTERS is
// the local search's initial k (Rodinia's k1 = 10) and there are eight candidates.
#define N 16384
#define DIM 32
#define CENTERS 10
#define CANDIDATES 8
#define RECORD 8

__global__ void stmcl_clear(float* work_mem, int* switch_membership, int num, int stride) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < num) {
        for (int k = 0; k < stride; k++) work_mem[tid * stride + k] = 0.0f;
        switch_membership[tid] = 0;
    }
}

__global__ void stmcl_cost(int num, int dim, int x, const float* p, int k, int stride, const float* coord,
                           float* work_mem, const int* center_table, int* switch_membership) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < num) {
        int lower = tid * stride;
        float distance = 0.0f;
        for (int i = 0; i < dim; i++) {
            float d = coord[i * num + tid] - coord[i * num + x];
            distance += d * d;
        }
        float x_cost = distance * p[tid * RECORD];
        float cost = p[tid * RECORD + 6];
        if (x_cost < cost) {
            switch_membership[tid] = 1;
            work_mem[lower + k] += x_cost - cost;
        } else {
            int assign = (int)p[tid * RECORD + 4];
            work_mem[lower + center_table[assign]] += cost - x_cost;
        }
    }
}

// The starting state the local search would have: every point's weight 1 and its cost its
// squared distance to its centre (here a random one of the first CENTERS points).
__global__ void stmcl_assign(float* p, const float* coord, const int* pick, int num, int dim) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < num) {
        int centre = pick[tid];
        float distance = 0.0f;
        for (int i = 0; i < dim; i++) {
            float d = coord[i * num + tid] - coord[i * num + centre];
            distance += d * d;
        }
        p[tid * RECORD] = 1.0f;
        p[tid * RECORD + 4] = (float)centre;
        p[tid * RECORD + 6] = distance;
    }
}

host {
    float coord[DIM * N] = random(0.0, 1.0, 11);
    int pick[N] = random(0, CENTERS - 1, 12);
    int center_table[N] = iota();
    float p[RECORD * N];
    float work_mem[(CENTERS + 1) * N];
    int switch_membership[N];
    stmcl_assign<<<(N + 511) / 512, 512>>>(p, coord, pick, N, DIM);
    for (int c = 0; c < CANDIDATES; c++) {
        int x = CENTERS + (c * 7919) % (N - CENTERS);
        stmcl_clear<<<(N + 511) / 512, 512>>>(work_mem, switch_membership, N, CENTERS + 1);
        stmcl_cost<<<(N + 511) / 512, 512>>>(N, DIM, x, p, CENTERS, CENTERS + 1, coord, work_mem, center_table,
                                             switch_membership);
    }
}
