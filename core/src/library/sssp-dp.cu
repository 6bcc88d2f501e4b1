// SSSP with dynamic parallelism on a road-like mesh: Bellman-Ford-style relaxation from the
// centre of an N x N grid (4 neighbours per vertex, 8 % of the links missing, weights 1..100),
// in the style of the LaPerm paper's SSSP (LonestarGPU, CDP form). A road network has no hubs
// (degree <= 4), so the nested parallelism is over vertices instead of edges: a parent thread
// owns a segment of SEG consecutive vertices (a piece of a mesh row), counts how many of them
// improved last round, and if at least SEG_THRESHOLD did, launches a child grid of one block of
// SEG threads that relaxes them; a segment with fewer active vertices is relaxed by the parent
// thread itself. The child re-reads the `active` and `dist` lines its parent just scanned, and
// children of vertically adjacent segments share the `next` lines of each other's vertices.
// Each round is two host launches: `sssp_relax` (atomicMin into `next`, reading only `dist`)
// and `sssp_update` (`dist = next`, marking the vertices that improved), so a round computes the
// shortest distances over paths of at most `round` edges whatever the order of the atomics:
// the result is deterministic. The host cannot read device memory, so it runs a fixed ROUNDS
// rounds, enough for the wave to cross the mesh (a mesh converges in about its side + 10 %).
// The knob N is the side of the mesh (N x N vertices, about 4 N^2 directed edges): at the
// default 128, 16384 vertices and a 540 KB CSR with weights, 160 rounds and 321 launches.
#define N 128
#define ROUNDS (N + N / 4)
#define SEG 32
#define SEG_THRESHOLD 4
#define INF 1000000000

__global__ void sssp_init(int* dist, int* next, int* active, int source, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices) {
        if (v == source) {
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

__device__ void relax_vertex(const int* offsets, const int* columns, const int* weights, const int* dist, int* next,
                             int v) {
    int dv = dist[v];
    int end = offsets[v + 1];
    for (int e = offsets[v]; e < end; e++) {
        int u = columns[e];
        int nd = dv + weights[e];
        if (nd < next[u]) {
            atomicMin(&next[u], nd);
        }
    }
}

// A child: thread j relaxes vertex first + j of a busy segment if it improved last round.
__global__ void sssp_segment(const int* offsets, const int* columns, const int* weights, const int* dist, int* next,
                             const int* active, int first, int vertices) {
    int v = first + threadIdx.x;
    if (v < vertices) {
        if (active[v] != 0) {
            relax_vertex(offsets, columns, weights, dist, next, v);
        }
    }
}

// A parent: one thread per segment of SEG vertices.
__global__ void sssp_relax(const int* offsets, const int* columns, const int* weights, const int* dist, int* next,
                           const int* active, int vertices) {
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    int first = s * SEG;
    if (first >= vertices) {
        return;
    }
    int last = min(first + SEG, vertices);
    int count = 0;
    for (int v = first; v < last; v++) {
        count += active[v];
    }
    if (count >= SEG_THRESHOLD) {
        sssp_segment<<<1, SEG>>>(offsets, columns, weights, dist, next, active, first, vertices);
    } else if (count > 0) {
        for (int v = first; v < last; v++) {
            if (active[v] != 0) {
                relax_vertex(offsets, columns, weights, dist, next, v);
            }
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
    graph g = mesh(N, N, 3);
    int dist[N * N];
    int next[N * N];
    int active[N * N];
    int source = (N / 2) * N + N / 2;
    int segments = (N * N + SEG - 1) / SEG;
    sssp_init<<<(N * N + 255) / 256, 256>>>(dist, next, active, source, N * N);
    for (int round = 0; round < ROUNDS; round++) {
        sssp_relax<<<(segments + 63) / 64, 64>>>(g.offsets, g.columns, g.weights, dist, next, active, N * N);
        sssp_update<<<(N * N + 255) / 256, 256>>>(dist, next, active, N * N);
    }
}
