// LU decomposition: Rodinia's blocked LUD (run by the CCWS paper as LUD, cache-insensitive to
// moderately sensitive), in place, without pivoting, on an N x N matrix made diagonally
// dominant. For each 16-wide block column: `lud_diagonal` (one block of 16 threads factors the
// diagonal tile in shared memory), `lud_perimeter` (a block of 32 threads per tile right of and
// below it solves the row and column strips), `lud_internal` (a 16 x 16 block per trailing tile
// subtracts the product of its strip tiles); a last `lud_diagonal` factors the final tile.
// All work happens on tiles in shared memory loaded with coalesced rows; the strip tiles are
// re-read by every internal block of their row and column (inter-block reuse through the L1
// and L2), and the trailing matrix shrinks every step.
// The knob N is the side of the matrix (rounded down to a multiple of 16): at the default 256
// the matrix is 256 KB, and 3 * 15 + 2 launches factor it.
#define N 256
#define BLOCK_SIZE 16
#define DIM (N / BLOCK_SIZE * BLOCK_SIZE)

__global__ void lud_prepare(float* m, int matrix_dim) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < matrix_dim) {
        m[i * matrix_dim + i] += (float)matrix_dim;
    }
}

__global__ void lud_diagonal(float* m, int matrix_dim, int offset) {
    __shared__ float shadow[BLOCK_SIZE][BLOCK_SIZE];
    int tx = threadIdx.x;
    int array_offset = offset * matrix_dim + offset;
    for (int i = 0; i < BLOCK_SIZE; i++) {
        shadow[i][tx] = m[array_offset + tx];
        array_offset += matrix_dim;
    }
    __syncthreads();
    for (int i = 0; i < BLOCK_SIZE - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++) {
                shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
            }
            shadow[tx][i] /= shadow[i][i];
        }
        __syncthreads();
        if (tx > i) {
            for (int j = 0; j < i + 1; j++) {
                shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
            }
        }
        __syncthreads();
    }
    array_offset = (offset + 1) * matrix_dim + offset;
    for (int i = 1; i < BLOCK_SIZE; i++) {
        m[array_offset + tx] = shadow[i][tx];
        array_offset += matrix_dim;
    }
}

__global__ void lud_perimeter(float* m, int matrix_dim, int offset) {
    __shared__ float dia[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];
    int idx;
    int array_offset;
    if (threadIdx.x < BLOCK_SIZE) {
        idx = threadIdx.x;
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE / 2; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            peri_row[i][idx] = m[array_offset + (blockIdx.x + 1) * BLOCK_SIZE + idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = threadIdx.x - BLOCK_SIZE;
        array_offset = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
        for (int i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = (offset + (blockIdx.x + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            peri_col[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
    }
    __syncthreads();
    if (threadIdx.x < BLOCK_SIZE) {
        idx = threadIdx.x;
        for (int i = 1; i < BLOCK_SIZE; i++) {
            for (int j = 0; j < i; j++) {
                peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
            }
        }
    } else {
        idx = threadIdx.x - BLOCK_SIZE;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            for (int j = 0; j < i; j++) {
                peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            }
            peri_col[idx][i] /= dia[i][i];
        }
    }
    __syncthreads();
    if (threadIdx.x < BLOCK_SIZE) {
        idx = threadIdx.x;
        array_offset = (offset + 1) * matrix_dim + offset;
        for (int i = 1; i < BLOCK_SIZE; i++) {
            m[array_offset + (blockIdx.x + 1) * BLOCK_SIZE + idx] = peri_row[i][idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = threadIdx.x - BLOCK_SIZE;
        array_offset = (offset + (blockIdx.x + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            m[array_offset + idx] = peri_col[i][idx];
            array_offset += matrix_dim;
        }
    }
}

__global__ void lud_internal(float* m, int matrix_dim, int offset) {
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int global_row_id = offset + (blockIdx.y + 1) * BLOCK_SIZE;
    int global_col_id = offset + (blockIdx.x + 1) * BLOCK_SIZE;
    peri_row[ty][tx] = m[(offset + ty) * matrix_dim + global_col_id + tx];
    peri_col[ty][tx] = m[(global_row_id + ty) * matrix_dim + offset + tx];
    __syncthreads();
    float sum = 0.0f;
    for (int i = 0; i < BLOCK_SIZE; i++) {
        sum += peri_col[ty][i] * peri_row[i][tx];
    }
    m[(global_row_id + ty) * matrix_dim + global_col_id + tx] -= sum;
}

host {
    float m[DIM * DIM] = random(0.0, 1.0, 41);
    lud_prepare<<<(DIM + 63) / 64, 64>>>(m, DIM);
    for (int i = 0; i < DIM - BLOCK_SIZE; i += BLOCK_SIZE) {
        lud_diagonal<<<1, BLOCK_SIZE>>>(m, DIM, i);
        lud_perimeter<<<(DIM - i) / BLOCK_SIZE - 1, BLOCK_SIZE * 2>>>(m, DIM, i);
        lud_internal<<<dim3((DIM - i) / BLOCK_SIZE - 1, (DIM - i) / BLOCK_SIZE - 1), dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(m, DIM, i);
    }
    lud_diagonal<<<1, BLOCK_SIZE>>>(m, DIM, DIM - BLOCK_SIZE);
}
