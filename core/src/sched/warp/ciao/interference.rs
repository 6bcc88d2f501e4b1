//! CIAO's interference detector (`ciao.md` §4.1): which warp's misses push out whose lines.
//!
//! The victim tags of each warp slot (8 a warp, fully associative, FIFO: half of CCWS's) keep
//! the lines the warp brought in and lost, each with the warp whose miss evicted it. A miss of
//! warp *i* on one of its own victim tags is a VTA hit: *i*'s hit count goes up, and *i*'s
//! entry in the interference list, a warp id with a 2-bit saturating counter, moves towards the
//! evictor the tag names: the counter climbs while the same warp keeps evicting *i*'s lines and
//! falls when another does, and the entry changes hands only once it is down to zero.
//!
//! Eq. 1's individual re-reference score, `IRS_i = VTA hits_i / (instructions / active warps)`,
//! is compared with a cutoff in integers: `IRS_i > c / 10 000` exactly when
//! `hits_i × active × 10 000 > c × instructions`. Algorithm 1 writes the division the other way
//! round (`hits / instructions / active`), under which a 1 % cutoff is out of reach; that
//! reading is a switch (§9 #1).

use alloc::vec;
use alloc::vec::Vec;

use super::super::victim_tags::VictimTags;

/// How IRS is worked out from the counts (§9 #1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrsFormula {
    /// Eq. 1: hits × active warps / instructions.
    Eq1,
    /// Algorithm 1's line: hits / instructions / active warps.
    Alg1,
}

/// When the interference list's entry changes to a new evictor (§9 #8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IlReplace {
    /// An evictor other than the listed one replaces it when the counter is already 0.
    AtZero,
    /// It replaces it in the same step that brings the counter down to 0.
    OnReachingZero,
}

/// The interference list's entry of one warp: its most frequent recent evictor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListEntry {
    /// The evictor's warp slot (the warp's own slot: none yet, or itself).
    pub wid: u16,
    /// The 2-bit saturating counter.
    pub counter: u8,
}

/// Tags, counts and the interference list of one SM.
#[derive(Clone, Debug)]
pub struct Interference {
    tags: VictimTags,
    /// VTA hits per warp slot.
    hits: Vec<u64>,
    list: Vec<ListEntry>,
    replace: IlReplace,
    record_self: bool,
    /// Whether a VTA hit drops its tag (§9 #18; off: the tag stays).
    drop_on_hit: bool,
    total_hits: u64,
}

impl Interference {
    /// A detector with `entries` victim tags a warp, for no slot yet.
    pub fn new(entries: u32, replace: IlReplace, record_self: bool, drop_on_hit: bool) -> Self {
        Interference {
            tags: VictimTags::new(entries, entries),
            hits: Vec::new(),
            list: Vec::new(),
            replace,
            record_self,
            drop_on_hit,
            total_hits: 0,
        }
    }

    /// Sizes everything for `slots` warp slots, all empty.
    pub fn attach(&mut self, slots: usize) {
        self.tags.attach(slots);
        self.hits = vec![0; slots];
        self.list = (0..slots as u16).map(|wid| ListEntry { wid, counter: 0 }).collect();
        self.total_hits = 0;
    }

    /// A kernel starts: every warp's count, list entry and tag goes (§4.5); the SM's total of
    /// VTA hits, which the report shows, stays.
    pub fn reset(&mut self) {
        let total = self.total_hits;
        self.attach(self.hits.len());
        self.total_hits = total;
    }

    /// A new warp takes `slot`: its tags and list entry start empty; its hit count stays with
    /// the slot unless `reset_hits` (§9 #19).
    pub fn admit(&mut self, slot: usize, reset_hits: bool) {
        self.tags.clear(slot);
        if let Some(entry) = self.list.get_mut(slot) {
            *entry = ListEntry { wid: slot as u16, counter: 0 };
        }
        if reset_hits {
            if let Some(h) = self.hits.get_mut(slot) {
                *h = 0;
            }
        }
    }

    /// Warp `by`'s miss pushed out `line`, which warp `owner` had brought in.
    pub fn evicted(&mut self, line: u64, owner: usize, by: u16) {
        self.tags.insert(owner, line, by);
    }

    /// A store or an atomic wrote `line`: the L1 drops written global data, which is no lost
    /// locality, so no warp's tags keep it (as CCWS does).
    pub fn written(&mut self, line: u64) {
        self.tags.invalidate(line);
    }

    /// Warp `slot` missed `line` (a true miss): on a VTA hit, counts it, moves the list entry
    /// towards the evictor and returns the evictor.
    pub fn missed(&mut self, slot: usize, line: u64) -> Option<u16> {
        let evictor = self.tags.evictor_of(slot, line)?;
        self.hits[slot] += 1;
        self.total_hits += 1;
        if self.drop_on_hit {
            self.tags.remove(slot, line);
        }
        if evictor as usize != slot || self.record_self {
            self.update_list(slot, evictor);
        }
        Some(evictor)
    }

    /// Fig. 4c's update of `slot`'s entry for a loss to `evictor`.
    fn update_list(&mut self, slot: usize, evictor: u16) {
        let entry = &mut self.list[slot];
        if entry.wid == evictor {
            entry.counter = (entry.counter + 1).min(3);
        } else if entry.counter > 1 || (entry.counter == 1 && self.replace == IlReplace::AtZero) {
            entry.counter -= 1;
        } else {
            *entry = ListEntry { wid: evictor, counter: 0 };
        }
    }

    /// `slot`'s entry in the interference list.
    pub fn entry(&self, slot: usize) -> ListEntry {
        self.list[slot]
    }

    /// `slot`'s VTA hits.
    pub fn hits(&self, slot: usize) -> u64 {
        self.hits[slot]
    }

    /// VTA hits of every warp since the SM started (the report's count).
    pub fn total_hits(&self) -> u64 {
        self.total_hits
    }

    /// Clears every slot's hit count (a new counting window, §9 #3).
    pub fn clear_hits(&mut self) {
        self.hits.iter_mut().for_each(|h| *h = 0);
    }
}

/// Whether `hits` VTA hits over `instructions` with `active` warps make an IRS above
/// `cutoff` ten-thousandths, read as `formula` says; no instructions yet: IRS 0.
pub fn irs_above(formula: IrsFormula, hits: u64, instructions: u64, active: u64, cutoff: u64) -> bool {
    if instructions == 0 {
        return false;
    }
    let (hits, instructions, active, cutoff) = (hits as u128, instructions as u128, active as u128, cutoff as u128);
    match formula {
        IrsFormula::Eq1 => hits * active * 10_000 > cutoff * instructions,
        IrsFormula::Alg1 => hits * 10_000 > cutoff * instructions * active,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detector(replace: IlReplace, record_self: bool) -> Interference {
        let mut d = Interference::new(8, replace, record_self, false);
        d.attach(4);
        d
    }

    #[test]
    fn a_miss_on_an_own_victim_counts_and_names_the_evictor() {
        let mut d = detector(IlReplace::AtZero, true);
        d.evicted(40, 0, 2);
        assert_eq!(d.missed(1, 40), None, "warp 1 never had line 40");
        assert_eq!(d.missed(0, 40), Some(2));
        assert_eq!((d.hits(0), d.hits(1), d.total_hits()), (1, 0, 1));
        assert_eq!(d.entry(0), ListEntry { wid: 2, counter: 0 }, "the entry was {{0, 0}}: replaced");
        assert_eq!(d.missed(0, 40), Some(2), "the tag stays after a hit");
        assert_eq!(d.entry(0), ListEntry { wid: 2, counter: 1 });
    }

    #[test]
    fn the_list_counter_saturates_and_the_entry_changes_hands_only_at_zero() {
        let mut d = detector(IlReplace::AtZero, true);
        d.evicted(40, 0, 2);
        for _ in 0..6 {
            d.missed(0, 40);
        }
        assert_eq!(d.entry(0), ListEntry { wid: 2, counter: 3 }, "saturates at 3");
        d.evicted(40, 0, 3);
        let steps: Vec<ListEntry> = (0..4).map(|_| (d.missed(0, 40), d.entry(0)).1).collect();
        let expected = [(2, 2), (2, 1), (2, 0), (3, 0)].map(|(wid, counter)| ListEntry { wid, counter });
        assert_eq!(steps, expected, "three losses to warp 3 bring the counter down; the fourth replaces");
        // The other reading: the step that reaches zero replaces.
        let mut d = detector(IlReplace::OnReachingZero, true);
        d.evicted(40, 0, 2);
        d.missed(0, 40);
        d.missed(0, 40);
        d.evicted(40, 0, 3);
        d.missed(0, 40);
        assert_eq!(d.entry(0), ListEntry { wid: 3, counter: 0 }, "1 → 0 replaces at once");
    }

    #[test]
    fn self_evictions_count_and_reach_the_list_unless_switched_off() {
        for record_self in [true, false] {
            let mut d = detector(IlReplace::AtZero, record_self);
            d.evicted(40, 0, 2);
            d.missed(0, 40);
            d.missed(0, 40);
            d.evicted(40, 0, 0);
            d.missed(0, 40);
            d.missed(0, 40);
            d.missed(0, 40);
            assert_eq!(d.hits(0), 5, "every VTA hit counts");
            let entry = d.entry(0);
            if record_self {
                // 1 → 0, then warp 0 replaces warp 2, then its counter climbs.
                assert_eq!(entry, ListEntry { wid: 0, counter: 1 });
            } else {
                assert_eq!(entry, ListEntry { wid: 2, counter: 1 }, "self-evictions leave the list alone");
            }
        }
    }

    #[test]
    fn a_new_warp_starts_with_an_empty_entry_and_tags_but_the_slot_keeps_its_count() {
        let mut d = detector(IlReplace::AtZero, true);
        d.evicted(40, 1, 2);
        d.missed(1, 40);
        d.admit(1, false);
        assert_eq!(d.entry(1), ListEntry { wid: 1, counter: 0 });
        assert_eq!(d.missed(1, 40), None, "its tags are gone");
        assert_eq!(d.hits(1), 1, "the count stays with the slot (the paper)");
        d.admit(1, true);
        assert_eq!(d.hits(1), 0, "counted per warp: starts again");
    }

    #[test]
    fn a_kernel_start_clears_the_warps_counts_but_not_the_sms_total() {
        let mut d = detector(IlReplace::AtZero, true);
        d.evicted(40, 0, 2);
        d.missed(0, 40);
        d.reset();
        assert_eq!((d.hits(0), d.entry(0), d.missed(0, 40)), (0, ListEntry { wid: 0, counter: 0 }, None));
        assert_eq!(d.total_hits(), 1, "the report counts every kernel's hits");
    }

    #[test]
    fn eq1_reaches_the_cutoff_where_algorithm_1_does_not() {
        // The notes' §4.6: 48 warps, 5000 instructions: a 1 % cutoff needs more than
        // 5000 / 4800 hits, so 2.
        assert!(!irs_above(IrsFormula::Eq1, 1, 5000, 48, 100));
        assert!(irs_above(IrsFormula::Eq1, 2, 5000, 48, 100));
        // The toy (§10): 1 hit, 12 instructions, 3 warps: 0.25 > 0.2; Algorithm 1: 0.028.
        assert!(irs_above(IrsFormula::Eq1, 1, 12, 3, 2000));
        assert!(!irs_above(IrsFormula::Alg1, 1, 12, 3, 2000));
        assert!(irs_above(IrsFormula::Alg1, 1, 12, 3, 277) && !irs_above(IrsFormula::Alg1, 1, 12, 3, 278));
        // Exactly at the cutoff is not above it (6 / 60 = 0.1).
        assert!(!irs_above(IrsFormula::Eq1, 2, 60, 3, 1000));
        assert!(!irs_above(IrsFormula::Eq1, 5, 0, 3, 1), "no instructions: IRS 0");
    }
}
