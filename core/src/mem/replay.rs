//! The L1 replayed: a stand-alone model of one SM's L1 that replays the access stream a timing
//! run recorded, with Belady's optimal replacement (MIN) or with LRU.
//!
//! This is the CCWS paper's comparison with optimal replacement (its Figs. 8 and 10, after a
//! "stand-alone GPGPU-Sim cache simulator"): an oracle that knows the future cannot time a run,
//! because the future depends on the timing. So a run with `l1.replacement = Belady` is timed
//! with LRU, each SM records its L1 accesses in the order the L1 accepted them
//! ([`L1Access`], 16 bytes each), and afterwards [`replay`] runs each SM's stream through a
//! cache of the L1's geometry and set index:
//!
//! - fills are instant: no MSHRs, no reserved lines, nothing in flight, so a load that merged
//!   into a fetch in flight, or missed some sectors of a present line, is simply a hit on the
//!   line (the model keeps lines, not sectors);
//! - a load that misses allocates its line; there is no bypass;
//! - stores follow the L1's write policy: under write-evict a store drops the line, under
//!   write-through it leaves it alone; an atomic always drops it (as the timing L1 does);
//!   neither allocates nor counts as a use of the line;
//! - a [`AccessKind::Flush`] marker, recorded where the timing L1 was invalidated at a kernel
//!   boundary (GPU coherence), empties the cache;
//! - the victim of a miss in a full set is, under Belady, the resident line whose next load is
//!   furthest in the future, a line with none (never loaded again, or dropped by a store or a
//!   flush before its next load) counting as infinitely far; under LRU the least recently
//!   loaded line. Ties (dead lines) go to the lowest way.
//!
//! Belady never changes the stream, only which line is evicted: the access order is the timing
//! run's (the scheduler's), which is the paper's point: a scheduler that shortens reuse
//! distances can beat optimal replacement applied to a worse stream.
//!
//! Cost: recording is 16 bytes per accepted L1 access per SM (a run of 10 million accesses
//! records 160 MB). The Belady replay adds a transient 4 bytes per access of the SM being
//! replayed (each access's next use) and a map of the SM's distinct lines; its time is
//! O(accesses × ways) (a miss compares every way of its set; sets wider than 16 ways find a line
//! through a hash table, as the L1 does).

use alloc::vec;
use alloc::vec::Vec;

use crate::config::{L1Config, L1WritePolicy, SetIndex};
use crate::mem::l1::{set_of_line, RequestKind};
use crate::mem::line_table::LineTable;

/// What an entry of the recorded stream is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum AccessKind {
    /// A load the L1 accepted: a hit, a miss, a merge into a fetch in flight or a sector miss.
    Load,
    /// A store forwarded towards the L2.
    Store,
    /// An atomic forwarded towards the L2.
    Atomic,
    /// Not an access: the L1 was invalidated here (a kernel boundary under GPU coherence).
    Flush,
}

impl From<RequestKind> for AccessKind {
    fn from(kind: RequestKind) -> Self {
        match kind {
            RequestKind::Load => AccessKind::Load,
            RequestKind::Store => AccessKind::Store,
            RequestKind::Atomic => AccessKind::Atomic,
        }
    }
}

/// One entry of an SM's recorded L1 stream: 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L1Access {
    /// Line address (byte address / line size); 0 for a flush.
    pub line: u64,
    /// The kernel run of the instruction; 0 for a flush.
    pub kernel: u32,
    /// The warp slot of the instruction; 0 for a flush.
    pub slot: u16,
    /// What it is.
    pub kind: AccessKind,
}

const _: () = assert!(core::mem::size_of::<L1Access>() == 16);

impl L1Access {
    /// An accepted access of warp `slot` of run `kernel` to `line`.
    pub fn new(line: u64, kind: RequestKind, slot: u16, kernel: u32) -> Self {
        L1Access { line, kernel, slot, kind: kind.into() }
    }

    /// The marker of an invalidation of the whole L1.
    pub const FLUSH: L1Access = L1Access { line: 0, kernel: 0, slot: 0, kind: AccessKind::Flush };
}

/// How the replayed cache picks its victims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayPolicy {
    /// Belady's MIN: the line whose next load is furthest ahead.
    Belady,
    /// The least recently loaded line: checks the replay against the timing L1.
    Lru,
}

/// The shape of the replayed cache: the L1's sets, ways, lines, set index and write policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayCache {
    /// Sets (0: no L1, every load misses).
    pub sets: u32,
    /// Ways per set.
    pub ways: u32,
    /// Bytes per line (the Fermi hash works on byte addresses).
    pub line_bytes: u32,
    /// How a line picks its set.
    pub index: SetIndex,
    /// Whether a store drops the line (write-evict) or leaves it (write-through).
    pub store_evicts: bool,
}

impl ReplayCache {
    /// The geometry of the L1 of a validated `config`, as [`crate::mem::l1::L1Cache`] builds it.
    pub fn of(config: &L1Config) -> Self {
        let ways = config.ways.max(1);
        let sets = config.size_bytes / config.line_bytes.max(1) / ways;
        ReplayCache {
            sets,
            ways: if sets == 0 { 0 } else { ways },
            line_bytes: config.line_bytes,
            index: config.index,
            store_evicts: config.write_policy == L1WritePolicy::WriteEvict,
        }
    }
}

/// What one replay counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayCounts {
    /// Accesses replayed: loads, stores and atomics (flush markers are not accesses).
    pub accesses: u64,
    /// Of which loads; each is a hit or a miss.
    pub loads: u64,
    /// Loads that found their line.
    pub hits: u64,
    /// Loads that did not, and allocated it.
    pub misses: u64,
}

impl ReplayCounts {
    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &ReplayCounts) {
        self.accesses += other.accesses;
        self.loads += other.loads;
        self.hits += other.hits;
        self.misses += other.misses;
    }
}

/// Replays one SM's `stream` through `cache` under `policy`. Returns the totals and adds each
/// access's counts to `runs[kernel]` (grown as needed), so that a run's counts are those of its
/// own accesses.
pub fn replay(
    stream: &[L1Access],
    cache: &ReplayCache,
    policy: ReplayPolicy,
    runs: &mut Vec<ReplayCounts>,
) -> ReplayCounts {
    let next = match policy {
        ReplayPolicy::Belady => next_loads(stream, cache.store_evicts),
        ReplayPolicy::Lru => Vec::new(),
    };
    let mut sets = Sets::new(cache);
    let mut total = ReplayCounts::default();
    for (i, access) in stream.iter().enumerate() {
        let hit = match access.kind {
            AccessKind::Flush => {
                sets.flush();
                continue;
            }
            AccessKind::Load => {
                // The larger the key, the sooner the line goes.
                let key = match policy {
                    ReplayPolicy::Belady if next[i] == NEVER => u64::MAX,
                    ReplayPolicy::Belady => next[i] as u64,
                    ReplayPolicy::Lru => !(i as u64),
                };
                Some(sets.load(access.line, key))
            }
            AccessKind::Store if !cache.store_evicts => None,
            AccessKind::Store | AccessKind::Atomic => {
                sets.drop_line(access.line);
                None
            }
        };
        let k = access.kernel as usize;
        if runs.len() <= k {
            runs.resize(k + 1, ReplayCounts::default());
        }
        for counts in [&mut total, &mut runs[k]] {
            counts.accesses += 1;
            if let Some(hit) = hit {
                counts.loads += 1;
                *if hit { &mut counts.hits } else { &mut counts.misses } += 1;
            }
        }
    }
    total
}

/// "No next load" in [`next_loads`].
const NEVER: u32 = u32::MAX;

/// For each load of `stream`, the index of the next load of its line, or [`NEVER`] when the
/// line is not loaded again before the stream ends, a flush, or (with `store_evicts`) a store,
/// or an atomic, drops it: a line dropped before its next load is dead. One backward pass.
/// Streams are indexed by `u32`: up to 4 G accesses per SM (64 GiB of recording).
fn next_loads(stream: &[L1Access], store_evicts: bool) -> Vec<u32> {
    let mut next = vec![NEVER; stream.len()];
    let mut after = NextLoads::new();
    // Flushes seen so far from the end: an entry of an earlier epoch lies beyond a flush.
    let mut epoch = 0u32;
    for (i, access) in stream.iter().enumerate().rev() {
        match access.kind {
            AccessKind::Flush => epoch += 1,
            AccessKind::Load => {
                next[i] = after.get(access.line, epoch);
                after.set(access.line, i as u32, epoch);
            }
            AccessKind::Store if !store_evicts => {}
            AccessKind::Store | AccessKind::Atomic => after.set(access.line, NEVER, epoch),
        }
    }
    next
}

const NO_LINE: u64 = u64::MAX;

/// Line → (next load, epoch) for the backward pass: open addressing with linear probing,
/// doubled whenever half full, since the number of distinct lines is not known in advance.
struct NextLoads {
    lines: Vec<u64>,
    next: Vec<u32>,
    epochs: Vec<u32>,
    len: usize,
}

impl NextLoads {
    fn new() -> Self {
        NextLoads { lines: vec![NO_LINE; 1024], next: vec![NEVER; 1024], epochs: vec![0; 1024], len: 0 }
    }

    /// The slot of `line`, or the empty slot where it would go.
    fn slot(&self, line: u64) -> usize {
        let mask = self.lines.len() - 1;
        let bits = self.lines.len().trailing_zeros();
        let mut i = (line.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
        while self.lines[i] != line && self.lines[i] != NO_LINE {
            i = (i + 1) & mask;
        }
        i
    }

    /// The next load of `line` recorded in `epoch`, else [`NEVER`].
    fn get(&self, line: u64, epoch: u32) -> u32 {
        let i = self.slot(line);
        if self.lines[i] == line && self.epochs[i] == epoch {
            self.next[i]
        } else {
            NEVER
        }
    }

    fn set(&mut self, line: u64, next: u32, epoch: u32) {
        debug_assert!(line != NO_LINE);
        let i = self.slot(line);
        if self.lines[i] == NO_LINE {
            if 2 * (self.len + 1) > self.lines.len() {
                self.grow();
                return self.set(line, next, epoch);
            }
            self.lines[i] = line;
            self.len += 1;
        }
        self.next[i] = next;
        self.epochs[i] = epoch;
    }

    fn grow(&mut self) {
        let size = self.lines.len() * 2;
        let old = core::mem::replace(
            self,
            NextLoads { lines: vec![NO_LINE; size], next: vec![NEVER; size], epochs: vec![0; size], len: 0 },
        );
        for ((&line, &next), &epoch) in old.lines.iter().zip(&old.next).zip(&old.epochs) {
            if line != NO_LINE {
                let i = self.slot(line);
                self.lines[i] = line;
                self.next[i] = next;
                self.epochs[i] = epoch;
                self.len += 1;
            }
        }
    }
}

/// Sets of at most this many ways are searched by a scan; wider ones through a line table.
const SCANNED_WAYS: u32 = 16;

/// The replayed tag array: per way its line and its eviction key (larger goes first).
struct Sets {
    cache: ReplayCache,
    lines: Vec<u64>,
    keys: Vec<u64>,
    way_of_line: Option<LineTable>,
}

impl Sets {
    fn new(cache: &ReplayCache) -> Self {
        let n = cache.sets as usize * cache.ways as usize;
        Sets {
            cache: *cache,
            lines: vec![NO_LINE; n],
            keys: vec![0; n],
            way_of_line: (cache.ways > SCANNED_WAYS).then(|| LineTable::new(n)),
        }
    }

    fn base(&self, line: u64) -> usize {
        let c = &self.cache;
        set_of_line(c.index, c.sets, c.line_bytes, line) as usize * c.ways as usize
    }

    fn find(&self, base: usize, line: u64) -> Option<usize> {
        if let Some(table) = &self.way_of_line {
            return table.get(line);
        }
        self.lines[base..base + self.cache.ways as usize].iter().position(|&l| l == line).map(|w| base + w)
    }

    /// A load of `line` whose eviction key from now on is `key`: whether it hit. A miss
    /// allocates the line in an empty way, else in place of the way with the largest key.
    fn load(&mut self, line: u64, key: u64) -> bool {
        if self.cache.sets == 0 {
            return false;
        }
        let base = self.base(line);
        if let Some(i) = self.find(base, line) {
            self.keys[i] = key;
            return true;
        }
        let mut victim = base;
        for i in base..base + self.cache.ways as usize {
            if self.lines[i] == NO_LINE {
                victim = i;
                break;
            }
            if self.keys[i] > self.keys[victim] {
                victim = i;
            }
        }
        if let Some(table) = &mut self.way_of_line {
            if self.lines[victim] != NO_LINE {
                table.remove(self.lines[victim]);
            }
            table.insert(line, victim);
        }
        self.lines[victim] = line;
        self.keys[victim] = key;
        false
    }

    /// A store or atomic that drops `line` if present.
    fn drop_line(&mut self, line: u64) {
        if self.cache.sets == 0 {
            return;
        }
        if let Some(i) = self.find(self.base(line), line) {
            self.lines[i] = NO_LINE;
            if let Some(table) = &mut self.way_of_line {
                table.remove(line);
            }
        }
    }

    fn flush(&mut self) {
        self.lines.fill(NO_LINE);
        if let Some(table) = &mut self.way_of_line {
            table.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// One fully associative set of `ways` lines, linear index, write-evict.
    fn one_set(ways: u32) -> ReplayCache {
        ReplayCache { sets: 1, ways, line_bytes: 128, index: SetIndex::Linear, store_evicts: true }
    }

    fn loads(lines: &[u64]) -> Vec<L1Access> {
        lines.iter().map(|&l| L1Access::new(l, RequestKind::Load, 0, 0)).collect()
    }

    fn misses(stream: &[L1Access], cache: &ReplayCache, policy: ReplayPolicy) -> u64 {
        replay(stream, cache, policy, &mut Vec::new()).misses
    }

    /// The textbook reference string (Silberschatz et al., *Operating System Concepts*, ch. 9)
    /// with 3 frames: 9 faults under OPT and 12 under LRU over the whole string; over its first
    /// 13 references, 7 and 9 (worked below).
    const REFERENCE_STRING: [u64; 20] = [7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1];

    #[test]
    fn belady_and_lru_fault_as_the_textbook_counts_on_its_reference_string() {
        let cache = one_set(3);
        // 7 0 1 2 0 3 0 4 2 3 0 3 2 under OPT: 7 0 1 miss (cold); 2 evicts 7 (never again);
        // 0 hits; 3 evicts 1 (next at 13, furthest); 0 hits; 4 evicts 0 (next at 10, after 2
        // at 8 and 3 at 9); 2 3 hit; 0 evicts 4 (never again); 3 2 hit: 7 misses.
        // LRU: 7 0 1 miss; 2 evicts 7; 0 hits; 3 evicts 1; 0 hits; 4 evicts 2, 2 evicts 3,
        // 3 evicts 0, 0 evicts 4; 3 2 hit: 9 misses.
        let head = loads(&REFERENCE_STRING[..13]);
        assert_eq!(misses(&head, &cache, ReplayPolicy::Belady), 7);
        assert_eq!(misses(&head, &cache, ReplayPolicy::Lru), 9);
        let whole = loads(&REFERENCE_STRING);
        assert_eq!(misses(&whole, &cache, ReplayPolicy::Belady), 9);
        assert_eq!(misses(&whole, &cache, ReplayPolicy::Lru), 12);
        let counts = replay(&whole, &cache, ReplayPolicy::Belady, &mut Vec::new());
        assert_eq!(counts, ReplayCounts { accesses: 20, loads: 20, hits: 11, misses: 9 });
    }

    #[test]
    fn each_set_keeps_its_own_lines() {
        // Two sets of two ways, linear index: even lines in set 0, odd ones in set 1.
        // Stream (index: line) 0:0 1:1 2:2 3:3 4:4 5:1 6:0 7:3 8:2 9:4.
        // Set 0 sees 0 2 4 0 2 4. Belady: 0, 2 cold; 4 evicts 2 (next at 8, 0's at 6); 0 hits;
        // 2 evicts 0 (never again; 4's next is at 9); 4 hits: 4 misses. LRU misses all 6.
        // Set 1 sees 1 3 1 3: 2 cold misses, then hits, under either policy.
        let cache = ReplayCache { sets: 2, ..one_set(2) };
        let stream = loads(&[0, 1, 2, 3, 4, 1, 0, 3, 2, 4]);
        assert_eq!(misses(&stream, &cache, ReplayPolicy::Belady), 4 + 2);
        assert_eq!(misses(&stream, &cache, ReplayPolicy::Lru), 6 + 2);
        // One set of four ways: 0 1 2 3 cold; 4 evicts 2 (next at 8, the furthest of 6, 5, 8,
        // 7); 1 0 3 hit; 2 evicts 0 (0, 1 and 3 are dead: the lowest way); 4 hits: 6 misses.
        // LRU: 4 evicts 0, then 1 hits, 0 evicts 2, 3 hits, 2 evicts 4, 4 evicts 1: 8.
        assert_eq!(misses(&stream, &one_set(4), ReplayPolicy::Belady), 6);
        assert_eq!(misses(&stream, &one_set(4), ReplayPolicy::Lru), 8);
    }

    #[test]
    fn the_fermi_hash_places_lines_as_the_l1_does() {
        // Lines 0, 64 and 128 share linear set 0 of 32 but spread over three hashed sets; one
        // way each: linear thrashes, the hash keeps all three.
        let linear = ReplayCache { sets: 32, ..one_set(1) };
        let hashed = ReplayCache { index: SetIndex::FermiHash, ..linear };
        let stream = loads(&[0, 64, 128, 0, 64, 128]);
        assert_eq!(misses(&stream, &linear, ReplayPolicy::Lru), 6);
        assert_eq!(misses(&stream, &hashed, ReplayPolicy::Lru), 3);
        assert_eq!(misses(&stream, &hashed, ReplayPolicy::Belady), 3);
    }

    #[test]
    fn a_write_evict_store_drops_the_line_and_belady_treats_it_as_dead() {
        let store = |line| L1Access::new(line, RequestKind::Store, 0, 0);
        let load = |line| L1Access::new(line, RequestKind::Load, 0, 0);
        // 1 2 | store 1 | 1: the store drops 1, so the reload misses: 3 misses, 1 store.
        let stream = [load(1), load(2), store(1), load(1)];
        let counts = replay(&stream, &one_set(2), ReplayPolicy::Belady, &mut Vec::new());
        assert_eq!(counts, ReplayCounts { accesses: 4, loads: 3, hits: 0, misses: 3 });
        // Write-through leaves it: the reload hits.
        let through = ReplayCache { store_evicts: false, ..one_set(2) };
        assert_eq!(misses(&stream, &through, ReplayPolicy::Belady), 2);
        // An atomic drops it under either policy.
        let atomic = [load(1), L1Access::new(1, RequestKind::Atomic, 0, 0), load(1)];
        assert_eq!(misses(&atomic, &through, ReplayPolicy::Lru), 2);
        // Two ways: 1 2 3 [store 1] 1 2. At 3, line 1 is dead (the store drops it before its
        // next load), so 3 evicts 1, not 2; the reload of 1 evicts 3; 2 hits: 4 misses. A
        // Belady that took the store for a use of 1 (or looked past it to the reload of 1,
        // sooner than 2's) would evict 2 and miss 5.
        let stream = [load(1), load(2), load(3), store(1), load(1), load(2)];
        assert_eq!(misses(&stream, &one_set(2), ReplayPolicy::Belady), 4);
    }

    #[test]
    fn a_flush_empties_the_cache_and_ends_every_reuse() {
        let load = |line| L1Access::new(line, RequestKind::Load, 0, 0);
        // 1 2 | flush | 1 2: four misses; without the flush two.
        let stream = [load(1), load(2), L1Access::FLUSH, load(1), load(2)];
        let counts = replay(&stream, &one_set(2), ReplayPolicy::Belady, &mut Vec::new());
        assert_eq!(counts, ReplayCounts { accesses: 4, loads: 4, hits: 0, misses: 4 });
        assert_eq!(misses(&loads(&[1, 2, 1, 2]), &one_set(2), ReplayPolicy::Lru), 2);
        assert_eq!(misses(&stream, &one_set(2), ReplayPolicy::Lru), 4);
    }

    #[test]
    fn counts_go_to_the_run_of_each_access() {
        let access = |line, kind, kernel| L1Access::new(line, kind, 3, kernel);
        let stream = [
            access(1, RequestKind::Load, 0),
            access(1, RequestKind::Load, 2),
            access(5, RequestKind::Store, 2),
            L1Access::FLUSH,
            access(1, RequestKind::Load, 2),
        ];
        let mut runs = Vec::new();
        let total = replay(&stream, &one_set(2), ReplayPolicy::Lru, &mut runs);
        assert_eq!(total, ReplayCounts { accesses: 4, loads: 3, hits: 1, misses: 2 });
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0], ReplayCounts { accesses: 1, loads: 1, hits: 0, misses: 1 });
        assert_eq!(runs[1], ReplayCounts::default());
        assert_eq!(runs[2], ReplayCounts { accesses: 3, loads: 2, hits: 1, misses: 1 });
    }

    #[test]
    fn without_an_l1_every_load_misses() {
        let cache = ReplayCache::of(&L1Config { size_bytes: 0, ..crate::config::presets::ccws_fermi().l1 });
        assert_eq!((cache.sets, cache.ways), (0, 0));
        let stream = loads(&[1, 1, 1]);
        assert_eq!(misses(&stream, &cache, ReplayPolicy::Belady), 3);
    }

    /// A random stream of loads, stores, atomics and flushes over `footprint` lines.
    fn random_stream(rng: &mut SplitMix64, n: usize, footprint: u64) -> Vec<L1Access> {
        (0..n)
            .map(|_| match rng.below(40) {
                0 => L1Access::FLUSH,
                1 | 2 => L1Access::new(rng.below(footprint), RequestKind::Store, 0, 0),
                3 => L1Access::new(rng.below(footprint), RequestKind::Atomic, 0, 0),
                // Skewed: low lines are reused more.
                _ => {
                    let hot = 1 + rng.below(footprint);
                    L1Access::new(rng.below(hot), RequestKind::Load, 0, 0)
                }
            })
            .collect()
    }

    #[test]
    fn belady_never_misses_more_than_lru_on_random_streams() {
        for seed in 0..200u64 {
            let mut rng = SplitMix64::new(seed);
            let ways = 1 + rng.below(8) as u32;
            let sets = [1, 2, 4, 32][rng.below(4) as usize];
            let index = if sets == 32 && seed % 2 == 0 { SetIndex::FermiHash } else { SetIndex::Linear };
            let cache = ReplayCache { sets, ways, line_bytes: 128, index, store_evicts: rng.below(2) == 0 };
            let footprint = 1 + rng.below(4 * (sets * ways) as u64);
            let stream = random_stream(&mut rng, 3000, footprint);
            let belady = misses(&stream, &cache, ReplayPolicy::Belady);
            let lru = misses(&stream, &cache, ReplayPolicy::Lru);
            assert!(belady <= lru, "seed {seed}: Belady {belady} > LRU {lru} ({cache:?})");
        }
    }

    #[test]
    fn belady_and_lru_agree_when_the_footprint_fits() {
        // Every line has a way of its own: only cold misses (and refetches after drops).
        for seed in 0..50u64 {
            let mut rng = SplitMix64::new(1000 + seed);
            let cache = one_set(16);
            let stream = random_stream(&mut rng, 2000, 16);
            let (belady, lru) =
                (misses(&stream, &cache, ReplayPolicy::Belady), misses(&stream, &cache, ReplayPolicy::Lru));
            assert_eq!(belady, lru, "seed {seed}");
        }
    }

    /// Belady's choice is optimal: on small streams, no other choice of victims (tried
    /// exhaustively) misses less.
    #[test]
    fn belady_matches_an_exhaustive_search_on_small_streams() {
        fn best(stream: &[u64], ways: usize, resident: &mut Vec<u64>) -> u64 {
            let Some((&line, rest)) = stream.split_first() else { return 0 };
            if resident.contains(&line) {
                return best(rest, ways, resident);
            }
            if resident.len() < ways {
                resident.push(line);
                let m = 1 + best(rest, ways, resident);
                resident.pop();
                return m;
            }
            (0..ways)
                .map(|v| {
                    let old = core::mem::replace(&mut resident[v], line);
                    let m = 1 + best(rest, ways, resident);
                    resident[v] = old;
                    m
                })
                .min()
                .unwrap_or(0)
        }
        for seed in 0..40u64 {
            let mut rng = SplitMix64::new(seed);
            let lines: Vec<u64> = (0..12).map(|_| rng.below(6)).collect();
            let ways = 2 + (seed % 2) as usize;
            let belady = misses(&loads(&lines), &one_set(ways as u32), ReplayPolicy::Belady);
            assert_eq!(belady, best(&lines, ways, &mut Vec::new()), "seed {seed}: {lines:?}");
        }
    }

    #[test]
    fn wide_sets_found_through_the_table_replay_as_scanned_ones() {
        let mut rng = SplitMix64::new(7);
        let stream = random_stream(&mut rng, 20_000, 200);
        for policy in [ReplayPolicy::Belady, ReplayPolicy::Lru] {
            let wide = ReplayCache { sets: 2, ..one_set(48) };
            let mut scanned = Sets::new(&wide);
            scanned.way_of_line = None;
            let indexed = replay(&stream, &wide, policy, &mut Vec::new());
            // The same replay with the scan: run it by hand through `Sets`.
            let next = next_loads(&stream, true);
            let mut m = 0;
            for (i, a) in stream.iter().enumerate() {
                match a.kind {
                    AccessKind::Flush => scanned.flush(),
                    AccessKind::Load => {
                        let key = match policy {
                            ReplayPolicy::Belady if next[i] == NEVER => u64::MAX,
                            ReplayPolicy::Belady => next[i] as u64,
                            ReplayPolicy::Lru => !(i as u64),
                        };
                        m += !scanned.load(a.line, key) as u64;
                    }
                    _ => scanned.drop_line(a.line),
                }
            }
            assert_eq!(indexed.misses, m, "{policy:?}");
            assert!(m > 1000, "{m}");
        }
    }

    #[test]
    fn the_next_load_map_grows_and_keeps_every_line() {
        // 5000 distinct lines, each loaded twice, far apart: every first load knows its second.
        let lines: Vec<u64> = (0..5000u64).map(|i| i * 977).chain((0..5000u64).map(|i| i * 977)).collect();
        let next = next_loads(&loads(&lines), true);
        assert!(next[..5000].iter().enumerate().all(|(i, &n)| n == 5000 + i as u32));
        assert!(next[5000..].iter().all(|&n| n == NEVER));
    }
}
