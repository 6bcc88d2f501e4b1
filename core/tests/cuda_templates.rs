//! Function templates as CUDA kernels write them, each instance's result checked against the
//! same computation written out in Rust over the kernel's own input.

mod language_common;

use language_common::{expect_error, Run};

/// The CUDA samples' tiled matrix product, a kernel template on its tile size, launched with
/// two sizes: each instance is its own kernel with its own shared tiles.
#[test]
fn a_kernel_template_launched_with_two_tile_sizes() {
    let run = Run::new(
        r#"
#define N 32
template <int BLOCK_SIZE> __global__ void MatrixMulCUDA(float* C, const float* A, const float* B, int wA, int wB) {
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * BLOCK_SIZE * by;
    int aEnd = aBegin + wA - 1;
    int aStep = BLOCK_SIZE;
    int bBegin = BLOCK_SIZE * bx;
    int bStep = BLOCK_SIZE * wB;
    float Csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
        for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    C[c + wB * ty + tx] = Csub;
}
host {
    float A[N * N] = random(0, 9, 1); float B[N * N] = random(0, 9, 2);
    float C8[N * N]; float C16[N * N];
    MatrixMulCUDA<8><<<dim3(N / 8, N / 8), dim3(8, 8)>>>(C8, A, B, N, N);
    MatrixMulCUDA<16><<<dim3(N / 16, N / 16), dim3(16, 16)>>>(C16, A, B, N, N);
}
"#,
    );
    let (a, b) = (run.floats("A"), run.floats("B"));
    let n = 32;
    let expected: Vec<f32> = (0..n * n)
        .map(|i| {
            let (row, col) = (i / n, i % n);
            // `Csub += As * Bs` contracts to a fused multiply-add, k in order across the tiles.
            (0..n).fold(0.0f32, |acc, k| a[row * n + k].mul_add(b[k * n + col], acc))
        })
        .collect();
    assert_eq!(run.floats("C8"), expected);
    assert_eq!(run.floats("C16"), expected);
    let kernels = &run.program.workload.kernels;
    let names: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["MatrixMulCUDA<8>", "MatrixMulCUDA<16>"]);
    assert_eq!((kernels[0].shared_bytes, kernels[1].shared_bytes), (2 * 8 * 8 * 4, 2 * 16 * 16 * 4));
}

/// The reduction of the CUDA samples' `reduce6` shape: a kernel template on the block size
/// calls a device-function template with it; `if (blockSize >= 64)` is decided per instance.
/// Type templates with explicit arguments and defaults.
#[test]
fn templates_use_each_other_and_take_types_and_defaults() {
    let run = Run::new(
        r#"
template <unsigned int blockSize>
__device__ void warpReduce(volatile int* sdata, unsigned int tid) {
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <unsigned int blockSize>
__global__ void reduce(const int* in, int* out) {
    __shared__ int sdata[blockSize];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockSize + tid];
    __syncthreads();
    if (blockSize >= 128) { if (tid < 64) sdata[tid] += sdata[tid + 64]; __syncthreads(); }
    if (tid < 32) warpReduce<blockSize>(sdata, tid);
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template <typename T> __device__ T square(T x) { return x * x; }
template <typename T = float, int SCALE = 3> __device__ T scaled(T x) { return x * SCALE; }

__global__ void maths(const int* in, int* si, float* sf, float* d, int* e) {
    int i = threadIdx.x;
    si[i] = square<int>(in[i]);
    sf[i] = square<float>(in[i] * 0.5f);
    d[i] = scaled<>(in[i] * 1.0f);
    e[i] = scaled<int, 5>(in[i]);
}
host {
    int in[256] = random(-20, 20, 4);
    int out128[2]; int out64[4];
    reduce<128><<<2, 128>>>(in, out128);
    reduce<64><<<4, 64>>>(in, out64);
    int si[32]; float sf[32]; float d[32]; int e[32];
    maths<<<1, 32>>>(in, si, sf, d, e);
}
"#,
    );
    let input = run.ints("in");
    let sums = |size: usize| input.chunks(size).map(|b| b.iter().sum()).collect::<Vec<i32>>();
    assert_eq!(run.ints("out128"), sums(128));
    assert_eq!(run.ints("out64"), sums(64));
    let first = &input[..32];
    assert_eq!(run.ints("si"), first.iter().map(|v| v * v).collect::<Vec<_>>());
    assert_eq!(run.floats("sf"), first.iter().map(|&v| (v as f32 * 0.5) * (v as f32 * 0.5)).collect::<Vec<_>>());
    assert_eq!(run.floats("d"), first.iter().map(|&v| v as f32 * 3.0).collect::<Vec<_>>());
    assert_eq!(run.ints("e"), first.iter().map(|v| v * 5).collect::<Vec<_>>());
    let names: Vec<&str> = run.program.workload.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["reduce<128>", "reduce<64>", "maths"]);
}

#[test]
fn template_mistakes_are_named() {
    let square = "template <typename T> __device__ T square(T x) { return x * x; }\n";
    let cases = [
        (
            format!("{square}__global__ void k(int* a) {{ a[0] = square<int, 2>(a[1]); }}\nhost {{ int a[2]; k<<<1, 1>>>(a); }}"),
            "`square` takes 1 template arguments, got 2",
        ),
        (
            "template <int N> __global__ void k(int* a) { a[0] = N; }\nhost { int a[2]; k<<<1, 1>>>(a); }".to_string(),
            "`k` is a kernel template: write its arguments, `k<…><<<…>>>`",
        ),
        (
            format!("{square}template <> __device__ int square<int>(int x) {{ return x; }}\n__global__ void k(int* a) {{ }}\nhost {{ int a[2]; k<<<1, 1>>>(a); }}"),
            "explicit specializations (`template <>`) are not supported",
        ),
        (
            "template <int N> __device__ int f() { return f<N + 1>(); }\n__global__ void k(int* a) { a[0] = f<0>(); }\nhost { int a[2]; k<<<1, 1>>>(a); }"
                .to_string(),
            "more than 256 template instances: does a template instantiate itself without end?",
        ),
    ];
    for (src, message) in cases {
        expect_error(&src, message);
    }
}
