//! The timing engine against hand-computed answers: cycle counts of micro-kernels, transaction
//! counts, closed-form cache behaviour, occupancy limits, placement, coherence at kernel
//! boundaries, and agreement with the functional reference.

use warpscope_core::config::{presets, Coherence, GpuConfig, SetIndex, TbDispatchRate};
use warpscope_core::exec::reference;
use warpscope_core::isa::builder::KernelBuilder;
use warpscope_core::isa::{AluOp, Axis, CmpOp, CmpType, Dim3, Kernel, Operand, Reg, Space, Special};
use warpscope_core::stats::{BlockRecord, Report};
use warpscope_core::workload::{Arg, BufferInit, BufferSpec, ElemType, LaunchSpec, Workload};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// A small machine with round numbers, so that latencies can be added up by hand.
fn machine(sms: u32) -> GpuConfig {
    let mut c = presets::fermi_gtx480();
    c.core.sm_count = sms;
    c.core.schedulers_per_sm = 1;
    c.core.tb_dispatch = TbDispatchRate::OnePerSmPerCycle;
    c.pipeline.alu.latency = 4;
    c.pipeline.alu.interval = 1;
    c.l1.hit_latency = 10;
    c.l1.index = SetIndex::Linear;
    c.l1.sector_bytes = 128;
    c.interconnect.hop_latency = 5;
    c.interconnect.flit_bytes = 32;
    c.interconnect.flits_per_cycle = 1;
    c.l2.hit_latency = 20;
    c.l2.index = SetIndex::Linear;
    c.dram.latency = 100;
    c.dram.bytes_per_cycle = 32; // a 128 B line takes 4 cycles
    c
}

fn workload(kernel: Kernel, grid: u32, block: u32, buffer_words: u32, launches: usize) -> Workload {
    let params = kernel.params;
    Workload {
        kernels: vec![kernel],
        buffers: vec![BufferSpec {
            name: "data".into(),
            words: buffer_words,
            init: BufferInit::Iota,
            elem: ElemType::Int,
        }],
        launches: (0..launches)
            .map(|_| LaunchSpec {
                kernel: 0,
                grid: Dim3::linear(grid),
                block: Dim3::linear(block),
                args: (0..params).map(|_| Arg::Buffer(0)).collect(),
                stream: 0,
                dynamic_shared: 0,
            })
            .collect(),
        parts: Vec::new(),
        copies: Vec::new(),
    }
}

fn run_with(config: GpuConfig, w: Workload, options: RunOptions) -> (Report, Simulation) {
    let mut sim = Simulation::new(config, w, &Policies::default(), options).expect("valid setup");
    assert_eq!(sim.run(), StepOutcome::Finished);
    (sim.report(), sim)
}

fn run(config: GpuConfig, w: Workload) -> Report {
    run_with(config, w, RunOptions::default()).0
}

/// mov, then `links` adds each depending on the one before, then exit.
fn dependent_chain(links: u64) -> Kernel {
    let mut b = KernelBuilder::new("chain", 1);
    let r = b.reg();
    b.mov(r, Operand::Imm(1));
    for _ in 0..links {
        b.alu(AluOp::Add, r, r, Operand::Imm(1));
    }
    b.exit();
    b.build()
}

/// `dst = base + threadIdx.x * stride`.
fn lane_address(b: &mut KernelBuilder, base: Reg, stride: u32) -> Reg {
    let a = b.reg();
    b.special(a, Special::ThreadIdx(Axis::X)).alu(AluOp::Mul, a, a, Operand::Imm(stride)).alu(AluOp::Add, a, a, base);
    a
}

#[test]
fn a_dependent_alu_chain_takes_latency_per_link() {
    // mov, then N dependent adds, then exit. The block is placed at cycle 0 and its warp first
    // issues at cycle 1; each add waits 4 cycles for its predecessor; a warp exits only once
    // nothing is in flight for it, so exit waits for the last add's result too.
    const N: u64 = 10;
    let report = run(machine(1), workload(dependent_chain(N), 1, 32, 1, 1));
    assert_eq!(report.kernels[0].end_cycle, 1 + 4 * N + 4);
    assert_eq!(report.warp_instructions, N + 2);
}

#[test]
fn a_static_warp_limit_runs_only_the_oldest_warps() {
    // Four warps of one block each run mov, N dependent adds, exit (4N + 5 cycles alone, as
    // above). Under SWL with limit 1 they run one after another: the next warp becomes
    // eligible the cycle after the previous one exits.
    const N: u64 = 10;
    let run_warp = |spec: &str| {
        let policies = Policies { tb: "rr".into(), warp: spec.into() };
        let mut sim =
            Simulation::new(machine(1), workload(dependent_chain(N), 1, 128, 1, 1), &policies, RunOptions::default())
                .expect("valid setup");
        assert_eq!(sim.run(), StepOutcome::Finished);
        sim.report()
    };
    let alone = 4 * N + 5;
    let one = run_warp("swl:limit=1");
    assert_eq!(one.kernels[0].end_cycle, 4 * alone);
    assert!(one.stalls.throttled > 0, "held-back warps count as throttled");
    // Limit 2: warps 0 and 1 interleave and exit at 4N+5 and 4N+6; warp 2 issues its mov the
    // cycle after warp 1's exit, warp 3 the cycle after that, and warp 3 exits last.
    let two = run_warp("swl:limit=2");
    assert_eq!(two.kernels[0].end_cycle, (4 * N + 6) + 2 + 4 * N + 4);
    // A limit at or above the warps present is GTO, cycle for cycle.
    let gto = run_warp("gto");
    assert_eq!(run_warp("swl:limit=4"), gto);
    assert_eq!(gto.stalls.throttled, 0);
    assert!(gto.kernels[0].end_cycle < two.kernels[0].end_cycle);
}

#[test]
fn a_load_miss_goes_through_l2_and_dram_and_a_second_load_hits() {
    // ld (miss); add (waits for it); ld (same line: L1 hit); add; exit.
    let mut b = KernelBuilder::new("load", 1);
    let (x, y) = (b.reg(), b.reg());
    let base = b.param(0);
    b.load(Space::Global, x, base, 0).alu(AluOp::Add, x, x, Operand::Imm(1));
    b.load(Space::Global, y, base, 4).alu(AluOp::Add, y, y, Operand::Imm(1)).exit();
    let c = machine(1);
    let report = run(c.clone(), workload(b.build(), 1, 32, 64, 1));

    let ld1 = 1; // first issue cycle
    let lsu = ld1 + 1; // the LSU presents the request the next cycle; it leaves at once
    let at_l2 = lsu + c.interconnect.hop_latency as u64 + 1; // one request flit
    let from_dram = at_l2 + c.l2.hit_latency as u64 + c.dram.latency as u64 + 4; // tag check, access, transfer
    let reply_flits = 1 + 128 / 32;
    let filled = from_dram + c.interconnect.hop_latency as u64 + reply_flits;
    let add1 = filled; // the fill releases the register in the same cycle
    let ld2 = add1 + 1;
    let add2 = ld2 + 1 + c.l1.hit_latency as u64;
    let exit = add2 + c.pipeline.alu.latency as u64; // waits for the add's result
    assert_eq!(filled, 142, "hand sum: 1 + 1 + 6 + 124 + 10");
    assert_eq!(report.kernels[0].end_cycle, exit);
    assert_eq!((report.l1.misses, report.l1.hits), (1, 1));
    assert_eq!((report.l2.accesses, report.l2.misses, report.dram.reads), (1, 1, 1));
}

#[test]
fn a_fill_takes_the_l1_data_array_and_the_next_request_waits_for_it() {
    // The kernel above, on an L1 whose data array writes 16 B of a fill a cycle: the 128 B line
    // arriving at cycle 142 holds the array for 8 cycles, 142..=149, so the second load, issued
    // at 143, is presented at 150 instead of 144.
    let kernel = || {
        let mut b = KernelBuilder::new("load", 1);
        let (x, y) = (b.reg(), b.reg());
        let base = b.param(0);
        b.load(Space::Global, x, base, 0).alu(AluOp::Add, x, x, Operand::Imm(1));
        b.load(Space::Global, y, base, 4).alu(AluOp::Add, y, y, Operand::Imm(1)).exit();
        b.build()
    };
    let end = |fill_bytes_per_cycle| {
        let mut c = machine(1);
        c.l1.fill_bytes_per_cycle = fill_bytes_per_cycle;
        let report = run(c, workload(kernel(), 1, 32, 64, 1));
        assert_eq!((report.l1.misses, report.l1.hits), (1, 1));
        report.kernels[0].end_cycle
    };
    let c = machine(1);
    let (filled, hit, alu) = (142, c.l1.hit_latency as u64, c.pipeline.alu.latency as u64);
    let ld2 = filled + 1;
    assert_eq!(end(0), ld2 + 1 + hit + alu, "a fill port of its own: as above");
    assert_eq!(end(128), ld2 + 1 + hit + alu, "one cycle of fill, over before the request");
    assert_eq!(end(16), filled + 128 / 16 + hit + alu);
}

fn access_with_stride(stride: u32) -> Report {
    let mut b = KernelBuilder::new("stride", 1);
    let x = b.reg();
    let base = b.param(0);
    let a = lane_address(&mut b, base, stride);
    b.load(Space::Global, x, a, 0).exit();
    run(machine(1), workload(b.build(), 1, 32, 32 * 32, 1))
}

#[test]
fn coalesced_access_makes_one_transaction_and_a_strided_one_thirty_two() {
    let coalesced = access_with_stride(4);
    assert_eq!((coalesced.l1.misses, coalesced.l2.accesses, coalesced.dram.reads), (1, 1, 1));
    assert_eq!(coalesced.network.packets, 2, "one request, one reply");
    let strided = access_with_stride(128);
    assert_eq!((strided.l1.misses, strided.l2.accesses, strided.dram.reads), (32, 32, 32));
    assert_eq!(strided.network.packets, 64);
    assert!(strided.kernels[0].end_cycle > coalesced.kernels[0].end_cycle + 31, "32 requests serialise");
}

/// One warp reads lines `0, s, 2s, ... (k-1)s` (one set apart), `passes` times, each load
/// waiting for the one before.
/// One warp loading 32 lines that all fall in L2 bank 0 (a stride of 12 lines), with
/// `queue_entries` slots in each DRAM channel's request queue.
fn one_bank_of_misses(queue_entries: u32) -> Report {
    let mut b = KernelBuilder::new("one_bank", 1);
    let x = b.reg();
    let base = b.param(0);
    let a = lane_address(&mut b, base, 12 * 128);
    b.load(Space::Global, x, a, 0).exit();
    let mut c = machine(1);
    c.dram.queue_entries = queue_entries;
    run(c, workload(b.build(), 1, 32, 32 * 12 * 32, 1))
}

#[test]
fn a_full_dram_queue_holds_the_l2_bank_but_not_the_channel() {
    // The 32 misses reach bank 0 one a cycle and ask DRAM for a 4-cycle transfer each: the
    // channel falls behind at once. With room for all of them nothing is held; with 2 slots the
    // bank holds misses until a slot frees. The channel serves them back to back either way,
    // so the warp finishes at the same cycle (the hand-worked case is in `mem::l2`'s tests).
    let roomy = one_bank_of_misses(64);
    let tight = one_bank_of_misses(2);
    assert_eq!((roomy.dram.reads, tight.dram.reads), (32, 32));
    assert_eq!(roomy.dram.queue_full_cycles, 0);
    assert!(tight.dram.queue_full_cycles > 0);
    assert_eq!(tight.cycles, roomy.cycles);
}

fn set_conflicts(k: u32, passes: u32) -> Report {
    let c = machine(1);
    let sets = c.l1.size_bytes / c.l1.line_bytes / c.l1.ways;
    let stride = sets * c.l1.line_bytes;
    let mut b = KernelBuilder::new("conflicts", 1);
    let base = b.param(0);
    let (pass, i, addr, x, more) = (b.reg(), b.reg(), b.reg(), b.reg(), b.reg());
    let (outer, inner, inner_done, done) = (b.label(), b.label(), b.label(), b.label());
    b.mov(pass, Operand::Imm(0));
    b.place(outer).cmp(CmpOp::Lt, CmpType::Int, more, pass, Operand::Imm(passes)).branch_if(more, true, done, done);
    b.mov(i, Operand::Imm(0));
    b.place(inner).cmp(CmpOp::Lt, CmpType::Int, more, i, Operand::Imm(k)).branch_if(more, true, inner_done, inner_done);
    b.alu(AluOp::Mul, addr, i, Operand::Imm(stride)).alu(AluOp::Add, addr, addr, base);
    b.load(Space::Global, x, addr, 0).alu(AluOp::Add, x, x, Operand::Imm(0)); // wait for the data
    b.alu(AluOp::Add, i, i, Operand::Imm(1)).jump(inner);
    b.place(inner_done).alu(AluOp::Add, pass, pass, Operand::Imm(1)).jump(outer);
    b.place(done).exit();
    run(c, workload(b.build(), 1, 32, k * stride / 4, 1))
}

#[test]
fn lru_keeps_a_set_that_fits_and_thrashes_one_line_more() {
    let ways = machine(1).l1.ways; // 4
    let fits = set_conflicts(ways, 5);
    assert_eq!((fits.l1.misses, fits.l1.hits), (ways as u64, 4 * ways as u64));
    let thrash = set_conflicts(ways + 1, 5);
    assert_eq!((thrash.l1.misses, thrash.l1.hits), (5 * (ways as u64 + 1), 0));
    assert_eq!(thrash.l1.evictions, 5 * (ways as u64 + 1) - ways as u64);
}

#[test]
fn two_warps_missing_on_one_line_merge_in_the_mshr() {
    // Both warps of a block load the same word; the second request finds the line reserved.
    let mut b = KernelBuilder::new("merge", 1);
    let x = b.reg();
    b.load(Space::Global, x, b.param(0), 0).alu(AluOp::Add, x, x, Operand::Imm(1)).exit();
    let report = run(machine(1), workload(b.build(), 1, 64, 32, 1));
    assert_eq!((report.l1.misses, report.l1.hit_reserved, report.l1.hits), (1, 1, 0));
    assert_eq!((report.l2.accesses, report.dram.reads), (1, 1));
}

/// Most blocks resident on one SM at any time.
fn max_resident(blocks: &[BlockRecord]) -> usize {
    blocks.iter().map(|b| blocks.iter().filter(|o| o.start <= b.start && b.start < o.end).count()).max().unwrap_or(0)
}

/// A block of `threads` threads that spins on ALU work, using `regs` registers per thread
/// and `shared` bytes of shared memory.
fn busy_kernel(regs: u32, shared: u32) -> Kernel {
    let mut b = KernelBuilder::new("busy", 1);
    b.shared(shared);
    let (i, more) = (b.reg(), b.reg());
    let (head, done) = (b.label(), b.label());
    b.mov(i, Operand::Imm(0));
    b.place(head).cmp(CmpOp::Lt, CmpType::Int, more, i, Operand::Imm(20)).branch_if(more, true, done, done);
    b.alu(AluOp::Add, i, i, Operand::Imm(1)).jump(head);
    b.place(done).exit();
    let mut k = b.build();
    k.regs_per_thread = regs;
    k
}

#[test]
fn occupancy_is_limited_by_registers_shared_memory_and_block_slots() {
    let c = machine(1); // 48 warps, 8 blocks, 1536 threads, 32768 registers, 48 KiB shared
    let resident =
        |kernel: Kernel, threads: u32| max_resident(&run(c.clone(), workload(kernel, 40, threads, 1, 1)).blocks);
    // 64 threads × 64 registers = 4096 per block: 8 fit by registers, and 8 block slots.
    assert_eq!(resident(busy_kernel(64, 0), 64), 8, "block slots");
    // 128 threads × 64 registers = 8192 per block: 4 fit.
    assert_eq!(resident(busy_kernel(64, 0), 128), 4, "registers");
    // 20 KiB of shared memory per block: 2 fit in 48 KiB.
    assert_eq!(resident(busy_kernel(8, 20 * 1024), 64), 2, "shared memory");
    // 512 threads = 16 warps per block: 3 fit in 48 warp slots.
    assert_eq!(resident(busy_kernel(8, 0), 512), 3, "warp slots");
}

#[test]
fn round_robin_places_one_block_per_sm_per_cycle_on_an_idle_machine() {
    let report = run(machine(4), workload(busy_kernel(8, 0), 10, 32, 1, 1));
    let mut first: Vec<(u32, u32, u64)> = report.blocks.iter().map(|b| (b.block, b.sm, b.start)).collect();
    first.sort();
    let expected: Vec<(u32, u32, u64)> = (0..10).map(|i| (i, i % 4, (i / 4) as u64)).collect();
    assert_eq!(first, expected);
}

fn two_kernels_reading_the_same_lines(coherence: Coherence) -> Report {
    let mut c = machine(1);
    c.coherence = coherence;
    let mut b = KernelBuilder::new("reread", 1);
    let x = b.reg();
    let base = b.param(0);
    let a = lane_address(&mut b, base, 128);
    b.load(Space::Global, x, a, 0).exit();
    run(c, workload(b.build(), 1, 32, 32 * 32, 2))
}

#[test]
fn the_l1_keeps_data_across_kernels_only_under_denovo_like_coherence() {
    let kept = two_kernels_reading_the_same_lines(Coherence::KeepL1);
    assert_eq!((kept.l1.misses, kept.l1.hits), (32, 32), "the second kernel hits on every line");
    let invalidated = two_kernels_reading_the_same_lines(Coherence::InvalidateL1);
    assert_eq!((invalidated.l1.misses, invalidated.l1.hits), (64, 0));
    assert_eq!(invalidated.l2.hits, 32, "the second kernel finds the lines in L2");
}

/// c[i] = a[i] + b[i] over `n` elements with a bounds check.
fn vector_add(n: u32) -> Workload {
    let mut b = KernelBuilder::new("vadd", 4);
    let (pa, pb, pc, pn) = (b.param(0), b.param(1), b.param(2), b.param(3));
    let (i, t, inside, x, y) = (b.reg(), b.reg(), b.reg(), b.reg(), b.reg());
    let done = b.label();
    b.special(i, Special::BlockIdx(Axis::X)).special(t, Special::BlockDim(Axis::X)).alu(AluOp::Mul, i, i, t);
    b.special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::Add, i, i, t);
    b.cmp(CmpOp::Lt, CmpType::Int, inside, i, pn).branch_if(inside, true, done, done);
    b.alu(AluOp::Shl, t, i, Operand::Imm(2));
    b.alu(AluOp::Add, x, pa, t).load(Space::Global, x, x, 0);
    b.alu(AluOp::Add, y, pb, t).load(Space::Global, y, y, 0);
    b.alu(AluOp::Add, x, x, y).alu(AluOp::Add, t, pc, t).store(Space::Global, t, 0, x);
    b.place(done).exit();
    let buffer = |name: &str, init| BufferSpec { name: name.into(), words: n, init, elem: ElemType::Int };
    Workload {
        kernels: vec![b.build()],
        buffers: vec![
            buffer("a", BufferInit::Iota),
            buffer("b", BufferInit::Random { seed: 3, min: 0, max: 1000 }),
            buffer("c", BufferInit::Zeros),
        ],
        launches: vec![LaunchSpec {
            kernel: 0,
            grid: Dim3::linear(n.div_ceil(128)),
            block: Dim3::linear(128),
            args: vec![Arg::Buffer(0), Arg::Buffer(1), Arg::Buffer(2), Arg::Value(n)],
            stream: 0,
            dynamic_shared: 0,
        }],
        parts: Vec::new(),
        copies: Vec::new(),
    }
}

#[test]
fn the_timing_engine_computes_what_the_reference_computes() {
    let w = vector_add(5000);
    let (_, sim) = run_with(presets::fermi_gtx480(), w.clone(), RunOptions::default());
    let (mut memory, regions) = w.materialize();
    let l = &w.launches[0];
    let args = Workload::arg_words(l, &regions);
    let launch = reference::Launch {
        kernel: &w.kernels[0],
        grid: l.grid,
        block: l.block,
        args: &args,
        warp_size: 32,
        dynamic_shared: 0,
    };
    reference::run(launch, &mut memory, u64::MAX).unwrap();
    assert_eq!(sim.buffer(2), memory.words(regions[2]));
    let a = sim.buffer(0);
    let b = sim.buffer(1);
    assert!(sim.buffer(2).iter().enumerate().all(|(i, &c)| c == a[i] + b[i]));
}

#[test]
fn reports_are_identical_run_to_run_and_with_idle_skipping_off() {
    // A streaming kernel and a latency-bound pointer chase that keeps LSUs blocked on MSHRs.
    for w in [vector_add(20_000), warpscope_core::bench::pointer_chase(2048, 8, 1 << 16).workload] {
        let run_once = |skip_idle| {
            let options = RunOptions { skip_idle, series_every: 100, ..RunOptions::default() };
            serde_json::to_string(&run_with(presets::fermi_gtx480(), w.clone(), options).0).unwrap()
        };
        let a = run_once(true);
        assert_eq!(a, run_once(true));
        assert_eq!(a, run_once(false), "skipping idle cycles must not change any count");
    }
}

#[test]
fn a_run_that_would_not_end_stops_at_the_cycle_limit() {
    let mut b = KernelBuilder::new("spin", 1);
    let head = b.label();
    b.place(head).jump(head);
    let options = RunOptions { max_cycles: 5000, ..RunOptions::default() };
    let mut sim = Simulation::new(machine(1), workload(b.build(), 1, 32, 1, 1), &Policies::default(), options).unwrap();
    assert_eq!(sim.run(), StepOutcome::CycleLimit { cycles: 5000 });
}

#[test]
fn a_run_cut_short_stops_at_the_limit_even_inside_a_stretch_of_skipped_cycles() {
    // Some limits fall where the clock would jump over idle cycles; it stops at the limit
    // there, as it does cycle by cycle.
    // Every warp waits on its first loads from cycle 182 to 266.
    let w = vector_add(20_000);
    for max_cycles in (150..300).step_by(5) {
        let options = RunOptions { max_cycles, ..RunOptions::default() };
        let mut sim = Simulation::new(presets::fermi_gtx480(), w.clone(), &Policies::default(), options).unwrap();
        assert_eq!(sim.run(), StepOutcome::CycleLimit { cycles: max_cycles });
        assert_eq!(sim.report().cycles, max_cycles);
    }
}

#[test]
fn an_unknown_policy_is_named_with_the_choices() {
    let policies = Policies { tb: "rr".into(), warp: "fastest".into() };
    let err = Simulation::new(machine(1), vector_add(10), &policies, RunOptions::default()).err().unwrap();
    assert_eq!(err.field, "policies.warp");
    assert!(err.reason.contains("lrr, gto"), "{}", err.reason);
}

#[test]
fn the_l1_snapshot_shows_which_warp_filled_each_line() {
    // One block of two warps on one SM; warp 0 reads lines 0..32 of the buffer, warp 1 lines
    // 32..64 (one line per lane), so 64 lines are resident, half owned by each warp slot.
    let mut b = KernelBuilder::new("fill", 1);
    let x = b.reg();
    let base = b.param(0);
    let a = lane_address(&mut b, base, 128);
    b.load(Space::Global, x, a, 0).exit();
    let mut c = machine(1);
    c.coherence = Coherence::KeepL1; // keep the lines after the kernel ends
    let mut sim =
        Simulation::new(c, workload(b.build(), 1, 64, 64 * 32, 1), &Policies::default(), RunOptions::default())
            .unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    let owners = sim.l1_owners(0);
    assert_eq!(owners.len(), 128, "32 sets × 4 ways");
    let count = |slot| owners.iter().filter(|o| **o == Some(slot)).count();
    assert_eq!((count(0), count(1)), (32, 32));
    assert_eq!(owners.iter().filter(|o| o.is_none()).count(), 64);
}

/// The thrashing benchmark is what it says: each warp reads its 8-line tile 4 times over, so
/// once a line is in the L1 its next 3 reads could hit (3/4 of all reads, a little more where
/// a later warp of the same SM shares the tile). With 48 warps an SM has 48 KiB of tiles for a
/// 16 KiB L1 and LRU evicts each line before it comes round again; limited to its 8 oldest
/// warps (8 KiB), an SM keeps the tiles. Every tile line leaves DRAM exactly once (the tiles
/// fit in the L2).
#[test]
fn the_thrashing_benchmark_thrashes_the_l1_until_the_warps_are_limited() {
    let bench = warpscope_core::bench::standard().into_iter().find(|b| b.name == "thrashing").unwrap();
    let hit_rate = |warp: &str| {
        let policies = Policies { warp: warp.into(), ..Policies::default() };
        let mut sim =
            Simulation::new(presets::fermi_gtx480(), bench.workload.clone(), &policies, RunOptions::default()).unwrap();
        assert_eq!(sim.run(), StepOutcome::Finished);
        let r = sim.report();
        // 256 tiles × 8 lines; the 65 536 threads' results are written, not read.
        assert_eq!(r.dram.reads, 256 * 8, "{warp}");
        r.l1.hits as f64 / (r.l1.hits + r.l1.misses) as f64
    };
    for warp in ["gto", "lrr"] {
        let rate = hit_rate(warp);
        assert!(rate < 0.1, "{warp}: L1 hit rate {rate}");
    }
    let limited = hit_rate("swl:limit=8");
    assert!((0.7..=0.8).contains(&limited), "8 warps: L1 hit rate {limited}");
}

/// Each thread saves its index in local memory, overwrites the register, loads the index back
/// and stores it to `data[tid]`.
fn spill_and_fill(pair: bool) -> Kernel {
    let mut b = KernelBuilder::new("spill", 1);
    let (t, high, back, addr) = (b.reg(), b.reg(), b.reg(), b.reg());
    let _ = b.reg();
    b.special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::Mul, high, t, Operand::Imm(3));
    b.spill(t, 0, pair).mov(t, Operand::Imm(7)).mov(high, Operand::Imm(7));
    b.fill(back, 0, pair);
    let data = b.param(0);
    b.alu(AluOp::Shl, addr, back, Operand::Imm(2)).alu(AluOp::Add, addr, addr, data);
    b.store(Space::Global, addr, 0, back).exit();
    b.build()
}

#[test]
fn spilled_registers_round_trip_through_each_warps_own_coalesced_frame() {
    // One block of four warps on one SM: each warp's spill or fill is one request of one line,
    // and the four warps' frames are four lines, so the fills miss four times (the spills,
    // stores, allocate nothing in a write-through L1).
    for pair in [false, true] {
        let kernel = spill_and_fill(pair);
        assert_eq!(kernel.spill_words, 1 + pair as u32);
        let (report, sim) = run_with(machine(1), workload(kernel, 1, 128, 128, 1), RunOptions::default());
        let expected: Vec<u32> = (0..128).collect();
        assert_eq!(sim.buffer(0), expected, "pair {pair}");
        let l1 = &report.sms[0].l1;
        // Four warps' spills and fills, each one line (two for pairs: 8 bytes a lane), and the
        // four stores to `data`; only the fills miss, each its own line.
        let lines = 4 * (1 + pair as u64);
        assert_eq!(l1.accesses, 2 * lines + 4, "pair {pair}: {l1:?}");
        assert_eq!((l1.misses, l1.hits), (lines, 0), "pair {pair}: {l1:?}");
        // Counted as such: one spill and one fill per warp.
        assert_eq!((report.sms[0].spills, report.sms[0].fills), (4, 4));
    }
}
