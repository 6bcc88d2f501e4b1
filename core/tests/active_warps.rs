//! The report's active warps (`SmReport::active_warp_cycles`): warps live on an SM and not held
//! back by its policy, summed over cycles. Checked against the blocks' own records: with one
//! warp a block, a warp is live from its block's start to its end, so under GTO the sum is the
//! blocks' lifetimes, and under a static limit of `k` warps (no barriers) it is, cycle by cycle,
//! the smaller of `k` and the blocks live then.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::stats::{BlockRecord, Report};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// 20 one-warp blocks of ALU work whose length varies with the block, so that warps come and go
/// at different times; 8 fit on the SM at once.
const SOURCE: &str = "
    __global__ void spin(float* out) {
        float s = 1.0;
        for (int k = 0; k < 40 + 13 * (blockIdx.x % 7); k++) s = s * 1.0001 + 0.5;
        out[blockIdx.x * 32 + threadIdx.x] = s;
    }
    host {
        float out[20 * 32];
        spin<<<20, 32>>>(out);
    }";

fn one_sm() -> GpuConfig {
    let mut c = presets::fermi_gtx480();
    c.core.sm_count = 1;
    c
}

fn run(warp: &str, shortcuts: bool) -> Report {
    let config = one_sm();
    let program = compile(SOURCE, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { warp: warp.into(), ..Policies::default() };
    let options = RunOptions { skip_idle: shortcuts, ..RunOptions::default() };
    let mut sim = Simulation::new(config, program.workload, &policies, options).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished, "{warp}");
    sim.report()
}

/// Σ over cycles of min(live blocks, limit), from the block records.
fn expected(blocks: &[BlockRecord], limit: u64) -> u64 {
    let end = blocks.iter().map(|b| b.end).max().unwrap();
    (0..end).map(|t| (blocks.iter().filter(|b| b.start <= t && t < b.end).count() as u64).min(limit)).sum()
}

#[test]
fn gto_counts_every_live_warp_for_its_whole_life() {
    let r = run("gto", true);
    assert_eq!(r.blocks.len(), 20);
    let lifetimes: u64 = r.blocks.iter().map(|b| b.end - b.start).sum();
    assert_eq!(r.sms[0].active_warp_cycles, lifetimes);
    assert_eq!(r.sms[0].active_warp_cycles, expected(&r.blocks, u64::MAX));
}

#[test]
fn a_static_limit_counts_only_the_warps_it_lets_issue() {
    for limit in [1, 2, 5] {
        let r = run(&format!("swl:limit={limit}"), true);
        assert_eq!(r.sms[0].active_warp_cycles, expected(&r.blocks, limit), "limit {limit}");
        assert!(r.sms[0].active_warp_cycles < expected(&r.blocks, u64::MAX), "limit {limit} holds warps back");
    }
}

#[test]
fn idle_skipping_does_not_change_the_count() {
    for warp in ["gto", "swl:limit=3", "ccws", "ciao-c"] {
        assert_eq!(run(warp, true).sms[0].active_warp_cycles, run(warp, false).sms[0].active_warp_cycles, "{warp}");
    }
}
