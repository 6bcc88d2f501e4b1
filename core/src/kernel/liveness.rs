//! Which virtual registers are live where each block starts and ends: the backward dataflow
//! that register allocation and dead-code removal both need. Liveness per lane is ordinary
//! liveness: a lane follows one path through the code, and an instruction writes only the
//! active lanes' registers.

use alloc::vec;
use alloc::vec::Vec;

use super::bitset::BitSet;
use super::cfg::Blocks;
use super::vcode::VInstr;

/// Registers live on entry to and on exit from each block.
pub(crate) struct Liveness {
    pub live_in: Vec<BitSet>,
    pub live_out: Vec<BitSet>,
}

/// Liveness of registers `0..n` over `code` cut into `blocks` (registers from `n` up are
/// ignored).
pub(crate) fn liveness(code: &[VInstr], blocks: &Blocks, n: usize) -> Liveness {
    let len = code.len() as u32;
    let nb = blocks.starts.len();
    // Per block: registers read before any write in it, and registers it writes.
    let mut uses = vec![BitSet::new(n); nb];
    let mut defs = vec![BitSet::new(n); nb];
    for b in 0..nb {
        for i in (blocks.starts[b]..blocks.end(b, len)).rev() {
            let instr = &code[i as usize];
            if let Some(d) = instr.def().filter(|&d| (d as usize) < n) {
                defs[b].insert(d);
                uses[b].remove(d);
            }
            instr.for_each_use(|u| {
                if (u as usize) < n {
                    uses[b].insert(u)
                }
            });
        }
    }
    let mut live_in = uses.clone();
    let mut live_out = vec![BitSet::new(n); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..nb).rev() {
            let mut out = BitSet::new(n);
            for &s in &blocks.succs[b] {
                out.union(&live_in[s as usize]);
            }
            // in = uses ∪ (out − defs)
            let mut inn = out.clone();
            for (w, d) in inn.0.iter_mut().zip(&defs[b].0) {
                *w &= !d;
            }
            inn.union(&uses[b]);
            changed |= live_in[b].union(&inn);
            live_out[b] = out;
        }
    }
    Liveness { live_in, live_out }
}
