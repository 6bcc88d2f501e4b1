//! Balanced memory issue in the engine: the SM-wide arbiter decides which co-running kernel's
//! memory instruction takes the LSU each time it frees, whatever scheduler each warp is on.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::events::SmEvent;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::workload::Workload;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// One warp storing 8 times, each store 32 lines apart (one request per lane): the LSU is busy
/// far longer than the loop takes, so both programs' warps wait for it every time it frees.
const SPRAY: &str = "__global__ void spray(float* out) {
    for (int k = 0; k < 8; k++) { out[threadIdx.x * 32 + k] = 1.0f; }
}
host {
    float out[1024];
    spray<<<1, 32>>>(out);
}";

fn machine() -> GpuConfig {
    let mut config = presets::cke_maxwell();
    config.core.sm_count = 1;
    config
}

/// The order in which the two programs' store instructions entered the L1 (0: the first
/// program's warp, 1: the second's), under warp policy `warp`.
fn store_order(warp: &str) -> Vec<u32> {
    let config = machine();
    let program = || {
        compile(SPRAY, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles").workload
    };
    let workload = Workload::co_run(vec![("a".into(), program()), ("b".into(), program())]).expect("two programs");
    let options = RunOptions { record: true, ..RunOptions::default() };
    let policies = Policies { tb: "rr".into(), warp: warp.into() };
    let mut sim = Simulation::new(config.clone(), workload, &policies, options).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    let stores: Vec<u32> = sim
        .recorded(0)
        .iter()
        .filter_map(|e| match e.event {
            SmEvent::Store { kernel, .. } => Some(kernel),
            _ => None,
        })
        .collect();
    // The LSU takes an instruction's requests in a row: one entry per instruction.
    stores
        .chunks(32)
        .map(|c| {
            assert!(c.iter().all(|&k| k == c[0]), "an instruction's requests are not interleaved");
            c[0]
        })
        .collect()
}

/// Program `a`'s warp sits on scheduler 0 and `b`'s on scheduler 1. Without an arbiter the
/// scheduler visited first takes the LSU every time it frees, so `a` issues all 8 stores before
/// `b` issues one: the starvation the paper starts from. RBMI alternates them. QBMI does too
/// here: each program makes 256 requests, fewer than the 1024 of an RPM sample, so both keep
/// the initial RPM 1 and the quotas tie every time.
///
/// The last of `b`'s stores is not in the record: the run ends when the warps have exited, and
/// a warp exits without waiting for its last store to leave the LSU.
#[test]
fn an_arbiter_takes_the_kernels_in_turn_where_scheduler_order_starves_one() {
    let alternating: Vec<u32> = (0..15).map(|i| i % 2).collect();
    let mut first_then_second = vec![0; 8];
    first_then_second.extend([1; 7]);
    assert_eq!(store_order("gto"), first_then_second);
    assert_eq!(store_order("gto+rbmi"), alternating);
    assert_eq!(store_order("gto+qbmi"), alternating);
    assert_eq!(store_order("lrr+rbmi"), alternating, "whatever the base policy");
}
