//! Utility-based cache partitioning of the L1's ways among co-running kernels (UCP, Qureshi &
//! Patt, as the concurrent-kernel paper applies it in §3.1 and its notes' §3.6; setting
//! `l1.partition = Ucp`).
//!
//! Each kernel has a shadow tag array of the L1's geometry, LRU, that sees only its own loads,
//! with a hit counter per recency position: how many of its hits `w` ways would have kept. Every
//! `period` cycles the ways are split to maximise the hits the kernels' shares would keep (each
//! kernel at least one way), and the counters are halved. A kernel's miss in a set where it
//! holds fewer lines than its share takes the least recently used line of another kernel, or an
//! empty way; otherwise its own least recently used line. Lines held by a fetch in flight are
//! never taken, so a kernel left with few ways, all waiting on misses, fails to allocate: the
//! paper's reason UCP does not pay on GPUs.

use alloc::vec;
use alloc::vec::Vec;

/// No line in a shadow way.
const EMPTY: u64 = u64::MAX;

/// The partition of one L1.
#[derive(Clone, Debug)]
pub(super) struct Ucp {
    sets: u32,
    ways: u32,
    kernels: usize,
    /// Each kernel's shadow tags: `((k * sets + set) * ways + position)`, most recent first.
    shadow: Vec<u64>,
    /// Each kernel's hits by recency position: `k * ways + position`.
    hits: Vec<u64>,
    /// Ways each kernel may fill, by kernel.
    pub(super) share: Vec<u32>,
    period: u64,
    /// The next cycle the ways are split again.
    next: u64,
}

impl Ucp {
    /// `kernels` co-running kernels on an L1 of `sets` × `ways`, split again every `period`
    /// cycles; until the first split the ways are shared out evenly (the earlier kernels get one
    /// more where they do not divide).
    pub(super) fn new(sets: u32, ways: u32, kernels: usize, period: u64) -> Self {
        let kernels = kernels.max(1);
        let share = (0..kernels as u32)
            .map(|k| (ways / kernels as u32 + u32::from(k < ways % kernels as u32)).max(1))
            .collect();
        Ucp {
            sets,
            ways,
            kernels,
            shadow: vec![EMPTY; kernels * sets as usize * ways as usize],
            hits: vec![0; kernels * ways as usize],
            share,
            period: period.max(1),
            next: period.max(1),
        }
    }

    /// A load of kernel `k` for `line` in `set`: its shadow tags count the hit position and
    /// move the line to the front.
    pub(super) fn observe(&mut self, k: usize, set: u32, line: u64) {
        if k >= self.kernels || set >= self.sets {
            return;
        }
        let ways = self.ways as usize;
        let base = (k * self.sets as usize + set as usize) * ways;
        let tags = &mut self.shadow[base..base + ways];
        let at = match tags.iter().position(|&t| t == line) {
            Some(p) => {
                self.hits[k * ways + p] += 1;
                p
            }
            None => ways - 1,
        };
        tags.copy_within(0..at, 1);
        tags[0] = line;
    }

    /// Splits the ways again for every period boundary up to `now`.
    pub(super) fn advance_to(&mut self, now: u64) {
        while now >= self.next {
            self.split();
            self.next += self.period;
        }
    }

    /// The split keeping the most shadow hits, each kernel at least one way (the first found
    /// of equals, in ascending order of the first kernel's ways, then the second's…); then the
    /// counters are halved, so that old behaviour fades.
    fn split(&mut self) {
        let mut current = vec![0u32; self.kernels];
        let mut best = (0u64, self.share.clone());
        self.search(0, self.ways, &mut current, &mut best);
        self.share = best.1;
        for h in &mut self.hits {
            *h /= 2;
        }
    }

    fn search(&self, k: usize, left: u32, current: &mut [u32], best: &mut (u64, Vec<u32>)) {
        let kernels_after = (self.kernels - k - 1) as u32;
        if k + 1 == self.kernels {
            current[k] = left;
            let kept: u64 = current.iter().enumerate().map(|(k, &w)| self.kept(k, w)).sum();
            // Strictly more: with nothing seen the split stays as it was.
            if kept > best.0 {
                *best = (kept, current.to_vec());
            }
            return;
        }
        for w in 1..=left.saturating_sub(kernels_after) {
            current[k] = w;
            self.search(k + 1, left - w, current, best);
        }
    }

    /// Shadow hits kernel `k` would keep with `ways` ways.
    fn kept(&self, k: usize, ways: u32) -> u64 {
        let base = k * self.ways as usize;
        self.hits[base..base + ways as usize].iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two kernels on one 6-way set. Kernel 0 cycles over 2 lines (every reuse hits at the
    /// second position), kernel 1 over 5 (hits at the fifth): kernel 0 needs 2 ways, kernel 1
    /// 5, and only 6 exist, so one of them keeps nothing; kernel 1 has more hits to keep.
    #[test]
    fn the_split_keeps_the_most_shadow_hits_and_halves_the_counters() {
        let mut ucp = Ucp::new(1, 6, 2, 100);
        assert_eq!(ucp.share, [3, 3], "evenly until the first split");
        for _ in 0..10 {
            for line in [1, 2] {
                ucp.observe(0, 0, line);
            }
            for line in [11, 12, 13, 14, 15] {
                ucp.observe(1, 0, line);
            }
        }
        // Kernel 0: 18 hits at position 1 (its first round misses twice). Kernel 1: 45 hits at
        // position 4. Kept hits: (1, 5) = 0 + 45; (2, 4) = 18 + 0; (5, 1) = 18. Best: (1, 5).
        assert_eq!(ucp.kept(0, 2), 18);
        assert_eq!(ucp.kept(1, 5), 45);
        ucp.advance_to(99);
        assert_eq!(ucp.share, [3, 3], "not before the period ends");
        ucp.advance_to(100);
        assert_eq!(ucp.share, [1, 5]);
        assert_eq!(ucp.kept(1, 5), 22, "halved");
        // Two periods pass with no loads: two splits, the counters quartered again (22 → 5).
        ucp.advance_to(300);
        assert_eq!(ucp.kept(1, 5), 5);
        assert_eq!(ucp.share, [1, 5]);
    }
}
