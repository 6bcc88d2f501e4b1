//! The home banks' record of which L1 owns each sector of each line (DeNovo's registry).
//!
//! DeNovo keeps the owner's id in the L2's data array in place of the data; here it is kept
//! beside the banks' tags in one table for all of them (a bank only ever asks about its own
//! lines), so an L2 eviction never has to recall owned data. A line has an entry while any of
//! its sectors has an owner.
//!
//! Every owned sector sits in its owner's L1 or in a write-back on its way home, so the table
//! needs about as many entries as all the L1s have lines; it is made that large at the start
//! and doubles (rarely, outside any steady state) if write-backs in flight ever need more.

use alloc::vec;
use alloc::vec::Vec;

use crate::mem::line_table::LineTable;

/// No owner: the L2 holds the sector's data.
const NONE: u32 = u32::MAX;

/// Line → owner of each of its sectors.
#[derive(Clone, Debug)]
pub struct OwnerRegistry {
    table: LineTable,
    /// Per entry, `sectors_per_line` owners (or [`NONE`]).
    owners: Vec<u32>,
    /// Per entry, its line, so a table rebuilt larger can be refilled.
    lines: Vec<u64>,
    free: Vec<u32>,
    sectors_per_line: usize,
}

impl OwnerRegistry {
    /// An empty registry for lines of `sectors_per_line` sectors, sized for `capacity` lines.
    pub fn new(sectors_per_line: u32, capacity: usize) -> Self {
        let capacity = capacity.max(1);
        let sectors_per_line = sectors_per_line.clamp(1, 32) as usize;
        OwnerRegistry {
            table: LineTable::new(capacity),
            owners: vec![NONE; capacity * sectors_per_line],
            lines: vec![0; capacity],
            free: (0..capacity as u32).rev().collect(),
            sectors_per_line,
        }
    }

    /// Bytes a registry of `capacity` lines of `sectors_per_line` sectors allocates, about.
    pub fn bytes_needed(sectors_per_line: u32, capacity: usize) -> u64 {
        let capacity = capacity.max(1) as u64;
        let table = (capacity * 4).next_power_of_two() * 12;
        table + capacity * (sectors_per_line.clamp(1, 32) as u64 * 4 + 8 + 4)
    }

    fn owners(&self, entry: usize) -> &[u32] {
        &self.owners[entry * self.sectors_per_line..(entry + 1) * self.sectors_per_line]
    }

    /// Calls `each(owner, sectors)` for every owner other than `except` of some of `sectors`
    /// of `line`, with the ones it owns, owners in order of their lowest such sector.
    pub fn owners_of(&self, line: u64, sectors: u32, except: u32, mut each: impl FnMut(u32, u32)) {
        let Some(entry) = self.table.get(line) else { return };
        let owners = self.owners(entry);
        let mut left = sectors & self.mask();
        while left != 0 {
            let owner = owners[left.trailing_zeros() as usize];
            let mine = Self::sectors_of(owners, owner) & left;
            left &= !mine;
            if owner != NONE && owner != except {
                each(owner, mine);
            }
        }
    }

    /// The sectors whose recorded owner is `owner`.
    fn sectors_of(owners: &[u32], owner: u32) -> u32 {
        owners.iter().enumerate().filter(|&(_, &o)| o == owner).fold(0, |m, (s, _)| m | 1 << s)
    }

    fn mask(&self) -> u32 {
        if self.sectors_per_line == 32 {
            u32::MAX
        } else {
            (1 << self.sectors_per_line) - 1
        }
    }

    /// Records `sm` as the owner of `sectors` of `line`; `revoked(owner, sectors)` hears each
    /// previous owner other than `sm` with the sectors it loses.
    pub fn register(&mut self, line: u64, sectors: u32, sm: u32, revoked: impl FnMut(u32, u32)) {
        self.owners_of(line, sectors, sm, revoked);
        let entry = match self.table.get(line) {
            Some(entry) => entry,
            None => self.new_entry(line),
        };
        let base = entry * self.sectors_per_line;
        let mut left = sectors & self.mask();
        while left != 0 {
            self.owners[base + left.trailing_zeros() as usize] = sm;
            left &= left - 1;
        }
    }

    /// `sm` wrote `sectors` of `line` back: those it still owns have no owner from now on.
    pub fn release(&mut self, line: u64, sectors: u32, sm: u32) {
        let Some(entry) = self.table.get(line) else { return };
        let base = entry * self.sectors_per_line;
        let mut left = sectors & self.mask();
        while left != 0 {
            let o = &mut self.owners[base + left.trailing_zeros() as usize];
            if *o == sm {
                *o = NONE;
            }
            left &= left - 1;
        }
        if self.owners(entry).iter().all(|&o| o == NONE) {
            self.table.remove(line);
            self.free.push(entry as u32);
        }
    }

    /// Lines with an owned sector.
    pub fn len(&self) -> usize {
        self.lines.len() - self.free.len()
    }

    /// Whether no sector has an owner.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn new_entry(&mut self, line: u64) -> usize {
        if self.free.is_empty() {
            self.grow();
        }
        let entry = self.free.pop().unwrap_or_default() as usize;
        self.lines[entry] = line;
        self.table.insert(line, entry);
        entry
    }

    /// Doubles the capacity, keeping every entry where it is.
    fn grow(&mut self) {
        let old = self.lines.len();
        let capacity = old * 2;
        self.owners.resize(capacity * self.sectors_per_line, NONE);
        self.lines.resize(capacity, 0);
        self.free.extend((old as u32..capacity as u32).rev());
        let mut table = LineTable::new(capacity);
        for entry in 0..old {
            if self.owners(entry).iter().any(|&o| o != NONE) {
                table.insert(self.lines[entry], entry);
            }
        }
        self.table = table;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn owners(r: &OwnerRegistry, line: u64, except: u32) -> Vec<(u32, u32)> {
        let mut found = Vec::new();
        r.owners_of(line, u32::MAX, except, |o, s| found.push((o, s)));
        found
    }

    #[test]
    fn registering_revokes_the_previous_owners_of_those_sectors_only() {
        let mut r = OwnerRegistry::new(4, 2);
        let mut revoked = Vec::new();
        r.register(7, 0b0011, 1, |o, s| revoked.push((o, s)));
        assert!(revoked.is_empty());
        r.register(7, 0b0100, 2, |o, s| revoked.push((o, s)));
        assert!(revoked.is_empty(), "sector 2 had no owner");
        assert_eq!(owners(&r, 7, u32::MAX), [(1, 0b0011), (2, 0b0100)]);
        // SM 3 takes sectors 1 and 2: SM 1 loses sector 1, SM 2 sector 2.
        r.register(7, 0b0110, 3, |o, s| revoked.push((o, s)));
        assert_eq!(revoked, [(1, 0b0010), (2, 0b0100)]);
        assert_eq!(owners(&r, 7, u32::MAX), [(1, 0b0001), (3, 0b0110)]);
        assert_eq!(owners(&r, 7, 3), [(1, 0b0001)], "the asker's own sectors are left out");
        // Re-registering what one owns revokes nothing.
        revoked.clear();
        r.register(7, 0b0110, 3, |o, s| revoked.push((o, s)));
        assert!(revoked.is_empty());
    }

    #[test]
    fn a_write_back_releases_only_what_its_sender_still_owns_and_frees_the_entry() {
        let mut r = OwnerRegistry::new(4, 2);
        r.register(9, 0b1111, 1, |_, _| {});
        r.register(9, 0b1000, 2, |_, _| {});
        // SM 1's write-back of the whole line arrives after SM 2 took sector 3.
        r.release(9, 0b1111, 1);
        assert_eq!(owners(&r, 9, u32::MAX), [(2, 0b1000)]);
        assert_eq!(r.len(), 1);
        r.release(9, 0b1000, 2);
        assert!(r.is_empty());
        assert!(owners(&r, 9, u32::MAX).is_empty());
    }

    #[test]
    fn more_lines_than_its_capacity_grow_it_without_losing_any() {
        let mut r = OwnerRegistry::new(1, 2);
        for line in 0..50u64 {
            r.register(line * 1024, 1, line as u32, |_, _| {});
        }
        assert_eq!(r.len(), 50);
        for line in 0..50u64 {
            assert_eq!(owners(&r, line * 1024, u32::MAX), [(line as u32, 1)]);
        }
    }
}
