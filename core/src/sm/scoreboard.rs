//! The scoreboard's view of each instruction, decoded once per kernel: the registers it must
//! wait for and the unit it goes to. The issue stage looks at a warp's next instruction every
//! time the warp may have become ready, so this spares decoding the instruction each time.

use alloc::vec::Vec;

use crate::isa::{Instr, InstrClass, Kernel, Reg, Unit};

/// What the scoreboard waits for before an instruction may issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    /// No registers: a barrier or an unconditional branch.
    Nothing,
    /// The first four registers in [`Operands::regs`] (every 32-bit instruction's).
    Registers,
    /// All eight (a 64-bit instruction's pairs read and the pair it writes).
    Many,
    /// Every register of the warp: an exit, or a launch reading up to 6 + params registers.
    All,
}

/// One instruction as the issue stage sees it.
#[derive(Clone, Copy, Debug)]
pub struct Operands {
    /// The registers it reads and writes, padded by repeating the first (the latest ready cycle
    /// of the list does not change).
    regs: [u8; 8],
    wait: Wait,
    /// The unit it goes to.
    pub unit: Unit,
    /// What it does, for the policies' issue gates.
    pub class: InstrClass,
    /// The register it writes, if any.
    pub dst: Option<Reg>,
    /// Whether it writes the register after `dst` too (a 64-bit result).
    pub dst_pair: bool,
}

impl Operands {
    /// Decodes `instr`.
    pub fn of(instr: &Instr) -> Self {
        let (unit, class) = (instr.unit(), instr.class());
        let (dst, dst_pair) = (instr.dst(), instr.writes_pair());
        if matches!(instr, Instr::Exit | Instr::Launch { .. }) {
            return Operands { regs: [0; 8], wait: Wait::All, unit, class, dst, dst_pair };
        }
        let second = dst.filter(|_| dst_pair).map(|r| Reg(r.0.wrapping_add(1)));
        let mut regs = [0u8; 8];
        let mut n = 0;
        for r in instr.srcs().into_iter().chain([dst, second]).flatten() {
            regs[n] = r.0;
            n += 1;
        }
        let wait = match n {
            0 => Wait::Nothing,
            1..=4 => Wait::Registers,
            _ => Wait::Many,
        };
        for k in n.max(1)..8 {
            regs[k] = regs[0];
        }
        Operands { regs, wait, unit, class, dst, dst_pair }
    }

    /// The first cycle at which the instruction may read and write its registers, given when
    /// each register of the warp becomes readable (a register past the end counts as ready).
    #[inline]
    pub fn ready_at(&self, ready: &[u64]) -> u64 {
        match self.wait {
            Wait::Nothing => 0,
            Wait::Registers => {
                let at = |r: u8| ready.get(r as usize).copied().unwrap_or(0);
                at(self.regs[0]).max(at(self.regs[1])).max(at(self.regs[2]).max(at(self.regs[3])))
            }
            Wait::Many => self.regs.iter().map(|&r| ready.get(r as usize).copied().unwrap_or(0)).max().unwrap_or(0),
            Wait::All => ready.iter().copied().max().unwrap_or(0),
        }
    }
}

/// Every instruction of `kernel`, decoded.
pub fn decode(kernel: &Kernel) -> Vec<Operands> {
    kernel.code.iter().map(Operands::of).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Width;
    use crate::isa::{AluOp, Operand, Space};

    #[test]
    fn an_instruction_waits_for_its_latest_register() {
        let ready = [5, 9, 2, 7];
        let add = Instr::Alu { op: AluOp::Add, dst: Reg(3), a: Operand::Reg(Reg(0)), b: Operand::Imm(1) };
        // Reads r0 (5), writes r3 (7): the write-after-write wait counts too.
        assert_eq!(Operands::of(&add).ready_at(&ready), 7);
        let add = Instr::Alu { op: AluOp::Add, dst: Reg(2), a: Operand::Reg(Reg(1)), b: Operand::Reg(Reg(0)) };
        assert_eq!(Operands::of(&add).ready_at(&ready), 9);
        assert_eq!(Operands::of(&Instr::Exit).ready_at(&ready), 9, "exit waits for every register");
        assert_eq!(Operands::of(&Instr::Barrier).ready_at(&ready), 0);
        let store =
            Instr::Store { width: Width::Word, space: Space::Global, addr: Reg(2), offset: 0, src: Operand::Imm(4) };
        let decoded = Operands::of(&store);
        assert_eq!((decoded.ready_at(&ready), decoded.unit, decoded.class), (2, Unit::Memory, InstrClass::GlobalStore));
        let shared = Instr::Load { width: Width::Word, space: Space::Shared, dst: Reg(1), addr: Reg(2), offset: 0 };
        assert_eq!(Operands::of(&shared).class, InstrClass::Shared);
        assert_eq!(Operands::of(&add).class, InstrClass::Compute);
        assert_eq!((decoded.dst, Operands::of(&add).dst), (None, Some(Reg(2))));
    }

    #[test]
    fn a_bounds_check_waits_for_its_index_and_writes_nothing() {
        let ready = [5, 9, 2, 7];
        let bound = Instr::Bound { index: Operand::Reg(Reg(1)), len: 8, array: 0 };
        let decoded = Operands::of(&bound);
        assert_eq!((decoded.ready_at(&ready), decoded.unit, decoded.class), (9, Unit::Alu, InstrClass::Compute));
        assert_eq!(decoded.dst, None);
        let constant = Instr::Bound { index: Operand::Imm(9), len: 8, array: 0 };
        assert_eq!(Operands::of(&constant).ready_at(&ready), 0);
    }
}
