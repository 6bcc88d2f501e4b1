//! A small map from a line address to the index of the entry (an MSHR) handling it. Every
//! request that misses a cache's tags asks whether its line is already being fetched, so the
//! answer must not cost a scan of all entries: this is open addressing with linear probing
//! over a power-of-two table kept at most a quarter full, so a lookup, even of a line that is
//! not there (the common question), is a probe or two.

use alloc::vec;
use alloc::vec::Vec;

const EMPTY: u64 = u64::MAX;

/// Line → entry index, for at most the `capacity` given at creation.
#[derive(Clone, Debug)]
pub struct LineTable {
    lines: Vec<u64>,
    entries: Vec<u32>,
    /// log2 of the table's length.
    bits: u32,
}

impl LineTable {
    /// A table for up to `capacity` lines at once.
    pub fn new(capacity: usize) -> Self {
        let len = (capacity.max(1) * 4).next_power_of_two();
        LineTable { lines: vec![EMPTY; len], entries: vec![0; len], bits: len.trailing_zeros() }
    }

    /// Where the probe for `line` starts: the top bits of a multiplicative hash, so lines that
    /// differ only in their low bits (consecutive lines of a bank) spread over the table.
    fn home(&self, line: u64) -> usize {
        if self.bits == 0 {
            return 0;
        }
        (line.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    fn mask(&self) -> usize {
        self.lines.len() - 1
    }

    /// The slot holding `line`, if any.
    fn slot(&self, line: u64) -> Option<usize> {
        let mut i = self.home(line);
        loop {
            match self.lines[i] {
                l if l == line => return Some(i),
                EMPTY => return None,
                _ => i = (i + 1) & self.mask(),
            }
        }
    }

    /// The entry handling `line`.
    #[inline]
    pub fn get(&self, line: u64) -> Option<usize> {
        self.slot(line).map(|i| self.entries[i] as usize)
    }

    /// Records that `entry` handles `line`, which no entry handles yet.
    pub fn insert(&mut self, line: u64, entry: usize) {
        debug_assert!(line != EMPTY && self.slot(line).is_none());
        let mut i = self.home(line);
        while self.lines[i] != EMPTY {
            i = (i + 1) & self.mask();
        }
        self.lines[i] = line;
        self.entries[i] = entry as u32;
    }

    /// Forgets `line`. Later lines of its probe run move back so that no lookup stops early
    /// at the hole it leaves.
    pub fn remove(&mut self, line: u64) {
        let Some(mut hole) = self.slot(line) else { return };
        let mask = self.mask();
        let mut i = hole;
        loop {
            i = (i + 1) & mask;
            let l = self.lines[i];
            if l == EMPTY {
                break;
            }
            // `l` may fill the hole unless its home lies cyclically in (hole, i].
            let home = self.home(l);
            let stays = if hole <= i { hole < home && home <= i } else { hole < home || home <= i };
            if !stays {
                self.lines[hole] = l;
                self.entries[hole] = self.entries[i];
                hole = i;
            }
        }
        self.lines[hole] = EMPTY;
    }

    /// Forgets every line.
    pub fn clear(&mut self) {
        self.lines.fill(EMPTY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// Random inserts and removes agree with a plain list of (line, entry) pairs, including
    /// lines chosen to collide (multiples of a large power of two share their low bits).
    #[test]
    fn agrees_with_a_list_under_random_inserts_and_removes() {
        for capacity in [1, 3, 32, 100] {
            let mut table = LineTable::new(capacity);
            let mut list: Vec<(u64, usize)> = Vec::new();
            let mut rng = SplitMix64::new(capacity as u64);
            for step in 0..20_000 {
                let line = rng.below(200) * if step % 2 == 0 { 1 } else { 1 << 20 };
                match list.iter().position(|&(l, _)| l == line) {
                    Some(k) if rng.below(2) == 0 => {
                        table.remove(line);
                        list.swap_remove(k);
                    }
                    None if list.len() < capacity => {
                        table.insert(line, step);
                        list.push((line, step));
                    }
                    _ => {}
                }
                for probe in [line, line + 1, line ^ (1 << 20)] {
                    let expected = list.iter().find(|&&(l, _)| l == probe).map(|&(_, e)| e);
                    assert_eq!(table.get(probe), expected, "line {probe} after step {step}");
                }
            }
            for &(l, e) in &list {
                assert_eq!(table.get(l), Some(e));
            }
        }
    }
}
