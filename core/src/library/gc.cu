// Tracing garbage collection, the mark phase: the CCWS paper's GC (highly cache-sensitive), a
// mark-and-compact collector after Barabash and Petrank whose marking runs level by level over
// work queues of gray objects. The heap holds N objects of 256 bytes (64 words): a header word
// that stands for the object's class and fixes how many reference fields it uses
// (MIN_REFS..MAX_REFS), then up to 63 reference slots, each the index of another object. One thread takes one gray object from the round's queue and
// scans its reference fields in order: its own object is two lines that it alone re-reads word
// by word (intra-thread locality: a warp keeps 64 lines, 8 KB, live while it scans, so a few
// warps fill a 32 KB L1 and more thrash it). For every child whose mark bit is clear it sets the
// bit with atomicOr and, if it was the one to set it, appends the child to the next queue. The
// mark bitmap (N bits) is shared by every warp.
// Objects reference uniformly random objects (the heap is one big random object graph), and
// ROOTS random objects are the roots. The host cannot read device memory, so it runs a fixed
// ROUNDS rounds, each launched over N threads; threads past the round's queue length exit at
// once. Which objects get marked does not depend on the order; the queues' order does.
// The knob N is the number of objects: at the default 65536 the heap is 16 MB, far beyond the L2.
#define N 65536
#define OBJECT_WORDS 64
#define MIN_REFS 16
#define MAX_REFS 48
#define ROOTS 64
#define ROUNDS 6

// Marks the roots and makes them the first round's queue (counts[0] gray objects).
__global__ void gc_roots(const int* roots, unsigned* mark, int* queue, int* counts, int n_roots) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n_roots) {
        int o = roots[r];
        unsigned bit = 1u << (o & 31);
        unsigned old = atomicOr(&mark[o >> 5], bit);
        if ((old & bit) == 0u) {
            queue[atomicAdd(&counts[0], 1)] = o;
        }
    }
}

// One round: every gray object of `in` (counts[round] of them) scans its references; children
// it is first to mark go to `out` (counts[round + 1]).
__global__ void gc_mark(const int* heap, unsigned* mark, const int* in, int* out, int* counts, int round) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= counts[round]) {
        return;
    }
    int base = in[t] * OBJECT_WORDS;
    // The header stands for the object's class, which fixes how many reference fields it has.
    int used = MIN_REFS + heap[base] % (MAX_REFS - MIN_REFS + 1);
    for (int f = 1; f <= used; f++) {
        int child = heap[base + f];
        unsigned bit = 1u << (child & 31);
        if ((mark[child >> 5] & bit) == 0u) {
            unsigned old = atomicOr(&mark[child >> 5], bit);
            if ((old & bit) == 0u) {
                out[atomicAdd(&counts[round + 1], 1)] = child;
            }
        }
    }
}

host {
    int heap[N * OBJECT_WORDS] = random(0, N - 1, 71);
    int roots[ROOTS] = random(0, N - 1, 73);
    int mark[(N + 31) / 32];
    int queue_a[N];
    int queue_b[N];
    int counts[ROUNDS + 1];
    gc_roots<<<(ROOTS + 255) / 256, 256>>>(roots, mark, queue_a, counts, ROOTS);
    for (int round = 0; round < ROUNDS; round++) {
        if (round % 2 == 0) {
            gc_mark<<<(N + 255) / 256, 256>>>(heap, mark, queue_a, queue_b, counts, round);
        } else {
            gc_mark<<<(N + 255) / 256, 256>>>(heap, mark, queue_b, queue_a, counts, round);
        }
    }
}
