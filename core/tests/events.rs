//! The SM event stream: its order and content on a two-warp eviction worked by hand, and the
//! same recorded stream whether idle cycles are skipped or not.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::events::{SmEvent, Stamped};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::mem::l1::FailReason;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// Two warps of one block each load one line: warp 0 line 0 (words 0–31), warp 1 line 1
/// (words 32–63). Nothing is stored: the data are 0..63, never −1.
const TWO_WARPS: &str = "
    __global__ void two(const int* data, int* out) {
        int i = threadIdx.x;
        int v = data[i];
        if (v == -1) out[i] = v;
    }
    host { int data[64] = iota(); int out[64]; two<<<1, 64>>>(data, out); }";

/// One SM, one scheduler, and an L1 of a single 128-byte line.
fn one_line_l1() -> GpuConfig {
    let mut c = presets::fermi_gtx480();
    c.core.sm_count = 1;
    c.core.schedulers_per_sm = 1;
    c.l1.size_bytes = 128;
    c.l1.ways = 1;
    c.l1.index = warpscope_core::config::SetIndex::Linear;
    c
}

fn record(config: GpuConfig, skip_idle: bool) -> (Vec<Stamped>, u64) {
    let program =
        compile(TWO_WARPS, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let options = RunOptions { skip_idle, record: true, ..RunOptions::default() };
    let mut sim = Simulation::new(config, program.workload, &Policies::default(), options).unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    (sim.recorded(0).to_vec(), sim.report().l1.fail_line_alloc)
}

#[test]
fn a_two_warp_eviction_reads_in_order() {
    let (events, fails) = record(one_line_l1(), true);
    // The buffer `data` starts on line 2: warp 0 reads line 2, warp 1 line 3.
    let (a, b) = (2, 3);
    let at = |wanted: SmEvent| events.iter().find(|e| e.event == wanted).unwrap_or_else(|| panic!("{wanted:?}")).cycle;
    let miss_a = at(SmEvent::Miss { slot: 0, kernel: 0, line: a });
    let fill_a = at(SmEvent::Fill { line: a });
    // While line a is fetched the L1's only way is reserved: warp 1's request for line b fails
    // every cycle from the one after warp 0's miss up to the fill, one attempt each (the stream
    // is recorded, so the LSU retries rather than waits).
    let failures: Vec<&Stamped> =
        events.iter().filter(|e| matches!(e.event, SmEvent::ReservationFail { .. })).collect();
    assert_eq!(failures.len() as u64, fails, "every failed attempt, as the report counts them");
    for (k, f) in failures.iter().enumerate() {
        let expected =
            SmEvent::ReservationFail { slot: 1, kernel: 0, line: b, cause: FailReason::LineAlloc, attempts: 1 };
        assert_eq!((f.cycle, f.event), (miss_a + 1 + k as u64, expected));
    }
    assert_eq!(miss_a + 1 + fails, fill_a, "the failures end when the fill frees the way");
    // The rest, in order: the fill answers warp 0, warp 1's retry misses and evicts warp 0's
    // line in the same cycle, warp 0 exits, line b arrives after the same round trip, warp 1
    // exits and with it the kernel.
    let rest: Vec<SmEvent> =
        events.iter().map(|e| e.event).filter(|e| !matches!(e, SmEvent::ReservationFail { .. })).collect();
    let fill_b = fill_a + (fill_a - miss_a);
    assert_eq!(
        rest,
        [
            SmEvent::KernelStart { kernel: 0 },
            SmEvent::WarpAdmit { slot: 0, kernel: 0 },
            SmEvent::WarpAdmit { slot: 1, kernel: 0 },
            SmEvent::Miss { slot: 0, kernel: 0, line: a },
            SmEvent::Fill { line: a },
            SmEvent::LoadComplete { slot: 0, at: fill_a },
            SmEvent::Miss { slot: 1, kernel: 0, line: b },
            SmEvent::Eviction { line: a, owner: 0, by: 1 },
            SmEvent::WarpExit { slot: 0, kernel: 0 },
            SmEvent::Fill { line: b },
            SmEvent::LoadComplete { slot: 1, at: fill_b },
            SmEvent::WarpExit { slot: 1, kernel: 0 },
            SmEvent::KernelEnd { kernel: 0 },
        ]
    );
    assert_eq!(at(SmEvent::Miss { slot: 1, kernel: 0, line: b }), fill_a);
    assert_eq!(at(SmEvent::Eviction { line: a, owner: 0, by: 1 }), fill_a);
    assert_eq!(at(SmEvent::Fill { line: b }), fill_b, "line b's fetch takes what line a's took");
}

#[test]
fn the_recorded_stream_is_the_same_with_or_without_skipping_idle_cycles() {
    let fast = record(one_line_l1(), true);
    let reference = record(one_line_l1(), false);
    assert_eq!(fast, reference);
    // A larger run: every library-sized concurrency and divergence the recorder sees.
    let entry = warpscope_core::library::by_id("pair-compute-memory").unwrap();
    let mut config = presets::cke_maxwell();
    config.core.sm_count = 2;
    let run = |skip_idle| {
        let defines = [entry.size_define(entry.size.min)];
        let program =
            compile(entry.source, &CompileOptions { config: &config, defines: &defines, optimize: true }).unwrap();
        let options = RunOptions { skip_idle, record: true, ..RunOptions::default() };
        let mut sim = Simulation::new(config.clone(), program.workload, &Policies::default(), options).unwrap();
        assert_eq!(sim.run(), StepOutcome::Finished);
        (sim.recorded(0).to_vec(), sim.recorded(1).to_vec(), serde_json::to_string(&sim.report()).unwrap())
    };
    let (a, b) = (run(true), run(false));
    assert!(a.0.len() > 1000, "a real stream");
    assert!(a == b);
    // Recording changes no result.
    let program = compile(
        entry.source,
        &CompileOptions { config: &config, defines: &[entry.size_define(entry.size.min)], optimize: true },
    )
    .unwrap();
    let mut plain =
        Simulation::new(config.clone(), program.workload, &Policies::default(), RunOptions::default()).unwrap();
    assert_eq!(plain.run(), StepOutcome::Finished);
    assert!(serde_json::to_string(&plain.report()).unwrap() == a.2);
}
