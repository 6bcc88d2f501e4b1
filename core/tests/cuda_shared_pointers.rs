//! Pointers into `__shared__` arrays, as CUDA kernels pass them to device functions: each
//! result checked against the same computation written out in Rust over the kernel's input.

mod language_common;

use language_common::{compiled, expect_first_error, Run};

/// The CUDA samples' block reduction: the shared array goes to a device function as a
/// pointer, and its last steps to `warpReduce(volatile float* sdata, …)`. The same device
/// function also runs on a global pointer: each call's pointer keeps its own memory.
#[test]
fn a_reduction_through_pointer_parameters() {
    let src = r#"
__device__ void warp_reduce(volatile int* s, int tid) {
    s[tid] += s[tid + 32]; s[tid] += s[tid + 16]; s[tid] += s[tid + 8];
    s[tid] += s[tid + 4]; s[tid] += s[tid + 2]; s[tid] += s[tid + 1];
}
__device__ void block_reduce(int* s, int tid) {
    for (int d = blockDim.x / 2; d > 32; d >>= 1) {
        if (tid < d) s[tid] += s[tid + d];
        __syncthreads();
    }
    if (tid < 32) warp_reduce(s, tid);
}
__device__ void twice(int* p, int i) { p[i] = 2 * p[i]; }
__global__ void k(const int* in, int* out, int* doubled) {
    __shared__ int sdata[128];
    int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * 128 + tid];
    __syncthreads();
    block_reduce(sdata, tid);
    if (tid == 0) out[blockIdx.x] = sdata[0];
    doubled[blockIdx.x * 128 + tid] = in[blockIdx.x * 128 + tid];
    twice(doubled, blockIdx.x * 128 + tid);
}
host { int in[512] = random(-100, 100, 8); int out[4]; int doubled[512]; k<<<4, 128>>>(in, out, doubled); }
"#;
    let run = Run::new(src);
    let input = run.ints("in");
    let sums: Vec<i32> = input.chunks(128).map(|b| b.iter().sum()).collect();
    assert_eq!(run.ints("out"), sums);
    assert_eq!(run.ints("doubled"), input.iter().map(|v| 2 * v).collect::<Vec<_>>());
    // The shared accesses stayed shared: the kernel's only global accesses are its buffers'.
    let kernel = &run.program.workload.kernels[0];
    let shared = kernel.code.iter().filter(|i| i.class() == warpscope_core::isa::InstrClass::Shared).count();
    assert!(shared >= 12, "{shared} shared accesses");
}

/// A row pointer into a 2-D tile, pointer arithmetic, `*p`, and atomics through a pointer
/// into shared memory: a histogram per block of 64 threads over 16 bins.
#[test]
fn row_pointers_arithmetic_and_atomics_in_shared_memory() {
    let src = r#"
__device__ void bump(int* bins, int v) { atomicAdd(bins + v % 16, 1); }
__global__ void k(const int* in, int* hist, int* rows) {
    __shared__ int bins[16];
    __shared__ int tile[8][8];
    int t = threadIdx.x;
    if (t < 16) bins[t] = 0;
    int* row = &tile[t / 8][0];
    *(row + t % 8) = t * 3;
    __syncthreads();
    bump(bins, in[blockIdx.x * 64 + t]);
    __syncthreads();
    if (t < 16) hist[blockIdx.x * 16 + t] = bins[t];
    int* mine = &tile[0][0] + t;
    rows[blockIdx.x * 64 + t] = *mine + row[7 - t % 8];
}
host { int in[128] = random(0, 1000, 6); int hist[32]; int rows[128]; k<<<2, 64>>>(in, hist, rows); }
"#;
    let run = Run::new(src);
    let input = run.ints("in");
    for (b, block) in input.chunks(64).enumerate() {
        let mut bins = [0; 16];
        for v in block {
            bins[(v % 16) as usize] += 1;
        }
        assert_eq!(&run.ints("hist")[b * 16..b * 16 + 16], &bins);
    }
    let rows: Vec<i32> = (0..128).map(|i| i % 64).map(|t| t * 3 + (t / 8 * 8 + 7 - t % 8) * 3).collect();
    assert_eq!(run.ints("rows"), rows);
}

#[test]
fn a_pointers_memory_space_is_kept_and_mistakes_are_named() {
    // A pointer declared and initialised from a shared array is a shared pointer: printing
    // its type in a message says so.
    let src = |body: &str| {
        format!(
            "__global__ void k(float* a) {{ __shared__ float s[32]; {body} }}\n\
             __global__ void child(float* p) {{ p[0] = 1.0f; }}\n\
             host {{ float a[32]; k<<<1, 32>>>(a); }}"
        )
    };
    let cases = [
        (
            "float* p = s; p = a;",
            "cannot assign a `float*` to a `__shared__ float*` variable: a pointer variable keeps the memory space of the address it was initialised with",
        ),
        (
            "child<<<1, 1>>>(s);",
            "argument 1 of `child` must be a `float*`, found a `__shared__ float*`: a kernel's pointers are addresses in global memory",
        ),
        (
            "__shared__ float t[4][4]; float* p = t;",
            "a pointer to a row of `t` is not supported",
        ),
    ];
    for (body, message) in cases {
        expect_first_error(&src(body), message);
    }
    // A null pointer, and a pointer assigned within its own space, are fine.
    compiled(&src("float* p = s; p = p + 1; p[0] = 2.0f; float* q = 0; if (q) a[0] = 1.0f;"));
}

/// A cast of a pointer keeps the memory it points into: Rodinia's dwt2d copies bytes into a
/// `__shared__ unsigned char` array through `(float*)` views of it and of the global source.
#[test]
fn a_cast_pointer_into_shared_memory_still_points_there() {
    let src = r#"
__global__ void k(unsigned char* src, unsigned* out) {
    __shared__ unsigned char bytes[64];
    int x = threadIdx.x;
    float* s = (float*)src;
    float* d = (float*)bytes;
    d[x] = s[x];
    __syncthreads();
    unsigned* w = (unsigned*)d;
    out[x] = w[15 - x] + bytes[4 * x];
}
host { unsigned char src[64] = iota(); unsigned out[16]; k<<<1, 16>>>(src, out); }
"#;
    let run = Run::new(src);
    let word = |k: u32| u32::from_le_bytes([4 * k as u8, 4 * k as u8 + 1, 4 * k as u8 + 2, 4 * k as u8 + 3]);
    let expected: Vec<u32> = (0..16).map(|x| word(15 - x) + 4 * x).collect();
    assert_eq!(run.words("out"), expected);
}
