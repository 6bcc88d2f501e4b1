//! A small assembler for writing kernels in Rust: tests and benchmarks use it until (and
//! alongside) the kernel language. Registers are allocated in order; labels may be used before
//! they are placed.

use alloc::string::String;
use alloc::vec::Vec;

use super::*;

/// A position in the code, placed with [`KernelBuilder::place`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label(usize);

/// Builds a [`Kernel`].
pub struct KernelBuilder {
    name: String,
    code: Vec<Instr>,
    next_reg: u32,
    params: u32,
    shared_bytes: u32,
    /// Words of local memory the spills and fills reach.
    spill_words: u32,
    /// Instruction index of each label once placed.
    labels: Vec<Option<u32>>,
    /// Branches whose target/reconvergence refer to labels: (instruction, target, reconverge).
    fixups: Vec<(usize, Label, Label)>,
}

impl KernelBuilder {
    /// A kernel with `params` parameters, which arrive in registers `r0..r{params-1}`.
    pub fn new(name: &str, params: u32) -> Self {
        KernelBuilder {
            name: name.into(),
            code: Vec::new(),
            next_reg: params,
            params,
            shared_bytes: 0,
            spill_words: 0,
            labels: Vec::new(),
            fixups: Vec::new(),
        }
    }

    /// The register holding parameter `i`.
    pub fn param(&self, i: u32) -> Reg {
        assert!(i < self.params, "parameter {i} of {}", self.params);
        Reg(i as u8)
    }

    /// A fresh register.
    pub fn reg(&mut self) -> Reg {
        assert!(self.next_reg < 256, "kernel {} uses more than 256 registers", self.name);
        self.next_reg += 1;
        Reg((self.next_reg - 1) as u8)
    }

    /// `n` fresh, consecutive registers (for a launch's dimensions and arguments); the first.
    pub fn regs(&mut self, n: u32) -> Reg {
        let first = self.reg();
        for _ in 1..n {
            self.reg();
        }
        first
    }

    /// Declares `bytes` of shared memory per thread block.
    pub fn shared(&mut self, bytes: u32) -> &mut Self {
        self.shared_bytes = bytes;
        self
    }

    /// Appends an instruction.
    pub fn push(&mut self, instr: Instr) -> &mut Self {
        self.code.push(instr);
        self
    }

    /// A new, unplaced label.
    pub fn label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() - 1)
    }

    /// Places `label` at the next instruction.
    pub fn place(&mut self, label: Label) -> &mut Self {
        self.labels[label.0] = Some(self.code.len() as u32);
        self
    }

    /// `dst = which`.
    pub fn special(&mut self, dst: Reg, which: Special) -> &mut Self {
        self.push(Instr::Special { dst, which })
    }

    /// `dst = a op b`.
    pub fn alu(&mut self, op: AluOp, dst: Reg, a: impl Into<Operand>, b: impl Into<Operand>) -> &mut Self {
        self.push(Instr::Alu { op, dst, a: a.into(), b: b.into() })
    }

    /// `dst = src`.
    pub fn mov(&mut self, dst: Reg, src: impl Into<Operand>) -> &mut Self {
        self.push(Instr::Mov { dst, src: src.into() })
    }

    /// `dst = (a op b)` compared as `ty`.
    pub fn cmp(&mut self, op: CmpOp, ty: CmpType, dst: Reg, a: impl Into<Operand>, b: impl Into<Operand>) -> &mut Self {
        self.push(Instr::Cmp { op, ty, dst, a: a.into(), b: b.into() })
    }

    /// `dst = *(addr + offset)` in `space`, a word.
    pub fn load(&mut self, space: Space, dst: Reg, addr: Reg, offset: i32) -> &mut Self {
        self.load_width(space, Width::Word, dst, addr, offset)
    }

    /// `dst = *(addr + offset)` in `space`, `width` bytes extended to a word.
    pub fn load_width(&mut self, space: Space, width: Width, dst: Reg, addr: Reg, offset: i32) -> &mut Self {
        self.push(Instr::Load { space, width, dst, addr, offset })
    }

    /// `*(addr + offset) = src` in `space`, a word.
    pub fn store(&mut self, space: Space, addr: Reg, offset: i32, src: impl Into<Operand>) -> &mut Self {
        self.store_width(space, Width::Word, addr, offset, src)
    }

    /// `*(addr + offset) = src` in `space`, the low `width` bytes of `src`.
    pub fn store_width(
        &mut self,
        space: Space,
        width: Width,
        addr: Reg,
        offset: i32,
        src: impl Into<Operand>,
    ) -> &mut Self {
        self.push(Instr::Store { space, width, addr, offset, src: src.into() })
    }

    /// Jump to `target` where `cond` is non-zero (or zero, if `negate`); paths meet at `reconverge`.
    pub fn branch_if(&mut self, cond: Reg, negate: bool, target: Label, reconverge: Label) -> &mut Self {
        self.fixups.push((self.code.len(), target, reconverge));
        self.push(Instr::Branch { cond: Some(cond), negate, target: 0, reconverge: 0 })
    }

    /// Unconditional jump to `target`.
    pub fn jump(&mut self, target: Label) -> &mut Self {
        self.fixups.push((self.code.len(), target, target));
        self.push(Instr::Branch { cond: None, negate: false, target: 0, reconverge: 0 })
    }

    /// `__syncthreads()`.
    pub fn barrier(&mut self) -> &mut Self {
        self.push(Instr::Barrier)
    }

    /// Every active lane launches a grid of kernel `kernel`: dimensions in the six registers
    /// from `dims` (grid x, y, z, block x, y, z), arguments in consecutive registers from `args`.
    pub fn launch(&mut self, kernel: u32, dims: Reg, args: Reg) -> &mut Self {
        self.push(Instr::Launch { kernel, dims, args })
    }

    /// Saves `src` (a pair where `pair`) at word `slot` of the thread's local memory.
    pub fn spill(&mut self, src: Reg, slot: u16, pair: bool) -> &mut Self {
        self.spill_words = self.spill_words.max(slot as u32 + 1 + pair as u32);
        self.push(Instr::Spill { src, slot, pair })
    }

    /// `dst = ` word `slot` (a pair where `pair`) of the thread's local memory.
    pub fn fill(&mut self, dst: Reg, slot: u16, pair: bool) -> &mut Self {
        self.spill_words = self.spill_words.max(slot as u32 + 1 + pair as u32);
        self.push(Instr::Fill { dst, slot, pair })
    }

    /// A local array's bounds check: lanes whose `index` is not below `len` fault.
    pub fn bound(&mut self, index: impl Into<Operand>, len: u32) -> &mut Self {
        self.push(Instr::Bound { index: index.into(), len, array: 0 })
    }

    /// The active lanes finish.
    pub fn exit(&mut self) -> &mut Self {
        self.push(Instr::Exit)
    }

    /// The finished kernel. Panics on an unplaced label: a bug in the test that built it.
    pub fn build(mut self) -> Kernel {
        for &(at, target, reconverge) in &self.fixups {
            let resolve = |l: Label| self.labels[l.0].unwrap_or_else(|| panic!("label {} was never placed", l.0));
            if let Instr::Branch { target: t, reconverge: r, .. } = &mut self.code[at] {
                *t = resolve(target);
                *r = resolve(reconverge);
            }
        }
        Kernel {
            name: self.name,
            code: self.code,
            regs_per_thread: self.next_reg.max(1),
            shared_bytes: self.shared_bytes,
            params: self.params,
            spill_words: self.spill_words,
            max_block_threads: 0,
            local_arrays: Vec::new(),
            source: Vec::new(),
        }
    }
}
