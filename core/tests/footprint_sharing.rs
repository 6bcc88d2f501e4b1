//! The shared-footprint profiler (LaPerm Fig. 2) on a launch tree small enough to work out by
//! hand: loads, stores and atomics all count (spills and fills do not), children of one parent are pooled across the
//! grids it launched, and each block is compared with the union of the others.

use warpscope_core::exec::footprint_sharing::{sharing, MeanRatio};
use warpscope_core::isa::builder::KernelBuilder;
use warpscope_core::isa::{AluOp, AtomicOp, Axis, CmpOp, CmpType, Dim3, Instr, Kernel, Operand, Reg, Space, Special};
use warpscope_core::workload::{Arg, BufferInit, BufferSpec, ElemType, LaunchSpec, Workload};

/// Bytes per line, the profiler's unit.
const LINE: u32 = 128;

/// Parent `<<<2, 32>>>(buf)`; with L(k) the k-th line of `buf` and b the block index:
/// - every lane loads L(2b + (t & 1)) and L(2b + 3) and stores one word of L(2b + 2), so
///   block 0 touches {0, 1, 2, 3} (L2 only by a store) and block 1 touches {2, 3, 4, 5};
/// - lanes 0 and 1 of block 0 launch `child<<<2 - t, 32>>>(buf, 2t)`: two grids, of 2 blocks
///   and of 1 block.
///
/// Child `(buf, first)`, c = first + blockIdx.x: every lane loads L(c + (t & 1)) and
/// atomically adds to L(8 + c), so the children touch {0, 1, 8}, {1, 2, 9}, {2, 3, 10}.
fn parent_and_children() -> Vec<Kernel> {
    let mut p = KernelBuilder::new("parent", 1);
    let buf = p.param(0);
    let (t, b, base, addr, value, flat, launches) = (p.reg(), p.reg(), p.reg(), p.reg(), p.reg(), p.reg(), p.reg());
    let dims = p.regs(6);
    let args = p.regs(2);
    let (skip, join) = (p.label(), p.label());
    p.special(t, Special::ThreadIdx(Axis::X)).special(b, Special::BlockIdx(Axis::X));
    p.alu(AluOp::Mul, base, b, Operand::Imm(2 * LINE)).alu(AluOp::Add, base, base, buf);
    p.alu(AluOp::And, addr, t, Operand::Imm(1)).alu(AluOp::Mul, addr, addr, Operand::Imm(LINE));
    p.alu(AluOp::Add, addr, addr, base).load(Space::Global, value, addr, 0);
    // A spill and fill: a thread's local memory is not footprint.
    p.spill(value, 0, false).fill(value, 0, false);
    p.load(Space::Global, value, base, 3 * LINE as i32);
    p.alu(AluOp::Shl, addr, t, Operand::Imm(2)).alu(AluOp::Add, addr, addr, base);
    p.store(Space::Global, addr, 2 * LINE as i32, value);
    // Launch from the lanes with blockIdx.x * 32 + t < 2.
    p.alu(AluOp::Mul, flat, b, Operand::Imm(32)).alu(AluOp::Add, flat, flat, t);
    p.cmp(CmpOp::Lt, CmpType::Int, launches, flat, Operand::Imm(2)).branch_if(launches, true, skip, join);
    let dim = |i: u8| Reg(dims.0 + i);
    p.alu(AluOp::Sub, dim(0), Operand::Imm(2), t);
    for (i, v) in [(1, 1), (2, 1), (3, 32), (4, 1), (5, 1)] {
        p.mov(dim(i), Operand::Imm(v));
    }
    p.mov(args, buf).alu(AluOp::Mul, Reg(args.0 + 1), t, Operand::Imm(2));
    p.launch(1, dims, args);
    p.place(skip).place(join).exit();

    let mut c = KernelBuilder::new("child", 2);
    let (buf, first) = (c.param(0), c.param(1));
    let (t, child, base, addr, value) = (c.reg(), c.reg(), c.reg(), c.reg(), c.reg());
    c.special(t, Special::ThreadIdx(Axis::X)).special(child, Special::BlockIdx(Axis::X));
    c.alu(AluOp::Add, child, child, first).alu(AluOp::Mul, base, child, Operand::Imm(LINE));
    c.alu(AluOp::Add, base, base, buf);
    c.alu(AluOp::And, addr, t, Operand::Imm(1)).alu(AluOp::Mul, addr, addr, Operand::Imm(LINE));
    c.alu(AluOp::Add, addr, addr, base).load(Space::Global, value, addr, 0);
    c.spill(value, 0, false).fill(value, 0, false);
    c.alu(AluOp::Add, addr, base, Operand::Imm(8 * LINE));
    c.push(Instr::Atomic {
        op: AtomicOp::Add,
        space: Space::Global,
        width: warpscope_core::isa::Width::Word,
        dst: value,
        addr,
        src: Operand::Imm(1),
        compare: Operand::Imm(0),
    });
    c.exit();
    vec![p.build(), c.build()]
}

fn workload(host_launches: usize) -> Workload {
    let parent = LaunchSpec {
        kernel: 0,
        grid: Dim3::linear(2),
        block: Dim3::linear(32),
        args: vec![Arg::Buffer(0)],
        stream: 0,
        dynamic_shared: 0,
    };
    Workload {
        kernels: parent_and_children(),
        buffers: vec![BufferSpec { name: "buf".into(), words: 16 * 32, init: BufferInit::Zeros, elem: ElemType::Int }],
        launches: vec![parent; host_launches],
        parts: Vec::new(),
        copies: Vec::new(),
    }
}

fn assert_ratio(got: MeanRatio, mean: f64, counted: u64, what: &str) {
    assert_eq!(got.counted, counted, "{what}: blocks counted");
    let value = got.mean.unwrap_or_else(|| panic!("{what}: no mean"));
    assert!((value - mean).abs() < 1e-12, "{what}: {value} instead of {mean}");
}

#[test]
fn the_ratios_of_a_hand_worked_launch_tree() {
    // Parent block 0 (the only direct parent): p = {0, 1, 2, 3}.
    // Its children, both grids pooled: c = {0, 1, 2, 3, 8, 9, 10}; p ∩ c = {0, 1, 2, 3}: 4/7.
    // Child {0, 1, 8} against {1, 2, 3, 9, 10}: 1/5; {1, 2, 9} against {0, 1, 2, 3, 8, 10}:
    // 2/6; {2, 3, 10} against {0, 1, 2, 8, 9}: 1/5; mean (1/5 + 1/3 + 1/5) / 3 = 11/45.
    // Parent-parent: p against the other parent block {2, 3, 4, 5}: 2/4.
    // Counting only loads would give 3/4 and 7/18 (L2 and the children's own lines vanish);
    // keeping each grid's children apart, 3/5 and 1/3.
    let r = sharing(&workload(1), 32, 1 << 20).expect("runs");
    assert_eq!((r.direct_parents, r.child_blocks), (1, 3));
    assert_eq!((r.lines_per_parent, r.lines_per_child), (4.0, 3.0));
    assert_ratio(r.parent_child, 4.0 / 7.0, 1, "parent-child");
    assert_ratio(r.child_sibling, 11.0 / 45.0, 3, "child-sibling");
    assert_ratio(r.parent_parent, 0.5, 1, "parent-parent");
}

#[test]
fn each_host_launch_is_its_own_tree() {
    // The same tree twice: twice the blocks, the same means.
    let r = sharing(&workload(2), 32, 1 << 20).expect("runs");
    assert_eq!((r.direct_parents, r.child_blocks), (2, 6));
    assert_ratio(r.parent_child, 4.0 / 7.0, 2, "parent-child");
    assert_ratio(r.child_sibling, 11.0 / 45.0, 6, "child-sibling");
    assert_ratio(r.parent_parent, 0.5, 2, "parent-parent");
}

#[test]
fn without_device_launches_nothing_is_counted() {
    let mut w = workload(1);
    w.launches[0].kernel = 1;
    w.launches[0].args.push(Arg::Value(0));
    let r = sharing(&w, 32, 1 << 20).expect("runs");
    assert_eq!((r.direct_parents, r.child_blocks), (0, 0));
    for ratio in [r.parent_child, r.child_sibling, r.parent_parent] {
        assert_eq!(ratio, MeanRatio { mean: None, counted: 0 });
    }
}
