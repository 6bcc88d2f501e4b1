//! A small map from a line address to the index of the entry (an MSHR) handling it. Every
//! request that misses a cache's tags asks whether its line is already being fetched, so the
//! answer must not cost a scan of all entries: this is open addressing with linear probing
//! over a power-of-two table kept at most a quarter full, so a lookup, even of a line that is
//! not there (the common question), is a probe or two. [`LineCounts`] is the same table
//! counting items per line, grown as needed.

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

    /// Makes `entry` the one handling `line`, which an entry handles.
    fn replace(&mut self, line: u64, entry: usize) {
        let i = self.slot(line).expect("the line is in the table");
        self.slots[i] = Self::pack(line, entry);
    }

    /// How many lines the table was made for.
    fn capacity(&self) -> usize {
        self.slots.len() / 4
    }

    /// Every (line, entry) pair, in no particular order.
    fn pairs(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.slots.iter().filter(|&&s| s != EMPTY).map(|&s| (Self::line_of(s), s as u32 as usize))
    }
}

/// How many of a changing set of items (requests waiting for a resource) are for each line:
/// a [`LineTable`] holding counts instead of entries, grown (doubled) when it fills, so that
/// "is anything waiting for this line?" never costs a scan of the items.
#[derive(Clone, Debug)]
pub struct LineCounts {
    table: LineTable,
    lines: usize,
}

impl LineCounts {
    /// Room for `lines` distinct lines before it first grows.
    pub fn new(lines: usize) -> Self {
        LineCounts { table: LineTable::new(lines), lines: 0 }
    }

    /// Items for `line`.
    #[inline]
    pub fn get(&self, line: u64) -> usize {
        // Most of the time nothing waits at all: no probe then.
        if self.lines == 0 {
            return 0;
        }
        self.table.get(line).unwrap_or(0)
    }

    /// One more item for `line`.
    pub fn add(&mut self, line: u64) {
        match self.table.get(line) {
            Some(n) => self.table.replace(line, n + 1),
            None => {
                if self.lines == self.table.capacity() {
                    let mut bigger = LineTable::new(2 * self.table.capacity().max(1));
                    for (l, n) in self.table.pairs() {
                        bigger.insert(l, n);
                    }
                    self.table = bigger;
                }
                self.table.insert(line, 1);
                self.lines += 1;
            }
        }
    }

    /// One item fewer for `line`, which has one at least.
    pub fn remove_one(&mut self, line: u64) {
        match self.table.get(line) {
            Some(1) => {
                self.table.remove(line);
                self.lines -= 1;
            }
            Some(n) => self.table.replace(line, n - 1),
            None => debug_assert!(false, "no item for line {line}"),
        }
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

    /// Random adds and removals, over more lines than the counts start with room for, agree
    /// with a plain list of lines: the counts grow and forget a line whose count reaches zero.
    #[test]
    fn counts_agree_with_a_list_as_they_grow_and_shrink() {
        let mut counts = LineCounts::new(2);
        let mut list: Vec<u64> = Vec::new();
        let mut rng = SplitMix64::new(7);
        for step in 0..20_000 {
            let line = rng.below(300) * if step % 3 == 0 { 1 << 20 } else { 1 };
            if rng.below(2) == 0 && list.contains(&line) {
                counts.remove_one(line);
                let k = list.iter().position(|&l| l == line).unwrap();
                list.swap_remove(k);
            } else {
                counts.add(line);
                list.push(line);
            }
            for probe in [line, line + 1, line ^ (1 << 20)] {
                assert_eq!(
                    counts.get(probe),
                    list.iter().filter(|&&l| l == probe).count(),
                    "line {probe} after step {step}"
                );
            }
        }
        let distinct = list.iter().collect::<alloc::collections::BTreeSet<_>>().len();
        assert_eq!(counts.lines, distinct);
    }
}
