//! CIAO's shared-memory cache (`ciao.md` §4.2): a direct-mapped cache of `lines` 128-byte
//! lines, with its tags, in the part of the SM's shared memory that the resident blocks leave
//! unused, serving the global loads of the warps a policy has isolated.
//!
//! Its lines are slots appended to the L1's tag array, so it shares the L1's MSHRs, miss
//! queue and fill path for free: a miss reserves its slot and takes an MSHR that points at it,
//! and the reply fills it as it fills an L1 way. What it does not share is the lookup: a line's
//! slot is `line mod lines` (the paper's translation unit: no hash) or, with
//! [`SmcIndex::XorFold`], that index with the higher bits of the line folded in.
//!
//! A redirected load, per line request:
//! - in its slot with every sector valid: a hit, one cycle later than an L1 hit (the L1's tags
//!   are checked first);
//! - in its slot, in flight or partly valid: merged into the fetch, or the missing sectors
//!   fetched, as the L1 does;
//! - valid in the L1 and not in flight there: *migrated*: the L1's copy moves into the slot
//!   (pushing out what it held) and leaves the L1, with no request to L2, so each line has one
//!   copy as the paper requires;
//! - in flight in the L1: merged into the L1's fetch (the data arrives in the L1);
//! - otherwise a miss: the slot is reserved (pushing out a valid line), an MSHR taken, a miss
//!   request queued. A slot already reserved for another line turns the load away, as a set
//!   with every way reserved does; or, with [`SmcSettings::bypass_busy_slot`], the load goes to
//!   L2 without a slot (the paper does not say which).
//!
//! Stores and atomics (of any warp) drop the line from the slot too, as the L1's write-evict
//! policy drops it there. By default loads of warps that are not isolated never look at it, so
//! a line can be in both (a read-only copy), which the stores keep coherent (`ciao.md` §4.2).
//! With [`SmcSettings::exclusive_copies`] the rule holds both ways (§9 #17): such a load that
//! misses in the L1 but finds its line valid in the shared-memory cache moves it back into the
//! L1 (pushing out the way's line, with no request to L2).

use super::{Evicted, FailReason, L1Cache, L1Outcome, Provenance, Requester, Way, EMPTY_WAY, NO_MSHR, NO_WAY};

/// Where a line goes in the shared-memory cache (`ciao.md` §9 #13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SmcIndex {
    /// `line mod lines`, as the paper's address translation has it.
    #[default]
    Linear,
    /// The line's higher bits folded in by XOR first: `(L ^ L >> b ^ L >> 2b) mod lines`, with
    /// `b = log2(lines)`.
    XorFold,
}

/// How a policy that redirects loads wants its shared-memory cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmcSettings {
    /// Only a power of two of lines (the paper's row mask), or every line that fits.
    pub power_of_two: bool,
    /// The index.
    pub index: SmcIndex,
    /// Cycles a hit takes beyond an L1 hit.
    pub extra_latency: u32,
    /// A load whose slot is reserved for another line's fetch goes to L2 without allocating,
    /// rather than waiting for the slot.
    pub bypass_busy_slot: bool,
    /// Resized whenever a block arrives or leaves, to the shared memory unused then (each
    /// resize starts it empty: the index changes with the size), rather than once per kernel
    /// run for the most blocks that fit (`ciao.md` §9 #14).
    pub dynamic: bool,
    /// A line is in the L1 or here, never both: a load through the L1 that finds its line here
    /// moves it back, as an isolated warp's load moves a line out of the L1 (§9 #17).
    pub exclusive_copies: bool,
}

impl SmcSettings {
    /// The lines that fit in `unused` bytes of shared memory, at 128 bytes of data and 4 of tag
    /// each (two 31-bit tags to an 8-byte bank word), at most 512 (the translation unit's 9
    /// index bits).
    pub fn lines_in(&self, unused: u32, line_bytes: u32) -> u32 {
        let fit = (unused / (line_bytes + 4)).min(512);
        if self.power_of_two && fit > 0 {
            1 << fit.ilog2()
        } else {
            fit
        }
    }
}

/// The shared-memory cache as it is now: its size and the settings it was given.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Smc {
    /// Lines in use now (0: none).
    lines: u32,
    settings: SmcSettings,
}

impl L1Cache {
    /// Lines of the shared-memory cache (0: none).
    pub fn smc_lines(&self) -> u32 {
        self.smc.lines
    }

    /// Per line of the shared-memory cache, in slot order: the warp slot it holds data for
    /// (`None` while it holds none), for views.
    pub fn smc_owners(&self) -> impl Iterator<Item = Option<u32>> + '_ {
        let base = self.l1_ways();
        let lines = self.lines.get(base..base + self.smc.lines as usize).unwrap_or(&[]);
        lines.iter().map(|w| (w.valid != 0).then_some(w.owner))
    }

    /// Gives the shared-memory cache `lines` lines as `settings` ask, dropping every line it
    /// held (a fetch in flight still wakes its requests but leaves nothing behind). Called when
    /// a kernel's blocks start arriving on the SM, never in the cycle loop: it may allocate.
    pub fn set_smc(&mut self, lines: u32, settings: &SmcSettings) {
        let base = self.l1_ways();
        for i in base..self.lines.len() {
            self.lines.drop_data(i);
        }
        // Never shrink: a reserved slot past the new size still has its fill to come.
        if self.lines.len() < base + lines as usize {
            self.lines.resize(base + lines as usize, EMPTY_WAY);
            self.provenance.resize(base + lines as usize, Provenance::default());
        }
        self.smc = Smc { lines, settings: *settings };
    }

    /// The tag-array index of `line`'s slot. Requires a shared-memory cache.
    fn smc_slot(&self, line: u64) -> usize {
        let lines = self.smc.lines as u64;
        let index = match self.smc.settings.index {
            SmcIndex::Linear => line % lines,
            SmcIndex::XorFold => {
                let bits = lines.max(2).ilog2();
                (line ^ (line >> bits) ^ (line >> (2 * bits))) % lines
            }
        };
        self.l1_ways() + index as usize
    }

    /// A store or atomic wrote `line`: a copy in the shared-memory cache with no fetch in flight
    /// is dropped.
    pub(super) fn smc_drop(&mut self, line: u64) {
        if self.smc.lines == 0 {
            return;
        }
        let i = self.smc_slot(line);
        let w = self.lines[i];
        if w.line == line && w.valid != 0 && !w.reserved() {
            self.lines.set(i, EMPTY_WAY);
        }
    }

    /// With exclusive copies, the slot holding `line` valid in every sector of `sectors` with no
    /// fetch in flight, which a load through the L1 that misses there takes back.
    pub(super) fn smc_returnable(&self, line: u64, sectors: u32) -> Option<usize> {
        if !self.smc.settings.exclusive_copies || self.smc.lines == 0 {
            return None;
        }
        let i = self.smc_slot(line);
        let w = self.lines[i];
        (w.line == line && sectors & !w.valid == 0 && !w.reserved()).then_some(i)
    }

    /// Whether the shared-memory cache may hand `line` back to a load through the L1, for
    /// [`L1Cache::load_doomed`]: such a load needs no MSHR.
    pub(super) fn smc_may_return(&self, line: u64) -> bool {
        self.smc_returnable(line, 0).is_some()
    }

    /// A load through the L1 missed there and slot `from` holds its line (see
    /// [`L1Cache::smc_returnable`]): the line moves into a way of the set at `base`, the least
    /// recently used one with no fetch in flight, owned from now on by `who`.
    pub(super) fn return_from_smc(&mut self, base: usize, from: usize, line: u64, who: Requester) -> L1Outcome {
        let Some(victim) = self.victim_in(base) else { return self.fail(FailReason::LineAlloc) };
        if !self.room_to_take(victim, 0) {
            return self.fail(FailReason::MissQueue);
        }
        let copy = self.lines[from];
        self.lines.set(from, EMPTY_WAY);
        let evicted = self.take_way(victim, line, copy.valid, NO_MSHR, who);
        self.stats.smc_returns += 1;
        L1Outcome::ReturnedFromSmc { evicted, moved: Evicted { line, owner: copy.owner } }
    }

    /// A load of an isolated warp (see the module's description); without a shared-memory
    /// cache, an ordinary load.
    pub fn load_redirected(&mut self, line: u64, sectors: u32, who: Requester, kernel: u32) -> L1Outcome {
        if self.smc.lines == 0 || self.sets == 0 {
            let set = self.set_of(line);
            return self.access_in(set, line, sectors, super::RequestKind::Load, who, kernel, 1);
        }
        self.requester = kernel;
        let i = self.smc_slot(line);
        let slot = self.lines[i];
        if slot.line == line && slot.present() {
            let missing = sectors & !slot.valid;
            if missing == 0 {
                self.stats.smc_hits += 1;
                return L1Outcome::SmcHit { owner: slot.owner };
            }
            if slot.reserved() {
                return self.join_mshr(slot.mshr as usize, Some(i), line, missing, who);
            }
            // Valid but missing sectors, nothing in flight: fetch them into the slot.
            if self.no_mshr_for_requester() {
                return self.fail(FailReason::MshrEntry);
            }
            if self.miss_queue_full() {
                return self.fail(FailReason::MissQueue);
            }
            let mshr = self.allocate_mshr(line, i as u32, missing, who.token);
            self.lines.update(i, |w| w.mshr = mshr);
            self.queue(line, missing, super::RequestKind::Load, mshr);
            self.stats.sector_misses += 1;
            return L1Outcome::SectorMiss;
        }
        if slot.reserved() && !self.smc.settings.bypass_busy_slot {
            return self.fail(FailReason::LineAlloc);
        }
        let evicted = (slot.valid != 0).then_some(Evicted { line: slot.line, owner: slot.owner });
        if let Some(j) = self.find(line) {
            let copy = self.lines[j];
            if copy.reserved() {
                // In flight in the L1: served there, as an L1 load would be.
                return self.load_present(j, line, sectors, who);
            }
            if sectors & !copy.valid == 0 && copy.owned != 0 {
                // DeNovo: owned data stays in the L1 (the shared-memory cache owns nothing).
                return self.load_present(j, line, sectors, who);
            }
            if sectors & !copy.valid == 0 {
                // Migrate: the L1's copy moves into the slot.
                self.empty_way(j, line);
                self.install(i, line, copy.valid, NO_MSHR, who);
                self.stats.smc_migrations += 1;
                return L1Outcome::Migrated { evicted, moved: Evicted { line, owner: copy.owner } };
            }
        }
        if self.no_mshr_for_requester() {
            return self.fail(FailReason::MshrEntry);
        }
        if self.miss_queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        if slot.reserved() {
            // The slot is busy: fetch without one (merged into a fetch of the line if any).
            if let Some(m) = self.mshr_of_line(line) {
                return self.join_mshr(m, None, line, sectors, who);
            }
            let mshr = self.allocate_mshr(line, NO_WAY, sectors, who.token);
            self.queue(line, sectors, super::RequestKind::Load, mshr);
            self.stats.smc_misses += 1;
            return L1Outcome::SmcMiss { evicted: None };
        }
        let mshr = self.allocate_mshr(line, i as u32, sectors, who.token);
        self.install(i, line, 0, mshr, who);
        self.queue(line, sectors, super::RequestKind::Load, mshr);
        self.stats.smc_misses += 1;
        L1Outcome::SmcMiss { evicted }
    }

    /// Puts `line` in slot `i` for `who`, with `valid` sectors and fetch `mshr`.
    fn install(&mut self, i: usize, line: u64, valid: u32, mshr: u32, who: Requester) {
        self.clock += 1;
        self.lines.set(i, Way { line, stamp: self.clock, valid, owner: who.slot, mshr, ..EMPTY_WAY });
        self.provenance[i] = Provenance { warp: who.warp, lanes: who.lanes };
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{config, fill as fill_one, pop as pop_one, who, ALL};
    use super::super::RequestKind;
    use super::*;

    /// The test L1 (4 sets × 2 ways) with a shared-memory cache of 4 lines, linear.
    fn l1() -> L1Cache {
        let mut l1 = L1Cache::new(&crate::config::L1Config { mshr_entries: 8, miss_queue_entries: 8, ..config() });
        l1.set_smc(4, &settings(SmcIndex::Linear));
        l1
    }

    /// The notes' defaults with `index`.
    fn settings(index: SmcIndex) -> SmcSettings {
        SmcSettings {
            power_of_two: true,
            index,
            extra_latency: 1,
            bypass_busy_slot: false,
            dynamic: false,
            exclusive_copies: false,
        }
    }

    #[test]
    fn sizes_follow_the_unused_shared_memory() {
        let pow2 = settings(SmcIndex::Linear);
        let max = SmcSettings { power_of_two: false, ..pow2 };
        // The notes' table (§4.2): F_smem 0 %, 13 %, 33 %, 50 % of 48 KB.
        for (unused, p2, all) in [(49152, 256, 372), (42762, 256, 323), (32931, 128, 249), (24576, 128, 186)] {
            assert_eq!((pow2.lines_in(unused, 128), max.lines_in(unused, 128)), (p2, all), "{unused} bytes");
        }
        assert_eq!(pow2.lines_in(100, 128), 0, "not one line fits");
        assert_eq!(max.lines_in(1 << 20, 128), 512, "the index has 9 bits");
    }

    #[test]
    fn a_miss_fills_its_slot_and_the_next_load_hits_there_not_in_the_l1() {
        let mut l1 = l1();
        assert_eq!(l1.load_redirected(9, ALL, who(2, 7), 0), L1Outcome::SmcMiss { evicted: None });
        assert_eq!(pop_one(&mut l1), Some((9, ALL, RequestKind::Load)));
        assert_eq!(l1.load_redirected(9, ALL, who(2, 8), 0), L1Outcome::HitReserved, "merged while in flight");
        assert_eq!(fill_one(&mut l1, 9, ALL), [7, 8]);
        assert_eq!(l1.load_redirected(9, ALL, who(3, 9), 0), L1Outcome::SmcHit { owner: 2 });
        assert!(
            matches!(l1.access(9, ALL, RequestKind::Load, 1, 10), L1Outcome::Miss { .. }),
            "an L1 load does not look there"
        );
        let s = l1.stats();
        assert_eq!((s.smc_hits, s.smc_misses, s.misses, s.hits), (1, 1, 1, 0));
    }

    #[test]
    fn direct_mapped_lines_push_each_other_out_by_line_mod_size() {
        let mut l1 = l1();
        l1.load_redirected(1, ALL, who(2, 0), 0);
        pop_one(&mut l1);
        fill_one(&mut l1, 1, ALL);
        assert_eq!(
            l1.load_redirected(5, ALL, who(3, 1), 0),
            L1Outcome::SmcMiss { evicted: Some(Evicted { line: 1, owner: 2 }) },
            "5 mod 4 = 1 mod 4"
        );
        assert_eq!(l1.load_redirected(9, ALL, who(3, 2), 0), L1Outcome::ReservationFail(FailReason::LineAlloc));
        assert_eq!(l1.load_redirected(2, ALL, who(3, 3), 0), L1Outcome::SmcMiss { evicted: None }, "another slot");
    }

    #[test]
    fn with_the_switch_a_load_to_a_busy_slot_goes_to_l2_without_one() {
        let mut l1 = l1();
        l1.set_smc(4, &SmcSettings { bypass_busy_slot: true, ..settings(SmcIndex::Linear) });
        assert_eq!(l1.load_redirected(1, ALL, who(2, 0), 0), L1Outcome::SmcMiss { evicted: None });
        assert_eq!(l1.load_redirected(5, ALL, who(3, 1), 0), L1Outcome::SmcMiss { evicted: None }, "slot 1 is busy");
        assert_eq!(l1.load_redirected(5, ALL, who(3, 2), 0), L1Outcome::HitReserved, "merged into that fetch");
        while pop_one(&mut l1).is_some() {}
        assert_eq!(fill_one(&mut l1, 5, ALL), [1, 2]);
        assert_eq!(fill_one(&mut l1, 1, ALL), [0]);
        assert_eq!(
            l1.load_redirected(5, ALL, who(3, 3), 0),
            L1Outcome::SmcMiss { evicted: Some(Evicted { line: 1, owner: 2 }) },
            "line 5 was never kept: the slot is line 1's"
        );
    }

    #[test]
    fn a_line_valid_in_the_l1_migrates_without_a_request() {
        let mut l1 = l1();
        assert!(matches!(l1.access(6, ALL, RequestKind::Load, 0, 0), L1Outcome::Miss { .. }));
        pop_one(&mut l1);
        fill_one(&mut l1, 6, ALL);
        assert_eq!(
            l1.load_redirected(6, ALL, who(2, 1), 0),
            L1Outcome::Migrated { evicted: None, moved: Evicted { line: 6, owner: 0 } }
        );
        assert_eq!(pop_one(&mut l1), None, "nothing asked of L2");
        assert_eq!(l1.load_redirected(6, ALL, who(2, 2), 0), L1Outcome::SmcHit { owner: 2 });
        assert!(matches!(l1.access(6, ALL, RequestKind::Load, 0, 3), L1Outcome::Miss { .. }), "it left the L1");
    }

    #[test]
    fn a_line_in_flight_in_the_l1_is_merged_there() {
        let mut l1 = l1();
        l1.access(6, ALL, RequestKind::Load, 0, 0);
        assert_eq!(l1.load_redirected(6, ALL, who(2, 1), 0), L1Outcome::HitReserved);
        pop_one(&mut l1);
        assert_eq!(fill_one(&mut l1, 6, ALL), [0, 1]);
    }

    #[test]
    fn stores_drop_the_copy_and_kernel_boundaries_empty_the_cache() {
        let mut l1 = l1();
        for line in [1, 2] {
            l1.load_redirected(line, ALL, who(2, 0), 0);
            pop_one(&mut l1);
            fill_one(&mut l1, line, ALL);
        }
        assert_eq!(l1.access(1, ALL, RequestKind::Store, 0, 0), L1Outcome::Forwarded);
        pop_one(&mut l1);
        assert_eq!(l1.load_redirected(1, ALL, who(2, 0), 0), L1Outcome::SmcMiss { evicted: None });
        assert_eq!(l1.load_redirected(2, ALL, who(2, 0), 0), L1Outcome::SmcHit { owner: 2 });
        l1.invalidate_all();
        assert_eq!(l1.load_redirected(2, ALL, who(2, 0), 0), L1Outcome::SmcMiss { evicted: None });
    }

    #[test]
    fn xor_folding_spreads_a_power_of_two_stride() {
        // A warp's 32 rows of 16 KB (128 lines apart) in a 256-line cache: the linear index
        // puts them in 2 slots (the notes' §4.6), the folded one in 32.
        let mut l1 = l1();
        let distinct = |l1: &L1Cache| {
            let mut slots: alloc::vec::Vec<usize> = (0..32u64).map(|k| l1.smc_slot(k * 128)).collect();
            slots.sort_unstable();
            slots.dedup();
            slots.len()
        };
        l1.set_smc(256, &settings(SmcIndex::Linear));
        assert_eq!(distinct(&l1), 2);
        l1.set_smc(256, &settings(SmcIndex::XorFold));
        assert_eq!(distinct(&l1), 32);
    }

    /// Line 9 (the L1's set 1, slot 1 here) brought into the shared-memory cache by warp 2,
    /// with copies exclusive both ways.
    fn exclusive_with_line_9_redirected() -> L1Cache {
        let mut l1 = l1();
        l1.set_smc(4, &SmcSettings { exclusive_copies: true, ..settings(SmcIndex::Linear) });
        assert_eq!(l1.load_redirected(9, ALL, who(2, 0), 0), L1Outcome::SmcMiss { evicted: None });
        pop_one(&mut l1);
        fill_one(&mut l1, 9, ALL);
        l1
    }

    #[test]
    fn with_exclusive_copies_a_load_through_the_l1_takes_its_line_back() {
        let mut l1 = exclusive_with_line_9_redirected();
        for line in [1, 5] {
            l1.access(line, ALL, RequestKind::Load, 0, 1);
            pop_one(&mut l1);
            fill_one(&mut l1, line, ALL);
        }
        // Set 1 holds 1 and 5, line 1 the least recently used: it makes room.
        assert_eq!(
            l1.access(9, ALL, RequestKind::Load, 3, 2),
            L1Outcome::ReturnedFromSmc {
                evicted: Some(Evicted { line: 1, owner: 0 }),
                moved: Evicted { line: 9, owner: 2 }
            }
        );
        assert_eq!(pop_one(&mut l1), None, "nothing asked of L2");
        assert!(matches!(l1.access(9, ALL, RequestKind::Load, 3, 3), L1Outcome::Hit { owner: 3, .. }));
        assert_eq!(
            l1.load_redirected(9, ALL, who(2, 4), 0),
            L1Outcome::Migrated { evicted: None, moved: Evicted { line: 9, owner: 3 } },
            "it had left the shared-memory cache, and moves there again"
        );
        let s = l1.stats();
        assert_eq!((s.smc_returns, s.smc_migrations, s.evictions, s.hits), (1, 1, 1, 1));
        assert_eq!(s.accesses, 2 + 1, "two misses and a hit: the moves either way are not L1 accesses");
    }

    #[test]
    fn with_exclusive_copies_a_set_all_in_flight_turns_the_move_back_away() {
        let mut l1 = exclusive_with_line_9_redirected();
        for line in [1, 5] {
            assert!(matches!(l1.access(line, ALL, RequestKind::Load, 0, 1), L1Outcome::Miss { .. }));
        }
        assert_eq!(l1.access(9, ALL, RequestKind::Load, 3, 2), L1Outcome::ReservationFail(FailReason::LineAlloc));
        assert_eq!(l1.load_redirected(9, ALL, who(2, 3), 0), L1Outcome::SmcHit { owner: 2 }, "still there");
    }

    #[test]
    fn with_exclusive_copies_a_line_to_move_back_is_not_doomed_by_full_mshrs() {
        let mut l1 = exclusive_with_line_9_redirected();
        // Take every MSHR with lines of other sets and slots: six in the L1's sets 0, 2 and 3,
        // two in the shared-memory cache's slots 0 and 2.
        for line in [0, 4, 2, 6, 3, 7] {
            assert!(matches!(l1.access(line, ALL, RequestKind::Load, 0, 1), L1Outcome::Miss { .. }));
        }
        for line in [12, 14] {
            assert_eq!(l1.load_redirected(line, ALL, who(2, 1), 0), L1Outcome::SmcMiss { evicted: None });
        }
        assert_eq!(l1.mshrs_in_use(), 8);
        assert_eq!(l1.load_doomed(l1.set_of(13), 13), Some(FailReason::MshrEntry), "an absent line needs one");
        assert_eq!(l1.load_doomed(l1.set_of(9), 9), None);
        assert!(matches!(l1.access(9, ALL, RequestKind::Load, 3, 2), L1Outcome::ReturnedFromSmc { .. }));
    }

    #[test]
    fn without_a_shared_memory_cache_a_redirected_load_is_an_ordinary_one() {
        let mut l1 = L1Cache::new(&config());
        assert!(matches!(l1.load_redirected(3, ALL, who(2, 0), 0), L1Outcome::Miss { .. }));
    }
}
