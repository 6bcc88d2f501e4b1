//! The L1's side of DeNovo ([`crate::config::Coherence::DeNovo`]; the protocol as a whole is
//! described in [`crate::mem::denovo`]). A sector of a line is Invalid, Valid (a copy, dropped
//! at the next kernel boundary) or Owned (written here: the only up-to-date copy, registered at
//! the home L2 bank, kept across kernel boundaries and written back when evicted).
//!
//! - A store or atomic on sectors the L1 owns is done here: no traffic.
//! - One on sectors it does not own makes them Owned at once (the write is done here; a way is
//!   taken for the line if it has none) and queues a registration. A store's registration
//!   carries no data: DeNovo tracks words, so a partly written sector needs no fetch (our
//!   sectors stand in for its words). An atomic's brings the sectors' current data back, and
//!   the atomic completes when it arrives.
//! - Evicting a line with owned sectors queues their write-back.
//! - The home bank may revoke ownership when another L1 registers the same sectors.
//! - At a kernel boundary the L1 drops every sector it does not own.
//!
//! The sector standing for DeNovo's word is the documented approximation of ikra.md §1.9.

use super::{FailReason, L1Cache, L1Outcome, Message, MissRequest, RequestKind, Requester, EMPTY_WAY, NO_MSHR};

impl L1Cache {
    /// Makes stores and atomics take ownership (DeNovo) instead of writing through.
    pub fn own_writes(&mut self) {
        self.owns_writes = true;
    }

    /// Whether there is room in the miss queue for `requests` more requests, plus the
    /// write-back of way `victim` if taking it pushes owned sectors out.
    pub(super) fn room_to_take(&self, victim: usize, requests: usize) -> bool {
        let write_back = (self.lines[victim].owned != 0) as usize;
        self.miss_queue.len() + requests + write_back <= self.miss_queue_capacity
    }

    /// Queues the write-back of `sectors` of `line`, owned here, to the L2.
    pub(super) fn write_back(&mut self, line: u64, sectors: u32) {
        self.stats.owned_writebacks += 1;
        self.queue_message(MissRequest {
            line,
            sectors,
            kind: RequestKind::Store,
            mshr: NO_MSHR,
            kernel: self.requester,
            updates: 1,
            message: Message::WriteBack,
        });
    }

    /// A store or atomic under DeNovo (see the module's description).
    pub(super) fn write_owning(
        &mut self,
        set: u32,
        line: u64,
        sectors: u32,
        kind: RequestKind,
        who: Requester,
        updates: u32,
    ) -> L1Outcome {
        let base = set as usize * self.ways as usize;
        let (way, evicted) = match self.find_in(base, line) {
            Some(i) if sectors & !self.lines[i].owned == 0 => {
                self.touch(i);
                self.line_hits[i] = self.line_hits[i].saturating_add(1);
                self.stats.owned_writes += 1;
                return L1Outcome::OwnedWrite;
            }
            Some(i) => {
                if self.miss_queue_full() {
                    return self.fail(FailReason::MissQueue);
                }
                self.touch(i);
                (i, None)
            }
            None => {
                let Some(victim) = self.victim_in(base) else { return self.fail(FailReason::LineAlloc) };
                if !self.room_to_take(victim, 1) {
                    return self.fail(FailReason::MissQueue);
                }
                (victim, self.take_way(victim, line, 0, NO_MSHR, who))
            }
        };
        let registering = self.lines.update(way, |w| {
            let registering = sectors & !w.owned;
            w.valid |= sectors;
            w.owned |= sectors;
            registering
        });
        self.smc_drop(line);
        self.queue_message(MissRequest {
            line,
            sectors: registering,
            kind,
            mshr: NO_MSHR,
            kernel: self.requester,
            updates,
            message: Message::Register,
        });
        self.stats.registrations += 1;
        L1Outcome::Registered { evicted }
    }

    /// The home bank gave `sectors` of `line` to another L1: they are no longer valid here.
    pub fn revoke(&mut self, line: u64, sectors: u32) {
        if self.sets == 0 {
            return;
        }
        let Some(i) = self.find(line) else { return };
        let emptied = self.lines.update(i, |w| {
            w.owned &= !sectors;
            w.valid &= !sectors;
            w.valid == 0 && !w.reserved()
        });
        if emptied {
            self.empty_way(i, line);
        }
    }

    /// Kernel boundary under DeNovo: every sector not owned here is dropped, but those of lines
    /// `keep` accepts (DeNovo's read-only data); owned sectors stay valid. A line with a fetch
    /// in flight keeps what it owns when the fill comes.
    pub fn self_invalidate(&mut self, keep: impl Fn(u64) -> bool) {
        let l1_ways = self.l1_ways();
        for i in 0..self.lines.len() {
            let w = self.lines[i];
            if w.present() && keep(w.line) {
                continue;
            }
            if w.reserved() {
                self.lines.update(i, |way| {
                    way.valid = w.owned;
                    way.drop_on_fill = true;
                });
            } else if w.owned != 0 {
                self.lines.update(i, |way| way.valid = w.owned);
            } else if w.valid != 0 {
                if i < l1_ways {
                    self.empty_way(i, w.line);
                } else {
                    self.lines.set(i, EMPTY_WAY);
                }
            }
        }
    }

    /// Sectors of `line` owned here (0 if absent), for tests and views.
    pub fn owned_sectors(&self, line: u64) -> u32 {
        if self.sets == 0 {
            return 0;
        }
        self.find(line).map_or(0, |i| self.lines[i].owned)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{config, fill, pop, ALL};
    use super::super::{Evicted, HitLocality};
    use super::*;

    const LOAD: RequestKind = RequestKind::Load;
    const STORE: RequestKind = RequestKind::Store;
    const ATOMIC: RequestKind = RequestKind::Atomic;

    /// The test L1 (4 sets × 2 ways, a miss queue of 2) owning its writes.
    fn denovo() -> L1Cache {
        let mut l1 = L1Cache::new(&config());
        l1.own_writes();
        l1
    }

    /// The oldest miss request as (line, sectors, kind, message).
    fn pop_message(l1: &mut L1Cache) -> Option<(u64, u32, RequestKind, Message)> {
        l1.pop_miss().map(|m| (m.line, m.sectors, m.kind, m.message))
    }

    #[test]
    fn a_write_takes_ownership_once_and_later_writes_and_reads_of_it_stay_in_the_l1() {
        let mut l1 = denovo();
        assert_eq!(l1.access(4, 0b0011, STORE, 1, 0), L1Outcome::Registered { evicted: None });
        assert_eq!(pop_message(&mut l1), Some((4, 0b0011, STORE, Message::Register)));
        assert_eq!(l1.owned_sectors(4), 0b0011);
        // Written again, by another warp: owned, so nothing is sent.
        assert_eq!(l1.access(4, 0b0001, STORE, 2, 0), L1Outcome::OwnedWrite);
        assert_eq!(l1.access(4, 0b0010, ATOMIC, 2, 0), L1Outcome::OwnedWrite);
        assert_eq!(l1.miss_queue_len(), 0);
        // A read of owned sectors hits; of the rest, fetches only those.
        assert!(matches!(l1.access(4, 0b0011, LOAD, 1, 7), L1Outcome::Hit { locality: HitLocality::IntraThread, .. }));
        assert_eq!(l1.access(4, 0b0110, LOAD, 1, 8), L1Outcome::SectorMiss);
        assert_eq!(pop(&mut l1), Some((4, 0b0100, LOAD)));
        // A write of one more sector registers only that one.
        assert_eq!(l1.access(4, 0b1001, STORE, 1, 0), L1Outcome::Registered { evicted: None });
        assert_eq!(pop_message(&mut l1), Some((4, 0b1000, STORE, Message::Register)));
        assert_eq!(l1.owned_sectors(4), 0b1011);
        let s = l1.stats();
        assert_eq!((s.registrations, s.owned_writes, s.hits, s.forwarded), (2, 2, 1, 0));
    }

    #[test]
    fn evicting_an_owned_line_writes_its_owned_sectors_back_and_needs_room_for_it() {
        let mut l1 = denovo();
        // Lines 0, 4 and 8 share set 0 of 2 ways.
        assert_eq!(l1.access(0, 0b0001, STORE, 1, 0), L1Outcome::Registered { evicted: None });
        assert_eq!(l1.access(4, ALL, STORE, 1, 0), L1Outcome::Registered { evicted: None });
        // The queue (2 entries) is full: line 8 can neither register nor write line 0 back.
        assert_eq!(l1.access(8, ALL, STORE, 1, 0), L1Outcome::ReservationFail(FailReason::MissQueue));
        pop_message(&mut l1);
        // One free entry is not enough for a registration and a write-back.
        assert_eq!(l1.access(8, ALL, STORE, 1, 0), L1Outcome::ReservationFail(FailReason::MissQueue));
        pop_message(&mut l1);
        let evicted = Some(Evicted { line: 0, owner: 1 });
        assert_eq!(l1.access(8, ALL, STORE, 1, 0), L1Outcome::Registered { evicted });
        assert_eq!(pop_message(&mut l1), Some((0, 0b0001, STORE, Message::WriteBack)));
        assert_eq!(pop_message(&mut l1), Some((8, ALL, STORE, Message::Register)));
        // A load that evicts an owned line writes it back too (line 4 is now the oldest).
        assert_eq!(l1.access(12, ALL, LOAD, 1, 5), L1Outcome::Miss { evicted: Some(Evicted { line: 4, owner: 1 }) });
        assert_eq!(pop_message(&mut l1), Some((4, ALL, STORE, Message::WriteBack)));
        assert_eq!(pop_message(&mut l1), Some((12, ALL, LOAD, Message::Access)));
        assert_eq!(l1.stats().owned_writebacks, 2);
    }

    #[test]
    fn a_revoked_sector_is_gone_and_a_line_with_nothing_left_frees_its_way() {
        let mut l1 = denovo();
        l1.access(4, 0b0011, STORE, 1, 0);
        l1.revoke(4, 0b0001);
        assert_eq!(l1.owned_sectors(4), 0b0010);
        assert_eq!(l1.access(4, 0b0001, LOAD, 1, 3), L1Outcome::SectorMiss, "sector 0 is no longer valid");
        l1.revoke(9, ALL); // not here: nothing happens
        let mut l1 = denovo();
        l1.access(4, 0b0011, STORE, 1, 0);
        l1.revoke(4, 0b0011);
        assert_eq!(l1.owned_sectors(4), 0);
        assert!(matches!(l1.access(4, 0b0001, LOAD, 1, 3), L1Outcome::Miss { evicted: None }));
    }

    #[test]
    fn a_kernel_boundary_drops_what_the_l1_does_not_own() {
        let mut l1 = denovo();
        // Line 1 read (Valid), line 2 read and then half written (Valid + Owned).
        for line in [1, 2] {
            assert!(matches!(l1.access(line, ALL, LOAD, 1, 0), L1Outcome::Miss { .. }));
            pop(&mut l1);
            fill(&mut l1, line, ALL);
        }
        assert_eq!(l1.access(2, 0b0011, STORE, 1, 0), L1Outcome::Registered { evicted: None });
        pop(&mut l1);
        // Line 3 in flight and written meanwhile.
        assert!(matches!(l1.access(3, ALL, LOAD, 1, 9), L1Outcome::Miss { .. }));
        assert_eq!(l1.access(3, 0b1000, STORE, 1, 0), L1Outcome::Registered { evicted: None });
        pop(&mut l1);
        pop(&mut l1);
        l1.self_invalidate(|_| false);
        assert!(matches!(l1.access(2, 0b0011, LOAD, 1, 0), L1Outcome::Hit { .. }), "owned data stays");
        assert_eq!(l1.access(2, 0b0100, LOAD, 1, 4), L1Outcome::SectorMiss, "the rest of its line does not");
        pop(&mut l1);
        assert_eq!(fill(&mut l1, 2, 0b0100), [4]);
        // The fill of line 3 leaves only what was written meanwhile.
        assert_eq!(fill(&mut l1, 3, ALL), [9]);
        assert_eq!(l1.owned_sectors(3), 0b1000);
        assert!(matches!(l1.access(3, 0b1000, LOAD, 1, 0), L1Outcome::Hit { .. }));
        assert_eq!(l1.access(3, 0b0001, LOAD, 1, 0), L1Outcome::SectorMiss);
        assert!(matches!(l1.access(1, ALL, LOAD, 1, 0), L1Outcome::Miss { .. }), "Valid data is dropped");
    }

    #[test]
    fn read_only_lines_keep_their_valid_data_across_a_boundary() {
        let mut l1 = denovo();
        for line in [1, 2] {
            assert!(matches!(l1.access(line, ALL, LOAD, 1, 0), L1Outcome::Miss { .. }));
            pop(&mut l1);
            fill(&mut l1, line, ALL);
        }
        // Line 1's buffer was not written since the last boundary; line 2's was.
        l1.self_invalidate(|line| line == 1);
        assert!(matches!(l1.access(1, ALL, LOAD, 1, 0), L1Outcome::Hit { .. }), "read-only data stays");
        assert!(matches!(l1.access(2, ALL, LOAD, 1, 0), L1Outcome::Miss { .. }));
    }
}
