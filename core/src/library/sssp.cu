// SSSP, flat: Harish and Narayanan's single-source shortest paths (Bellman-Ford style), the
// CCWS paper's SSSP (after Bakhoda et al.'s GPGPU-Sim workloads), its one moderately
// cache-sensitive program with much intra-warp locality. Each iteration is two host launches over
// all vertices: `sssp_relax` lets every vertex whose cost fell last time (mask set) walk its own
// contiguous edge list and atomicMin its cost plus the edge's weight into each neighbour's
// `updating`; `sssp_update` takes every lower `updating` as the new cost and marks the vertex.
// A warp's 32 edge lists are 32 short runs (EDGES_PER_VERTEX edges each, 4 bytes in `columns`
// and 4 in `weights`): about six lines of each array, re-read edge after edge by the same warp,
// about 1.5 KB per warp while it walks them. The neighbour updates are atomics, which go to the
// L2 without allocating in the L1, so little else competes: a 32 KB L1 holds much of what the
// warps re-read and an 8 KB one does not (measured on ccws-fermi under GTO: 43 % of L1 accesses
// hit at 32 KB, 25 % at 8 KB). The paper's SSSP gains nothing from CCWS at 32 KB and 35 % at
// 8 KB (Fig. 14).
// The result does not depend on the order of the atomics: after iteration i every cost is the
// shortest path of at most i edges from vertex 0. The graph is uniformly random (Harish and
// Narayanan's inputs are random graphs of average degree 6); weights are 1..=100.
// The knob N is the number of vertices: at the default 16384 the edges are 768 KB, within the
// 1 MB L2.
#define N 16384
#define EDGES_PER_VERTEX 6
#define ITERATIONS 8
#define INF 1000000000

__global__ void sssp_init(int* mask, int* cost, int* updating, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        mask[v] = v == 0;
        cost[v] = v == 0 ? 0 : INF;
        updating[v] = v == 0 ? 0 : INF;
    }
}

__global__ void sssp_relax(const int* offsets, const int* columns, const int* weights, int* mask, const int* cost,
                           int* updating, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && mask[v] != 0) {
        mask[v] = 0;
        int c = cost[v];
        int end = offsets[v + 1];
        for (int e = offsets[v]; e < end; e++) {
            atomicMin(&updating[columns[e]], c + weights[e]);
        }
    }
}

__global__ void sssp_update(int* mask, int* cost, int* updating, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        int u = updating[v];
        if (u < cost[v]) {
            cost[v] = u;
            mask[v] = 1;
        }
        updating[v] = cost[v];
    }
}

host {
    graph g = uniform(N, N * EDGES_PER_VERTEX, 17);
    int mask[N];
    int cost[N];
    int updating[N];
    sssp_init<<<(N + 255) / 256, 256>>>(mask, cost, updating, N);
    for (int i = 0; i < ITERATIONS; i++) {
        sssp_relax<<<(N + 255) / 256, 256>>>(g.offsets, g.columns, g.weights, mask, cost, updating, N);
        sssp_update<<<(N + 255) / 256, 256>>>(mask, cost, updating, N);
    }
}
