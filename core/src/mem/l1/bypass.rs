//! Loads that may use the L1 but never allocate in it: the warps of statPCAL that hold no
//! token (`ciao.md` §3.6, after Li et al., HPCA 2015). Such a load
//! - hits a valid line like any load (the hit refreshes the line's LRU stamp);
//! - joins the fetch of a line already in flight, in the L1 or in a fetch without a way;
//! - otherwise takes an MSHR with no way and a miss-queue entry: the reply answers the load and
//!   is not written into the L1, so the token warps' lines stay.
//!
//! It shares the L1's MSHRs and miss queue, and fails for them as any load does.

use super::{L1Cache, L1Outcome, RequestKind, Requester};

impl L1Cache {
    /// A load of `line` by `who` (kernel run `kernel`) that does not allocate; without an L1,
    /// an ordinary load.
    pub fn load_bypassing(&mut self, line: u64, sectors: u32, who: Requester, kernel: u32) -> L1Outcome {
        if self.sets == 0 {
            let set = self.set_of(line);
            return self.access_in(set, line, sectors, RequestKind::Load, who, kernel, 1);
        }
        self.requester = kernel;
        let outcome = self.bypass(line, sectors, who);
        if !matches!(outcome, L1Outcome::ReservationFail(_)) {
            self.stats.accesses += 1;
        }
        outcome
    }

    fn bypass(&mut self, line: u64, sectors: u32, who: Requester) -> L1Outcome {
        if let Some(i) = self.find(line) {
            let way = self.lines[i];
            if sectors & !way.valid == 0 || way.reserved() {
                // A hit, or merged into the line's fetch (its missing sectors requested there).
                return self.load_present(i, line, sectors, who);
            }
        }
        // Otherwise as without an L1: merged into a fetch of the line, or one without a way.
        let outcome = self.load_uncached(line, sectors, who.token);
        if let L1Outcome::Miss { .. } = outcome {
            self.stats.bypassed += 1;
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{config, fill, pop, who, ALL};
    use super::super::FailReason;
    use super::*;

    #[test]
    fn a_bypassing_miss_fetches_without_allocating_and_its_fill_is_not_kept() {
        let mut l1 = L1Cache::new(&config());
        assert_eq!(l1.load_bypassing(7, ALL, who(1, 10), 0), L1Outcome::Miss { evicted: None });
        assert_eq!(pop(&mut l1), Some((7, ALL, RequestKind::Load)));
        // A second bypassing load of the line joins the fetch in flight.
        assert_eq!(l1.load_bypassing(7, ALL, who(2, 11), 0), L1Outcome::HitReserved);
        assert_eq!(fill(&mut l1, 7, ALL), [10, 11], "the reply answers both");
        // Nothing was kept: an ordinary load misses and allocates.
        assert_eq!(l1.access_by(7, ALL, RequestKind::Load, who(3, 12)), L1Outcome::Miss { evicted: None });
        let s = l1.stats();
        assert_eq!((s.accesses, s.misses, s.bypassed, s.hit_reserved), (3, 2, 1, 1));
    }

    #[test]
    fn a_bypassing_load_hits_a_valid_line_and_joins_the_l1s_fetch() {
        let mut l1 = L1Cache::new(&config());
        assert_eq!(l1.access_by(5, ALL, RequestKind::Load, who(1, 10)), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.load_bypassing(5, ALL, who(2, 11), 0), L1Outcome::HitReserved, "merged into the L1's fetch");
        pop(&mut l1);
        assert_eq!(fill(&mut l1, 5, ALL), [10, 11]);
        assert!(matches!(l1.load_bypassing(5, ALL, who(2, 12), 0), L1Outcome::Hit { owner: 1, .. }));
        assert_eq!(l1.stats().bypassed, 0, "nothing went to L2 on its own");
    }

    #[test]
    fn bypassing_loads_never_evict_the_lines_of_others() {
        // The test L1 has 2 ways a set: fill one set, then bypass many lines of the same set.
        let mut l1 = L1Cache::new(&config());
        let set_mates: alloc::vec::Vec<u64> = (0..64).filter(|&l| l1.set_of(l) == l1.set_of(0)).collect();
        for &line in &set_mates[..2] {
            l1.access_by(line, ALL, RequestKind::Load, who(1, 1));
            pop(&mut l1);
            fill(&mut l1, line, ALL);
        }
        for (t, &line) in set_mates[2..].iter().enumerate() {
            assert_eq!(l1.load_bypassing(line, ALL, who(2, 100 + t as u32), 0), L1Outcome::Miss { evicted: None });
            pop(&mut l1);
            fill(&mut l1, line, ALL);
        }
        for &line in &set_mates[..2] {
            assert!(matches!(l1.access_by(line, ALL, RequestKind::Load, who(1, 2)), L1Outcome::Hit { .. }));
        }
        assert_eq!(l1.stats().evictions, 0);
    }

    #[test]
    fn a_bypassing_load_fails_for_a_busy_mshr_file_or_miss_queue() {
        let mut l1 = L1Cache::new(&crate::config::L1Config { mshr_entries: 1, ..config() });
        assert_eq!(l1.load_bypassing(1, ALL, who(1, 1), 0), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.load_bypassing(2, ALL, who(1, 2), 0), L1Outcome::ReservationFail(FailReason::MshrEntry));
        assert_eq!(l1.stats().accesses, 1, "a failed attempt is no access");
    }
}
