//! Store-to-load forwarding: a load of an address that this thread has stored to or loaded
//! from on every path reaching it, with nothing in between that may change that memory, takes
//! the value from a register instead of from memory. This is what LLVM's GVN does at `-O3`
//! (nvcc's front end), also across loop turns: in `for (j…) tmp[i] += a[j] * x[j];` the
//! running sum stays in a register and only the stores reach memory, once per turn.
//!
//! A location is a space, a width, a fixed address register and an offset. What ends its
//! availability, and why:
//! - a store to the same space at another address register, or overlapping it at the same
//!   one: two pointers may alias, as LLVM assumes, unless each is based on a different
//!   `__restrict__` parameter of the kernel ([`Base`]);
//! - an atomic, a barrier or a device-side launch: each orders memory with other threads,
//!   whose writes the thread may then read.
//!
//! An address register written inside a loop is a new address every turn, and needs no rule
//! of its own: it is fixed, so its one write comes before every access to it, and the path
//! into the loop has accessed nothing there; at the loop's top it is never available.
//!
//! Loads of other addresses never end it. A narrow load is forwarded only from a load of the
//! same width (a narrow store's value is not what a load of it gives back). The caller does
//! not run this pass on a kernel that orders memory in ways it cannot see (`volatile`,
//! fences, `__syncwarp`): see [`super::Memory`].
//!
//! Each location with a forwarded load gets a register that every store to it and every load
//! kept of it copies its value into; the forwarded load becomes a copy from that register.
//! The copies are coalesced away by the allocator where their registers do not interfere.

use alloc::vec;
use alloc::vec::Vec;

use super::flow::{Defs, Flow};
use super::{edit, licm};
use crate::isa::{AluOp, Space, Width};
use crate::kernel::vcode::{VInstr, VOp, VReg};

/// A memory location a load or store names with a fixed address register.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Location {
    space: Space,
    width: Width,
    addr: VReg,
    offset: i32,
}

impl Location {
    /// Whether a store of `width` bytes at `addr + offset` in `space` may change it.
    fn clobbered_by(&self, space: Space, width: Width, addr: VReg, offset: i32, bases: &[Base]) -> bool {
        if space != self.space {
            return false;
        }
        if addr != self.addr {
            let base = |r: VReg| bases.get(r as usize).copied().unwrap_or(Base::Any);
            return !matches!((base(addr), base(self.addr)), (Base::Restrict(a), Base::Restrict(b)) if a != b);
        }
        let (a, b) = (self.offset as i64, offset as i64);
        a < b + width.bytes() as i64 && b < a + self.width.bytes() as i64
    }
}

/// Forwards every load it can; whether it forwarded any. Raises `vregs` for the registers
/// that carry the values.
pub(crate) fn forward_loads(code: &mut Vec<VInstr>, vregs: &mut u32, params: u32, restrict: &[VReg]) -> bool {
    let flow = Flow::new(code);
    let defs = Defs::new(code, &flow, *vregs, params);
    let mut locations: Vec<Location> = Vec::new();
    // The location each load or store names, if its address register is fixed.
    let mut location_of = vec![None; code.len()];
    for (i, instr) in code.iter().enumerate() {
        let (space, width, addr, offset) = match *instr {
            VInstr::Load { space, width, addr, offset, .. } | VInstr::Store { space, width, addr, offset, .. } => {
                (space, width, addr, offset)
            }
            _ => continue,
        };
        if !defs.is_fixed(addr) {
            continue;
        }
        let l = Location { space, width, addr, offset };
        let at = match locations.iter().position(|&x| x == l) {
            Some(at) => at,
            None => {
                locations.push(l);
                locations.len() - 1
            }
        };
        location_of[i] = Some(at as u32);
    }
    if locations.is_empty() {
        return false;
    }
    let bases = if restrict.is_empty() { Vec::new() } else { bases(code, *vregs, params, restrict) };
    let available = Availability::solve(code, &flow, &locations, &location_of, &bases);
    if load_before_loops(code, vregs, &flow, &defs, &available, &location_of) {
        return true;
    }
    // Which loads read a location that is available, and which locations need a register.
    let mut forwarded = vec![false; code.len()];
    let mut carried = vec![false; locations.len()];
    for b in 0..flow.block_count() {
        if !flow.reachable(b) {
            continue;
        }
        let mut now = available.entry[b].clone();
        for i in flow.range(b) {
            let instr = code[i as usize];
            if let (VInstr::Load { .. }, Some(l)) = (instr, location_of[i as usize]) {
                if now[l as usize] {
                    forwarded[i as usize] = true;
                    carried[l as usize] = true;
                }
            }
            available.step(&instr, location_of[i as usize], &mut now);
        }
    }
    if !forwarded.iter().any(|&f| f) {
        return false;
    }
    let mut carrier = vec![0; locations.len()];
    for (l, reg) in carrier.iter_mut().enumerate() {
        if carried[l] {
            *reg = *vregs;
            *vregs += 1;
        }
    }
    let copy = |dst: VReg, src: VOp, wide: bool| match (wide, src) {
        (true, VOp::Reg(src)) => VInstr::Mov64 { dst, src },
        _ => VInstr::Mov { dst, src },
    };
    let mut inserts = Vec::new();
    for i in 0..code.len() {
        let Some(l) = location_of[i].filter(|&l| carried[l as usize]) else { continue };
        let t = carrier[l as usize];
        let wide = locations[l as usize].width == Width::Dword;
        match code[i] {
            VInstr::Load { dst, .. } if forwarded[i] => code[i] = copy(dst, VOp::Reg(t), wide),
            // After the access, before the next instruction (a branch to which skips it).
            VInstr::Load { dst, .. } => inserts.push((i as u32 + 1, copy(t, VOp::Reg(dst), wide))),
            VInstr::Store { src, .. } if gives_back(locations[l as usize].width, src) => {
                inserts.push((i as u32 + 1, copy(t, src, wide)))
            }
            _ => {}
        }
    }
    edit::splice(code, &inserts, &[], |_, _| true);
    true
}

/// Partial redundancy at a loop's top, as GVN's load PRE removes it: a load in the loop's
/// first block of a location that every back edge brings (the turn before stored or loaded
/// it) but the way in does not gets a copy in the loop's preheader, and the next round
/// forwards the load itself (`for (j…) x[i] += a[j];` loads `x[i]` once, before the loop).
/// The copy reads the address the first turn reads anyway: the load comes before anything in
/// that block that could change the memory, and its address register is written before the
/// loop. Only which of two faulting loads stops a run could change. Whether it inserted any.
fn load_before_loops(
    code: &mut Vec<VInstr>,
    vregs: &mut u32,
    flow: &Flow,
    defs: &Defs,
    available: &Availability,
    location_of: &[Option<u32>],
) -> bool {
    let loops = flow.loops();
    let mut inserts = Vec::new();
    let mut entered = Vec::new();
    for (k, l) in loops.iter().enumerate() {
        let Some(at) = licm::preheader_position(code, flow, l) else { continue };
        let header = l.header as usize;
        // Brought by every back edge, not on the way in.
        let mut candidate: Vec<bool> = available.entry[header].iter().map(|&e| !e).collect();
        for &p in &l.latches {
            for (c, &x) in candidate.iter_mut().zip(&available.exit[p as usize]) {
                *c &= x;
            }
        }
        let mut any = false;
        for i in flow.range(header) {
            let instr = code[i as usize];
            let location = location_of[i as usize];
            if let (VInstr::Load { addr, .. }, Some(x)) = (instr, location) {
                let before_loop = defs.fixed_def(addr).is_none_or(|site| flow.strictly_dominates(site, at));
                if candidate[x as usize] && before_loop {
                    let mut copy = instr;
                    copy.set_def(*vregs);
                    *vregs += 1;
                    inserts.push((at, copy));
                    any = true;
                }
            }
            // What the instruction kills is decided, and so is its own location: the block's
            // first access to it decides (the step's one gen is that location, undone here).
            available.step(&instr, location, &mut candidate);
            if let Some(x) = location {
                candidate[x as usize] = false;
            }
        }
        if any {
            entered.push((at, k));
        }
    }
    if inserts.is_empty() {
        return false;
    }
    edit::splice(code, &inserts, &[], |b, t| entered.iter().any(|&(at, k)| at == t && flow.in_loop(&loops[k], b)));
    true
}

/// Whether a load of `width` gives back what a store of `src` wrote: a whole word, or a wide
/// register for a double word.
fn gives_back(width: Width, src: VOp) -> bool {
    match width {
        Width::Word => true,
        Width::Dword => matches!(src, VOp::Reg(_)),
        _ => false,
    }
}

/// Which locations hold the value a register carries on entry to each block: a forward
/// "available on every path" data flow.
struct Availability<'a> {
    locations: &'a [Location],
    bases: &'a [Base],
    entry: Vec<Vec<bool>>,
    exit: Vec<Vec<bool>>,
}

impl<'a> Availability<'a> {
    fn solve(
        code: &[VInstr],
        flow: &Flow,
        locations: &'a [Location],
        location_of: &[Option<u32>],
        bases: &'a [Base],
    ) -> Self {
        let nb = flow.block_count();
        let n = locations.len();
        // Optimistic start (everything available at every block's end), narrowed until
        // nothing changes; the entry block starts with nothing.
        let mut this =
            Availability { locations, bases, entry: vec![vec![false; n]; nb], exit: vec![vec![true; n]; nb] };
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..nb {
                if !flow.reachable(b) {
                    continue;
                }
                let mut now = if b == 0 { vec![false; n] } else { vec![true; n] };
                for &p in &flow.preds[b] {
                    if flow.reachable(p as usize) {
                        for (x, &y) in now.iter_mut().zip(&this.exit[p as usize]) {
                            *x &= y;
                        }
                    }
                }
                this.entry[b].clone_from(&now);
                for i in flow.range(b) {
                    this.step(&code[i as usize], location_of[i as usize], &mut now);
                }
                if now != this.exit[b] {
                    this.exit[b] = now;
                    changed = true;
                }
            }
        }
        this
    }

    /// What one instruction does to the available locations.
    fn step(&self, instr: &VInstr, location: Option<u32>, now: &mut [bool]) {
        match *instr {
            VInstr::Store { space, width, addr, offset, src, .. } => {
                for (x, l) in now.iter_mut().zip(self.locations) {
                    if l.clobbered_by(space, width, addr, offset, self.bases) {
                        *x = false;
                    }
                }
                if let Some(l) = location.filter(|_| gives_back(width, src)) {
                    now[l as usize] = true;
                }
            }
            VInstr::Load { .. } => {
                if let Some(l) = location {
                    now[l as usize] = true;
                }
            }
            VInstr::Atomic { .. } | VInstr::Barrier { .. } | VInstr::Launch { .. } => now.fill(false),
            _ => {}
        }
    }
}

/// Which `__restrict__` parameter an address is based on, as C defines "based on": that
/// pointer plus or minus anything. The data flow starts from `Unknown` and only descends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Base {
    Unknown,
    /// The parameter in this register, plus or minus integers.
    Restrict(VReg),
    /// Anything else: another pointer, an integer, a value loaded from memory.
    Any,
}

impl Base {
    fn meet(self, other: Base) -> Base {
        match (self, other) {
            (Base::Unknown, x) | (x, Base::Unknown) => x,
            (x, y) if x == y => x,
            _ => Base::Any,
        }
    }
}

/// The base of every register (wherever it is written, the meet of what each write gives).
fn bases(code: &[VInstr], vregs: u32, params: u32, restrict: &[VReg]) -> Vec<Base> {
    let n = vregs.max(params) as usize;
    let mut base = vec![Base::Unknown; n];
    for (p, b) in base.iter_mut().enumerate().take(params as usize) {
        *b = if restrict.contains(&(p as VReg)) { Base::Restrict(p as VReg) } else { Base::Any };
    }
    let of = |base: &[Base], o: VOp| match o {
        VOp::Reg(r) => base.get(r as usize).copied().unwrap_or(Base::Any),
        VOp::Imm(_) => Base::Any,
    };
    // An addition keeps the one pointer among its operands; a subtraction, its left one's.
    let offset_from = |pointer: Base, other: Base| match (pointer, other) {
        (_, Base::Restrict(_)) => Base::Any,
        (Base::Restrict(p), _) => Base::Restrict(p),
        (Base::Unknown, _) | (_, Base::Unknown) => Base::Unknown,
        _ => Base::Any,
    };
    let mut changed = true;
    while changed {
        changed = false;
        for instr in code {
            let Some(d) = instr.def() else { continue };
            let new = match *instr {
                VInstr::Mov { src, .. } => of(&base, src),
                VInstr::Alu { op: AluOp::Add, a, b, .. } => {
                    let (a, b) = (of(&base, a), of(&base, b));
                    if matches!(b, Base::Restrict(_)) {
                        offset_from(b, a)
                    } else {
                        offset_from(a, b)
                    }
                }
                VInstr::Alu { op: AluOp::Sub, a, b, .. } => offset_from(of(&base, a), of(&base, b)),
                VInstr::Select { a, b, .. } => of(&base, a).meet(of(&base, b)),
                _ => Base::Any,
            };
            if let Some(slot) = base.get_mut(d as usize) {
                let met = slot.meet(new);
                if met != *slot {
                    *slot = met;
                    changed = true;
                }
            }
        }
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{CmpOp, CmpType};
    use crate::kernel::vcode::NO_SITE;

    fn load(dst: VReg, addr: VReg) -> VInstr {
        VInstr::Load { space: Space::Global, width: Width::Word, dst, addr, offset: 0, site: NO_SITE }
    }
    fn store(addr: VReg, src: VOp) -> VInstr {
        VInstr::Store { space: Space::Global, width: Width::Word, addr, offset: 0, src, site: NO_SITE }
    }
    fn add(dst: VReg, a: VReg, b: VReg) -> VInstr {
        VInstr::Alu { op: crate::isa::AluOp::FAdd, dst, a: VOp::Reg(a), b: VOp::Reg(b) }
    }

    /// `t[0] = 0; for (j = 0; j < n; j++) t[0] += x[0];` with `t` in v0, `x` in v1, `n` in v2.
    fn accumulating_loop(between: Option<VInstr>) -> Vec<VInstr> {
        let mut code = vec![
            store(0, VOp::Imm(0)),                                                                   // 0
            VInstr::Mov { dst: 3, src: VOp::Imm(0) },                                                // 1: j = 0
            load(4, 0),                                                                              // 2: top
            load(5, 1),                                                                              // 3
            add(4, 4, 5),                                                                            // 4
            store(0, VOp::Reg(4)),                                                                   // 5
            VInstr::Alu { op: crate::isa::AluOp::Add, dst: 3, a: VOp::Reg(3), b: VOp::Imm(1) },      // 6
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 6, a: VOp::Reg(3), b: VOp::Reg(2) }, // 7
            VInstr::Branch { cond: Some(6), negate: false, target: 2, reconverge: 9 },               // 8
            VInstr::Exit,                                                                            // 9
        ];
        // At the loop's top, between the store that ends a turn and the load that starts the next.
        if let Some(instr) = between {
            code.insert(2, instr);
            if let VInstr::Branch { target, reconverge, .. } = &mut code[9] {
                *target = 2;
                *reconverge = 10;
            }
        }
        code
    }

    #[test]
    fn a_running_sum_in_memory_stays_in_a_register_across_turns() {
        let mut code = accumulating_loop(None);
        let mut vregs = 7;
        assert!(forward_loads(&mut code, &mut vregs, 3, &[]));
        assert_eq!(vregs, 8, "one register carries t[0]");
        // The store before the loop and the one in it copy their values into v7; the load of
        // t[0] at the top of the loop reads v7; the load of x[0] stays.
        assert_eq!(code[1], VInstr::Mov { dst: 7, src: VOp::Imm(0) });
        assert_eq!(code[3], VInstr::Mov { dst: 4, src: VOp::Reg(7) });
        assert_eq!(code[4], load(5, 1));
        assert_eq!(code[7], VInstr::Mov { dst: 7, src: VOp::Reg(4) });
        // The back edge goes to the loop's top, past nothing it should run.
        assert!(matches!(code[10], VInstr::Branch { target: 3, reconverge: 11, .. }), "{code:?}");
        assert!(!forward_loads(&mut code, &mut vregs, 3, &[]), "nothing is left to forward");
    }

    #[test]
    fn a_sum_without_a_store_before_the_loop_is_loaded_once_before_it() {
        // for (j = 0; j < n; j++) t[0] += x[0];
        let mut code = accumulating_loop(None);
        code.remove(0);
        if let VInstr::Branch { target, reconverge, .. } = &mut code[7] {
            (*target, *reconverge) = (1, 8);
        }
        let mut vregs = 9;
        assert!(forward_loads(&mut code, &mut vregs, 3, &[]));
        // A load of t[0] before the loop, which the back edge skips; nothing forwarded yet.
        assert_eq!(code[1], load(9, 0));
        assert_eq!(code[2], load(4, 0));
        assert!(matches!(code[8], VInstr::Branch { target: 2, reconverge: 9, .. }), "{code:?}");
        // Now t[0] is available on the way in and from the back edge: the loop's load goes.
        assert!(forward_loads(&mut code, &mut vregs, 3, &[]));
        assert_eq!(code[2], VInstr::Mov { dst: 10, src: VOp::Reg(9) });
        assert_eq!(code[3], VInstr::Mov { dst: 4, src: VOp::Reg(10) });
        assert_eq!(code[4], load(5, 1), "x[0] may alias t[0], which each turn stores");
        assert!(!forward_loads(&mut code, &mut vregs, 3, &[]));
    }

    #[test]
    fn a_store_through_another_pointer_a_barrier_or_an_atomic_keeps_the_load() {
        let atomic = VInstr::Atomic {
            op: crate::isa::AtomicOp::Add,
            space: Space::Global,
            width: Width::Word,
            dst: 8,
            addr: 1,
            src: VOp::Imm(1),
            compare: VOp::Imm(0),
            site: NO_SITE,
        };
        for between in [store(2, VOp::Imm(3)), VInstr::Barrier { site: NO_SITE }, atomic] {
            let mut code = accumulating_loop(Some(between));
            let before = code.clone();
            let mut vregs = 9;
            assert!(!forward_loads(&mut code, &mut vregs, 3, &[]), "{between:?}");
            assert_eq!(code, before);
        }
        // A store to shared memory, or to another word at the same address register, is not
        // in the way.
        let shared = VInstr::Store {
            space: Space::Shared,
            width: Width::Word,
            addr: 1,
            offset: 0,
            src: VOp::Imm(3),
            site: NO_SITE,
        };
        let next_word = VInstr::Store {
            space: Space::Global,
            width: Width::Word,
            addr: 0,
            offset: 4,
            src: VOp::Imm(3),
            site: NO_SITE,
        };
        for between in [shared, next_word] {
            let mut code = accumulating_loop(Some(between));
            let mut vregs = 9;
            assert!(forward_loads(&mut code, &mut vregs, 3, &[]), "{between:?}");
        }
        // Through a second `__restrict__` parameter it is not either, but only when both are.
        for (restrict, forwarded) in [(&[0, 2][..], true), (&[2][..], false), (&[0][..], false)] {
            let mut code = accumulating_loop(Some(store(2, VOp::Imm(3))));
            assert_eq!(forward_loads(&mut code, &mut 9, 3, restrict), forwarded, "{restrict:?}");
        }
        // A byte stored into the word is.
        let byte = VInstr::Store {
            space: Space::Global,
            width: Width::U8,
            addr: 0,
            offset: 2,
            src: VOp::Imm(3),
            site: NO_SITE,
        };
        let mut code = accumulating_loop(Some(byte));
        assert!(!forward_loads(&mut code, &mut 9, 3, &[]));
    }

    #[test]
    fn an_address_computed_inside_the_loop_is_a_new_location_every_turn() {
        // for (j…) { p = t + j * 4; s = p[0]; p[0] = s + 1; }: p changes every turn, so the
        // load at the top must read memory, though a store to p[0] ends every turn.
        let mut code = vec![
            VInstr::Mov { dst: 3, src: VOp::Imm(0) }, // 0
            VInstr::Alu { op: crate::isa::AluOp::Shl, dst: 7, a: VOp::Reg(3), b: VOp::Imm(2) }, // 1
            VInstr::Alu { op: crate::isa::AluOp::Add, dst: 8, a: VOp::Reg(0), b: VOp::Reg(7) }, // 2
            load(4, 8),                               // 3
            add(5, 4, 4),                             // 4
            store(8, VOp::Reg(5)),                    // 5
            VInstr::Alu { op: crate::isa::AluOp::Add, dst: 3, a: VOp::Reg(3), b: VOp::Imm(1) }, // 6
            VInstr::Cmp { op: CmpOp::Lt, ty: CmpType::Int, dst: 6, a: VOp::Reg(3), b: VOp::Reg(2) }, // 7
            VInstr::Branch { cond: Some(6), negate: false, target: 1, reconverge: 9 }, // 8
            VInstr::Exit,                             // 9
        ];
        let before = code.clone();
        assert!(!forward_loads(&mut code, &mut 9, 3, &[]));
        assert_eq!(code, before);
    }

    #[test]
    fn a_value_stored_on_only_one_side_of_a_branch_is_not_available_after_it() {
        // if (v2) t[0] = 5; s = t[0];
        let mut code = vec![
            VInstr::Branch { cond: Some(2), negate: true, target: 2, reconverge: 2 }, // 0
            store(0, VOp::Imm(5)),                                                    // 1
            load(4, 0),                                                               // 2
            VInstr::Exit,                                                             // 3
        ];
        assert!(!forward_loads(&mut code, &mut 5, 3, &[]));
        // With a store on both sides it is.
        let mut code = vec![
            VInstr::Branch { cond: Some(2), negate: true, target: 3, reconverge: 4 }, // 0
            store(0, VOp::Imm(5)),                                                    // 1
            VInstr::Branch { cond: None, negate: false, target: 4, reconverge: 4 },   // 2
            store(0, VOp::Imm(6)),                                                    // 3
            load(4, 0),                                                               // 4
            VInstr::Exit,                                                             // 5
        ];
        assert!(forward_loads(&mut code, &mut 5, 3, &[]));
        assert_eq!(code[2], VInstr::Mov { dst: 5, src: VOp::Imm(5) });
        assert_eq!(code[5], VInstr::Mov { dst: 5, src: VOp::Imm(6) });
        assert_eq!(code[6], VInstr::Mov { dst: 4, src: VOp::Reg(5) });
        // The jump past the first store lands on the second, not on the copy after the first.
        assert!(matches!(code[0], VInstr::Branch { target: 4, .. }), "{code:?}");
    }
}
