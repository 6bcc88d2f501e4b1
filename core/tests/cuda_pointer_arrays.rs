//! Pointers to pointers, as Rodinia's leukocyte tracker passes one matrix per cell: a kernel
//! takes `float**`, reads each block's pointer from it, and works through that; the host
//! block builds the array of pointers from buffers it declared (`float* rows[3] = {all, all +
//! 6, &all[18]};`), and the addresses are the buffers' once they are placed.

mod language_common;
use language_common::*;

/// Three cells of different shapes in one buffer, found through arrays of pointers; a device
/// function takes a pointer read from one, pointer arithmetic and comparisons on `float**`.
const CELLS: &str = r#"
__device__ float sum_row(const float* row, int n) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += row[j];
    return s;
}

__global__ void scale_cells(float **out_array, float **in_array, int *m_array, int *n_array, float k) {
    int cell = blockIdx.x;
    float *in = in_array[cell];
    float *out = out_array[cell];
    int m = m_array[cell], n = n_array[cell];
    for (int i = threadIdx.x; i < m * n; i += blockDim.x) out[i] = in[i] * k;
    __syncthreads();
    if (threadIdx.x == 0) {
        float **mine = in_array + cell;
        out[m * n] = sum_row(*mine, m * n);
        if (out_array[cell] != 0 && !(in_array[cell] == 0)) out[m * n + 1] = (float)(in_array[cell] - in_array[0]);
    }
}

host {
    float all_in[36] = iota();
    float all_out[40];
    int m[3] = {2, 3, 1};
    int n[3] = {3, 4, 5};
    float* ins[3] = {all_in, all_in + 6, &all_in[18]};
    float* outs[3] = {all_out, all_out + 8, &all_out[22]};
    scale_cells<<<3, 32>>>(outs, ins, m, n, 2.0f);
}
"#;

/// What `CELLS` computes, worked out here: each cell's elements doubled, then their sum and
/// the cell's distance in elements from the first, after its last element.
fn cells_expected() -> Vec<f32> {
    let mut out = vec![0.0f32; 40];
    for (start_in, start_out, len) in [(0usize, 0usize, 6usize), (6, 8, 12), (18, 22, 5)] {
        let input: Vec<f32> = (start_in..start_in + len).map(|v| v as f32).collect();
        for (i, v) in input.iter().enumerate() {
            out[start_out + i] = v * 2.0;
        }
        out[start_out + len] = input.iter().sum();
        out[start_out + len + 1] = start_in as f32;
    }
    out
}

#[test]
fn a_kernel_finds_each_cells_matrix_through_an_array_of_pointers() {
    let run = Run::new(CELLS);
    assert_eq!(run.floats("all_out"), cells_expected());
    // The pointer buffers hold the buffers' addresses, as placed.
    let base = run.regions[0].base;
    assert_eq!(run.words("ins"), [base, base + 24, base + 72]);
}

#[test]
fn the_timing_engine_computes_what_the_reference_runner_does() {
    assert_timing_matches_reference(CELLS);
}

/// A kernel may store pointers too (a table of rows it builds for a later launch), and a null
/// entry reads as 0.
#[test]
fn a_kernel_builds_a_table_of_pointers_that_another_reads() {
    let src = r#"
__global__ void build(int** rows, int* data, int width) {
    int r = threadIdx.x;
    rows[r] = (r == 2) ? 0 : data + r * width;
}
__global__ void read(int** rows, int* out, int width) {
    int r = threadIdx.x;
    int* row = rows[r];
    out[r] = row ? row[width - 1] : -1;
}
host {
    int data[12] = iota();
    int* rows[4];
    int out[4];
    build<<<1, 4>>>(rows, data, 3);
    read<<<1, 4>>>(rows, out, 3);
}
"#;
    assert_eq!(Run::new(src).ints("out"), [2, 5, -1, 11]);
}

#[test]
fn mistakes_with_pointers_to_pointers_are_named() {
    let kernel = "__global__ void k(float** p, float* o) { o[0] = p[0][0]; }\n";
    let host = |body: &str| format!("{kernel}host {{ {body} }}");
    assert_eq!(
        errors(&host("float a[4]; float o[1]; k<<<1, 1>>>(a, o);"))[0].2,
        "argument 1 of `k` is a `float**`, but buffer `a` holds `float` elements"
    );
    assert_eq!(
        errors(&host("int a[4]; int* p[1] = {a}; float o[1]; k<<<1, 1>>>(p, o);"))[0].2,
        "argument 1 of `k` is a `float**`, but buffer `p` holds `int*` pointers"
    );
    assert_eq!(
        errors(&host("int a[4]; float* p[1] = {a}; float o[1]; k<<<1, 1>>>(p, o);"))[0].2,
        "buffer `a` holds `int` elements, so its address is no `float*`"
    );
    assert_eq!(
        errors(&host("float a[4]; float* p[2] = {a, a + 5}; float o[1]; k<<<1, 1>>>(p, o);"))[0].2,
        "element 5 is outside `a`, which has 4"
    );
    assert_eq!(
        errors(&host("float a[4]; float* p[1] = {a}; float o[1]; k<<<1, 1>>>(a, p);"))[0].2,
        "argument 1 of `k` is a `float**`, but buffer `a` holds `float` elements"
    );
    assert_eq!(
        errors(&host("float a[4]; float* p[1] = {a}; float o[1]; p = fill(0); k<<<1, 1>>>(p, o);"))[0].2,
        "buffer `p` holds pointers: it starts as its list of addresses"
    );
    // Device code: only global addresses are stored, and three stars are too many.
    assert_eq!(
        errors("__global__ void k(float** p) { __shared__ float s[4]; p[0] = s; }\nhost { float* p[1]; k<<<1, 1>>>(p); }")
            [0]
            .2,
        "cannot store a `__shared__ float*` in a `float*` element: only addresses in global memory can be stored or returned"
    );
    assert_eq!(
        errors("__global__ void k(float*** p) { }\nhost { }")[0].2,
        "pointers to pointers to pointers are not supported"
    );
    assert_eq!(
        errors("__global__ void k(const float** p, float** q) { q = p; }\nhost { }")[0].2,
        "cannot assign a `const float**` to a `float**` variable"
    );
}
