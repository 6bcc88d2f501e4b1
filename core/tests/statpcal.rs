//! statPCAL in the engine: warps without a token compute the same, their loads use the L1's
//! lines but never allocate, so the token warps keep theirs. One SM of the GTX 480-like
//! machine running ATAX's row walk: 8 warps of 32 lines each thrash a 16 KB L1.

use warpscope_core::config::presets;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::stats::Report;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

const SOURCE: &str = "
    #define COLUMNS 64
    __global__ void rows(const float* a, const float* x, float* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float s = 0.0;
        for (int j = 0; j < COLUMNS; j++) s += a[i * COLUMNS + j] * x[j];
        out[i] = s;
    }
    host {
        float a[256 * COLUMNS] = random(0.0, 1.0, 1);
        float x[COLUMNS] = random(0.0, 1.0, 2);
        float out[256];
        rows<<<1, 256>>>(a, x, out, 256);
    }";

fn run(warp: &str) -> (Report, Vec<u32>) {
    let mut config = presets::fermi_gtx480();
    config.core.sm_count = 1;
    let program = compile(SOURCE, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { warp: warp.into(), ..Policies::default() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished, "{warp}");
    let out = sim.buffer(2).to_vec();
    (sim.report(), out)
}

#[test]
fn warps_without_a_token_bypass_the_l1_and_compute_the_same() {
    let (gto, expected) = run("gto");
    assert_eq!(gto.l1.bypassed, 0);
    // Every warp holds a token: exactly GTO.
    let (all, out) = run("statpcal:tokens=8");
    assert_eq!(out, expected);
    assert_eq!((all.cycles, all.l1), (gto.cycles, gto.l1));
    // Two tokens: six warps' misses bypass, and the L1 keeps the token warps' rows: it evicts a
    // small fraction of what it evicts under GTO, where all eight warps push each other's lines
    // out. (It does not hit more: a bypassing warp finds none of its own lines again.)
    let (two, out) = run("statpcal:tokens=2");
    assert_eq!(out, expected);
    assert!(two.l1.bypassed > 0);
    assert!(two.l1.evictions * 10 < gto.l1.evictions, "{} vs {}", two.l1.evictions, gto.l1.evictions);
    // Nobody is held back: every live warp counts as active.
    let (swl, _) = run("swl:limit=2");
    assert!(two.sms[0].active_warp_cycles as f64 / two.cycles as f64 > 4.0);
    assert!(swl.sms[0].active_warp_cycles as f64 / (swl.cycles as f64) <= 2.0);
}
