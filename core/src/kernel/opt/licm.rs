//! Loop-invariant code motion: a pure computation inside a loop whose inputs are not written
//! inside the loop computes the same value every turn, so it moves to a preheader, straight-
//! line code inserted before the loop's header that the back edges skip. Only fixed results
//! (written once, before every read) move, so every read still sees the value; the moved
//! code may run where it did not before (on the way into a loop that turns zero times, or in
//! place of an `if` inside the loop), which costs nothing but an instruction: pure operations
//! never fault.

use alloc::vec;
use alloc::vec::Vec;

use super::edit;
use super::flow::{Defs, Flow, Loop};
use crate::kernel::vcode::VInstr;

/// Hoists the invariant computations of one loop (the innermost that has any); whether it did.
pub(crate) fn hoist_invariants(code: &mut Vec<VInstr>, vregs: u32, params: u32) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, vregs, params);
    for l in flow.loops() {
        let Some(at) = preheader_position(code, &flow, &l) else { continue };
        let mut written_inside = vec![0u32; defs.count.len()];
        let inside: Vec<u32> = (0..code.len() as u32).filter(|&i| flow.in_loop(&l, i)).collect();
        for &i in &inside {
            if let Some(d) = code[i as usize].def() {
                if let Some(w) = written_inside.get_mut(d as usize) {
                    *w += 1;
                }
            }
        }
        let mut drop = vec![false; code.len()];
        let mut hoisted = Vec::new();
        // Hoisting one computation may make the next invariant: repeat in program order.
        let mut progress = true;
        while progress {
            progress = false;
            for &i in &inside {
                let instr = code[i as usize];
                if drop[i as usize] || !instr.is_pure() || matches!(instr, VInstr::Mov { .. }) {
                    continue;
                }
                let Some(d) = instr.def() else { continue };
                if !defs.is_fixed(d) {
                    continue;
                }
                let mut invariant = true;
                instr.for_each_use(|u| invariant &= written_inside.get(u as usize).is_none_or(|&w| w == 0));
                if invariant {
                    hoisted.push((at, instr));
                    drop[i as usize] = true;
                    written_inside[d as usize] = 0;
                    progress = true;
                }
            }
        }
        if !hoisted.is_empty() {
            edit::splice(code, &hoisted, &drop, |b, t| t == at && flow.in_loop(&l, b));
            return true;
        }
    }
    false
}

/// Where a preheader for `l` goes: just before its header, provided nothing inside the loop
/// falls through into the header (then back edges are branches, which can skip it).
pub(crate) fn preheader_position(code: &[VInstr], flow: &Flow, l: &Loop) -> Option<u32> {
    let at = flow.blocks.starts[l.header as usize];
    if at > 0 {
        let before = at - 1;
        let falls_through = !matches!(code[before as usize], VInstr::Branch { cond: None, .. } | VInstr::Exit);
        if flow.in_loop(l, before) && falls_through {
            return None;
        }
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Width;
    use crate::isa::{AluOp, CmpOp, CmpType, Space};
    use crate::kernel::vcode::VOp;
    use crate::kernel::vcode::NO_SITE;
    use alloc::vec;

    /// `for (i = 0; i < v1; i++) a[i] = v0 * 3;` as the code generator lays it out.
    fn loop_with_invariant_product() -> Vec<VInstr> {
        vec![
            VInstr::Mov { dst: 2, src: VOp::Imm(0) }, // 0: i = 0
            VInstr::Alu { op: AluOp::Mul, dst: 3, a: VOp::Reg(0), b: VOp::Imm(3) }, // 1: top: v3 = v0 * 3
            VInstr::Alu { op: AluOp::Shl, dst: 4, a: VOp::Reg(2), b: VOp::Imm(2) }, // 2
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 4,
                offset: 0,
                src: VOp::Reg(3),
                site: NO_SITE,
            }, // 3
            VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(2), b: VOp::Imm(1) }, // 4: i++
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 5, a: VOp::Reg(2), b: VOp::Reg(1) }, // 5
            VInstr::Branch { cond: Some(5), negate: false, target: 1, reconverge: 7 }, // 6
            VInstr::Exit,                             // 7
        ]
    }

    #[test]
    fn an_invariant_product_moves_before_the_loop_and_the_back_edge_skips_it() {
        let mut code = loop_with_invariant_product();
        assert!(hoist_invariants(&mut code, 6, 2));
        // The product now sits between `i = 0` and the header; the shift reads i and stays.
        assert_eq!(code[1], VInstr::Alu { op: AluOp::Mul, dst: 3, a: VOp::Reg(0), b: VOp::Imm(3) });
        assert_eq!(code[2], VInstr::Alu { op: AluOp::Shl, dst: 4, a: VOp::Reg(2), b: VOp::Imm(2) });
        assert!(matches!(code[6], VInstr::Branch { target: 2, .. }), "{code:?}");
        assert!(!hoist_invariants(&mut code, 6, 2));
    }

    #[test]
    fn a_bounds_check_with_an_invariant_index_stays_in_the_loop() {
        // for (...) { bound v0 < 8 }: hoisted, it would run on the way into a loop that
        // turns zero times (or out of an `if`), and fault where the program does not.
        let mut code = loop_with_invariant_product();
        code[1] = VInstr::Bound { index: VOp::Reg(0), len: 8, array: 0, site: NO_SITE };
        code[3] = VInstr::Store {
            width: Width::Word,
            space: Space::Global,
            addr: 4,
            offset: 0,
            src: VOp::Imm(0),
            site: NO_SITE,
        };
        assert!(!hoist_invariants(&mut code, 6, 2));
        assert_eq!(code[1], VInstr::Bound { index: VOp::Reg(0), len: 8, array: 0, site: NO_SITE });
    }
}
