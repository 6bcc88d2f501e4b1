//! The L1s' hits and misses summed over every SM, for the time series' samples. An L1's counts
//! change only while the clock runs its SM or wakes it, so the sum is kept up to date by
//! looking again at just those SMs: a sample costs the busy SMs, not every one.

use alloc::vec;
use alloc::vec::Vec;

use crate::mem::l1::L1Stats;

/// Hits and misses (sector misses counted as misses) of every L1 together.
#[derive(Clone, Debug)]
pub struct L1Totals {
    /// By SM: its (hits, misses) when last looked at.
    seen: Vec<(u64, u64)>,
    /// Their sum.
    total: (u64, u64),
    /// Bit `i % 64` of word `i / 64`: SM `i` may have changed since.
    touched: Vec<u64>,
}

impl L1Totals {
    /// For `sms` SMs whose L1s have counted nothing yet.
    pub fn new(sms: usize) -> Self {
        L1Totals { seen: vec![(0, 0); sms], total: (0, 0), touched: vec![0; sms.div_ceil(64)] }
    }

    /// SM `sm`'s L1 may have counted something.
    #[inline]
    pub fn touch(&mut self, sm: usize) {
        self.touched[sm / 64] |= 1 << (sm % 64);
    }

    /// Every L1 may have counted something.
    pub fn touch_all(&mut self) {
        let n = self.seen.len();
        for (word, bits) in self.touched.iter_mut().enumerate() {
            *bits = if n - word * 64 >= 64 { u64::MAX } else { (1 << (n - word * 64)) - 1 };
        }
    }

    /// The sums now, `stats(i)` giving SM `i`'s L1 counts: (hits, misses).
    pub fn sum(&mut self, stats: impl Fn(usize) -> L1Stats) -> (u64, u64) {
        for (word, bits) in self.touched.iter_mut().enumerate() {
            while *bits != 0 {
                let sm = word * 64 + bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                let s = stats(sm);
                let now = (s.hits, s.misses + s.sector_misses);
                let before = core::mem::replace(&mut self.seen[sm], now);
                self.total.0 += now.0 - before.0;
                self.total.1 += now.1 - before.1;
            }
        }
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sum_follows_the_touched_l1s_and_ignores_the_rest() {
        let mut counts = vec![L1Stats::default(); 70];
        let mut totals = L1Totals::new(70);
        counts[3].hits = 5;
        counts[69].misses = 2;
        counts[69].sector_misses = 1;
        totals.touch(3);
        totals.touch(69);
        assert_eq!(totals.sum(|i| counts[i]), (5, 3));
        counts[3].hits = 9;
        counts[10].hits = 100;
        totals.touch(3);
        assert_eq!(totals.sum(|i| counts[i]), (9, 3), "SM 10 was not touched");
        totals.touch_all();
        assert_eq!(totals.sum(|i| counts[i]), (109, 3));
    }
}
