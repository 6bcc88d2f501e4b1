//! Control-flow clean-up and reconvergence points: dead code goes, every conditional branch
//! gets its immediate post-dominator (where the SIMT stack brings diverged lanes back
//! together), and no-ops left by register allocation disappear.

use alloc::vec;
use alloc::vec::Vec;

use super::vcode::VInstr;
use crate::isa::{Instr, Operand};

/// Basic blocks of straight-line code.
pub(crate) struct Blocks {
    /// First instruction of each block, ascending; the block ends where the next begins.
    pub starts: Vec<u32>,
    pub succs: Vec<Vec<u32>>,
    /// Whether the block ends in `Exit` (leaves the program).
    pub exits: Vec<bool>,
}

impl Blocks {
    pub fn end(&self, b: usize, len: u32) -> u32 {
        self.starts.get(b + 1).copied().unwrap_or(len)
    }

    pub fn new(code: &[VInstr]) -> Blocks {
        let len = code.len() as u32;
        let mut leader = vec![false; code.len() + 1];
        if !code.is_empty() {
            leader[0] = true;
        }
        for (i, instr) in code.iter().enumerate() {
            if let VInstr::Branch { target, .. } = *instr {
                leader[(target as usize).min(code.len())] = true;
                leader[i + 1] = true;
            } else if matches!(instr, VInstr::Exit) {
                leader[i + 1] = true;
            }
        }
        let starts: Vec<u32> = (0..len).filter(|&i| leader[i as usize]).collect();
        let mut block_of = vec![0u32; code.len()];
        for (b, &s) in starts.iter().enumerate() {
            let e = starts.get(b + 1).copied().unwrap_or(len);
            for i in s..e {
                block_of[i as usize] = b as u32;
            }
        }
        let mut succs = Vec::with_capacity(starts.len());
        let mut exits = Vec::with_capacity(starts.len());
        for b in 0..starts.len() {
            let last = starts.get(b + 1).copied().unwrap_or(len) - 1;
            let (s, n) = code[last as usize].successors(last, len);
            let mut list: Vec<u32> = s[..n].iter().map(|&t| block_of[(t as usize).min(code.len() - 1)]).collect();
            list.dedup();
            succs.push(list);
            exits.push(matches!(code[last as usize], VInstr::Exit));
        }
        Blocks { starts, succs, exits }
    }
}

/// Replaces label numbers in branches by instruction indices (`labels[l]`).
pub(crate) fn resolve_labels(code: &mut [VInstr], labels: &[u32]) {
    let last = code.len().saturating_sub(1) as u32;
    let at = |l: u32| labels.get(l as usize).copied().filter(|&i| i != u32::MAX).unwrap_or(last).min(last);
    for instr in code.iter_mut() {
        if let VInstr::Branch { target, reconverge, .. } = instr {
            *target = at(*target);
            *reconverge = at(*reconverge);
        }
    }
}

/// Keeps the instructions marked in `keep` (the last one always stays) and renumbers branch
/// targets: a target that went away becomes the next instruction that stayed.
fn compact<T: Copy>(code: &mut Vec<T>, keep: &mut [bool], targets: impl Fn(&mut T) -> Option<(&mut u32, &mut u32)>) {
    let n = code.len();
    if n == 0 {
        return;
    }
    keep[n - 1] = true;
    let mut next_kept = vec![0u32; n];
    let mut count = keep.iter().filter(|&&k| k).count() as u32;
    for i in (0..n).rev() {
        if keep[i] {
            count -= 1;
        }
        // `count` kept instructions come before i; the next kept one at or after i gets index `count`.
        next_kept[i] = count;
    }
    let mut out = Vec::with_capacity(n);
    for (i, instr) in code.iter().enumerate() {
        if keep[i] {
            let mut instr = *instr;
            if let Some((t, r)) = targets(&mut instr) {
                *t = next_kept[(*t as usize).min(n - 1)];
                *r = next_kept[(*r as usize).min(n - 1)];
            }
            out.push(instr);
        }
    }
    *code = out;
}

fn vtargets(i: &mut VInstr) -> Option<(&mut u32, &mut u32)> {
    match i {
        VInstr::Branch { target, reconverge, .. } => Some((target, reconverge)),
        _ => None,
    }
}

/// Drops instructions no path from the start reaches (code after `return`, `break`, …).
pub(crate) fn remove_unreachable(code: &mut Vec<VInstr>) {
    let n = code.len();
    let mut reached = vec![false; n];
    let mut stack = vec![0u32];
    while let Some(i) = stack.pop() {
        if i as usize >= n || reached[i as usize] {
            continue;
        }
        reached[i as usize] = true;
        let (s, k) = code[i as usize].successors(i, n as u32);
        stack.extend_from_slice(&s[..k]);
    }
    compact(code, &mut reached, vtargets);
}

/// Sets each branch's reconvergence point to its immediate post-dominator. Where paths never
/// meet before leaving the kernel it is the final `Exit`; where a branch cannot reach an
/// exit at all (an endless loop) the code generator's structural guess stays.
pub(crate) fn set_reconvergence(code: &mut [VInstr]) {
    let len = code.len() as u32;
    if len == 0 {
        return;
    }
    let blocks = Blocks::new(code);
    let nb = blocks.starts.len();
    let exit = nb; // the virtual exit node
                   // Reverse-graph successors of a block are its forward predecessors.
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); nb + 1];
    for (b, succs) in blocks.succs.iter().enumerate() {
        for &s in succs {
            preds[s as usize].push(b as u32);
        }
        if blocks.exits[b] {
            preds[exit].push(b as u32);
        }
    }
    // Post-order of the reverse graph from the exit, iteratively.
    let mut order = Vec::with_capacity(nb + 1);
    let mut visited = vec![false; nb + 1];
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    visited[exit] = true;
    while let Some(&mut (node, ref mut next)) = stack.last_mut() {
        if let Some(&p) = preds[node].get(*next) {
            *next += 1;
            if !visited[p as usize] {
                visited[p as usize] = true;
                stack.push((p as usize, 0));
            }
        } else {
            order.push(node);
            stack.pop();
        }
    }
    let mut po_num = vec![usize::MAX; nb + 1];
    for (i, &b) in order.iter().enumerate() {
        po_num[b] = i;
    }
    const UNDEF: usize = usize::MAX;
    let mut ipdom = vec![UNDEF; nb + 1];
    ipdom[exit] = exit;
    let intersect = |ipdom: &[usize], mut a: usize, mut b: usize| {
        while a != b {
            while po_num[a] < po_num[b] {
                a = ipdom[a];
            }
            while po_num[b] < po_num[a] {
                b = ipdom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev() {
            if b == exit {
                continue;
            }
            // Post-dominator "predecessors" are the forward successors (and the exit).
            let mut new = UNDEF;
            let forward = blocks.succs[b].iter().map(|&s| s as usize).chain(blocks.exits[b].then_some(exit));
            for s in forward {
                if ipdom[s] == UNDEF {
                    continue;
                }
                new = if new == UNDEF { s } else { intersect(&ipdom, s, new) };
            }
            if new != UNDEF && ipdom[b] != new {
                ipdom[b] = new;
                changed = true;
            }
        }
    }
    for (b, &post) in ipdom.iter().enumerate().take(nb) {
        let last = blocks.end(b, len) - 1;
        if let VInstr::Branch { cond, target, reconverge, .. } = &mut code[last as usize] {
            if cond.is_none() {
                *reconverge = *target;
            } else if post == exit {
                *reconverge = len - 1;
            } else if post != UNDEF {
                *reconverge = blocks.starts[post];
            }
        }
    }
}

/// Removes instructions that do nothing once registers are assigned: `mov r, r` and jumps
/// to the next instruction.
/// Returns which instructions were kept (by their index before).
pub(crate) fn remove_nops(code: &mut Vec<Instr>) -> Vec<bool> {
    let mut keep: Vec<bool> = code
        .iter()
        .enumerate()
        .map(|(i, instr)| match *instr {
            Instr::Mov { dst, src: Operand::Reg(src) } => dst != src,
            Instr::Branch { target, .. } => target as usize != i + 1,
            _ => true,
        })
        .collect();
    compact(code, &mut keep, |i| match i {
        Instr::Branch { target, reconverge, .. } => Some((target, reconverge)),
        _ => None,
    });
    keep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::vcode::VOp;
    use alloc::vec;

    fn br(cond: Option<u32>, target: u32) -> VInstr {
        VInstr::Branch { cond, negate: false, target, reconverge: 999 }
    }

    fn mov(d: u32) -> VInstr {
        VInstr::Mov { dst: d, src: VOp::Imm(0) }
    }

    #[test]
    fn if_else_reconverges_at_the_join() {
        // 0: br c -> 3; 1: else; 2: jmp 4; 3: then; 4: join; 5: exit
        let mut code = vec![br(Some(0), 3), mov(1), br(None, 4), mov(1), mov(2), VInstr::Exit];
        set_reconvergence(&mut code);
        assert!(matches!(code[0], VInstr::Branch { reconverge: 4, .. }));
        assert!(matches!(code[2], VInstr::Branch { reconverge: 4, .. }));
    }

    #[test]
    fn a_break_inside_an_if_reconverges_at_the_loop_exit() {
        // 0: head: br !c -> 5 | 1: br d -> 5 (break) | 2: body | 3: jmp 0 | 4: (dead) | 5: exit-join | 6: exit
        let mut code = vec![br(Some(0), 5), br(Some(1), 5), mov(2), br(None, 0), mov(3), mov(4), VInstr::Exit];
        set_reconvergence(&mut code);
        assert!(matches!(code[0], VInstr::Branch { reconverge: 5, .. }));
        assert!(matches!(code[1], VInstr::Branch { reconverge: 5, .. }));
    }

    #[test]
    fn paths_that_both_exit_meet_at_the_final_exit() {
        // 0: br c -> 3 | 1: a | 2: exit | 3: b | 4: exit
        let mut code = vec![br(Some(0), 3), mov(1), VInstr::Exit, mov(2), VInstr::Exit];
        set_reconvergence(&mut code);
        assert!(matches!(code[0], VInstr::Branch { reconverge: 4, .. }));
    }

    #[test]
    fn an_endless_loop_keeps_the_structural_guess() {
        // 0: br c -> 2 (guess 2) | 1: x | 2: jmp 0 | 3: exit (unreachable)
        let mut code = vec![
            VInstr::Branch { cond: Some(0), negate: false, target: 2, reconverge: 2 },
            mov(1),
            br(None, 0),
            VInstr::Exit,
        ];
        set_reconvergence(&mut code);
        assert!(matches!(code[0], VInstr::Branch { reconverge: 2, .. }));
    }

    #[test]
    fn unreachable_code_goes_and_targets_follow() {
        // 0: jmp 3 | 1: dead | 2: dead | 3: x | 4: br c -> 0 | 5: exit
        let mut code = vec![br(None, 3), mov(1), mov(2), mov(3), br(Some(0), 0), VInstr::Exit];
        remove_unreachable(&mut code);
        assert_eq!(code.len(), 4);
        assert!(matches!(code[0], VInstr::Branch { target: 1, .. }));
        assert!(matches!(code[2], VInstr::Branch { target: 0, .. }));
    }
}
