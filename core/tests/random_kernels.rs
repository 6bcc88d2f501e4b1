//! Property test: random (but valid) kernels never make the engine panic, always end in one of
//! the defined outcomes, and give byte-identical reports with and without the shortcuts that
//! skip idle work. Kernels mix every instruction kind, including divergent and backward
//! branches, barriers in divergent code, atomics, narrow and 8-byte accesses, 64-bit integer and
//! double arithmetic in register pairs, spills and fills of local memory, and out-of-bounds or misaligned addresses.

use warpscope_core::config::{presets, TbDispatchRate};
use warpscope_core::isa::{
    AluOp, AtomicOp, Axis, CmpOp, CmpType, Dim3, Instr, Kernel, Operand, Reg, SfuOp, Space, Special, UnaryOp,
    WideCmpType, WideOp, WideUnaryOp, Width,
};
use warpscope_core::rng::SplitMix64;
use warpscope_core::workload::{Arg, BufferInit, BufferSpec, ElemType, LaunchSpec, Workload};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

const REGS: u32 = 10;

fn pick<T: Copy>(rng: &mut SplitMix64, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

fn random_kernel(rng: &mut SplitMix64) -> Kernel {
    let len = 8 + rng.below(40) as u32;
    let reg = |rng: &mut SplitMix64| Reg(2 + rng.below(REGS as u64 - 2) as u8);
    // The low register of a pair: any register but the last (pairs may overlap r0, r1 and r2
    // as sources; as destinations they start at r2 like `reg`).
    let pair = |rng: &mut SplitMix64| Reg(rng.below(REGS as u64 - 1) as u8);
    let pair_dst = |rng: &mut SplitMix64| Reg(2 + rng.below(REGS as u64 - 3) as u8);
    let width =
        |rng: &mut SplitMix64| pick(rng, &[Width::Word, Width::U8, Width::S8, Width::U16, Width::S16, Width::Dword]);
    let operand = |rng: &mut SplitMix64| {
        if rng.below(3) == 0 {
            Operand::Imm(pick(rng, &[0, 1, 3, 31, 0xFFFF_FFFF, 0x8000_0000, 0x3F80_0000]))
        } else {
            Operand::Reg(Reg(rng.below(REGS as u64) as u8))
        }
    };
    let mut code = Vec::with_capacity(len as usize + 3);
    // r1 = the buffer plus a small, mostly in-bounds, per-thread offset.
    code.push(Instr::Special { dst: Reg(2), which: Special::ThreadIdx(Axis::X) });
    code.push(Instr::Alu { op: AluOp::Shl, dst: Reg(2), a: Operand::Reg(Reg(2)), b: Operand::Imm(2) });
    while (code.len() as u32) < len {
        let pc = code.len() as u32;
        let instr = match rng.below(16) {
            0 => Instr::Mov { dst: reg(rng), src: operand(rng) },
            1 => Instr::Special { dst: reg(rng), which: pick(rng, &[Special::LaneId, Special::BlockIdx(Axis::X)]) },
            2 | 3 => {
                let op = pick(
                    rng,
                    &[
                        AluOp::Add,
                        AluOp::Mul,
                        AluOp::DivS,
                        AluOp::RemU,
                        AluOp::Xor,
                        AluOp::Shl,
                        AluOp::FAdd,
                        AluOp::FMax,
                    ],
                );
                Instr::Alu { op, dst: reg(rng), a: operand(rng), b: operand(rng) }
            }
            4 => Instr::Unary {
                op: pick(rng, &[UnaryOp::Neg, UnaryOp::FloatToInt, UnaryOp::IntToFloat, UnaryOp::LogicalNot]),
                dst: reg(rng),
                a: operand(rng),
            },
            5 => Instr::Sfu {
                op: pick(rng, &[SfuOp::FDiv, SfuOp::Sqrt, SfuOp::Exp, SfuOp::Sin]),
                dst: reg(rng),
                a: operand(rng),
                b: operand(rng),
            },
            6 => Instr::Cmp {
                op: pick(rng, &[CmpOp::Lt, CmpOp::Eq]),
                ty: pick(rng, &[CmpType::Int, CmpType::Float]),
                dst: reg(rng),
                a: operand(rng),
                b: operand(rng),
            },
            7 => {
                // An address: the buffer base (r0) plus the offset register, masked to mostly stay inside.
                let a = reg(rng);
                code.push(Instr::Alu { op: AluOp::And, dst: a, a: Operand::Reg(Reg(2)), b: Operand::Imm(0x3FC) });
                code.push(Instr::Alu { op: AluOp::Add, dst: a, a: Operand::Reg(a), b: Operand::Reg(Reg(0)) });
                match rng.below(3) {
                    0 => {
                        let width = width(rng);
                        let dst = if width == Width::Dword { pair_dst(rng) } else { reg(rng) };
                        // Offsets 1 and 2 misalign some widths: a fault is one of the endings.
                        let offset = pick(rng, &[0, 4, 8, 4096, 1, 2]);
                        Instr::Load { width, space: Space::Global, dst, addr: a, offset }
                    }
                    1 => {
                        let width = width(rng);
                        let src = if width == Width::Dword { Operand::Reg(pair(rng)) } else { operand(rng) };
                        Instr::Store { width, space: Space::Global, addr: a, offset: pick(rng, &[0, 2, 8]), src }
                    }
                    _ if rng.below(2) == 0 => Instr::Atomic {
                        op: AtomicOp::Add,
                        space: Space::Global,
                        width: Width::Word,
                        dst: reg(rng),
                        addr: a,
                        src: operand(rng),
                        compare: Operand::Imm(0),
                    },
                    // A 64-bit atomic on register pairs (8-byte aligned or not: a fault ends it).
                    _ => Instr::Atomic {
                        op: pick(rng, &[AtomicOp::Add, AtomicOp::FAdd, AtomicOp::Cas, AtomicOp::MaxS, AtomicOp::Exch]),
                        space: Space::Global,
                        width: Width::Dword,
                        dst: pair_dst(rng),
                        addr: a,
                        src: Operand::Reg(pair(rng)),
                        compare: Operand::Reg(pair(rng)),
                    },
                }
            }
            8 => {
                let a = reg(rng);
                code.push(Instr::Alu { op: AluOp::And, dst: a, a: Operand::Reg(Reg(2)), b: Operand::Imm(0xFC) });
                let width = width(rng);
                if rng.below(2) == 0 {
                    let src = if width == Width::Dword { Operand::Reg(pair(rng)) } else { operand(rng) };
                    Instr::Store { width, space: Space::Shared, addr: a, offset: pick(rng, &[0, 1]), src }
                } else {
                    let dst = if width == Width::Dword { pair_dst(rng) } else { reg(rng) };
                    Instr::Load { width, space: Space::Shared, dst, addr: a, offset: pick(rng, &[0, 256]) }
                }
            }
            9 | 10 => {
                // A branch anywhere (loops included); reconverging at or after the later of the two paths.
                let target = rng.below(len as u64) as u32;
                let reconverge = (target.max(pc + 1) + rng.below(3) as u32).min(len);
                Instr::Branch { cond: Some(reg(rng)), negate: rng.below(2) == 0, target, reconverge }
            }
            11 if rng.below(5) == 0 => Instr::WideFma { dst: pair_dst(rng), a: pair(rng), b: pair(rng), c: pair(rng) },
            11 => {
                let op = pick(
                    rng,
                    &[WideOp::Add, WideOp::Mul, WideOp::DivS, WideOp::RemU, WideOp::ShrS, WideOp::DAdd, WideOp::DDiv],
                );
                Instr::Wide { op, dst: pair_dst(rng), a: pair(rng), b: pair(rng) }
            }
            12 => {
                let op = pick(
                    rng,
                    &[
                        WideUnaryOp::Neg,
                        WideUnaryOp::DSqrt,
                        WideUnaryOp::IntToLong,
                        WideUnaryOp::FloatToDouble,
                        WideUnaryOp::DoubleToInt,
                        WideUnaryOp::LongToFloat,
                    ],
                );
                let dst = if op.writes_pair() { pair_dst(rng) } else { reg(rng) };
                let a = if op.reads_pair() { pair(rng) } else { Reg(rng.below(REGS as u64) as u8) };
                Instr::WideUnary { op, dst, a }
            }
            13 => Instr::WideCmp {
                op: pick(rng, &[CmpOp::Lt, CmpOp::Ne]),
                ty: pick(rng, &[WideCmpType::Long, WideCmpType::Ulong, WideCmpType::Double]),
                dst: reg(rng),
                a: pair(rng),
                b: pair(rng),
            },
            // A spill or fill of a word or a pair of local memory, diverged or not.
            14 => {
                let wide = rng.below(2) == 0;
                let slot = if wide { 2 * rng.below(2) as u16 } else { rng.below(4) as u16 };
                if rng.below(2) == 0 {
                    let src = if wide { pair(rng) } else { Reg(rng.below(REGS as u64) as u8) };
                    Instr::Spill { src, slot, pair: wide }
                } else {
                    Instr::Fill { dst: if wide { pair_dst(rng) } else { reg(rng) }, slot, pair: wide }
                }
            }
            _ => Instr::Barrier,
        };
        code.push(instr);
    }
    // Reconvergence points may name `len`: that is where the final exit sits.
    let exit_at = code.len() as u32;
    for instr in &mut code {
        if let Instr::Branch { target, reconverge, .. } = instr {
            *target = (*target).min(exit_at);
            *reconverge = (*reconverge).min(exit_at);
        }
    }
    code.push(Instr::Exit);
    Kernel {
        name: "random".into(),
        code,
        regs_per_thread: REGS,
        shared_bytes: 256,
        params: 2,
        spill_words: 4,
        max_block_threads: 0,
        local_arrays: Vec::new(),
        source: Vec::new(),
    }
}

fn run(w: &Workload, skip_idle: bool) -> (StepOutcome, String) {
    let mut config = presets::fermi_gtx480();
    config.core.sm_count = 2;
    config.core.tb_dispatch = TbDispatchRate::OnePerSmPerCycle;
    let options = RunOptions { max_cycles: 20_000, series_every: 500, skip_idle, ..RunOptions::default() };
    let mut sim = Simulation::new(config, w.clone(), &Policies::default(), options).expect("the workload is valid");
    let outcome = sim.run();
    (outcome, serde_json::to_string(&sim.report()).unwrap())
}

#[test]
fn random_kernels_end_cleanly_and_identically_with_or_without_shortcuts() {
    let mut rng = SplitMix64::new(2026);
    let mut outcomes = [0usize; 4];
    for case in 0..400 {
        let kernel = random_kernel(&mut rng);
        let w = Workload {
            kernels: vec![kernel],
            buffers: vec![BufferSpec {
                name: "a".into(),
                words: 1024,
                init: BufferInit::Random { seed: case, min: 0, max: 64 },
                elem: ElemType::Int,
            }],
            launches: vec![LaunchSpec {
                kernel: 0,
                grid: Dim3::linear(3),
                block: Dim3::linear(96),
                args: vec![Arg::Buffer(0), Arg::Value(1024)],
                stream: 0,
                dynamic_shared: 0,
            }],
            parts: Vec::new(),
            copies: Vec::new(),
        };
        let (outcome, fast) = run(&w, true);
        let (reference_outcome, reference) = run(&w, false);
        assert_eq!(outcome, reference_outcome, "case {case}: {:?}", w.kernels[0].code);
        assert_eq!(fast, reference, "case {case}: reports differ; kernel {:?}", w.kernels[0].code);
        outcomes[match outcome {
            StepOutcome::Finished => 0,
            StepOutcome::CycleLimit { .. } => 1,
            StepOutcome::Fault { .. } => 2,
            StepOutcome::Deadlock { .. } => 3,
            StepOutcome::BudgetSpent => unreachable!("run() only returns at the end"),
        }] += 1;
    }
    // The generator must exercise the interesting endings, not only clean exits.
    eprintln!("finished, cycle limit, fault, deadlock: {outcomes:?}");
    assert!(outcomes[..3].iter().all(|&n| n > 0), "{outcomes:?}");
}
