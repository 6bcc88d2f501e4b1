//! A small map from a line address to the index of the entry (an MSHR) handling it. Every
//! request that misses a cache's tags asks whether its line is already being fetched, so the
//! answer must not cost a scan of all entries: this is open addressing with linear probing
//! over a power-of-two table kept at most a quarter full, so a lookup, even of a line that is
//! not there (the common question), is a probe or two.

use alloc::vec;
use alloc::vec::Vec;

/// A free slot. (A line in use never reads as this: its entry is below the capacity.)
const EMPTY: u64 = u64::MAX;

/// Line → entry index, for at most the `capacity` given at creation. Each slot packs a line
/// (lines are of 32-bit addresses, so they fit 32 bits) and its entry into one word, so a probe
/// reads one word: the tables of many SMs' L1s do not fit the host's caches, and a lookup is
/// one cache miss instead of two.
#[derive(Clone, Debug)]
pub struct LineTable {
    slots: Vec<u64>,
    /// log2 of the table's length.
    bits: u32,
}

impl LineTable {
    /// A table for up to `capacity` lines at a time.
    pub fn new(capacity: usize) -> Self {
        let len = (capacity.max(1) * 4).next_power_of_two();
        LineTable { slots: vec![EMPTY; len], bits: len.trailing_zeros() }
    }

    fn home(&self, line: u64) -> usize {
        if self.bits == 0 {
            return 0;
        }
        (line.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    fn pack(line: u64, entry: usize) -> u64 {
        debug_assert!(line <= u64::from(u32::MAX) && entry < u32::MAX as usize, "line {line}, entry {entry}");
        line << 32 | entry as u64
    }

    fn line_of(slot: u64) -> u64 {
        slot >> 32
    }

    fn slot(&self, line: u64) -> Option<usize> {
        let mut i = self.home(line);
        loop {
            match self.slots[i] {
                EMPTY => return None,
                s if Self::line_of(s) == line => return Some(i),
                _ => i = (i + 1) & self.mask(),
            }
        }
    }

    /// The entry handling `line`, if one does.
    #[inline]
    pub fn get(&self, line: u64) -> Option<usize> {
        self.slot(line).map(|i| self.slots[i] as u32 as usize)
    }

    /// Records that `entry` handles `line` (which no entry handles).
    pub fn insert(&mut self, line: u64, entry: usize) {
        debug_assert!(self.slot(line).is_none());
        let mut i = self.home(line);
        while self.slots[i] != EMPTY {
            i = (i + 1) & self.mask();
        }
        self.slots[i] = Self::pack(line, entry);
    }

    /// Forgets `line`, if present; later lines of its probe run move back into the hole so that
    /// lookups need no tombstones.
    pub fn remove(&mut self, line: u64) {
        let Some(mut hole) = self.slot(line) else { return };
        let mask = self.mask();
        let mut i = hole;
        loop {
            i = (i + 1) & mask;
            let s = self.slots[i];
            if s == EMPTY {
                break;
            }
            let home = self.home(Self::line_of(s));
            let stays = if hole <= i { hole < home && home <= i } else { hole < home || home <= i };
            if !stays {
                self.slots[hole] = s;
                hole = i;
            }
        }
        self.slots[hole] = EMPTY;
    }

    /// Forgets every line.
    pub fn clear(&mut self) {
        self.slots.fill(EMPTY);
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
