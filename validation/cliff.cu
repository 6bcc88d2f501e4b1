// Warp-count cliff: one block per SM of WARPS warps; each warp sweeps its own 32 x F bytes
// (coalesced, one float per lane per step) REPS times, so an SM's working set is
// WARPS x 32 x F bytes. While it fits in the L1 more warps mean more loads in flight; past the
// L1 every load goes to the L2, whose bandwidth per SM is a fraction of the L1's.
#define F 128
#define REPS 8
#define WARPS 32
#define SMS 132

__global__ void cliff(const float* data, float* out) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    const float* mine = data + warp * 32 * (F / 4);
    float sum = 0.0f;
    for (int r = 0; r < REPS; r++) {
        for (int k = 0; k < F / 4; k++) {
            sum += mine[k * 32 + lane];
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

host {
    float data[SMS * WARPS * 32 * F / 4];
    float out[SMS * WARPS * 32];
    cliff<<<SMS, WARPS * 32>>>(data, out);
}
