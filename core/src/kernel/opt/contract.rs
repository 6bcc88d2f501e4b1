//! `fma` contraction: `a * b + c` in float becomes one fused multiply-add, rounded once, as
//! nvcc does by default (`--fmad=true`). This is part of the language, not an optimisation:
//! it runs at every level, first, on the code as generated, so that unoptimised and
//! optimised compiles compute bit-identical results (`docs/language.md`).
//!
//! A product is fused into the addition that reads it when the product's register is written
//! once and read only there, in the same block, with its inputs unchanged in between: then
//! the product had no other purpose. `x * y - k` with a constant `k` fuses too, as
//! `fma(x, y, -k)` (negating a constant costs nothing). Doubles fuse by the same rules into
//! one DFMA, as nvcc's `--fmad=true` does for them too; a double constant is a pack of two
//! words, negated where it is made when nothing else reads it.

use alloc::vec;
use alloc::vec::Vec;

use super::edit;
use crate::isa::{AluOp, WideOp};
use crate::kernel::cfg::Blocks;
use crate::kernel::vcode::{VInstr, VOp, VReg};

/// Fuses products into the additions that consume them.
pub(crate) fn contract(code: &mut Vec<VInstr>, vregs: u32) -> bool {
    if code.is_empty() {
        return false;
    }
    let n = vregs as usize;
    let (mut writes, mut reads) = (vec![0u32; n], vec![0u32; n]);
    for instr in code.iter() {
        if let Some(d) = instr.def() {
            if let Some(w) = writes.get_mut(d as usize) {
                *w += 1;
            }
        }
        instr.for_each_use(|u| {
            if let Some(r) = reads.get_mut(u as usize) {
                *r += 1;
            }
        });
    }
    let once = |r: VReg| writes.get(r as usize) == Some(&1) && reads.get(r as usize) == Some(&1);
    let blocks = Blocks::new(code);
    let mut drop = vec![false; code.len()];
    let mut changed = false;
    for b in 0..blocks.starts.len() {
        let (start, end) = (blocks.starts[b] as usize, blocks.end(b, code.len() as u32) as usize);
        for i in start..end {
            if let VInstr::Wide { op: WideOp::DAdd | WideOp::DSub, .. } = code[i] {
                if let Some(j) = fuse_double(code, start, i, &once) {
                    drop[j] = true;
                    changed = true;
                }
                continue;
            }
            let (dst, candidates) = match code[i] {
                VInstr::Alu { op: AluOp::FAdd, dst, a, b } => (dst, [(a, b), (b, a)]),
                VInstr::Alu { op: AluOp::FSub, dst, a, b: VOp::Imm(k) } => {
                    let minus_k = VOp::Imm(k ^ 0x8000_0000);
                    (dst, [(a, minus_k), (a, minus_k)])
                }
                _ => continue,
            };
            for (product, addend) in candidates {
                let VOp::Reg(t) = product else { continue };
                if !once(t) || addend == product {
                    continue;
                }
                let Some(j) = (start..i).rev().find(|&j| code[j].def() == Some(t)) else { continue };
                let VInstr::Alu { op: AluOp::FMul, a: x, b: y, .. } = code[j] else { continue };
                // The addend is read where the addition is anyway; only the factors move.
                let changed_between =
                    code[j + 1..i].iter().any(|m| m.def().is_some_and(|d| VOp::Reg(d) == x || VOp::Reg(d) == y));
                if changed_between {
                    continue;
                }
                code[i] = VInstr::Fma { dst, a: x, b: y, c: addend };
                drop[j] = true;
                changed = true;
                break;
            }
        }
    }
    edit::delete(code, &drop);
    changed
}

/// Fuses the double addition `code[i]` (or subtraction of a constant) with the product it
/// reads, found in `code[start..i]`; returns the product's index, to delete.
fn fuse_double(code: &mut [VInstr], start: usize, i: usize, once: &impl Fn(VReg) -> bool) -> Option<usize> {
    let (dst, candidates, constant) = match code[i] {
        VInstr::Wide { op: WideOp::DAdd, dst, a, b } => (dst, [(a, b), (b, a)], None),
        VInstr::Wide { op: WideOp::DSub, dst, a, b } => {
            // Only a constant made here for this subtraction alone can be negated.
            let k = (start..i).rev().find(|&k| code[k].def() == Some(b))?;
            let VInstr::Pack { lo: VOp::Imm(_), hi: VOp::Imm(_), .. } = code[k] else { return None };
            if !once(b) {
                return None;
            }
            (dst, [(a, b), (a, b)], Some(k))
        }
        _ => return None,
    };
    for (t, addend) in candidates {
        if !once(t) || addend == t {
            continue;
        }
        let Some(j) = (start..i).rev().find(|&j| code[j].def() == Some(t)) else { continue };
        let VInstr::Wide { op: WideOp::DMul, a: x, b: y, .. } = code[j] else { continue };
        if code[j + 1..i].iter().any(|m| m.def().is_some_and(|d| d == x || d == y)) {
            continue;
        }
        if let Some(k) = constant {
            if let VInstr::Pack { hi: VOp::Imm(hi), .. } = &mut code[k] {
                *hi ^= 0x8000_0000;
            }
        }
        code[i] = VInstr::WideFma { dst, a: x, b: y, c: addend };
        return Some(j);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Width;
    use crate::kernel::vcode::NO_SITE;
    use alloc::vec;

    const TWO: u32 = 0x4000_0000;

    #[test]
    fn a_product_read_once_by_an_addition_fuses() {
        // v3 = v0 * v1; v4 = v2 + v3  →  v4 = fma(v0, v1, v2)
        let mut code = vec![
            VInstr::Alu { op: AluOp::FMul, dst: 3, a: VOp::Reg(0), b: VOp::Reg(1) },
            VInstr::Alu { op: AluOp::FAdd, dst: 4, a: VOp::Reg(2), b: VOp::Reg(3) },
            VInstr::Exit,
        ];
        assert!(contract(&mut code, 5));
        assert_eq!(code, vec![VInstr::Fma { dst: 4, a: VOp::Reg(0), b: VOp::Reg(1), c: VOp::Reg(2) }, VInstr::Exit]);
    }

    #[test]
    fn minus_a_constant_fuses_with_the_constant_negated() {
        let mut code = vec![
            VInstr::Alu { op: AluOp::FMul, dst: 3, a: VOp::Reg(0), b: VOp::Reg(1) },
            VInstr::Alu { op: AluOp::FSub, dst: 4, a: VOp::Reg(3), b: VOp::Imm(TWO) },
            VInstr::Exit,
        ];
        assert!(contract(&mut code, 5));
        assert_eq!(code[0], VInstr::Fma { dst: 4, a: VOp::Reg(0), b: VOp::Reg(1), c: VOp::Imm(TWO | 0x8000_0000) });
    }

    #[test]
    fn double_products_fuse_and_a_constant_subtracted_is_negated_where_it_is_made() {
        // v2 = v0 *d v1; v3 = pack(0, 2.0); v4 = v2 -d v3  →  v3 = pack(0, -2.0); v4 = dfma(v0, v1, v3)
        let two_hi = 0x4000_0000;
        let mut code = vec![
            VInstr::Wide { op: WideOp::DMul, dst: 2, a: 0, b: 1 },
            VInstr::Pack { dst: 3, lo: VOp::Imm(0), hi: VOp::Imm(two_hi) },
            VInstr::Wide { op: WideOp::DSub, dst: 4, a: 2, b: 3 },
            VInstr::Wide { op: WideOp::DAdd, dst: 5, a: 1, b: 6 },
            VInstr::Exit,
        ];
        let mut fused = code.clone();
        assert!(contract(&mut fused, 7));
        assert_eq!(
            fused[..2],
            [
                VInstr::Pack { dst: 3, lo: VOp::Imm(0), hi: VOp::Imm(two_hi | 0x8000_0000) },
                VInstr::WideFma { dst: 4, a: 0, b: 1, c: 3 },
            ]
        );
        // The constant read again elsewhere is left alone, and so is the product.
        code[3] = VInstr::Wide { op: WideOp::DAdd, dst: 5, a: 1, b: 3 };
        let original = code.clone();
        assert!(!contract(&mut code, 7));
        assert_eq!(code, original);
    }

    #[test]
    fn a_product_read_twice_or_with_a_changed_input_stays() {
        let read_twice = vec![
            VInstr::Alu { op: AluOp::FMul, dst: 3, a: VOp::Reg(0), b: VOp::Reg(1) },
            VInstr::Alu { op: AluOp::FAdd, dst: 4, a: VOp::Reg(2), b: VOp::Reg(3) },
            VInstr::Store {
                width: Width::Word,
                space: crate::isa::Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(3),
                site: NO_SITE,
            },
            VInstr::Exit,
        ];
        let input_changed = vec![
            VInstr::Alu { op: AluOp::FMul, dst: 3, a: VOp::Reg(0), b: VOp::Reg(1) },
            VInstr::Mov { dst: 0, src: VOp::Imm(TWO) },
            VInstr::Alu { op: AluOp::FAdd, dst: 4, a: VOp::Reg(2), b: VOp::Reg(3) },
            VInstr::Exit,
        ];
        for original in [read_twice, input_changed] {
            let mut code = original.clone();
            assert!(!contract(&mut code, 5));
            assert_eq!(code, original);
        }
    }
}
