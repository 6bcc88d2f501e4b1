//! 64-bit values in the engine: `long long` and `double` in register pairs (low word first),
//! 8-byte loads and stores, the FP64 unit's timing, and the scoreboard waiting for both
//! registers of a pair. Kernels are written with the builder; each result is checked against
//! the same computation in Rust, on the reference runner and on the timing engine.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::exec::memory::AccessError;
use warpscope_core::exec::{reference, FaultKind};
use warpscope_core::isa::builder::KernelBuilder;
use warpscope_core::isa::{
    AluOp, Axis, CmpOp, Dim3, Instr, Kernel, Operand, Reg, Space, Special, WideCmpType, WideOp, WideUnaryOp, Width,
};
use warpscope_core::workload::{Arg, BufferInit, BufferSpec, ElemType, LaunchSpec, Workload};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

fn machine() -> GpuConfig {
    let mut c = presets::fermi_gtx480();
    c.core.sm_count = 2;
    c
}

/// `dst` (a pair) = the 64-bit constant `v`.
fn constant(b: &mut KernelBuilder, dst: Reg, v: u64) {
    b.mov(dst, Operand::Imm(v as u32)).mov(Reg(dst.0 + 1), Operand::Imm((v >> 32) as u32));
}

/// `addr` = `base` + the global thread index × `bytes`; returns the index register.
fn element(b: &mut KernelBuilder, base: Reg, bytes: u32, addr: Reg) -> Reg {
    let (i, t) = (b.reg(), b.reg());
    b.special(i, Special::BlockIdx(Axis::X)).special(t, Special::BlockDim(Axis::X)).alu(AluOp::Mul, i, i, t);
    b.special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::Add, i, i, t);
    b.alu(AluOp::Mul, addr, i, Operand::Imm(bytes)).alu(AluOp::Add, addr, addr, base);
    i
}

fn wide(b: &mut KernelBuilder, op: WideOp, dst: Reg, a: Reg, c: Reg) {
    b.push(Instr::Wide { op, dst, a, b: c });
}

fn workload(kernel: Kernel, buffers: Vec<BufferSpec>, threads: u32) -> Workload {
    let args = (0..buffers.len() as u32).map(Arg::Buffer).collect();
    let launch = LaunchSpec {
        kernel: 0,
        grid: Dim3::linear(threads / 64),
        block: Dim3::linear(64),
        args,
        stream: 0,
        dynamic_shared: 0,
    };
    Workload { kernels: vec![kernel], buffers, launches: vec![launch], parts: Vec::new(), copies: Vec::new() }
}

fn buffer(name: &str, words: u32, init: BufferInit) -> BufferSpec {
    BufferSpec { name: name.into(), words, init, elem: ElemType::Uint }
}

/// Runs `w` on the reference runner and on the timing engine; both must leave the same
/// memory. Returns the engine's buffers and its cycles.
fn run_both(w: &Workload) -> (Vec<Vec<u32>>, u64) {
    let reference = reference::run_workload(w, 32, 1 << 24).unwrap();
    let mut sim = Simulation::new(machine(), w.clone(), &Policies::default(), RunOptions::default()).unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    let buffers: Vec<Vec<u32>> = (0..w.buffers.len()).map(|i| sim.buffer(i).to_vec()).collect();
    for (i, b) in buffers.iter().enumerate() {
        assert_eq!(b.as_slice(), reference.memory.words(reference.regions[i]), "buffer {i}");
    }
    (buffers, sim.report().cycles)
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64 of each thread's 64-bit input, in 64-bit integer arithmetic, stored with an
/// 8-byte store; plus the signed comparison of the result with 0.
#[test]
fn splitmix64_in_register_pairs() {
    let mut b = KernelBuilder::new("splitmix", 3);
    let (input, out, negative) = (b.param(0), b.param(1), b.param(2));
    let addr = b.reg();
    let i = element(&mut b, input, 8, addr);
    let (z, t, k) = (b.regs(2), b.regs(2), b.regs(2));
    b.load_width(Space::Global, Width::Dword, z, addr, 0);
    constant(&mut b, k, 0x9E37_79B9_7F4A_7C15);
    wide(&mut b, WideOp::Add, z, z, k);
    for (shift, mul) in [(30, 0xBF58_476D_1CE4_E5B9u64), (27, 0x94D0_49BB_1331_11EB)] {
        constant(&mut b, k, shift);
        wide(&mut b, WideOp::ShrU, t, z, k);
        wide(&mut b, WideOp::Xor, z, z, t);
        constant(&mut b, k, mul);
        wide(&mut b, WideOp::Mul, z, z, k);
    }
    constant(&mut b, k, 31);
    wide(&mut b, WideOp::ShrU, t, z, k);
    wide(&mut b, WideOp::Xor, z, z, t);
    b.alu(AluOp::Mul, addr, i, Operand::Imm(8)).alu(AluOp::Add, addr, addr, out);
    b.store_width(Space::Global, Width::Dword, addr, 0, z);
    // negative[i] = (long long)z < 0
    let flag = b.reg();
    constant(&mut b, k, 0);
    b.push(Instr::WideCmp { op: CmpOp::Lt, ty: WideCmpType::Long, dst: flag, a: z, b: k });
    b.alu(AluOp::Shl, addr, i, Operand::Imm(2)).alu(AluOp::Add, addr, addr, negative);
    b.store(Space::Global, addr, 0, flag).exit();

    let threads = 256;
    let inputs: Vec<u64> = (0..threads as u64).map(|k| k.wrapping_mul(0x1234_5678_9ABC_DEF1)).collect();
    let words: Vec<u32> = inputs.iter().flat_map(|v| [*v as u32, (v >> 32) as u32]).collect();
    let w = workload(
        b.build(),
        vec![
            buffer("in", 2 * threads, BufferInit::Words(words)),
            buffer("out", 2 * threads, BufferInit::Zeros),
            buffer("negative", threads, BufferInit::Zeros),
        ],
        threads,
    );
    let (buffers, _) = run_both(&w);
    for (k, &x) in inputs.iter().enumerate() {
        let expected = splitmix64(x);
        let got = buffers[1][2 * k] as u64 | (buffers[1][2 * k + 1] as u64) << 32;
        assert_eq!(got, expected, "thread {k}");
        assert_eq!(buffers[2][k], ((expected as i64) < 0) as u32, "thread {k}");
    }
}

/// Doubles: `sqrt(x * x + 0.5) / 3` per element, from an 8-byte load, and its conversion to
/// `float` and to `int`.
#[test]
fn double_arithmetic_and_conversions() {
    let mut b = KernelBuilder::new("doubles", 3);
    let (input, out, narrow) = (b.param(0), b.param(1), b.param(2));
    let addr = b.reg();
    let i = element(&mut b, input, 8, addr);
    let (x, t, k) = (b.regs(2), b.regs(2), b.regs(2));
    b.load_width(Space::Global, Width::Dword, x, addr, 0);
    wide(&mut b, WideOp::DMul, t, x, x);
    constant(&mut b, k, 0.5f64.to_bits());
    wide(&mut b, WideOp::DAdd, t, t, k);
    b.push(Instr::WideUnary { op: WideUnaryOp::DSqrt, dst: t, a: t });
    constant(&mut b, k, 3.0f64.to_bits());
    wide(&mut b, WideOp::DDiv, t, t, k);
    b.alu(AluOp::Mul, addr, i, Operand::Imm(8)).alu(AluOp::Add, addr, addr, out);
    b.store_width(Space::Global, Width::Dword, addr, 0, t);
    let (f, n) = (b.reg(), b.reg());
    b.push(Instr::WideUnary { op: WideUnaryOp::DoubleToFloat, dst: f, a: t });
    b.push(Instr::WideUnary { op: WideUnaryOp::DoubleToInt, dst: n, a: x });
    b.alu(AluOp::Mul, addr, i, Operand::Imm(8)).alu(AluOp::Add, addr, addr, narrow);
    b.store(Space::Global, addr, 0, f).store(Space::Global, addr, 4, n).exit();

    let threads = 128;
    let inputs: Vec<f64> = (0..threads).map(|k| (k as f64 - 60.3) * 1.7e3).collect();
    let words: Vec<u32> = inputs.iter().flat_map(|v| [v.to_bits() as u32, (v.to_bits() >> 32) as u32]).collect();
    let w = workload(
        b.build(),
        vec![
            buffer("in", 2 * threads, BufferInit::Words(words)),
            buffer("out", 2 * threads, BufferInit::Zeros),
            buffer("narrow", 2 * threads, BufferInit::Zeros),
        ],
        threads,
    );
    let (buffers, _) = run_both(&w);
    for (k, &x) in inputs.iter().enumerate() {
        let expected = (x * x + 0.5).sqrt() / 3.0;
        let got = f64::from_bits(buffers[1][2 * k] as u64 | (buffers[1][2 * k + 1] as u64) << 32);
        assert_eq!(got.to_bits(), expected.to_bits(), "thread {k}");
        assert_eq!(buffers[2][2 * k], (expected as f32).to_bits(), "thread {k}: double to float");
        assert_eq!(buffers[2][2 * k + 1] as i32, x as i32, "thread {k}: double to int");
    }
}

/// One warp issuing `n` independent multiplies: doubles go to the FP64 unit, which takes a
/// warp instruction every `pipeline.fp64.interval` cycles; floats to the ALU, one a cycle.
fn independent_multiplies(double: bool, n: u32, fp64_interval: u32) -> u64 {
    let mut b = KernelBuilder::new("muls", 0);
    let x = b.regs(2);
    b.mov(x, Operand::Imm(3)).mov(Reg(x.0 + 1), Operand::Imm(0x4000_0000));
    let first = b.regs(2 * n);
    for k in 0..n {
        let dst = Reg(first.0 + 2 * k as u8);
        if double {
            wide(&mut b, WideOp::DMul, dst, x, x);
        } else {
            b.alu(AluOp::FMul, dst, x, x);
        }
    }
    b.exit();
    let mut config = machine();
    config.core.sm_count = 1;
    config.pipeline.fp64.interval = fp64_interval;
    let launch = LaunchSpec {
        kernel: 0,
        grid: Dim3::linear(1),
        block: Dim3::linear(32),
        args: vec![],
        stream: 0,
        dynamic_shared: 0,
    };
    let w = Workload {
        kernels: vec![b.build()],
        buffers: vec![],
        launches: vec![launch],
        parts: Vec::new(),
        copies: Vec::new(),
    };
    let mut sim = Simulation::new(config, w, &Policies::default(), RunOptions::default()).unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    sim.report().cycles
}

#[test]
fn the_fp64_unit_takes_a_double_every_interval() {
    let n = 40;
    let floats = independent_multiplies(false, n, 8);
    let doubles = independent_multiplies(true, n, 8);
    let fast_doubles = independent_multiplies(true, n, 1);
    // 40 doubles one every 8 cycles take 39 × 8 cycles more than issuing one; floats and doubles
    // at a full rate take about 40.
    assert!(doubles >= floats + 39 * 7, "doubles {doubles}, floats {floats}");
    assert!(fast_doubles <= floats + 8, "at interval 1 only the latency differs: {fast_doubles} vs {floats}");
}

/// An instruction reading the high word of an 8-byte load waits for the load as one reading
/// the low word does: the scoreboard holds both registers of the pair.
#[test]
fn the_high_word_of_a_loaded_pair_waits_for_the_load() {
    let cycles = |use_high: bool| {
        let mut b = KernelBuilder::new("pair", 2);
        let (input, out) = (b.param(0), b.param(1));
        let (v, r) = (b.regs(2), b.reg());
        b.load_width(Space::Global, Width::Dword, v, input, 0);
        let read = if use_high { Reg(v.0 + 1) } else { v };
        b.alu(AluOp::Add, r, read, Operand::Imm(1));
        b.store(Space::Global, out, 0, r).exit();
        let w = Workload {
            kernels: vec![b.build()],
            buffers: vec![buffer("in", 2, BufferInit::Iota), buffer("out", 1, BufferInit::Zeros)],
            launches: vec![LaunchSpec {
                kernel: 0,
                grid: Dim3::linear(1),
                block: Dim3::linear(32),
                args: vec![Arg::Buffer(0), Arg::Buffer(1)],
                stream: 0,
                dynamic_shared: 0,
            }],
            parts: Vec::new(),
            copies: Vec::new(),
        };
        let (buffers, cycles) = run_both(&w);
        assert_eq!(buffers[1][0], if use_high { 2 } else { 1 });
        cycles
    };
    let (low, high) = (cycles(false), cycles(true));
    assert!(low > 100, "the load goes to DRAM: {low} cycles");
    assert_eq!(high, low);
}

#[test]
fn an_eight_byte_access_must_be_aligned_and_a_stored_pair_come_from_registers() {
    let mut b = KernelBuilder::new("odd", 1);
    let (p, v) = (b.param(0), b.regs(2));
    b.load_width(Space::Global, Width::Dword, v, p, 4).exit();
    let w = workload(b.build(), vec![buffer("in", 4, BufferInit::Zeros)], 64);
    let mut sim = Simulation::new(machine(), w, &Policies::default(), RunOptions::default()).unwrap();
    let outcome = sim.run();
    let StepOutcome::Fault { fault, .. } = &outcome else { panic!("expected a fault: {outcome:?}") };
    let expected = FaultKind::Memory { space: Space::Global, address: 256 + 4, error: AccessError::Misaligned };
    assert_eq!(fault.kind, expected);

    let mut b = KernelBuilder::new("imm", 1);
    let p = b.param(0);
    b.store_width(Space::Global, Width::Dword, p, 0, Operand::Imm(1)).exit();
    let w = workload(b.build(), vec![buffer("in", 4, BufferInit::Zeros)], 64);
    let error = Simulation::new(machine(), w, &Policies::default(), RunOptions::default()).err().unwrap();
    assert!(error.reason.contains("8-byte store"), "{error:?}");
}
