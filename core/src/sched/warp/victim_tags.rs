//! The victim tag array (VTA) of CCWS's lost-locality detector, which CIAO's interference
//! detector reuses at its own size: per warp slot, the tags (no data) of the last lines evicted
//! from the L1 that this warp had brought in, each with the warp whose miss evicted it. A miss
//! whose line is in the missing warp's own tags is a *VTA hit*: the warp lost a line it would
//! probably still have had with more exclusive use of the L1, and the entry names who took it.
//!
//! Geometry (the paper's Table 3 and Fig. 13, the artifact's replacement): each slot has
//! `entries` tags in `sets` sets of `ways` ways, with `ways = min(associativity, entries)` (up
//! to 4 entries a warp the paper's VTA is fully associative) and `sets = entries / ways`; the
//! default 16 entries, 8-way is 2 sets of 8. An entry count that is not a multiple of the
//! ways gives each set `entries / sets` ways (12 entries, 8-way: one set of 12). The set of a
//! line is its line address modulo `sets`. Replacement is FIFO, as the artifact's: a free way
//! first, else the tag inserted longest ago; a tag already present is kept where it is (not
//! re-inserted, its age unchanged) and only takes the new evictor (CIAO's notes, §4.1), and a
//! probe that hits does not remove it. CCWS never reads the evictors.
//!
//! All slots' tags live in one flat vector, sized once by [`VictimTags::attach`]; nothing
//! allocates afterwards.

use alloc::vec;
use alloc::vec::Vec;

/// No tag: line addresses are byte addresses over the line size, far below this.
const EMPTY: u64 = u64::MAX;

/// Every warp slot's victim tags.
#[derive(Clone, Debug)]
pub struct VictimTags {
    sets: usize,
    ways: usize,
    /// `tags[((slot * sets) + set) * ways + way]`.
    tags: Vec<u64>,
    /// When each entry was inserted (a running count): the smallest of a full set goes first.
    inserted: Vec<u64>,
    /// The warp slot whose miss last evicted each entry's line.
    evictor: Vec<u16>,
    clock: u64,
}

impl VictimTags {
    /// `entries` tags per warp at associativity `ways` (both at least 1), for no slot yet.
    pub fn new(entries: u32, ways: u32) -> Self {
        let entries = entries.max(1) as usize;
        let ways = (ways.max(1) as usize).min(entries);
        let sets = entries / ways;
        VictimTags { sets, ways: entries / sets, tags: Vec::new(), inserted: Vec::new(), evictor: Vec::new(), clock: 0 }
    }

    /// Sizes the array for `slots` warp slots, every entry empty.
    pub fn attach(&mut self, slots: usize) {
        let n = slots * self.sets * self.ways;
        self.tags = vec![EMPTY; n];
        self.inserted = vec![0; n];
        self.evictor = vec![0; n];
        self.clock = 0;
    }

    /// Sets per slot.
    pub fn sets(&self) -> usize {
        self.sets
    }

    /// Ways per set.
    pub fn ways(&self) -> usize {
        self.ways
    }

    /// The entries of `slot`'s set for `line`, as a range of the flat vectors (empty for a slot
    /// the array was not sized for).
    fn range(&self, slot: usize, line: u64) -> core::ops::Range<usize> {
        let start = (slot * self.sets + (line % self.sets as u64) as usize) * self.ways;
        if start + self.ways > self.tags.len() {
            return 0..0;
        }
        start..start + self.ways
    }

    /// Records that `line`, which warp `slot` had brought in, was evicted by warp `by`'s miss.
    pub fn insert(&mut self, slot: usize, line: u64, by: u16) {
        let r = self.range(slot, line);
        let set = &self.tags[r.clone()];
        if set.is_empty() {
            return;
        }
        if let Some(way) = set.iter().position(|&t| t == line) {
            self.evictor[r.start + way] = by;
            return;
        }
        let way = match set.iter().position(|&t| t == EMPTY) {
            Some(free) => free,
            None => {
                let ages = &self.inserted[r.clone()];
                // Insertion counts are unique, so the oldest entry is unique.
                (0..ages.len()).min_by_key(|&w| ages[w]).unwrap_or(0)
            }
        };
        self.clock += 1;
        self.tags[r.start + way] = line;
        self.inserted[r.start + way] = self.clock;
        self.evictor[r.start + way] = by;
    }

    /// The warp that last evicted `line` from `slot`'s lines, if the line is among `slot`'s
    /// victim tags (a VTA hit; the tag stays).
    pub fn evictor_of(&self, slot: usize, line: u64) -> Option<u16> {
        let r = self.range(slot, line);
        let way = self.tags[r.clone()].iter().position(|&t| t == line)?;
        Some(self.evictor[r.start + way])
    }

    /// Whether `line` is among `slot`'s victim tags (a VTA hit; the tag stays).
    pub fn contains(&self, slot: usize, line: u64) -> bool {
        self.tags[self.range(slot, line)].contains(&line)
    }

    /// Removes `line` from `slot`'s tags.
    pub fn remove(&mut self, slot: usize, line: u64) {
        let r = self.range(slot, line);
        for t in &mut self.tags[r] {
            if *t == line {
                *t = EMPTY;
            }
        }
    }

    /// Removes `line` from every slot's tags (a store or an atomic wrote it: the L1 evicts
    /// global data on writes, so a later miss on it is no lost locality).
    pub fn invalidate(&mut self, line: u64) {
        let set = (line % self.sets as u64) as usize;
        let stride = self.sets * self.ways;
        let mut start = set * self.ways;
        while start + self.ways <= self.tags.len() {
            for t in &mut self.tags[start..start + self.ways] {
                if *t == line {
                    *t = EMPTY;
                }
            }
            start += stride;
        }
    }

    /// Empties `slot`'s tags (a new warp took the slot).
    pub fn clear(&mut self, slot: usize) {
        let per_slot = self.sets * self.ways;
        let start = slot * per_slot;
        if let Some(tags) = self.tags.get_mut(start..start + per_slot) {
            tags.fill(EMPTY);
        }
    }

    /// `slot`'s tags in `set`, oldest insertion first (for tests and views).
    pub fn set_in_fifo_order(&self, slot: usize, set: usize) -> Vec<u64> {
        let start = (slot * self.sets + set) * self.ways;
        let mut entries: Vec<(u64, u64)> = (start..start + self.ways)
            .filter(|&i| self.tags.get(i).is_some_and(|&t| t != EMPTY))
            .map(|i| (self.inserted[i], self.tags[i]))
            .collect();
        entries.sort_unstable();
        entries.into_iter().map(|(_, t)| t).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vta(entries: u32, ways: u32, slots: usize) -> VictimTags {
        let mut v = VictimTags::new(entries, ways);
        v.attach(slots);
        v
    }

    #[test]
    fn the_default_is_two_sets_of_eight_and_small_arrays_are_fully_associative() {
        let v = vta(16, 8, 1);
        assert_eq!((v.sets(), v.ways()), (2, 8));
        for entries in 1..=4 {
            let v = vta(entries, 8, 1);
            assert_eq!((v.sets(), v.ways()), (1, entries as usize), "Fig. 13: 1-4 entries are fully associative");
        }
        assert_eq!((vta(128, 8, 1).sets(), vta(128, 8, 1).ways()), (16, 8));
        assert_eq!((vta(12, 8, 1).sets(), vta(12, 8, 1).ways()), (1, 12), "12 entries: one set of 12");
    }

    #[test]
    fn a_full_set_drops_the_tag_inserted_first_and_a_present_tag_is_not_reinserted() {
        let mut v = vta(16, 8, 1);
        // Even lines go to set 0, odd ones to set 1.
        for line in [0, 2, 4, 6, 8, 10, 12, 14] {
            v.insert(0, line, 9);
        }
        v.insert(0, 1, 9);
        assert_eq!(v.set_in_fifo_order(0, 0), [0, 2, 4, 6, 8, 10, 12, 14]);
        assert_eq!(v.set_in_fifo_order(0, 1), [1], "set 1 is separate");
        // Line 0 again: kept where it is, so it is still the first to go (FIFO, not LRU).
        v.insert(0, 0, 9);
        assert!(v.contains(0, 0), "a probe that hits leaves the tag");
        v.insert(0, 16, 9);
        assert_eq!(v.set_in_fifo_order(0, 0), [2, 4, 6, 8, 10, 12, 14, 16]);
        assert!(!v.contains(0, 0) && v.contains(0, 16));
        v.insert(0, 18, 9);
        assert_eq!(v.set_in_fifo_order(0, 0), [4, 6, 8, 10, 12, 14, 16, 18]);
    }

    #[test]
    fn each_slot_has_its_own_tags() {
        let mut v = vta(16, 8, 3);
        v.insert(1, 40, 9);
        assert!(v.contains(1, 40));
        assert!(!v.contains(0, 40) && !v.contains(2, 40));
        v.clear(1);
        assert!(!v.contains(1, 40));
    }

    #[test]
    fn a_write_removes_the_line_from_every_slot_and_frees_its_way() {
        let mut v = vta(16, 8, 2);
        for line in [0, 2, 4, 6, 8, 10, 12, 14] {
            v.insert(0, line, 9);
        }
        v.insert(1, 6, 9);
        v.insert(1, 7, 9);
        v.invalidate(6);
        assert!(!v.contains(0, 6) && !v.contains(1, 6));
        assert!(v.contains(1, 7), "other lines stay");
        // The freed way takes the next tag: line 0, the oldest, stays.
        v.insert(0, 16, 9);
        assert_eq!(v.set_in_fifo_order(0, 0), [0, 2, 4, 8, 10, 12, 14, 16]);
    }

    #[test]
    fn each_entry_names_the_warp_that_last_evicted_its_line() {
        let mut v = vta(8, 8, 3);
        v.insert(0, 40, 2);
        assert_eq!(v.evictor_of(0, 40), Some(2));
        assert_eq!(v.evictor_of(1, 40), None, "only the owner's tags hold it");
        // Evicted again, by another warp: the entry keeps its place and takes the new evictor.
        for line in [41, 42, 43, 44, 45, 46, 47] {
            v.insert(0, line, 1);
        }
        v.insert(0, 40, 1);
        assert_eq!(v.evictor_of(0, 40), Some(1));
        v.insert(0, 48, 2);
        assert_eq!(v.evictor_of(0, 40), None, "still the first in, so the first out");
        assert_eq!(v.evictor_of(0, 48), Some(2));
    }
}
