// BFS with dynamic parallelism: a level-synchronous breadth-first search over an R-MAT
// (power-law) graph from its biggest hub, vertex 0, as the LaPerm paper runs it (Merrill-style
// BFS on citation / graph500 / cage15 inputs, CDP form). One host launch per level: a thread per
// vertex checks whether its vertex is on the current frontier; a frontier vertex with an
// out-degree of at least THRESHOLD launches a child grid of degree / CHILD blocks x CHILD
// threads that expands the head of its edge list, and the parent thread expands the rest (the
// LaPerm scaled setting T = CT = 32; parents 128 threads per block). Children re-read the edge
// list and the level lines their parent's block touched, and the children of neighbouring
// parents share the `level` lines of common neighbours.
// The host cannot read device memory, so it launches a fixed LEVELS levels; once the frontier
// is empty a level kernel only checks its vertices and returns (R-MAT from vertex 0 is at most
// 5 levels deep at these sizes). Levels are set with atomicMin, so the result does not depend
// on the order in which parents and children run.
// The knob N is the number of vertices (8 N directed edges): at the default 16384 the CSR is
// 576 KB (about 35 L1s, three quarters of the L2), with about 730 vertices above the threshold.
#define N 16384
#define EDGES_PER_VERTEX 8
#define LEVELS 8
#define THRESHOLD 32
#define CHILD 32
#define SOURCE 0
#define UNVISITED 1000000000

__global__ void bfs_init(int* level, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices) {
        if (v == SOURCE) {
            level[v] = 0;
        } else {
            level[v] = UNVISITED;
        }
    }
}

// A child: thread k visits edge start + k of a hub's edge list.
__global__ void bfs_expand(const int* columns, int* level, int start, int count, int next) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) {
        int u = columns[start + k];
        if (level[u] > next) {
            atomicMin(&level[u], next);
        }
    }
}

// A parent: one thread per vertex; only the vertices at `depth` do anything.
__global__ void bfs_level(const int* offsets, const int* columns, int* level, int depth, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= vertices) {
        return;
    }
    if (level[v] != depth) {
        return;
    }
    int start = offsets[v];
    int end = offsets[v + 1];
    int degree = end - start;
    int next = depth + 1;
    if (degree >= THRESHOLD) {
        int blocks = degree / CHILD;
        bfs_expand<<<blocks, CHILD>>>(columns, level, start, blocks * CHILD, next);
        start = start + blocks * CHILD;
    }
    for (int e = start; e < end; e++) {
        int u = columns[e];
        if (level[u] > next) {
            atomicMin(&level[u], next);
        }
    }
}

host {
    graph g = powerlaw(N, N * EDGES_PER_VERTEX, 1);
    int level[N];
    bfs_init<<<(N + 127) / 128, 128>>>(level, N);
    for (int depth = 0; depth < LEVELS; depth++) {
        bfs_level<<<(N + 127) / 128, 128>>>(g.offsets, g.columns, level, depth, N);
    }
}
