//! The per-SM L1 data cache as GPGPU-Sim models it: allocate-on-miss with line reservation,
//! 32-byte sectors, MSHRs that merge requests to a line in flight, and a miss queue towards the
//! interconnect. A request it cannot take (every way of the set reserved, no MSHR, merge limit
//! reached, miss queue full) is a *reservation failure*: nothing changes and the LSU retries.
//!
//! This is a pure data structure: it knows no time. The engine adds the hit latency and
//! delivers fills when replies arrive.

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::config::{L1Config, L1WritePolicy, Replacement, SetIndex};
use crate::mem::cache::fermi_hash_set;

/// What a request does to memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RequestKind {
    /// Reads; allocates in the L1.
    Load,
    /// Writes through to L2; never allocates.
    Store,
    /// Read-modify-write performed at L2; never allocates.
    Atomic,
}

/// Why a request could not be accepted this cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FailReason {
    /// Every way of the set is reserved by a fetch in flight.
    LineAlloc,
    /// No free MSHR entry.
    MshrEntry,
    /// The line's MSHR entry has merged as many requests as it can.
    MshrMerge,
    /// The miss queue towards the interconnect is full.
    MissQueue,
}

/// A line pushed out by a fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evicted {
    /// Line address of the victim.
    pub line: u64,
    /// Owner id recorded when it was filled.
    pub owner: u32,
}

/// The result of one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum L1Outcome {
    /// Every requested sector is valid.
    Hit,
    /// The line is being fetched and every missing sector is already requested: merged.
    HitReserved,
    /// The line was absent: a way was reserved, an MSHR allocated, a request queued.
    Miss {
        /// The valid line the reserved way held, if any.
        evicted: Option<Evicted>,
    },
    /// The line is present but some requested sectors were neither valid nor requested: a
    /// request for them was queued.
    SectorMiss,
    /// A store or atomic was queued towards L2.
    Forwarded,
    /// Not accepted; nothing changed.
    ReservationFail(FailReason),
}

/// A request waiting in the miss queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissRequest {
    /// Line address.
    pub line: u64,
    /// Sectors requested (loads) or written (stores, atomics).
    pub sectors: u32,
    /// What it does.
    pub kind: RequestKind,
}

/// Counters of one L1. Reservation failures count every failed attempt (the LSU retries each
/// cycle), as the papers count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct L1Stats {
    /// Accepted accesses.
    pub accesses: u64,
    /// Of which hits.
    pub hits: u64,
    /// Of which merged into a fetch in flight.
    pub hit_reserved: u64,
    /// Of which misses that reserved a line.
    pub misses: u64,
    /// Of which sector misses on a present line.
    pub sector_misses: u64,
    /// Of which stores and atomics sent on to L2.
    pub forwarded: u64,
    /// Valid lines evicted by misses.
    pub evictions: u64,
    /// Failed attempts: no way to reserve.
    pub fail_line_alloc: u64,
    /// Failed attempts: no MSHR.
    pub fail_mshr_entry: u64,
    /// Failed attempts: merge limit.
    pub fail_mshr_merge: u64,
    /// Failed attempts: miss queue full.
    pub fail_miss_queue: u64,
}

impl L1Stats {
    /// Adds `other`'s counts to these (summing SMs).
    pub fn merge(&mut self, other: &L1Stats) {
        self.accesses += other.accesses;
        self.hits += other.hits;
        self.hit_reserved += other.hit_reserved;
        self.misses += other.misses;
        self.sector_misses += other.sector_misses;
        self.forwarded += other.forwarded;
        self.evictions += other.evictions;
        self.fail_line_alloc += other.fail_line_alloc;
        self.fail_mshr_entry += other.fail_mshr_entry;
        self.fail_mshr_merge += other.fail_mshr_merge;
        self.fail_miss_queue += other.fail_miss_queue;
    }
}

const INVALID: u64 = u64::MAX;
const NO_MSHR: u16 = u16::MAX;

#[derive(Clone, Copy, Debug)]
struct Way {
    line: u64,
    valid: u32,
    pending: u32,
    stamp: u64,
    owner: u32,
    mshr: u16,
    /// Invalidated while a fetch was in flight: the fill wakes its requests but stores nothing.
    drop_on_fill: bool,
}

const EMPTY: Way = Way { line: INVALID, valid: 0, pending: 0, stamp: 0, owner: 0, mshr: NO_MSHR, drop_on_fill: false };

#[derive(Clone, Debug)]
struct Mshr {
    line: u64,
    in_use: bool,
    requested: u32,
    arrived: u32,
    tokens: Vec<u32>,
}

/// One L1.
#[derive(Clone, Debug)]
pub struct L1Cache {
    sets: u32,
    ways: u32,
    line_bytes: u32,
    index: SetIndex,
    replacement: Replacement,
    write_policy: L1WritePolicy,
    max_merge: usize,
    miss_queue_capacity: usize,
    lines: Vec<Way>,
    mshrs: Vec<Mshr>,
    mshrs_in_use: usize,
    miss_queue: VecDeque<MissRequest>,
    clock: u64,
    stats: L1Stats,
}

impl L1Cache {
    /// An empty L1 for a validated `config`; `size_bytes == 0` means no L1 (loads still merge
    /// in MSHRs but never hit).
    pub fn new(config: &L1Config) -> Self {
        let (sets, ways) = if config.size_bytes == 0 {
            (0, 0)
        } else {
            (config.size_bytes / config.line_bytes / config.ways, config.ways)
        };
        L1Cache {
            sets,
            ways,
            line_bytes: config.line_bytes,
            index: config.index,
            replacement: config.replacement,
            write_policy: config.write_policy,
            max_merge: config.mshr_max_merge as usize,
            miss_queue_capacity: config.miss_queue_entries as usize,
            lines: vec![EMPTY; (sets * ways) as usize],
            mshrs: (0..config.mshr_entries)
                .map(|_| Mshr {
                    line: INVALID,
                    in_use: false,
                    requested: 0,
                    arrived: 0,
                    tokens: Vec::with_capacity(config.mshr_max_merge as usize),
                })
                .collect(),
            mshrs_in_use: 0,
            miss_queue: VecDeque::with_capacity(config.miss_queue_entries as usize),
            clock: 0,
            stats: L1Stats::default(),
        }
    }

    /// Sets (0 without an L1).
    pub fn sets(&self) -> u32 {
        self.sets
    }

    /// Ways per set.
    pub fn ways(&self) -> u32 {
        self.ways
    }

    /// The set of `line`.
    pub fn set_of(&self, line: u64) -> u32 {
        match self.index {
            _ if self.sets == 0 => 0,
            SetIndex::Linear => (line % self.sets as u64) as u32,
            SetIndex::FermiHash => fermi_hash_set(line * self.line_bytes as u64, self.sets),
        }
    }

    fn find(&self, line: u64) -> Option<usize> {
        if self.sets == 0 {
            return None;
        }
        let base = (self.set_of(line) * self.ways) as usize;
        (base..base + self.ways as usize).find(|&i| self.lines[i].line == line)
    }

    fn touch(&mut self, i: usize) {
        self.clock += 1;
        if self.replacement == Replacement::Lru {
            self.lines[i].stamp = self.clock;
        }
    }

    fn fail(&mut self, reason: FailReason) -> L1Outcome {
        match reason {
            FailReason::LineAlloc => self.stats.fail_line_alloc += 1,
            FailReason::MshrEntry => self.stats.fail_mshr_entry += 1,
            FailReason::MshrMerge => self.stats.fail_mshr_merge += 1,
            FailReason::MissQueue => self.stats.fail_miss_queue += 1,
        }
        L1Outcome::ReservationFail(reason)
    }

    /// Counts `n` more failed attempts for `reason` without making them (the engine knows they
    /// would fail: nothing that could free the resource happened).
    pub fn record_failures(&mut self, reason: FailReason, n: u64) {
        match reason {
            FailReason::LineAlloc => self.stats.fail_line_alloc += n,
            FailReason::MshrEntry => self.stats.fail_mshr_entry += n,
            FailReason::MshrMerge => self.stats.fail_mshr_merge += n,
            FailReason::MissQueue => self.stats.fail_miss_queue += n,
        }
    }

    fn queue_full(&self) -> bool {
        self.miss_queue.len() >= self.miss_queue_capacity
    }

    fn free_mshr(&self) -> Option<usize> {
        if self.mshrs_in_use == self.mshrs.len() {
            return None;
        }
        self.mshrs.iter().position(|m| !m.in_use)
    }

    fn allocate_mshr(&mut self, index: usize, line: u64, sectors: u32, token: u32) {
        let m = &mut self.mshrs[index];
        m.in_use = true;
        m.line = line;
        m.requested = sectors;
        m.arrived = 0;
        m.tokens.clear();
        m.tokens.push(token);
        self.mshrs_in_use += 1;
    }

    /// One line request of warp `owner`; `token` is handed back by [`L1Cache::fill`].
    pub fn access(&mut self, line: u64, sectors: u32, kind: RequestKind, owner: u32, token: u32) -> L1Outcome {
        let outcome = match kind {
            RequestKind::Load => self.load(line, sectors, owner, token),
            RequestKind::Store | RequestKind::Atomic => self.forward(line, sectors, kind),
        };
        if !matches!(outcome, L1Outcome::ReservationFail(_)) {
            self.stats.accesses += 1;
        }
        outcome
    }

    fn forward(&mut self, line: u64, sectors: u32, kind: RequestKind) -> L1Outcome {
        if self.queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        let evict = kind == RequestKind::Atomic || self.write_policy == L1WritePolicy::WriteEvict;
        if let (true, Some(i)) = (evict, self.find(line)) {
            if self.lines[i].pending == 0 {
                self.lines[i] = EMPTY;
            }
        }
        self.miss_queue.push_back(MissRequest { line, sectors, kind });
        self.stats.forwarded += 1;
        L1Outcome::Forwarded
    }

    fn load(&mut self, line: u64, sectors: u32, owner: u32, token: u32) -> L1Outcome {
        match self.find(line) {
            Some(i) => self.load_present(i, line, sectors, token),
            None if self.sets == 0 => self.load_without_l1(line, sectors, token),
            None => self.load_absent(line, sectors, owner, token),
        }
    }

    fn load_present(&mut self, i: usize, line: u64, sectors: u32, token: u32) -> L1Outcome {
        let way = self.lines[i];
        let missing = sectors & !way.valid;
        if missing == 0 {
            self.touch(i);
            self.stats.hits += 1;
            return L1Outcome::Hit;
        }
        let unrequested = missing & !way.pending;
        if way.mshr != NO_MSHR {
            let m = way.mshr as usize;
            if self.mshrs[m].tokens.len() >= self.max_merge {
                return self.fail(FailReason::MshrMerge);
            }
            if unrequested != 0 && self.queue_full() {
                return self.fail(FailReason::MissQueue);
            }
            self.touch(i);
            self.mshrs[m].tokens.push(token);
            if unrequested == 0 {
                self.stats.hit_reserved += 1;
                return L1Outcome::HitReserved;
            }
            self.mshrs[m].requested |= unrequested;
            self.lines[i].pending |= unrequested;
            self.miss_queue.push_back(MissRequest { line, sectors: unrequested, kind: RequestKind::Load });
            self.stats.sector_misses += 1;
            return L1Outcome::SectorMiss;
        }
        let Some(m) = self.free_mshr() else { return self.fail(FailReason::MshrEntry) };
        if self.queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        self.touch(i);
        self.allocate_mshr(m, line, unrequested, token);
        self.lines[i].pending |= unrequested;
        self.lines[i].mshr = m as u16;
        self.miss_queue.push_back(MissRequest { line, sectors: unrequested, kind: RequestKind::Load });
        self.stats.sector_misses += 1;
        L1Outcome::SectorMiss
    }

    fn load_absent(&mut self, line: u64, sectors: u32, owner: u32, token: u32) -> L1Outcome {
        let base = (self.set_of(line) * self.ways) as usize;
        let ways = base..base + self.ways as usize;
        // Invalid ways first, then the oldest stamp among ways with no fetch in flight.
        let victim = ways
            .clone()
            .filter(|&i| self.lines[i].pending == 0)
            .min_by_key(|&i| (self.lines[i].line != INVALID, self.lines[i].stamp));
        let Some(victim) = victim else { return self.fail(FailReason::LineAlloc) };
        let Some(m) = self.free_mshr() else { return self.fail(FailReason::MshrEntry) };
        if self.queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        let old = self.lines[victim];
        let evicted = (old.line != INVALID && old.valid != 0).then_some(Evicted { line: old.line, owner: old.owner });
        if evicted.is_some() {
            self.stats.evictions += 1;
        }
        self.clock += 1;
        self.lines[victim] =
            Way { line, valid: 0, pending: sectors, stamp: self.clock, owner, mshr: m as u16, drop_on_fill: false };
        self.allocate_mshr(m, line, sectors, token);
        self.miss_queue.push_back(MissRequest { line, sectors, kind: RequestKind::Load });
        self.stats.misses += 1;
        L1Outcome::Miss { evicted }
    }

    fn load_without_l1(&mut self, line: u64, sectors: u32, token: u32) -> L1Outcome {
        if let Some(m) = self.mshrs.iter().position(|m| m.in_use && m.line == line) {
            if self.mshrs[m].tokens.len() >= self.max_merge {
                return self.fail(FailReason::MshrMerge);
            }
            let unrequested = sectors & !self.mshrs[m].requested;
            if unrequested != 0 && self.queue_full() {
                return self.fail(FailReason::MissQueue);
            }
            self.mshrs[m].tokens.push(token);
            if unrequested == 0 {
                self.stats.hit_reserved += 1;
                return L1Outcome::HitReserved;
            }
            self.mshrs[m].requested |= unrequested;
            self.miss_queue.push_back(MissRequest { line, sectors: unrequested, kind: RequestKind::Load });
            self.stats.sector_misses += 1;
            return L1Outcome::SectorMiss;
        }
        let Some(m) = self.free_mshr() else { return self.fail(FailReason::MshrEntry) };
        if self.queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        self.allocate_mshr(m, line, sectors, token);
        self.miss_queue.push_back(MissRequest { line, sectors, kind: RequestKind::Load });
        self.stats.misses += 1;
        L1Outcome::Miss { evicted: None }
    }

    /// Requests waiting to enter the interconnect.
    pub fn miss_queue_len(&self) -> usize {
        self.miss_queue.len()
    }

    /// The oldest waiting request.
    pub fn peek_miss(&self) -> Option<&MissRequest> {
        self.miss_queue.front()
    }

    /// Removes the oldest waiting request (it has entered the interconnect).
    pub fn pop_miss(&mut self) -> Option<MissRequest> {
        self.miss_queue.pop_front()
    }

    /// `sectors` of `line` arrived. When every sector requested through the line's MSHR has
    /// arrived, the MSHR is freed and the tokens of all requests merged into it are appended
    /// to `woken`, oldest first.
    pub fn fill(&mut self, line: u64, sectors: u32, woken: &mut Vec<u32>) {
        let way = self.find(line);
        let m = match way.map(|i| self.lines[i].mshr) {
            Some(m) if m != NO_MSHR => m as usize,
            _ => match self.mshrs.iter().position(|m| m.in_use && m.line == line) {
                Some(m) => m,
                None => return,
            },
        };
        self.mshrs[m].arrived |= sectors;
        if let Some(i) = way {
            let w = &mut self.lines[i];
            w.pending &= !sectors;
            if !w.drop_on_fill {
                w.valid |= sectors;
            }
        }
        let mshr = &mut self.mshrs[m];
        if mshr.requested & !mshr.arrived != 0 {
            return;
        }
        mshr.in_use = false;
        mshr.line = INVALID;
        woken.extend_from_slice(&mshr.tokens);
        mshr.tokens.clear();
        self.mshrs_in_use -= 1;
        if let Some(i) = way {
            let w = &mut self.lines[i];
            w.mshr = NO_MSHR;
            if w.drop_on_fill {
                *w = EMPTY;
            }
        }
    }

    /// Kernel boundary under GPU coherence: valid lines are dropped; lines still being fetched
    /// stay reserved until their fill, which then wakes its requests but keeps nothing.
    pub fn invalidate_all(&mut self) {
        for w in &mut self.lines {
            if w.pending != 0 {
                w.valid = 0;
                w.drop_on_fill = true;
            } else {
                *w = EMPTY;
            }
        }
    }

    /// Counters so far.
    pub fn stats(&self) -> L1Stats {
        self.stats
    }

    /// MSHR entries in use.
    pub fn mshrs_in_use(&self) -> usize {
        self.mshrs_in_use
    }

    /// Owner of each way of `set`, `None` where the way holds no valid data (heat maps).
    pub fn owners_of_set(&self, set: u32) -> impl Iterator<Item = Option<u32>> + '_ {
        let base = (set * self.ways) as usize;
        self.lines[base..base + self.ways as usize].iter().map(|w| (w.valid != 0).then_some(w.owner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4 sets × 2 ways × 128 B, 32 B sectors, 2 MSHRs merging 2, miss queue of 2.
    fn config() -> L1Config {
        L1Config {
            size_bytes: 4 * 2 * 128,
            line_bytes: 128,
            sector_bytes: 32,
            ways: 2,
            replacement: Replacement::Lru,
            index: SetIndex::Linear,
            hit_latency: 1,
            mshr_entries: 2,
            mshr_max_merge: 2,
            miss_queue_entries: 2,
            write_policy: L1WritePolicy::WriteEvict,
        }
    }

    const ALL: u32 = 0b1111;

    fn fill(l1: &mut L1Cache, line: u64, sectors: u32) -> Vec<u32> {
        let mut woken = Vec::new();
        l1.fill(line, sectors, &mut woken);
        woken
    }

    #[test]
    fn a_miss_then_its_fill_then_a_hit() {
        let mut l1 = L1Cache::new(&config());
        assert_eq!(l1.access(5, ALL, RequestKind::Load, 7, 100), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.pop_miss(), Some(MissRequest { line: 5, sectors: ALL, kind: RequestKind::Load }));
        assert_eq!(l1.access(5, 0b0001, RequestKind::Load, 8, 101), L1Outcome::HitReserved);
        assert_eq!(fill(&mut l1, 5, ALL), [100, 101]);
        assert_eq!(l1.access(5, 0b0100, RequestKind::Load, 8, 102), L1Outcome::Hit);
        assert_eq!(l1.mshrs_in_use(), 0);
        let s = l1.stats();
        assert_eq!((s.accesses, s.misses, s.hit_reserved, s.hits), (3, 1, 1, 1));
    }

    #[test]
    fn each_reservation_failure_has_its_cause_and_changes_nothing() {
        let mut l1 = L1Cache::new(&config());
        l1.access(0, ALL, RequestKind::Load, 0, 1);
        l1.access(0, ALL, RequestKind::Load, 0, 2);
        // Merge limit 2 reached.
        assert_eq!(l1.access(0, ALL, RequestKind::Load, 0, 3), L1Outcome::ReservationFail(FailReason::MshrMerge));
        // Miss queue (2) full after a second miss.
        assert_eq!(l1.access(1, ALL, RequestKind::Load, 0, 4), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access(2, ALL, RequestKind::Store, 0, 0), L1Outcome::ReservationFail(FailReason::MissQueue));
        l1.pop_miss();
        l1.pop_miss();
        // Both MSHRs busy.
        assert_eq!(l1.access(2, ALL, RequestKind::Load, 0, 5), L1Outcome::ReservationFail(FailReason::MshrEntry));
        assert_eq!(l1.miss_queue_len(), 0, "a failure queues nothing");
        // Lines 0 and 4 share set 0 with 2 ways; with 0 reserved and 4 reserved, 8 cannot allocate.
        fill(&mut l1, 1, ALL);
        assert_eq!(l1.access(4, ALL, RequestKind::Load, 0, 6), L1Outcome::Miss { evicted: None });
        l1.pop_miss();
        assert_eq!(l1.access(8, ALL, RequestKind::Load, 0, 7), L1Outcome::ReservationFail(FailReason::LineAlloc));
        let s = l1.stats();
        assert_eq!((s.fail_mshr_merge, s.fail_miss_queue, s.fail_mshr_entry, s.fail_line_alloc), (1, 1, 1, 1));
        // Retried after the fill frees line 0's way and MSHR: accepted, evicting line 0.
        fill(&mut l1, 0, ALL);
        assert_eq!(
            l1.access(8, ALL, RequestKind::Load, 9, 7),
            L1Outcome::Miss { evicted: Some(Evicted { line: 0, owner: 0 }) }
        );
    }

    #[test]
    fn lru_evicts_the_least_recent_and_fifo_the_oldest_fill() {
        for (replacement, victim) in [(Replacement::Lru, 4), (Replacement::Fifo, 0)] {
            let mut l1 = L1Cache::new(&L1Config { replacement, mshr_entries: 4, miss_queue_entries: 4, ..config() });
            for (line, owner) in [(0, 10), (4, 14)] {
                l1.access(line, ALL, RequestKind::Load, owner, 0);
                l1.pop_miss();
                fill(&mut l1, line, ALL);
            }
            assert_eq!(l1.access(0, ALL, RequestKind::Load, 0, 0), L1Outcome::Hit);
            let owner = if victim == 0 { 10 } else { 14 };
            assert_eq!(
                l1.access(8, ALL, RequestKind::Load, 18, 0),
                L1Outcome::Miss { evicted: Some(Evicted { line: victim, owner }) },
                "{replacement:?}"
            );
        }
    }

    #[test]
    fn a_missing_sector_of_a_present_line_is_a_sector_miss() {
        let mut l1 = L1Cache::new(&config());
        l1.access(3, 0b0001, RequestKind::Load, 0, 1);
        l1.pop_miss();
        fill(&mut l1, 3, 0b0001);
        assert_eq!(l1.access(3, 0b0011, RequestKind::Load, 0, 2), L1Outcome::SectorMiss);
        assert_eq!(l1.pop_miss(), Some(MissRequest { line: 3, sectors: 0b0010, kind: RequestKind::Load }));
        assert_eq!(fill(&mut l1, 3, 0b0010), [2]);
        assert_eq!(l1.access(3, 0b0011, RequestKind::Load, 0, 3), L1Outcome::Hit);
    }

    #[test]
    fn stores_evict_under_write_evict_and_keep_the_line_under_write_through() {
        for (policy, after) in [(L1WritePolicy::WriteEvict, false), (L1WritePolicy::WriteThrough, true)] {
            let mut l1 = L1Cache::new(&L1Config { write_policy: policy, ..config() });
            l1.access(2, ALL, RequestKind::Load, 0, 1);
            l1.pop_miss();
            fill(&mut l1, 2, ALL);
            assert_eq!(l1.access(2, 0b1, RequestKind::Store, 0, 0), L1Outcome::Forwarded);
            assert_eq!(l1.pop_miss(), Some(MissRequest { line: 2, sectors: 0b1, kind: RequestKind::Store }));
            assert_eq!(l1.access(2, ALL, RequestKind::Load, 0, 2) == L1Outcome::Hit, after, "{policy:?}");
        }
    }

    #[test]
    fn invalidation_drops_lines_and_a_fetch_in_flight_stores_nothing() {
        let mut l1 = L1Cache::new(&config());
        l1.access(1, ALL, RequestKind::Load, 0, 1);
        l1.pop_miss();
        fill(&mut l1, 1, ALL);
        l1.access(2, ALL, RequestKind::Load, 0, 2);
        l1.pop_miss();
        l1.invalidate_all();
        assert_eq!(fill(&mut l1, 2, ALL), [2], "the waiting request is still answered");
        assert!(matches!(l1.access(1, ALL, RequestKind::Load, 0, 3), L1Outcome::Miss { .. }));
        assert!(matches!(l1.access(2, ALL, RequestKind::Load, 0, 4), L1Outcome::Miss { .. }));
    }

    #[test]
    fn the_fermi_hash_separates_lines_that_share_a_linear_set() {
        let hashed = L1Cache::new(&L1Config { size_bytes: 32 * 2 * 128, index: SetIndex::FermiHash, ..config() });
        // Lines 0 and 64 (byte 8192 = bit 13) share linear set 0 of 32; the hash moves the second.
        assert_eq!((hashed.set_of(0), hashed.set_of(64)), (0, 1));
    }

    #[test]
    fn without_an_l1_loads_merge_but_never_hit() {
        let mut l1 = L1Cache::new(&L1Config { size_bytes: 0, ..config() });
        assert_eq!(l1.access(9, ALL, RequestKind::Load, 0, 1), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access(9, ALL, RequestKind::Load, 0, 2), L1Outcome::HitReserved);
        assert_eq!(fill(&mut l1, 9, ALL), [1, 2]);
        assert_eq!(l1.access(9, ALL, RequestKind::Load, 0, 3), L1Outcome::Miss { evicted: None });
    }
}
