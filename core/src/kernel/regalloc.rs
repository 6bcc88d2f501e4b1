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

/// Code in machine registers.
pub(crate) struct Allocated {
    pub code: Vec<Instr>,
    /// For each machine instruction, the index of the virtual one it comes from (a few
    /// virtual instructions become two: [`VInstr::machine_len`]).
    pub origin: Vec<u32>,
    /// Registers per thread.
    pub regs: u32,
}

/// Allocated code, or the number of registers it would need (more than `limit`).
/// The parameters are virtual registers `0..wide_params.len()`, each in the machine register
/// of its number; a wide one (`wide_params[p]`) takes `p + 1` too, whose virtual register is
/// left unused.
pub(crate) fn allocate(code: &[VInstr], vregs: u32, wide_params: &[bool], limit: u32) -> Result<Allocated, u32> {
    let params = wide_params.len() as u32;
    let n = vregs.max(params) as usize;
    // Which registers hold 64-bit values: a pair of machine registers each.
    let mut wide = vec![false; n];
    wide[..wide_params.len()].copy_from_slice(wide_params);
    for instr in code {
        if let Some(d) = instr.def().filter(|_| instr.def_is_wide()) {
            wide[d as usize] = true;
        }
    }
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
                // Lowered to two instructions, the first writing the destination's low word:
                // the inputs the second reads must not share it (a copy orders its two).
                if matches!(instr, VInstr::Pack { .. } | VInstr::Select64 { .. }) {
                    instr.for_each_use(|u| {
                        if u != d {
                            add_edge(d, u, &mut adjacent)
                        }
                    });
                }
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
        if let VInstr::Mov { dst, src: VOp::Reg(s) } | VInstr::Mov64 { dst, src: s } = *instr {
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
    // The colours `r`'s neighbours hold (both of a wide neighbour's).
    let forbidden = |r: u32, color: &[u32], taken: &mut Vec<bool>| {
        taken.clear();
        for &m in &adjacent[r as usize] {
            let c = color[m as usize];
            if c != NONE {
                let last = c + wide[m as usize] as u32;
                if taken.len() <= last as usize {
                    taken.resize(last as usize + 1, false);
                }
                taken[c as usize] = true;
                taken[last as usize] = true;
            }
        }
    };
    let free = |taken: &[bool], c: u32| taken.get(c as usize).is_none_or(|t| !t);
    // A wide register needs its colour and the next; allocated pairs start at even registers,
    // as 64-bit operands must on NVIDIA GPUs.
    let fits = |taken: &[bool], r: u32, c: u32| free(taken, c) && (!wide[r as usize] || free(taken, c + 1));
    let step = |r: u32| if wide[r as usize] { 2 } else { 1 };
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
        let preferred =
            partners[r as usize].iter().map(|&p| color[p as usize]).find(|&c| c != NONE && fits(&taken, r, c));
        color[r as usize] =
            preferred.unwrap_or_else(|| (0..).step_by(step(r)).find(|&c| fits(&taken, r, c)).unwrap_or(0));
    }

    let used = (0..n)
        .filter(|&v| color[v] != NONE)
        .map(|v| color[v] + 1 + wide[v] as u32)
        .max()
        .unwrap_or(0)
        .max(params)
        .max(1);
    if used > limit {
        return Err(used);
    }
    let reg = |v: VReg| Reg(color.get(v as usize).copied().filter(|&c| c != NONE).unwrap_or(0) as u8);
    // Where each virtual instruction's machine code starts, for branch targets.
    let mut start = Vec::with_capacity(code.len() + 1);
    let mut at = 0u32;
    for instr in code {
        start.push(at);
        at += instr.machine_len();
    }
    start.push(at);
    let mut machine = Vec::with_capacity(at as usize);
    let mut origin = Vec::with_capacity(at as usize);
    for (k, instr) in code.iter().enumerate() {
        instr.lower(reg, &mut machine);
        origin.resize(machine.len(), k as u32);
    }
    let last = at.saturating_sub(1);
    for instr in &mut machine {
        if let Instr::Branch { target, reconverge, .. } = instr {
            *target = start.get(*target as usize).copied().unwrap_or(last).min(last);
            *reconverge = start.get(*reconverge as usize).copied().unwrap_or(last).min(last);
        }
    }
    Ok(Allocated { code: machine, origin, regs: used })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::AluOp;
    use crate::workload::MAX_REGS_PER_THREAD;

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
        let Allocated { code: out, regs, .. } = allocate(&code, 5, &[false], MAX_REGS_PER_THREAD).unwrap();
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
        let out = allocate(&code, 22, &[false; 2], MAX_REGS_PER_THREAD).unwrap().code;
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

    #[test]
    fn wide_values_take_even_pairs_that_nothing_else_overlaps() {
        use crate::isa::WideOp;
        // v1, v2 wide constants; v3 = v1 * v2 (wide); v4 = a narrow value live throughout;
        // v5 = copy of v3; store-like use of all through a compare.
        let code = [
            VInstr::Alu { op: AluOp::Add, dst: 4, a: VOp::Reg(0), b: VOp::Imm(1) },
            VInstr::Pack { dst: 1, lo: VOp::Imm(3), hi: VOp::Imm(0) },
            VInstr::Pack { dst: 2, lo: VOp::Reg(4), hi: VOp::Imm(1) },
            VInstr::Wide { op: WideOp::Mul, dst: 3, a: 1, b: 2 },
            VInstr::Mov64 { dst: 5, src: 3 },
            VInstr::WideCmp { op: crate::isa::CmpOp::Lt, ty: crate::isa::WideCmpType::Long, dst: 6, a: 5, b: 2 },
            VInstr::Alu { op: AluOp::Add, dst: 7, a: VOp::Reg(6), b: VOp::Reg(4) },
            VInstr::Exit,
        ];
        let Allocated { code: out, origin, regs } = allocate(&code, 8, &[false], MAX_REGS_PER_THREAD).unwrap();
        // Each pack is two moves; the copy coalesces with its source (two `mov r, r`).
        assert_eq!(out.len(), code.len() + 3, "{out:?}");
        assert_eq!(origin[..4], [0, 1, 1, 2]);
        let Instr::Wide { dst, a, b, .. } = out[5] else { panic!("{out:?}") };
        for r in [dst, a, b] {
            assert_eq!(r.0 % 2, 0, "pairs start at even registers: {out:?}");
        }
        assert_ne!(a.0, b.0, "both inputs are live: {out:?}");
        // The narrow value live across everything sits outside both input pairs.
        let Instr::Alu { dst: narrow, .. } = out[0] else { panic!() };
        for pair in [a, b] {
            assert!(narrow.0 != pair.0 && narrow.0 != pair.0 + 1, "{out:?}");
        }
        assert!(regs >= 5, "{regs}");
    }

    #[test]
    fn a_wide_copy_one_register_down_moves_the_high_word_first() {
        let reg = |v: VReg| Reg(v as u8);
        let mut out = Vec::new();
        // Source in r1:r2, destination r2:r3 (overlapping upward): low first would clobber r2.
        VInstr::Mov64 { dst: 2, src: 1 }.lower(reg, &mut out);
        assert_eq!(
            out,
            [
                Instr::Mov { dst: Reg(3), src: crate::isa::Operand::Reg(Reg(2)) },
                Instr::Mov { dst: Reg(2), src: crate::isa::Operand::Reg(Reg(1)) },
            ]
        );
        out.clear();
        VInstr::Mov64 { dst: 0, src: 1 }.lower(reg, &mut out);
        assert_eq!(
            out,
            [
                Instr::Mov { dst: Reg(0), src: crate::isa::Operand::Reg(Reg(1)) },
                Instr::Mov { dst: Reg(1), src: crate::isa::Operand::Reg(Reg(2)) },
            ]
        );
    }

    #[test]
    fn branch_targets_follow_two_instruction_lowerings() {
        let code = [
            VInstr::Branch { cond: Some(0), negate: false, target: 3, reconverge: 3 },
            VInstr::Pack { dst: 1, lo: VOp::Imm(1), hi: VOp::Imm(2) },
            VInstr::Mov64 { dst: 2, src: 1 },
            VInstr::Exit,
        ];
        let Allocated { code: out, .. } = allocate(&code, 3, &[false], MAX_REGS_PER_THREAD).unwrap();
        let Instr::Branch { target, .. } = out[0] else { panic!() };
        assert!(matches!(out[target as usize], Instr::Exit), "{out:?}");
    }

    #[test]
    fn a_two_instruction_lowering_keeps_its_destination_off_the_inputs_read_second() {
        // v0 (a parameter, the condition) and v4 (the high word) die at the instructions that
        // read them last; the wide destinations must still not take their registers, or the
        // first move or select would overwrite what the second reads.
        let code = [
            VInstr::Alu { op: AluOp::Add, dst: 4, a: VOp::Reg(0), b: VOp::Imm(1) },
            VInstr::Pack { dst: 1, lo: VOp::Imm(3), hi: VOp::Imm(0) },
            VInstr::Pack { dst: 2, lo: VOp::Imm(7), hi: VOp::Reg(4) },
            VInstr::Select64 { dst: 3, cond: 0, a: 1, b: 2 },
            VInstr::Half { dst: 5, src: 3, high: true },
            VInstr::Exit,
        ];
        let out = allocate(&code, 6, &[false], MAX_REGS_PER_THREAD).unwrap().code;
        let [Instr::Mov { src: crate::isa::Operand::Reg(high_word), .. }] = [out[4]] else { panic!("{out:?}") };
        let Instr::Mov { dst: pack_low, .. } = out[3] else { panic!("{out:?}") };
        assert_ne!(pack_low, high_word, "the pack's first move would overwrite its high word: {out:?}");
        let Instr::Select { dst, cond, .. } = out[5] else { panic!("{out:?}") };
        assert!(cond != dst && cond.0 != dst.0 + 1, "the first select would overwrite the condition: {out:?}");
    }
}
