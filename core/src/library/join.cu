// Relational join with dynamic parallelism, after the LaPerm paper's JOIN (a join of two key
// columns; a key with many matches launches a child grid of matches / 128 blocks that writes the
// output, the parent does the rest; children write their own output region, so siblings share
// almost nothing, and the skewed inputs make a few parents launch most children).
// Here: SELECT s.row, SUM(r.qty) FROM R JOIN S ON r.key = s.key AND s.weight <= r.limit
// GROUP BY s.row. The inner table S is stored clustered by key, with an index: its rows are
// the edges of an R-MAT graph (key = source vertex, weight = edge weight 1..100), so the rows of
// key k are s.offsets[k] .. s.offsets[k + 1] and the number of rows per key follows a power law
// (a few keys with thousands of rows, most with a handful). The outer table R probes every key
// PROBES_PER_KEY times, sorted by key, as the paper's join partitions sorted inputs over its
// parent blocks: the probes of one key sit in one parent block, so the blocks holding the big
// keys launch most children (the imbalance the paper's Gaussian keys give). Each probe of a big
// key launches its own child over the key's rows, so siblings share those rows (23 % of a
// child's lines, `warpscope sharing`), where the paper's children write regions of their own.
// With SORTED 0 the outer keys are drawn uniformly instead, and the launching probes spread over
// every block.
// A parent thread per outer row looks its key up in the index; if the key has at
// least THRESHOLD rows it launches rows / CHILD blocks x CHILD threads that scan the head of the
// bucket (thread k tests row start + k), and scans the rest itself. Every match adds the outer
// row's quantity to `total` of the inner row with an integer atomicAdd: order-independent.
// The knob N is the number of keys (8 N inner rows, 4 N outer rows): at the default 16384,
// 65536 parent threads, about 2900 of them launching, and 1.9 MB of tables and
// output touched.
#define N 16384
#define ROWS_PER_KEY 8
#define PROBES_PER_KEY 4
#define THRESHOLD 32
#define CHILD 32
#define SORTED 1

// A child: thread k tests inner row start + k against one outer row.
__global__ void join_scan(const int* weight, int* total, int start, int count, int limit, int qty) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) {
        if (weight[start + k] <= limit) {
            atomicAdd(&total[start + k], qty);
        }
    }
}

// A parent: one thread per outer row.
__global__ void join_probe(const int* offsets, const int* weight, const int* rkey, const int* rlimit, const int* rqty,
                           int* total, int rows) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) {
        return;
    }
    int key = rkey[r];
    if (SORTED) {
        key = r / PROBES_PER_KEY;
    }
    int limit = rlimit[r];
    int qty = rqty[r];
    int start = offsets[key];
    int end = offsets[key + 1];
    int count = end - start;
    if (count >= THRESHOLD) {
        int blocks = count / CHILD;
        join_scan<<<blocks, CHILD>>>(weight, total, start, blocks * CHILD, limit, qty);
        start = start + blocks * CHILD;
    }
    for (int e = start; e < end; e++) {
        if (weight[e] <= limit) {
            atomicAdd(&total[e], qty);
        }
    }
}

host {
    graph s = powerlaw(N, N * ROWS_PER_KEY, 4);
    int rkey[N * PROBES_PER_KEY] = random(0, N - 1, 5);
    int rlimit[N * PROBES_PER_KEY] = random(1, 100, 6);
    int rqty[N * PROBES_PER_KEY] = random(1, 10, 7);
    int total[N * ROWS_PER_KEY];
    join_probe<<<(N * PROBES_PER_KEY + 127) / 128, 128>>>(s.offsets, s.weights, rkey, rlimit, rqty, total,
                                                         N * PROBES_PER_KEY);
}
