//! Workloads that measure the engine's own speed (not the GPU's): one streams through memory,
//! one thrashes the L1 (data with reuse that the warps evict from each other), one is pure
//! arithmetic, and one chases pointers with every lane on its own line (the memory system's
//! worst case). The native benchmark (`warpscope bench`) and the browser benchmark run exactly
//! these.

use alloc::vec;
use alloc::vec::Vec;

use crate::isa::builder::KernelBuilder;
use crate::isa::{AluOp, Axis, CmpOp, CmpType, Dim3, Kernel, Operand, Reg, Space, Special};
use crate::workload::{Arg, BufferInit, BufferSpec, ElemType, LaunchSpec, Workload};

/// A benchmark workload and its name.
pub struct Bench {
    /// Short name printed in the results.
    pub name: &'static str,
    /// What it stresses.
    pub about: &'static str,
    /// The workload.
    pub workload: Workload,
}

/// `i = blockIdx.x * blockDim.x + threadIdx.x`.
fn global_index(b: &mut KernelBuilder) -> Reg {
    let (i, t) = (b.reg(), b.reg());
    b.special(i, Special::BlockIdx(Axis::X)).special(t, Special::BlockDim(Axis::X)).alu(AluOp::Mul, i, i, t);
    b.special(t, Special::ThreadIdx(Axis::X)).alu(AluOp::Add, i, i, t);
    i
}

fn one_launch(kernel: Kernel, buffers: Vec<BufferSpec>, blocks: u32, args: Vec<Arg>) -> Workload {
    Workload {
        kernels: vec![kernel],
        buffers,
        launches: vec![LaunchSpec {
            kernel: 0,
            grid: Dim3::linear(blocks),
            block: Dim3::linear(256),
            args,
            stream: 0,
            dynamic_shared: 0,
        }],
        parts: Vec::new(),
        copies: Vec::new(),
    }
}

/// `c[i] = a[i] + b[i]` over `n` elements: coalesced, bandwidth-bound.
pub fn streaming(n: u32) -> Bench {
    let mut b = KernelBuilder::new("stream", 3);
    let (pa, pb, pc) = (b.param(0), b.param(1), b.param(2));
    let i = global_index(&mut b);
    let (off, x, y) = (b.reg(), b.reg(), b.reg());
    b.alu(AluOp::Shl, off, i, Operand::Imm(2));
    b.alu(AluOp::Add, x, pa, off).load(Space::Global, x, x, 0);
    b.alu(AluOp::Add, y, pb, off).load(Space::Global, y, y, 0);
    b.alu(AluOp::Add, x, x, y).alu(AluOp::Add, off, pc, off).store(Space::Global, off, 0, x).exit();
    let buffer = |name: &str| BufferSpec { name: name.into(), words: n, init: BufferInit::Iota, elem: ElemType::Int };
    Bench {
        name: "streaming",
        about: "vector add, every access coalesced, limited by DRAM bandwidth",
        workload: one_launch(
            b.build(),
            vec![buffer("a"), buffer("b"), buffer("c")],
            n / 256,
            vec![Arg::Buffer(0), Arg::Buffer(1), Arg::Buffer(2)],
        ),
    }
}

/// Line size the thrashing kernel strides by (the line of every preset).
const TILE_LINE_BYTES: u32 = 128;

/// Each warp sums its own tile of `tile_lines` lines (`tile_lines` a power of two), reading it
/// `loads / tile_lines` times over, one coalesced line per load; warp `w` uses tile
/// `w % tiles`. The reuse is there, but between two reads of a line each of the SM's other
/// warps reads a line of its own: with 48 warps of 8-line tiles (48 KiB) against a 16 KiB L1,
/// LRU evicts every line before its next read. This is the pattern of the CCWS paper's
/// cache-sensitive workloads; the tiles (256 KiB at the standard size) fit in the L2.
pub fn thrashing(threads: u32, loads: u32, tile_lines: u32, tiles: u32) -> Bench {
    let mut b = KernelBuilder::new("tiles", 2);
    let (table, out) = (b.param(0), b.param(1));
    let i = global_index(&mut b);
    let (base, t, k, a, v, acc, more) = (b.reg(), b.reg(), b.reg(), b.reg(), b.reg(), b.reg(), b.reg());
    let (head, done) = (b.label(), b.label());
    // base = table + (i / 32 % tiles) * tile bytes + lane * 4
    b.alu(AluOp::ShrU, t, i, Operand::Imm(5)).alu(AluOp::RemU, t, t, Operand::Imm(tiles));
    b.alu(AluOp::Mul, t, t, Operand::Imm(tile_lines * TILE_LINE_BYTES)).alu(AluOp::Add, base, table, t);
    b.alu(AluOp::And, t, i, Operand::Imm(31)).alu(AluOp::Shl, t, t, Operand::Imm(2)).alu(AluOp::Add, base, base, t);
    b.mov(k, Operand::Imm(0)).mov(acc, Operand::Imm(0));
    b.place(head).cmp(CmpOp::Lt, CmpType::Int, more, k, Operand::Imm(loads)).branch_if(more, true, done, done);
    b.alu(AluOp::And, a, k, Operand::Imm(tile_lines - 1));
    b.alu(AluOp::Shl, a, a, Operand::Imm(TILE_LINE_BYTES.trailing_zeros()));
    b.alu(AluOp::Add, a, a, base).load(Space::Global, v, a, 0).alu(AluOp::Add, acc, acc, v);
    b.alu(AluOp::Add, k, k, Operand::Imm(1)).jump(head);
    b.place(done).alu(AluOp::Shl, a, i, Operand::Imm(2)).alu(AluOp::Add, a, a, out);
    b.store(Space::Global, a, 0, acc).exit();
    let table_words = tiles * tile_lines * TILE_LINE_BYTES / 4;
    Bench {
        name: "thrashing",
        about: "each warp re-reads its own 1 KiB tile, coalesced; 48 warps' tiles are 3× an L1, so LRU keeps none",
        workload: one_launch(
            b.build(),
            vec![
                BufferSpec { name: "tiles".into(), words: table_words, init: BufferInit::Iota, elem: ElemType::Int },
                BufferSpec { name: "out".into(), words: threads, init: BufferInit::Zeros, elem: ElemType::Int },
            ],
            threads / 256,
            vec![Arg::Buffer(0), Arg::Buffer(1)],
        ),
    }
}

/// Each thread follows `steps` random pointers through a table of `table_words` words: every
/// load touches its own line and the table is far larger than an L1.
pub fn pointer_chase(threads: u32, steps: u32, table_words: u32) -> Bench {
    let mut b = KernelBuilder::new("chase", 2);
    let (table, out) = (b.param(0), b.param(1));
    let i = global_index(&mut b);
    let (k, p, a, more) = (b.reg(), b.reg(), b.reg(), b.reg());
    let (head, done) = (b.label(), b.label());
    b.mov(k, Operand::Imm(0)).mov(p, i);
    b.place(head).cmp(CmpOp::Lt, CmpType::Int, more, k, Operand::Imm(steps)).branch_if(more, true, done, done);
    b.alu(AluOp::RemU, a, p, Operand::Imm(table_words)).alu(AluOp::Shl, a, a, Operand::Imm(2));
    b.alu(AluOp::Add, a, a, table).load(Space::Global, p, a, 0);
    b.alu(AluOp::Add, k, k, Operand::Imm(1)).jump(head);
    b.place(done).alu(AluOp::Shl, a, i, Operand::Imm(2)).alu(AluOp::Add, a, a, out);
    b.store(Space::Global, a, 0, p).exit();
    Bench {
        name: "divergent",
        about: "dependent random loads, 32 lines per warp load, over a table 64× an L1: misses, MSHR pressure, long latencies",
        workload: one_launch(
            b.build(),
            vec![
                BufferSpec {
                    name: "table".into(),
                    words: table_words,
                    init: BufferInit::Random { seed: 7, min: 0, max: u32::MAX },
                    elem: ElemType::Int,
                },
                BufferSpec { name: "out".into(), words: threads, init: BufferInit::Zeros, elem: ElemType::Int },
            ],
            threads / 256,
            vec![Arg::Buffer(0), Arg::Buffer(1)],
        ),
    }
}

/// Each thread runs `iterations` of a multiply-add loop in registers; one store at the end.
pub fn compute(threads: u32, iterations: u32) -> Bench {
    let mut b = KernelBuilder::new("fma_loop", 1);
    let out = b.param(0);
    let i = global_index(&mut b);
    let (k, x, y, more, a) = (b.reg(), b.reg(), b.reg(), b.reg(), b.reg());
    let (head, done) = (b.label(), b.label());
    b.mov(k, Operand::Imm(0)).mov(x, i).mov(y, Operand::Imm(3));
    b.place(head).cmp(CmpOp::Lt, CmpType::Int, more, k, Operand::Imm(iterations)).branch_if(more, true, done, done);
    b.alu(AluOp::Mul, x, x, y).alu(AluOp::Add, x, x, Operand::Imm(1)).alu(AluOp::Xor, y, y, x);
    b.alu(AluOp::Add, k, k, Operand::Imm(1)).jump(head);
    b.place(done).alu(AluOp::Shl, a, i, Operand::Imm(2)).alu(AluOp::Add, a, a, out);
    b.store(Space::Global, a, 0, x).exit();
    Bench {
        name: "compute",
        about: "integer multiply-add loop, no memory traffic until the end",
        workload: one_launch(
            b.build(),
            vec![BufferSpec { name: "out".into(), words: threads, init: BufferInit::Zeros, elem: ElemType::Int }],
            threads / 256,
            vec![Arg::Buffer(0)],
        ),
    }
}

/// The standard set, sized to take a fraction of a second each natively.
pub fn standard() -> Vec<Bench> {
    vec![streaming(1 << 20), thrashing(1 << 16, 32, 8, 256), compute(1 << 16, 256), pointer_chase(1 << 15, 32, 1 << 20)]
}

/// The same workloads at a size that runs in a fraction of a second (for tests).
pub fn tiny() -> Vec<Bench> {
    vec![streaming(1 << 14), thrashing(1 << 12, 16, 8, 64), compute(1 << 11, 32), pointer_chase(1 << 11, 8, 1 << 16)]
}

/// Fixed work for four SMs, to run on machines of many sizes: what an SM with nothing to do
/// costs shows as the difference. Pointer chasing is long in cycles and light in instructions,
/// the compute loop the opposite.
pub fn four_blocks() -> Vec<Bench> {
    vec![pointer_chase(1024, 1024, 1 << 20), compute(1024, 2048)]
}

/// The workload called `name` from the standard set, or from [`tiny`] when `tiny`.
pub fn by_name(name: &str, tiny_size: bool) -> Option<Bench> {
    let set = if tiny_size { tiny() } else { standard() };
    set.into_iter().find(|b| b.name == name)
}
