//! Load scheduling: within each basic block, every global or shared load moves up as far as
//! its dependences allow, so that the loads of an unrolled body issue back to back before the
//! arithmetic that waits on them (what nvcc's scheduler does: several loads in flight per
//! warp instead of one, since the in-order issue stage stalls a warp at the first use of a
//! load still in flight).
//!
//! Loads move together with the pure instructions of their block that compute their
//! addresses (unrolled code computes each address just before its load); the rest stays in
//! place. A load passes only pure instructions (moves, arithmetic, compares, selects, special
//! registers), and at most [`LOADS_AHEAD`] loads run ahead of the first use of the earliest
//! of them, which bounds the registers the schedule adds. It stops at anything with an effect another lane or thread can see or that
//! ends the block (stores, atomics, barriers, launches, branches, `Exit`), at the instruction
//! that writes a register it reads (its address), at any instruction that reads or writes its
//! destination, and at the load before it: loads keep their order among themselves, and the
//! earlier one has already moved up, so the run of loads issues back to back. Nothing leaves
//! its block, so every read sees the same value and branch targets (block starts) stay where
//! they are. One stable pass, loads in program order: deterministic, and quadratic only
//! within a block of at most [`MAX_BLOCK`] instructions (longer blocks are scheduled in
//! windows of that size).

use alloc::collections::BTreeSet;
use alloc::vec;
use alloc::vec::Vec;

use super::flow::Flow;
use crate::kernel::vcode::{VInstr, VOp, VReg};

/// Longest run of instructions scheduled as one; longer blocks are cut into runs this long.
const MAX_BLOCK: u32 = 512;

/// Most loads issued ahead of the first use of the earliest of them: each keeps a register
/// busy until its use, and a kernel must still fit its block's registers on an SM (the
/// fallback to unoptimised code only covers the per-thread limit).
const LOADS_AHEAD: usize = 4;

/// Schedules the loads of every block; whether anything moved.
pub(crate) fn schedule_loads(code: &mut [VInstr], vregs: &mut u32) -> bool {
    if code.is_empty() {
        return false;
    }
    let flow = Flow::new(code);
    let mut changed = false;
    for b in 0..flow.block_count() {
        let range = flow.range(b);
        let mut start = range.start;
        while start < range.end {
            let end = (start + MAX_BLOCK).min(range.end);
            let block = &mut code[start as usize..end as usize];
            rename(block, vregs);
            changed |= schedule_block(block);
            start = end;
        }
    }
    changed
}

/// Gives a fresh register to each value that a load or pure instruction writes and the same
/// run writes again later (unrolled copies reuse their registers): its reads all lie before
/// that rewrite, in the run, so renaming them is exact, and the copies no longer block each
/// other by reusing a register. Values that may leave the run keep their registers.
fn rename(block: &mut [VInstr], vregs: &mut u32) {
    for i in 0..block.len() {
        let instr = block[i];
        if !(instr.is_pure() || matches!(instr, VInstr::Load { .. })) {
            continue;
        }
        let Some(d) = instr.def() else { continue };
        let Some(k) = (i + 1..block.len()).find(|&k| block[k].def() == Some(d)) else { continue };
        if block[i + 1..=k].iter().any(|x| matches!(x, VInstr::Launch { .. })) {
            continue;
        }
        let fresh = *vregs;
        *vregs += 1;
        block[i].set_def(fresh);
        for x in &mut block[i + 1..=k] {
            x.for_each_operand_mut(|o| {
                if *o == VOp::Reg(d) {
                    *o = VOp::Reg(fresh);
                }
            });
            x.for_each_reg_input_mut(|r| {
                if *r == d {
                    *r = fresh;
                }
            });
        }
    }
}

/// Schedules one straight-line run (a branch or `Exit`, if any, only at its end).
fn schedule_block(block: &mut [VInstr]) -> bool {
    // Which instructions move: the loads, and the pure instructions of the block that compute
    // a later load's address (found backwards: a register is wanted from its read as an
    // address, or as an input of a wanted computation, up to its write).
    let mut moves = vec![false; block.len()];
    let mut wanted = BTreeSet::new();
    for (i, instr) in block.iter().enumerate().rev() {
        let def = instr.def();
        let feeds = match *instr {
            VInstr::Load { .. } => true,
            _ => instr.is_pure() && def.is_some_and(|d| wanted.contains(&d)),
        };
        if let Some(d) = def {
            wanted.remove(&d);
        }
        if feeds {
            moves[i] = true;
            instr.for_each_use(|u| {
                wanted.insert(u);
            });
        }
    }
    // Each moving instruction, in order, bubbles up past the others (which keep their order
    // among themselves: the earlier ones have already moved). `loaded` holds the results of
    // the loads so far, in order; an instruction may not pass a reader of one that is
    // [`LOADS_AHEAD`] or more loads back.
    let mut loaded: Vec<VReg> = Vec::new();
    let mut changed = false;
    for i in 0..block.len() {
        if !moves[i] {
            continue;
        }
        let x = block[i];
        let old: BTreeSet<VReg> = loaded[..(loaded.len() + 1).saturating_sub(LOADS_AHEAD)].iter().copied().collect();
        let mut at = i;
        while at > 0 && !moves[at - 1] && may_pass(&block[at - 1], &x, &old) {
            at -= 1;
        }
        if at < i {
            block[at..=i].rotate_right(1);
            moves[at..=i].rotate_right(1);
            changed = true;
        }
        if let VInstr::Load { dst, .. } = x {
            loaded.push(dst);
        }
    }
    changed
}

/// Whether `x` (a load or a pure computation of an address) may move above `prev`, which is
/// neither: `prev` must be pure, must not write what `x` reads or writes, must not read what
/// `x` writes, and must not read `old` (results of loads too far back).
fn may_pass(prev: &VInstr, x: &VInstr, old: &BTreeSet<VReg>) -> bool {
    if !prev.is_pure() {
        return false;
    }
    let def = x.def();
    if let Some(d) = prev.def() {
        let mut read = false;
        x.for_each_use(|u| read |= u == d);
        if read || def == Some(d) {
            return false;
        }
    }
    let mut blocked = false;
    prev.for_each_use(|u| blocked |= Some(u) == def || old.contains(&u));
    !blocked
}

#[cfg(test)]
mod tests {
    use crate::kernel::vcode::NO_SITE;
    use alloc::vec;

    use super::*;
    use crate::isa::Width;
    use crate::isa::{AluOp, Space};

    fn ld(dst: VReg, addr: VReg, offset: i32) -> VInstr {
        VInstr::Load { width: Width::Word, space: Space::Global, dst, addr, offset, site: NO_SITE }
    }

    fn fadd(dst: VReg, a: VReg, b: VReg) -> VInstr {
        VInstr::Alu { op: AluOp::FAdd, dst, a: VOp::Reg(a), b: VOp::Reg(b) }
    }

    fn iadd(dst: VReg, a: VReg, k: u32) -> VInstr {
        VInstr::Alu { op: AluOp::Add, dst, a: VOp::Reg(a), b: VOp::Imm(k) }
    }

    fn st(addr: VReg, src: VReg) -> VInstr {
        VInstr::Store { width: Width::Word, space: Space::Global, addr, offset: 0, src: VOp::Reg(src), site: NO_SITE }
    }

    /// Registers: 0 the pointer, 1 the sum, 10.. loaded values.
    #[test]
    fn loads_move_above_independent_adds() {
        let mut code = vec![
            ld(10, 0, 0),
            fadd(1, 1, 10),
            ld(11, 0, 4),
            fadd(1, 1, 11),
            ld(12, 0, 8),
            fadd(1, 1, 12),
            ld(13, 0, 12),
            fadd(1, 1, 13),
            VInstr::Exit,
        ];
        assert!(schedule_block(&mut code));
        let expected = vec![
            ld(10, 0, 0),
            ld(11, 0, 4),
            ld(12, 0, 8),
            ld(13, 0, 12),
            fadd(1, 1, 10),
            fadd(1, 1, 11),
            fadd(1, 1, 12),
            fadd(1, 1, 13),
            VInstr::Exit,
        ];
        assert_eq!(code, expected);
        // A second pass finds nothing left to do.
        assert!(!schedule_block(&mut code));
    }

    #[test]
    fn loads_stop_at_a_store() {
        let mut code = vec![ld(10, 0, 0), fadd(1, 1, 10), st(2, 1), fadd(3, 3, 3), ld(11, 0, 4), VInstr::Exit];
        schedule_block(&mut code);
        let expected = vec![ld(10, 0, 0), fadd(1, 1, 10), st(2, 1), ld(11, 0, 4), fadd(3, 3, 3), VInstr::Exit];
        assert_eq!(code, expected);
    }

    #[test]
    fn loads_stop_at_barriers_atomics_and_block_starts() {
        let mut code =
            vec![fadd(3, 3, 3), VInstr::Barrier { site: NO_SITE }, fadd(4, 4, 4), ld(10, 0, 0), VInstr::Exit];
        schedule_loads(&mut code, &mut 100);
        assert_eq!(
            code,
            vec![fadd(3, 3, 3), VInstr::Barrier { site: NO_SITE }, ld(10, 0, 0), fadd(4, 4, 4), VInstr::Exit]
        );
        // Block 1 (instructions 2..) starts at the branch target: the load stays in it.
        let br = VInstr::Branch { cond: Some(5), negate: false, target: 2, reconverge: 5 };
        let mut code = vec![fadd(3, 3, 3), fadd(4, 4, 4), fadd(6, 6, 6), ld(10, 0, 0), br, VInstr::Exit];
        schedule_loads(&mut code, &mut 100);
        assert_eq!(code, vec![fadd(3, 3, 3), fadd(4, 4, 4), ld(10, 0, 0), fadd(6, 6, 6), br, VInstr::Exit]);
    }

    #[test]
    fn loads_stop_at_the_definition_of_their_address() {
        // The address 5 is computed from the sum 1, so it cannot move above the sum's update.
        let mut code = vec![fadd(1, 1, 1), fadd(5, 1, 1), fadd(3, 3, 3), ld(10, 5, 0), VInstr::Exit];
        schedule_block(&mut code);
        let expected = vec![fadd(1, 1, 1), fadd(5, 1, 1), ld(10, 5, 0), fadd(3, 3, 3), VInstr::Exit];
        assert_eq!(code, expected);
        // A load's address may also be another load's result.
        let mut code = vec![ld(5, 0, 0), fadd(1, 1, 1), ld(10, 5, 0), VInstr::Exit];
        schedule_block(&mut code);
        assert_eq!(code, vec![ld(5, 0, 0), ld(10, 5, 0), fadd(1, 1, 1), VInstr::Exit]);
    }

    #[test]
    fn address_computations_move_with_their_loads() {
        // As unrolled code looks: each load's address computed just before it.
        let mut code = vec![
            iadd(20, 0, 0),
            ld(10, 20, 0),
            fadd(1, 1, 10),
            iadd(21, 0, 128),
            ld(11, 21, 0),
            fadd(1, 1, 11),
            VInstr::Exit,
        ];
        schedule_block(&mut code);
        let expected = vec![
            iadd(20, 0, 0),
            ld(10, 20, 0),
            iadd(21, 0, 128),
            ld(11, 21, 0),
            fadd(1, 1, 10),
            fadd(1, 1, 11),
            VInstr::Exit,
        ];
        assert_eq!(code, expected);
    }

    #[test]
    fn at_most_four_loads_run_ahead_of_the_first_use() {
        let mut code = Vec::new();
        for k in 0..6 {
            code.push(ld(10 + k, 0, 4 * k as i32));
            code.push(fadd(1, 1, 10 + k));
        }
        code.push(VInstr::Exit);
        schedule_block(&mut code);
        let expected = vec![
            ld(10, 0, 0),
            ld(11, 0, 4),
            ld(12, 0, 8),
            ld(13, 0, 12),
            fadd(1, 1, 10),
            ld(14, 0, 16),
            fadd(1, 1, 11),
            ld(15, 0, 20),
            fadd(1, 1, 12),
            fadd(1, 1, 13),
            fadd(1, 1, 14),
            fadd(1, 1, 15),
            VInstr::Exit,
        ];
        assert_eq!(code, expected);
    }

    #[test]
    fn loads_do_not_move_above_a_reader_or_writer_of_their_destination() {
        // 10 is read (WAR) by the second instruction, then reloaded.
        let mut code = vec![fadd(2, 2, 2), fadd(1, 1, 10), fadd(3, 3, 3), ld(10, 0, 0), VInstr::Exit];
        schedule_block(&mut code);
        let expected = vec![fadd(2, 2, 2), fadd(1, 1, 10), ld(10, 0, 0), fadd(3, 3, 3), VInstr::Exit];
        assert_eq!(code, expected);
        // 10 is written (WAW) by the first instruction.
        let mut code = vec![fadd(10, 1, 1), fadd(3, 3, 3), ld(10, 0, 0), VInstr::Exit];
        schedule_block(&mut code);
        assert_eq!(code, vec![fadd(10, 1, 1), ld(10, 0, 0), fadd(3, 3, 3), VInstr::Exit]);
    }

    #[test]
    fn reused_registers_are_renamed_so_copies_overlap() {
        // Two unrolled copies reusing the address 20 and the loaded value 10; the sum 1 is
        // written twice too. Fresh registers from 100, in program order.
        let mut code = vec![
            iadd(20, 0, 0),
            ld(10, 20, 0),
            fadd(1, 1, 10),
            iadd(20, 0, 128),
            ld(10, 20, 0),
            fadd(1, 1, 10),
            VInstr::Exit,
        ];
        let mut vregs = 100;
        assert!(schedule_loads(&mut code, &mut vregs));
        let expected = vec![
            iadd(100, 0, 0),
            ld(101, 100, 0),
            iadd(20, 0, 128),
            ld(10, 20, 0),
            fadd(102, 1, 101),
            fadd(1, 102, 10),
            VInstr::Exit,
        ];
        assert_eq!(code, expected);
        assert_eq!(vregs, 103);
    }
}
