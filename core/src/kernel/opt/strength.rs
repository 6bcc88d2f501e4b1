//! Strength reduction of addresses: inside a loop whose counter `i` steps by a constant
//! (`i = i + s`, its only write in the loop), an address computed as an affine function of
//! `i` — `p + (base + i) * 4`, `p + ((i * n) << 2)` with `p`, `base`, `n` unchanged in the
//! loop — changes by a fixed amount each turn. So it gets its own register, set before the
//! loop to the first address and advanced next to `i`'s increment; the multiplications and
//! shifts that recomputed it each turn become dead. The register always equals what the
//! chain would compute, at every point of the loop, since both change only together.

use alloc::vec;
use alloc::vec::Vec;

use super::edit;
use super::flow::{Defs, Flow};
use super::licm::preheader_position;
use crate::isa::AluOp;
use crate::kernel::vcode::{VInstr, VOp, VReg};

/// How an affine value of a loop counter changes per turn: `by`, times `times` if given
/// (a register unchanged in the loop).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Step {
    times: Option<VReg>,
    by: u32,
}

/// An affine function of a counter, computed inside the loop.
#[derive(Clone, Copy)]
struct Affine {
    counter: VReg,
    step: Step,
    /// Instructions of the chain that computes it (a few).
    chain_len: u32,
}

/// Shortest chain worth a register of its own: one instruction is what the per-turn
/// addition costs anyway.
const MIN_CHAIN: u32 = 2;

/// Reduces the addresses of one loop (the innermost that has any); whether it did.
pub(crate) fn reduce_addresses(code: &mut Vec<VInstr>, vregs: &mut u32, params: u32) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, *vregs, params);
    for l in flow.loops() {
        let Some(header) = preheader_position(code, &flow, &l) else { continue };
        let inside: Vec<u32> = (0..code.len() as u32).filter(|&i| flow.in_loop(&l, i)).collect();
        let mut written_inside = vec![0u32; defs.count.len()];
        for &i in &inside {
            if let Some(w) = code[i as usize].def().and_then(|d| written_inside.get_mut(d as usize)) {
                *w += 1;
            }
        }
        let invariant = |o: VOp| match o {
            VOp::Imm(_) => true,
            VOp::Reg(r) => written_inside.get(r as usize).is_some_and(|&w| w == 0),
        };
        // Counters: written once in the loop, by `i = i ± constant`.
        let mut affine: Vec<Option<Affine>> = vec![None; defs.count.len()];
        let mut increment_at: Vec<u32> = vec![u32::MAX; defs.count.len()];
        for &i in &inside {
            let step = match code[i as usize] {
                VInstr::Alu { op: AluOp::Add, dst, a: VOp::Reg(r), b: VOp::Imm(s) }
                | VInstr::Alu { op: AluOp::Add, dst, a: VOp::Imm(s), b: VOp::Reg(r) }
                    if r == dst =>
                {
                    s
                }
                VInstr::Alu { op: AluOp::Sub, dst, a: VOp::Reg(r), b: VOp::Imm(s) } if r == dst => s.wrapping_neg(),
                _ => continue,
            };
            let dst = code[i as usize].def().unwrap_or(0);
            if written_inside[dst as usize] == 1 && i != header {
                affine[dst as usize] =
                    Some(Affine { counter: dst, step: Step { times: None, by: step }, chain_len: 0 });
                increment_at[dst as usize] = i;
            }
        }
        // Values derived from them, in program order.
        let mut derived: Vec<(u32, VReg, Affine)> = Vec::new();
        for &i in &inside {
            let instr = code[i as usize];
            let Some(d) = instr.def() else { continue };
            if !defs.is_fixed(d) || affine[d as usize].is_some() {
                continue;
            }
            let of = |o: VOp| match o {
                VOp::Reg(r) => affine.get(r as usize).copied().flatten(),
                VOp::Imm(_) => None,
            };
            let found = match instr {
                VInstr::Alu { op: AluOp::Add, a, b, .. } => match (of(a), of(b)) {
                    (Some(x), None) if invariant(b) => Some(x),
                    (None, Some(y)) if invariant(a) => Some(y),
                    _ => None,
                },
                VInstr::Alu { op: AluOp::Sub, a, b, .. } if invariant(b) => of(a),
                VInstr::Alu { op: AluOp::Shl, a, b: VOp::Imm(k), .. } if k < 32 => {
                    of(a).map(|x| Affine { step: Step { by: x.step.by << k, ..x.step }, ..x })
                }
                VInstr::Alu { op: AluOp::Mul, a, b, .. } => match (of(a), b) {
                    (Some(x), VOp::Imm(k)) => {
                        Some(Affine { step: Step { by: x.step.by.wrapping_mul(k), ..x.step }, ..x })
                    }
                    (Some(x), VOp::Reg(n)) if invariant(b) && x.step.times.is_none() => {
                        Some(Affine { step: Step { times: Some(n), by: x.step.by }, ..x })
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some(x) = found {
                let a = Affine { chain_len: x.chain_len + 1, ..x };
                affine[d as usize] = Some(a);
                derived.push((i, d, a));
            }
        }
        let is_address = |r: VReg| {
            inside.iter().any(|&i| {
                matches!(code[i as usize], VInstr::Load { addr, .. } | VInstr::Store { addr, .. } | VInstr::Atomic { addr, .. } if addr == r)
            })
        };
        let roots: Vec<(u32, VReg, Affine)> =
            derived.iter().copied().filter(|&(_, d, a)| a.chain_len >= MIN_CHAIN && is_address(d)).collect();
        if roots.is_empty() {
            continue;
        }
        let mut inserts = Vec::new();
        let mut replaced = Vec::new();
        for (site, root, a) in roots {
            // Before the loop: the chain recomputed into fresh registers, then the step.
            let chain = chain_of(code, &derived, root);
            let mut renamed: Vec<(VReg, VReg)> = Vec::new();
            for &k in &chain {
                let mut instr = code[k as usize];
                instr.for_each_operand_mut(|o| {
                    if let VOp::Reg(r) = *o {
                        if let Some(&(_, to)) = renamed.iter().find(|(from, _)| *from == r) {
                            *o = VOp::Reg(to);
                        }
                    }
                });
                let fresh = new_reg(vregs);
                if let Some(old) = instr.def() {
                    renamed.push((old, fresh));
                }
                instr.set_def(fresh);
                inserts.push((header, instr));
            }
            let Some(&(_, running)) = renamed.last() else { continue };
            let step = match a.step.times {
                None => VOp::Imm(a.step.by),
                Some(n) => {
                    let r = new_reg(vregs);
                    inserts
                        .push((header, VInstr::Alu { op: AluOp::Mul, dst: r, a: VOp::Reg(n), b: VOp::Imm(a.step.by) }));
                    VOp::Reg(r)
                }
            };
            let at = increment_at[a.counter as usize];
            inserts.push((at, VInstr::Alu { op: AluOp::Add, dst: running, a: VOp::Reg(running), b: step }));
            replaced.push((site, VInstr::Mov { dst: root, src: VOp::Reg(running) }));
        }
        for (site, instr) in replaced {
            code[site as usize] = instr;
        }
        edit::splice(code, &inserts, &vec![false; code.len()], |b, t| t == header && flow.in_loop(&l, b));
        return true;
    }
    false
}

/// The derived instructions `root` is computed by, in program order.
fn chain_of(code: &[VInstr], derived: &[(u32, VReg, Affine)], root: VReg) -> Vec<u32> {
    let mut chain = Vec::new();
    let mut wanted = vec![root];
    while let Some(r) = wanted.pop() {
        if let Some(&(site, _, _)) = derived.iter().find(|(_, d, _)| *d == r) {
            if !chain.contains(&site) {
                chain.push(site);
                code[site as usize].for_each_use(|u| wanted.push(u));
            }
        }
    }
    chain.sort_unstable();
    chain
}

fn new_reg(vregs: &mut u32) -> VReg {
    *vregs += 1;
    *vregs - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Width;
    use crate::isa::{CmpOp, CmpType, Space};
    use crate::kernel::vcode::NO_SITE;
    use alloc::vec;

    #[test]
    fn an_indexed_load_becomes_a_pointer_that_steps_by_four() {
        // do { v4 = load [v0 + (v2 << 2)]; v2 += 1 } while (v2 < v1)
        let mut code = vec![
            VInstr::Mov { dst: 2, src: VOp::Imm(0) },
            VInstr::Alu { op: AluOp::Shl, dst: 3, a: VOp::Reg(2), b: VOp::Imm(2) },
            VInstr::Alu { op: AluOp::Add, dst: 5, a: VOp::Reg(0), b: VOp::Reg(3) },
            VInstr::Load { width: Width::Word, space: Space::Global, dst: 4, addr: 5, offset: 0, site: NO_SITE },
            VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(2), b: VOp::Imm(1) },
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 6, a: VOp::Reg(2), b: VOp::Reg(1) },
            VInstr::Branch { cond: Some(6), negate: false, target: 1, reconverge: 7 },
            VInstr::Exit,
        ];
        let mut vregs = 7;
        assert!(reduce_addresses(&mut code, &mut vregs, 2));
        assert_eq!(vregs, 9);
        // Before the loop: v7 = v2 << 2; v8 = v0 + v7. In it: v5 = v8, and v8 += 4 next to i++.
        assert_eq!(code[1], VInstr::Alu { op: AluOp::Shl, dst: 7, a: VOp::Reg(2), b: VOp::Imm(2) });
        assert_eq!(code[2], VInstr::Alu { op: AluOp::Add, dst: 8, a: VOp::Reg(0), b: VOp::Reg(7) });
        assert_eq!(code[4], VInstr::Mov { dst: 5, src: VOp::Reg(8) });
        assert_eq!(code[6], VInstr::Alu { op: AluOp::Add, dst: 8, a: VOp::Reg(8), b: VOp::Imm(4) });
        assert!(matches!(code[9], VInstr::Branch { target: 3, .. }), "{code:?}");
    }
}
