// A compute-intensive and a memory-intensive kernel launched into two different streams so
// that they share the SMs: the pairing the concurrent-kernel-execution paper studies (C+M,
// e.g. bp+ks). The compute kernel (C) runs ROUNDS rounds per thread of a multiply-add and a
// sinf on a value in registers, with one coalesced load per round from a small table that
// stays in L2: about ten ALU and SFU instructions per memory instruction. The memory kernel
// (M) is kmeans' point-major to feature-major transpose (the paper's ks): thread p reads
// point p's FEATURES consecutive words (each warp load touches 34 lines, 136 bytes apart)
// and writes them coalesced, with almost no arithmetic. Sharing an SM, the M kernel's
// many-line loads fill the miss queue and MSHRs and stall the memory pipeline, and the C
// kernel's few memory instructions wait behind them: with GTO and round-robin TB placement
// the first C launch takes about as long as the whole transpose, ten times its time alone.
// As in the paper, which relaunches a kernel as soon as it finishes, the C kernel is launched
// RELAUNCHES times in its stream so that, run alone, both streams take about as long.
// MEMORY_LAUNCHES (1) and RELAUNCHES set to 0 run one kernel without the other, for
// measurements of each alone.
// The knob POINTS is the number of points the M kernel transposes (a multiple of 256); the C
// kernel has as many threads. At the default 8192 each kernel is 32 blocks of 256 threads
// and the transpose moves 1.1 MB each way, more than the GTX 480's L2.
#define POINTS 8192
#define FEATURES 34
#define ROUNDS 64
#define TABLE_ROWS 4
#define RELAUNCHES 8
#define MEMORY_LAUNCHES 1
#define BLOCK 256

__global__ void compute_heavy(const float* seeds, const float* table, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float x = seeds[i];
    float acc = 0.0f;
    for (int k = 0; k < ROUNDS; k++) {
        float t = table[(k % TABLE_ROWS) * n + i];
        x = fmaf(x, 0.75f, t);
        acc = acc + sinf(x) * 0.5f + x * x;
    }
    out[i] = acc;
}

__global__ void transpose_strided(const float* points_major, float* features_major, int points) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= points) {
        return;
    }
    for (int f = 0; f < FEATURES; f++) {
        features_major[f * points + p] = points_major[p * FEATURES + f];
    }
}

host {
    float seeds[POINTS] = random(0.0, 1.0, 111);
    float table[TABLE_ROWS * POINTS] = random(0.0, 1.0, 113);
    float results[POINTS];
    float points_major[POINTS * FEATURES] = random(0.0, 1.0, 112);
    float features_major[POINTS * FEATURES];
    stream compute_stream, memory_stream;
    for (int m = 0; m < MEMORY_LAUNCHES; m++) {
        transpose_strided<<<POINTS / BLOCK, BLOCK, 0, memory_stream>>>(points_major, features_major, POINTS);
    }
    for (int r = 0; r < RELAUNCHES; r++) {
        compute_heavy<<<POINTS / BLOCK, BLOCK, 0, compute_stream>>>(seeds, table, results, POINTS);
    }
}
