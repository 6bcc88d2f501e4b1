//! Full unrolling of loops with a small constant trip count. A loop qualifies when it is laid
//! out as the code generator lays out `for`/`while`/`do` (a contiguous range ending in the
//! one back edge, `if (i < n) goto top`), its counter `i` starts at a constant, is written in
//! the loop only by `i = i ± constant` in the latch, and the exit test compares it with a
//! constant. The trip count is found by running the counter; the body is then copied once
//! per turn without the back edge, and each copy reads the counter as the constant it holds
//! there, so folding turns `a[i]` into `[a + 4i]` offsets and the counter disappears.
//!
//! Budget, after LLVM's full-unroll threshold at `-O3` (300, which nvcc's NVVM inherits): at
//! most [`MAX_TRIPS`] turns and [`MAX_UNROLLED`] instructions of copies per loop, so compile
//! time and register pressure stay bounded; inner loops are unrolled first and count in
//! their outer loop's size.

use alloc::vec;
use alloc::vec::Vec;

use super::flow::{Defs, Flow};
use crate::exec::alu;
use crate::isa::AluOp;
use crate::kernel::vcode::{VInstr, VOp, VReg};

/// Most turns of a loop that is unrolled fully.
pub(crate) const MAX_TRIPS: u32 = 32;
/// Most instructions the copies of one loop may add up to.
pub(crate) const MAX_UNROLLED: usize = 300;

/// What is known about a loop that can be unrolled.
struct Plan {
    first: u32,
    /// The back edge (the last instruction of the loop).
    last: u32,
    counter: VReg,
    increment: u32,
    /// The counter's value at the start of each turn.
    values: Vec<u32>,
}

/// Unrolls one loop (the innermost that qualifies); whether it did.
pub(crate) fn unroll_constant_loops(code: &mut Vec<VInstr>, vregs: u32, params: u32) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, vregs, params);
    for l in flow.loops() {
        if let Some(plan) = plan(code, &flow, &defs, &l) {
            apply(code, &plan);
            return true;
        }
    }
    false
}

fn plan(code: &[VInstr], flow: &Flow, defs: &Defs, l: &super::flow::Loop) -> Option<Plan> {
    let [latch] = l.latches[..] else { return None };
    let first = flow.blocks.starts[l.header as usize];
    let last = flow.range(latch as usize).end - 1;
    if last < first {
        return None;
    }
    // Contiguous: exactly the instructions first..=last are the loop's.
    let inside = (0..code.len() as u32).filter(|&i| flow.in_loop(l, i)).count() as u32;
    if inside != last - first + 1 || (first..=last).any(|i| !flow.in_loop(l, i)) {
        return None;
    }
    let VInstr::Branch { cond: Some(c), negate, target, .. } = code[last as usize] else { return None };
    if target != first {
        return None;
    }
    // Branches inside stay inside or leave to just after the loop.
    for i in first..last {
        if let VInstr::Branch { target, .. } = code[i as usize] {
            if !(first < target && target <= last + 1) {
                return None;
            }
        }
    }
    let latch_range = flow.range(latch as usize);
    let test_at = latch_range.clone().rev().find(|&i| code[i as usize].def() == Some(c))?;
    let VInstr::Cmp { op, ty, a, b, .. } = code[test_at as usize] else { return None };
    let counter = match (a, b) {
        (VOp::Reg(r), VOp::Imm(_)) | (VOp::Imm(_), VOp::Reg(r)) => r,
        _ => return None,
    };
    // The counter: one write in the loop, `i = i ± s` in the latch before the test.
    let writes: Vec<u32> = (first..=last).filter(|&i| code[i as usize].def() == Some(counter)).collect();
    let [increment] = writes[..] else { return None };
    if !(latch_range.start <= increment && increment < test_at) {
        return None;
    }
    let step = match code[increment as usize] {
        VInstr::Alu { op: AluOp::Add, a: VOp::Reg(r), b: VOp::Imm(s), .. } if r == counter => s,
        VInstr::Alu { op: AluOp::Sub, a: VOp::Reg(r), b: VOp::Imm(s), .. } if r == counter => s.wrapping_neg(),
        _ => return None,
    };
    // Its start: the one write outside the loop, a constant, before the loop on every path.
    let outside: Vec<u32> = (0..code.len() as u32)
        .filter(|&i| !(first..=last).contains(&i) && code[i as usize].def() == Some(counter))
        .collect();
    let [init] = outside[..] else { return None };
    let VInstr::Mov { src: VOp::Imm(start), .. } = code[init as usize] else { return None };
    if !flow.strictly_dominates(init, first)
        || (counter as usize) < defs.count.len() && defs.count[counter as usize] != 2
    {
        return None;
    }
    let body = (last - first) as usize;
    let mut values = vec![start];
    let mut v = start;
    loop {
        v = v.wrapping_add(step);
        let (x, y) = if a == VOp::Reg(counter) { (v, imm(b)) } else { (imm(a), v) };
        let again = (alu::compare(op, ty, x, y) != 0) != negate;
        if !again {
            break;
        }
        if values.len() as u32 >= MAX_TRIPS || (values.len() + 1) * body > MAX_UNROLLED {
            return None;
        }
        values.push(v);
    }
    Some(Plan { first, last, counter, increment, values })
}

fn imm(o: VOp) -> u32 {
    match o {
        VOp::Imm(k) => k,
        VOp::Reg(_) => 0,
    }
}

fn apply(code: &mut Vec<VInstr>, p: &Plan) {
    let (first, last) = (p.first as usize, p.last as usize);
    let body = last - first;
    let trips = p.values.len();
    let grown = trips * body;
    // Old index → new index, for code outside the loop.
    let outside = |t: u32| -> u32 {
        let t = t as usize;
        if t < first {
            t as u32
        } else if t <= last {
            (first + (t - first).min(body)) as u32
        } else {
            (t - (body + 1) + grown) as u32
        }
    };
    let mut out = Vec::with_capacity(code.len() + grown);
    for instr in &code[..first] {
        out.push(retarget(*instr, outside));
    }
    for (turn, &value) in p.values.iter().enumerate() {
        let start = first + turn * body;
        let inside = |t: u32| -> u32 {
            let t = t as usize;
            if (first..=last).contains(&t) {
                // Reaching the back edge means the next turn (or, after the last, the exit).
                (start + (t - first)) as u32
            } else {
                outside(t as u32)
            }
        };
        for (k, instr) in code[first..last].iter().enumerate() {
            let mut instr = retarget(*instr, inside);
            if first + k <= p.increment as usize {
                instr.for_each_operand_mut(|o| {
                    if *o == VOp::Reg(p.counter) {
                        *o = VOp::Imm(value);
                    }
                });
            }
            out.push(instr);
        }
    }
    for instr in &code[last + 1..] {
        out.push(retarget(*instr, outside));
    }
    *code = out;
}

fn retarget(mut instr: VInstr, map: impl Fn(u32) -> u32) -> VInstr {
    if let VInstr::Branch { target, reconverge, .. } = &mut instr {
        *target = map(*target);
        *reconverge = map(*reconverge);
    }
    instr
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{CmpOp, CmpType, Space};
    use alloc::vec;

    #[test]
    fn a_loop_of_three_turns_becomes_three_copies_reading_the_counter_as_a_constant() {
        // i = 0; do { store [v0 + i], i; i += 4 } while (i < 12)
        let mut code = vec![
            VInstr::Mov { dst: 1, src: VOp::Imm(0) },
            VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(0), b: VOp::Reg(1) },
            VInstr::Store { space: Space::Global, addr: 2, offset: 0, src: VOp::Reg(1) },
            VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Reg(1), b: VOp::Imm(4) },
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 3, a: VOp::Reg(1), b: VOp::Imm(12) },
            VInstr::Branch { cond: Some(3), negate: false, target: 1, reconverge: 6 },
            VInstr::Exit,
        ];
        assert!(unroll_constant_loops(&mut code, 4, 1));
        assert_eq!(code.len(), 1 + 3 * 4 + 1);
        assert!(!code.iter().any(|i| matches!(i, VInstr::Branch { .. })));
        for (turn, value) in [0u32, 4, 8].into_iter().enumerate() {
            let at = 1 + 4 * turn;
            assert_eq!(code[at], VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(0), b: VOp::Imm(value) });
            assert_eq!(code[at + 2], VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Imm(value), b: VOp::Imm(4) });
        }
    }

    #[test]
    fn a_loop_with_too_many_turns_stays() {
        let mut code = vec![
            VInstr::Mov { dst: 1, src: VOp::Imm(0) },
            VInstr::Alu { op: AluOp::Add, dst: 1, a: VOp::Reg(1), b: VOp::Imm(1) },
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 3, a: VOp::Reg(1), b: VOp::Imm(1000) },
            VInstr::Branch { cond: Some(3), negate: false, target: 1, reconverge: 4 },
            VInstr::Exit,
        ];
        assert!(!unroll_constant_loops(&mut code, 4, 1));
    }
}
