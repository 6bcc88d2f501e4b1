//! Register allocation by graph colouring over the final code: liveness per instruction,
//! interference between values live at the same time, then colours in program order with a
//! preference for the colour of a `mov` partner (so most copies become `mov r, r` and vanish).
//! The register count drives occupancy, so it should be what a real compiler would use.

use alloc::vec;
use alloc::vec::Vec;

use super::cfg::Blocks;
use super::liveness::{liveness, Liveness};
use super::vcode::{VInstr, VOp, VReg};
use crate::isa::{Instr, Reg};
use crate::workload::MAX_REGS_PER_THREAD;

/// Allocated code, or the number of registers it would need (more than the machine allows).
pub(crate) fn allocate(code: &[VInstr], vregs: u32, params: u32) -> Result<(Vec<Instr>, u32), u32> {
    let n = vregs.max(params) as usize;
    let len = code.len() as u32;
    let blocks = Blocks::new(code);
    let nb = blocks.starts.len();

    let Liveness { live_in, live_out } = liveness(code, &blocks, n);

    // Interference.
    let mut adjacent: Vec<Vec<u32>> = vec![Vec::new(); n];
    fn add_edge(a: u32, b: u32, adjacent: &mut [Vec<u32>]) {
        adjacent[a as usize].push(b);
        adjacent[b as usize].push(a);
    }
    for (b, out) in live_out.iter().enumerate() {
        let mut live = out.clone();
        for i in (blocks.starts[b]..blocks.end(b, len)).rev() {
            let instr = &code[i as usize];
            if let Some(d) = instr.def() {
                // A copy does not make its source and destination interfere: they may share.
                let copied = match *instr {
                    VInstr::Mov { src: VOp::Reg(s), .. } => Some(s),
                    _ => None,
                };
                live.for_each(|l| {
                    if l != d && Some(l) != copied {
                        add_edge(d, l, &mut adjacent);
                    }
                });
                live.remove(d);
            }
            instr.for_each_use(|u| live.insert(u));
        }
    }
    // Parameters are written at entry, before anything else.
    if nb > 0 {
        for p in 0..params {
            live_in[0].for_each(|l| {
                if l != p {
                    add_edge(p, l, &mut adjacent);
                }
            });
            for q in 0..p {
                add_edge(p, q, &mut adjacent);
            }
        }
    }
    for list in &mut adjacent {
        list.sort_unstable();
        list.dedup();
    }

    // Copy partners, for the colour preference.
    let mut partners: Vec<Vec<u32>> = vec![Vec::new(); n];
    // Launch groups: first register → length.
    let mut group_len = vec![0u32; n];
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for instr in code {
        if let VInstr::Mov { dst, src: VOp::Reg(s) } = *instr {
            partners[dst as usize].push(s);
            partners[s as usize].push(dst);
        }
        if let VInstr::Launch { dims, args, nargs, .. } = *instr {
            group_len[dims as usize] = 6;
            if nargs > 0 {
                group_len[args as usize] = nargs;
            }
        }
        let mut visit = |r: VReg| {
            if !seen[r as usize] {
                seen[r as usize] = true;
                order.push(r);
            }
        };
        if let Some(d) = instr.def() {
            visit(d);
        }
        instr.for_each_use(visit);
    }

    const NONE: u32 = u32::MAX;
    let mut color = vec![NONE; n];
    for p in 0..params {
        color[p as usize] = p;
    }
    let mut taken: Vec<bool> = Vec::new();
    let forbidden = |r: u32, color: &[u32], taken: &mut Vec<bool>| {
        taken.clear();
        for &m in &adjacent[r as usize] {
            let c = color[m as usize];
            if c != NONE {
                if taken.len() <= c as usize {
                    taken.resize(c as usize + 1, false);
                }
                taken[c as usize] = true;
            }
        }
    };
    let free = |taken: &[bool], c: u32| taken.get(c as usize).is_none_or(|t| !t);
    // Members of a launch group are coloured with their group.
    let mut in_group = vec![false; n];
    for (r, &len) in group_len.iter().enumerate() {
        for k in 1..len {
            if let Some(slot) = in_group.get_mut(r + k as usize) {
                *slot = true;
            }
        }
    }
    for &r in &order {
        if color[r as usize] != NONE || in_group[r as usize] {
            continue;
        }
        let glen = group_len[r as usize];
        if glen > 0 {
            // The lowest base where every member's colour is free for that member.
            let members: Vec<Vec<bool>> = (0..glen)
                .map(|k| {
                    let mut t = Vec::new();
                    forbidden(r + k, &color, &mut t);
                    t
                })
                .collect();
            let base = (0..).find(|&b| members.iter().enumerate().all(|(k, t)| free(t, b + k as u32))).unwrap_or(0);
            for k in 0..glen {
                color[(r + k) as usize] = base + k;
            }
            continue;
        }
        forbidden(r, &color, &mut taken);
        let preferred = partners[r as usize].iter().map(|&p| color[p as usize]).find(|&c| c != NONE && free(&taken, c));
        color[r as usize] = preferred.unwrap_or_else(|| (0..).find(|&c| free(&taken, c)).unwrap_or(0));
    }

    let used = color.iter().filter(|&&c| c != NONE).map(|&c| c + 1).max().unwrap_or(0).max(params).max(1);
    if used > MAX_REGS_PER_THREAD {
        return Err(used);
    }
    let reg = |v: VReg| Reg(color.get(v as usize).copied().filter(|&c| c != NONE).unwrap_or(0) as u8);
    Ok((code.iter().map(|i| i.to_instr(reg)).collect(), used))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::AluOp;

    #[test]
    fn short_lived_values_share_registers_and_copies_vanish() {
        // r0 param; v1 = r0 + 1; v2 = v1 * 2; v3 = v2; store-like use through Exit.
        let code = [
            VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Reg(0), b: VOp::Imm(1) },
            VInstr::Alu { op: AluOp::Mul, dst: 2, a: VOp::Reg(1), b: VOp::Imm(2) },
            VInstr::Mov { dst: 3, src: VOp::Reg(2) },
            VInstr::Alu { op: AluOp::Add, dst: 4, a: VOp::Reg(3), b: VOp::Reg(3) },
            VInstr::Exit,
        ];
        let (out, regs) = allocate(&code, 5, 1).unwrap();
        assert_eq!(regs, 1, "{out:?}");
        assert!(matches!(out[2], Instr::Mov { dst, src: crate::isa::Operand::Reg(s) } if dst == s));
    }

    #[test]
    fn launch_groups_get_consecutive_registers() {
        let mut code = Vec::new();
        for k in 0..6 {
            code.push(VInstr::Mov { dst: 10 + k, src: VOp::Imm(1) });
        }
        code.push(VInstr::Mov { dst: 20, src: VOp::Reg(0) });
        code.push(VInstr::Mov { dst: 21, src: VOp::Reg(1) });
        code.push(VInstr::Launch { kernel: 0, dims: 10, args: 20, nargs: 2 });
        code.push(VInstr::Alu { op: AluOp::Add, dst: 5, a: VOp::Reg(0), b: VOp::Reg(1) });
        code.push(VInstr::Exit);
        let (out, _) = allocate(&code, 22, 2).unwrap();
        let Instr::Launch { dims, args, .. } = out[8] else { panic!() };
        for k in 0..6u8 {
            assert!(matches!(out[k as usize], Instr::Mov { dst, .. } if dst.0 == dims.0 + k));
        }
        assert!(matches!(out[6], Instr::Mov { dst, .. } if dst == args));
        assert!(matches!(out[7], Instr::Mov { dst, .. } if dst.0 == args.0 + 1));
        // The parameters are still live after the launch: the dimensions avoid r0 and r1, and
        // the argument copies may stay where the parameters are.
        assert!(dims.0 >= 2);
    }
}
