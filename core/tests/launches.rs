//! Kernel runs: stream ordering of host launches, and grids launched from the device.
//! Cycle counts come from the dependent-ALU-chain kernel, whose length is known by hand
//! (see `timing.rs`): a block placed at cycle `t` finishes at `t + 1 + 4N + 4`.

use warpscope_core::config::{presets, GpuConfig, InsertSearch, LaunchPath, TbDispatchRate};
use warpscope_core::exec::reference;
use warpscope_core::exec::{FaultKind, LaunchProblem};
use warpscope_core::isa::builder::KernelBuilder;
use warpscope_core::isa::{AluOp, Axis, CmpOp, CmpType, Dim3, Kernel, Operand, Space, Special};
use warpscope_core::stats::Report;
use warpscope_core::workload::{Arg, BufferInit, BufferSpec, ElemType, LaunchSpec, Workload};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

const N: u64 = 10;
/// Cycles from a chain block's placement to its end.
const CHAIN: u64 = 1 + 4 * N + 4;

fn machine(sms: u32) -> GpuConfig {
    let mut c = presets::fermi_gtx480();
    c.core.sm_count = sms;
    c.core.schedulers_per_sm = 1;
    c.core.tb_dispatch = TbDispatchRate::OnePerSmPerCycle;
    c.pipeline.alu.latency = 4;
    c.pipeline.alu.interval = 1;
    c
}

fn chain(name: &str) -> Kernel {
    let mut b = KernelBuilder::new(name, 0);
    let r = b.reg();
    b.mov(r, Operand::Imm(1));
    for _ in 0..N {
        b.alu(AluOp::Add, r, r, Operand::Imm(1));
    }
    b.exit();
    b.build()
}

fn launch(kernel: u32, grid: u32, args: Vec<Arg>, stream: u32) -> LaunchSpec {
    LaunchSpec { kernel, grid: Dim3::linear(grid), block: Dim3::linear(32), args, stream, dynamic_shared: 0 }
}

fn run(config: GpuConfig, w: Workload) -> Report {
    let mut sim = Simulation::new(config, w, &Policies::default(), RunOptions::default()).expect("valid setup");
    assert_eq!(sim.run(), StepOutcome::Finished);
    sim.report()
}

fn chains(streams: &[u32]) -> Report {
    let launches = streams.iter().map(|&s| launch(0, 1, vec![], s)).collect();
    run(
        machine(4),
        Workload { kernels: vec![chain("chain")], buffers: vec![], launches, parts: Vec::new(), copies: Vec::new() },
    )
}

#[test]
fn launches_in_different_streams_run_at_the_same_time() {
    let r = chains(&[1, 2]);
    for k in &r.kernels {
        assert_eq!((k.start_cycle, k.end_cycle), (0, CHAIN));
    }
    assert_eq!((r.kernels[0].stream, r.kernels[1].stream), (1, 2));
    let sms: Vec<u32> = r.blocks.iter().map(|b| b.sm).collect();
    assert_eq!(sms, [0, 1], "round-robin spreads the two kernels' blocks");
    assert_eq!(r.cycles, CHAIN + 1);
}

#[test]
fn launches_in_one_stream_run_one_after_another() {
    for streams in [[0, 0], [3, 3]] {
        let r = chains(&streams);
        assert_eq!((r.kernels[0].start_cycle, r.kernels[0].end_cycle), (0, CHAIN));
        // The next launch starts the cycle after the first one completed.
        assert_eq!((r.kernels[1].start_cycle, r.kernels[1].end_cycle), (CHAIN + 1, 2 * CHAIN + 1), "{streams:?}");
    }
}

#[test]
fn the_default_stream_waits_for_all_streams_and_holds_back_later_ones() {
    // Streams 1 and 2 overlap; the default-stream launch waits for both; stream 1's second
    // launch waits for it.
    let r = chains(&[1, 2, 0, 1]);
    let start: Vec<u64> = r.kernels.iter().map(|k| k.start_cycle).collect();
    assert_eq!(start, [0, 0, CHAIN + 1, 2 * CHAIN + 2]);
}

/// Parent: thread 0 of each block launches `child<<<2, 32>>>(out, blockIdx.x)`.
/// Child: `out[p * 64 + i] = p * 1000 + i` for its global index `i`.
fn parent_and_child() -> Vec<Kernel> {
    let mut p = KernelBuilder::new("parent", 1);
    let out = p.param(0);
    let (t, is_first) = (p.reg(), p.reg());
    let dims = p.regs(6);
    let args = p.regs(2);
    let (skip, join) = (p.label(), p.label());
    p.special(t, Special::ThreadIdx(Axis::X));
    p.cmp(CmpOp::Eq, CmpType::Int, is_first, t, Operand::Imm(0)).branch_if(is_first, true, skip, join);
    for (i, v) in [2, 1, 1, 32, 1, 1].into_iter().enumerate() {
        p.mov(warpscope_core::isa::Reg(dims.0 + i as u8), Operand::Imm(v));
    }
    p.mov(args, out).special(warpscope_core::isa::Reg(args.0 + 1), Special::BlockIdx(Axis::X));
    p.launch(1, dims, args);
    p.place(skip).place(join).exit();

    let mut c = KernelBuilder::new("child", 2);
    let (base, parent) = (c.param(0), c.param(1));
    let (i, tmp, value, addr) = (c.reg(), c.reg(), c.reg(), c.reg());
    c.special(i, Special::BlockIdx(Axis::X)).special(tmp, Special::BlockDim(Axis::X)).alu(AluOp::Mul, i, i, tmp);
    c.special(tmp, Special::ThreadIdx(Axis::X)).alu(AluOp::Add, i, i, tmp);
    c.alu(AluOp::Mul, value, parent, Operand::Imm(1000)).alu(AluOp::Add, value, value, i);
    c.alu(AluOp::Mul, addr, parent, Operand::Imm(64)).alu(AluOp::Add, addr, addr, i);
    c.alu(AluOp::Shl, addr, addr, Operand::Imm(2)).alu(AluOp::Add, addr, addr, base);
    c.store(Space::Global, addr, 0, value).exit();
    vec![p.build(), c.build()]
}

fn dp_workload(parents: u32) -> Workload {
    Workload {
        kernels: [parent_and_child(), vec![chain("after")]].concat(),
        buffers: vec![BufferSpec {
            name: "out".into(),
            words: parents * 64,
            init: BufferInit::Zeros,
            elem: ElemType::Int,
        }],
        launches: vec![launch(0, parents, vec![Arg::Buffer(0)], 0), launch(2, 1, vec![], 0)],
        parts: Vec::new(),
        copies: Vec::new(),
    }
}

#[test]
fn device_launches_compute_what_the_reference_computes() {
    let w = dp_workload(3);
    let mut sim = Simulation::new(machine(4), w.clone(), &Policies::default(), RunOptions::default()).unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    let expected: Vec<u32> = (0..3).flat_map(|p| (0..64).map(move |i| p * 1000 + i)).collect();
    assert_eq!(sim.buffer(0), expected.as_slice());
    let reference = reference::run_workload(&w, 32, 1 << 20).unwrap();
    assert_eq!(reference.memory.words(reference.regions[0]), expected.as_slice());
    assert_eq!(reference.device_launches, 3);

    let r = sim.report();
    let names: Vec<&str> = r.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["parent", "child", "child", "child", "after"]);
    for child in &r.kernels[1..4] {
        assert_eq!((child.parent, child.depth, child.blocks), (Some(0), 1, 2));
        assert!(child.start_cycle >= r.kernels[0].start_cycle + 500, "a child waits out the launch latency");
    }
    // The next default-stream launch waits for the whole tree, not just the parent's blocks.
    let last_child_end = r.kernels[1..4].iter().map(|k| k.end_cycle).max().unwrap();
    assert!(r.kernels[0].end_cycle < r.kernels[1].start_cycle, "parents are done before children start");
    assert_eq!(r.kernels[4].start_cycle, last_child_end + 1);
}

#[test]
fn launch_latency_shifts_the_children_exactly() {
    // The children are the critical path, so each extra cycle of latency delays the end by one.
    let cycles = |latency: u32| {
        let mut c = machine(4);
        c.device_launch.latency = latency;
        let r = run(c, dp_workload(1));
        (r.kernels[1].start_cycle, r.cycles)
    };
    let (start_a, total_a) = cycles(500);
    let (start_b, total_b) = cycles(1234);
    assert_eq!(start_b - start_a, 734);
    assert_eq!(total_b - total_a, 734);
}

#[test]
fn a_device_launch_the_machine_cannot_run_stops_with_a_clear_fault() {
    for (block, problem) in [(0, LaunchProblem::BadDimensions), (4096, LaunchProblem::BlockTooLarge)] {
        let mut w = dp_workload(1);
        for instr in &mut w.kernels[0].code {
            // The fourth dimension move sets block.x.
            if let warpscope_core::isa::Instr::Mov { src: Operand::Imm(v), .. } = instr {
                if *v == 32 {
                    *v = block;
                }
            }
        }
        let mut sim = Simulation::new(machine(2), w, &Policies::default(), RunOptions::default()).unwrap();
        match sim.run() {
            StepOutcome::Fault { kernel, fault, .. } => {
                assert_eq!(kernel, "parent");
                assert_eq!(fault.kind, FaultKind::BadLaunch { kernel: 1, problem });
                assert_eq!(fault.lane, 0);
            }
            other => panic!("expected a fault, got {other:?}"),
        }
    }
}

#[test]
fn a_grid_larger_than_the_report_keeps_has_its_records_thinned_evenly() {
    use warpscope_core::stats::MAX_BLOCK_RECORDS;
    let mut b = KernelBuilder::new("empty", 0);
    b.exit();
    // 2^18 + 3 blocks: the smallest power-of-two stride that fits ceil(N / stride) records in
    // 2^16 is 8 (at 4 it would take 65 537), so 32 769 records are kept.
    let blocks = (1u32 << 18) + 3;
    assert_eq!(MAX_BLOCK_RECORDS, 1 << 16, "the arithmetic above assumes the limit");
    let w = Workload {
        kernels: vec![b.build()],
        buffers: vec![],
        launches: vec![launch(0, blocks, vec![], 0)],
        parts: Vec::new(),
        copies: Vec::new(),
    };
    let r = run(machine(16), w);
    assert_eq!((r.blocks_finished, r.block_record_stride, r.blocks.len()), (blocks as u64, 8, 32_769));
    let mut seen: Vec<u32> = r.blocks.iter().map(|b| b.block).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), r.blocks.len(), "each kept record is a different block");
    assert!(r.blocks.iter().all(|b| b.block < blocks && b.start < b.end));
    let last = r.blocks.iter().map(|b| b.end).max();
    assert!(last.is_some_and(|end| end * 50 > r.cycles * 49), "the records reach the run's end, not only its start");
}

#[test]
fn progress_counts_the_child_grids_a_launch_is_waiting_for() {
    // Host launch 0 is one parent block whose first thread launches a child grid of 2 blocks;
    // launch 1 waits for that whole tree. When the child grid starts, the parent's block is
    // the only one of the tree's 3 that has finished: launch 0 is a third done, launch 1 not
    // started, so the sequence is (1/3) / 2 = 1/6 done, not the 1/2 that counting the
    // parent's grid alone would give.
    let mut sim = Simulation::new(machine(4), dp_workload(1), &Policies::default(), RunOptions::default()).unwrap();
    let child_start = run(machine(4), dp_workload(1)).kernels[1].start_cycle;
    sim.step_until(child_start);
    assert!((sim.progress() - 1.0 / 6.0).abs() < 1e-12, "progress {}", sim.progress());
    assert_eq!(sim.run(), StepOutcome::Finished);
    assert_eq!(sim.progress(), 1.0);
}

/// `parent_and_child` with `tail` dependent adds after the launch, so that the parent's blocks
/// outlive their children's launch.
fn busy_parent_workload(parents: u32, tail: u32) -> Workload {
    let mut w = dp_workload(parents);
    let parent = &mut w.kernels[0];
    let exit = parent.code.pop().expect("the parent ends with its exit");
    let r = warpscope_core::isa::Reg(parent.regs_per_thread as u8);
    parent.regs_per_thread += 1;
    for _ in 0..tail {
        parent.code.push(warpscope_core::isa::Instr::Alu {
            op: AluOp::Add,
            dst: r,
            a: Operand::Reg(r),
            b: Operand::Imm(1),
        });
    }
    parent.code.push(exit);
    w
}

fn with_path(path: LaunchPath) -> GpuConfig {
    let mut c = machine(4);
    c.device_launch.path = path;
    c
}

#[test]
fn a_cdp_launch_stalls_its_warp_in_the_runtime_and_reaches_the_dispatcher_after_it() {
    // The same parent under the idealised path shows when the launch instruction issued: its
    // child starts `latency` = 500 cycles later.
    let fixed = run(machine(4), dp_workload(1));
    let issued = fixed.kernels[1].start_cycle - 500;
    let cdp = run(with_path(LaunchPath::Cdp), dp_workload(1));
    // One launching lane: 7200 + (8000 + 100) + (12000 + 1600) = 28 900 cycles in the runtime,
    // then the kernel launch latency of 100; the KDU has room (the parent holds one entry).
    assert_eq!(cdp.kernels[1].start_cycle, issued + 28_900 + 100);
    // The parent's warp waits out the runtime's calls before its exit.
    let parent_end = cdp.kernels[0].end_cycle;
    assert!((issued + 28_900..issued + 28_950).contains(&parent_end), "parent ends at {parent_end}");
    assert!(fixed.kernels[0].end_cycle < issued + 100, "the idealised launch does not stall");
    // Its scheduler, with no other warp, stalls in the launch call from the cycle after the
    // launch until the one before the stall ends; nothing stalls so on the idealised path.
    assert_eq!(cdp.stalls.device_launch, 28_899);
    assert_eq!(fixed.stalls.device_launch, 0);
    let s = cdp.launches;
    // The parent's block is done before its child arrives, so they never hold the KDU together.
    assert_eq!((s.device_launches, s.new_kernels, s.launch_stall_cycles, s.kdu_peak), (1, 1, 28_900, 1));
    assert_eq!(s.launch_to_dispatch_max, 29_000);
    // Scaled to a quarter, the stall is 7 225 cycles.
    let mut quarter = with_path(LaunchPath::Cdp);
    quarter.device_launch.cdp_latency_percent = 25;
    assert_eq!(run(quarter, dp_workload(1)).kernels[1].start_cycle, issued + 7_225 + 100);
}

#[test]
fn a_full_kdu_hides_a_second_child_kernel_until_the_first_one_completes() {
    // laperm.md §10.4: two parent blocks launch a child kernel each, in the same cycle; with
    // two KDU entries (the parent holds one, and keeps it while its blocks run on) the second
    // child waits in the KMU until every block of the first has completed, under every policy;
    // with three entries both start together.
    use warpscope_core::sched::tb::TB_POLICIES;
    for info in TB_POLICIES {
        let children = |entries: u32| {
            let mut c = with_path(LaunchPath::Cdp);
            c.device_launch.cdp_latency_percent = 0;
            c.device_launch.kdu_entries = entries;
            let policies = Policies { tb: info.id.into(), warp: "gto".into() };
            let mut sim = Simulation::new(c, busy_parent_workload(2, 200), &policies, RunOptions::default()).unwrap();
            assert_eq!(sim.run(), StepOutcome::Finished, "{}", info.id);
            let r = sim.report();
            assert!(r.kernels[0].end_cycle > r.kernels[2].end_cycle, "{}: the parent outlives both", info.id);
            (r.kernels[1].clone(), r.kernels[2].clone(), r.launches)
        };
        // LaPerm's KMU searches its L = 4 levels, one a cycle, before a kernel takes its entry.
        let search = if ["tb-pri", "smx-bind", "adaptive-bind"].contains(&info.id) { 4 } else { 0 };
        let (first, second, stats) = children(2);
        assert_eq!(second.start_cycle, first.end_cycle + 1 + search, "{}", info.id);
        // Both children pass through the KMU; the second waits there.
        assert_eq!((stats.kdu_peak, stats.kmu_peak, stats.kmu_waits), (2, 1, 2), "{}", info.id);
        let (first, second, stats) = children(3);
        assert_eq!(second.start_cycle, first.start_cycle, "{}", info.id);
        assert_eq!((stats.kdu_peak, stats.kmu_peak), (3, 0), "{}", info.id);
    }
}

#[test]
fn dtbl_groups_join_the_running_kernel_and_overflow_a_full_group_table() {
    // Three parent blocks fill the one SM and launch a child group each, so no group's block can
    // be dispatched (and its record freed) before the parents end. The first group finds no
    // kernel of its function and becomes one (through the KMU); the other two join it. With
    // room for one group record on the SM, the third goes through global memory: it reaches the
    // dispatcher `overflow_latency` later than with an unbounded table.
    let groups = |entries: u32| {
        let mut c = with_path(LaunchPath::Dtbl);
        c.core.sm_count = 1;
        c.core.max_tbs_per_sm = 3;
        c.device_launch.group_entries_per_sm = entries;
        run(c, busy_parent_workload(3, 200))
    };
    let unbounded = groups(0);
    let bounded = groups(1);
    for r in [&unbounded, &bounded] {
        let s = r.launches;
        assert_eq!((s.device_launches, s.new_kernels, s.coalesced_groups), (3, 1, 2));
        assert_eq!(s.kdu_peak, 2, "the parent and the children's kernel");
    }
    assert_eq!((unbounded.launches.overflowed_groups, bounded.launches.overflowed_groups), (0, 1));
    assert_eq!(bounded.launches.group_table_peak, 1);
    let start = |r: &Report, i: usize| r.kernels[i].start_cycle;
    assert_eq!(start(&bounded, 1), start(&unbounded, 1));
    assert_eq!(start(&bounded, 2), start(&unbounded, 2));
    assert_eq!(start(&bounded, 3), start(&unbounded, 3) + 400);
    // Each group pays the DTBL stall of 500 cycles, and the result is still right.
    assert_eq!(bounded.launches.launch_stall_cycles, 3 * 500);
    // With the insert search modelled, a group waits a cycle for each record already in its
    // SM's table: none for the second group (the first became a kernel and holds no record),
    // one for the third.
    let searched = {
        let mut c = with_path(LaunchPath::Dtbl);
        (c.core.sm_count, c.core.max_tbs_per_sm) = (1, 3);
        (c.device_launch.group_entries_per_sm, c.device_launch.insert_search) = (0, InsertSearch::Linear);
        run(c, busy_parent_workload(3, 200))
    };
    assert_eq!(start(&searched, 2), start(&unbounded, 2), "the second group finds the table empty");
    assert_eq!(start(&searched, 3), start(&unbounded, 3) + 1, "the third finds one record");
}
