//! The tag array with each way's replacement key kept beside it.
//!
//! Choosing a victim looks at every way of a set: with the H100 preset's 256 ways that is 10 KiB
//! of tags per miss, the L1's largest cost there. The key a victim is chosen by (no fetch in
//! flight; then empty before valid; then the oldest stamp) is kept as one word per way in an
//! array of its own, so the choice reads 2 KiB of words in one scalar pass (x86-64's baseline
//! has no 64-bit vector minimum; an emulated one was slower). Ways are changed only through
//! [`Ways::set`] and [`Ways::update`], which refresh the key, so the two cannot disagree; reads
//! go to the ways as a slice.

use alloc::vec;
use alloc::vec::Vec;
use core::ops::Deref;

use super::{Way, EMPTY_WAY};

/// The ways of every set (entry `set * ways + way`) and their replacement keys.
#[derive(Clone, Debug)]
pub(super) struct Ways {
    ways: Vec<Way>,
    /// By way: `u64::MAX` while a fetch is in flight (never a victim); otherwise whether it
    /// holds valid data in the top bit and its stamp below, so the smallest is the victim.
    keys: Vec<u64>,
}

/// A way's replacement key (see [`Ways::keys`]). Stamps count accesses, far below 2^63.
fn key(way: &Way) -> u64 {
    if way.reserved() {
        u64::MAX
    } else {
        u64::from(way.valid != 0) << 63 | way.stamp
    }
}

impl Ways {
    /// `n` ways, each `way`.
    pub fn new(n: usize, way: Way) -> Self {
        Ways { ways: vec![way; n], keys: vec![key(&way); n] }
    }

    /// Way `i` becomes `way`.
    #[inline]
    pub fn set(&mut self, i: usize, way: Way) {
        self.ways[i] = way;
        self.keys[i] = key(&way);
    }

    /// Changes way `i` through `change`.
    #[inline]
    pub fn update<R>(&mut self, i: usize, change: impl FnOnce(&mut Way) -> R) -> R {
        let result = change(&mut self.ways[i]);
        self.keys[i] = key(&self.ways[i]);
        result
    }

    /// Way `i` loses its data: with a fetch in flight it stays reserved, its fill to wake the
    /// waiting requests and keep nothing, and its line is returned; otherwise it is emptied.
    pub fn drop_data(&mut self, i: usize) -> Option<u64> {
        if !self.ways[i].reserved() {
            self.set(i, EMPTY_WAY);
            return None;
        }
        Some(self.update(i, |w| {
            w.valid = 0;
            w.drop_on_fill = true;
            w.line
        }))
    }

    /// Grows or shrinks to `n` ways, new ones `way`.
    pub fn resize(&mut self, n: usize, way: Way) {
        self.ways.resize(n, way);
        self.keys.resize(n, key(&way));
    }

    /// The victim among ways `range`: of those with no fetch in flight, an empty one first,
    /// else the oldest stamp (the first of equals); `None` when every one has a fetch in flight.
    #[inline]
    pub fn victim(&self, first: usize, count: usize) -> Option<usize> {
        let keys = self.keys.get(first..first + count)?;
        let (mut least, mut at) = (u64::MAX, 0);
        for (i, &k) in keys.iter().enumerate() {
            if k < least {
                (least, at) = (k, i);
            }
        }
        (least != u64::MAX).then_some(first + at)
    }

    /// Whether every way of `first..first + count` has a fetch in flight.
    pub fn all_reserved(&self, first: usize, count: usize) -> bool {
        self.keys.get(first..first + count).is_none_or(|keys| keys.iter().all(|&k| k == u64::MAX))
    }
}

impl Deref for Ways {
    type Target = [Way];

    fn deref(&self) -> &[Way] {
        &self.ways
    }
}

#[cfg(test)]
mod tests {
    use super::super::NO_MSHR;
    use super::*;
    use crate::rng::SplitMix64;

    /// The choice by a scan of the ways themselves: the first way with no fetch in flight whose
    /// (valid, stamp) is smallest.
    fn scanned_victim(ways: &[Way], first: usize, count: usize) -> Option<usize> {
        let mut victim: Option<(usize, (bool, u64))> = None;
        for (i, w) in ways[first..first + count].iter().enumerate() {
            let key = (w.valid != 0, w.stamp);
            if !w.reserved() && victim.is_none_or(|(_, best)| key < best) {
                victim = Some((first + i, key));
            }
        }
        victim.map(|(i, _)| i)
    }

    #[test]
    fn the_kept_keys_choose_as_a_scan_of_the_ways() {
        let mut rng = SplitMix64::new(7);
        for count in [1, 4, 16, 256] {
            let sets = 3;
            let mut ways = Ways::new(sets * count, EMPTY_WAY);
            for step in 0..20_000u64 {
                let i = rng.below((sets * count) as u64) as usize;
                match rng.below(4) {
                    0 => ways.set(i, EMPTY_WAY),
                    1 => ways.set(i, Way { line: step, stamp: step, valid: 1, ..EMPTY_WAY }),
                    // Stamps repeat, so ties are chosen among.
                    2 => ways.update(i, |w| w.stamp = rng.below(8)),
                    _ => ways.update(i, |w| w.mshr = if w.mshr == NO_MSHR { 3 } else { NO_MSHR }),
                }
                let set = rng.below(sets as u64) as usize * count;
                assert_eq!(ways.victim(set, count), scanned_victim(&ways, set, count), "{count} ways, step {step}");
                assert_eq!(ways.all_reserved(set, count), ways[set..set + count].iter().all(|w| w.reserved()));
            }
        }
    }
}
