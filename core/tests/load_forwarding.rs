//! Store-to-load forwarding, as nvcc's `-O3` does it: a value the thread stored or loaded is
//! read back from a register until something may have changed that memory (a store through
//! another pointer, an atomic, a barrier). `volatile`, fences and `__syncwarp` keep every
//! load.

mod language_common;

use language_common::{compiled, config, Run};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// PolyBench's `atax_kernel1` as its benchmark launches it: eight warps of a block (one per
/// `threadIdx.y`) each compute the same `tmp[i]` in place. With the running sum kept in a
/// register, as nvcc keeps it, each warp's last store is the whole sum, so every element is
/// `N` whichever warp stores last. Reloading `tmp[i]` every turn let the warps' stores mix
/// (the yardstick saw 93 where 64 was due).
const ATAX: &str = r#"
#define N 64
__global__ void k1(int ny, float *A, float *x, float *tmp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    POINTER t = tmp;
    t[i] = 0;
    for (int j = 0; j < ny; j++) {
        t[i] += A[i * ny + j] * x[j];
        BETWEEN
    }
}
host {
    float A[32 * N] = fill(1.0);
    float x[N] = fill(1.0);
    float tmp[32];
    k1<<<1, dim3(32, 8)>>>(N, A, x, tmp);
}
"#;

fn atax(pointer: &str, between: &str) -> String {
    ATAX.replace("POINTER", pointer).replace("BETWEEN", between)
}

fn timing_run(src: &str) -> Vec<f32> {
    let program = compiled(src);
    let mut sim = Simulation::new(config(), program.workload.clone(), &Policies::default(), RunOptions::default())
        .expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    let b = program.workload.buffers.iter().position(|b| b.name == "tmp").unwrap();
    sim.buffer(b).iter().map(|&w| f32::from_bits(w)).collect()
}

#[test]
fn a_running_sum_in_memory_stays_in_a_register_and_racing_warps_agree() {
    assert!(timing_run(&atax("float*", "")).iter().all(|&v| v == 64.0));
}

#[test]
fn volatile_and_fences_keep_every_load() {
    // Each of the 8 warps loads `t[i]` once per turn (64 turns) where forwarded code does
    // not, and does not set the register that carries it to the 0 stored first.
    let forwarded = Run::new(&atax("float*", "")).executed;
    let variants = [
        ("volatile float*", ""),
        ("float*", "__threadfence();"),
        ("float*", "__threadfence_block();"),
        ("float*", "__syncwarp();"),
    ];
    for (pointer, between) in variants {
        let src = atax(pointer, between);
        assert_eq!(Run::new(&src).executed, forwarded + 8 * (64 - 1), "{pointer} {between}");
    }
}

/// After a barrier, a thread reads what another thread stored, not its own earlier value.
#[test]
fn a_barrier_ends_what_a_thread_knows_of_memory() {
    let src = r#"
__global__ void k(int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    if (t < 63) s[t + 1] = 100 + t;
    __syncthreads();
    out[t] = s[t];
}
host { int out[64]; k<<<1, 64>>>(out); }
"#;
    let out = Run::new(src).ints("out");
    let want: Vec<i32> = (0..64).map(|t| if t == 0 { 0 } else { 99 + t }).collect();
    assert_eq!(out, want);
}

/// An atomic by another lane between a thread's store and its load: the load sees it.
#[test]
fn an_atomic_ends_what_a_thread_knows_of_memory() {
    let src = r#"
__global__ void k(int* x, int* out) {
    int t = threadIdx.x;
    x[t] = 5;
    atomicAdd(&x[(t + 1) % 32], 1);
    out[t] = x[t];
}
host { int x[32]; int out[32]; k<<<1, 32>>>(x, out); }
"#;
    assert_eq!(Run::new(src).ints("out"), vec![6; 32]);
}

/// A store through another pointer may write the same word (no `__restrict__` is assumed), so
/// the load after it reads memory: here the two pointers are one buffer.
#[test]
fn a_store_through_another_pointer_may_alias() {
    let src = r#"
__global__ void k(int* a, int* b, int* out) {
    int t = threadIdx.x;
    a[t] = 1;
    b[t] = 2;
    out[t] = a[t];
}
host { int x[32]; int out[32]; k<<<1, 32>>>(x, x, out); }
"#;
    assert_eq!(Run::new(src).ints("out"), vec![2; 32]);
}

/// With `__restrict__` on every pointer, a store through one does not end what is known of
/// memory reached through another (as nvcc, told the pointers do not alias): per turn, each
/// warp loads `A[…]` and `x[j]` once and keeps both sums in registers, where without it
/// every store makes the next loads read memory again (six loads a turn).
#[test]
fn restrict_pointers_do_not_alias() {
    let src = |restrict: &str| {
        format!(
            "
__global__ void k(int n, const float* {restrict} A, const float* {restrict} x, float* {restrict} tmp,
                  float* {restrict} y) {{
    int i = threadIdx.x;
    tmp[i] = 0;
    y[i] = 0;
    for (int j = 0; j < n; j++) {{
        tmp[i] += A[i * n + j] * x[j];
        y[i] += A[i * n + j] * x[j] * 2.0f;
    }}
}}
host {{ float A[64 * 32] = fill(1.0); float x[32] = fill(1.0); float tmp[64]; float y[64]; k<<<1, 64>>>(32, A, x, tmp, y); }}
"
        )
    };
    let (plain, restricted) = (Run::new(&src("")), Run::new(&src("__restrict__")));
    for run in [&plain, &restricted] {
        assert_eq!(run.floats("tmp"), vec![32.0; 64]);
        assert_eq!(run.floats("y"), vec![64.0; 64]);
    }
    // 2 warps × 32 turns × 4 loads fewer, and 2 warps × 2 registers set to the stored zeros.
    assert_eq!(restricted.executed, plain.executed - 2 * 32 * 4 + 2 * 2);
    assert_eq!(Run::new(&src("__restrict")).executed, restricted.executed, "the other spelling");
}
