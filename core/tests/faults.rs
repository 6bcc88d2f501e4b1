//! Run-time faults say where they happened: the source line and column of the access, the
//! thread and block, and for an address outside every buffer, where it is from the nearest
//! one. An access just past a buffer's end but inside its 256-byte allocation unit reads the
//! padding, as on a GPU, rather than faulting.

use warpscope_core::config::presets;
use warpscope_core::exec::{FaultKind, FaultThread};
use warpscope_core::isa::SourcePos;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

fn run(src: &str) -> (StepOutcome, Simulation) {
    let config = presets::fermi_gtx480();
    let program = compile(src, &CompileOptions { config: &config, defines: &[], optimize: true })
        .unwrap_or_else(|d| panic!("{d:?}"));
    let mut sim = Simulation::new(config, program.workload, &Policies::default(), RunOptions::default()).unwrap();
    (sim.run(), sim)
}

#[test]
fn an_access_outside_every_buffer_names_line_thread_block_and_the_nearest_buffer() {
    // `a` and `b` hold 256 floats (1024 bytes, whole allocation units): thread 64 of block 1
    // (i = 192) reads a[592], 64 bytes past the end of `b`, which lies 256 bytes after `a`.
    let src = "__global__ void k(float* a, float* b) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    b[i] = a[i + 400] * 2.0f;\n}\nhost { float a[256]; float b[256]; k<<<2, 128>>>(a, b); }";
    let (outcome, _) = run(src);
    let message = outcome.to_string();
    let StepOutcome::Fault { kernel, fault, source, thread, near, .. } = outcome else { panic!("{message}") };
    assert_eq!(kernel, "k");
    assert!(matches!(fault.kind, FaultKind::Memory { .. }), "{message}");
    assert_eq!(source, Some(SourcePos { line: 3, column: 12 }), "{message}");
    // Threads of block 0 read a[400..528) and block 1's first warp a[528..560): all inside
    // `b` or its unit. Thread 64 of block 1 is the first to leave it.
    assert_eq!(thread, Some(FaultThread { block: [1, 0, 0], thread: [64, 0, 0] }), "{message}");
    assert_eq!(near.as_deref(), Some("64 bytes past the end of buffer `b` (1024 bytes)"));
    assert!(message.starts_with("kernel k faulted on SM "), "{message}");
    assert!(message.contains(" at line 3, column 12: lane 0 read or wrote global memory"), "{message}");
    assert!(message.ends_with("; thread (64, 0, 0) of block (1, 0, 0)"), "{message}");
}

#[test]
fn a_read_just_past_the_end_reads_the_allocation_padding() {
    // 250 floats are 1000 bytes of a 1024-byte unit: x[250..256) are zeros past the end, and
    // the reads that Rodinia-style kernels make there do not fault.
    let src = "__global__ void k(const float* x, float* y) {\n    int i = threadIdx.x;\n    y[i] = x[i] + x[i + 6];\n}\nhost { float x[250] = fill(1.0); float y[250]; k<<<1, 250>>>(x, y); }";
    let (outcome, sim) = run(src);
    assert_eq!(outcome, StepOutcome::Finished, "{outcome}");
    let y: Vec<f32> = sim.buffer(1).iter().map(|&w| f32::from_bits(w)).collect();
    for (i, &v) in y.iter().enumerate() {
        assert_eq!(v, if i + 6 < 250 { 2.0 } else { 1.0 }, "y[{i}]");
    }
}

#[test]
fn a_local_array_fault_names_its_line_and_thread() {
    let src = "__global__ void k(int* a) {\n    int x[4] = {1, 2, 3, 4};\n    int i = threadIdx.x;\n    a[i] = x[i];\n}\nhost { int a[64]; k<<<1, 64>>>(a); }";
    let (outcome, _) = run(src);
    let message = outcome.to_string();
    let StepOutcome::Fault { source, thread, near, .. } = outcome else { panic!("{message}") };
    assert_eq!(source, Some(SourcePos { line: 4, column: 14 }), "{message}");
    assert_eq!(thread, Some(FaultThread { block: [0, 0, 0], thread: [4, 0, 0] }), "{message}");
    assert_eq!(near, None);
}

/// A `__syncthreads()` that only part of a block reaches is undefined in CUDA; the run goes on
/// (as on Volta and later GPUs) and the report says where it happened.
#[test]
fn a_barrier_only_part_of_a_block_reaches_is_reported_with_its_line() {
    // Warp 1 skips the `if` and exits; warp 0 reaches the barrier of line 5 alone.
    let exited = "__global__ void k(float* a) {\n    __shared__ float t[64];\n    if (threadIdx.x < 32) {\n        t[threadIdx.x] = a[threadIdx.x];\n        __syncthreads();\n    }\n    a[threadIdx.x] = t[0];\n}\nhost { float a[64]; k<<<1, 64>>>(a); }";
    let (outcome, sim) = run(exited);
    assert_eq!(outcome, StepOutcome::Finished);
    assert_eq!(
        sim.report().warnings,
        ["kernel k: the __syncthreads() at line 5, column 9 was reached by only part of block 0: a warp of the block \
          exited without reaching it. CUDA requires every thread of a block to reach each barrier; the engine \
          lets exited warps count as arrived and a divergent warp arrive with the threads it has, as GPUs since \
          Volta do"]
    );
    // Half of one warp's lanes reach it: the warp arrives diverged.
    let diverged = "__global__ void k(float* a) {\n    if (threadIdx.x < 16)\n        __syncthreads();\n    a[threadIdx.x] = 1.0f;\n}\nhost { float a[32]; k<<<2, 32>>>(a); }";
    let (_, sim) = run(diverged);
    let warnings = sim.report().warnings;
    assert_eq!(warnings.len(), 1, "one warning per kernel: {warnings:?}");
    assert!(
        warnings[0].starts_with("kernel k: the __syncthreads() at line 3, column 9 was reached by only part of block "),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("a warp reached it with some of its threads on another path"), "{warnings:?}");
    // Every thread reaches it: nothing to say.
    let whole = "__global__ void k(float* a) {\n    __shared__ float t[64];\n    t[threadIdx.x] = a[threadIdx.x];\n    __syncthreads();\n    a[threadIdx.x] = t[63 - threadIdx.x];\n}\nhost { float a[64]; k<<<4, 64>>>(a); }";
    let (_, sim) = run(whole);
    assert!(sim.report().warnings.is_empty());
}
