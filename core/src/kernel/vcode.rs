//! The code generator's output before register allocation: the instruction set of
//! [`crate::isa`] over unlimited virtual registers. Branch targets are label numbers while
//! code is generated and instruction indices afterwards.
//!
//! A 64-bit value (`long long`, `double`) is one *wide* virtual register, given a pair of
//! consecutive machine registers by the allocator (low word first). Whether a register is wide
//! follows from the instructions that write it ([`VInstr::def_is_wide`]) and, for a parameter,
//! from the kernel's signature; every passage that reads one knows it reads a pair.

use alloc::vec::Vec;

use crate::isa::{
    AluOp, AtomicOp, CmpOp, CmpType, Instr, Operand, Reg, SfuOp, ShuffleMode, Space, Special, UnaryOp, VoteMode,
    WideCmpType, WideOp, WideUnaryOp, Width,
};

/// A virtual register.
pub(crate) type VReg = u32;

/// An instruction input: a virtual register or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VOp {
    Reg(VReg),
    Imm(u32),
}

/// Where in the source an instruction that may fault comes from: an index into the code
/// generator's list of spans, for the kernel's debug info ([`crate::isa::Kernel::source`]).
pub(crate) type Site = u32;
/// No source position.
pub(crate) const NO_SITE: Site = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VInstr {
    Mov {
        dst: VReg,
        src: VOp,
    },
    Special {
        dst: VReg,
        which: Special,
    },
    Alu {
        op: AluOp,
        dst: VReg,
        a: VOp,
        b: VOp,
    },
    Unary {
        op: UnaryOp,
        dst: VReg,
        a: VOp,
    },
    Fma {
        dst: VReg,
        a: VOp,
        b: VOp,
        c: VOp,
    },
    Sfu {
        op: SfuOp,
        dst: VReg,
        a: VOp,
        b: VOp,
    },
    Cmp {
        op: CmpOp,
        ty: CmpType,
        dst: VReg,
        a: VOp,
        b: VOp,
    },
    Select {
        dst: VReg,
        cond: VReg,
        a: VOp,
        b: VOp,
    },
    /// 64-bit arithmetic ([`Instr::Wide`]): `dst`, `a` and `b` are wide.
    Wide {
        op: WideOp,
        dst: VReg,
        a: VReg,
        b: VReg,
    },
    /// A double fused multiply-add ([`Instr::WideFma`]): every register is wide.
    WideFma {
        dst: VReg,
        a: VReg,
        b: VReg,
        c: VReg,
    },
    /// [`Instr::WideUnary`]: `dst` is wide where the operation writes a pair, `a` where it
    /// reads one.
    WideUnary {
        op: WideUnaryOp,
        dst: VReg,
        a: VReg,
    },
    /// [`Instr::WideCmp`]: `a` and `b` are wide, `dst` is not.
    WideCmp {
        op: CmpOp,
        ty: WideCmpType,
        dst: VReg,
        a: VReg,
        b: VReg,
    },
    /// The wide `dst` made of two words: two moves once allocated.
    Pack {
        dst: VReg,
        lo: VOp,
        hi: VOp,
    },
    /// One word (the high one where `high`) of the wide `src`: a move once allocated.
    Half {
        dst: VReg,
        src: VReg,
        high: bool,
    },
    /// A copy of a wide register: two moves once allocated (none where both share a pair).
    Mov64 {
        dst: VReg,
        src: VReg,
    },
    /// `dst = cond != 0 ? a : b` on wide registers: two selects once allocated.
    Select64 {
        dst: VReg,
        cond: VReg,
        a: VReg,
        b: VReg,
    },
    /// A warp shuffle ([`Instr::Shuffle`]): not pure, its result depends on which lanes run
    /// it together, so it is never moved across a branch.
    Shuffle {
        mode: ShuffleMode,
        dst: VReg,
        value: VOp,
        b: VOp,
        width: VOp,
    },
    /// A warp vote ([`Instr::Vote`]): not pure, for the same reason.
    Vote {
        mode: VoteMode,
        dst: VReg,
        mask: VOp,
        pred: VOp,
    },
    /// A load; `dst` is wide where `width` is [`Width::Dword`].
    Load {
        space: Space,
        width: Width,
        dst: VReg,
        addr: VReg,
        offset: i32,
        site: Site,
    },
    /// A store; `src` is a wide register where `width` is [`Width::Dword`].
    Store {
        space: Space,
        width: Width,
        addr: VReg,
        offset: i32,
        src: VOp,
        site: Site,
    },
    Atomic {
        op: AtomicOp,
        space: Space,
        /// A word, or a 64-bit atomic (`dst`, `src` and `compare` wide).
        width: Width,
        dst: VReg,
        addr: VReg,
        src: VOp,
        compare: VOp,
        site: Site,
    },
    /// Saves the register `src` (wide where `wide`) in local memory ([`Instr::Spill`]); made
    /// only by the allocator's spilling, after every other pass.
    Spill {
        src: VReg,
        slot: u16,
        wide: bool,
    },
    /// Loads a spilled register back ([`Instr::Fill`]).
    Fill {
        dst: VReg,
        slot: u16,
        wide: bool,
    },
    Branch {
        cond: Option<VReg>,
        negate: bool,
        target: u32,
        reconverge: u32,
    },
    /// A local array's bounds check ([`Instr::Bound`]): not pure, it may fault.
    Bound {
        index: VOp,
        len: u32,
        array: u16,
        site: Site,
    },
    Barrier {
        site: Site,
    },
    Exit,
    /// `dims..dims+6` and `args..args+nargs` are groups of consecutive virtual registers that
    /// the allocator keeps consecutive.
    Launch {
        kernel: u32,
        dims: VReg,
        args: VReg,
        nargs: u32,
    },
}

impl VInstr {
    /// Where in the source it comes from, if it may fault.
    pub fn site(&self) -> Site {
        match *self {
            VInstr::Load { site, .. }
            | VInstr::Store { site, .. }
            | VInstr::Atomic { site, .. }
            | VInstr::Bound { site, .. }
            | VInstr::Barrier { site } => site,
            _ => NO_SITE,
        }
    }

    /// The register written, if any.
    pub fn def(&self) -> Option<VReg> {
        match *self {
            VInstr::Mov { dst, .. }
            | VInstr::Special { dst, .. }
            | VInstr::Alu { dst, .. }
            | VInstr::Unary { dst, .. }
            | VInstr::Fma { dst, .. }
            | VInstr::Sfu { dst, .. }
            | VInstr::Cmp { dst, .. }
            | VInstr::Select { dst, .. }
            | VInstr::Wide { dst, .. }
            | VInstr::WideFma { dst, .. }
            | VInstr::WideUnary { dst, .. }
            | VInstr::WideCmp { dst, .. }
            | VInstr::Pack { dst, .. }
            | VInstr::Half { dst, .. }
            | VInstr::Mov64 { dst, .. }
            | VInstr::Select64 { dst, .. }
            | VInstr::Shuffle { dst, .. }
            | VInstr::Vote { dst, .. }
            | VInstr::Load { dst, .. }
            | VInstr::Fill { dst, .. }
            | VInstr::Atomic { dst, .. } => Some(dst),
            VInstr::Store { .. }
            | VInstr::Spill { .. }
            | VInstr::Bound { .. }
            | VInstr::Branch { .. }
            | VInstr::Barrier { .. }
            | VInstr::Exit
            | VInstr::Launch { .. } => None,
        }
    }

    /// Redirects the write to `to` (the instruction must write a register).
    pub fn set_def(&mut self, to: VReg) {
        match self {
            VInstr::Mov { dst, .. }
            | VInstr::Special { dst, .. }
            | VInstr::Alu { dst, .. }
            | VInstr::Unary { dst, .. }
            | VInstr::Fma { dst, .. }
            | VInstr::Sfu { dst, .. }
            | VInstr::Cmp { dst, .. }
            | VInstr::Select { dst, .. }
            | VInstr::Wide { dst, .. }
            | VInstr::WideFma { dst, .. }
            | VInstr::WideUnary { dst, .. }
            | VInstr::WideCmp { dst, .. }
            | VInstr::Pack { dst, .. }
            | VInstr::Half { dst, .. }
            | VInstr::Mov64 { dst, .. }
            | VInstr::Select64 { dst, .. }
            | VInstr::Shuffle { dst, .. }
            | VInstr::Vote { dst, .. }
            | VInstr::Load { dst, .. }
            | VInstr::Fill { dst, .. }
            | VInstr::Atomic { dst, .. } => *dst = to,
            _ => {}
        }
    }

    /// Calls `f` on every register read.
    pub fn for_each_use(&self, mut f: impl FnMut(VReg)) {
        let mut op = |o: VOp| {
            if let VOp::Reg(r) = o {
                f(r)
            }
        };
        match *self {
            VInstr::Mov { src, .. } => op(src),
            VInstr::Special { .. } | VInstr::Fill { .. } | VInstr::Barrier { .. } | VInstr::Exit => {}
            VInstr::Spill { src, .. } => op(VOp::Reg(src)),
            VInstr::Alu { a, b, .. } | VInstr::Sfu { a, b, .. } | VInstr::Cmp { a, b, .. } => {
                op(a);
                op(b)
            }
            VInstr::Unary { a, .. } | VInstr::Bound { index: a, .. } => op(a),
            VInstr::Fma { a, b, c, .. } | VInstr::Shuffle { value: a, b, width: c, .. } => {
                op(a);
                op(b);
                op(c)
            }
            VInstr::Vote { mask: a, pred: b, .. } => {
                op(a);
                op(b)
            }
            VInstr::Select { cond, a, b, .. } => {
                op(VOp::Reg(cond));
                op(a);
                op(b)
            }
            VInstr::Wide { a, b, .. } | VInstr::WideCmp { a, b, .. } => {
                op(VOp::Reg(a));
                op(VOp::Reg(b))
            }
            VInstr::WideFma { a, b, c, .. } => {
                op(VOp::Reg(a));
                op(VOp::Reg(b));
                op(VOp::Reg(c))
            }
            VInstr::WideUnary { a, .. } | VInstr::Half { src: a, .. } | VInstr::Mov64 { src: a, .. } => op(VOp::Reg(a)),
            VInstr::Pack { lo, hi, .. } => {
                op(lo);
                op(hi)
            }
            VInstr::Select64 { cond, a, b, .. } => {
                op(VOp::Reg(cond));
                op(VOp::Reg(a));
                op(VOp::Reg(b))
            }
            VInstr::Load { addr, .. } => op(VOp::Reg(addr)),
            VInstr::Store { addr, src, .. } => {
                op(VOp::Reg(addr));
                op(src)
            }
            VInstr::Atomic { addr, src, compare, .. } => {
                op(VOp::Reg(addr));
                op(src);
                op(compare)
            }
            VInstr::Branch { cond, .. } => {
                if let Some(c) = cond {
                    op(VOp::Reg(c))
                }
            }
            VInstr::Launch { dims, args, nargs, .. } => {
                for r in dims..dims + 6 {
                    op(VOp::Reg(r));
                }
                for r in args..args + nargs {
                    op(VOp::Reg(r));
                }
            }
        }
    }

    /// Calls `f` on every input that may be a register or a constant (not on the registers
    /// that must stay registers: addresses, conditions, launch groups).
    pub fn for_each_operand_mut(&mut self, mut f: impl FnMut(&mut VOp)) {
        match self {
            VInstr::Mov { src, .. } => f(src),
            VInstr::Alu { a, b, .. } | VInstr::Sfu { a, b, .. } | VInstr::Cmp { a, b, .. } => {
                f(a);
                f(b)
            }
            VInstr::Unary { a, .. } | VInstr::Bound { index: a, .. } => f(a),
            VInstr::Fma { a, b, c, .. } | VInstr::Shuffle { value: a, b, width: c, .. } => {
                f(a);
                f(b);
                f(c)
            }
            VInstr::Select { a, b, .. } | VInstr::Vote { mask: a, pred: b, .. } => {
                f(a);
                f(b)
            }
            // A wide store's source is a register pair, never a constant.
            VInstr::Store { src, width, .. } if *width != Width::Dword => f(src),
            VInstr::Atomic { src, compare, .. } => {
                f(src);
                f(compare)
            }
            VInstr::Pack { lo, hi, .. } => {
                f(lo);
                f(hi)
            }
            VInstr::Store { .. }
            | VInstr::Wide { .. }
            | VInstr::WideFma { .. }
            | VInstr::WideUnary { .. }
            | VInstr::WideCmp { .. }
            | VInstr::Half { .. }
            | VInstr::Mov64 { .. }
            | VInstr::Select64 { .. }
            | VInstr::Special { .. }
            | VInstr::Load { .. }
            | VInstr::Spill { .. }
            | VInstr::Fill { .. }
            | VInstr::Branch { .. }
            | VInstr::Barrier { .. }
            | VInstr::Exit
            | VInstr::Launch { .. } => {}
        }
    }

    /// Calls `f` on every input that must be a register: a select's condition, an address,
    /// a branch condition, every wide input (not launch groups, whose registers must stay
    /// consecutive).
    pub fn for_each_reg_input_mut(&mut self, mut f: impl FnMut(&mut VReg)) {
        match self {
            VInstr::Select { cond, .. } => f(cond),
            VInstr::Select64 { cond, a, b, .. } => {
                f(cond);
                f(a);
                f(b)
            }
            VInstr::Wide { a, b, .. } | VInstr::WideCmp { a, b, .. } => {
                f(a);
                f(b)
            }
            VInstr::WideFma { a, b, c, .. } => {
                f(a);
                f(b);
                f(c)
            }
            VInstr::WideUnary { a, .. } | VInstr::Half { src: a, .. } | VInstr::Mov64 { src: a, .. } => f(a),
            VInstr::Store { width: Width::Dword, addr, src: VOp::Reg(src), .. } => {
                f(addr);
                f(src)
            }
            VInstr::Load { addr, .. } | VInstr::Store { addr, .. } | VInstr::Atomic { addr, .. } => f(addr),
            VInstr::Branch { cond: Some(c), .. } => f(c),
            VInstr::Spill { src, .. } => f(src),
            _ => {}
        }
    }

    /// Whether the instruction only computes its result from its inputs: no memory, no
    /// control flow, nothing another lane or thread can see.
    pub fn is_pure(&self) -> bool {
        matches!(
            self,
            VInstr::Mov { .. }
                | VInstr::Special { .. }
                | VInstr::Alu { .. }
                | VInstr::Unary { .. }
                | VInstr::Fma { .. }
                | VInstr::Sfu { .. }
                | VInstr::Cmp { .. }
                | VInstr::Select { .. }
                | VInstr::Wide { .. }
                | VInstr::WideFma { .. }
                | VInstr::WideUnary { .. }
                | VInstr::WideCmp { .. }
                | VInstr::Pack { .. }
                | VInstr::Half { .. }
                | VInstr::Mov64 { .. }
                | VInstr::Select64 { .. }
        )
    }

    /// Whether the register it writes is wide (a pair once allocated).
    pub fn def_is_wide(&self) -> bool {
        match *self {
            VInstr::Wide { .. }
            | VInstr::WideFma { .. }
            | VInstr::Pack { .. }
            | VInstr::Mov64 { .. }
            | VInstr::Select64 { .. } => true,
            VInstr::WideUnary { op, .. } => op.writes_pair(),
            VInstr::Load { width, .. } | VInstr::Atomic { width, .. } => width == Width::Dword,
            VInstr::Fill { wide, .. } => wide,
            _ => false,
        }
    }

    /// Where control may go next from instruction `at` of `len` (none past the end).
    pub fn successors(&self, at: u32, len: u32) -> ([u32; 2], usize) {
        let next = at + 1;
        match *self {
            VInstr::Branch { cond: None, target, .. } => ([target, 0], 1),
            VInstr::Branch { cond: Some(_), target, .. } => {
                if next < len {
                    ([target, next], 2)
                } else {
                    ([target, 0], 1)
                }
            }
            VInstr::Exit => ([0, 0], 0),
            _ if next < len => ([next, 0], 1),
            _ => ([0, 0], 0),
        }
    }

    /// How many machine instructions it becomes ([`VInstr::lower`]).
    pub fn machine_len(&self) -> u32 {
        match self {
            VInstr::Pack { .. } | VInstr::Mov64 { .. } | VInstr::Select64 { .. } => 2,
            _ => 1,
        }
    }

    /// Appends its machine instructions to `out`, each virtual register replaced by its
    /// physical one (a wide register by the first of its pair). The allocator keeps a
    /// two-instruction lowering's destination apart from the inputs its first instruction
    /// could overwrite, except for a copy, ordered here so that it reads each word first.
    pub fn lower(self, reg: impl Fn(VReg) -> Reg, out: &mut Vec<Instr>) {
        let op = |o: VOp| match o {
            VOp::Reg(r) => Operand::Reg(reg(r)),
            VOp::Imm(v) => Operand::Imm(v),
        };
        let high = |r: Reg| Reg(r.0.wrapping_add(1));
        let instr = match self {
            VInstr::Pack { dst, lo, hi } => {
                let dst = reg(dst);
                out.push(Instr::Mov { dst, src: op(lo) });
                Instr::Mov { dst: high(dst), src: op(hi) }
            }
            VInstr::Mov64 { dst, src } => {
                let (dst, src) = (reg(dst), reg(src));
                let low = Instr::Mov { dst, src: Operand::Reg(src) };
                let top = Instr::Mov { dst: high(dst), src: Operand::Reg(high(src)) };
                // Copying down by one register: the low word's move would overwrite the
                // source's high word before it is read.
                if dst == high(src) {
                    out.push(top);
                    low
                } else {
                    out.push(low);
                    top
                }
            }
            VInstr::Select64 { dst, cond, a, b } => {
                let (dst, cond, a, b) = (reg(dst), reg(cond), reg(a), reg(b));
                out.push(Instr::Select { dst, cond, a: Operand::Reg(a), b: Operand::Reg(b) });
                Instr::Select { dst: high(dst), cond, a: Operand::Reg(high(a)), b: Operand::Reg(high(b)) }
            }
            VInstr::Wide { op: o, dst, a, b } => Instr::Wide { op: o, dst: reg(dst), a: reg(a), b: reg(b) },
            VInstr::WideFma { dst, a, b, c } => Instr::WideFma { dst: reg(dst), a: reg(a), b: reg(b), c: reg(c) },
            VInstr::WideUnary { op: o, dst, a } => Instr::WideUnary { op: o, dst: reg(dst), a: reg(a) },
            VInstr::WideCmp { op: o, ty, dst, a, b } => {
                Instr::WideCmp { op: o, ty, dst: reg(dst), a: reg(a), b: reg(b) }
            }
            VInstr::Half { dst, src, high: h } => {
                let src = reg(src);
                Instr::Mov { dst: reg(dst), src: Operand::Reg(if h { high(src) } else { src }) }
            }
            VInstr::Mov { dst, src } => Instr::Mov { dst: reg(dst), src: op(src) },
            VInstr::Special { dst, which } => Instr::Special { dst: reg(dst), which },
            VInstr::Alu { op: o, dst, a, b } => Instr::Alu { op: o, dst: reg(dst), a: op(a), b: op(b) },
            VInstr::Unary { op: o, dst, a } => Instr::Unary { op: o, dst: reg(dst), a: op(a) },
            VInstr::Fma { dst, a, b, c } => Instr::Fma { dst: reg(dst), a: op(a), b: op(b), c: op(c) },
            VInstr::Sfu { op: o, dst, a, b } => Instr::Sfu { op: o, dst: reg(dst), a: op(a), b: op(b) },
            VInstr::Cmp { op: o, ty, dst, a, b } => Instr::Cmp { op: o, ty, dst: reg(dst), a: op(a), b: op(b) },
            VInstr::Select { dst, cond, a, b } => Instr::Select { dst: reg(dst), cond: reg(cond), a: op(a), b: op(b) },
            VInstr::Shuffle { mode, dst, value, b, width } => {
                Instr::Shuffle { mode, dst: reg(dst), value: op(value), b: op(b), width: op(width) }
            }
            VInstr::Vote { mode, dst, mask, pred } => {
                Instr::Vote { mode, dst: reg(dst), mask: op(mask), pred: op(pred) }
            }
            VInstr::Load { space, width, dst, addr, offset, .. } => {
                Instr::Load { space, width, dst: reg(dst), addr: reg(addr), offset }
            }
            VInstr::Store { space, width, addr, offset, src, .. } => {
                Instr::Store { space, width, addr: reg(addr), offset, src: op(src) }
            }
            VInstr::Atomic { op: o, space, width, dst, addr, src, compare, .. } => Instr::Atomic {
                op: o,
                space,
                width,
                dst: reg(dst),
                addr: reg(addr),
                src: op(src),
                compare: op(compare),
            },
            VInstr::Spill { src, slot, wide } => Instr::Spill { src: reg(src), slot, pair: wide },
            VInstr::Fill { dst, slot, wide } => Instr::Fill { dst: reg(dst), slot, pair: wide },
            VInstr::Branch { cond, negate, target, reconverge } => {
                Instr::Branch { cond: cond.map(&reg), negate, target, reconverge }
            }
            VInstr::Bound { index, len, array, .. } => Instr::Bound { index: op(index), len, array },
            VInstr::Barrier { .. } => Instr::Barrier,
            VInstr::Exit => Instr::Exit,
            VInstr::Launch { kernel, dims, args, nargs } => {
                Instr::Launch { kernel, dims: reg(dims), args: if nargs == 0 { Reg(0) } else { reg(args) } }
            }
        };
        out.push(instr);
    }
}
