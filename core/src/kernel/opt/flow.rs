//! What the passes need to know about the code's shape: basic blocks, dominators, natural
//! loops, and which registers hold one value wherever they are read ("fixed" registers, the
//! part of the code that is in SSA form without being rewritten into it).

use alloc::vec;
use alloc::vec::Vec;

use crate::kernel::cfg::Blocks;
use crate::kernel::vcode::{VInstr, VReg};

const NONE: u32 = u32::MAX;

/// Blocks, their predecessors and the dominator tree.
pub(crate) struct Flow {
    pub blocks: Blocks,
    /// The block of each instruction.
    pub block_of: Vec<u32>,
    pub preds: Vec<Vec<u32>>,
    pub children: Vec<Vec<u32>>,
    /// Dominator-tree DFS interval of each block: `a` dominates `b` iff `b`'s lies in `a`'s.
    enter: Vec<u32>,
    leave: Vec<u32>,
    len: u32,
}

impl Flow {
    pub fn new(code: &[VInstr]) -> Flow {
        let len = code.len() as u32;
        let blocks = if code.is_empty() {
            Blocks { starts: Vec::new(), succs: Vec::new(), exits: Vec::new() }
        } else {
            Blocks::new(code)
        };
        let nb = blocks.starts.len();
        let mut block_of = vec![0u32; code.len()];
        for b in 0..nb {
            for i in blocks.starts[b]..blocks.end(b, len) {
                block_of[i as usize] = b as u32;
            }
        }
        let mut preds = vec![Vec::new(); nb];
        for (b, succs) in blocks.succs.iter().enumerate() {
            for &s in succs {
                preds[s as usize].push(b as u32);
            }
        }
        let rpo = reverse_postorder(&blocks.succs);
        // Immediate dominator of each block (the entry's is itself; `NONE` if unreachable).
        let idom = dominators(&rpo, &preds, nb);
        let mut children = vec![Vec::new(); nb];
        for b in 0..nb {
            if idom[b] != NONE && idom[b] as usize != b {
                children[idom[b] as usize].push(b as u32);
            }
        }
        let (mut enter, mut leave) = (vec![NONE; nb], vec![NONE; nb]);
        if nb > 0 {
            let mut clock = 0;
            let mut stack = vec![(0u32, 0usize)];
            enter[0] = 0;
            while let Some(&mut (b, ref mut next)) = stack.last_mut() {
                if let Some(&c) = children[b as usize].get(*next) {
                    *next += 1;
                    clock += 1;
                    enter[c as usize] = clock;
                    stack.push((c, 0));
                } else {
                    clock += 1;
                    leave[b as usize] = clock;
                    stack.pop();
                }
            }
        }
        Flow { blocks, block_of, preds, children, enter, leave, len }
    }

    pub fn block_count(&self) -> usize {
        self.blocks.starts.len()
    }

    /// Instructions of block `b`.
    pub fn range(&self, b: usize) -> core::ops::Range<u32> {
        self.blocks.starts[b]..self.blocks.end(b, self.len)
    }

    pub fn reachable(&self, b: usize) -> bool {
        self.enter[b] != NONE
    }

    /// Whether block `a` dominates block `b` (every block dominates itself).
    pub fn block_dominates(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        self.enter[a] != NONE
            && self.enter[b] != NONE
            && self.enter[a] <= self.enter[b]
            && self.leave[b] <= self.leave[a]
    }

    /// Whether instruction `a` runs before instruction `b` on every path that reaches `b`.
    pub fn strictly_dominates(&self, a: u32, b: u32) -> bool {
        let (ba, bb) = (self.block_of[a as usize], self.block_of[b as usize]);
        if ba == bb {
            a < b && self.reachable(ba as usize)
        } else {
            self.block_dominates(ba, bb)
        }
    }

    /// Natural loops, innermost (smallest) first; loops sharing a header are one loop.
    pub fn loops(&self) -> Vec<Loop> {
        let nb = self.block_count();
        let mut loops: Vec<Loop> = Vec::new();
        for b in 0..nb {
            for &h in &self.blocks.succs[b] {
                if !self.block_dominates(h, b as u32) {
                    continue;
                }
                let at = match loops.iter().position(|l| l.header == h) {
                    Some(at) => at,
                    None => {
                        loops.push(Loop { header: h, body: vec![false; nb], latches: Vec::new() });
                        loops.len() - 1
                    }
                };
                let l = &mut loops[at];
                l.latches.push(b as u32);
                l.body[h as usize] = true;
                let mut stack = vec![b as u32];
                while let Some(x) = stack.pop() {
                    if !l.body[x as usize] {
                        l.body[x as usize] = true;
                        stack.extend(self.preds[x as usize].iter().copied().filter(|&p| self.reachable(p as usize)));
                    }
                }
            }
        }
        loops.sort_by_key(|l| (l.body.iter().filter(|&&x| x).count(), l.header));
        loops
    }

    /// Whether instruction `i` is inside loop `l`.
    pub fn in_loop(&self, l: &Loop, i: u32) -> bool {
        l.body[self.block_of[i as usize] as usize]
    }
}

/// A natural loop.
pub(crate) struct Loop {
    pub header: u32,
    /// Per block: part of the loop.
    pub body: Vec<bool>,
    /// Blocks with a back edge to the header.
    pub latches: Vec<u32>,
}

fn reverse_postorder(succs: &[Vec<u32>]) -> Vec<u32> {
    let nb = succs.len();
    let mut order = Vec::with_capacity(nb);
    if nb == 0 {
        return order;
    }
    let mut seen = vec![false; nb];
    let mut stack = vec![(0u32, 0usize)];
    seen[0] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&s) = succs[b as usize].get(*next) {
            *next += 1;
            if !seen[s as usize] {
                seen[s as usize] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(b);
            stack.pop();
        }
    }
    order.reverse();
    order
}

/// Immediate dominators by the iterative algorithm of Cooper, Harvey and Kennedy.
fn dominators(rpo: &[u32], preds: &[Vec<u32>], nb: usize) -> Vec<u32> {
    let mut idom = vec![NONE; nb];
    if rpo.is_empty() {
        return idom;
    }
    let mut number = vec![NONE; nb];
    for (k, &b) in rpo.iter().enumerate() {
        number[b as usize] = k as u32;
    }
    idom[rpo[0] as usize] = rpo[0];
    let intersect = |idom: &[u32], mut a: u32, mut b: u32| {
        while a != b {
            while number[a as usize] > number[b as usize] {
                a = idom[a as usize];
            }
            while number[b as usize] > number[a as usize] {
                b = idom[b as usize];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &rpo[1..] {
            let mut new = NONE;
            for &p in &preds[b as usize] {
                if idom[p as usize] == NONE {
                    continue;
                }
                new = if new == NONE { p } else { intersect(&idom, p, new) };
            }
            if new != NONE && idom[b as usize] != new {
                idom[b as usize] = new;
                changed = true;
            }
        }
    }
    idom
}

/// Where each register is written.
pub(crate) struct Defs {
    /// How many instructions write each register.
    pub count: Vec<u32>,
    /// The instruction that writes it, for registers written once.
    pub site: Vec<u32>,
    /// Holds the same value wherever it is read: a parameter never written, or a register
    /// written once by an instruction that runs before every read of it.
    pub fixed: Vec<bool>,
}

impl Defs {
    pub fn new(code: &[VInstr], flow: &Flow, vregs: u32, params: u32) -> Defs {
        let n = vregs.max(params) as usize;
        let mut count = vec![0u32; n];
        let mut site = vec![NONE; n];
        for (i, instr) in code.iter().enumerate() {
            if let Some(d) = instr.def() {
                if let Some(c) = count.get_mut(d as usize) {
                    *c += 1;
                    site[d as usize] = i as u32;
                }
            }
        }
        let mut fixed: Vec<bool> =
            (0..n).map(|r| if (r as u32) < params { count[r] == 0 } else { count[r] == 1 }).collect();
        for (i, instr) in code.iter().enumerate() {
            instr.for_each_use(|u| {
                let u = u as usize;
                if u < n && fixed[u] && count[u] == 1 && !flow.strictly_dominates(site[u], i as u32) {
                    fixed[u] = false;
                }
            });
        }
        Defs { count, site, fixed }
    }

    pub fn is_fixed(&self, r: VReg) -> bool {
        self.fixed.get(r as usize).copied().unwrap_or(false)
    }

    /// The instruction writing fixed register `r`, if it is not a parameter.
    pub fn fixed_def(&self, r: VReg) -> Option<u32> {
        (self.is_fixed(r) && self.count[r as usize] == 1).then(|| self.site[r as usize])
    }
}
