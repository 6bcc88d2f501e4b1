// Graph colouring with dynamic parallelism: Jones-Plassmann rounds, LaPerm's CLR, over a banded
// graph like its cage15 input (the notes' scaled `banded` input: neighbours within 64 ids, a
// tenth of the vertices hubs of 64-256 edges). Every vertex has a distinct random priority (a
// bijective hash of its id). Each round is two host launches over a grid of one thread per
// vertex, 128 threads per block: `clr_scan`, where every uncoloured vertex raises `nmax` of each
// uncoloured neighbour to its own priority and its own `nmax` to the neighbour's (atomicMax, so
// the graph counts as undirected), and `clr_pick`, where a vertex whose priority beats all its
// uncoloured neighbours' takes the round as its colour. A vertex with THRESHOLD or more edges
// launches a child grid of degree / CHILD blocks x CHILD threads for the head of its edge list,
// a thread per edge, and scans the rest itself (the notes' T = CT = 32).
// Where the locality is: the children of one parent block serve neighbouring hubs, whose
// neighbours overlap within the band, so siblings and the parent's block read the same `color`
// and `prio` lines; with PRESCAN 1 the parent thread first reads one word of every line of its
// child's part of the edge list (the notes' switch that gives the parent-child sharing the paper
// measures), so a child on its parent's SM finds those lines in L1. Hubs rarely beat all their
// neighbours, so they stay uncoloured and keep launching for many rounds while their small
// neighbours are coloured: children do most of the later rounds' work.
// GRAPH chooses the input: `citation(N, 512, 3)` (citation-like) or `powerlaw(N, 16 * N, 3)`
// (graph500-like: R-MAT, hubs scattered over the ids) give the paper's other inputs.
// The host cannot read device memory, so it runs a fixed ROUNDS rounds.
// The knob N is the number of vertices: at the default 32768 a banded graph has about 930 000
// edges (a 3.7 MB edge list, beyond the 1.5 MB L2) and 3 300 hubs.
#define N 32768
#define GRAPH banded(N, 64, 3)
#define ROUNDS 4
#define THRESHOLD 32
#define CHILD 32
#define PRESCAN 1

__global__ void clr_init(unsigned* prio, int* color, unsigned* nmax, int vertices) {
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

// A child: thread k handles edge start + k of vertex v, whose priority is `mine`.
__global__ void clr_child(const int* columns, const unsigned* prio, const int* color, unsigned* nmax, int start,
                          int count, int v, unsigned mine) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) {
        int u = columns[start + k];
        if (color[u] < 0) {
            atomicMax(&nmax[u], mine);
            atomicMax(&nmax[v], prio[u]);
        }
    }
}

// A parent: one thread per vertex; only the uncoloured ones scan.
__global__ void clr_scan(const int* offsets, const int* columns, const unsigned* prio, const int* color,
                         unsigned* nmax, int vertices) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= vertices) {
        return;
    }
    if (color[v] >= 0) {
        return;
    }
    unsigned mine = prio[v];
    int start = offsets[v];
    int end = offsets[v + 1];
    int degree = end - start;
    int blocks = degree / CHILD;
    if (degree >= THRESHOLD && blocks > 0) {
        if (PRESCAN) {
            // One word of each 128-byte line the child will read; ids are never negative, so
            // the test below never holds and only keeps the loads.
            int touched = 0;
            for (int k = 0; k < blocks * CHILD; k += 32) {
                touched = touched | columns[start + k];
            }
            if (touched < 0) {
                mine = 0u;
            }
        }
        clr_child<<<blocks, CHILD>>>(columns, prio, color, nmax, start, blocks * CHILD, v, mine);
        start = start + blocks * CHILD;
    }
    unsigned highest = 0u;
    for (int e = start; e < end; e++) {
        int u = columns[e];
        if (color[u] < 0) {
            highest = max(highest, prio[u]);
            atomicMax(&nmax[u], mine);
        }
    }
    atomicMax(&nmax[v], highest);
}

__global__ void clr_pick(const unsigned* prio, int* color, unsigned* nmax, int round, int vertices) {
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
    graph g = GRAPH;
    int prio[N];
    int color[N];
    int nmax[N];
    clr_init<<<(N + 127) / 128, 128>>>(prio, color, nmax, N);
    for (int round = 0; round < ROUNDS; round++) {
        clr_scan<<<(N + 127) / 128, 128>>>(g.offsets, g.columns, prio, color, nmax, N);
        clr_pick<<<(N + 127) / 128, 128>>>(prio, color, nmax, round, N);
    }
}
