//! Snapshots of the machine for playback: warp states against kernels whose timing is known by
//! hand, per-line L1 counts against hand counts and the report's totals, resident blocks
//! against the report's block records, and proof that taking snapshots (or landing on cycles
//! the engine would skip) changes no result.

use std::collections::BTreeSet;

use warpscope_core::config::{presets, GpuConfig, SetIndex, TbDispatchRate};
use warpscope_core::isa::builder::KernelBuilder;
use warpscope_core::isa::{AluOp, Axis, CmpOp, CmpType, Dim3, Kernel, Operand, Space, Special};
use warpscope_core::stats::snapshot::NONE;
use warpscope_core::stats::{Report, Snapshot, WarpState};
use warpscope_core::workload::{Arg, BufferInit, BufferSpec, ElemType, LaunchSpec, Workload};
use warpscope_core::{bench, Policies, RunOptions, Simulation, StepOutcome};

/// One scheduler per SM, ALU latency 4 issuing every cycle, a linearly indexed L1 of whole
/// 128 B lines (32 sets × 4 ways).
fn machine(sms: u32) -> GpuConfig {
    let mut c = presets::fermi_gtx480();
    c.core.sm_count = sms;
    c.core.schedulers_per_sm = 1;
    c.core.tb_dispatch = TbDispatchRate::OnePerSmPerCycle;
    c.pipeline.alu.latency = 4;
    c.pipeline.alu.interval = 1;
    c.l1.index = SetIndex::Linear;
    c.l1.sector_bytes = 128;
    c
}

fn one_launch(kernel: Kernel, grid: u32, block: u32, init: BufferInit) -> Workload {
    Workload {
        kernels: vec![kernel],
        buffers: vec![BufferSpec { name: "data".into(), words: 1024, init, elem: ElemType::Int }],
        launches: vec![LaunchSpec {
            kernel: 0,
            grid: Dim3::linear(grid),
            block: Dim3::linear(block),
            args: vec![Arg::Buffer(0)],
            stream: 0,
            dynamic_shared: 0,
        }],
        parts: Vec::new(),
        copies: Vec::new(),
    }
}

fn simulation(config: GpuConfig, workload: Workload, options: RunOptions) -> Simulation {
    Simulation::new(config, workload, &Policies::default(), options).expect("valid setup")
}

/// Runs to the end, taking a snapshot of `l1_sm` at cycle 0, at every cycle the clock lands
/// on when stepping `every` cycles at a time with [`Simulation::step_until`], and at the end.
fn run_with_snapshots(sim: &mut Simulation, every: u64, l1_sm: usize) -> Vec<Snapshot> {
    let mut snapshots = vec![sim.snapshot(l1_sm)];
    loop {
        let outcome = sim.step_until(sim.cycle() + every);
        snapshots.push(sim.snapshot(l1_sm));
        match outcome {
            StepOutcome::BudgetSpent => {}
            StepOutcome::Finished => return snapshots,
            other => panic!("the run stopped: {other}"),
        }
    }
}

const CHAIN: u64 = 40;

/// Warp 0 of the block runs `CHAIN` dependent adds, then every warp meets at a barrier.
fn chain_then_barrier() -> Kernel {
    let mut b = KernelBuilder::new("chain_then_barrier", 1);
    let (tid, short, x) = (b.reg(), b.reg(), b.reg());
    let meet = b.label();
    b.special(tid, Special::ThreadIdx(Axis::X));
    b.cmp(CmpOp::Lt, CmpType::Int, short, tid, Operand::Imm(32)).branch_if(short, true, meet, meet);
    b.mov(x, Operand::Imm(1));
    for _ in 0..CHAIN {
        b.alu(AluOp::Add, x, x, Operand::Imm(1));
    }
    b.place(meet).barrier().exit();
    b.build()
}

#[test]
fn warps_wait_at_the_barrier_while_one_warp_runs_a_dependent_chain() {
    let mut sim =
        simulation(machine(1), one_launch(chain_then_barrier(), 1, 128, BufferInit::Zeros), RunOptions::default());
    let snapshots = run_with_snapshots(&mut sim, 1, 0);
    let report = sim.report();
    let warps_per_sm = snapshots[0].warps_per_sm as usize;
    // The three short warps need a handful of instructions to reach the barrier; warp 0 needs
    // more than 4 cycles per add of its chain.
    let chain = 20..=4 * CHAIN - 1;
    let (mut issued, mut ready) = (0, 0);
    for s in snapshots.iter().filter(|s| chain.contains(&s.cycle)) {
        for slot in 1..4 {
            assert_eq!(s.warp(0, slot), WarpState::Barrier, "warp {slot} at cycle {}", s.cycle);
        }
        let state = s.warp(0, 0);
        assert!(
            matches!(state, WarpState::Issued | WarpState::Dependency | WarpState::Ready),
            "warp 0 at cycle {}: {state:?}",
            s.cycle
        );
        issued += (state == WarpState::Issued) as u64;
        ready += (state == WarpState::Ready) as u64;
        for slot in 0..4 {
            assert_eq!((s.warp_run[slot], s.warp_block[slot]), (0, 0));
        }
        for slot in 4..warps_per_sm {
            assert_eq!((s.warp(0, slot), s.warp_run[slot], s.warp_block[slot]), (WarpState::Empty, NONE, NONE));
        }
    }
    // Each add waits 4 cycles for the previous one: after it issues in cycle t, the warp shows
    // Issued at t + 1, waits at t + 2 and t + 3, and is Ready at t + 4 (it issues in that cycle).
    let cycles = chain.end() - chain.start() + 1;
    assert_eq!((issued, ready), (cycles / 4, cycles / 4));
    // Short warps: special, cmp, branch, barrier, exit. Warp 0 also runs mov and the chain.
    assert_eq!(report.warp_instructions, 3 * 5 + (5 + 1 + CHAIN));
}

#[test]
fn a_line_loaded_again_and_again_counts_its_hits_and_one_allocation() {
    // One warp loads word 0 of the buffer `LOADS` times; each load's address depends on the
    // previous load's value (zero), so every load after the first finds the line filled.
    const LOADS: u32 = 12;
    let mut b = KernelBuilder::new("reload", 1);
    let (x, addr) = (b.reg(), b.reg());
    let base = b.param(0);
    b.mov(addr, base);
    for _ in 0..LOADS {
        b.load(Space::Global, x, addr, 0).alu(AluOp::Add, addr, base, x);
    }
    b.exit();
    let mut sim = simulation(machine(1), one_launch(b.build(), 1, 32, BufferInit::Zeros), RunOptions::default());
    let set = (sim.regions()[0].base / 128 % 32) as usize;
    let snapshots = run_with_snapshots(&mut sim, 7, 0);
    // The warp spends most of its time waiting for the first load, which misses to DRAM.
    let waiting = snapshots.iter().filter(|s| s.warp(0, 0) == WarpState::Memory).count() as u64;
    assert!(waiting * 7 >= 100, "waited about {} cycles on memory", waiting * 7);
    let ways = snapshots[0].l1_ways as usize;
    assert_eq!((snapshots[0].l1_sets, ways), (32, 4));
    let mut hits = vec![0u64; 32 * ways];
    let mut fills = vec![0u64; 32 * ways];
    for s in &snapshots {
        for (i, (&h, &f)) in s.l1_hits_since.iter().zip(&s.l1_fills_since).enumerate() {
            hits[i] += h as u64;
            fills[i] += f as u64;
        }
    }
    // The empty set fills its first way.
    let line = set * ways;
    assert_eq!((hits[line], fills[line]), (LOADS as u64 - 1, 1));
    assert_eq!(hits.iter().sum::<u64>(), LOADS as u64 - 1, "no other line is hit");
    assert_eq!(fills.iter().sum::<u64>(), 1);
    let last = snapshots.last().unwrap();
    let owned: Vec<(usize, u32)> =
        last.l1_owner.iter().enumerate().filter(|(_, &o)| o != NONE).map(|(i, &o)| (i, o)).collect();
    assert_eq!(owned, [(line, 0)], "warp slot 0 filled the line");
    let report = sim.report();
    assert_eq!((report.l1.hits, report.l1.misses), (LOADS as u64 - 1, 1));
}

#[test]
fn per_line_counts_add_up_to_the_sms_l1_counters() {
    // The pointer-chasing benchmark: many warps per SM missing and hitting, across several SMs.
    for l1_sm in [0, 3] {
        let w = bench::pointer_chase(1024, 8, 1 << 15).workload;
        let mut sim = simulation(presets::fermi_gtx480(), w, RunOptions::default());
        let snapshots = run_with_snapshots(&mut sim, 50, l1_sm);
        let report = sim.report();
        let l1 = &report.sms[l1_sm].l1;
        let sum = |f: fn(&Snapshot) -> &Vec<u32>| snapshots.iter().flat_map(f).map(|&n| n as u64).sum::<u64>();
        assert!(l1.hits > 0 && l1.misses > 0, "the workload exercises the L1");
        assert_eq!(sum(|s| &s.l1_hits_since), l1.hits);
        assert_eq!(sum(|s| &s.l1_fills_since), l1.misses);
        assert!(snapshots.iter().all(|s| s.l1_sm == l1_sm as u32));
    }
}

#[test]
fn resident_blocks_are_those_the_report_records_as_alive() {
    // More blocks than fit at once on two SMs, of uneven length: blocks retire and others
    // take their slots while the run goes on.
    let w = bench::pointer_chase(4096, 4, 1 << 14).workload;
    let mut sim = simulation(machine(2), w, RunOptions::default());
    let snapshots = run_with_snapshots(&mut sim, 3, 0);
    let report = sim.report();
    assert_eq!(
        report.blocks.len(),
        16,
        "4096 threads in blocks of 256; six blocks of eight warps fit on an SM at once"
    );
    for s in &snapshots {
        let mut seen = BTreeSet::new();
        let per_sm = s.warps_per_sm as usize;
        for (i, &state) in s.warp_state.iter().enumerate() {
            let empty = state == WarpState::Empty as u8;
            assert_eq!(empty, s.warp_run[i] == NONE, "slot {i} at cycle {}", s.cycle);
            assert_eq!(empty, s.warp_block[i] == NONE);
            if !empty {
                seen.insert((s.warp_run[i], s.warp_block[i], (i / per_sm) as u32));
            }
        }
        // A block admitted in cycle `start` is there from the next cycle on; its last warp
        // exits in cycle `end`, so it is gone from `end + 1`.
        let alive: BTreeSet<_> = report
            .blocks
            .iter()
            .filter(|b| b.start < s.cycle && s.cycle <= b.end)
            .map(|b| (b.kernel, b.block, b.sm))
            .collect();
        assert_eq!(seen, alive, "cycle {}", s.cycle);
    }
}

#[test]
fn after_the_run_every_slot_is_empty_and_the_totals_are_the_reports() {
    let w = bench::pointer_chase(512, 8, 1 << 14).workload;
    let mut sim = simulation(presets::fermi_gtx480(), w, RunOptions::default());
    assert_eq!(sim.run(), StepOutcome::Finished);
    let s = sim.snapshot(usize::MAX);
    let report = sim.report();
    let config = presets::fermi_gtx480();
    assert_eq!(s.cycle, report.cycles);
    assert_eq!(s.sm_count(), config.core.sm_count as usize);
    assert_eq!(s.warp_state.len(), (config.core.sm_count * config.core.max_warps_per_sm) as usize);
    assert!(s.warp_state.iter().all(|&c| c == WarpState::Empty as u8));
    assert!(s.warp_run.iter().chain(&s.warp_block).all(|&id| id == NONE));
    assert_eq!(s.l1_sm, config.core.sm_count - 1, "an SM beyond the last is clamped");
    assert_eq!(s.l1_owner.len(), (s.l1_sets * s.l1_ways) as usize);
    assert_eq!(s.warp_instructions, report.warp_instructions);
    assert_eq!((s.l1_hits, s.l1_misses), (report.l1.hits, report.l1.misses + report.l1.sector_misses));
    assert_eq!((s.l2_hits, s.l2_misses), (report.l2.hits, report.l2.misses));
    assert_eq!(s.blocks_finished, report.blocks_finished);
    assert_eq!(report.blocks.len() as u64, report.blocks_finished, "a small grid keeps every record");
}

#[test]
fn snapshots_and_exact_landings_change_no_result() {
    for w in [bench::pointer_chase(1024, 8, 1 << 15).workload, bench::streaming(1 << 14).workload] {
        let plain = {
            let mut sim = simulation(presets::fermi_gtx480(), w.clone(), RunOptions::default());
            assert_eq!(sim.run(), StepOutcome::Finished);
            sim.report()
        };
        for every in [1, 7, 1000] {
            let mut sim = simulation(presets::fermi_gtx480(), w.clone(), RunOptions::default());
            run_with_snapshots(&mut sim, every, 1);
            assert_eq!(sim.report(), plain, "snapshots every {every} cycles");
        }
    }
}

/// Warp states, resident blocks, totals and line counts at every cycle, with idle cycles
/// skipped (landing on each) and simulated one by one.
fn every_cycle(w: &Workload, skip_idle: bool) -> (Vec<Snapshot>, Report) {
    let options = RunOptions { skip_idle, ..RunOptions::default() };
    let mut sim = simulation(presets::fermi_gtx480(), w.clone(), options);
    let snapshots = run_with_snapshots(&mut sim, 1, 2);
    (snapshots, sim.report())
}

#[test]
fn skipping_idle_cycles_does_not_change_what_a_snapshot_shows() {
    let w = bench::pointer_chase(2048, 4, 1 << 14).workload;
    let (skipping, report) = every_cycle(&w, true);
    let (plain, plain_report) = every_cycle(&w, false);
    assert_eq!(report, plain_report);
    assert_eq!(skipping.len(), plain.len());
    for (a, b) in skipping.iter().zip(&plain) {
        assert_eq!(a, b, "cycle {}", a.cycle);
    }
    let states: BTreeSet<u8> = skipping.iter().flat_map(|s| s.warp_state.iter().copied()).collect();
    use WarpState::*;
    for state in [Empty, Issued, Ready, Memory, Dependency, Done] {
        assert!(states.contains(&(state as u8)), "{state:?} appears");
    }
}
