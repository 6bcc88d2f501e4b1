//! `extern __shared__` arrays sized by the launch's third value: placed after the kernel's
//! own shared arrays, counted in what a block takes from an SM, and refused by name where a
//! block would not fit.

mod language_common;

use language_common::{expect_first_error, Run};
use warpscope_core::config::presets;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

const REDUCTION: &str = r#"
__global__ void reduce(const float* in, float* out, int* order) {
    extern __shared__ float sdata[];
    __shared__ int arrivals[3];
    unsigned tid = threadIdx.x;
    if (tid == 0) arrivals[0] = 0;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    // The static array and the dynamic one do not overlap: counting in one leaves the other.
    int mine = atomicAdd(&arrivals[0], 1);
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
    order[blockIdx.x * blockDim.x + tid] = mine;
}
host {
    float in[512] = random(-1.0, 1.0, 2); float out[4]; int order[512];
    reduce<<<4, 128, 128 * sizeof(float)>>>(in, out, order);
}
"#;

#[test]
fn an_extern_shared_reduction_sized_by_the_launch() {
    let run = Run::new(REDUCTION);
    let floats = run.floats("in");
    let sums: Vec<f32> = floats.chunks(128).map(sum_as_the_tree_does).collect();
    assert_eq!(run.floats("out"), sums);
    // Each block's 128 arrivals numbered 0..128 once each.
    for block in run.ints("order").chunks(128) {
        let mut seen = block.to_vec();
        seen.sort();
        assert_eq!(seen, (0..128).collect::<Vec<i32>>());
    }
    let kernel = &run.program.workload.kernels[0];
    assert_eq!(kernel.shared_bytes, 16, "the kernel's own 12 bytes, then the dynamic part 16-byte aligned");
    assert_eq!(run.program.workload.launches[0].dynamic_shared, 512);
}

/// The halving tree `sdata[t] += sdata[t + s]` in the kernel's order, so float sums match bit
/// for bit.
fn sum_as_the_tree_does(block: &[f32]) -> f32 {
    let mut s = block.to_vec();
    let mut half = s.len() / 2;
    while half > 0 {
        for t in 0..half {
            s[t] += s[t + half];
        }
        half /= 2;
    }
    s[0]
}

/// On one SM of 48 KiB, two blocks of 20 KiB of dynamic memory each run together, but blocks
/// of 40 KiB one at a time: the SM never holds more than one block's warps.
#[test]
fn dynamic_shared_memory_limits_the_blocks_an_sm_holds() {
    let src = |bytes: u32| {
        format!(
            "__global__ void k(float* a) {{ extern __shared__ float s[]; s[threadIdx.x] = a[threadIdx.x];\n\
             float v = 0.0f; for (int i = 0; i < 200; i++) v += s[(threadIdx.x + i) % 128];\n\
             a[blockIdx.x * 128 + threadIdx.x] = v; }}\n\
             host {{ float a[1024]; k<<<8, 128, {bytes}>>>(a); }}"
        )
    };
    let average_warps = |bytes: u32| {
        let mut config = presets::fermi_gtx480();
        config.core.sm_count = 1;
        let program = compile(&src(bytes), &CompileOptions { config: &config, defines: &[], optimize: true })
            .unwrap_or_else(|d| panic!("{d:?}"));
        let mut sim = Simulation::new(config, program.workload, &Policies::default(), RunOptions::default()).unwrap();
        assert_eq!(sim.run(), StepOutcome::Finished);
        let report = sim.report();
        report.sms[0].active_warp_cycles as f64 / report.cycles as f64
    };
    let (two, one) = (average_warps(20 * 1024), average_warps(40 * 1024));
    assert!(one <= 4.0, "one block of 4 warps at a time: {one}");
    assert!(two > 4.0, "two blocks at a time: {two}");
}

#[test]
fn dynamic_shared_mistakes_are_named() {
    let kernel = "__global__ void k(float* a) { extern __shared__ float s[]; s[0] = a[0]; }\n";
    let cases = [
        (
            format!("{kernel}host {{ float a[1]; k<<<1, 32, 64 * 1024>>>(a); }}"),
            "a block needs 65536 bytes of shared memory (0 of the kernel's arrays, 65536 dynamic); an SM of this machine has 49152",
        ),
        (
            format!("{kernel}host {{ float a[1]; k<<<1, 32, a>>>(a); }}"),
            "the third launch value is the dynamic shared memory in bytes, found a buffer",
        ),
        (
            "__global__ void k(float* a) { extern __shared__ float s[4]; }\nhost { float a[1]; k<<<1, 1>>>(a); }"
                .to_string(),
            "`extern __shared__` declares an array without a size, sized by the launch: `s[]`",
        ),
        (
            "__global__ void k(float* a) { extern float s[]; }\nhost { float a[1]; k<<<1, 1>>>(a); }".to_string(),
            "`extern` declares only dynamic shared memory here: `extern __shared__ T name[];`",
        ),
    ];
    for (src, message) in cases {
        expect_first_error(&src, message);
    }
}
