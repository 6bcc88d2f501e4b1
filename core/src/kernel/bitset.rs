//! A set of small integers (virtual registers) as bits, for liveness.

use alloc::vec;
use alloc::vec::Vec;

#[derive(Clone)]
pub(crate) struct BitSet(pub Vec<u64>);

impl BitSet {
    pub fn new(bits: usize) -> Self {
        BitSet(vec![0; bits.div_ceil(64)])
    }
    pub fn insert(&mut self, i: u32) {
        self.0[i as usize / 64] |= 1 << (i % 64);
    }
    pub fn remove(&mut self, i: u32) {
        self.0[i as usize / 64] &= !(1 << (i % 64));
    }
    pub fn contains(&self, i: u32) -> bool {
        self.0.get(i as usize / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    /// `self |= other`; whether anything changed.
    pub fn union(&mut self, other: &BitSet) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    pub fn for_each(&self, mut f: impl FnMut(u32)) {
        for (w, &word) in self.0.iter().enumerate() {
            let mut m = word;
            while m != 0 {
                f(w as u32 * 64 + m.trailing_zeros());
                m &= m - 1;
            }
        }
    }
}
