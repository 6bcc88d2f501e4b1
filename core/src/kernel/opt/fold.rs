//! Constant folding and propagation, copy propagation and address offsets.
//!
//! Values flow two ways: a fixed register (written once, before every read; `flow::Defs`)
//! that holds a constant or a copy of another fixed register is replaced everywhere it is
//! read; inside a block, any register's last constant or copy is known until either side is
//! written again. Then an instruction whose inputs are all constants becomes a `mov` of its
//! result (computed by `exec::alu`, the very functions that execute it, so folding never
//! changes a bit), integer identities (`x + 0`, `x * 1`, `x * 0`, …) go, a branch on a known
//! condition becomes a jump or nothing, and `load [p + k]` becomes `load [p], k`.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use super::edit;
use super::flow::{Defs, Flow};
use crate::exec::{alu, wide};
use crate::isa::AluOp;
use crate::kernel::cfg;
use crate::kernel::vcode::{VInstr, VOp, VReg};

/// One round of propagation and folding; whether anything changed.
pub(crate) fn fold(code: &mut Vec<VInstr>, vregs: u32, params: u32) -> bool {
    let mut changed = propagate_fixed(code, vregs, params);
    changed |= propagate_in_blocks(code);
    let mut drop = vec![false; code.len()];
    for i in 0..code.len() {
        match simplify(&code[i]) {
            Simplified::Same => {}
            Simplified::Into(new) => {
                code[i] = new;
                changed = true;
            }
            Simplified::Gone => {
                drop[i] = true;
                changed = true;
            }
        }
    }
    edit::delete(code, &drop);
    changed |= combine_constant_steps(code, vregs, params);
    changed |= reassociate_index_offsets(code, vregs, params);
    changed |= fold_address_offsets(code, vregs, params);
    if changed {
        cfg::remove_unreachable(code);
    }
    changed
}

/// Replaces reads of fixed registers that hold a constant or a copy of another fixed register.
fn propagate_fixed(code: &mut [VInstr], vregs: u32, params: u32) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, vregs, params);
    // What each register may be replaced by (chains of copies resolved in order below).
    let mut value: Vec<Option<VOp>> = vec![None; defs.count.len()];
    for instr in code.iter() {
        if let VInstr::Mov { dst, src } = *instr {
            if !defs.is_fixed(dst) {
                continue;
            }
            let src = match src {
                VOp::Reg(s) if defs.is_fixed(s) => value[s as usize].unwrap_or(src),
                VOp::Reg(_) => continue,
                imm => imm,
            };
            if src != VOp::Reg(dst) {
                value[dst as usize] = Some(src);
            }
        }
    }
    let resolve = |op: VOp| -> VOp {
        let mut op = op;
        // A copy of a copy: follow at most a few links (each step is a fixed register).
        for _ in 0..8 {
            match op {
                VOp::Reg(r) => match value.get(r as usize).copied().flatten() {
                    Some(next) => op = next,
                    None => break,
                },
                VOp::Imm(_) => break,
            }
        }
        op
    };
    let mut changed = false;
    for instr in code.iter_mut() {
        instr.for_each_operand_mut(|o| {
            let new = resolve(*o);
            changed |= new != *o;
            *o = new;
        });
        substitute_reg_inputs(instr, &resolve, &mut changed);
    }
    changed
}

/// Register-only inputs take a copy's source, or a constant where the instruction allows it.
fn substitute_reg_inputs(instr: &mut VInstr, resolve: &impl Fn(VOp) -> VOp, changed: &mut bool) {
    let mut known_condition = None;
    instr.for_each_reg_input_mut(|r| match resolve(VOp::Reg(*r)) {
        VOp::Reg(s) if s != *r => {
            *r = s;
            *changed = true;
        }
        VOp::Imm(k) => known_condition = Some((*r, k)),
        _ => {}
    });
    let Some((reg, k)) = known_condition else { return };
    match *instr {
        VInstr::Select { dst, cond, a, b } if cond == reg => {
            *instr = VInstr::Mov { dst, src: if k != 0 { a } else { b } };
            *changed = true;
        }
        VInstr::Branch { cond: Some(c), negate, target, .. } if c == reg => {
            *instr = resolved_branch(k, negate, target);
            *changed = true;
        }
        _ => {}
    }
}

/// A branch whose condition is the constant `k`: a jump, or a jump to the next instruction
/// (dropped by `simplify`).
fn resolved_branch(k: u32, negate: bool, target: u32) -> VInstr {
    if (k != 0) != negate {
        VInstr::Branch { cond: None, negate: false, target, reconverge: target }
    } else {
        VInstr::Branch { cond: None, negate: false, target: NOT_TAKEN, reconverge: NOT_TAKEN }
    }
}

/// The target of a branch that is never taken; `simplify` drops it.
const NOT_TAKEN: u32 = u32::MAX;

/// Inside each block, reads of a register take its last constant or copy.
fn propagate_in_blocks(code: &mut [VInstr]) -> bool {
    let flow = Flow::new(code);
    let mut changed = false;
    for b in 0..flow.block_count() {
        let mut known: BTreeMap<VReg, VOp> = BTreeMap::new();
        // 64-bit registers holding a known value.
        let mut known64: BTreeMap<VReg, u64> = BTreeMap::new();
        for i in flow.range(b) {
            let instr = &mut code[i as usize];
            let resolve = |op: VOp| match op {
                VOp::Reg(r) => known.get(&r).copied().unwrap_or(op),
                imm => imm,
            };
            instr.for_each_operand_mut(|o| {
                let new = resolve(*o);
                changed |= new != *o;
                *o = new;
            });
            substitute_reg_inputs(instr, &resolve, &mut changed);
            if let Some(folded) = fold_wide(instr, &known, &known64) {
                *instr = folded;
                changed = true;
            }
            if let Some(d) = instr.def() {
                known.remove(&d);
                known.retain(|_, v| *v != VOp::Reg(d));
                known64.remove(&d);
                match *instr {
                    VInstr::Mov { src, .. } if src != VOp::Reg(d) => {
                        known.insert(d, src);
                    }
                    VInstr::Pack { lo: VOp::Imm(lo), hi: VOp::Imm(hi), .. } => {
                        known64.insert(d, wide::join(lo, hi));
                    }
                    _ => {}
                }
            }
        }
    }
    changed
}

/// A 64-bit instruction whose inputs are all known, as a constant: a pack of its result, or a
/// move of a one-word result (computed by `exec::wide`, as the machine would).
fn fold_wide(instr: &VInstr, known: &BTreeMap<VReg, VOp>, known64: &BTreeMap<VReg, u64>) -> Option<VInstr> {
    let word = |r: VReg| match known.get(&r) {
        Some(VOp::Imm(k)) => Some(*k as u64),
        _ => None,
    };
    let pair = |r: VReg| known64.get(&r).copied();
    let pack = |dst: VReg, v: u64| {
        let (lo, hi) = wide::split(v);
        VInstr::Pack { dst, lo: VOp::Imm(lo), hi: VOp::Imm(hi) }
    };
    Some(match *instr {
        VInstr::Wide { op, dst, a, b } => pack(dst, wide::wide(op, pair(a)?, pair(b)?)),
        VInstr::WideFma { dst, a, b, c } => pack(dst, wide::fma(pair(a)?, pair(b)?, pair(c)?)),
        VInstr::WideUnary { op, dst, a } => {
            let input = if op.reads_pair() { pair(a)? } else { word(a)? };
            let v = wide::wide_unary(op, input);
            if op.writes_pair() {
                pack(dst, v)
            } else {
                VInstr::Mov { dst, src: VOp::Imm(v as u32) }
            }
        }
        VInstr::WideCmp { op, ty, dst, a, b } => {
            VInstr::Mov { dst, src: VOp::Imm(wide::wide_compare(op, ty, pair(a)?, pair(b)?)) }
        }
        VInstr::Half { dst, src, high } => {
            let (lo, hi) = wide::split(pair(src)?);
            VInstr::Mov { dst, src: VOp::Imm(if high { hi } else { lo }) }
        }
        VInstr::Mov64 { dst, src } => pack(dst, pair(src)?),
        _ => return None,
    })
}

enum Simplified {
    Same,
    Into(VInstr),
    Gone,
}

/// The instruction with constant inputs computed and identities applied.
fn simplify(instr: &VInstr) -> Simplified {
    use AluOp::*;
    use VOp::Imm;
    let mov = |dst, src| Simplified::Into(VInstr::Mov { dst, src });
    match *instr {
        VInstr::Mov { dst, src } if src == VOp::Reg(dst) => Simplified::Gone,
        VInstr::Branch { target: NOT_TAKEN, .. } => Simplified::Gone,
        VInstr::Alu { op, dst, a: Imm(x), b: Imm(y) } => mov(dst, Imm(alu::alu(op, x, y))),
        VInstr::Unary { op, dst, a: Imm(x) } => mov(dst, Imm(alu::unary(op, x))),
        VInstr::Cmp { op, ty, dst, a: Imm(x), b: Imm(y) } => mov(dst, Imm(alu::compare(op, ty, x, y))),
        VInstr::Sfu { op, dst, a: Imm(x), b: Imm(y) } => mov(dst, Imm(alu::sfu(op, x, y))),
        VInstr::Fma { dst, a: Imm(x), b: Imm(y), c: Imm(z) } => mov(dst, Imm(alu::fma(x, y, z))),
        VInstr::Select { dst, a, b, .. } if a == b => mov(dst, a),
        // A bounds check of a constant in range (an unrolled loop's counter) cannot fault.
        VInstr::Bound { index: Imm(k), len, .. } if k < len => Simplified::Gone,
        VInstr::Alu { op, dst, a, b } => match (op, a, b) {
            (Add | Sub | Or | Xor | Shl | ShrU | ShrS, x, Imm(0)) | (Add | Or | Xor, Imm(0), x) => mov(dst, x),
            (Mul | DivS | DivU, x, Imm(1)) | (Mul, Imm(1), x) => mov(dst, x),
            (Mul | And, _, Imm(0)) | (Mul | And, Imm(0), _) => mov(dst, Imm(0)),
            (Add, x, Imm(k)) if x != Imm(0) && (k as i32) < 0 && k != 0x8000_0000 => {
                // `x + -k` reads better as `x - k`; same bits.
                Simplified::Into(VInstr::Alu { op: Sub, dst, a: x, b: Imm(k.wrapping_neg()) })
            }
            (Mul, x, Imm(k)) if k.is_power_of_two() => {
                Simplified::Into(VInstr::Alu { op: Shl, dst, a: x, b: Imm(k.trailing_zeros()) })
            }
            _ => Simplified::Same,
        },
        _ => Simplified::Same,
    }
}

/// Two constant steps in a row become one, where the first's input is fixed (so it holds
/// the same value at the second): `(x << a) << b` → `x << (a + b)` while that is below 32
/// (beyond, the bits would not be the same: shift counts wrap), and `(x ± k1) ± k2` →
/// `x + (±k1 ± k2)` (wrapping, like the additions).
fn combine_constant_steps(code: &mut [VInstr], vregs: u32, params: u32) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, vregs, params);
    let added = |op: AluOp, a: VOp, b: VOp| -> Option<(VReg, u32)> {
        match (op, a, b) {
            (AluOp::Add, VOp::Reg(x), VOp::Imm(k)) | (AluOp::Add, VOp::Imm(k), VOp::Reg(x)) => Some((x, k)),
            (AluOp::Sub, VOp::Reg(x), VOp::Imm(k)) => Some((x, k.wrapping_neg())),
            _ => None,
        }
    };
    let mut changed = false;
    for i in 0..code.len() {
        let VInstr::Alu { op, dst, a, b } = code[i] else { continue };
        let inner = |t: VReg| defs.fixed_def(t).map(|site| code[site as usize]);
        let new = match (op, a, b) {
            (AluOp::Shl, VOp::Reg(t), VOp::Imm(s2)) => match inner(t) {
                Some(VInstr::Alu { op: AluOp::Shl, a: VOp::Reg(x), b: VOp::Imm(s1), .. })
                    if defs.is_fixed(x) && s1 < 32 && s2 < 32 && s1 + s2 < 32 =>
                {
                    Some(VInstr::Alu { op: AluOp::Shl, dst, a: VOp::Reg(x), b: VOp::Imm(s1 + s2) })
                }
                _ => None,
            },
            _ => match added(op, a, b) {
                Some((t, k2)) => match inner(t) {
                    Some(VInstr::Alu { op: o, a: a1, b: b1, .. }) => match added(o, a1, b1) {
                        Some((x, k1)) if defs.is_fixed(x) => {
                            Some(VInstr::Alu { op: AluOp::Add, dst, a: VOp::Reg(x), b: VOp::Imm(k1.wrapping_add(k2)) })
                        }
                        _ => None,
                    },
                    _ => None,
                },
                None => None,
            },
        };
        if let Some(new) = new {
            code[i] = new;
            changed = true;
        }
    }
    changed
}

/// An address `t = p + s` read only by loads and stores, whose index is a constant away
/// from another value — `s = (i ± k) << c` (or `* m`), or `s = i ± k` — with each link read
/// once: the constant moves into the accesses' offsets (`k << c`, wrapping like the
/// arithmetic it replaces) and `s` is computed from `i`. So `int j = i + 1; a[j]` reads
/// `[a + 4i], 4` as `a[i + 1]` does (which the code generator already splits).
fn reassociate_index_offsets(code: &mut [VInstr], vregs: u32, params: u32) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, vregs, params);
    let n = defs.count.len();
    let mut uses = vec![0u32; n];
    let mut address_only = vec![true; n];
    for instr in code.iter() {
        instr.for_each_use(|u| {
            if let Some(c) = uses.get_mut(u as usize) {
                *c += 1;
            }
        });
        let mut other = |r: VReg| {
            if let Some(a) = address_only.get_mut(r as usize) {
                *a = false;
            }
        };
        match *instr {
            VInstr::Load { .. } => {}
            VInstr::Store { src: VOp::Reg(r), .. } => other(r),
            VInstr::Store { .. } => {}
            _ => instr.for_each_use(other),
        }
    }
    let once = |r: VReg| uses.get(r as usize) == Some(&1);
    // `x = i ± k` with `i` fixed: (i, k).
    let offset_of = |x: VReg| -> Option<(VReg, u32)> {
        match code[defs.fixed_def(x)? as usize] {
            VInstr::Alu { op: AluOp::Add, a: VOp::Reg(i), b: VOp::Imm(k), .. }
            | VInstr::Alu { op: AluOp::Add, a: VOp::Imm(k), b: VOp::Reg(i), .. }
                if defs.is_fixed(i) =>
            {
                Some((i, k))
            }
            VInstr::Alu { op: AluOp::Sub, a: VOp::Reg(i), b: VOp::Imm(k), .. } if defs.is_fixed(i) => {
                Some((i, k.wrapping_neg()))
            }
            _ => None,
        }
    };
    // (instruction to rewrite, register it reads to replace, by, offset to add to `t`'s uses)
    let mut edits: Vec<(usize, VReg, VReg, VReg, u32)> = Vec::new();
    for (ti, instr) in code.iter().enumerate() {
        let VInstr::Alu { op: AluOp::Add, dst: t, a: VOp::Reg(x), b: VOp::Reg(y) } = *instr else { continue };
        if !defs.is_fixed(t) || defs.fixed_def(t).is_none() || !address_only[t as usize] || uses[t as usize] == 0 {
            continue;
        }
        for s in [y, x] {
            let Some(ssite) = defs.fixed_def(s).filter(|_| once(s)) else { continue };
            if let Some((i, k)) = offset_of(s) {
                edits.push((ti, s, i, t, k));
                break;
            }
            let (j, scale) = match code[ssite as usize] {
                VInstr::Alu { op: AluOp::Shl, a: VOp::Reg(j), b: VOp::Imm(c), .. } => {
                    (j, 1u32.checked_shl(c).unwrap_or(0))
                }
                VInstr::Alu { op: AluOp::Mul, a: VOp::Reg(j), b: VOp::Imm(m), .. }
                | VInstr::Alu { op: AluOp::Mul, a: VOp::Imm(m), b: VOp::Reg(j), .. } => (j, m),
                _ => continue,
            };
            if let Some((i, k)) = offset_of(j).filter(|_| once(j)) {
                edits.push((ssite as usize, j, i, t, k.wrapping_mul(scale)));
                break;
            }
        }
    }
    // One edit per address (a register feeds one address at most: each link is read once).
    for &(at, from, to, t, k) in &edits {
        if let VInstr::Alu { a, b, .. } = &mut code[at] {
            for o in [a, b] {
                if *o == VOp::Reg(from) {
                    *o = VOp::Reg(to);
                }
            }
        }
        for instr in code.iter_mut() {
            if let VInstr::Load { addr, offset, .. } | VInstr::Store { addr, offset, .. } = instr {
                if *addr == t {
                    *offset = offset.wrapping_add(k as i32);
                }
            }
        }
    }
    !edits.is_empty()
}

/// `load/store [t], o` where fixed `t = p + k` (constant `k`, `p` a fixed register) becomes
/// `[p], o + k`, as nvcc's `[R + imm]` addressing does; `t` may then go.
fn fold_address_offsets(code: &mut [VInstr], vregs: u32, params: u32) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, vregs, params);
    let base_and_offset = |t: VReg| -> Option<(VReg, i32)> {
        let site = defs.fixed_def(t)?;
        match code[site as usize] {
            VInstr::Alu { op: AluOp::Add, a: VOp::Reg(p), b: VOp::Imm(k), .. }
            | VInstr::Alu { op: AluOp::Add, a: VOp::Imm(k), b: VOp::Reg(p), .. }
                if defs.is_fixed(p) =>
            {
                Some((p, k as i32))
            }
            VInstr::Alu { op: AluOp::Sub, a: VOp::Reg(p), b: VOp::Imm(k), .. } if defs.is_fixed(p) => {
                Some((p, (k as i32).wrapping_neg()))
            }
            _ => None,
        }
    };
    let moves: Vec<(usize, VReg, i32)> = code
        .iter()
        .enumerate()
        .filter_map(|(i, instr)| match *instr {
            VInstr::Load { addr, .. } | VInstr::Store { addr, .. } => base_and_offset(addr).map(|(p, k)| (i, p, k)),
            _ => None,
        })
        .collect();
    for &(i, p, k) in &moves {
        if let VInstr::Load { addr, offset, .. } | VInstr::Store { addr, offset, .. } = &mut code[i] {
            *addr = p;
            *offset = offset.wrapping_add(k);
        }
    }
    let local = fold_address_offsets_in_blocks(code, &flow);
    let merged = merge_steps(code, &flow);
    !moves.is_empty() || local || merged
}

/// Inside a block, `x = x ± k` whose result is read only as load/store addresses until the
/// next `x = x ± k2` of the block goes: those accesses take `k` in their offsets and the next
/// step becomes `x = x ± (k + k2)`. Unrolled copies of a loop that steps a pointer so read
/// `[p], [p + 4], [p + 8], [p + 12]` and step it once, as nvcc's copies do.
fn merge_steps(code: &mut [VInstr], flow: &Flow) -> bool {
    let step = |instr: &VInstr| -> Option<(VReg, u32)> {
        match *instr {
            VInstr::Alu { op: AluOp::Add, dst, a: VOp::Reg(x), b: VOp::Imm(k) }
            | VInstr::Alu { op: AluOp::Add, dst, a: VOp::Imm(k), b: VOp::Reg(x) }
                if x == dst =>
            {
                Some((x, k))
            }
            VInstr::Alu { op: AluOp::Sub, dst, a: VOp::Reg(x), b: VOp::Imm(k) } if x == dst => {
                Some((x, k.wrapping_neg()))
            }
            _ => None,
        }
    };
    let mut changed = false;
    for b in 0..flow.block_count() {
        let range = flow.range(b);
        for j in range.clone() {
            let Some((x, k)) = step(&code[j as usize]) else { continue };
            // The next write of `x` in the block, and whether every read before it is an address.
            let mut next = None;
            for m in j + 1..range.end {
                let instr = code[m as usize];
                if instr.def() == Some(x) {
                    next = step(&instr).map(|(_, k2)| (m, k2));
                    break;
                }
                let mut reads = 0;
                instr.for_each_use(|u| reads += (u == x) as u32);
                let address_only = match instr {
                    VInstr::Load { addr, .. } => addr == x,
                    VInstr::Store { addr, src, .. } => addr == x && src != VOp::Reg(x),
                    _ => false,
                };
                if reads > 0 && !address_only {
                    break;
                }
            }
            let Some((m, k2)) = next else { continue };
            for instr in &mut code[j as usize + 1..m as usize] {
                if let VInstr::Load { addr, offset, .. } | VInstr::Store { addr, offset, .. } = instr {
                    if *addr == x {
                        *offset = offset.wrapping_add(k as i32);
                    }
                }
            }
            code[m as usize] = VInstr::Alu { op: AluOp::Add, dst: x, a: VOp::Reg(x), b: VOp::Imm(k.wrapping_add(k2)) };
            // A no-op, which `simplify` deletes.
            code[j as usize] = VInstr::Mov { dst: x, src: VOp::Reg(x) };
            changed = true;
        }
    }
    changed
}

/// The same inside each block for registers written more than once (the temporaries of
/// unrolled copies, which share their registers): `t = p ± k` followed in the block by
/// `load/store [t], o`, with neither `t` nor `p` written in between, becomes `[p], o ± k`.
fn fold_address_offsets_in_blocks(code: &mut [VInstr], flow: &Flow) -> bool {
    let mut changed = false;
    for b in 0..flow.block_count() {
        // Registers known to hold `base + k` here.
        let mut known: BTreeMap<VReg, (VReg, i32)> = BTreeMap::new();
        for i in flow.range(b) {
            let instr = &mut code[i as usize];
            if let VInstr::Load { addr, offset, .. } | VInstr::Store { addr, offset, .. } = instr {
                if let Some(&(p, k)) = known.get(addr) {
                    *addr = p;
                    *offset = offset.wrapping_add(k);
                    changed = true;
                }
            }
            if let Some(d) = instr.def() {
                known.remove(&d);
                known.retain(|_, (p, _)| *p != d);
                match *instr {
                    VInstr::Alu { op: AluOp::Add, a: VOp::Reg(p), b: VOp::Imm(k), .. }
                    | VInstr::Alu { op: AluOp::Add, a: VOp::Imm(k), b: VOp::Reg(p), .. }
                        if p != d =>
                    {
                        known.insert(d, (p, k as i32));
                    }
                    VInstr::Alu { op: AluOp::Sub, a: VOp::Reg(p), b: VOp::Imm(k), .. } if p != d => {
                        known.insert(d, (p, (k as i32).wrapping_neg()));
                    }
                    _ => {}
                }
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Width;
    use crate::isa::{CmpOp, CmpType, Space};
    use crate::kernel::vcode::NO_SITE;
    use alloc::vec;

    #[test]
    fn constants_flow_through_movs_and_fold() {
        // v1 = 6; v2 = v1 * 7; v3 = v2 < 50; store [v0], v2  →  store [v0], 42; the rest folds.
        let mut code = vec![
            VInstr::Mov { dst: 1, src: VOp::Imm(6) },
            VInstr::Alu { op: AluOp::Mul, dst: 2, a: VOp::Reg(1), b: VOp::Imm(7) },
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 3, a: VOp::Reg(2), b: VOp::Imm(50) },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(2),
                site: NO_SITE,
            },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 4,
                src: VOp::Reg(3),
                site: NO_SITE,
            },
            VInstr::Exit,
        ];
        while fold(&mut code, 4, 1) {}
        assert_eq!(
            code[3],
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Imm(42),
                site: NO_SITE
            }
        );
        assert_eq!(
            code[4],
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 4,
                src: VOp::Imm(1),
                site: NO_SITE
            }
        );
    }

    #[test]
    fn a_variable_written_twice_is_known_only_inside_its_block() {
        // v1 = 1; v1 = v1 + 2; store v1 (→ 3) | join: store v1 (unknown: two paths reach it).
        let mut code = vec![
            VInstr::Mov { dst: 1, src: VOp::Imm(1) },
            VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Reg(1), b: VOp::Imm(2) },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(1),
                site: NO_SITE,
            },
            VInstr::Branch { cond: Some(0), negate: false, target: 5, reconverge: 5 },
            VInstr::Mov { dst: 1, src: VOp::Imm(9) },
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
        while fold(&mut code, 2, 1) {}
        assert_eq!(
            code[2],
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Imm(3),
                site: NO_SITE
            }
        );
        assert_eq!(
            code[5],
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(1),
                site: NO_SITE
            }
        );
    }

    #[test]
    fn a_branch_on_a_constant_becomes_a_jump_or_nothing() {
        let mut code = vec![
            VInstr::Mov { dst: 1, src: VOp::Imm(0) },
            VInstr::Branch { cond: Some(1), negate: false, target: 3, reconverge: 3 },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Imm(5),
                site: NO_SITE,
            },
            VInstr::Exit,
        ];
        while fold(&mut code, 2, 1) {}
        assert!(!code.iter().any(|i| matches!(i, VInstr::Branch { .. })), "{code:?}");
        assert!(code.iter().any(|i| matches!(i, VInstr::Store { .. })));
    }

    #[test]
    fn a_constant_added_to_an_address_becomes_the_offset() {
        let mut code = vec![
            VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Reg(0), b: VOp::Imm(12) },
            VInstr::Load { width: Width::Word, space: Space::Global, dst: 2, addr: 1, offset: 4, site: NO_SITE },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(2),
                site: NO_SITE,
            },
            VInstr::Exit,
        ];
        while fold(&mut code, 3, 1) {}
        assert_eq!(
            code[1],
            VInstr::Load { width: Width::Word, space: Space::Global, dst: 2, addr: 0, offset: 16, site: NO_SITE }
        );
    }

    #[test]
    fn a_temporary_written_twice_still_becomes_an_offset_inside_its_block() {
        // v1 = v0 + 4; load [v1]; v1 = v0 + 8; load [v1]  (unrolled copies share v1)
        let mut code = vec![
            VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Reg(0), b: VOp::Imm(4) },
            VInstr::Load { width: Width::Word, space: Space::Shared, dst: 2, addr: 1, offset: 0, site: NO_SITE },
            VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Imm(8), b: VOp::Reg(0) },
            VInstr::Load { width: Width::Word, space: Space::Shared, dst: 3, addr: 1, offset: 1024, site: NO_SITE },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(3),
                site: NO_SITE,
            },
            VInstr::Exit,
        ];
        while fold(&mut code, 4, 1) {}
        assert_eq!(
            code[1],
            VInstr::Load { width: Width::Word, space: Space::Shared, dst: 2, addr: 0, offset: 4, site: NO_SITE }
        );
        assert_eq!(
            code[3],
            VInstr::Load { width: Width::Word, space: Space::Shared, dst: 3, addr: 0, offset: 1032, site: NO_SITE }
        );
    }

    #[test]
    fn steps_of_a_pointer_read_only_as_an_address_merge_into_offsets() {
        // load [v0]; v0 += 4; load [v0]; v0 += 4; load [v0]; v0 += 4  →  offsets 0, 4, 8; v0 += 12
        let mut code = Vec::new();
        for k in 0..3 {
            code.push(VInstr::Load {
                width: Width::Word,
                space: Space::Global,
                dst: 1 + k,
                addr: 0,
                offset: 0,
                site: NO_SITE,
            });
            code.push(VInstr::Alu { op: AluOp::Add, dst: 0, a: VOp::Reg(0), b: VOp::Imm(4) });
        }
        code.push(VInstr::Exit);
        while fold(&mut code, 4, 0) {}
        assert_eq!(code.len(), 5, "{code:?}");
        for (k, instr) in code[..3].iter().enumerate() {
            assert_eq!(
                *instr,
                VInstr::Load {
                    width: Width::Word,
                    space: Space::Global,
                    dst: 1 + k as u32,
                    addr: 0,
                    offset: 4 * k as i32,
                    site: NO_SITE
                }
            );
        }
        assert_eq!(code[3], VInstr::Alu { op: AluOp::Add, dst: 0, a: VOp::Reg(0), b: VOp::Imm(12) });
    }

    #[test]
    fn a_step_read_by_anything_but_an_address_stays() {
        let mut code = vec![
            VInstr::Alu { op: AluOp::Add, dst: 0, a: VOp::Reg(0), b: VOp::Imm(4) },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(0),
                site: NO_SITE,
            },
            VInstr::Alu { op: AluOp::Add, dst: 0, a: VOp::Reg(0), b: VOp::Imm(4) },
            VInstr::Exit,
        ];
        let before = code.clone();
        while fold(&mut code, 1, 0) {}
        assert_eq!(code, before);
    }

    #[test]
    fn constant_shifts_and_additions_in_a_row_combine() {
        // v2 = (v1 << 5) << 2 → v1 << 7; v4 = (v1 + 3) - 5 → v1 - 2; (v1 << 20) << 12 stays.
        let mut code = vec![
            VInstr::Alu { op: AluOp::Shl, dst: 1, a: VOp::Reg(0), b: VOp::Imm(5) },
            VInstr::Alu { op: AluOp::Shl, dst: 2, a: VOp::Reg(1), b: VOp::Imm(2) },
            VInstr::Alu { op: AluOp::Add, dst: 3, a: VOp::Reg(0), b: VOp::Imm(3) },
            VInstr::Alu { op: AluOp::Sub, dst: 4, a: VOp::Reg(3), b: VOp::Imm(5) },
            VInstr::Alu { op: AluOp::Shl, dst: 5, a: VOp::Reg(0), b: VOp::Imm(20) },
            VInstr::Alu { op: AluOp::Shl, dst: 6, a: VOp::Reg(5), b: VOp::Imm(12) },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(2),
                site: NO_SITE,
            },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 4,
                src: VOp::Reg(4),
                site: NO_SITE,
            },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 8,
                src: VOp::Reg(6),
                site: NO_SITE,
            },
            VInstr::Exit,
        ];
        while fold(&mut code, 7, 1) {}
        assert_eq!(code[1], VInstr::Alu { op: AluOp::Shl, dst: 2, a: VOp::Reg(0), b: VOp::Imm(7) });
        assert_eq!(code[3], VInstr::Alu { op: AluOp::Sub, dst: 4, a: VOp::Reg(0), b: VOp::Imm(2) });
        assert_eq!(code[5], VInstr::Alu { op: AluOp::Shl, dst: 6, a: VOp::Reg(5), b: VOp::Imm(12) });
    }

    #[test]
    fn an_index_a_constant_away_moves_the_constant_into_the_offsets() {
        // v2 = v1 + 1; v3 = v2 << 2; v4 = v0 + v3; load [v4]; store [v4], 8
        //   →  v3 = v1 << 2; v4 = v0 + v3; load [v4], 4; store [v4], 12
        let mut code = vec![
            VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(1), b: VOp::Imm(1) },
            VInstr::Alu { op: AluOp::Shl, dst: 3, a: VOp::Reg(2), b: VOp::Imm(2) },
            VInstr::Alu { op: AluOp::Add, dst: 4, a: VOp::Reg(0), b: VOp::Reg(3) },
            VInstr::Load { width: Width::Word, space: Space::Global, dst: 5, addr: 4, offset: 0, site: NO_SITE },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 4,
                offset: 8,
                src: VOp::Reg(5),
                site: NO_SITE,
            },
            VInstr::Exit,
        ];
        while fold(&mut code, 6, 2) {}
        // `v2` is dead now (dead code removal is another pass).
        assert_eq!(code[1], VInstr::Alu { op: AluOp::Shl, dst: 3, a: VOp::Reg(1), b: VOp::Imm(2) });
        assert_eq!(
            code[3],
            VInstr::Load { width: Width::Word, space: Space::Global, dst: 5, addr: 4, offset: 4, site: NO_SITE }
        );
        assert_eq!(
            code[4],
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 4,
                offset: 12,
                src: VOp::Reg(5),
                site: NO_SITE
            }
        );
    }

    #[test]
    fn an_index_read_elsewhere_or_an_address_stored_keeps_its_constant() {
        for extra in [
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(2),
                site: NO_SITE,
            },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(4),
                site: NO_SITE,
            },
        ] {
            let mut code = vec![
                VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(1), b: VOp::Imm(1) },
                VInstr::Alu { op: AluOp::Shl, dst: 3, a: VOp::Reg(2), b: VOp::Imm(2) },
                VInstr::Alu { op: AluOp::Add, dst: 4, a: VOp::Reg(0), b: VOp::Reg(3) },
                VInstr::Load { width: Width::Word, space: Space::Global, dst: 5, addr: 4, offset: 0, site: NO_SITE },
                extra,
                VInstr::Exit,
            ];
            while fold(&mut code, 6, 2) {}
            assert!(code.iter().any(|i| matches!(i, VInstr::Load { addr: 4, offset: 0, .. })), "{code:?}");
        }
    }

    #[test]
    fn a_bounds_check_of_a_constant_goes_only_when_in_range() {
        // v0 is a parameter; v1 = 7 is checked against 8 (goes) and 7 (stays, faults).
        let mut code = vec![
            VInstr::Mov { dst: 1, src: VOp::Imm(7) },
            VInstr::Bound { index: VOp::Reg(1), len: 8, array: 0, site: NO_SITE },
            VInstr::Bound { index: VOp::Reg(1), len: 7, array: 1, site: NO_SITE },
            VInstr::Bound { index: VOp::Reg(0), len: 8, array: 2, site: NO_SITE },
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
        while fold(&mut code, 2, 1) {}
        let checks: Vec<VInstr> = code.iter().copied().filter(|i| matches!(i, VInstr::Bound { .. })).collect();
        assert_eq!(
            checks,
            vec![
                VInstr::Bound { index: VOp::Imm(7), len: 7, array: 1, site: NO_SITE },
                VInstr::Bound { index: VOp::Reg(0), len: 8, array: 2, site: NO_SITE }
            ]
        );
    }
}
