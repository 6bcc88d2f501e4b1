// Two phases in one kernel: the CCWS paper's case against a static warp limit (§5.6: "SWL also
// suffers in programs that have phased execution"; claim 5.2-11). The paper argues it and
// measures nothing; this is our stand-in, not a benchmark of any suite. A static limit is set
// once per kernel, so the phases share a kernel for the argument to apply.
// Phase 1, thrashing: each thread digests its own 256-byte record (64 words, two lines) PASSES
// times, word by word, as the paper's GC scans its 256-byte objects and KMN re-reads a point's
// features for every cluster: the 32 lanes of a warp read 32 different lines with each load, and
// a warp comes back to each of its 64 lines (8 KB) only after touching the other 63. Four warps
// fill a 32 KB L1; 32 evict each other's lines before their owners return to them, so this
// phase wants about four warps.
// Phase 2, latency-bound: every warp walks a chain of HOPS dependent lookups through a shared
// table of TABLE_LINES lines (512 KB: it lives in the L2, not in the L1): all lanes read the same
// line, a word each, and the line's contents name the next line, so a warp has one load in
// flight at a time. The more warps load, the faster the phase goes, and there is no locality
// for a limit to protect: this phase wants every warp. The successor function is a full-period
// linear congruential step (every line is on one cycle), so no chain falls into a short loop
// that would fit in the L1.
// The phases are sized to take comparable time when each runs alone under GTO with every warp
// (measured at the default size on ccws-fermi: 0.82 M cycles for phase 1 alone, -D HOPS=0; 0.55 M
// for phase 2 alone, -D PASSES=0): a phase of a few per cent of the run could not move the best static
// limit, and the claim is about kernels where both matter.
// The knob N is the number of threads: at the default 30720 (32 warps on each of the ccws-fermi
// machine's 30 SMs) the records are 7.5 MB, beyond the L2.
#define N 30720
#define RECORD_WORDS 64
#define PASSES 4
#define HOPS 1024
#define TABLE_LINES 4096
#define BLOCK 256
// Wellons' lowbias32: the digest step, a handful of ALU operations per load.
__device__ unsigned mix(unsigned x) {
    x = x ^ (x >> 16);
    x = x * 0x7feb352du;
    x = x ^ (x >> 15);
    x = x * 0x846ca68bu;
    x = x ^ (x >> 16);
    return x;
}
// Word j of line l holds the successor line of l (shifted left by 5) and j, so that every lane
// of a warp reads its own word yet finds the same next line.
__global__ void phased_table(unsigned* table, int lines) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < lines * 32) {
        unsigned line = (unsigned)(i / 32);
        unsigned next = (line * 1021u + 12345u) % (unsigned)lines;
        table[i] = (next << 5) | (unsigned)(i % 32);
    }
}
__global__ void phased(const unsigned* records, const unsigned* table, unsigned* out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) {
        return;
    }
    // Phase 1: digest the thread's own record, PASSES times.
    unsigned h = (unsigned)t;
    int base = t * RECORD_WORDS;
    for (int p = 0; p < PASSES; p++) {
        for (int w = 0; w < RECORD_WORDS; w++) {
            h = mix(h ^ records[base + w]);
        }
    }
    // Phase 2: the warp's chain through the shared table, from a line of its own.
    int lane = threadIdx.x % 32;
    unsigned line = (unsigned)(t / 32) % TABLE_LINES;
    for (int k = 0; k < HOPS; k++) {
        unsigned v = table[line * 32u + (unsigned)lane];
        h = h + v;
        line = v >> 5;
    }
    out[t] = h;
}
host {
    unsigned records[N * RECORD_WORDS] = random(0, 2147483647, 91);
    unsigned table[TABLE_LINES * 32];
    unsigned out[N];
    phased_table<<<(TABLE_LINES * 32 + BLOCK - 1) / BLOCK, BLOCK>>>(table, TABLE_LINES);
    phased<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(records, table, out, N);
}
