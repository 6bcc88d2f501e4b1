//! Inserting and deleting instructions while keeping branch targets right.

use alloc::vec;
use alloc::vec::Vec;

use crate::kernel::vcode::VInstr;

/// Rebuilds `code` with `inserts` (`(at, instr)`: before old instruction `at`, in the order
/// given) and without the instructions marked in `drop`. A branch to old instruction `t`
/// goes to the first instruction inserted before `t`, unless `skip_inserted(branch, t)` (the
/// back edge of a loop whose preheader was inserted before its header); a branch to a dropped
/// instruction goes to the next one that stays.
pub(crate) fn splice(
    code: &mut Vec<VInstr>,
    inserts: &[(u32, VInstr)],
    drop: &[bool],
    skip_inserted: impl Fn(u32, u32) -> bool,
) {
    let n = code.len();
    if n == 0 {
        return;
    }
    let mut order: Vec<usize> = (0..inserts.len()).collect();
    order.sort_by_key(|&k| (inserts[k].0.min(n as u32 - 1), k));
    let mut group_start = vec![0u32; n + 1];
    let mut own = vec![0u32; n + 1];
    let mut out = Vec::with_capacity(n + inserts.len());
    let mut origin = Vec::with_capacity(n + inserts.len());
    let mut next = order.iter().peekable();
    for (i, instr) in code.iter().enumerate() {
        group_start[i] = out.len() as u32;
        while let Some(&&k) = next.peek() {
            if inserts[k].0.min(n as u32 - 1) as usize != i {
                break;
            }
            out.push(inserts[k].1);
            origin.push(u32::MAX);
            next.next();
        }
        own[i] = out.len() as u32;
        if !drop.get(i).copied().unwrap_or(false) || i == n - 1 {
            out.push(*instr);
            origin.push(i as u32);
        }
    }
    let last = out.len().saturating_sub(1) as u32;
    for (instr, &from) in out.iter_mut().zip(&origin) {
        if let VInstr::Branch { target, reconverge, .. } = instr {
            let map = |t: u32| {
                let t = (t as usize).min(n - 1);
                let to = if from != u32::MAX && skip_inserted(from, t as u32) { own[t] } else { group_start[t] };
                to.min(last)
            };
            *target = map(*target);
            *reconverge = map(*reconverge);
        }
    }
    *code = out;
}

/// Drops the marked instructions.
pub(crate) fn delete(code: &mut Vec<VInstr>, drop: &[bool]) {
    if drop.iter().any(|&d| d) {
        splice(code, &[], drop, |_, _| false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::vcode::VOp;

    fn mov(d: u32) -> VInstr {
        VInstr::Mov { dst: d, src: VOp::Imm(d) }
    }

    #[test]
    fn a_back_edge_skips_the_preheader_and_an_entry_does_not() {
        // 0: br -> 2 | 1: x | 2: header | 3: br -> 2 | 4: exit
        let br = |t| VInstr::Branch { cond: Some(9), negate: false, target: t, reconverge: t };
        let mut code = vec![br(2), mov(1), mov(2), br(2), VInstr::Exit];
        splice(&mut code, &[(2, mov(7))], &[false; 5], |b, _| b == 3);
        assert_eq!(code[3], mov(2));
        assert!(matches!(code[0], VInstr::Branch { target: 2, .. }));
        assert!(matches!(code[4], VInstr::Branch { target: 3, .. }));
    }

    #[test]
    fn a_branch_to_a_dropped_instruction_goes_to_the_next() {
        let br = |t| VInstr::Branch { cond: None, negate: false, target: t, reconverge: t };
        let mut code = vec![br(2), mov(1), mov(2), mov(3), VInstr::Exit];
        delete(&mut code, &[false, false, true, false, false]);
        assert_eq!(code.len(), 4);
        assert!(matches!(code[0], VInstr::Branch { target: 2, .. }));
        assert_eq!(code[2], mov(3));
    }
}
