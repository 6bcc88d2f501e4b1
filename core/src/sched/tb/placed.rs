//! Which blocks of one grid have been placed, in memory proportional to the gaps in the
//! placement, not to the grid: a grid may have two billion blocks, and a flag per block would
//! need gigabytes. Policies place blocks in index order or in a few runs (a chunk per SM, a
//! stolen range), so the placed blocks above the lowest unplaced one form a few ranges.

use alloc::vec::Vec;

/// The placed blocks of a grid of `blocks` blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedBlocks {
    blocks: u32,
    /// Every block below this one is placed; this one is not (or it equals `blocks`).
    next: u32,
    /// Placed blocks above `next`: sorted, disjoint, half-open ranges, no two touching, all
    /// starting above `next` (one reaching down to it is absorbed into `next`).
    ahead: Vec<(u32, u32)>,
}

impl PlacedBlocks {
    /// A grid of `blocks` blocks, none placed.
    pub fn new(blocks: u32) -> Self {
        PlacedBlocks { blocks, next: 0, ahead: Vec::new() }
    }

    /// The lowest block not yet placed (`blocks` when all are).
    pub fn next(&self) -> u32 {
        self.next
    }

    /// Whether block `block` has been placed.
    pub fn contains(&self, block: u32) -> bool {
        block < self.next || self.ahead.iter().any(|&(start, end)| (start..end).contains(&block))
    }

    /// Marks `block` placed. Returns false (and changes nothing) if it is outside the grid or
    /// was placed already.
    pub fn insert(&mut self, block: u32) -> bool {
        if block >= self.blocks || block < self.next {
            return false;
        }
        if block == self.next {
            self.next += 1;
            if self.ahead.first().is_some_and(|&(start, _)| start == self.next) {
                self.next = self.ahead.remove(0).1;
            }
            return true;
        }
        // The first range ending at or after `block`: it holds it, ends just before it, or
        // lies wholly after it.
        let i = self.ahead.partition_point(|&(_, end)| end < block);
        match self.ahead.get(i).copied() {
            Some((start, end)) if start <= block && block < end => return false,
            Some((_, end)) if end == block => {
                self.ahead[i].1 += 1;
                if self.ahead.get(i + 1).is_some_and(|&(start, _)| start == block + 1) {
                    self.ahead[i].1 = self.ahead.remove(i + 1).1;
                }
            }
            Some((start, _)) if start == block + 1 => self.ahead[i].0 = block,
            _ => self.ahead.insert(i, (block, block + 1)),
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    /// The same answers as a flag per block, over orders that fill a grid in runs, backwards
    /// and scattered.
    #[test]
    fn agrees_with_a_flag_per_block() {
        let n = 40u32;
        let orders: [Vec<u32>; 4] = [
            (0..n).collect(),
            (0..n).rev().collect(),
            // Four chunks placed one block of each in turn, as a chunked policy would.
            (0..n / 4).flat_map(|i| [i, i + 10, i + 20, i + 30]).collect(),
            // A scatter: multiples of 7 modulo a prime walk every block once, in a jumbled order.
            (0..41u32).map(|i| (i * 7) % 41).filter(|&b| b < n).collect(),
        ];
        for order in orders {
            let mut placed = PlacedBlocks::new(n);
            let mut flags = [false; 40];
            for &b in order.iter().chain(&[3, 39, 40, 1000]) {
                let fresh = b < n && !flags[b as usize];
                assert_eq!(placed.insert(b), fresh, "block {b} in order {order:?}");
                if fresh {
                    flags[b as usize] = true;
                }
                assert_eq!(placed.next(), flags.iter().position(|f| !f).unwrap_or(40) as u32);
                assert!((0..n).all(|x| placed.contains(x) == flags[x as usize]));
            }
            assert_eq!((placed.next(), placed.ahead.len()), (n, 0), "a full grid keeps no ranges");
        }
    }

    #[test]
    fn a_huge_grid_in_order_keeps_no_ranges() {
        let mut placed = PlacedBlocks::new(u32::MAX);
        for b in 0..100_000 {
            assert!(placed.insert(b));
        }
        assert!(placed.insert(200_000) && placed.insert(200_001) && placed.insert(199_999));
        assert_eq!(placed.ahead, [(199_999, 200_002)]);
        assert!(!placed.insert(200_000), "placed already");
    }
}
