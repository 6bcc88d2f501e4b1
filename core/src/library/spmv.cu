// SpMV: Parboil's sparse matrix-vector product in the jagged-diagonal (JDS) layout, the
// concurrent-kernel paper's sv, a memory-intensive ("M") kernel (its Table 2: 16 blocks of 192
// threads per SM, about 3 lines per memory instruction, a 0.78 L1 miss rate). Each thread is
// one row: for each of the NDIAG jagged diagonals it reads the diagonal's start (one word the
// whole warp shares), the row's column and value there (coalesced: a diagonal stores its
// entries row by row), and x at that column (a gather), and adds the product. The rows all
// hold NDIAG entries, so the layout needs no row permutation; a row's columns lie within
// WINDOW of it (a banded matrix, as the notes' recipe has it: a warp's gather touches about
// (32 + WINDOW) / 32 = 8 lines of x, part of which stays in the L1). The column is stored as an
// offset from the row, wrapped at N: the same loads as a column index, and a host that only
// generates values can build it.
// The knob N is the number of rows: at the default 49152, 256 blocks of 192
// threads (one full wave of the paper's 16 SMs), the matrix takes 12 MB, six times its L2.
#define N 49152
#define NDIAG 32
#define WINDOW 224
#define BLOCK 192

__global__ void spmv_jds(const int* diag_start, const int* offset, const float* value, const float* x, float* y, int n) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) {
        return;
    }
    float sum = 0.0f;
    for (int d = 0; d < NDIAG; d++) {
        int p = diag_start[d] * n + row;
        int col = (row + offset[p]) % n;
        sum += value[p] * x[col];
    }
    y[row] = sum;
}

host {
    int diag_start[NDIAG] = iota();
    int offset[NDIAG * N] = random(0, WINDOW - 1, 41);
    float value[NDIAG * N] = random(-1.0, 1.0, 42);
    float x[N] = random(-1.0, 1.0, 43);
    float y[N];
    spmv_jds<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(diag_start, offset, value, x, y, N);
}
