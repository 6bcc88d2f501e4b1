//! Common subexpressions across the whole kernel: global value numbering over the dominator
//! tree. A pure computation whose inputs are fixed registers (`flow::Defs`) or constants has
//! the same value wherever its first occurrence dominates; a later occurrence becomes a copy
//! of it (copy propagation and dead code removal then delete the copy). Loads are never
//! reused (a store or another thread may change memory in between).
//!
//! Special registers (`threadIdx`, `blockIdx`, …) are invariant for the whole thread: a kind
//! read in several places is read once, at the entry, so that even reads in different
//! branches share it.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use super::edit;
use super::flow::{Defs, Flow};
use crate::isa::{AluOp, Axis, Special, WideOp};
use crate::kernel::vcode::{VInstr, VOp, VReg};

/// Replaces recomputations by copies; whether any was found.
pub(crate) fn number_values(code: &mut Vec<VInstr>, vregs: u32, params: u32) -> bool {
    let mut changed = hoist_specials(code, vregs, params);
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, vregs, params);
    let mut table: BTreeMap<[u64; 4], VReg> = BTreeMap::new();
    // Depth-first over the dominator tree; each block's new entries leave with it.
    let mut stack: Vec<(u32, bool)> = if flow.block_count() > 0 { vec![(0, false)] } else { Vec::new() };
    let mut added: Vec<Vec<[u64; 4]>> = vec![Vec::new(); flow.block_count()];
    while let Some((b, done)) = stack.pop() {
        if done {
            for key in added[b as usize].drain(..) {
                table.remove(&key);
            }
            continue;
        }
        stack.push((b, true));
        for i in flow.range(b as usize) {
            let instr = code[i as usize];
            let Some(dst) = instr.def() else { continue };
            if !defs.is_fixed(dst) {
                continue;
            }
            let Some(key) = key(&instr, &defs) else { continue };
            match table.get(&key) {
                Some(&earlier) => {
                    code[i as usize] = if instr.def_is_wide() {
                        VInstr::Mov64 { dst, src: earlier }
                    } else {
                        VInstr::Mov { dst, src: VOp::Reg(earlier) }
                    };
                    changed = true;
                }
                None => {
                    table.insert(key, dst);
                    added[b as usize].push(key);
                }
            }
        }
        for &c in flow.children[b as usize].iter().rev() {
            stack.push((c, false));
        }
    }
    changed
}

/// The computation an instruction performs, as a comparable key, if it is pure and its
/// inputs are fixed; commutative operands in a canonical order.
fn key(instr: &VInstr, defs: &Defs) -> Option<[u64; 4]> {
    let operand = |o: VOp| -> Option<u64> {
        match o {
            VOp::Reg(r) if defs.is_fixed(r) => Some(r as u64),
            VOp::Reg(_) => None,
            VOp::Imm(k) => Some(1 << 32 | k as u64),
        }
    };
    let head = |kind: u64, op: u64, ty: u64| kind << 16 | op << 8 | ty;
    Some(match *instr {
        VInstr::Special { which, .. } => [head(1, special_code(which), 0), 0, 0, 0],
        VInstr::Alu { op, a, b, .. } => {
            let (mut x, mut y) = (operand(a)?, operand(b)?);
            if commutes(op) && y < x {
                core::mem::swap(&mut x, &mut y);
            }
            [head(2, op as u64, 0), x, y, 0]
        }
        VInstr::Unary { op, a, .. } => [head(3, op as u64, 0), operand(a)?, 0, 0],
        VInstr::Sfu { op, a, b, .. } => [head(4, op as u64, 0), operand(a)?, operand(b)?, 0],
        VInstr::Cmp { op, ty, a, b, .. } => [head(5, op as u64, ty as u64), operand(a)?, operand(b)?, 0],
        VInstr::Select { cond, a, b, .. } => [head(6, 0, 0), operand(VOp::Reg(cond))?, operand(a)?, operand(b)?],
        VInstr::Fma { a, b, c, .. } => {
            let (mut x, mut y) = (operand(a)?, operand(b)?);
            if y < x {
                core::mem::swap(&mut x, &mut y);
            }
            [head(7, 0, 0), x, y, operand(c)?]
        }
        VInstr::Wide { op, a, b, .. } => {
            let (mut x, mut y) = (operand(VOp::Reg(a))?, operand(VOp::Reg(b))?);
            if wide_commutes(op) && y < x {
                core::mem::swap(&mut x, &mut y);
            }
            [head(8, op as u64, 0), x, y, 0]
        }
        VInstr::WideFma { a, b, c, .. } => {
            let (mut x, mut y) = (operand(VOp::Reg(a))?, operand(VOp::Reg(b))?);
            if y < x {
                core::mem::swap(&mut x, &mut y);
            }
            [head(13, 0, 0), x, y, operand(VOp::Reg(c))?]
        }
        VInstr::WideUnary { op, a, .. } => [head(9, op as u64, 0), operand(VOp::Reg(a))?, 0, 0],
        VInstr::WideCmp { op, ty, a, b, .. } => {
            [head(10, op as u64, ty as u64), operand(VOp::Reg(a))?, operand(VOp::Reg(b))?, 0]
        }
        VInstr::Pack { lo, hi, .. } => [head(11, 0, 0), operand(lo)?, operand(hi)?, 0],
        VInstr::Half { src, high, .. } => [head(12, high as u64, 0), operand(VOp::Reg(src))?, 0, 0],
        _ => return None,
    })
}

/// Operations whose operands may be swapped without changing a bit (`fminf`/`fmaxf` are
/// left out: which zero they return for `-0, +0` depends on the order).
fn commutes(op: AluOp) -> bool {
    use AluOp::*;
    matches!(op, Add | Mul | And | Or | Xor | MinS | MaxS | MinU | MaxU | FAdd | FMul)
}

/// The 64-bit operations whose operands may be swapped (`fmin`/`fmax` left out, as above).
fn wide_commutes(op: WideOp) -> bool {
    use WideOp::*;
    matches!(op, Add | Mul | And | Or | Xor | MinS | MaxS | MinU | MaxU | DAdd | DMul)
}

fn special_code(which: Special) -> u64 {
    let axis = |a: Axis| a as u64;
    match which {
        Special::ThreadIdx(a) => axis(a),
        Special::BlockIdx(a) => 4 + axis(a),
        Special::BlockDim(a) => 8 + axis(a),
        Special::GridDim(a) => 12 + axis(a),
        Special::LaneId => 16,
        Special::WarpSize => 17,
    }
}

/// Moves the reads of a special register that is read more than once to the entry, one
/// each; the others become copies.
fn hoist_specials(code: &mut Vec<VInstr>, vregs: u32, params: u32) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, vregs, params);
    let mut first: BTreeMap<u64, VReg> = BTreeMap::new();
    let mut count: BTreeMap<u64, u32> = BTreeMap::new();
    for instr in code.iter() {
        if let VInstr::Special { dst, which } = *instr {
            if defs.is_fixed(dst) {
                *count.entry(special_code(which)).or_default() += 1;
            }
        }
    }
    let mut inserts = Vec::new();
    let mut drop = vec![false; code.len()];
    for (i, instr) in code.iter_mut().enumerate() {
        let VInstr::Special { dst, which } = *instr else { continue };
        let kind = special_code(which);
        if !defs.is_fixed(dst) || count.get(&kind).copied().unwrap_or(0) < 2 {
            continue;
        }
        match first.get(&kind) {
            Some(&earlier) => *instr = VInstr::Mov { dst, src: VOp::Reg(earlier) },
            None => {
                first.insert(kind, dst);
                inserts.push((0, *instr));
                drop[i] = true;
            }
        }
    }
    if inserts.is_empty() {
        return false;
    }
    // A loop back to the very first instruction must not re-read them (harmless, but wasted).
    edit::splice(code, &inserts, &drop, |b, t| t == 0 && b > 0);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Width;
    use crate::isa::{CmpOp, CmpType, Space};
    use crate::kernel::vcode::NO_SITE;
    use alloc::vec;

    fn store(src: u32) -> VInstr {
        VInstr::Store {
            width: Width::Word,
            space: Space::Global,
            addr: 0,
            offset: 0,
            src: VOp::Reg(src),
            site: NO_SITE,
        }
    }

    #[test]
    fn a_sum_computed_in_a_dominating_block_is_reused_after_a_branch() {
        // v2 = v0 + v1 | br v3 -> 4 | store v2 | (join) v4 = v1 + v0 | store v4
        let mut code = vec![
            VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(0), b: VOp::Reg(1) },
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 3, a: VOp::Reg(0), b: VOp::Imm(5) },
            VInstr::Branch { cond: Some(3), negate: false, target: 4, reconverge: 4 },
            store(2),
            VInstr::Alu { op: AluOp::Add, dst: 4, a: VOp::Reg(1), b: VOp::Reg(0) },
            store(4),
            VInstr::Exit,
        ];
        assert!(number_values(&mut code, 5, 2));
        assert_eq!(code[4], VInstr::Mov { dst: 4, src: VOp::Reg(2) });
    }

    #[test]
    fn computations_in_sibling_branches_stay_apart() {
        // br v0 -> 3 | v2 = v0 * 3; jmp 5 | v3 = v0 * 3 | (join) exit
        let mut code = vec![
            VInstr::Branch { cond: Some(0), negate: false, target: 3, reconverge: 5 },
            VInstr::Alu { op: AluOp::Mul, dst: 2, a: VOp::Reg(0), b: VOp::Imm(3) },
            VInstr::Branch { cond: None, negate: false, target: 5, reconverge: 5 },
            VInstr::Alu { op: AluOp::Mul, dst: 3, a: VOp::Reg(0), b: VOp::Imm(3) },
            store(3),
            store(2),
            VInstr::Exit,
        ];
        let before = code.clone();
        assert!(!number_values(&mut code, 4, 1));
        assert_eq!(code, before);
    }

    #[test]
    fn thread_index_reads_in_both_branches_become_one_at_the_entry() {
        let tid = |dst| VInstr::Special { dst, which: Special::ThreadIdx(Axis::X) };
        let mut code = vec![
            VInstr::Branch { cond: Some(0), negate: false, target: 4, reconverge: 6 },
            tid(2),
            store(2),
            VInstr::Branch { cond: None, negate: false, target: 6, reconverge: 6 },
            tid(3),
            store(3),
            VInstr::Exit,
        ];
        assert!(number_values(&mut code, 4, 1));
        assert_eq!(code[0], tid(2));
        assert_eq!(code.iter().filter(|i| matches!(i, VInstr::Special { .. })).count(), 1);
        assert!(code.contains(&VInstr::Mov { dst: 3, src: VOp::Reg(2) }));
    }
}
