// Graph colouring by Jones-Plassmann rounds over a uniform random graph: the CCWS paper's
// highly cache-sensitive graph class (thread per vertex, each walking its own edge list), in the
// form LaPerm's CLR describes without the child grids. Every vertex gets a distinct random
// priority (a bijective hash of its id). Each round is two host launches: `color_scan`, where
// every uncoloured vertex walks its out-edges and, for each uncoloured neighbour, raises
// `nmax` of both ends to the other's priority (atomicMax, so the graph counts as undirected),
// then `color_pick`, where every uncoloured vertex whose priority beats all its uncoloured
// neighbours' takes the round number as its colour. The vertices coloured in one round are
// never adjacent, so the colouring is valid, and atomicMax makes it independent of the order.
// Each thread re-reads its own run of `columns` (intra-thread locality) and gathers
// `color`, `prio` and `nmax` lines at random neighbours.
// The host cannot read device memory, so it runs a fixed ROUNDS rounds (a uniform graph of
// mean degree 8 needs about 25; later rounds find nothing left to colour).
// The knob N is the number of vertices (4 N directed edges): at the default 32768 the edge
// list is 512 KB and the three per-vertex arrays 128 KB each, beyond the L2 together.
#define N 32768
#define EDGES_PER_VERTEX 4
#define ROUNDS 32

__global__ void color_init(unsigned* prio, int* color, unsigned* nmax, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices) {
        unsigned x = (unsigned)v;
        x = x ^ (x >> 16);
        x = x * 0x7feb352du;
        x = x ^ (x >> 15);
        x = x * 0x846ca68bu;
        x = x ^ (x >> 16);
        prio[v] = x;
        color[v] = -1;
        nmax[v] = 0u;
    }
}

__global__ void color_scan(const int* offsets, const int* columns, const unsigned* prio, const int* color,
                           unsigned* nmax, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= vertices) {
        return;
    }
    if (color[v] >= 0) {
        return;
    }
    unsigned mine = prio[v];
    unsigned highest = 0u;
    int end = offsets[v + 1];
    for (int e = offsets[v]; e < end; e++) {
        int u = columns[e];
        if (color[u] < 0) {
            highest = max(highest, prio[u]);
            atomicMax(&nmax[u], mine);
        }
    }
    atomicMax(&nmax[v], highest);
}

__global__ void color_pick(const unsigned* prio, int* color, unsigned* nmax, int round, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices && color[v] < 0) {
        // Priorities are distinct, so >= only differs from > for a vertex with no uncoloured
        // neighbour (nmax still 0).
        if (prio[v] >= nmax[v]) {
            color[v] = round;
        }
        nmax[v] = 0u;
    }
}

host {
    graph g = uniform(N, N * EDGES_PER_VERTEX, 12);
    int prio[N];
    int color[N];
    int nmax[N];
    color_init<<<(N + 255) / 256, 256>>>(prio, color, nmax, N);
    for (int round = 0; round < ROUNDS; round++) {
        color_scan<<<(N + 255) / 256, 256>>>(g.offsets, g.columns, prio, color, nmax, N);
        color_pick<<<(N + 255) / 256, 256>>>(prio, color, nmax, round, N);
    }
}
