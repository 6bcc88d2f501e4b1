// SSSP with dynamic parallelism on a power-law graph: Bellman-Ford-style relaxation from the
// biggest hub (vertex 0) of an R-MAT graph with weights 1..100, as the LaPerm paper runs
// LonestarGPU's SSSP (CDP form; its best case, sssp_cage15). Each round is two host launches:
// `sssp_relax`, a thread per vertex, where a vertex whose distance changed last round relaxes its
// out-edges into `next` with atomicMin, and a vertex with an out-degree of at least THRESHOLD
// launches a child grid of degree / CHILD blocks x CHILD threads for the head of its edge list
// (the parent relaxes the rest: T = CT = 32, as LaPerm's scaled setting); then `sssp_update`
// copies `next` into `dist` and marks the vertices that improved. Children re-read the edge
// lists and distances their parents' blocks read; siblings share the `next` lines of common
// neighbours.
// Relaxations read `dist` (fixed during a round) and write `next`, so every round computes the
// shortest distances over paths of at most `round` edges whatever the order of the atomics:
// the result is deterministic. The host runs a fixed ROUNDS rounds (it cannot read device
// memory); R-MAT from vertex 0 converges in about 9 at the default size, later rounds do
// nothing but check their flags.
// The knob N is the number of vertices (8 N directed edges): at the default 16384 the CSR with
// weights is 1.1 MB, more than the L2, with about 730 vertices above the threshold.
#define N 16384
#define EDGES_PER_VERTEX 8
#define ROUNDS 12
#define THRESHOLD 32
#define CHILD 32
#define SOURCE 0
#define INF 1000000000

__global__ void sssp_init(int* dist, int* next, int* active, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices) {
        if (v == SOURCE) {
            dist[v] = 0;
            next[v] = 0;
            active[v] = 1;
        } else {
            dist[v] = INF;
            next[v] = INF;
            active[v] = 0;
        }
    }
}

// A child: thread k relaxes edge start + k of a hub whose distance is `dv`.
__global__ void sssp_expand(const int* columns, const int* weights, int* next, int start, int count, int dv) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) {
        int u = columns[start + k];
        int nd = dv + weights[start + k];
        if (nd < next[u]) {
            atomicMin(&next[u], nd);
        }
    }
}

// A parent: one thread per vertex; only the vertices that improved last round relax.
__global__ void sssp_relax(const int* offsets, const int* columns, const int* weights, const int* dist, int* next,
                           const int* active, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= vertices) {
        return;
    }
    if (active[v] == 0) {
        return;
    }
    int dv = dist[v];
    int start = offsets[v];
    int end = offsets[v + 1];
    int degree = end - start;
    if (degree >= THRESHOLD) {
        int blocks = degree / CHILD;
        sssp_expand<<<blocks, CHILD>>>(columns, weights, next, start, blocks * CHILD, dv);
        start = start + blocks * CHILD;
    }
    for (int e = start; e < end; e++) {
        int u = columns[e];
        int nd = dv + weights[e];
        if (nd < next[u]) {
            atomicMin(&next[u], nd);
        }
    }
}

__global__ void sssp_update(int* dist, const int* next, int* active, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices) {
        int nd = next[v];
        if (nd < dist[v]) {
            active[v] = 1;
            dist[v] = nd;
        } else {
            active[v] = 0;
        }
    }
}

host {
    graph g = powerlaw(N, N * EDGES_PER_VERTEX, 2);
    int dist[N];
    int next[N];
    int active[N];
    sssp_init<<<(N + 255) / 256, 256>>>(dist, next, active, N);
    for (int round = 0; round < ROUNDS; round++) {
        sssp_relax<<<(N + 255) / 256, 256>>>(g.offsets, g.columns, g.weights, dist, next, active, N);
        sssp_update<<<(N + 255) / 256, 256>>>(dist, next, active, N);
    }
}
