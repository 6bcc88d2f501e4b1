//! The IKRA thread-block schedulers in the engine (`ikra.md` §1.2–1.5), on the library's
//! `stencil` (one 2-D grid launched ten times, in/out arrays swapped) on the paper's 15-SM
//! machine: where each block ran, read back from the report's block records, against what each
//! policy promises; and every schedule computes the same result as round-robin's.

use std::collections::BTreeMap;

use warpscope_core::config::presets;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::stats::{Report, Snapshot};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// 32 blocks a launch (N = 128: 4 × 8 tiles): more than the 15 SMs, not a multiple of them.
const N: u32 = 128;

/// The report and the final grid of stencil under TB policy `tb`.
fn run(tb: &str) -> (Report, Vec<u32>) {
    let config = presets::ikra_denovo();
    let entry = library::by_id("stencil").expect("in the library");
    let defines = [("N".to_string(), N.to_string())];
    let program = compile(entry.source, &CompileOptions { config: &config, defines: &defines, optimize: true })
        .expect("compiles");
    let policies = Policies { tb: tb.into(), warp: "gto".into() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    let grids: Vec<u32> = (0..2).flat_map(|b| sim.buffer(b).to_vec()).collect();
    (sim.report(), grids)
}

/// For each kernel run, each SM's blocks in the order they started.
fn per_sm(report: &Report) -> BTreeMap<(u32, u32), Vec<u32>> {
    let mut blocks = report.blocks.clone();
    blocks.sort_by_key(|b| (b.kernel, b.sm, b.start, b.block));
    let mut out: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    for b in blocks {
        out.entry((b.kernel, b.sm)).or_default().push(b.block);
    }
    out
}

fn runs(report: &Report) -> u32 {
    report.kernels.len() as u32
}

#[test]
fn every_schedule_computes_what_round_robin_computes() {
    let (rr, expected) = run("rr");
    for tb in ["chunk", "reset", "flip", "steal"] {
        let (report, grids) = run(tb);
        assert!(grids == expected, "{tb} computes the same grid");
        assert_eq!(report.blocks_finished, rr.blocks_finished, "{tb}");
    }
}

#[test]
fn chunk_runs_one_contiguous_range_per_sm_starting_after_the_last_sm_served() {
    let (report, _) = run("chunk");
    let per_sm = per_sm(&report);
    let mut first_sms = Vec::new();
    for kernel in 0..runs(&report) {
        let mut ranges: Vec<(u32, u32, u32)> = Vec::new();
        for sm in 0..15 {
            let blocks = &per_sm[&(kernel, sm)];
            assert!(blocks.windows(2).all(|w| w[1] == w[0] + 1), "kernel {kernel} SM {sm}: {blocks:?}");
            ranges.push((blocks[0], sm, blocks.len() as u32));
        }
        ranges.sort();
        // 32 blocks on 15 SMs: the first 2 chunks in assignment order have 3 blocks, the rest 2.
        let sizes: Vec<u32> = ranges.iter().map(|r| r.2).collect();
        assert_eq!(sizes, [3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], "kernel {kernel}");
        first_sms.push(ranges[0].1);
    }
    // The assignment rotates: the next kernel's block 0 goes to the SM after the one that
    // received the previous kernel's last block, which is never the same SM as before.
    assert!(first_sms.windows(2).all(|w| w[0] != w[1]), "{first_sms:?}");
}

#[test]
fn reset_runs_block_i_on_the_same_sm_in_every_kernel() {
    let (report, _) = run("reset");
    let mut home: BTreeMap<u32, u32> = BTreeMap::new();
    for b in &report.blocks {
        let sm = *home.entry(b.block).or_insert(b.sm);
        assert_eq!(sm, b.sm, "block {} of run {}", b.block, b.kernel);
    }
    // Chunk j on SM j: SM 0 has blocks 0–2, SM 2 blocks 6 and 7.
    assert_eq!((&per_sm(&report)[&(0, 0)], &per_sm(&report)[&(0, 2)]), (&vec![0, 1, 2], &vec![6, 7]));
}

#[test]
fn flip_reverses_every_chunk_at_every_launch() {
    let (reset, _) = run("reset");
    let (flip, _) = run("flip");
    let (forward, flipped) = (per_sm(&reset), per_sm(&flip));
    for (&(kernel, sm), order) in &flipped {
        let mut expected = forward[&(kernel, sm)].clone();
        if kernel % 2 == 1 {
            expected.reverse();
        }
        assert_eq!(*order, expected, "kernel {kernel} SM {sm}");
    }
}

#[test]
fn with_nothing_to_steal_steal_is_flip() {
    // Stencil's 32 blocks all fit at once (8 slots an SM), so no block waits to be stolen and
    // Steal runs each chunk exactly as Flip does.
    let (flip, _) = run("flip");
    let (steal, _) = run("steal");
    assert_eq!(per_sm(&steal), per_sm(&flip));
}

/// Unequal work clustered at low block ids (the paper's Work-Stealing microbenchmark, §3.1):
/// 60 blocks of one warp, the first 15 looping 40 times, the rest 2 times, launched 6 times on
/// the same data. 16 KB of shared memory a block leaves room for one block per SM, so blocks
/// wait to be dispatched and there is something to steal.
const UNBALANCED: &str = "
__global__ void work(float* a) {
    __shared__ float pad[4096];
    int i = blockIdx.x * 32 + threadIdx.x;
    pad[threadIdx.x] = a[i];
    int turns = blockIdx.x < 15 ? 40 : 2;
    for (int t = 0; t < turns; t++) {
        a[i] = a[i] * 0.5f + pad[threadIdx.x];
    }
}
host {
    float a[1920] = iota();
    for (int k = 0; k < 6; k++) {
        work<<<60, 32>>>(a);
    }
}
";

fn unbalanced(tb: &str) -> (Report, Vec<u32>) {
    let config = presets::ikra_denovo();
    let program =
        compile(UNBALANCED, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { tb: tb.into(), warp: "gto".into() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    let a = sim.buffer(0).to_vec();
    (sim.report(), a)
}

#[test]
fn on_unequal_work_steal_balances_what_static_chunks_cannot_and_its_steals_settle() {
    let (reset, expected) = unbalanced("reset");
    let (steal, a) = unbalanced("steal");
    assert!(a == expected, "the same result");
    // Reset's SMs 0–3 hold all 15 heavy blocks (chunks of 4): they run long after the others
    // idle. Steal's idle SMs take the waiting blocks.
    assert!(steal.cycles * 10 < reset.cycles * 9, "steal {} cycles, reset {}", steal.cycles, reset.cycles);
    let per_sm = per_sm(&steal);
    let sm_of = |kernel: u32| -> BTreeMap<u32, u32> {
        per_sm
            .iter()
            .filter(|((k, _), _)| *k == kernel)
            .flat_map(|((_, sm), bs)| bs.iter().map(|&b| (b, *sm)))
            .collect()
    };
    let moved: Vec<usize> = (1..runs(&steal))
        .map(|k| {
            let (before, now) = (sm_of(k - 1), sm_of(k));
            now.iter().filter(|(b, sm)| before[b] != **sm).count()
        })
        .collect();
    // The first kernel's steals stay with their thieves: later launches move fewer blocks.
    assert!(moved[moved.len() - 1] < moved[0], "blocks moving between launches: {moved:?}");
}

/// The snapshots of `UNBALANCED` under `tb`, one every `every` cycles, and the final report.
fn unbalanced_snapshots(tb: &str, every: u64) -> (Vec<Snapshot>, Report) {
    let config = presets::ikra_denovo();
    let program =
        compile(UNBALANCED, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { tb: tb.into(), warp: "gto".into() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).expect("valid");
    let mut snapshots = Vec::new();
    let mut cycle = 0;
    while sim.step_until(cycle) != StepOutcome::Finished {
        snapshots.push(sim.snapshot(0));
        cycle += every;
    }
    snapshots.push(sim.snapshot(0));
    (snapshots, sim.report())
}

#[test]
fn snapshots_picture_the_blocks_still_to_place_as_the_report_later_shows_them_placed() {
    for tb in ["steal", "reset"] {
        let (snapshots, report) = unbalanced_snapshots(tb, 97);
        let (mut stolen_entries, mut mid_run) = (0, 0);
        for s in &snapshots {
            let view = s.chunks.as_ref().unwrap_or_else(|| panic!("{tb} snapshots carry its chunks"));
            let Some(run) = view.run else { continue };
            assert_eq!((view.sms.len(), view.blocks), (15, 60), "{tb}, cycle {}", s.cycle);
            // The blocks of the run placed at or after the snapshot's cycle, read off the
            // report, are exactly the chunks' blocks left and the queue entries still to run.
            let mut unplaced: Vec<u32> =
                report.blocks.iter().filter(|b| b.kernel == run && b.start >= s.cycle).map(|b| b.block).collect();
            unplaced.sort_unstable();
            assert_eq!(view.blocks_to_place(), unplaced, "{tb}, run {run}, cycle {}", s.cycle);
            mid_run += usize::from(!unplaced.is_empty());
            stolen_entries += view.sms.iter().map(|c| c.queue_len).sum::<u32>();
            if tb == "steal" {
                assert_eq!(view.queue_capacity, 32);
            } else {
                assert_eq!((view.queue_capacity, stolen_entries), (0, 0), "Reset keeps no steal queues");
            }
        }
        assert!(mid_run >= 10, "{tb}: only {mid_run} snapshots caught blocks waiting to be placed");
        if tb == "steal" {
            assert!(stolen_entries > 0, "some snapshot shows a stolen block in a steal queue");
        }
    }
    // Round-robin keeps no chunks: its snapshots carry none and serialise as before the field.
    let (snapshots, _) = unbalanced_snapshots("rr", 5_000);
    assert!(snapshots.iter().all(|s| s.chunks.is_none()));
    let json = serde_json::to_string(&snapshots[1]).expect("encodes");
    assert!(!json.contains("chunks"), "no key for the empty option");
}
