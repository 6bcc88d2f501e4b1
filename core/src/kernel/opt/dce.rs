//! Dead code: a pure instruction whose result no later instruction can read goes. Loads stay
//! even when unused (a load out of bounds stops the run, so removing one could change what a
//! program does), as do stores, atomics, barriers and launches.

use alloc::vec;
use alloc::vec::Vec;

use super::edit;
use super::flow::Flow;
use crate::kernel::liveness::liveness;
use crate::kernel::vcode::VInstr;

/// Removes dead pure instructions until none is left; whether any went.
pub(crate) fn remove_dead(code: &mut Vec<VInstr>, vregs: u32) -> bool {
    let mut changed = false;
    // Each round removes at least one instruction or stops.
    while !code.is_empty() {
        let dead = dead_instructions(code, vregs);
        if !dead.iter().any(|&d| d) {
            break;
        }
        edit::delete(code, &dead);
        changed = true;
    }
    changed
}

fn dead_instructions(code: &[VInstr], vregs: u32) -> Vec<bool> {
    let n = vregs as usize;
    let flow = Flow::new(code);
    let live_out = liveness(code, &flow.blocks, n).live_out;
    let mut dead = vec![false; code.len()];
    for (b, out) in live_out.into_iter().enumerate() {
        let mut live = out;
        for i in flow.range(b).rev() {
            let instr = &code[i as usize];
            if let Some(d) = instr.def() {
                if instr.is_pure() && ((d as usize) >= n || !live.contains(d)) {
                    dead[i as usize] = true;
                    continue;
                }
                if (d as usize) < n {
                    live.remove(d);
                }
            }
            instr.for_each_use(|u| {
                if (u as usize) < n {
                    live.insert(u)
                }
            });
        }
    }
    dead
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Width;
    use crate::isa::{AluOp, Space};
    use crate::kernel::vcode::VOp;
    use crate::kernel::vcode::NO_SITE;
    use alloc::vec;

    #[test]
    fn unread_results_go_and_so_do_their_inputs() {
        // v1 = v0 + 1; v2 = v1 * 3 (never read); v3 = load [v0] (never read, stays); exit
        let mut code = vec![
            VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Reg(0), b: VOp::Imm(1) },
            VInstr::Alu { op: AluOp::Mul, dst: 2, a: VOp::Reg(1), b: VOp::Imm(3) },
            VInstr::Load { width: Width::Word, space: Space::Global, dst: 3, addr: 0, offset: 0, site: NO_SITE },
            VInstr::Exit,
        ];
        assert!(remove_dead(&mut code, 4));
        assert_eq!(
            code,
            vec![
                VInstr::Load { width: Width::Word, space: Space::Global, dst: 3, addr: 0, offset: 0, site: NO_SITE },
                VInstr::Exit
            ]
        );
    }

    #[test]
    fn a_value_overwritten_before_it_is_read_goes() {
        let mut code = vec![
            VInstr::Mov { dst: 1, src: VOp::Imm(1) },
            VInstr::Mov { dst: 1, src: VOp::Imm(2) },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(1),
                site: NO_SITE,
            },
            VInstr::Exit,
        ];
        assert!(remove_dead(&mut code, 2));
        assert_eq!(code[0], VInstr::Mov { dst: 1, src: VOp::Imm(2) });
        assert_eq!(code.len(), 3);
    }

    #[test]
    fn a_bounds_check_stays_though_it_writes_nothing() {
        let mut code = vec![VInstr::Bound { index: VOp::Reg(0), len: 8, array: 0, site: NO_SITE }, VInstr::Exit];
        assert!(!remove_dead(&mut code, 1));
        assert_eq!(code.len(), 2);
    }
}
