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
use crate::isa::{AluOp, CmpOp, CmpType};
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

/// A loop laid out as the code generator lays out `for`/`while`/`do`: instructions
/// `first..=last`, the back edge `if (c) goto first` last, branches inside staying inside or
/// leaving to just after it, and one counter `i` written once, by `i = i ± step` in the latch,
/// before the test `c = i op bound` (either side) that the back edge reads.
struct Shape {
    first: u32,
    last: u32,
    counter: VReg,
    increment: u32,
    step: u32,
    /// Where the test is.
    test_at: u32,
    /// The test and the back edge's sense.
    op: CmpOp,
    ty: CmpType,
    a: VOp,
    b: VOp,
    negate: bool,
}

fn shape(code: &[VInstr], flow: &Flow, l: &super::flow::Loop) -> Option<Shape> {
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
        (VOp::Reg(x), VOp::Reg(y)) => {
            // The counter is the side written in the loop.
            let written = |r: VReg| (first..=last).any(|i| code[i as usize].def() == Some(r));
            match (written(x), written(y)) {
                (true, false) => x,
                (false, true) => y,
                _ => return None,
            }
        }
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
    // Nothing after the test but the back edge reads its condition.
    let mut read = false;
    for i in test_at + 1..last {
        code[i as usize].for_each_use(|u| read |= u == c);
    }
    if read {
        return None;
    }
    Some(Shape { first, last, counter, increment, step, test_at, op, ty, a, b, negate })
}

fn plan(code: &[VInstr], flow: &Flow, defs: &Defs, l: &super::flow::Loop) -> Option<Plan> {
    let Shape { first, last, counter, increment, step, op, ty, a, b, negate, .. } = shape(code, flow, l)?;
    if !matches!((a, b), (VOp::Reg(_), VOp::Imm(_)) | (VOp::Imm(_), VOp::Reg(_))) {
        return None;
    }
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
    // Bounds checks do not count: indexed by the counter (the usual reason a loop over a
    // local array has one), they fold away once each copy's counter is a constant, and
    // counting them would unroll fewer loops than before the checks existed.
    let body = (first..last).filter(|&i| !matches!(code[i as usize], VInstr::Bound { .. })).count();
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

/// Turns of a loop with a runtime trip count that one turn of its unrolled copy runs, as
/// nvcc does for small loop bodies without a pragma.
pub(crate) const RUNTIME_FACTOR: u32 = 4;
/// Most instructions the copies of such a loop may add up to: LLVM's partial-unroll threshold
/// as NVPTX sets it (`PartialThreshold = Threshold / 4`, 300 / 4).
pub(crate) const MAX_RUNTIME_UNROLLED: usize = 75;

/// Unrolls every innermost loop whose counter steps by a constant towards a bound that does
/// not change in the loop by [`RUNTIME_FACTOR`]: while at least that many turns remain, one
/// turn of a new loop runs that many copies of the body, with the exit tests of all but the
/// last copy gone; the original loop, unchanged, runs what remains. So the result is the
/// same turn by turn, and each thread (trip counts may differ between the lanes of a warp)
/// takes the copies for as long as its own count allows; the lanes meet again after the
/// original loop, where its exit is (the immediate post-dominator, as before).
///
/// "At least four turns remain" is `i < lim` with `lim = max(n, MIN + d) - d` for a counter
/// counting up by `s` to `i < n` (`d = 3s`; `d = 3s - 1` for `i <= n`), and the mirror image
/// counting down: then the next three tests pass without the counter wrapping, and where
/// `n - d` would wrap no counter passes (`lim` is the type's minimum). Whether it did any.
pub(crate) fn unroll_runtime_loops(code: &mut Vec<VInstr>, vregs: &mut u32) -> bool {
    let flow = Flow::new(code);
    let mut plans: Vec<RuntimePlan> = Vec::new();
    for l in flow.loops() {
        if let Some(p) = runtime_plan(code, &flow, &l) {
            if plans.iter().all(|q| q.shape.last < p.shape.first || p.shape.last < q.shape.first) {
                plans.push(p);
            }
        }
    }
    // Last first, so that the ranges of the others stay where they are.
    plans.sort_by_key(|p| core::cmp::Reverse(p.shape.first));
    for p in &plans {
        apply_runtime(code, p, vregs);
    }
    !plans.is_empty()
}

struct RuntimePlan {
    shape: Shape,
    bound: VOp,
    /// Counting up (`i < lim` runs the copies) or down (`i > lim`).
    up: bool,
    d: u32,
}

fn runtime_plan(code: &[VInstr], flow: &Flow, l: &super::flow::Loop) -> Option<RuntimePlan> {
    let shape = shape(code, flow, l)?;
    let (first, last) = (shape.first, shape.last);
    let body = (last - first) as usize;
    if body * RUNTIME_FACTOR as usize > MAX_RUNTIME_UNROLLED {
        return None;
    }
    // One block (so innermost, with one exit), and nothing that all threads must reach
    // together. nvcc also unrolls bodies with branches inside; under SIMT, lanes that take
    // an `if` in different copies run both, and the library's graph kernels (a few turns per
    // vertex, differing between lanes) then run more instructions than without unrolling.
    if (first..last)
        .any(|i| matches!(code[i as usize], VInstr::Branch { .. } | VInstr::Barrier { .. } | VInstr::Launch { .. }))
    {
        return None;
    }
    if !matches!(shape.ty, CmpType::Int | CmpType::Uint) {
        return None;
    }
    // The test as `i op bound`, branching back when it holds.
    let (op, bound) = if shape.a == VOp::Reg(shape.counter) { (shape.op, shape.b) } else { (swap(shape.op)?, shape.a) };
    let op = if shape.negate { invert(op)? } else { op };
    if let VOp::Reg(n) = bound {
        if (first..=last).any(|i| code[i as usize].def() == Some(n)) {
            return None;
        }
    }
    let step = shape.step as i32;
    // Three steps must not overflow the arithmetic below.
    if step == 0 || step.unsigned_abs() > 1 << 28 {
        return None;
    }
    let three = 3 * step.unsigned_abs();
    let (up, d) = match op {
        CmpOp::Lt if step > 0 => (true, three),
        CmpOp::Le if step > 0 => (true, three - 1),
        CmpOp::Gt if step < 0 => (false, three),
        CmpOp::Ge if step < 0 => (false, three - 1),
        _ => return None,
    };
    Some(RuntimePlan { shape, bound, up, d })
}

/// `b op a` as `a op' b`.
fn swap(op: CmpOp) -> Option<CmpOp> {
    Some(match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        CmpOp::Eq | CmpOp::Ne => return None,
    })
}

/// `!(a op b)` as `a op' b` (integers only).
fn invert(op: CmpOp) -> Option<CmpOp> {
    Some(match op {
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Eq | CmpOp::Ne => return None,
    })
}

/// Lays the loop out as: limit (once, where the loop was entered) | `if !(i op lim)` goto
/// `R` | `C:` copies 1..=4 | `if (i op lim)` goto `C` | the loop's own test, `if` it passes
/// goto `R` | goto exit | `R:` the original loop | exit. The copies' own tests are then dead
/// (their conditions are written again before any read) and go.
fn apply_runtime(code: &mut Vec<VInstr>, p: &RuntimePlan, vregs: &mut u32) {
    let Shape { first, last, counter, ty, test_at, .. } = p.shape;
    let (first, last) = (first as usize, last as usize);
    let body = last - first;
    let factor = RUNTIME_FACTOR as usize;
    let (clamp, edge, back, check) = match (p.up, ty) {
        (true, CmpType::Uint) => (AluOp::MaxU, p.d, AluOp::Sub, CmpOp::Lt),
        (true, _) => (AluOp::MaxS, (i32::MIN as u32).wrapping_add(p.d), AluOp::Sub, CmpOp::Lt),
        (false, CmpType::Uint) => (AluOp::MinU, u32::MAX - p.d, AluOp::Add, CmpOp::Gt),
        (false, _) => (AluOp::MinS, (i32::MAX as u32).wrapping_sub(p.d), AluOp::Add, CmpOp::Gt),
    };
    let fresh = |vregs: &mut u32| {
        *vregs += 1;
        *vregs - 1
    };
    let (clamped, lim, go) = (fresh(vregs), fresh(vregs), fresh(vregs));
    // New positions: limit (2) at `first`, entry check (2), copies, check, test, jump (5),
    // the original loop.
    let copies = first + 4;
    let after = copies + factor * body;
    let r = after + 5;
    let grown = r - first;
    let outside = |t: u32| -> u32 {
        let t = t as usize;
        if t <= first {
            t as u32
        } else if t <= last {
            (r + (t - first)) as u32
        } else {
            (t + grown) as u32
        }
    };
    let exit = outside(last as u32 + 1);
    let check_instr = VInstr::Cmp { op: check, ty, dst: go, a: VOp::Reg(counter), b: VOp::Reg(lim) };
    let mut out = Vec::with_capacity(code.len() + grown);
    for instr in &code[..first] {
        out.push(retarget(*instr, outside));
    }
    out.push(VInstr::Alu { op: clamp, dst: clamped, a: p.bound, b: VOp::Imm(edge) });
    out.push(VInstr::Alu { op: back, dst: lim, a: VOp::Reg(clamped), b: VOp::Imm(p.d) });
    out.push(check_instr);
    out.push(VInstr::Branch { cond: Some(go), negate: true, target: r as u32, reconverge: exit });
    for turn in 0..factor {
        let start = copies + turn * body;
        let inside = |t: u32| -> u32 {
            let t = t as usize;
            if t == last + 1 {
                exit
            } else if (first..=last).contains(&t) {
                // The back edge's place is the next copy's start (after the last: the check).
                (start + (t - first)) as u32
            } else {
                outside(t as u32)
            }
        };
        for instr in &code[first..last] {
            out.push(retarget(*instr, inside));
        }
    }
    out.push(check_instr);
    out.push(VInstr::Branch { cond: Some(go), negate: false, target: copies as u32, reconverge: exit });
    out.push(code[test_at as usize]);
    if let VInstr::Branch { cond, negate, .. } = code[last] {
        out.push(VInstr::Branch { cond, negate, target: r as u32, reconverge: exit });
    }
    out.push(VInstr::Branch { cond: None, negate: false, target: exit, reconverge: exit });
    let original = |t: u32| -> u32 {
        let t = t as usize;
        if (first..=last).contains(&t) {
            (r + (t - first)) as u32
        } else {
            outside(t as u32)
        }
    };
    for instr in &code[first..=last] {
        out.push(retarget(*instr, original));
    }
    for instr in &code[last + 1..] {
        out.push(retarget(*instr, outside));
    }
    *code = out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Width;
    use crate::isa::{CmpOp, CmpType, Space};
    use crate::kernel::vcode::NO_SITE;
    use alloc::vec;

    #[test]
    fn a_loop_of_three_turns_becomes_three_copies_reading_the_counter_as_a_constant() {
        // i = 0; do { store [v0 + i], i; i += 4 } while (i < 12)
        let mut code = vec![
            VInstr::Mov { dst: 1, src: VOp::Imm(0) },
            VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(0), b: VOp::Reg(1) },
            VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 2,
                offset: 0,
                src: VOp::Reg(1),
                site: NO_SITE,
            },
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

    /// `do { store [v0], v2; v0 += 4; i += 1 } while (i < n)` with `n` a parameter (v1).
    fn runtime_loop(store_extra: usize) -> Vec<VInstr> {
        let mut code = vec![VInstr::Mov { dst: 2, src: VOp::Imm(0) }];
        for _ in 0..=store_extra {
            code.push(VInstr::Store {
                width: Width::Word,
                space: Space::Global,
                addr: 0,
                offset: 0,
                src: VOp::Reg(2),
                site: NO_SITE,
            });
        }
        code.extend([
            VInstr::Alu { op: AluOp::Add, dst: 0, a: VOp::Reg(0), b: VOp::Imm(4) },
            VInstr::Alu { op: AluOp::Add, dst: 2, a: VOp::Reg(2), b: VOp::Imm(1) },
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 3, a: VOp::Reg(2), b: VOp::Reg(1) },
            VInstr::Branch { cond: Some(3), negate: false, target: 1, reconverge: 6 + store_extra as u32 },
            VInstr::Exit,
        ]);
        code
    }

    #[test]
    fn a_loop_with_a_runtime_count_runs_four_copies_while_four_turns_remain() {
        let mut code = runtime_loop(0);
        let mut vregs = 4;
        assert!(unroll_runtime_loops(&mut code, &mut vregs));
        assert_eq!(vregs, 7);
        // Limit: max(n, MIN + 3) - 3; the entry check goes to the original loop.
        assert_eq!(code[1], VInstr::Alu { op: AluOp::MaxS, dst: 4, a: VOp::Reg(1), b: VOp::Imm(0x8000_0003) });
        assert_eq!(code[2], VInstr::Alu { op: AluOp::Sub, dst: 5, a: VOp::Reg(4), b: VOp::Imm(3) });
        assert_eq!(code[3], VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 6, a: VOp::Reg(2), b: VOp::Reg(5) });
        let r = 5 + 4 * 4 + 5;
        assert!(matches!(code[4], VInstr::Branch { cond: Some(6), negate: true, target, .. } if target as usize == r));
        // Four copies, then the check back to the first copy, the loop's own test into the
        // original loop, and a jump past it.
        let stores = code[5..21].iter().filter(|i| matches!(i, VInstr::Store { .. })).count();
        assert_eq!(stores, 4);
        assert!(matches!(code[22], VInstr::Branch { cond: Some(6), negate: false, target: 5, .. }));
        assert!(
            matches!(code[24], VInstr::Branch { cond: Some(3), negate: false, target, .. } if target as usize == r)
        );
        assert!(matches!(code[25], VInstr::Branch { cond: None, target, .. } if target as usize == code.len() - 1));
        assert!(matches!(code[code.len() - 2], VInstr::Branch { cond: Some(3), target, .. } if target as usize == r));
    }

    #[test]
    fn counting_down_to_at_least_a_bound_stops_three_steps_short() {
        // do { …; i -= 1 } while (i >= n): four turns remain while i > min(n, MAX - 2) + 2.
        let mut code = runtime_loop(0);
        code[3] = VInstr::Alu { op: AluOp::Sub, dst: 2, a: VOp::Reg(2), b: VOp::Imm(1) };
        code[4] = VInstr::Cmp { op: CmpOp::Ge, ty: CmpType::Int, dst: 3, a: VOp::Reg(2), b: VOp::Reg(1) };
        let mut vregs = 4;
        assert!(unroll_runtime_loops(&mut code, &mut vregs));
        assert_eq!(code[1], VInstr::Alu { op: AluOp::MinS, dst: 4, a: VOp::Reg(1), b: VOp::Imm(0x7fff_fffd) });
        assert_eq!(code[2], VInstr::Alu { op: AluOp::Add, dst: 5, a: VOp::Reg(4), b: VOp::Imm(2) });
        assert_eq!(code[3], VInstr::Cmp { op: CmpOp::Gt, ty: CmpType::Int, dst: 6, a: VOp::Reg(2), b: VOp::Reg(5) });
    }

    #[test]
    fn loops_over_the_budget_with_branches_or_an_equality_test_stay() {
        let mut vregs = 4;
        let mut big = runtime_loop(MAX_RUNTIME_UNROLLED / RUNTIME_FACTOR as usize);
        assert!(!unroll_runtime_loops(&mut big, &mut vregs));
        let mut branchy = runtime_loop(1);
        branchy[2] = VInstr::Branch { cond: Some(2), negate: false, target: 3, reconverge: 3 };
        assert!(!unroll_runtime_loops(&mut branchy, &mut vregs));
        let mut equality = runtime_loop(0);
        equality[4] = VInstr::Cmp { op: CmpOp::Ne, ty: CmpType::Int, dst: 3, a: VOp::Reg(2), b: VOp::Reg(1) };
        assert!(!unroll_runtime_loops(&mut equality, &mut vregs));
        let mut small = runtime_loop(MAX_RUNTIME_UNROLLED / RUNTIME_FACTOR as usize - 4);
        assert!(unroll_runtime_loops(&mut small, &mut vregs));
    }
}
