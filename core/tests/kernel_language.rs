//! The kernel language end to end: sources compile, and the kernels compute what the same
//! program computes in plain Rust when run by the functional reference runner. Also the host
//! block's launch sequences, and a bounded fuzz test that no input makes `compile` panic.

mod language_common;

use language_common::{compiled, config, errors, try_compile, Run};
use warpscope_core::isa::{Dim3, Instr};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::rng::SplitMix64;
use warpscope_core::workload::{Arg, BufferInit, ElemType};

#[test]
fn the_documented_saxpy_example_runs() {
    let src = r#"
#define N 4096          // a knob
__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
host {
    float x[N] = random(0.0, 1.0, 7);
    float y[N] = iota();
    saxpy<<<N / 256, 256>>>(2.0, x, y, N);
}
"#;
    let run = Run::new(src);
    let (memory, regions) = run.program.workload.materialize();
    let x: Vec<f32> = memory.words(regions[0]).iter().map(|&w| f32::from_bits(w)).collect();
    let y = run.floats("y");
    for i in 0..4096 {
        assert_eq!(y[i], 2.0 * x[i] + i as f32, "y[{i}]");
    }
    assert_eq!(run.program.defines.len(), 1);
    let k = &run.program.workload.kernels[0];
    assert!(k.regs_per_thread <= 8, "saxpy needs few registers, got {}", k.regs_per_thread);
}

#[test]
fn integer_unsigned_and_float_arithmetic_follow_c() {
    let src = r#"
__global__ void arith(int* out, unsigned* uout, float* fout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int s = i - 50;
    unsigned u = (unsigned)s;
    unsigned one = 1;
    out[i * 6 + 0] = s / 7 + s % 7;
    out[i * 6 + 1] = s >> 2;
    out[i * 6 + 2] = s < one;              // s converts to unsigned: only 0 is below 1
    out[i * 6 + 3] = (int)((float)s * 1.5f);
    out[i * 6 + 4] = s / 0 + (s % 0) * 3;  // defined: -1 and s
    out[i * 6 + 5] = ~s ^ (s << 3) | 5 & s;
    uout[i * 2 + 0] = u >> 2;
    uout[i * 2 + 1] = u / 7u + u % 16u;
    fout[i * 3 + 0] = s / 4.0f;
    fout[i * 3 + 1] = u;
    fout[i * 3 + 2] = -s * 0.25 + (s > 0 ? 1.0 : 2);
}
host {
    int out[600]; unsigned uout[200]; float fout[300];
    arith<<<2, 64>>>(out, uout, fout, 100);
}
"#;
    let run = Run::new(src);
    let (out, uout, fout) = (run.ints("out"), run.words("uout"), run.floats("fout"));
    for i in 0..100usize {
        let s = i as i32 - 50;
        let u = s as u32;
        assert_eq!(out[i * 6], s / 7 + s % 7);
        assert_eq!(out[i * 6 + 1], s >> 2);
        assert_eq!(out[i * 6 + 2], (u < 1) as i32);
        assert_eq!(out[i * 6 + 3], (s as f32 * 1.5) as i32);
        assert_eq!(out[i * 6 + 4], -1 + s * 3);
        assert_eq!(out[i * 6 + 5], !s ^ (s << 3) | 5 & s);
        assert_eq!(uout[i * 2], u >> 2);
        assert_eq!(uout[i * 2 + 1], u / 7 + u % 16);
        assert_eq!(fout[i * 3], s as f32 / 4.0);
        assert_eq!(fout[i * 3 + 1], u as f32);
        assert_eq!(fout[i * 3 + 2], -(s as f32) * 0.25 + if s > 0 { 1.0 } else { 2.0 });
    }
}

#[test]
fn divergent_branches_and_nested_loops_with_break_and_continue() {
    let src = r#"
__global__ void loops(int* out) {
    int t = threadIdx.x;
    int acc = 0;
    for (int a = 0; a < 8; a++) {
        if (a == t % 5) continue;
        for (int b = 0; b < 10; b++) {
            if (b > t % 7) break;
            if ((a + b) % 2 == 0) acc += a * b; else acc -= 1;
        }
        if (acc > 40 + t) break;
    }
    int w = 0;
    while (w < t) { w += 3; if (w == 9) break; }
    do { acc++; } while (acc % 4 != 0);
    out[t] = acc * 1000 + w;
}
host { int out[64]; loops<<<1, 64>>>(out); }
"#;
    let run = Run::new(src);
    let out = run.ints("out");
    for t in 0..64i32 {
        let mut acc = 0;
        for a in 0..8 {
            if a == t % 5 {
                continue;
            }
            for b in 0..10 {
                if b > t % 7 {
                    break;
                }
                if (a + b) % 2 == 0 {
                    acc += a * b
                } else {
                    acc -= 1
                }
            }
            if acc > 40 + t {
                break;
            }
        }
        let mut w = 0;
        while w < t {
            w += 3;
            if w == 9 {
                break;
            }
        }
        loop {
            acc += 1;
            if acc % 4 == 0 {
                break;
            }
        }
        assert_eq!(out[t as usize], acc * 1000 + w, "thread {t}");
    }
}

#[test]
fn early_return_and_short_circuit_never_read_out_of_bounds() {
    let src = r#"
#define N 100
__global__ void guard(const int* a, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 2 * n) return;
    int v = -1;
    if (i < n && a[i] > 10) v = a[i];
    if (i >= n || a[i] % 2 == 0) out[i] += 1;
    bool inside = i < n && a[i] > 50;
    out[i] += v * 2 + inside * 1000;
}
host {
    int a[N] = random(0, 99, 3);
    int out[2 * N];
    guard<<<5, 64>>>(a, out, N);
}
"#;
    let run = Run::new(src);
    let (memory, regions) = run.program.workload.materialize();
    let a: Vec<i32> = memory.words(regions[0]).iter().map(|&w| w as i32).collect();
    let out = run.ints("out");
    for i in 0..200usize {
        let v = if i < 100 && a[i] > 10 { a[i] } else { -1 };
        let bump = (i >= 100 || a[i] % 2 == 0) as i32;
        let inside = (i < 100 && a[i] > 50) as i32;
        assert_eq!(out[i], bump + v * 2 + inside * 1000, "out[{i}]");
    }
}

#[test]
fn shared_memory_reduction_with_barriers() {
    let src = r#"
#define BLOCK 128
__global__ void reduce(const int* in, int* out, int n) {
    __shared__ int partial[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    partial[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}
host {
    int in[1000] = random(0, 1000, 11);
    int out[8];
    reduce<<<8, BLOCK>>>(in, out, 1000);
}
"#;
    let run = Run::new(src);
    let (memory, regions) = run.program.workload.materialize();
    let input: Vec<i32> = memory.words(regions[0]).iter().map(|&w| w as i32).collect();
    let out = run.ints("out");
    for (b, &sum) in out.iter().enumerate() {
        let expected: i32 = input.iter().skip(b * 128).take(128).sum();
        assert_eq!(sum, expected, "block {b}");
    }
    assert_eq!(run.program.workload.kernels[0].shared_bytes, 128 * 4);
}

#[test]
fn a_two_dimensional_tiled_transpose() {
    let src = r#"
#define W 50
#define H 37
__global__ void transpose(const int* in, int* out, int w, int h) {
    __shared__ int tile[16][17];
    unsigned x = blockIdx.x * 16 + threadIdx.x;
    unsigned y = blockIdx.y * 16 + threadIdx.y;
    if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    int tx = blockIdx.y * 16 + threadIdx.x;
    int ty = blockIdx.x * 16 + threadIdx.y;
    if (tx < h && ty < w) out[ty * h + tx] = tile[threadIdx.x][threadIdx.y];
}
host {
    int in[W * H] = iota();
    int out[W * H];
    transpose<<<dim3((W + 15) / 16, (H + 15) / 16), dim3(16, 16)>>>(in, out, W, H);
}
"#;
    let run = Run::new(src);
    let out = run.ints("out");
    for y in 0..37 {
        for x in 0..50 {
            assert_eq!(out[x * 37 + y], (y * 50 + x) as i32);
        }
    }
    let l = &run.program.workload.launches[0];
    assert_eq!((l.grid, l.block), (Dim3 { x: 4, y: 3, z: 1 }, Dim3 { x: 16, y: 16, z: 1 }));
    assert_eq!(run.program.workload.kernels[0].shared_bytes, 16 * 17 * 4);
}

#[test]
fn atomics_on_global_and_shared_memory() {
    let src = r#"
__global__ void hist(const int* data, int* bins, int* stats, float* fsum, unsigned* umax, int n) {
    __shared__ int local[8];
    __shared__ int count;
    int t = threadIdx.x;
    if (t < 8) local[t] = 0;
    if (t == 0) count = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        int v = data[i];
        int old = atomicAdd(&local[v % 8], 1);
        atomicAdd(&count, old >= 0);
        atomicMax(&stats[0], v);
        atomicMin(stats + 1, v);
        atomicSub(&stats[2], 2);
        atomicAdd(fsum, 0.5f);
        atomicOr(&stats[3], 1 << (v % 31));
        atomicCAS(&stats[4], 0, 7);
        atomicXor(&stats[5], v);
        atomicMax(umax, (unsigned)v * 3000000u);
    }
    __syncthreads();
    if (t < 8) atomicAdd(&bins[t], local[t]);
    if (t == 0) atomicAdd(&stats[6], count);
}
host {
    int data[1000] = random(0, 999, 5);
    int bins[8];
    int stats[7] = {0, 1000000};
    float fsum[1];
    unsigned umax[1];
    hist<<<4, 256>>>(data, bins, stats, fsum, umax, 1000);
}
"#;
    let run = Run::new(src);
    let (memory, regions) = run.program.workload.materialize();
    let data: Vec<i32> = memory.words(regions[0]).iter().map(|&w| w as i32).collect();
    let mut bins = [0i32; 8];
    for &v in &data {
        bins[(v % 8) as usize] += 1;
    }
    assert_eq!(run.ints("bins"), bins);
    let stats = run.ints("stats");
    assert_eq!(stats[0], *data.iter().max().unwrap());
    assert_eq!(stats[1], *data.iter().min().unwrap());
    assert_eq!(stats[2], -2000);
    assert_eq!(stats[3], data.iter().fold(0, |acc, v| acc | 1 << (v % 31)));
    assert_eq!(stats[4], 7);
    assert_eq!(stats[5], data.iter().fold(0, |acc, v| acc ^ v));
    assert_eq!(stats[6], 1000);
    assert_eq!(run.floats("fsum"), [500.0]);
    assert_eq!(run.words("umax"), [data.iter().map(|&v| (v as u32).wrapping_mul(3_000_000)).max().unwrap()]);
}

#[test]
fn device_functions_and_local_arrays_with_computed_indices() {
    let src = r#"
__device__ int square(int x) { return x * x; }
__device__ float lerp(float a, float b, float t) { return a + (b - a) * t; }
__device__ int clampi(int v, int lo, int hi) {
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}
__device__ void bump(int* p, int by) { *p += by; }
__global__ void dev(int* out, float* fout) {
    int t = threadIdx.x;
    int acc[5] = {1, 2, 3};
    for (int k = 0; k < 5; k++) acc[k] += square(k + t);
    acc[t % 5] *= 2;
    out[t] = acc[(t + 1) % 5] + clampi(t - 10, 0, 20) + acc[t % 5];
    bump(out + t, square(2));
    fout[t] = lerp(1.0, 3.0, t / 64.0f) + sqrtf(t) + fmaxf(t, 10) + min(t, 7) + abs(-t);
}
host { int out[64]; float fout[64]; dev<<<1, 64>>>(out, fout); }
"#;
    let run = Run::new(src);
    let (out, fout) = (run.ints("out"), run.floats("fout"));
    for t in 0..64i32 {
        let mut acc = [1, 2, 3, 0, 0];
        for (k, a) in acc.iter_mut().enumerate() {
            *a += (k as i32 + t) * (k as i32 + t);
        }
        acc[(t % 5) as usize] *= 2;
        let expected = acc[((t + 1) % 5) as usize] + (t - 10).clamp(0, 20) + acc[(t % 5) as usize] + 4;
        assert_eq!(out[t as usize], expected, "out[{t}]");
        let tf = t as f32;
        let f = (1.0 + (3.0 - 1.0) * (tf / 64.0)) + tf.sqrt() + tf.max(10.0) + t.min(7) as f32 + t as f32;
        assert_eq!(fout[t as usize], f, "fout[{t}]");
    }
}

#[test]
fn many_short_lived_temporaries_use_few_registers() {
    let src = r#"
__global__ void chain(int* out) {
    int i = threadIdx.x;
    int s = (i + 1) * (i + 2) + (i + 3) * (i + 4) + (i + 5) * (i + 6) + (i + 7) * (i + 8);
    s += (i ^ 1) * (i ^ 2) + (i ^ 3) * (i ^ 4) + (i ^ 5) * (i ^ 6) + (i ^ 7) * (i ^ 8);
    s += (i | 1) * (i | 2) + (i | 3) * (i | 4) + (i | 5) * (i | 6) + (i | 7) * (i | 8);
    out[i] = s;
}
host { int out[32]; chain<<<1, 32>>>(out); }
"#;
    let run = Run::new(src);
    let k = &run.program.workload.kernels[0];
    assert!(k.regs_per_thread <= 6, "{} registers for {} instructions", k.regs_per_thread, k.code.len());
    let out = run.ints("out");
    for i in 0..32i32 {
        let s = (i + 1) * (i + 2) + (i + 3) * (i + 4) + (i + 5) * (i + 6) + (i + 7) * (i + 8);
        let s = s + (i ^ 1) * (i ^ 2) + (i ^ 3) * (i ^ 4) + (i ^ 5) * (i ^ 6) + (i ^ 7) * (i ^ 8);
        let s = s + (i | 1) * (i | 2) + (i | 3) * (i | 4) + (i | 5) * (i | 6) + (i | 7) * (i | 8);
        assert_eq!(out[i as usize], s);
    }
}

#[test]
fn variables_that_hold_constants_become_immediates() {
    let src = r#"
__global__ void scale(const float* x, float* y) {
    int i = threadIdx.x;
    float c1 = 0.25;
    const float c2 = 2;
    int stride = 4;
    float keep = 1.0;
    keep += 1.0;                      // assigned: stays a variable
    y[i] = c1 * x[i] * c2 + x[i + stride] + keep;
}
host { float x[64] = iota(); float y[32]; scale<<<1, 32>>>(x, y); }
"#;
    let run = Run::new(src);
    let k = &run.program.workload.kernels[0];
    assert!(k.regs_per_thread <= 5, "{} registers: {:?}", k.regs_per_thread, k.code);
    let movs = k.code.iter().filter(|i| matches!(i, Instr::Mov { .. })).count();
    // The code generator keeps only `keep` a variable; the optimiser then folds it too
    // (`1.0 + 1.0` in one block), so no `mov` is left.
    assert_eq!(movs, 0, "even `keep` folds: {:?}", k.code);
    let y = run.floats("y");
    for (i, &v) in y.iter().enumerate() {
        assert_eq!(v, 0.25 * i as f32 * 2.0 + (i + 4) as f32 + 2.0);
    }
}

#[test]
fn device_side_launches_pass_dimensions_and_arguments_in_consecutive_registers() {
    let src = r#"
__global__ void child(int* level, int v, float w) { level[v] = (int)w; }
__global__ void parent(int* level, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    if (v % 4 == 0) child<<<dim3((v + 63) / 64, 2), 64>>>(level, v, 2.5);
}
host { int level[256]; parent<<<4, 64>>>(level, 256); }
"#;
    let program = compiled(src);
    let parent = &program.workload.kernels[1];
    assert_eq!(program.workload.launches[0].kernel, 1);
    let (at, dims, args) = parent
        .code
        .iter()
        .enumerate()
        .find_map(|(i, ins)| match *ins {
            Instr::Launch { kernel: 0, dims, args } => Some((i, dims, args)),
            _ => None,
        })
        .expect("a launch instruction");
    // Whatever instructions set the group, each of the six dimension registers and three
    // argument registers is written before the launch and is distinct.
    let written: Vec<u8> = parent.code[..at].iter().filter_map(|i| i.dst()).map(|r| r.0).collect();
    for r in (dims.0..dims.0 + 6).chain(args.0..args.0 + 3) {
        assert!(written.contains(&r) || (r as u32) < parent.params, "r{r} is never written");
    }
    assert!(args.0 + 3 <= dims.0 || dims.0 + 6 <= args.0, "the groups overlap");
}

#[test]
fn warp_divergent_exit_inside_loops_still_finishes() {
    // Lanes leave through `return` inside a loop inside an `if`: the SIMT stack must keep
    // the others going and everything must end.
    let src = r#"
__global__ void k(int* out) {
    int t = threadIdx.x;
    for (int i = 0; i < 10; i++) {
        if (i == t % 6) {
            if (t % 2 == 0) { out[t] = i; return; }
            continue;
        }
        out[t] += 100;
    }
}
host { int out[64]; k<<<1, 64>>>(out); }
"#;
    let run = Run::new(src);
    let out = run.ints("out");
    for t in 0..64i32 {
        let expected = if t % 2 == 0 { (t % 6) * 100 + t % 6 } else { 900 };
        // Even lanes add 100 for each i before t % 6, then store i (overwriting).
        let expected = if t % 2 == 0 { t % 6 } else { expected };
        assert_eq!(out[t as usize], expected, "out[{t}]");
    }
    assert!(run.executed > 0);
}

#[test]
fn assorted_expressions_pointers_and_compound_assignments() {
    let src = r#"
__device__ int first_multiple(int from, int of) {
    for (int v = from; ; v++) {
        if (v % of == 0) return v;
    }
}
__global__ void misc(int* o, const int* in, float* f, unsigned* u) {
    __shared__ int total;
    int t = threadIdx.x + blockIdx.y * blockDim.x;
    if (t == 0) total = 0;
    __syncthreads();
    int* p = o + t * 8;
    const int* q = in + t;
    *p = t > 5 ? *q * 2 : in[63 - t];       // impure arms: branches
    p[1] = (int)(p + 3 - p) + (q - in);
    int k = 2;
    p[k++] = k;                               // the index uses the old k
    p[k] = 40; p[k] <<= 1; p[k] %= 7; p[k] ^= t;
    int m[2][3] = {0};
    for (int i = 0, j = 5; i < 3; i++, j--) m[t % 2][i] = i * j;
    p[4] = m[t % 2][t % 3] + m[1 - t % 2][2];
    p[5] = first_multiple(t + 1, 7);
    int c = 0;
    do { c += 2; } while (c < t);
    p[6] = c;
    atomicAdd(&total, 1);
    __syncthreads();
    p[7] = total + gridDim.y * 100 + blockIdx.y;
    f[t * 2] = fmaf(t, 0.5f, 1.0f) + expf(0.0f) + rsqrtf(4.0f);
    f[t * 2 + 1] = (float)(t - 30) / 8 > -1.0f ? 1.5f : -1.5f;
    u[t * 2] = (unsigned)(float)(t - 30);
    unsigned w = t;
    u[t * 2 + 1] = w-- > 10u ? w : 99u;
}
host {
    int o[64 * 8]; int in[64] = iota(); float f[128]; unsigned u[128];
    misc<<<dim3(1, 2), 32>>>(o, in, f, u);
}
"#;
    let run = Run::new(src);
    let (o, f, u) = (run.ints("o"), run.floats("f"), run.words("u"));
    for t in 0..64i32 {
        let p = &o[t as usize * 8..t as usize * 8 + 8];
        let first = if t > 5 { t * 2 } else { 63 - t };
        let mut m = [[0i32; 3]; 2];
        for (i, slot) in m[(t % 2) as usize].iter_mut().enumerate() {
            *slot = i as i32 * (5 - i as i32);
        }
        let mut c = 0;
        loop {
            c += 2;
            if c >= t {
                break;
            }
        }
        let multiple = ((t + 1)..).find(|v| v % 7 == 0).unwrap();
        let expected = [
            first,
            3 + t,
            3,
            ((40 << 1) % 7) ^ t,
            m[(t % 2) as usize][(t % 3) as usize] + m[(1 - t % 2) as usize][2],
            multiple,
            c,
            32 + 200 + t / 32,
        ];
        assert_eq!(p, expected, "thread {t}");
        assert_eq!(f[t as usize * 2], t as f32 * 0.5 + 1.0 + 1.0 + 0.5);
        assert_eq!(f[t as usize * 2 + 1], if (t - 30) as f32 / 8.0 > -1.0 { 1.5 } else { -1.5 });
        assert_eq!(u[t as usize * 2], ((t - 30) as f32) as u32);
        assert_eq!(u[t as usize * 2 + 1], if t as u32 > 10 { t as u32 - 1 } else { 99 });
    }
}

// ---- the host block -------------------------------------------------------------------

#[test]
fn buffers_and_their_initializers() {
    let src = r#"
#define N 10
__global__ void k(int* a) {}
host {
    int   a[N];
    int   idx[N] = iota();
    float w[N] = fill(0.5);
    int   r[N] = random(0, 99, 3);
    float x[N] = random(-1.0, 1.0, 3);
    int   v[] = {3, 1, 4, 1, 5};
    int   p[8] = {1, 2};
    unsigned u[4] = fill(-1);
    float fi[4] = iota();
    int neg[6] = random(-5, 5, 2);
    k<<<1, 32>>>(a);
}
"#;
    let program = compiled(src);
    let b = &program.workload.buffers;
    let names: Vec<&str> = b.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["a", "idx", "w", "r", "x", "v", "p", "u", "fi", "neg"]);
    assert_eq!((b[0].words, &b[0].init), (10, &BufferInit::Zeros));
    assert_eq!(b[1].init, BufferInit::Iota);
    assert_eq!((b[2].init.clone(), b[2].elem), (BufferInit::Constant(0.5f32.to_bits()), ElemType::Float));
    assert_eq!(b[3].init, BufferInit::Random { seed: 3, min: 0, max: 99 });
    assert_eq!(b[4].init, BufferInit::RandomFloat { seed: 3, min: (-1.0f32).to_bits(), max: 1.0f32.to_bits() });
    assert_eq!((b[5].words, b[5].init.clone()), (5, BufferInit::Words(vec![3, 1, 4, 1, 5])));
    assert_eq!((b[6].words, b[6].init.clone()), (8, BufferInit::Words(vec![1, 2])));
    assert_eq!((b[7].init.clone(), b[7].elem), (BufferInit::Constant(u32::MAX), ElemType::Uint));
    assert_eq!(b[8].init, BufferInit::Words([0.0f32, 1.0, 2.0, 3.0].iter().map(|f| f.to_bits()).collect()));
    let BufferInit::Words(neg) = &b[9].init else { panic!() };
    assert!(neg.iter().all(|&w| (-5..=5).contains(&(w as i32))));
}

#[test]
fn host_loops_and_swap_unroll_into_a_launch_sequence() {
    let src = r#"
__global__ void step(const float* a, float* b, int t) {}
__global__ void copy(const float* a, float* out) {}
host {
    float x[64]; float y[64]; float result[64];
    int steps = 5;
    for (int t = 0; t < steps; t++) {
        step<<<1, 64>>>(x, y, t * 2);
        swap(x, y);
    }
    if (steps % 2 == 1) copy<<<1, 64>>>(x, result);
    else copy<<<2, 32>>>(y, result);
    int k = 0;
    while (true) { k += 1; if (k > 2) break; }
    do { copy<<<k, 1>>>(x, y); k--; } while (k > 1);
}
"#;
    let program = compiled(src);
    let l = &program.workload.launches;
    assert_eq!(l.len(), 5 + 1 + 2);
    for (t, launch) in l.iter().take(5).enumerate() {
        let (a, b) = if t % 2 == 0 { (0, 1) } else { (1, 0) };
        assert_eq!(launch.args, [Arg::Buffer(a), Arg::Buffer(b), Arg::Value(2 * t as u32)]);
    }
    assert_eq!((l[5].kernel, l[5].args.clone()), (1, vec![Arg::Buffer(1), Arg::Buffer(2)]));
    assert_eq!((l[6].grid.x, l[7].grid.x), (3, 2));
}

#[test]
fn streams_are_numbered_in_declaration_order() {
    let src = r#"
__global__ void k(int* a, float f, bool b) {}
host {
    stream s1, s2;
    int a[32];
    k<<<1, 32>>>(a, 1, true);
    k<<<1, 32, 0, s2>>>(a, 2.5, 0);
    k<<<1, 32, 0, s1>>>(a, 3, 7);
    k<<<1, 32, 0, 0>>>(a, -1, false);
}
"#;
    let program = compiled(src);
    let streams: Vec<u32> = program.workload.launches.iter().map(|l| l.stream).collect();
    assert_eq!(streams, [0, 2, 1, 0]);
    let args: Vec<Arg> = program.workload.launches.iter().map(|l| l.args[1]).collect();
    assert_eq!(args, [1.0f32, 2.5, 3.0, -1.0].map(|f| Arg::Value(f.to_bits())));
    assert_eq!(program.workload.launches[2].args[2], Arg::Value(1));
}

#[test]
fn the_launch_count_is_bounded() {
    let ok = "__global__ void k() {}\nhost { for (int i = 0; i < 10000; i++) k<<<1, 1>>>(); }";
    assert_eq!(compiled(ok).workload.launches.len(), 10_000);
    let too_many = "__global__ void k() {}\nhost {\n  for (int i = 0; i < 10001; i++) k<<<1, 1>>>();\n}";
    assert_eq!(errors(too_many), [(3, 35, "the host program launches more than 10000 kernels".to_string())]);
    let endless = "__global__ void k() {}\nhost { k<<<1,1>>>(); while (1) {} }";
    let e = errors(endless);
    assert_eq!((e[0].0, e[0].1), (2, 22));
    assert!(e[0].2.contains("more than 1000000 loop iterations"), "{e:?}");
}

#[test]
fn graphs_become_three_buffers() {
    let src = r#"
__global__ void bfs(const int* offsets, const int* columns, const int* weights, int* level, int v, int e) {}
host {
    graph g = uniform(64, 256, 1);
    graph m = mesh(8, 4, 2);
    int level[g.vertices];
    bfs<<<1, 64>>>(g.offsets, g.columns, g.weights, level, g.vertices, g.edges);
    bfs<<<1, 64>>>(m.offsets, m.columns, m.weights, level, m.vertices, m.edges);
}
"#;
    let program = match try_compile(src) {
        Ok(p) => p,
        Err(d) if d.iter().any(|d| d.message.contains("not written yet")) => return, // generator pending
        Err(d) => panic!("{d:?}"),
    };
    let b = &program.workload.buffers;
    let names: Vec<&str> = b.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["g.offsets", "g.columns", "g.weights", "m.offsets", "m.columns", "m.weights", "level"]);
    assert_eq!(b[0].words, 65);
    assert_eq!(b[1].words, b[2].words);
    assert_eq!(b[3].words, 33);
    assert_eq!(b[6].words, 64);
    let l = &program.workload.launches[0];
    assert_eq!(l.args[4], Arg::Value(64));
    assert_eq!(l.args[5], Arg::Value(b[1].words));
}

#[test]
fn define_overrides_change_sizes_and_are_reported() {
    let src =
        "#define N 64\n#define BLOCK 32\n__global__ void k(int* a) {}\nhost { int a[N]; k<<<N / BLOCK, BLOCK>>>(a); }";
    let config = config();
    let defines = [("N".to_string(), "256".to_string())];
    let program = compile(src, &CompileOptions { config: &config, defines: &defines, optimize: true }).unwrap();
    assert_eq!(program.workload.buffers[0].words, 256);
    assert_eq!(program.workload.launches[0].grid.x, 8);
    let names: Vec<(&str, &str)> = program.defines.iter().map(|d| (d.name.as_str(), d.value.as_str())).collect();
    assert_eq!(names, [("N", "256"), ("BLOCK", "32")]);
    assert_eq!((program.defines[1].span.line, program.defines[1].span.column), (2, 15));
}

#[test]
fn defines_are_listed_even_when_the_file_does_not_compile() {
    let good =
        "#define N 64\n#define BLOCK 32\n__global__ void k(int* a) {}\nhost { int a[N]; k<<<N / BLOCK, BLOCK>>>(a); }";
    let broken = good.replace("int* a) {}", "int* a) { a[0] = ; }");
    let overrides = [("N".to_string(), "256".to_string())];
    let config = config();
    let program = compile(good, &CompileOptions { config: &config, defines: &overrides, optimize: true }).unwrap();
    assert_eq!(warpscope_core::kernel::defines(good, &overrides), program.defines);
    assert!(compile(&broken, &CompileOptions { config: &config, defines: &overrides, optimize: true }).is_err());
    assert_eq!(warpscope_core::kernel::defines(&broken, &overrides), program.defines, "the error comes after them");
}

// ---- errors through the whole pipeline -------------------------------------------------

#[test]
fn the_documented_error_messages() {
    let src = "__global__ void k(int* out) {\n    __shared__ float tile[128][128];\n    int i = 0;\n    out[i] = threadIdy.x;\n}\nhost { int o[4]; k<<<1, 32>>>(o); }";
    let e = errors(src);
    assert_eq!(
        e,
        [
            (2, 5, "__shared__ array `tile` needs 65536 bytes; an SM of this machine has 49152".to_string()),
            (4, 14, "undefined name `threadIdy`".to_string()),
        ]
    );
    let d = try_compile(src).unwrap_err();
    assert_eq!(d[1].to_string(), "error at 4:14: undefined name `threadIdy`; did you mean `threadIdx`?");

    // A missing `;` is said at the end of the line that lacks it.
    let src = "__global__ void k(int* y) {\n    int i = 0;\n    y[i] = 1\n}\nhost {}";
    assert_eq!(errors(src), [(3, 13, "expected `;` after the expression, at the end of the line".to_string())]);
    // A missing `}` is said once, at the `{` left open by the braces' matching, with the one
    // the indentation points at.
    let src = "__global__ void k(float* a, int n) {\n    if (n > 0) {\n        a[0] = 1.0f;\n\n}\nhost { float a[4]; k<<<1, 1>>>(a, 4); }";
    let d = try_compile(src).unwrap_err();
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        d[0].to_string(),
        "error at 1:36: this `{` has no matching `}`: `host` at line 6 starts a new item first; judging by the \
         indentation, the `{` left open is the one at line 2"
    );
    let src = "__global__ void k(float* a) {\n    for (;;) {\n        a[0] = 1.0f;\n}\n";
    let d = try_compile(src).unwrap_err();
    assert_eq!((d.len(), d[0].span.line, d[0].span.column), (1, 1, 29), "{d:?}");
    assert_eq!(d[0].help.as_deref(), Some("judging by the indentation, the `{` left open is the one at line 2"));
    // An oversized `__shared__` array is one error, not one more at each use.
    let src = "__global__ void k(float* a) {\n    __shared__ float t[100000];\n    t[threadIdx.x] = a[0];\n    a[0] = t[1];\n}\nhost { float a[4]; k<<<1, 1>>>(a); }";
    assert_eq!(
        errors(src),
        [(2, 5, "__shared__ array `t` needs 400000 bytes; an SM of this machine has 49152".to_string())]
    );
}

// ---- robustness ----------------------------------------------------------------------

const SAMPLES: &[&str] = &[
    r#"#define N 256
__device__ float sq(float x) { return x * x; }
__global__ void k(const float* x, float* y, int n) {
    __shared__ float s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[4] = {0};
    for (int j = 0; j < 4 && i < n; j++) { acc[j % 4] += sq(x[i]); if (j == 2) break; }
    s[threadIdx.x % 64] = acc[i % 4];
    __syncthreads();
    if (i < n || i == 0) y[i] = s[(threadIdx.x + 1) % 64] > 0.5 ? 1.0f : -1.0f;
    while (i > 0) { i >>= 1; if (i == 3) continue; }
    atomicAdd(&y[0], 1.0f);
}
host { float x[N] = random(0.0, 1.0, 1); float y[N]; stream s; for (int t = 0; t < 3; t++) { k<<<N / 64, 64, 0, s>>>(x, y, N); swap(x, y); } }
"#,
    r#"__global__ void c(int* l, int v) { l[v] = 1; }
__global__ void p(const int* o, int* l, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || l[v] != 0) return;
    int d = o[v + 1] - o[v];
    if (d > 4) c<<<(d + 63) / 64, 64>>>(l, v); else for (int e = o[v]; e < o[v + 1]; e++) { l[e % n] += (int)(unsigned)e; }
    do { d--; } while (d > 0 && !(d & 1));
}
host { graph g = mesh(4, 4, 1); int l[16]; int o[17] = iota(); dim3 b(16); if (g.vertices > 3) p<<<1, b>>>(o, l, 16); else p<<<2, 8>>>(o, l, 16); }
"#,
    // A pasted file's host code, set aside.
    r#"#include <vector>
typedef std::vector<int> V;
struct Net { float** w; };
template <typename T> T id(T x) { return x; }
extern "C" { void prep(Net* n); }
namespace util { __device__ int twice(int x) { return 2 * x; } }
int count = 4;
__global__ void k(int* o) { o[threadIdx.x] = util::twice(threadIdx.x); }
int main(int argc, char** argv) { V v(count); k<<<1, 32>>>(nullptr); return 0; }
host { int o[32]; k<<<1, 32>>>(o); }"#,
];

fn tokens_of(src: &str) -> Vec<String> {
    // Words between spaces, and line ends (a `#define` ends at its line's end).
    let mut out = Vec::new();
    for line in src.lines() {
        out.extend(line.split_whitespace().map(str::to_string));
        out.push("\n".to_string());
    }
    out
}

#[test]
fn random_token_streams_and_mutations_never_panic() {
    let config = config();
    let options = CompileOptions { config: &config, defines: &[], optimize: true };
    for s in SAMPLES {
        compile(s, &options).unwrap_or_else(|d| panic!("sample does not compile: {d:?}"));
    }
    let pools: Vec<Vec<String>> = SAMPLES.iter().map(|s| tokens_of(s)).collect();
    let all: Vec<String> = pools
        .iter()
        .flatten()
        .cloned()
        .chain(
            [
                "#",
                "define",
                "{",
                "}",
                "(",
                ")",
                "<<<",
                ">>>",
                ";",
                "0x",
                "1e9",
                "4294967296",
                "-",
                "*",
                "&",
                "[",
                "]",
                "\\",
                "/*",
                "\n",
                "host",
                "template",
                "<",
                ">",
                "extern",
                "\"C\"",
                "namespace",
                "typedef",
                "struct",
                "__device__",
                "__host__",
            ]
            .iter()
            .map(|s| s.to_string()),
        )
        .collect();
    let mut rng = SplitMix64::new(0x5eed);
    let pick = |rng: &mut SplitMix64, v: &[String]| v[rng.below(v.len() as u64) as usize].clone();
    let start = std::time::Instant::now();
    let mut compiled_ok = 0;
    for round in 0..6000 {
        let src = if round % 3 == 0 {
            // A random token stream.
            let n = 1 + rng.below(80) as usize;
            (0..n).map(|_| pick(&mut rng, &all)).collect::<Vec<_>>().join(" ")
        } else {
            // A valid program with a few mutations.
            let mut toks = pools[round % pools.len()].clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(toks.len() as u64) as usize;
                match rng.below(3) {
                    0 => {
                        toks.remove(i);
                    }
                    1 => toks.insert(i, pick(&mut rng, &all)),
                    _ => {
                        let j = rng.below(toks.len() as u64) as usize;
                        toks.swap(i, j);
                    }
                }
                if toks.is_empty() {
                    toks.push("x".into());
                }
            }
            toks.join(" ")
        };
        if compile(&src, &options).is_ok() {
            compiled_ok += 1;
        }
    }
    assert!(compiled_ok > 0, "some mutations should still compile");
    assert!(start.elapsed().as_secs() < 30, "took {:?}", start.elapsed());
}

#[test]
fn code_just_inside_the_nesting_limits_compiles_without_exhausting_the_stack() {
    let mut src = String::new();
    for f in 0..30 {
        src += &format!(
            "__device__ int f{f}(int x) {{ return {}; }}\n",
            if f == 0 { "x + 1".to_string() } else { format!("f{}(x) * 2", f - 1) }
        );
    }
    src += "__global__ void k(int* o) {\n  int x = threadIdx.x;\n";
    for _ in 0..60 {
        src += "if (x >= 0) { ";
    }
    src += &format!("o[x] = f29(x) + {};", vec!["(x"; 70].join(" + ") + &")".repeat(70));
    src += &"}".repeat(60);
    src += "\n}\nhost { int o[32]; k<<<1, 32>>>(o); }";
    // The worst case the limits allow: the tallest expression at the deepest statement.
    let worst = format!(
        "__global__ void k(int* o) {{ int x = 1; {} o[x] = x{}; {} }}\nhost {{ int o[32]; int y = 1{}; k<<<1, 32>>>(o); }}",
        "{ ".repeat(195),
        " + x".repeat(390),
        "} ".repeat(195),
        " + 1".repeat(390)
    );
    let run = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            compiled(&worst);
            Run::new(&src).ints("o")
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    for (x, &v) in run.iter().enumerate() {
        let x = x as i32;
        assert_eq!(v, (x + 1).wrapping_mul(1 << 29) + 70 * x);
    }
}

/// `levels` device functions, each calling the previous one twice: 2^levels copies of `f0`
/// once inlined.
fn doubling_calls(levels: u32) -> String {
    let mut src = String::from("__device__ float f0(float x) { return x * 1.5f + 2.0f; }\n");
    for i in 1..=levels {
        src += &format!("__device__ float f{i}(float x) {{ return f{}(x) + f{}(x + 1.0f); }}\n", i - 1, i - 1);
    }
    src += &format!("__global__ void k(float* a) {{ a[threadIdx.x] = f{levels}(a[threadIdx.x]); }}\n");
    src + "host { float a[32]; k<<<1, 32>>>(a); }\n"
}

#[test]
fn exponential_inlining_is_refused_at_a_call_not_expanded() {
    // 2^24 copies of f0 would take gigabytes; the limit stops the expansion at once.
    let found = errors(&doubling_calls(24));
    let (line, column, message) = &found[0];
    assert!(message.contains("makes the kernel longer than 16384 instructions"), "{found:?}");
    assert!((*line, *column) >= (2, 1) && *line <= 25, "at one of the calls: {found:?}");
    // 2^8 copies are a few thousand instructions: fine.
    let program = compiled(&doubling_calls(8));
    assert_eq!(program.workload.kernels.len(), 1);
}

/// `functions` device functions of 60 nested blocks, each calling the previous one, and a
/// kernel calling the last: 61 levels a function once inlined.
fn nested_calls(functions: u32) -> String {
    let mut src = String::new();
    for i in 0..functions {
        let body = if i == 0 { "x = x + 1.0f;".to_string() } else { format!("x = f{}(x);", i - 1) };
        src +=
            &format!("__device__ float f{i}(float x) {{ {}{body}{} return x; }}\n", "{ ".repeat(60), " }".repeat(60));
    }
    let last = functions - 1;
    src + &format!(
        "__global__ void k(float* a) {{ a[threadIdx.x] = f{last}(a[threadIdx.x]); }}\nhost {{ float a[32]; k<<<1, 32>>>(a); }}\n"
    )
}

#[test]
fn nesting_multiplied_by_inlining_is_refused_before_it_overflows_a_worker_s_stack() {
    // 30 functions: 1830 levels once inlined.
    let found = errors(&nested_calls(30));
    assert!(
        found.iter().any(|(_, _, m)| m == "code nests more than 256 levels deep once device functions are inlined"),
        "{found:?}"
    );
    // Four such functions (244 levels) are fine.
    compiled(&nested_calls(4));
}

/// Function-like macros as benchmark suites write them: Rodinia's `MIN`/`MAX` and index
/// macros, PolyBench's loop bounds and `SCALAR_VAL`, a macro calling another, with the knob
/// (`N`) still overridable. Checked against the same sums computed here.
#[test]
fn function_like_macros_as_benchmark_suites_write_them() {
    let src = r#"
#define N 40
#define M 24
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a,b) ((a) > (b) ? (a) : (b))
#define IDX(i, j) ((i) * M + (j))
#define POLYBENCH_LOOP_BOUND(x, y) x
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define SCALAR_VAL(x) x##f
#define CLAMP(x, lo, hi) MIN(MAX(x, lo), hi)
__global__ void rows(const float* a, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= _PB_N) return;
    float acc = SCALAR_VAL(0.5);
    for (int j = 0; j < MIN(M, i + 1); j++) {
        acc += a[IDX(i, j)];
    }
    out[i] = CLAMP(acc, SCALAR_VAL(1.0), SCALAR_VAL(200.0));
}
host {
    float a[N * M] = iota();
    float out[N];
    rows<<<1, 64>>>(a, out, N);
}
"#;
    let run = Run::new(src);
    let out = run.floats("out");
    for (i, &got) in out.iter().enumerate() {
        let sum: f32 = (0..24.min(i + 1)).fold(0.5, |acc, j| acc + (i * 24 + j) as f32);
        assert_eq!(got, sum.clamp(1.0, 200.0), "out[{i}]");
    }
    assert_eq!(
        run.program.defines.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(),
        ["N", "M", "_PB_N"],
        "function-like macros are no knobs"
    );
}

/// CUDA's math library as ported kernels call it: the C++ overloads on `float` (`exp`, `pow`,
/// `floor`, …), the `f` functions, the fast intrinsics (computed exactly here), the integer bit
/// counts and `__ldg`; each lane's results against the same functions computed here.
#[test]
fn the_math_library_ported_kernels_call() {
    let src = r#"
#define N 64
__global__ void maths(const float* x, float* out, int* bits) {
    int i = threadIdx.x;
    float v = __ldg(&x[i]);
    float* o = &out[i * 12];
    o[0] = exp(v * 0.1f) + __expf(v * 0.05f);
    o[1] = log(v + 1.0f) + __logf(v + 2.0f);
    o[2] = sqrt(v) + rsqrtf(v + 1.0f);
    o[3] = powf(v, 1.5f) + pow(2.0f, v * 0.25f) + __powf(v + 1.0f, 0.5f);
    o[4] = floorf(v * 0.3f) + floor(-v * 0.3f);
    o[5] = ceilf(v * 0.3f) + ceil(-v * 0.3f);
    o[6] = truncf(-v * 0.7f) + roundf(v * 0.5f) + round(-v * 0.5f);
    o[7] = log2f(v + 1.0f) + __log2f(v + 3.0f) + log2(v + 5.0f);
    o[8] = exp2f(v * 0.1f) + tanhf(v * 0.1f - 3.0f) + tanh(v * 0.01f);
    o[9] = fabs(-v) + fmin(v, 7.0f) + fmax(v, 7.0f) + fma(v, 2.0f, 1.0f);
    o[10] = sin(v) + cos(v);
    o[11] = __fdividef(v, 3.0f);
    bits[i * 2] = __popc(i * 2654435761u);
    bits[i * 2 + 1] = __clz(i);
}
host {
    float x[N] = iota();
    float out[N * 12];
    int bits[N * 2];
    maths<<<1, N>>>(x, out, bits);
}
"#;
    let run = Run::new(src);
    let (out, bits) = (run.floats("out"), run.ints("bits"));
    for i in 0..64 {
        let v = i as f32;
        let expected = [
            libm::expf(v * 0.1) + libm::expf(v * 0.05),
            libm::logf(v + 1.0) + libm::logf(v + 2.0),
            libm::sqrtf(v) + 1.0 / libm::sqrtf(v + 1.0),
            libm::powf(v, 1.5) + libm::powf(2.0, v * 0.25) + libm::powf(v + 1.0, 0.5),
            (v * 0.3).floor() + (-v * 0.3).floor(),
            (v * 0.3).ceil() + (-v * 0.3).ceil(),
            (-v * 0.7).trunc() + (v * 0.5).round() + (-v * 0.5).round(),
            libm::log2f(v + 1.0) + libm::log2f(v + 3.0) + libm::log2f(v + 5.0),
            libm::exp2f(v * 0.1) + libm::tanhf(v * 0.1 - 3.0) + libm::tanhf(v * 0.01),
            v + v.min(7.0) + v.max(7.0) + libm::fmaf(v, 2.0, 1.0),
            libm::sinf(v) + libm::cosf(v),
            v / 3.0,
        ];
        for (k, e) in expected.iter().enumerate() {
            assert_eq!(out[i * 12 + k].to_bits(), e.to_bits(), "lane {i}, o[{k}]: {} against {e}", out[i * 12 + k]);
        }
        let h = (i as u32).wrapping_mul(2_654_435_761);
        assert_eq!(
            (bits[i * 2], bits[i * 2 + 1]),
            (h.count_ones() as i32, (i as u32).leading_zeros() as i32),
            "lane {i}"
        );
    }
}

/// A ported file's preamble and helpers: its standard `#include`s are ignored with a note, and
/// a `__host__ __device__` function is the device's.
#[test]
fn standard_includes_and_host_device_functions_compile() {
    let src = r#"
#include <cuda_runtime.h>
#include "device_launch_parameters.h"
#include <stdio.h>
__host__ __device__ inline float sq(float x) { return x * x; }
float __device__ __host__ cube(float x) { return sq(x) * x; }
__device__ void static store(float* p, float v) { *p = v; }
__global__ void k(float* out) {
    int i = threadIdx.x;
    store(&out[i], sq(i) + cube(2.0f));
}
host {
    float out[32];
    k<<<1, 32>>>(out);
}
"#;
    let run = Run::new(src);
    assert_eq!(run.floats("out"), (0..32).map(|i| (i * i) as f32 + 8.0).collect::<Vec<_>>());
    // `__host__` alone is host code: set aside, and an error where a kernel calls it.
    assert_eq!(
        errors("__host__ float f(float x) { return x; }\n__global__ void k(float* o) { o[0] = f(1.0f); }\nhost { float o[1]; k<<<1, 1>>>(o); }"),
        [(2, 38, "`f` is a host function (line 1), which device code cannot call".to_string())]
    );
}

/// `typedef` names for types, as ported kernels declare them (one through another), in
/// parameters, locals and casts; a typedef of anything else is refused where it stands.
#[test]
fn typedefs_name_types() {
    let src = r#"
typedef unsigned int uint;
typedef float real;
typedef real* real_ptr;
__global__ void k(const real* in, real_ptr out, uint n) {
    uint i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        real h = (real)i * 0.5f;
        out[i] = in[i] + h;
    }
}
host {
    real in[100] = iota();
    real out[100];
    k<<<2, 64>>>(in, out, 100);
}
"#;
    let run = Run::new(src);
    assert_eq!(run.floats("out"), (0..100).map(|i| i as f32 * 1.5).collect::<Vec<_>>());
    assert_eq!(
        errors("typedef void (*f)(int);\n__global__ void k() {}\nhost { k<<<1, 1>>>(); }"),
        [(
            1,
            1,
            "this `typedef` is not supported: only a name for a type, as `typedef unsigned int uint;`".to_string()
        )]
    );
}

/// `sizeof(type)` as ported kernels size things with it: a scalar's bytes in memory, as nvcc
/// gives them, and 4 for a pointer (addresses are 32 bits here); an unsigned value, as C's
/// `size_t`.
#[test]
fn sizeof_a_type_is_its_bytes_in_memory() {
    let src = r#"
__global__ void k(unsigned* out) {
    out[0] = sizeof(float);
    out[1] = sizeof(unsigned int) * 8;
    out[2] = sizeof(const float*);
    out[3] = (sizeof(int) - 5) > 0;
    out[4] = sizeof(double);
    out[5] = sizeof(char);
    out[6] = sizeof(unsigned short);
    out[7] = sizeof(long long);
    out[8] = sizeof(bool);
    out[9] = sizeof(double*);
}
host {
    unsigned out[10];
    k<<<1, 1>>>(out);
}
"#;
    assert_eq!(Run::new(src).words("out"), [4, 32, 4, 1, 8, 1, 2, 8, 1, 4], "4 - 5 wraps, as size_t does");
}

/// A kernel as PolyBench and Rodinia write them: a header guarded by `#ifndef`, a dataset
/// chosen by `#ifdef`, the element type by `# ifndef DATA_TYPE`, a debugging `printf` and a
/// `#if 0` block that would not compile, a character constant. Outputs are computed here.
#[test]
fn conditional_compilation_printf_and_character_constants() {
    let src = r#"
#include <unistd.h>
#include <vector>
#ifndef SCALE_CUH
# define SCALE_CUH
# if !defined(MINI_DATASET) && !defined(LARGE_DATASET)
#  define STANDARD_DATASET
# endif
# ifdef MINI_DATASET
#  define N 32
# elif defined(STANDARD_DATASET)
#  define N 96
# else
#  define N 4096
# endif
# ifndef DATA_TYPE
#  define DATA_TYPE float
#  define DATA_PRINTF_MODIFIER "%0.2lf "
# endif
#endif /* !SCALE_CUH */
#if __CUDACC__ && N % 32 == 0
__global__ void scale(DATA_TYPE *a, int *tag, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
#ifdef DEBUG
        printf("a[%d] = " DATA_PRINTF_MODIFIER "\n", i, a[i]);
#endif
        printf("thread %d\n", i);
        a[i] = a[i] * 2.0f + 1.0f;
        tag[i] = (i % 2 == 0) ? 'e' : '\x6f';
    }
#if 0
    this text is not compiled: 'xy' 5L @
#endif
}
#else
#error N must be a multiple of 32
#endif
host {
    float a[N] = iota();
    int tag[N];
    scale<<<N / 32, 32>>>(a, tag, N);
}
"#;
    let program = compiled(src);
    let notes: Vec<&str> = program.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(notes.contains(&"`printf` is ignored: the simulated GPU has no console"), "{notes:?}");
    assert!(notes.contains(&"`#include <vector>` is ignored: system headers are not read"), "{notes:?}");
    let run = Run::new(src);
    let a = run.floats("a");
    assert_eq!(a.len(), 96, "the standard dataset");
    for (i, (&v, &t)) in a.iter().zip(&run.ints("tag")).enumerate() {
        assert_eq!(v, i as f32 * 2.0 + 1.0);
        assert_eq!(t, if i % 2 == 0 { 101 } else { 111 });
    }
    // `#error` stops a file whose condition fails, at the directive.
    let odd = src.replace("#  define N 96", "#  define N 100");
    let found = errors(&odd);
    assert_eq!(found, [(37, 1, "the file says #error N must be a multiple of 32".to_string())]);
}

/// Structs as Rodinia's kernels use them: a graph's nodes as a buffer of structs (BFS), a
/// struct copied into a variable, `->` through a pointer, a nested struct with an array
/// member, a `__shared__` array of structs, a struct passed by value to a device function
/// that changes its copy. The expected values are worked out by hand in the comments.
#[test]
fn structs_in_buffers_variables_shared_memory_and_device_functions() {
    let src = r#"
typedef struct {
    int starting;
    int no_of_edges;
} Node;
struct Particle { float x, y; int hits; };
typedef struct cell_str { Particle p; float weight; int ids[4]; } Cell;

__device__ float energy(Particle p, float w) {
    p.x = p.x * w;           // the callee's copy
    return p.x + p.y;
}

__global__ void degree(const Node* nodes, const int* edges, int* out, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    Node node = nodes[v];
    int sum = 0;
    for (int e = node.starting; e < node.starting + node.no_of_edges; e++) sum += edges[e];
    out[v] = sum * 100 + (&nodes[v])->no_of_edges;
}

__global__ void cells(struct cell_str* cells, float* out, int* size, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ Particle tile[64];
    if (i < n) {
        tile[threadIdx.x] = cells[i].p;
        tile[threadIdx.x].hits += 1;
    }
    __syncthreads();
    if (i < n) {
        Cell* c = cells + i;
        c->p.hits = tile[threadIdx.x].hits + c->ids[i % 4];
        c->ids[3] = sizeof(Cell);
        out[i] = energy(tile[threadIdx.x], c->weight);
        Particle q = tile[threadIdx.x];
        size[i] = (int)q.x + sizeof(Particle) * 100;
    }
}

host {
    Node nodes[] = {0, 2,  2, 1,  3, 0,  3, 3};
    int edges[6] = {5, 7, 11, 13, 17, 19};
    int deg[4];
    degree<<<1, 32>>>(nodes, edges, deg, 4);
    Cell grid[2] = {1.5, 2.0, 3, 0.5, 10, 20, 30, 40,   -1.0, 4.0, 7, 2.0, 1, 2, 3, 4};
    float e[2];
    int size[2];
    cells<<<1, 64>>>(grid, e, size, 2);
}
"#;
    let run = Run::new(src);
    // v0: edges 0..2 = 5 + 7; v1: edge 2 = 11; v2: none; v3: edges 3..6 = 13 + 17 + 19.
    assert_eq!(run.ints("deg"), [1202, 1101, 0, 4903]);
    // hits: 3 + 1 + ids[0] = 14 and 7 + 1 + ids[1] = 10; ids[3] = sizeof(Cell) = 8 words.
    let grid = run.words("grid");
    let f = |w: u32| f32::from_bits(w);
    assert_eq!((f(grid[0]), f(grid[1]), grid[2], f(grid[3])), (1.5, 2.0, 14, 0.5));
    assert_eq!(&grid[4..8], [10, 20, 30, 32]);
    assert_eq!((f(grid[8]), f(grid[9]), grid[10], f(grid[11])), (-1.0, 4.0, 10, 2.0));
    assert_eq!(&grid[12..16], [1, 2, 3, 32]);
    // energy: 1.5 * 0.5 + 2.0 and -1.0 * 2.0 + 4.0; the shared copy keeps its own x.
    assert_eq!(run.floats("e"), [2.75, 2.0]);
    assert_eq!(run.ints("size"), [1 + 1200, -1 + 1200]);
}

#[test]
fn struct_mistakes_are_named() {
    let base = "struct P { float x; int n; };\n";
    let case = |body: &str| {
        errors(&format!("{base}{body}\nhost {{ P ps[4]; float f[4]; int i[4]; k<<<1, 4>>>(ps); }}"))
            .into_iter()
            .next()
            .unwrap()
    };
    let e = case("__global__ void k(P* ps) { ps[0].nx = 1; }");
    assert_eq!((e.0, e.1, e.2.as_str()), (2, 34, "struct `P` has no member `nx`"));
    let e = case("__global__ void k(P* ps) { ps.x = 1; }");
    assert_eq!(e.2, "a `P*` has no member `x`; use `->` through a pointer");
    let e = case("__global__ void k(P* ps) { float y = ps[0] + 1.0f; }");
    assert_eq!(e.2, "operator `+` cannot be applied to a `struct` and a `float`");
    // A struct by value takes a struct value of the host block, not a buffer.
    let e = case("__global__ void k(P p) { }");
    assert_eq!(e.2, "argument 1 of `k` must be a `P`, found a buffer");
    let e = case("__global__ void k(P* ps) { P q = ps[0]; int n = q; }");
    assert_eq!(e.2, "a `P` is not a value: use one of its members");
    let e = errors(&format!("{base}__global__ void k(P* ps) {{ }}\nhost {{ float f[4]; k<<<1, 4>>>(f); }}"));
    assert_eq!(e[0].2, "argument 1 of `k` is a `P*`, but buffer `f` holds `float` elements");
    let e = errors(&format!("{base}struct Q {{ int a[2]; }};\n__global__ void k(Q* qs) {{ Q q = qs[0]; }}\nhost {{ Q qs[1]; k<<<1, 1>>>(qs); }}"));
    assert_eq!(
        e[0].2,
        "struct `Q` has an array member (`Q.a`): it can be used in memory, but not copied into a variable"
    );
}

/// Memory at file scope: a `__constant__` table read by every thread (its contents from the
/// declaration, or filled by the host block before the first launch), a 2-D `__constant__`
/// array, and a `__device__` counter the kernel adds to. The kernel gets their addresses as
/// hidden parameters; a device function reads them too.
#[test]
fn constant_and_device_variables_at_file_scope() {
    let src = r#"
#define K 4
__constant__ float weights[K] = {0.5, 1.0, 2.0, 4.0};
__constant__ int table[2][3] = {1, 2, 3, 10, 20, 30};
__constant__ float scale;
__device__ unsigned hits;

__device__ float weigh(float x, int k) { return x * weights[k % K] * scale; }

__global__ void apply(const float* in, float* out, int* picked, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = weigh(in[i], i);
    picked[i] = table[i % 2][i % 3];
    atomicAdd(&hits, 1u);
}

host {
    scale = fill(3.0);
    float in[64] = iota();
    float out[64];
    int picked[64];
    apply<<<2, 32>>>(in, out, picked, 64);
}
"#;
    let run = Run::new(src);
    let weights = [0.5f32, 1.0, 2.0, 4.0];
    let table = [[1, 2, 3], [10, 20, 30]];
    for (i, (&o, &p)) in run.floats("out").iter().zip(&run.ints("picked")).enumerate() {
        assert_eq!(o, i as f32 * weights[i % 4] * 3.0, "out[{i}]");
        assert_eq!(p, table[i % 2][i % 3], "picked[{i}]");
    }
    assert_eq!(run.words("hits"), [64]);
    // The kernel takes its four parameters and the addresses of the four variables.
    assert_eq!(run.program.workload.kernels[0].params, 8);

    let bad = [
        (
            "__constant__ float c[2];\n__global__ void k(float* o) { c[0] = 1.0f; o[0] = c[1]; }\nhost { float o[1]; k<<<1, 1>>>(o); }",
            "cannot write through a pointer to `const float`",
        ),
        (
            "__constant__ float c[2];\n__global__ void k(float* o) { o[0] = c[1]; }\nhost { float o[1]; k<<<1, 1>>>(o); c = fill(2.0); k<<<1, 1>>>(o); }",
            "`c` can only be filled before the first launch",
        ),
        (
            "__constant__ float* p;\n__global__ void k(float* o) { o[0] = p[0]; }\nhost { float o[1]; k<<<1, 1>>>(o); }",
            "a variable at file scope holds numbers or structs, not pointers",
        ),
    ];
    for (src, message) in bad {
        let found = errors(src);
        assert!(found.iter().any(|e| e.2 == message), "{src}: {found:?}");
    }
}

/// CUDA features the language does not have yet are named, not met with "undefined".
#[test]
fn unsupported_cuda_features_are_named() {
    let kernel =
        |body: &str| format!("__global__ void k(float* a) {{ {body} }}\nhost {{ float a[32]; k<<<1, 32>>>(a); }}");
    let cases = [
        (
            kernel("a[0] = tex1Dfetch(t, 0);"),
            "`tex1Dfetch`: texture reads are not supported; read the buffer with an index (or `__ldg`)",
        ),
        (
            kernel("float* p = malloc(16);"),
            "`malloc`: memory allocation in kernels is not supported; allocate a buffer in the host block",
        ),
        (
            "texture<float, 1> t;\n__global__ void k(float* a) { }\nhost { float a[1]; k<<<1, 1>>>(a); }".to_string(),
            "`texture` references are not supported",
        ),
        (
            kernel("a[0] = this_thread_block().size();"),
            "`this_thread_block`: a cooperative-groups function: write `cooperative_groups::this_thread_block`, \
             or add `using namespace cooperative_groups;`",
        ),
    ];
    for (src, message) in cases {
        let found = errors(&src);
        assert_eq!(found[0].2, message, "{src}");
    }
    // `using namespace std;` changes nothing: a note.
    let program = compiled(
        "using namespace std;\n__global__ void k(float* a) { a[0] = 1.0f; }\nhost { float a[1]; k<<<1, 1>>>(a); }",
    );
    assert_eq!(program.warnings[0].message, "`using namespace std;` is ignored");
}

/// `switch` as C runs it: the matching `case` (or `default`, wherever it stands), falling into
/// the next arm unless it breaks; `continue` inside belongs to the enclosing loop. Each thread's
/// result is computed here by the same rules, written out as Rust.
#[test]
fn switch_falls_through_breaks_and_continues_as_c_does() {
    let src = r#"
__global__ void k(int* out) {
    int i = threadIdx.x;
    int r = 0;
    switch (i % 6) {
        case 0: r += 1;
        case 1: r += 10; break;
        default: r += 100;
        case 3:
        case 4: r += 1000; break;
        case -1: r = -5;
    }
    int loops = 0;
    for (int j = 0; j < 4; j++) {
        switch (j) {
            case 1: continue;
            case 2: loops += 20; break;
            default: loops += 1;
        }
        loops += 100;
    }
    out[i] = r + loops * 100000;
}
host { int out[64]; k<<<1, 64>>>(out); }
"#;
    let run = Run::new(src);
    // The loop: j = 0 → 1 + 100; j = 1 → continue; j = 2 → 20 + 100; j = 3 → 1 + 100.
    let loops = 322;
    for (i, &v) in run.ints("out").iter().enumerate() {
        let r = match i % 6 {
            0 => 11,
            1 => 10,
            3 | 4 => 1000,
            _ => 1100,
        };
        assert_eq!(v, r + loops * 100000, "thread {i}");
    }
    let bad = |body: &str| {
        errors(&format!("__global__ void k(int* o, float f) {{ {body} }}\nhost {{ int o[1]; k<<<1, 1>>>(o, 1.0); }}"))
    };
    assert_eq!(bad("switch (o[0]) { case 1: case 1: break; }")[0].2, "this `case` value appears twice in the `switch`");
    assert_eq!(bad("switch (f) { case 1: break; }")[0].2, "a `switch` needs an integer, found a `float`");
    assert_eq!(bad("switch (o[0]) { case o[0]: break; }")[0].2, "a `case` value must be an integer constant");
    assert_eq!(bad("switch (o[0]) { default: break; default: break; }")[0].2, "a second `default` in one `switch`");
    assert_eq!(bad("switch (o[0]) { case 1: continue; }")[0].2, "`continue` outside a loop");
    assert_eq!(bad("case 1: o[0] = 1;")[0].2, "`case` outside a `switch`");
    assert_eq!(
        bad("switch (o[0]) { o[0] = 2; case 1: break; }")[0].2,
        "a statement in a `switch` before its first `case` never runs"
    );
}

/// `float(x)` is C++'s cast, as `(float)x`, also first in parentheses (`(float(a) / 2)` is no
/// C cast); `volatile __shared__` declares shared memory (whose every access then goes to
/// memory: `load_forwarding.rs`).
#[test]
fn functional_casts_and_volatile_shared_arrays() {
    let src = r#"
__global__ void k(float* out, int* bits) {
    volatile __shared__ int s[32];
    int i = threadIdx.x;
    s[i] = i * 3;
    __syncthreads();
    out[i] = (float(s[31 - i]) / 2.0f) + sqrt(float(i));
    bits[i] = (int(out[i] * 10.0f) + unsigned(i));
}
host { float out[32]; int bits[32]; k<<<1, 32>>>(out, bits); }
"#;
    let run = Run::new(src);
    for (i, (&out, &bits)) in run.floats("out").iter().zip(&run.ints("bits")).enumerate() {
        let want = (3 * (31 - i)) as f32 / 2.0 + (i as f32).sqrt();
        assert_eq!(out, want, "out[{i}]");
        assert_eq!(bits, (want * 10.0) as i32 + i as i32, "bits[{i}]");
    }
}

/// `__mul24` and `__umul24` multiply the low 24 bits of their operands (sign-extended for the
/// signed one), keeping the low 32 bits of the product, as CUDA defines them.
#[test]
fn twenty_four_bit_multiplies() {
    let src = r#"
__global__ void k(const int* a, const int* b, int* s, unsigned* u) {
    int i = threadIdx.x;
    s[i] = __mul24(a[i], b[i]);
    u[i] = __umul24((unsigned)a[i], (unsigned)b[i]);
}
host {
    int a[4] = {3, -5, 16777215, 33554435};
    int b[4] = {7, 9, 2, -3};
    int s[4]; unsigned u[4];
    k<<<1, 4>>>(a, b, s, u);
}
"#;
    let run = Run::new(src);
    let (a, b) = ([3i32, -5, 16777215, 33554435], [7i32, 9, 2, -3]);
    let sext = |x: i32| (x << 8) >> 8;
    for i in 0..4 {
        assert_eq!(run.ints("s")[i], sext(a[i]).wrapping_mul(sext(b[i])), "__mul24 {i}");
        let (x, y) = (a[i] as u32 & 0xFF_FFFF, b[i] as u32 & 0xFF_FFFF);
        assert_eq!(run.words("u")[i], x.wrapping_mul(y), "__umul24 {i}");
    }
}

/// `__align__` on a struct is ignored with a note, as it does not change what the kernel
/// computes here; `__launch_bounds__` beside it is read (cuda_launch_bounds.rs) without a note.
#[test]
fn align_is_ignored_with_a_note_and_launch_bounds_is_read() {
    let src = "struct __align__(8) P { int a; int b; };\n__global__ void __launch_bounds__(256, 2) k(P* p) { p[threadIdx.x].b = p[threadIdx.x].a + 1; }\nhost { P p[2] = {1, 0, 5, 0}; k<<<1, 2>>>(p); }";
    let program = compiled(src);
    let notes: Vec<&str> = program.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(notes, ["`__align__` is ignored: members are 4 bytes apart here"]);
    assert_eq!(program.workload.kernels[0].max_block_threads, 256);
    assert_eq!(Run::new(src).ints("p"), [1, 2, 5, 6]);
}

/// `atomicInc` and `atomicDec` as CUDA defines them: counters that wrap at the given bound.
/// 64 threads step each counter once; the final values follow from the rules applied 64
/// times in Rust, and the old values returned are each step's.
#[test]
fn atomic_inc_and_dec_wrap_at_their_bound() {
    let src = r#"
__global__ void k(unsigned* c, unsigned* olds) {
    unsigned i = threadIdx.x;
    olds[i] = atomicInc(&c[0], 9u);
    olds[64 + i] = atomicDec(&c[1], 9u);
}
host { unsigned c[2]; unsigned olds[128]; k<<<1, 64>>>(c, olds); }
"#;
    let run = Run::new(src);
    let (mut inc, mut dec) = (0u32, 0u32);
    let (mut inc_olds, mut dec_olds) = (Vec::new(), Vec::new());
    for _ in 0..64 {
        inc_olds.push(inc);
        inc = if inc >= 9 { 0 } else { inc + 1 };
        dec_olds.push(dec);
        dec = if dec == 0 || dec > 9 { 9 } else { dec - 1 };
    }
    assert_eq!(run.words("c"), [inc, dec]);
    // Lanes are serialised in lane order, so thread i sees step i's old value.
    let olds = run.words("olds");
    assert_eq!(olds[..64], inc_olds[..]);
    assert_eq!(olds[64..], dec_olds[..]);
    let found = errors("__global__ void k(int* c) { atomicInc(&c[0], 3); }\nhost { int c[1]; k<<<1, 1>>>(c); }");
    assert_eq!(found[0].2, "`atomicInc` works on `unsigned` values");
}

/// `uint32_t`, `uint` and `int32_t` are `unsigned` and `int`; `size_t` is 32 bits, as pointers
/// are here, with a note once: `(size_t)-1` is all ones and `int32_t` keeps its sign.
#[test]
fn fixed_width_integer_names_are_the_32_bit_types() {
    let src = "__global__ void k(unsigned* u, int* s) { size_t n = (size_t)-1; uint32_t a = 7u; uint b = a * 2; \
               int32_t c = -5; size_t m = 3; u[0] = n; u[1] = b; u[2] = m; s[0] = c / 2; }\n\
               host { unsigned u[3]; int s[1]; k<<<1, 1>>>(u, s); }";
    let run = Run::new(src);
    assert_eq!(run.words("u"), [u32::MAX, 14, 3]);
    assert_eq!(run.ints("s"), [-2]);
    let notes: Vec<&str> = run.program.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(notes, ["`size_t` is 32 bits here, as pointers are (an `unsigned`)"]);
}

/// Enumerations are integer constants, as C numbers them: from 0, one more than the one
/// before, or the value given (which may use earlier ones); `enum Tag`, `Tag` and a
/// `typedef enum` name are `int`s.
#[test]
fn enumerations_number_their_constants_as_c_does() {
    let src = r#"
enum Colour { RED, GREEN, BLUE = 10, VIOLET, MASK = BLUE * 2 + GREEN };
typedef enum { OFF, ON } Switch;
__device__ int pick(enum Colour c, Switch s) { return s == ON ? c : -c; }
__global__ void k(int* out) {
    Colour c = VIOLET;
    out[0] = RED; out[1] = GREEN; out[2] = BLUE; out[3] = c; out[4] = MASK;
    out[5] = pick(BLUE, ON); out[6] = pick(GREEN, OFF);
}
host { int out[7]; k<<<1, 1>>>(out); }
"#;
    assert_eq!(Run::new(src).ints("out"), [0, 1, 10, 11, 21, 10, -1]);
}

/// C++'s scoped enumerations: `enum class Tag { … }` names its enumerators `Tag::A` (inside its
/// braces they are unqualified), an underlying type is accepted, an unscoped enumerator may be
/// named through its type too, and a name the enumeration lacks is an error saying so.
#[test]
fn scoped_enumerations_name_their_constants_through_the_type() {
    let src = r#"
enum Colour { RED, GREEN };
enum class Phase : unsigned char { Load = 2, Compute, Store = Compute * 4 };
enum struct Mode { Fast, Exact };
__device__ int cost(Phase p) { return p == Phase::Store ? 100 : (int)p; }
__global__ void k(int* out) {
    Phase p = Phase::Compute;
    out[0] = (int)p; out[1] = (int)Phase::Store; out[2] = cost(Phase::Load); out[3] = cost(Phase::Store);
    out[4] = (int)Mode::Exact; out[5] = Colour::GREEN;
}
host { int out[6]; k<<<1, 1>>>(out); }
"#;
    assert_eq!(Run::new(src).ints("out"), [3, 12, 2, 100, 1, 1]);
    let wrong = "enum class Phase { Load };\n__global__ void k(int* o) { o[0] = (int)Phase::Stor; }\nhost { }";
    assert_eq!(errors(wrong)[0], (2, 48, "`Phase` has no enumerator `Stor`".to_string()));
    let unqualified = "enum class Phase { Load };\n__global__ void k(int* o) { o[0] = Load; }\nhost { }";
    assert_eq!(errors(unqualified)[0].2, "undefined name `Load`");
}

/// `#pragma unroll`, written before many loops, is noted once per file; other pragmas each.
#[test]
fn pragma_unroll_is_noted_once() {
    let src = "__global__ void k(int* a) {\n#pragma unroll\n for (int i = 0; i < 4; i++) a[i] = i;\n\
               #pragma unroll 2\n for (int i = 0; i < 4; i++) a[i] += i;\n#pragma once\n }\n\
               host { int a[4]; k<<<1, 1>>>(a); }";
    let run = Run::new(src);
    assert_eq!(run.ints("a"), [0, 2, 4, 6]);
    let notes: Vec<&str> = run.program.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        notes,
        ["`#pragma unroll` is ignored: the optimiser unrolls loops as it decides", "`#pragma` is ignored"]
    );
}

#[test]
fn namespaces_open_into_the_file_and_their_qualifiers_go() {
    let src = r#"
namespace physics {
    namespace detail {
        __device__ float square(float v) { return v * v; }
    }
    __device__ float energy(float m, float v) { return 0.5f * m * detail::square(v) * 2.0f; }
}
namespace {
    __device__ int twice(int x) { return 2 * x; }
}
using namespace physics;
__global__ void k(float* out, int* n) {
    int i = threadIdx.x;
    out[i] = physics::energy((float)i, 3.0f) + energy(1.0f, (float)i) + ::physics::detail::square(1.5f);
    n[i] = twice(i);
}
host { float out[8]; int n[8]; k<<<1, 8>>>(out, n); }
"#;
    let run = Run::new(src);
    let want: Vec<f32> = (0..8).map(|i| 0.5 * i as f32 * 9.0 * 2.0 + 0.5 * (i * i) as f32 * 2.0 + 2.25).collect();
    assert_eq!(run.floats("out"), want);
    assert_eq!(run.ints("n"), (0..8).map(|i| 2 * i).collect::<Vec<_>>());
}

#[test]
fn file_scope_constants_are_named_values_for_kernels_and_the_host() {
    let src = r#"
const int BLOCK = 64;
static const int HALF = BLOCK / 2;
constexpr float SCALE = 0.5f;
const double THIRD = 1.0 / 3.0;
__device__ float scaled(float v) { return v * SCALE; }
__global__ void k(float* out, double* d) {
    __shared__ float tile[BLOCK];
    int t = threadIdx.x;
    tile[t] = (float)t;
    __syncthreads();
    out[blockIdx.x * BLOCK + t] = scaled(tile[(t + HALF) % BLOCK]);
    d[blockIdx.x * BLOCK + t] = THIRD * t;
}
host { float out[128]; double d[128]; k<<<128 / BLOCK, BLOCK>>>(out, d); }
"#;
    let run = Run::new(src);
    let want: Vec<f32> = (0..128).map(|i| ((i % 64 + 32) % 64) as f32 * 0.5).collect();
    assert_eq!(run.floats("out"), want);
    let d: Vec<f64> =
        run.words("d").chunks_exact(2).map(|p| f64::from_bits(p[0] as u64 | (p[1] as u64) << 32)).collect();
    assert_eq!(d, (0..128).map(|i| (1.0f64 / 3.0) * (i % 64) as f64).collect::<Vec<_>>());
    assert_eq!(run.program.workload.launches[0].grid.x, 2);

    let not_constant =
        "const float R = threadIdx.x;\n__global__ void k(float* o) { o[0] = R; }\nhost { float o[1]; k<<<1, 1>>>(o); }";
    let messages = errors(not_constant);
    assert!(messages.iter().any(|(_, _, m)| m == "the value of `R` must be known when compiling"), "{messages:?}");
}

#[test]
fn shift_counts_past_the_width_shift_every_bit_out_as_ptx_does() {
    // C leaves these undefined; nvcc's `shl`/`shr` clamp the count, so a GPU gives 0 (or the
    // sign) where a CPU would wrap the count. Rodinia's huffman builds masks as `(1 << n) - 1`
    // with n up to 32.
    let src = r#"
__global__ void k(int* o, const int* s) {
    int i = threadIdx.x;
    unsigned n = s[i];
    o[i] = (1u << n) - 1u;
    o[8 + i] = (-16) >> n;
    o[16 + i] = (int)(0x80000000u >> n);
    long long w = 1;
    o[24 + i] = (int)((w << (n + 32)) >> 32);
}
host { int o[32]; int s[] = {0, 1, 31, 32, 33, 40, 63, 64}; k<<<1, 8>>>(o, s); }
"#;
    let counts = [0u32, 1, 31, 32, 33, 40, 63, 64];
    let shl = |x: u32, n: u32| if n < 32 { x << n } else { 0 };
    let mut expected: Vec<i32> = counts.iter().map(|&n| shl(1, n).wrapping_sub(1) as i32).collect();
    expected.extend(counts.iter().map(|&n| -16i32 >> n.min(31)));
    expected.extend(counts.iter().map(|&n| if n < 32 { (0x8000_0000u32 >> n) as i32 } else { 0 }));
    expected.extend(counts.iter().map(|&n| {
        let w = if n + 32 < 64 { 1i64 << (n + 32) } else { 0 };
        (w >> 32) as i32
    }));
    assert_eq!(Run::new(src).ints("o"), expected);
}
