//! CIAO's shared-memory cache in the engine: the loads of isolated warps go there and compute
//! the same; a kernel whose blocks leave no shared memory unused gets none, and then CIAO-P
//! cannot act while CIAO-C stalls instead (`ciao.md` §4.2).
//!
//! One SM of the GTX 480-like machine (48 KB of shared memory, 16 KB L1 of 4 ways). The kernel
//! is ATAX's first loop: each lane walks its own row, so a warp keeps 32 lines live and the
//! warps push each other's lines out, which is what CIAO detects. Aggressive settings (a
//! 0.01 % cutoff, epochs of 100 and 10 instructions) make it act within a short run.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::stats::Report;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

const EAGER: &str = "high_cutoff=1,high_epoch=100,low_epoch=10";

/// ATAX's row walk over a `rows` × 64 matrix; `SHARED` words of shared memory a block.
fn source(shared_words: u32) -> String {
    format!(
        "
        #define COLUMNS 64
        __global__ void rows(const float* a, const float* x, float* out, int n) {{
            __shared__ float keep[{shared_words}];
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            keep[threadIdx.x] = 0.0;
            float s = 0.0;
            for (int j = 0; j < COLUMNS; j++) s += a[i * COLUMNS + j] * x[j];
            out[i] = s + keep[threadIdx.x];
        }}
        host {{
            float a[256 * COLUMNS] = random(0.0, 1.0, 1);
            float x[COLUMNS] = random(0.0, 1.0, 2);
            float out[256];
            rows<<<2, 128>>>(a, x, out, 256);
        }}"
    )
}

fn one_sm() -> GpuConfig {
    let mut c = presets::fermi_gtx480();
    c.core.sm_count = 1;
    c
}

/// The report and the output buffer of a run under warp policy `warp`.
fn run(source: &str, warp: &str) -> (Report, Vec<u32>) {
    let config = one_sm();
    let program = compile(source, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { warp: warp.into(), ..Policies::default() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished, "{warp}");
    let out = sim.buffer(2).to_vec();
    (sim.report(), out)
}

fn redirected(r: &Report) -> u64 {
    r.l1.redirected_loads()
}

#[test]
fn isolated_warps_load_through_the_shared_memory_cache_and_compute_the_same() {
    let src = source(128);
    let (gto, expected) = run(&src, "gto");
    assert_eq!(redirected(&gto), 0);
    for policy in ["ciao-p", "ciao-c"] {
        let (r, out) = run(&src, &format!("{policy}:{EAGER}"));
        assert!(redirected(&r) > 0, "{policy} isolates someone: {:?}", r.l1);
        assert!(r.l1.smc_hits > 0, "{policy}: re-reads of a row hit there");
        assert_eq!(out, expected, "{policy} computes what GTO does");
        assert!(r.l1.accesses < gto.l1.accesses, "{policy}: redirected loads are not L1 accesses");
    }
    let (t, _) = run(&src, &format!("ciao-t:{EAGER}"));
    assert_eq!(redirected(&t), 0, "CIAO-T never isolates");
}

#[test]
fn with_exclusive_copies_other_warps_take_lines_back_and_compute_the_same() {
    let src = source(128);
    let (_, expected) = run(&src, "gto");
    let (shared, _) = run(&src, &format!("ciao-p:{EAGER}"));
    assert_eq!(shared.l1.smc_returns, 0, "by default a line may be in both");
    let (exclusive, out) = run(&src, &format!("ciao-p:{EAGER},exclusive_copies=1"));
    assert!(exclusive.l1.smc_returns > 0, "a warp through the L1 finds a row in the shared-memory cache");
    assert_eq!(out, expected, "and computes what GTO does");
}

#[test]
fn blocks_that_use_all_shared_memory_leave_no_cache_so_ciao_c_stalls_instead() {
    // 12 288 words = 48 KB: one block a SM and nothing unused.
    let src = source(12_288);
    let (p, _) = run(&src, &format!("ciao-p:{EAGER}"));
    assert_eq!(redirected(&p), 0, "nowhere to redirect to");
    assert_eq!(p.stalls.throttled, 0, "and CIAO-P does not stall");
    let (c, _) = run(&src, &format!("ciao-c:{EAGER}"));
    assert_eq!(redirected(&c), 0);
    assert!(c.stalls.throttled > 0, "CIAO-C stalls the interferer directly");
}

/// Snapshots of SM 0 every 100 cycles of a run under warp policy `warp`.
fn snapshots(source: &str, warp: &str) -> Vec<warpscope_core::stats::Snapshot> {
    let config = one_sm();
    let program = compile(source, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { warp: warp.into(), ..Policies::default() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).expect("valid");
    let mut out = Vec::new();
    loop {
        let outcome = sim.step_until(sim.cycle() + 100);
        out.push(sim.snapshot(0));
        if outcome != StepOutcome::BudgetSpent {
            assert_eq!(outcome, StepOutcome::Finished);
            return out;
        }
    }
}

#[test]
fn snapshots_picture_who_evicts_whom_and_the_strip_shows_stalled_warps_throttled() {
    use warpscope_core::stats::snapshot::NONE;
    use warpscope_core::stats::{WarpRole, WarpState};
    assert!(snapshots(&source(128), "gto").iter().all(|s| s.interference.is_none()), "GTO keeps no picture");
    for (shared, policy, acting) in [(128, "ciao-c", WarpRole::Isolated), (12_288, "ciao-c", WarpRole::Stalled)] {
        let shots = snapshots(&source(shared), &format!("{policy}:{EAGER}"));
        let mut seen = 0;
        for s in &shots {
            let view = s.interference.as_ref().expect("CIAO pictures every snapshot");
            for slot in 0..view.role.len() {
                let state = WarpState::from_code(s.warp_state[slot]).unwrap();
                if view.role(slot) == WarpRole::Stalled {
                    assert!(
                        matches!(state, WarpState::Throttled | WarpState::Barrier),
                        "a stalled warp is throttled, not {state:?}"
                    );
                }
                if view.role(slot) == acting {
                    seen += 1;
                }
                let j = view.interferer[slot];
                if j != NONE {
                    assert_ne!(j as usize, slot, "a warp is never its own interferer in the picture");
                    assert_ne!(view.role(j as usize), WarpRole::Empty, "the named interferer is live");
                }
            }
        }
        assert!(seen > 0, "{shared} words of shared memory: some snapshot shows a warp {acting:?}");
        assert!(
            shots.iter().any(|s| s.interference.as_ref().unwrap().interferer.iter().any(|&j| j != NONE)),
            "someone names an interferer"
        );
        let smc = shots.last().unwrap().interference.as_ref().unwrap().smc_lines;
        assert_eq!(smc > 0, shared == 128, "a shared-memory cache only where blocks leave room");
        // Its lines are pictured beside the L1, each for the isolated warp whose load filled it.
        for s in &shots {
            assert_eq!(s.smc_owner.len(), smc as usize);
        }
        if smc > 0 {
            let filled: Vec<u32> =
                shots.iter().flat_map(|s| s.smc_owner.iter().copied()).filter(|&o| o != NONE).collect();
            assert!(!filled.is_empty(), "redirected lines show in the picture");
            assert!(filled.iter().all(|&o| o < shots[0].warps_per_sm), "each names a warp slot");
        }
    }
}

/// The sizes the shared-memory cache of SM 0 was given, in order, under warp policy `warp`.
fn smc_sizes(source: &str, warp: &str) -> (Vec<u32>, Vec<u32>) {
    use warpscope_core::events::SmEvent;
    let config = one_sm();
    let program = compile(source, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { warp: warp.into(), ..Policies::default() };
    let options = RunOptions { record: true, ..RunOptions::default() };
    let mut sim = Simulation::new(config, program.workload, &policies, options).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished, "{warp}");
    let sizes = sim
        .recorded(0)
        .iter()
        .filter_map(|s| match s.event {
            SmEvent::SmcSized { lines, .. } => Some(lines),
            _ => None,
        })
        .collect();
    (sizes, sim.buffer(2).to_vec())
}

#[test]
fn a_dynamic_shared_memory_cache_follows_the_blocks_as_they_come_and_go() {
    // 4096 words = 16 KB a block: three would fit in 48 KB, so sized per kernel run for the
    // most blocks that fit, nothing is left; the grid's two blocks leave 32 KB, then 16 KB.
    let src = source(4096);
    let (per_kernel, expected) = smc_sizes(&src, &format!("ciao-c:{EAGER}"));
    assert_eq!(per_kernel, [0], "once, for three blocks' worth of shared memory");
    let (dynamic, out) = smc_sizes(&src, &format!("ciao-c:{EAGER},smc_dynamic=1"));
    // 132 bytes a line (data and tag), a power of two: 32 KB → 128 lines, 16 KB → 64, 48 KB → 256.
    assert_eq!(dynamic, [128, 64, 128, 256], "first block in, second in, one out, both out");
    assert_eq!(out, expected, "the same results");
}
