//! CCWS in the engine: on a kernel whose warps lose their own lines to each other it gates
//! loads and cuts the L1's misses well below GTO's; on a streaming kernel, with nothing to
//! lose, it gates nothing and runs exactly as GTO; and its runs are the same whether idle
//! cycles are skipped or not.

use warpscope_core::claims::Metric;
use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::sched::warp::WarpPolicy;
use warpscope_core::stats::Report;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// 32 warps (one SM of `ccws-fermi` full). Each iteration, a warp follows a chain of two
/// dependent loads of lines nobody reads again (misses under any scheduler), then reads its
/// own 2 KB of keys: 16 lines, two lanes a line, one load instruction, the same lines every
/// iteration. Waiting on the chain, every warp keeps its keys in flight at once: 32 × 16 =
/// 512 lines against the L1's 256, so under GTO the keys are evicted between iterations; 16
/// warps' keys would fit. The keys' misses are victim-tag hits: each warp re-reads exactly the
/// 16 lines it lost, which its 16 tags hold.
const KEYS: &str = "
    #define WARPS 32
    #define ITERS 32
    #define CHAIN 2
    __global__ void keys(const int* keys, const int* chain, int* out) {
        int t = blockIdx.x * blockDim.x + threadIdx.x;
        int warp = t / 32;
        int lane = t % 32;
        int acc = 0;
        int s = 0;
        for (int i = 0; i < ITERS; i++) {
            for (int c = 0; c < CHAIN; c++) {
                s = chain[((i * CHAIN + c) * WARPS + warp) * 32 + lane + (s >> 30)];
            }
            // `s >> 30` is 0 (the data are small) but only known once the chain is read.
            acc = acc + keys[warp * 512 + (lane / 2) * 32 + lane % 2 + (s >> 30)];
        }
        out[t] = acc;
    }
    host {
        int keys[WARPS * 512] = iota();
        int chain[ITERS * CHAIN * WARPS * 32] = iota();
        int out[WARPS * 32];
        keys<<<WARPS / 8, 256>>>(keys, chain, out);
    }";

/// Coalesced vector add: every line is read once, so no warp ever misses a line it lost.
const STREAM: &str = "
    #define N 16384
    __global__ void add(const int* a, const int* b, int* c) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        c[i] = a[i] + b[i];
    }
    host {
        int a[N] = iota();
        int b[N] = iota();
        int c[N];
        add<<<N / 256, 256>>>(a, b, c);
    }";

/// The paper's machine (32 KB 8-way L1, 32 warps an SM), one SM.
fn machine() -> GpuConfig {
    let mut c = presets::ccws_fermi();
    c.core.sm_count = 1;
    c
}

fn simulation(source: &str, warp: &str, skip_idle: bool) -> Simulation {
    let config = machine();
    let program = compile(source, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { tb: "rr".into(), warp: warp.into() };
    let options = RunOptions { skip_idle, ..RunOptions::default() };
    Simulation::new(config, program.workload, &policies, options).expect("valid")
}

fn run(source: &str, warp: &str) -> Report {
    let mut sim = simulation(source, warp, true);
    assert_eq!(sim.run(), StepOutcome::Finished);
    sim.report()
}

#[test]
fn on_warps_that_lose_their_own_lines_ccws_gates_loads_and_misses_less_than_gto() {
    let (gto, ccws) = (run(KEYS, "gto"), run(KEYS, "ccws"));
    assert_eq!(gto.warp_instructions, ccws.warp_instructions, "the same work");
    // Compulsory misses: 32 warps × 32 iterations × 2 chain lines, and 32 × 16 key lines.
    let compulsory = 32 * 32 * 2 + 32 * 16;
    let (g, c) = (gto.l1.misses, ccws.l1.misses);
    assert!(g > compulsory + 2000, "GTO evicts the keys between iterations: {g} misses");
    assert!(c * 4 < g * 3, "CCWS misses at least a quarter less: {c} against GTO's {g}");
    assert!(c - compulsory < (g - compulsory) / 2, "and at least half of the avoidable ones");
    assert!(ccws.gated_loads > 100, "it holds loads back: {}", ccws.gated_loads);
    // 32 warps × 32 iterations × 3 loads: a load held back counts once, however long it waits.
    assert!(
        ccws.gated_loads <= 32 * 32 * 3,
        "{} gated in {} throttled cycles",
        ccws.gated_loads,
        ccws.stalls.throttled
    );
    assert!(ccws.victim_tag_hits > 100, "it sees lost locality: {}", ccws.victim_tag_hits);
    assert_eq!((gto.gated_loads, gto.victim_tag_hits), (0, 0), "GTO has neither");
    // The runs' counts add up to the GPU's, and the SMs' too.
    assert_eq!(ccws.kernels.iter().map(|k| k.gated_loads).sum::<u64>(), ccws.gated_loads);
    assert_eq!(ccws.sms.iter().map(|s| s.gated_loads).sum::<u64>(), ccws.gated_loads);
    assert_eq!(ccws.sms.iter().map(|s| s.victim_tag_hits).sum::<u64>(), ccws.victim_tag_hits);
    let per_kilo = Metric::GatedLoadsPerKilo.measure(&ccws).expect("measurable");
    assert_eq!(per_kilo, 1000.0 * ccws.gated_loads as f64 / ccws.warp_instructions as f64);
}

#[test]
fn on_a_streaming_kernel_ccws_gates_nothing_and_runs_as_gto() {
    let (gto, ccws) = (run(STREAM, "gto"), run(STREAM, "ccws"));
    assert_eq!((ccws.gated_loads, ccws.victim_tag_hits), (0, 0));
    assert_eq!(ccws, gto, "the whole report");
}

#[test]
fn its_state_is_readable_for_a_view() {
    let mut sim = simulation(KEYS, "ccws", true);
    assert_eq!(sim.step_until(20_000), StepOutcome::BudgetSpent);
    let Some(WarpPolicy::Ccws(policy)) = sim.warp_policy(0) else { panic!("a CCWS policy on SM 0") };
    let state = policy.state(sim.cycle());
    assert_eq!(state.warps.len(), 32);
    assert_eq!(state.cutoff, 100 * state.warps.iter().filter(|w| w.live).count() as u64);
    assert!(state.warps.iter().all(|w| w.score >= 100 || !w.live));
    assert!(state.victim_tag_hits > 0);
    assert!(sim.warp_policy(1).is_none());
}

#[test]
fn skipping_idle_cycles_changes_nothing_under_ccws() {
    for spec in ["ccws", "ccws:straddler_allowed=0,decay_clamps_to_llds=0,counter_scope=1", "ccws:k_throttle=64"] {
        let report = |skip_idle| {
            let mut sim = simulation(KEYS, spec, skip_idle);
            assert_eq!(sim.run(), StepOutcome::Finished);
            serde_json::to_string(&sim.report()).expect("encodes")
        };
        assert!(report(true) == report(false), "{spec}");
    }
}

#[test]
fn snapshots_carry_its_scores_as_its_state_gives_them_and_other_policies_none() {
    let mut sim = simulation(KEYS, "ccws", true);
    let mut seen_throttled = false;
    for cycle in (0..=60_000).step_by(1_500) {
        if sim.step_until(cycle) == StepOutcome::Finished {
            break;
        }
        let snapshot = sim.snapshot(0);
        let Some(WarpPolicy::Ccws(policy)) = sim.warp_policy(0) else { panic!("a CCWS policy on SM 0") };
        let state = policy.state(sim.cycle());
        let scores = snapshot.warp_scores.expect("CCWS snapshots carry its scores");
        assert_eq!(scores.live, state.warps.iter().map(|w| w.live).collect::<Vec<_>>(), "cycle {cycle}");
        assert_eq!(scores.score, state.warps.iter().map(|w| w.score).collect::<Vec<_>>(), "cycle {cycle}");
        assert_eq!(scores.may_load, state.warps.iter().map(|w| w.allowed).collect::<Vec<_>>(), "cycle {cycle}");
        assert_eq!(
            (scores.cutoff, scores.detection_score, scores.detections),
            (state.cutoff, state.llds, state.victim_tag_hits),
            "cycle {cycle}"
        );
        assert_eq!(scores.score.len(), snapshot.warps_per_sm as usize);
        seen_throttled |= scores.loading_warps() < scores.live_warps();
    }
    assert!(seen_throttled, "some snapshot shows warps held back");

    // Other policies' snapshots carry nothing, and serialise exactly as before the field.
    let mut gto = simulation(KEYS, "gto", true);
    gto.step_until(5_000);
    let snapshot = gto.snapshot(0);
    assert_eq!(snapshot.warp_scores, None);
    let json = serde_json::to_string(&snapshot).expect("encodes");
    assert!(!json.contains("warp_scores"), "no key for the empty option");
    let back: warpscope_core::stats::Snapshot = serde_json::from_str(&json).expect("decodes");
    assert_eq!(back, snapshot);
}
