// BFS, flat: Rodinia's breadth-first search (the CCWS paper's BFS, its most cache-sensitive
// benchmark), over an R-MAT (power-law) graph from its biggest hub, vertex 0. Each level is two
// host launches over all vertices: `bfs_visit` lets every frontier vertex (mask set) walk its own
// contiguous edge list, giving each unvisited neighbour the next cost and marking it; then
// `bfs_mark` moves the marked vertices into the frontier. Each thread streams its own run of
// `columns` (intra-thread locality: a warp's 32 runs are 32 lines reused for the length of the
// runs) and gathers `visited` and `cost` at random neighbours, so far more lines are live than
// an L1 holds: the fewer warps share the L1, the more of those runs survive (CCWS's target).
// Every writer in a level writes the same cost, so the result does not depend on the order.
// The host cannot read device memory, so it runs a fixed LEVELS levels (R-MAT from vertex 0 is
// at most 5 levels deep at these sizes; later levels find an empty frontier).
// The knob N is the number of vertices (8 N directed edges): at the default 32768 the edge list
// is 1 MB and the per-vertex arrays 128 KB each, beyond the L2.
#define N 32768
#define EDGES_PER_VERTEX 8
#define GRAPH powerlaw
#define LEVELS 8
#define SOURCE 0

__global__ void bfs_init(int* mask, int* updating, int* visited, int* cost, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices) {
        updating[v] = 0;
        if (v == SOURCE) {
            mask[v] = 1;
            visited[v] = 1;
            cost[v] = 0;
        } else {
            mask[v] = 0;
            visited[v] = 0;
            cost[v] = -1;
        }
    }
}

__global__ void bfs_visit(const int* offsets, const int* columns, int* mask, int* updating, const int* visited,
                          int* cost, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices && mask[v] != 0) {
        mask[v] = 0;
        int next = cost[v] + 1;
        int end = offsets[v + 1];
        for (int e = offsets[v]; e < end; e++) {
            int u = columns[e];
            if (visited[u] == 0) {
                cost[u] = next;
                updating[u] = 1;
            }
        }
    }
}

__global__ void bfs_mark(int* mask, int* updating, int* visited, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices && updating[v] != 0) {
        mask[v] = 1;
        visited[v] = 1;
        updating[v] = 0;
    }
}

host {
    graph g = GRAPH(N, N * EDGES_PER_VERTEX, 11);
    int mask[N];
    int updating[N];
    int visited[N];
    int cost[N];
    bfs_init<<<(N + 255) / 256, 256>>>(mask, updating, visited, cost, N);
    for (int level = 0; level < LEVELS; level++) {
        bfs_visit<<<(N + 255) / 256, 256>>>(g.offsets, g.columns, mask, updating, visited, cost, N);
        bfs_mark<<<(N + 255) / 256, 256>>>(mask, updating, visited, N);
    }
}
