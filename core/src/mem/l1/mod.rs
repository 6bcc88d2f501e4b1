//! The per-SM L1 data cache as GPGPU-Sim models it: allocate-on-miss with line reservation,
//! sectors (the unit fetched on a miss), MSHRs that merge requests to a line in flight, and a
//! miss queue towards the interconnect. A request it cannot take (every way of the set
//! reserved, no free MSHR, merge limit reached, miss queue full) is a *reservation failure*:
//! nothing changes but the failure counters, and the LSU retries.
//!
//! This is a pure data structure: it knows no time. The engine adds the hit latency, drains the
//! miss queue into the network and delivers fills when replies arrive.
//!
//! A way is *reserved* while it has an MSHR entry (some of its sectors are being fetched); a
//! reserved way is never chosen as a victim. Storage is flat and preallocated: `access` and
//! `fill` allocate nothing (the miss queue and the MSHRs' token slots are sized by the
//! configuration).
//!
//! A policy that redirects loads (CIAO) also gets a direct-mapped cache carved from the shared
//! memory the resident blocks leave unused ([`smc`]): its lines extend the tag array, and it
//! shares the L1's MSHRs, miss queue and fill path. A policy can also have some warps' loads use
//! the L1 without allocating in it (statPCAL: `bypass`).

use core::mem::size_of;

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::config::{L1Config, L1WritePolicy, Replacement, SetIndex};
use crate::mem::cache::fermi_hash_set;
use crate::mem::line_table::LineTable;

mod bypass;
mod mshr_share;
mod ownership;
pub mod smc;
mod ucp;
mod ways;

pub use smc::{SmcIndex, SmcSettings};

/// Where a warp's global loads go, as its warp policy decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LoadRoute {
    /// The L1, allocating on a miss.
    #[default]
    L1,
    /// The shared-memory cache ([`smc`]: CIAO's isolated warps).
    SharedMemoryCache,
    /// The L1 without allocating in it ([`L1Cache::load_bypassing`]: statPCAL's warps without a
    /// token).
    BypassL1,
}

/// What a request does to memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RequestKind {
    /// Reads; allocates in the L1.
    Load,
    /// Writes through to L2; never allocates.
    Store,
    /// Read-modify-write performed at L2; never allocates, and evicts the line from the L1.
    Atomic,
}

/// Why a request could not be accepted this cycle (it is retried next cycle by the engine).
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

/// A valid line pushed out to make room for a miss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evicted {
    /// Line address of the victim.
    pub line: u64,
    /// Owner id (warp) recorded when the victim was allocated, so policies can tell who lost it.
    pub owner: u32,
}

/// Whose data a hit found, as the CCWS paper splits hits (its Figs. 1 and 11): the line's
/// owner is the warp whose miss allocated it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitLocality {
    /// Another warp brought the line in (inter-warp locality).
    InterWarp,
    /// The requesting warp brought the line in, but none of the requesting lanes had touched
    /// it since (intra-warp, inter-thread locality).
    InterThread,
    /// The requesting warp brought the line in and one of the requesting lanes had touched it
    /// since (intra-warp, intra-thread locality).
    IntraThread,
}

/// Who presents a line request: the warp slot (recorded as a line's owner), the warp itself
/// (its dynamic id on the SM, so that a new warp in a reused slot is another warp), the lanes
/// the request serves, and the token [`L1Cache::fill`] hands back when its data arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requester {
    /// The warp slot: the owner id recorded when a load allocates a line.
    pub slot: u32,
    /// The warp's dynamic id on the SM (unique per admitted warp, modulo 2^32).
    pub warp: u32,
    /// The lanes served by this line request.
    pub lanes: u32,
    /// Identifies the request; handed back by [`L1Cache::fill`].
    pub token: u32,
}

/// The result of one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum L1Outcome {
    /// Every requested sector is valid: data after the hit latency.
    Hit {
        /// The owner id (warp slot) recorded when the line was allocated.
        owner: u32,
        /// Whether the requesting warp, or one of its requesting threads, brought the data in.
        locality: HitLocality,
    },
    /// The line is being fetched and every missing sector is already requested: merged into its
    /// MSHR entry, answered by its fill.
    HitReserved,
    /// The line was absent: a way was reserved (evicting `evicted` if the way held a valid line),
    /// an MSHR entry allocated, a miss request queued.
    Miss {
        /// The valid line the reserved way held, if any.
        evicted: Option<Evicted>,
    },
    /// The line is present (or, without an L1, already being fetched) but some requested sectors
    /// were neither valid nor requested: a miss request for those sectors was queued, with no
    /// eviction.
    SectorMiss,
    /// A store or atomic was queued towards L2. The L1 tracks no reply for it.
    Forwarded,
    /// Under DeNovo, a store or atomic on sectors this L1 owns: done here, nothing sent.
    OwnedWrite,
    /// Under DeNovo, a store or atomic on sectors this L1 did not own: they are written here and
    /// Owned from now on, and a registration went into the miss queue (for an atomic, one that
    /// brings the data back). Taking a way for the line may have pushed `evicted` out.
    Registered {
        /// The valid line the way held, if any (its owned sectors were written back).
        evicted: Option<Evicted>,
    },
    /// A redirected load found its line in the shared-memory cache.
    SmcHit {
        /// The owner id (warp slot) recorded when the line was allocated there.
        owner: u32,
    },
    /// A redirected load missed the shared-memory cache and the L1: its line was reserved there
    /// (pushing out `evicted`), an MSHR entry allocated and a miss request queued.
    SmcMiss {
        /// The valid line the slot held, if any.
        evicted: Option<Evicted>,
    },
    /// A redirected load found its line valid in the L1: the line moved into the shared-memory
    /// cache (pushing out `evicted`) and left the L1, without a request to L2.
    Migrated {
        /// The valid line the shared-memory cache's slot held, if any.
        evicted: Option<Evicted>,
        /// The L1's copy, with the warp that had brought it into the L1.
        moved: Evicted,
    },
    /// A load through the L1 missed there and found its line valid in the shared-memory cache,
    /// whose copies are exclusive ([`SmcSettings::exclusive_copies`]): the line moved into an
    /// L1 way (pushing out `evicted`) and left the shared-memory cache, without a request to L2.
    ReturnedFromSmc {
        /// The valid line the L1 way held, if any.
        evicted: Option<Evicted>,
        /// The shared-memory cache's copy, with the warp that had brought it in there.
        moved: Evicted,
    },
    /// Not accepted; nothing changed except the failure counter.
    ReservationFail(FailReason),
}

/// What a miss request is for the coherence protocol. Under GPU coherence every request is
/// [`Message::Access`]; DeNovo adds the other two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Message {
    /// The access itself: a load's fetch, a store's data written through, an atomic.
    #[default]
    Access,
    /// DeNovo: the L1 took ownership of the sectors a store or atomic wrote; the home bank
    /// records it as their owner (and revokes the previous owner's copy). An atomic's
    /// registration brings the sectors' data back; a store's carries and needs none.
    Register,
    /// DeNovo: an evicted line's owned sectors, written back to the L2, which stops recording
    /// an owner for them.
    WriteBack,
}

/// A request waiting in the miss queue for the interconnect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissRequest {
    /// Line address (byte address / line size).
    pub line: u64,
    /// Sectors to fetch (loads) or written (stores, atomics).
    pub sectors: u32,
    /// What it does at L2.
    pub kind: RequestKind,
    /// For a load, the MSHR entry its reply completes: the engine hands it back with the reply
    /// so that [`L1Cache::fill_entry`] needs no set hash or tag search. Meaningless otherwise.
    pub mshr: u32,
    /// The kernel run whose access queued it (the L2 and DRAM count it against that run).
    pub kernel: u32,
    /// For an atomic, the most lanes updating one address; 1 otherwise.
    pub updates: u32,
    /// What it is for the coherence protocol.
    pub message: Message,
}

/// Counters of one L1. Accepted accesses are counted once each; reservation failures count
/// every failed attempt (the LSU retries each cycle), as the papers count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct L1Stats {
    /// Accepted accesses (loads, stores and atomics).
    pub accesses: u64,
    /// Of which hits.
    pub hits: u64,
    /// Of the hits, those on a line the requesting warp brought in (its miss allocated the
    /// line; a warp is its dynamic id, so a new warp in a reused slot is another warp).
    #[serde(default)]
    pub intra_warp_hits: u64,
    /// Of the hits, those on a line another warp brought in (`hits` = intra + inter).
    #[serde(default)]
    pub inter_warp_hits: u64,
    /// DeNovo: stores and atomics done on sectors the L1 owned (no traffic; L1 hits of writes).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub owned_writes: u64,
    /// DeNovo: stores and atomics that took ownership of sectors (a registration each).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub registrations: u64,
    /// DeNovo: evicted lines whose owned sectors were written back to the L2.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub owned_writebacks: u64,
    /// Of the intra-warp hits, those whose requesting lanes include one the owner had already
    /// touched the line with since it was allocated (intra-thread; the rest are inter-thread).
    #[serde(default)]
    pub intra_thread_hits: u64,
    /// Of which merged into a fetch in flight.
    pub hit_reserved: u64,
    /// Of which misses that allocated an MSHR for an absent line.
    pub misses: u64,
    /// Of which misses on some sectors of a present (or already requested) line.
    pub sector_misses: u64,
    /// Of which stores and atomics sent on to L2.
    pub forwarded: u64,
    /// Valid lines evicted by misses and by lines moved back from the shared-memory cache (not
    /// counting lines dropped by writes or invalidation).
    pub evictions: u64,
    /// Failed attempts: every way of the set reserved.
    pub fail_line_alloc: u64,
    /// Failed attempts: no free MSHR.
    pub fail_mshr_entry: u64,
    /// Failed attempts: merge limit of the line's MSHR.
    pub fail_mshr_merge: u64,
    /// Failed attempts: miss queue full.
    pub fail_miss_queue: u64,
    /// Redirected loads that hit the shared-memory cache (not counted in `accesses`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub smc_hits: u64,
    /// Redirected loads that missed it and went to L2.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub smc_misses: u64,
    /// Redirected loads that moved their line from the L1 into it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub smc_migrations: u64,
    /// Loads through the L1 that moved their line back from it into the L1 (exclusive copies;
    /// not counted in `accesses`, as the moves the other way are not).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub smc_returns: u64,
    /// Of the misses, loads that went to L2 without allocating a line (statPCAL's warps without
    /// a token).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bypassed: u64,
}

/// For serde: a counter left out of a report while it is zero, so that runs without the
/// mechanism it counts report exactly as before it existed.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl L1Stats {
    /// Counts one attempt that ended in `outcome`, as the L1 counts it: an accepted access by
    /// its kind (a miss that pushed a valid line out also as an eviction), a failed one by its
    /// cause. The engine keeps each kernel run's counts with it.
    pub fn record(&mut self, outcome: &L1Outcome) {
        let counter = match *outcome {
            L1Outcome::ReservationFail(reason) => return self.record_failures(reason, 1),
            L1Outcome::Hit { locality, .. } => {
                self.count_hit_locality(locality);
                &mut self.hits
            }
            L1Outcome::HitReserved => &mut self.hit_reserved,
            L1Outcome::Miss { evicted } => {
                self.evictions += evicted.is_some() as u64;
                &mut self.misses
            }
            L1Outcome::SectorMiss => &mut self.sector_misses,
            L1Outcome::Forwarded => &mut self.forwarded,
            L1Outcome::OwnedWrite => &mut self.owned_writes,
            L1Outcome::Registered { evicted } => {
                self.evictions += evicted.is_some() as u64;
                &mut self.registrations
            }
            // The shared-memory cache's own counts; not L1 accesses.
            L1Outcome::SmcHit { .. } => return self.smc_hits += 1,
            L1Outcome::SmcMiss { .. } => return self.smc_misses += 1,
            L1Outcome::Migrated { .. } => return self.smc_migrations += 1,
            L1Outcome::ReturnedFromSmc { evicted, .. } => {
                self.evictions += evicted.is_some() as u64;
                return self.smc_returns += 1;
            }
        };
        *counter += 1;
        self.accesses += 1;
    }

    /// Counts a hit's locality (not the hit itself).
    fn count_hit_locality(&mut self, locality: HitLocality) {
        match locality {
            HitLocality::InterWarp => self.inter_warp_hits += 1,
            HitLocality::InterThread => self.intra_warp_hits += 1,
            HitLocality::IntraThread => {
                self.intra_warp_hits += 1;
                self.intra_thread_hits += 1;
            }
        }
    }

    /// Loads of isolated warps sent to the shared-memory cache: hits, misses and lines moved
    /// there from the L1.
    pub fn redirected_loads(&self) -> u64 {
        self.smc_hits + self.smc_misses + self.smc_migrations
    }

    /// Failed attempts, every cause.
    pub fn failures(&self) -> u64 {
        self.fail_line_alloc + self.fail_mshr_entry + self.fail_mshr_merge + self.fail_miss_queue
    }

    /// Counts `n` attempts failed for `reason`.
    pub fn record_failures(&mut self, reason: FailReason, n: u64) {
        *match reason {
            FailReason::LineAlloc => &mut self.fail_line_alloc,
            FailReason::MshrEntry => &mut self.fail_mshr_entry,
            FailReason::MshrMerge => &mut self.fail_mshr_merge,
            FailReason::MissQueue => &mut self.fail_miss_queue,
        } += n;
    }
}

impl L1Stats {
    /// Adds `other`'s counts to these (summing SMs).
    pub fn merge(&mut self, other: &L1Stats) {
        self.accesses += other.accesses;
        self.hits += other.hits;
        self.intra_warp_hits += other.intra_warp_hits;
        self.inter_warp_hits += other.inter_warp_hits;
        self.intra_thread_hits += other.intra_thread_hits;
        self.hit_reserved += other.hit_reserved;
        self.misses += other.misses;
        self.sector_misses += other.sector_misses;
        self.forwarded += other.forwarded;
        self.evictions += other.evictions;
        self.fail_line_alloc += other.fail_line_alloc;
        self.fail_mshr_entry += other.fail_mshr_entry;
        self.fail_mshr_merge += other.fail_mshr_merge;
        self.fail_miss_queue += other.fail_miss_queue;
        self.owned_writes += other.owned_writes;
        self.registrations += other.registrations;
        self.owned_writebacks += other.owned_writebacks;
        self.smc_hits += other.smc_hits;
        self.smc_misses += other.smc_misses;
        self.smc_migrations += other.smc_migrations;
        self.smc_returns += other.smc_returns;
        self.bypassed += other.bypassed;
    }
}

const NO_MSHR: u32 = u32::MAX;
const NO_WAY: u32 = u32::MAX;

/// One way of the tag array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Way {
    /// Line address held; meaningful only while the way is present (valid data or reserved).
    line: u64,
    /// Replacement stamp: last use (LRU) or allocation (FIFO). The smallest is evicted.
    stamp: u64,
    /// Sectors holding data.
    valid: u32,
    /// Warp that allocated the line.
    owner: u32,
    /// MSHR fetching sectors of this line, or `NO_MSHR`. A way with an MSHR is reserved.
    mshr: u32,
    /// Invalidated while reserved: the fill wakes its requests but keeps no data (but the
    /// sectors it owns).
    drop_on_fill: bool,
    /// DeNovo: sectors this L1 owns (a subset of `valid`): written here, registered at the
    /// L2, written back when the line is evicted, kept across kernel boundaries.
    owned: u32,
    /// The co-running kernel whose miss brought the line in (UCP's partition counts by it).
    kernel: u8,
}

impl Way {
    fn reserved(&self) -> bool {
        self.mshr != NO_MSHR
    }

    /// Holds a line: some valid data, or a fetch in flight.
    fn present(&self) -> bool {
        self.valid != 0 || self.reserved()
    }
}

/// Who brought a way's line in, for the hit breakdown: kept beside the tag array (not in
/// [`Way`]) because only hits and allocations read it, while every lookup scans the ways.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Provenance {
    /// Dynamic id of the warp whose miss allocated the line.
    warp: u32,
    /// Lanes of that warp that touched the line since (the allocating request's included).
    lanes: u32,
}

const EMPTY_WAY: Way =
    Way { line: 0, stamp: 0, valid: 0, owner: 0, mshr: NO_MSHR, drop_on_fill: false, owned: 0, kernel: 0 };

/// One miss status holding register: a line being fetched and the requests waiting for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mshr {
    in_use: bool,
    line: u64,
    /// The way reserved for the line (`NO_WAY` without an L1); it holds the line until the
    /// entry is freed.
    way: u32,
    /// Sectors asked of L2 through this entry.
    requested: u32,
    /// Of those, sectors whose reply has arrived.
    arrived: u32,
    /// Requests merged (the first included); their tokens are in the entry's token slots.
    merged: u32,
    /// The co-running kernel whose miss took it, under per-kernel MSHR shares.
    group: u8,
}

const FREE_MSHR: Mshr = Mshr { in_use: false, line: 0, way: NO_WAY, requested: 0, arrived: 0, merged: 0, group: 0 };

/// One SM's L1 data cache with its MSHRs and miss queue.
#[derive(Clone, Debug)]
pub struct L1Cache {
    /// 0 when the configuration has no L1.
    sets: u32,
    ways: u32,
    line_bytes: u32,
    /// Bit mask of every sector of a line.
    all_sectors: u32,
    index: SetIndex,
    replacement: Replacement,
    write_policy: L1WritePolicy,
    /// DeNovo: stores and atomics take ownership (see [`ownership`]) instead of writing through.
    owns_writes: bool,
    max_merge: u32,
    miss_queue_capacity: usize,
    /// The kernel run of the access being served, stamped on the miss requests it queues.
    requester: u32,
    /// The co-running kernel (host stream, by position) of the instruction in the LSU: its
    /// MSHR share, UCP's shadow tags and the kernel a line it brings in is counted under.
    requester_kernel: u8,
    /// Whether the MSHRs are shared out per co-running kernel (`l1.mshr_partition`).
    partition_mshrs: bool,
    /// The shares, once [`L1Cache::share_mshrs`] knows how many kernels co-run.
    mshr_share: mshr_share::MshrShare,
    /// Whether the ways are partitioned by UCP among co-running kernels, and how often.
    ucp_period: Option<u64>,
    /// The partition, once [`L1Cache::share_mshrs`] knows how many kernels co-run.
    ucp: Option<ucp::Ucp>,
    /// Tag array, entry `set * ways + way`.
    lines: ways::Ways,
    /// Who allocated each way's line, entry `set * ways + way`.
    provenance: Vec<Provenance>,
    mshrs: Vec<Mshr>,
    /// Tokens of the requests merged into each MSHR: entry `m` owns `[m * max_merge, (m + 1) * max_merge)`.
    mshr_tokens: Vec<u32>,
    /// Indices of free MSHRs (a stack; entry 0 is handed out first).
    free_mshrs: Vec<u32>,
    miss_queue: VecDeque<MissRequest>,
    /// Monotonic counter that produces replacement stamps, so stamps never tie.
    clock: u64,
    stats: L1Stats,
    /// Per way (`set * ways + way`): hits and allocations since [`L1Cache::take_line_activity`]
    /// last ran, for the heat map. Only ever incremented here; results never read them.
    line_hits: Vec<u32>,
    line_allocations: Vec<u32>,
    /// Line → way of every present way, kept only for sets too wide to scan
    /// ([`SCANNED_WAYS`]): the H100's L1 has hundreds of ways per set. The shared-memory
    /// cache's lines are never in it.
    way_of_line: Option<LineTable>,
    /// The shared-memory cache: its lines are `lines[l1_ways..]`.
    smc: smc::Smc,
}

/// The set `line` maps to in an L1 of `sets` sets of `line_bytes`-byte lines indexed by
/// `index`: `line % sets` (linear) or Fermi's XOR hash of the byte address; 0 for no sets.
/// The L1 and its replay ([`crate::mem::replay`]) both index through it.
pub fn set_of_line(index: SetIndex, sets: u32, line_bytes: u32, line: u64) -> u32 {
    match index {
        _ if sets == 0 => 0,
        SetIndex::Linear => (line % sets as u64) as u32,
        SetIndex::FermiHash => fermi_hash_set(line.wrapping_mul(line_bytes as u64), sets),
    }
}

/// Sets of at most this many ways are searched by a scan, which beats a hash probe there;
/// wider ones through [`L1Cache::way_of_line`]. Both find the one way holding a line.
const SCANNED_WAYS: u32 = 16;

impl L1Cache {
    /// Bytes an L1 of `config` allocates, about: its per-line arrays, the line table of wide
    /// sets, the MSHRs and their token slots, and up to `smc_bytes` of shared memory turned into
    /// cache lines (CIAO's shared-memory cache). For [`crate::footprint`].
    pub fn bytes_needed(config: &L1Config, smc_bytes: u32) -> u64 {
        let line_bytes = config.line_bytes.max(1) as u64;
        let lines = config.size_bytes as u64 / line_bytes;
        let per_line = (size_of::<Way>() + size_of::<Provenance>() + 2 * size_of::<u32>()) as u64;
        let table = if config.ways > SCANNED_WAYS {
            (lines.max(1) * 4).next_power_of_two() * (size_of::<u64>() + size_of::<u32>()) as u64
        } else {
            0
        };
        let entries = config.mshr_entries as u64;
        let mshrs = entries * (size_of::<Mshr>() + size_of::<u32>()) as u64
            + entries * config.mshr_max_merge as u64 * size_of::<u32>() as u64;
        lines * per_line + table + mshrs + smc_bytes as u64 / line_bytes * size_of::<Way>() as u64
    }

    /// An empty L1 for a validated `config`. `size_bytes == 0` means no L1: loads never hit,
    /// but still merge in the MSHRs and go through the miss queue.
    pub fn new(config: &L1Config) -> Self {
        // `max(1)` keeps an unvalidated configuration from dividing by zero; validation rejects it anyway.
        let ways = config.ways.max(1);
        let sets = config.size_bytes / config.line_bytes.max(1) / ways;
        let ways = if sets == 0 { 0 } else { ways };
        let sectors_per_line = config.line_bytes / config.sector_bytes.max(1);
        let all_sectors = if sectors_per_line >= 32 { u32::MAX } else { (1u32 << sectors_per_line) - 1 };
        let max_merge = config.mshr_max_merge.max(1);
        let entries = config.mshr_entries;
        L1Cache {
            requester: 0,
            requester_kernel: 0,
            partition_mshrs: config.mshr_partition == crate::config::MshrPartition::PerKernel,
            mshr_share: mshr_share::MshrShare::default(),
            ucp_period: (config.partition == crate::config::L1Partition::Ucp).then_some(u64::from(config.ucp_period)),
            ucp: None,
            sets,
            ways,
            line_bytes: config.line_bytes,
            all_sectors,
            index: config.index,
            // An oracle cannot time a run: a Belady L1 is timed with LRU and replayed afterwards.
            replacement: match config.replacement {
                Replacement::Belady => Replacement::Lru,
                other => other,
            },
            write_policy: config.write_policy,
            owns_writes: false,
            max_merge,
            miss_queue_capacity: config.miss_queue_entries as usize,
            lines: ways::Ways::new(sets as usize * ways as usize, EMPTY_WAY),
            provenance: vec![Provenance::default(); sets as usize * ways as usize],
            mshrs: vec![FREE_MSHR; entries as usize],
            mshr_tokens: vec![0; entries as usize * max_merge as usize],
            free_mshrs: (0..entries).rev().collect(),
            miss_queue: VecDeque::with_capacity(config.miss_queue_entries as usize),
            clock: 0,
            stats: L1Stats::default(),
            line_hits: vec![0; sets as usize * ways as usize],
            line_allocations: vec![0; sets as usize * ways as usize],
            way_of_line: (ways > SCANNED_WAYS).then(|| LineTable::new((sets * ways) as usize)),
            smc: smc::Smc::default(),
        }
    }

    /// Sets (0 without an L1).
    pub fn sets(&self) -> u32 {
        self.sets
    }

    /// Ways per set (0 without an L1).
    pub fn ways(&self) -> u32 {
        self.ways
    }

    /// The set `line` maps to: `line % sets` (linear) or Fermi's XOR hash of the byte address.
    /// 0 without an L1.
    pub fn set_of(&self, line: u64) -> u32 {
        set_of_line(self.index, self.sets, self.line_bytes, line)
    }

    /// One line request of one warp instruction. `sectors` is a non-zero mask of the sectors of
    /// the line it touches (bit `i` = bytes `[i * sector_bytes, (i + 1) * sector_bytes)`).
    /// `owner` (the warp) is recorded when a load allocates the line; `token` identifies the
    /// requester and is handed back by [`L1Cache::fill`] when its data arrives. The request
    /// serves every lane, and the warp in slot `owner` is its only warp ever.
    pub fn access(&mut self, line: u64, sectors: u32, kind: RequestKind, owner: u32, token: u32) -> L1Outcome {
        self.access_by(line, sectors, kind, Requester { slot: owner, warp: owner, lanes: u32::MAX, token })
    }

    /// [`L1Cache::access`] by the request of `who`.
    pub fn access_by(&mut self, line: u64, sectors: u32, kind: RequestKind, who: Requester) -> L1Outcome {
        self.access_in(self.set_of(line), line, sectors, kind, who, 0, 1)
    }

    /// [`L1Cache::access`] for a line whose set, [`L1Cache::set_of`], is already known, by an
    /// instruction of kernel run `kernel` (stamped on the miss requests it queues); an atomic
    /// updates its most contended address `updates` times.
    #[allow(clippy::too_many_arguments)]
    pub fn access_in(
        &mut self,
        set: u32,
        line: u64,
        sectors: u32,
        kind: RequestKind,
        who: Requester,
        kernel: u32,
        updates: u32,
    ) -> L1Outcome {
        self.requester = kernel;
        debug_assert_eq!(set, self.set_of(line));
        debug_assert!(
            sectors != 0 && sectors & !self.all_sectors == 0,
            "sector mask {sectors:#b} is empty or names sectors beyond the line"
        );
        let outcome = match kind {
            RequestKind::Load if self.sets == 0 => self.load_uncached(line, sectors, who.token),
            RequestKind::Load => {
                let base = set as usize * self.ways as usize;
                match self.find_in(base, line) {
                    Some(i) => self.load_present(i, line, sectors, who),
                    None => match self.smc_returnable(line, sectors) {
                        Some(from) => self.return_from_smc(base, from, line, who),
                        None => self.load_absent(base, line, sectors, who),
                    },
                }
            }
            RequestKind::Store | RequestKind::Atomic if self.owns_writes => {
                self.write_owning(set, line, sectors, kind, who, updates)
            }
            RequestKind::Store | RequestKind::Atomic => self.forward(line, sectors, kind, updates),
        };
        if !matches!(outcome, L1Outcome::ReservationFail(_) | L1Outcome::ReturnedFromSmc { .. }) {
            self.stats.accesses += 1;
            if let (RequestKind::Load, Some(ucp)) = (kind, &mut self.ucp) {
                ucp.observe(self.requester_kernel as usize, set, line);
            }
        }
        outcome
    }

    /// The failure a load of `line` (in `set`) would meet if presented now, when that is cheap
    /// to tell for sure: the line absent and no MSHR free, as [`L1Cache::access_in`] decides
    /// it. `None` does not promise success.
    pub fn load_doomed(&self, set: u32, line: u64) -> Option<FailReason> {
        if self.sets == 0 || !self.no_mshr_for_requester() {
            return None;
        }
        let base = set as usize * self.ways as usize;
        match self.find_in(base, line) {
            // A line the shared-memory cache hands back needs no MSHR: not foreseen.
            None if self.smc_may_return(line) => None,
            Some(_) => None,
            None => Some(self.no_free_mshr_reason(base)),
        }
    }

    /// Whether a load of `line` (in `set`) that was turned away for want of a way would be
    /// again if presented now: the line is still absent and every way of its set still waits
    /// for a fetch, so no victim exists whether or not an MSHR is free ([`L1Cache::access_in`]
    /// fails it with [`FailReason::LineAlloc`] either way). Only a fill into that set ends it.
    pub fn still_no_way_for(&self, set: u32, line: u64) -> bool {
        let base = set as usize * self.ways as usize;
        self.sets > 0
            && self.lines.all_reserved(base, self.ways as usize)
            && self.find_in(base, line).is_none()
            && !self.smc_may_return(line)
    }

    /// Counts `n` more failed attempts for `reason` without making them: the engine knows they
    /// would fail, because nothing that could free the resource (a fill, a miss-queue pop)
    /// happened in between.
    pub fn record_failures(&mut self, reason: FailReason, n: u64) {
        self.stats.record_failures(reason, n);
    }

    /// Requests waiting to enter the interconnect.
    pub fn miss_queue_len(&self) -> usize {
        self.miss_queue.len()
    }

    /// The oldest waiting request.
    pub fn peek_miss(&self) -> Option<&MissRequest> {
        self.miss_queue.front()
    }

    /// Removes the oldest waiting request (it has entered the interconnect), freeing its slot.
    pub fn pop_miss(&mut self) -> Option<MissRequest> {
        self.miss_queue.pop_front()
    }

    /// The reply for `sectors` of `line` arrived: those sectors become valid. When every sector
    /// requested through the line's MSHR entry has arrived, the entry is freed (un-reserving the
    /// line) and the tokens of all requests merged into it, the first included, are appended to
    /// `woken` in arrival order. A reply for a line with no fetch in flight is ignored.
    pub fn fill(&mut self, line: u64, sectors: u32, woken: &mut Vec<u32>) {
        let way = if self.sets == 0 { None } else { self.find(line) };
        let mshr = match way {
            Some(i) => Some(self.lines[i].mshr).filter(|&m| m != NO_MSHR).map(|m| m as usize),
            None => self.mshr_of_line(line),
        };
        let Some(m) = mshr else { return };
        // A fetch into the shared-memory cache is found by its MSHR, which names its slot.
        let way = way.or_else(|| Some(self.mshrs[m].way as usize).filter(|&w| w != NO_WAY as usize));
        self.complete(m, way, sectors, woken);
    }

    /// [`L1Cache::fill`] for the reply to a miss request that named MSHR `mshr`
    /// ([`MissRequest::mshr`]): the entry points to the line's way, so neither the set nor the
    /// tags are looked up. An entry not fetching `line` falls back to the search.
    pub fn fill_entry(&mut self, mshr: u32, line: u64, sectors: u32, woken: &mut Vec<u32>) {
        match self.mshrs.get(mshr as usize) {
            Some(entry) if entry.in_use && entry.line == line => {
                let way = (entry.way != NO_WAY).then_some(entry.way as usize);
                self.complete(mshr as usize, way, sectors, woken);
            }
            _ => self.fill(line, sectors, woken),
        }
    }

    /// `sectors` arrived for MSHR `m`, whose line is in `way` if the L1 holds it.
    fn complete(&mut self, m: usize, way: Option<usize>, sectors: u32, woken: &mut Vec<u32>) {
        let entry = &mut self.mshrs[m];
        // Only requested sectors count, so sectors added later are always awaited anew.
        entry.arrived |= sectors & entry.requested;
        let complete = entry.requested & !entry.arrived == 0;
        if let Some(i) = way {
            let all_sectors = self.all_sectors;
            self.lines.update(i, |w| {
                if !w.drop_on_fill {
                    w.valid |= sectors & all_sectors;
                }
            });
        }
        if !complete {
            return;
        }
        let first = m * self.max_merge as usize;
        woken.extend_from_slice(&self.mshr_tokens[first..first + entry.merged as usize]);
        let group = entry.group;
        *entry = FREE_MSHR;
        self.mshr_share.give_back(group);
        self.free_mshrs.push(m as u32);
        if let Some(i) = way {
            let dropped = self.lines.update(i, |w| {
                w.mshr = NO_MSHR;
                if w.drop_on_fill && w.owned != 0 {
                    // Invalidated while in flight, but written here since: the owned sectors stay.
                    w.valid = w.owned;
                    w.drop_on_fill = false;
                }
                w.drop_on_fill.then_some(w.line)
            });
            if let Some(line) = dropped {
                self.empty_way(i, line);
            }
        }
    }

    /// Kernel boundary under GPU coherence: every valid line is dropped. Lines with a fetch in
    /// flight stay reserved; their fill wakes the waiting requests but leaves the line invalid.
    pub fn invalidate_all(&mut self) {
        if let Some(table) = &mut self.way_of_line {
            table.clear();
        }
        let l1_ways = self.l1_ways();
        for i in 0..self.lines.len() {
            // A fetch in flight keeps its way, so its line stays findable.
            if let Some(line) = self.lines.drop_data(i) {
                if let Some(table) = self.way_of_line.as_mut().filter(|_| i < l1_ways) {
                    table.insert(line, i);
                }
            }
        }
    }

    /// Counters so far.
    pub fn stats(&self) -> L1Stats {
        self.stats
    }

    /// MSHR entries in use (lines being fetched).
    pub fn mshrs_in_use(&self) -> usize {
        self.mshrs.len() - self.free_mshrs.len()
    }

    /// Owner of each way of `set`, `None` where the way holds no valid data, for the heat map.
    /// Empty for a set that does not exist.
    pub fn owners_of_set(&self, set: u32) -> impl Iterator<Item = Option<u32>> + '_ {
        let ways = self.ways as usize;
        let base = (set as usize).saturating_mul(ways);
        let lines = self.lines.get(base..base.saturating_add(ways)).unwrap_or(&[]);
        lines.iter().map(|w| (w.valid != 0).then_some(w.owner))
    }

    /// Per way (`set * ways + way`): the hits it served and the lines allocated in it (misses
    /// that took it, evicting what it held) since the previous call, which zeroes them.
    pub fn take_line_activity(&mut self) -> (Vec<u32>, Vec<u32>) {
        let hits = self.line_hits.clone();
        let allocations = self.line_allocations.clone();
        self.line_hits.fill(0);
        self.line_allocations.fill(0);
        (hits, allocations)
    }

    /// The way holding `line` (valid or reserved). Requires an L1.
    fn find(&self, line: u64) -> Option<usize> {
        self.find_in(self.set_base(line), line)
    }

    /// Index of the first way of `line`'s set. Requires an L1.
    fn set_base(&self, line: u64) -> usize {
        self.set_of(line) as usize * self.ways as usize
    }

    /// The way holding `line` in the set starting at `base`.
    fn find_in(&self, base: usize, line: u64) -> Option<usize> {
        if let Some(table) = &self.way_of_line {
            return table.get(line);
        }
        let ways = &self.lines[base..base + self.ways as usize];
        ways.iter().position(|w| w.line == line && w.present()).map(|i| base + i)
    }

    /// Way `i`, which holds `line`, holds nothing from now on.
    fn empty_way(&mut self, i: usize, line: u64) {
        self.lines.set(i, EMPTY_WAY);
        if i >= self.l1_ways() {
            return; // a shared-memory cache line: never in the table
        }
        if let Some(table) = &mut self.way_of_line {
            table.remove(line);
        }
    }

    /// Ways of the L1 proper: `lines[..l1_ways]`; the shared-memory cache's follow.
    fn l1_ways(&self) -> usize {
        self.sets as usize * self.ways as usize
    }

    /// The MSHR fetching `line`, searched directly (used when there is no tag array to point to it).
    fn mshr_of_line(&self, line: u64) -> Option<usize> {
        self.mshrs.iter().position(|m| m.in_use && m.line == line)
    }

    /// A use of way `i`: refreshes its stamp under LRU (FIFO stamps only change on allocation).
    fn touch(&mut self, i: usize) {
        if self.replacement == Replacement::Lru {
            self.clock += 1;
            let clock = self.clock;
            self.lines.update(i, |w| w.stamp = clock);
        }
    }

    fn fail(&mut self, reason: FailReason) -> L1Outcome {
        self.record_failures(reason, 1);
        L1Outcome::ReservationFail(reason)
    }

    fn miss_queue_full(&self) -> bool {
        self.miss_queue.len() >= self.miss_queue_capacity
    }

    /// Queues a request towards L2; `mshr` is the entry a load's reply completes.
    fn queue(&mut self, line: u64, sectors: u32, kind: RequestKind, mshr: u32) {
        self.queue_updating(line, sectors, kind, mshr, 1);
    }

    /// [`L1Cache::queue`] for an atomic updating its most contended address `updates` times.
    fn queue_updating(&mut self, line: u64, sectors: u32, kind: RequestKind, mshr: u32, updates: u32) {
        self.queue_message(MissRequest {
            line,
            sectors,
            kind,
            mshr,
            kernel: self.requester,
            updates,
            message: Message::Access,
        });
    }

    /// Queues `request` towards L2 (the caller checked there is room).
    fn queue_message(&mut self, request: MissRequest) {
        debug_assert!(!self.miss_queue_full());
        self.miss_queue.push_back(request);
    }

    /// Takes a free MSHR for `line` (the caller checked there is one) with `token` as its first
    /// request; `way` is the way reserved for the line (`NO_WAY` without an L1).
    fn allocate_mshr(&mut self, line: u64, way: u32, sectors: u32, token: u32) -> u32 {
        let Some(m) = self.free_mshrs.pop() else {
            debug_assert!(false, "allocate_mshr without a free entry");
            return NO_MSHR;
        };
        let group = self.requester_kernel;
        self.mshr_share.take(group);
        self.mshrs[m as usize] = Mshr { in_use: true, line, way, requested: sectors, arrived: 0, merged: 1, group };
        self.mshr_tokens[m as usize * self.max_merge as usize] = token;
        m
    }

    /// A load whose missing sectors go through MSHR `m`, already fetching `line`: merged if they
    /// are all requested, otherwise the new ones are requested too. `way` is the line's way, if cached.
    fn join_mshr(&mut self, m: usize, way: Option<usize>, line: u64, missing: u32, who: Requester) -> L1Outcome {
        let token = who.token;
        let entry = self.mshrs[m];
        let new_sectors = missing & !entry.requested;
        if new_sectors != 0 && self.miss_queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        if entry.merged >= self.max_merge {
            return self.fail(FailReason::MshrMerge);
        }
        if let Some(i) = way {
            self.touch(i);
            self.note_lanes(i, who);
        }
        self.mshr_tokens[m * self.max_merge as usize + entry.merged as usize] = token;
        self.mshrs[m].merged += 1;
        if new_sectors == 0 {
            self.stats.hit_reserved += 1;
            return L1Outcome::HitReserved;
        }
        self.mshrs[m].requested |= new_sectors;
        self.queue(line, new_sectors, RequestKind::Load, m as u32);
        self.stats.sector_misses += 1;
        L1Outcome::SectorMiss
    }

    /// Lanes of the warp that allocated way `i` touching it again.
    fn note_lanes(&mut self, i: usize, who: Requester) {
        let p = &mut self.provenance[i];
        if p.warp == who.warp {
            p.lanes |= who.lanes;
        }
    }

    fn load_present(&mut self, i: usize, line: u64, sectors: u32, who: Requester) -> L1Outcome {
        let way = self.lines[i];
        let missing = sectors & !way.valid;
        if missing == 0 {
            self.touch(i);
            self.stats.hits += 1;
            self.line_hits[i] = self.line_hits[i].saturating_add(1);
            let p = &mut self.provenance[i];
            let locality = if p.warp != who.warp {
                HitLocality::InterWarp
            } else if p.lanes & who.lanes != 0 {
                HitLocality::IntraThread
            } else {
                HitLocality::InterThread
            };
            if p.warp == who.warp {
                p.lanes |= who.lanes;
            }
            self.stats.count_hit_locality(locality);
            return L1Outcome::Hit { owner: way.owner, locality };
        }
        if way.reserved() {
            return self.join_mshr(way.mshr as usize, Some(i), line, missing, who);
        }
        // Valid but missing sectors, nothing in flight: a new entry fetches them, no eviction.
        if self.no_mshr_for_requester() {
            return self.fail(FailReason::MshrEntry);
        }
        if self.miss_queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        self.touch(i);
        self.note_lanes(i, who);
        let mshr = self.allocate_mshr(line, i as u32, missing, who.token);
        self.lines.update(i, |w| w.mshr = mshr);
        self.queue(line, missing, RequestKind::Load, mshr);
        self.stats.sector_misses += 1;
        L1Outcome::SectorMiss
    }

    /// Whether the instruction in the LSU can take no MSHR: none is free, or its kernel holds
    /// its whole share ([`mshr_share`]).
    fn no_mshr_for_requester(&self) -> bool {
        self.free_mshrs.is_empty() || self.mshr_share.full(self.requester_kernel)
    }

    /// Splits the MSHRs among `kernels` co-running kernels, numbered `0..kernels`, if the
    /// configuration asks for per-kernel shares (`l1.mshr_partition`); otherwise nothing.
    pub fn share_mshrs(&mut self, kernels: u32) {
        if self.partition_mshrs {
            self.mshr_share = mshr_share::MshrShare::new(self.mshrs.len() as u32, kernels);
        }
        if let Some(period) = self.ucp_period.filter(|_| kernels >= 2 && self.sets > 0) {
            self.ucp = Some(ucp::Ucp::new(self.sets, self.ways, kernels as usize, period));
        }
    }

    /// Whether the ways are partitioned among kernels (UCP): a failure to allocate may end at a
    /// new split as well as at a fill, so the LSU must not wait for a fill alone.
    pub fn partitions_ways(&self) -> bool {
        self.ucp_period.is_some()
    }

    /// The clock reached `now`: UCP splits the ways again at each period boundary passed.
    pub fn advance_to(&mut self, now: u64) {
        if let Some(ucp) = &mut self.ucp {
            ucp.advance_to(now);
        }
    }

    /// The co-running kernel (numbered as for [`L1Cache::share_mshrs`]) whose instruction the
    /// LSU presents next.
    pub fn set_requester_kernel(&mut self, group: u8) {
        self.requester_kernel = group;
    }

    /// Why a load of a line absent from the set at `base` fails when no MSHR is free: it fails
    /// either way, and only the reason needs the set.
    fn no_free_mshr_reason(&self, base: usize) -> FailReason {
        if self.lines.all_reserved(base, self.ways as usize) {
            FailReason::LineAlloc
        } else {
            FailReason::MshrEntry
        }
    }

    /// A load of a line absent from its set, whose first way is `base`.
    fn load_absent(&mut self, base: usize, line: u64, sectors: u32, who: Requester) -> L1Outcome {
        if self.no_mshr_for_requester() {
            return self.fail(self.no_free_mshr_reason(base));
        }
        let Some(victim) = self.victim_in(base) else { return self.fail(FailReason::LineAlloc) };
        if !self.room_to_take(victim, 1) {
            return self.fail(FailReason::MissQueue);
        }
        let mshr = self.allocate_mshr(line, victim as u32, sectors, who.token);
        let evicted = self.take_way(victim, line, 0, mshr, who);
        self.queue(line, sectors, RequestKind::Load, mshr);
        self.stats.misses += 1;
        L1Outcome::Miss { evicted }
    }

    /// The way of the set at `base` a new line takes: among ways with no fetch in flight, an
    /// empty one first, else the oldest stamp (the first of equals). `None` when all are reserved.
    fn victim_in(&self, base: usize) -> Option<usize> {
        let Some(ucp) = &self.ucp else { return self.lines.victim(base, self.ways as usize) };
        // Under UCP a kernel below its share of the set takes another kernel's line or an
        // empty way, and one at its share its own.
        let set = &self.lines[base..base + self.ways as usize];
        let k = self.requester_kernel;
        let held = set.iter().filter(|w| w.present() && w.kernel == k).count() as u32;
        let below = held < ucp.share.get(k as usize).copied().unwrap_or(u32::MAX);
        let eligible = |w: &Way| match below {
            true => !w.present() || w.kernel != k,
            false => w.present() && w.kernel == k,
        };
        let mut victim = None;
        let mut best = (true, u64::MAX);
        for (i, w) in set.iter().enumerate() {
            let key = (w.valid != 0, w.stamp);
            if !w.reserved() && eligible(w) && (victim.is_none() || key < best) {
                (victim, best) = (Some(base + i), key);
            }
        }
        victim
    }

    /// Way `victim` of the L1 takes `line` for `who`, with `valid` sectors and fetch `mshr`;
    /// returns the valid line it pushed out (counted as an eviction).
    /// Under DeNovo the victim's owned sectors are written back (the caller made room in the
    /// miss queue: [`L1Cache::room_to_take`]).
    fn take_way(&mut self, victim: usize, line: u64, valid: u32, mshr: u32, who: Requester) -> Option<Evicted> {
        let old = self.lines[victim];
        let evicted = (old.valid != 0).then_some(Evicted { line: old.line, owner: old.owner });
        if evicted.is_some() {
            self.stats.evictions += 1;
        }
        if old.owned != 0 {
            self.write_back(old.line, old.owned);
        }
        self.clock += 1;
        if let Some(table) = &mut self.way_of_line {
            if old.present() {
                table.remove(old.line);
            }
            table.insert(line, victim);
        }
        let kernel = self.requester_kernel;
        self.lines.set(victim, Way { line, stamp: self.clock, valid, owner: who.slot, mshr, kernel, ..EMPTY_WAY });
        self.provenance[victim] = Provenance { warp: who.warp, lanes: who.lanes };
        self.line_allocations[victim] = self.line_allocations[victim].saturating_add(1);
        evicted
    }

    /// A load without an L1: merged into the line's MSHR if it has one, else a new entry.
    fn load_uncached(&mut self, line: u64, sectors: u32, token: u32) -> L1Outcome {
        if let Some(m) = self.mshr_of_line(line) {
            let who = Requester { slot: 0, warp: 0, lanes: 0, token };
            return self.join_mshr(m, None, line, sectors, who);
        }
        if self.no_mshr_for_requester() {
            return self.fail(FailReason::MshrEntry);
        }
        if self.miss_queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        let mshr = self.allocate_mshr(line, NO_WAY, sectors, token);
        self.queue(line, sectors, RequestKind::Load, mshr);
        self.stats.misses += 1;
        L1Outcome::Miss { evicted: None }
    }

    /// A store or atomic: written through to L2, never allocating. Write-evict stores and all
    /// atomics drop a valid line that has no fetch in flight, so later loads refetch from L2.
    fn forward(&mut self, line: u64, sectors: u32, kind: RequestKind, updates: u32) -> L1Outcome {
        if self.miss_queue_full() {
            return self.fail(FailReason::MissQueue);
        }
        let evicts = kind == RequestKind::Atomic || self.write_policy == L1WritePolicy::WriteEvict;
        if evicts && self.sets != 0 {
            if let Some(i) = self.find(line).filter(|&i| !self.lines[i].reserved()) {
                self.empty_way(i, line);
            }
        }
        if evicts {
            self.smc_drop(line);
        }
        self.queue_updating(line, sectors, kind, NO_MSHR, updates);
        self.stats.forwarded += 1;
        L1Outcome::Forwarded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    /// 4 sets × 2 ways × 128 B lines, 32 B sectors, 2 MSHRs merging 2 requests each, a miss
    /// queue of 2, linear index, LRU, write-evict.
    pub(super) fn config() -> L1Config {
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
            fill_bytes_per_cycle: 0,
            mshr_partition: crate::config::MshrPartition::Shared,
            partition: crate::config::L1Partition::None,
            ucp_period: 50_000,
        }
    }

    /// `config()` with room for more outstanding misses, for tests about something else.
    fn roomy() -> L1Config {
        L1Config { mshr_entries: 8, mshr_max_merge: 4, miss_queue_entries: 8, ..config() }
    }

    pub(super) const ALL: u32 = 0b1111;
    const LOAD: RequestKind = RequestKind::Load;

    /// A request of warp slot `slot` (its only warp) for every lane, with `token`.
    pub(super) fn who(slot: u32, token: u32) -> Requester {
        Requester { slot, warp: slot, lanes: u32::MAX, token }
    }

    pub(super) fn fill(l1: &mut L1Cache, line: u64, sectors: u32) -> Vec<u32> {
        let mut woken = Vec::new();
        l1.fill(line, sectors, &mut woken);
        woken
    }

    /// The oldest miss request as (line, sectors, kind), leaving out its MSHR index, which
    /// `the_reply_names_its_mshr_and_fills_it_without_a_search` checks.
    pub(super) fn pop(l1: &mut L1Cache) -> Option<(u64, u32, RequestKind)> {
        l1.pop_miss().map(|m| (m.line, m.sectors, m.kind))
    }

    /// Loads `line` whole on behalf of `owner` and completes the fetch: the line ends valid.
    fn bring_in(l1: &mut L1Cache, line: u64, owner: u32) {
        assert!(matches!(l1.access(line, ALL, LOAD, owner, 0), L1Outcome::Miss { .. }));
        assert_eq!(pop(l1), Some((line, ALL, LOAD)));
        assert_eq!(fill(l1, line, ALL), [0]);
    }

    /// Everything but the counters, to check that a failure changed nothing.
    fn state(l1: &L1Cache) -> String {
        format!(
            "{:?} {:?} {:?} {:?} {:?} {}",
            l1.lines, l1.mshrs, l1.mshr_tokens, l1.free_mshrs, l1.miss_queue, l1.clock
        )
    }

    #[test]
    fn a_cold_miss_is_answered_by_its_fill_then_hits() {
        let mut l1 = L1Cache::new(&config());
        assert_eq!((l1.sets(), l1.ways()), (4, 2));
        assert_eq!(l1.access(5, ALL, LOAD, 7, 100), L1Outcome::Miss { evicted: None });
        assert_eq!((l1.mshrs_in_use(), l1.miss_queue_len()), (1, 1));
        assert_eq!(l1.peek_miss().map(|m| (m.line, m.sectors, m.kind)), Some((5, ALL, LOAD)));
        assert_eq!(pop(&mut l1), Some((5, ALL, LOAD)));
        assert_eq!(l1.pop_miss(), None);
        assert_eq!(fill(&mut l1, 5, ALL), [100]);
        assert_eq!(l1.mshrs_in_use(), 0);
        assert_eq!(
            l1.access(5, 0b0100, LOAD, 8, 101),
            L1Outcome::Hit { owner: 7, locality: HitLocality::InterWarp },
            "warp 7 brought it in"
        );
        assert_eq!(l1.owners_of_set(1).collect::<Vec<_>>(), [Some(7), None], "line 5 is in set 1, filled by warp 7");
        let s = l1.stats();
        assert_eq!((s.accesses, s.misses, s.hits, s.hit_reserved), (2, 1, 1, 0));
    }

    #[test]
    fn hits_are_split_by_the_warp_and_the_lanes_that_brought_the_line_in() {
        let mut l1 = L1Cache::new(&roomy());
        let req = |slot, warp, lanes, token| Requester { slot, warp, lanes, token };
        let hit = |owner, locality| L1Outcome::Hit { owner, locality };
        // Warp 7 (slot 1) allocates line 5 with lanes 0-1, and merges lanes 2 into the fetch.
        assert_eq!(l1.access_by(5, ALL, LOAD, req(1, 7, 0b0011, 1)), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access_by(5, ALL, LOAD, req(1, 7, 0b0100, 2)), L1Outcome::HitReserved);
        fill(&mut l1, 5, ALL);
        use HitLocality::*;
        // Lane 3 never touched it: another thread of the same warp; then lane 3 has.
        assert_eq!(l1.access_by(5, ALL, LOAD, req(1, 7, 0b1000, 3)), hit(1, InterThread));
        assert_eq!(l1.access_by(5, ALL, LOAD, req(1, 7, 0b1000, 4)), hit(1, IntraThread));
        // Lane 2 came in through the merge.
        assert_eq!(l1.access_by(5, ALL, LOAD, req(1, 7, 0b0100, 5)), hit(1, IntraThread));
        // Another warp's lanes do not count as the owner's: lane 4 of warp 8, then of warp 7.
        assert_eq!(l1.access_by(5, ALL, LOAD, req(2, 8, 0b1_0000, 6)), hit(1, InterWarp));
        assert_eq!(l1.access_by(5, ALL, LOAD, req(1, 7, 0b1_0000, 7)), hit(1, InterThread));
        // Warp 9 took slot 1 after warp 7 exited: the same slot, another warp.
        assert_eq!(l1.access_by(5, ALL, LOAD, req(1, 9, 0b0001, 8)), hit(1, InterWarp));
        // A sector miss by the owner also marks its lanes (an unsectored miss elsewhere: line
        // 6 allocated with sector 0, lane 0; lane 5 asks for sector 1, then hits both).
        assert_eq!(l1.access_by(6, 0b01, LOAD, req(3, 3, 0b1, 9)), L1Outcome::Miss { evicted: None });
        fill(&mut l1, 6, 0b01);
        assert_eq!(l1.access_by(6, 0b10, LOAD, req(3, 3, 0b10_0000, 10)), L1Outcome::SectorMiss);
        fill(&mut l1, 6, 0b10);
        assert_eq!(l1.access_by(6, 0b11, LOAD, req(3, 3, 0b10_0000, 11)), hit(3, IntraThread));
        let s = l1.stats();
        assert_eq!((s.hits, s.intra_warp_hits, s.inter_warp_hits, s.intra_thread_hits), (7, 5, 2, 3));
        // The per-run counts read the same off the outcomes.
        let mut run = L1Stats::default();
        for locality in [InterThread, IntraThread, IntraThread, InterWarp, InterThread, InterWarp, IntraThread] {
            run.record(&hit(0, locality));
        }
        assert_eq!((run.hits, run.intra_warp_hits, run.inter_warp_hits, run.intra_thread_hits), (7, 5, 2, 3));
    }

    #[test]
    fn line_activity_counts_hits_and_allocations_per_way_until_taken() {
        let mut l1 = L1Cache::new(&roomy());
        bring_in(&mut l1, 5, 7); // set 1, way 0
        bring_in(&mut l1, 9, 8); // set 1, way 1
        l1.access(5, ALL, LOAD, 7, 0);
        l1.access(5, 0b1, LOAD, 7, 0);
        l1.access(9, ALL, LOAD, 8, 0);
        let evicted = Some(Evicted { line: 5, owner: 7 });
        assert_eq!(l1.access(13, ALL, LOAD, 9, 0), L1Outcome::Miss { evicted }, "line 5 is the LRU way");
        let (hits, allocations) = l1.take_line_activity();
        let mut expect_hits = vec![0; 8];
        let mut expect_allocations = vec![0; 8];
        (expect_hits[2], expect_hits[3]) = (2, 1);
        (expect_allocations[2], expect_allocations[3]) = (2, 1);
        assert_eq!((hits, allocations), (expect_hits, expect_allocations));
        assert_eq!(l1.take_line_activity(), (vec![0; 8], vec![0; 8]), "taking them zeroes them");
    }

    #[test]
    fn requests_to_a_line_in_flight_merge_and_are_woken_together_in_order() {
        let mut l1 = L1Cache::new(&config());
        assert_eq!(l1.access(6, 0b0011, LOAD, 1, 10), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access(6, 0b0010, LOAD, 2, 11), L1Outcome::HitReserved);
        assert_eq!(l1.miss_queue_len(), 1, "a merged request asks nothing of L2");
        assert_eq!(fill(&mut l1, 6, 0b0001), [] as [u32; 0], "half the sectors: the entry still waits");
        assert_eq!(fill(&mut l1, 6, 0b0010), [10, 11]);
        assert_eq!(l1.mshrs_in_use(), 0);
        assert_eq!(l1.stats().hit_reserved, 1);
    }

    #[test]
    fn the_merge_limit_fails_with_mshr_merge() {
        let mut l1 = L1Cache::new(&config());
        l1.access(0, ALL, LOAD, 0, 1);
        assert_eq!(l1.access(0, ALL, LOAD, 0, 2), L1Outcome::HitReserved);
        let before = state(&l1);
        assert_eq!(l1.access(0, 0b1, LOAD, 0, 3), L1Outcome::ReservationFail(FailReason::MshrMerge));
        assert_eq!(l1.access(0, 0b1, LOAD, 0, 3), L1Outcome::ReservationFail(FailReason::MshrMerge));
        assert_eq!(state(&l1), before);
        let s = l1.stats();
        assert_eq!((s.fail_mshr_merge, s.accesses, s.hit_reserved), (2, 2, 1), "every retry counts, no access does");
        assert_eq!(fill(&mut l1, 0, ALL), [1, 2]);
        assert!(matches!(l1.access(0, 0b1, LOAD, 0, 3), L1Outcome::Hit { .. }));
    }

    #[test]
    fn busy_mshrs_fail_with_mshr_entry_until_a_fill_frees_one() {
        let mut l1 = L1Cache::new(&config());
        l1.access(0, ALL, LOAD, 0, 1);
        l1.access(1, ALL, LOAD, 0, 2);
        l1.pop_miss();
        l1.pop_miss();
        let before = state(&l1);
        assert_eq!(l1.access(2, ALL, LOAD, 0, 3), L1Outcome::ReservationFail(FailReason::MshrEntry));
        assert_eq!(state(&l1), before);
        assert_eq!(l1.stats().fail_mshr_entry, 1);
        assert_eq!(fill(&mut l1, 1, ALL), [2]);
        assert_eq!(l1.access(2, ALL, LOAD, 0, 3), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.mshrs_in_use(), 2);
    }

    #[test]
    fn a_full_miss_queue_fails_with_miss_queue_until_a_pop() {
        let mut l1 = L1Cache::new(&L1Config { mshr_entries: 4, ..config() });
        l1.access(0, ALL, LOAD, 0, 1);
        l1.access(1, ALL, LOAD, 0, 2);
        let before = state(&l1);
        assert_eq!(l1.access(2, ALL, LOAD, 0, 3), L1Outcome::ReservationFail(FailReason::MissQueue));
        assert_eq!(l1.access(9, 0b1, RequestKind::Store, 0, 4), L1Outcome::ReservationFail(FailReason::MissQueue));
        assert_eq!(l1.access(9, 0b1, RequestKind::Atomic, 0, 5), L1Outcome::ReservationFail(FailReason::MissQueue));
        assert_eq!(state(&l1), before);
        assert_eq!(l1.stats().fail_miss_queue, 3);
        assert_eq!(pop(&mut l1), Some((0, ALL, LOAD)));
        assert_eq!(l1.access(2, ALL, LOAD, 0, 3), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.miss_queue_len(), 2);
    }

    #[test]
    fn a_set_with_every_way_reserved_fails_with_line_alloc() {
        let mut l1 = L1Cache::new(&L1Config { mshr_entries: 4, miss_queue_entries: 4, ..config() });
        // Lines 0, 4 and 8 all map to set 0 of 4; set 0 has two ways.
        l1.access(0, ALL, LOAD, 10, 1);
        l1.access(4, ALL, LOAD, 14, 2);
        let before = state(&l1);
        assert_eq!(l1.access(8, ALL, LOAD, 18, 3), L1Outcome::ReservationFail(FailReason::LineAlloc));
        assert_eq!(state(&l1), before);
        assert_eq!(l1.stats().fail_line_alloc, 1);
        assert_eq!(l1.access(1, ALL, LOAD, 11, 4), L1Outcome::Miss { evicted: None }, "other sets are unaffected");
        assert_eq!(fill(&mut l1, 0, ALL), [1]);
        assert_eq!(
            l1.access(8, ALL, LOAD, 18, 3),
            L1Outcome::Miss { evicted: Some(Evicted { line: 0, owner: 10 }) },
            "the filled way is the only victim; the reserved one is kept"
        );
        assert_eq!(l1.stats().evictions, 1);
    }

    #[test]
    fn checks_happen_in_the_documented_order() {
        // Both MSHRs busy and the queue full: an absent line reports the MSHR, not the queue.
        let mut l1 = L1Cache::new(&config());
        l1.access(0, ALL, LOAD, 0, 1);
        l1.access(1, ALL, LOAD, 0, 2);
        assert_eq!(l1.access(2, ALL, LOAD, 0, 3), L1Outcome::ReservationFail(FailReason::MshrEntry));
        // Set 0 fully reserved as well: the way is checked first.
        let mut l1 = L1Cache::new(&L1Config { mshr_entries: 2, miss_queue_entries: 2, ..config() });
        l1.access(0, ALL, LOAD, 0, 1);
        l1.access(4, ALL, LOAD, 0, 2);
        assert_eq!(l1.access(8, ALL, LOAD, 0, 3), L1Outcome::ReservationFail(FailReason::LineAlloc));
        // A sector miss on a reserved line whose merge slots and queue are both full: the queue
        // is checked first, then the merge slots.
        let mut l1 = L1Cache::new(&config());
        l1.access(0, 0b0001, LOAD, 0, 1);
        l1.access(0, 0b0001, LOAD, 0, 2);
        l1.access(1, ALL, LOAD, 0, 3);
        assert_eq!(l1.access(0, 0b0010, LOAD, 0, 4), L1Outcome::ReservationFail(FailReason::MissQueue));
        l1.pop_miss();
        assert_eq!(l1.access(0, 0b0010, LOAD, 0, 4), L1Outcome::ReservationFail(FailReason::MshrMerge));
    }

    #[test]
    fn lru_evicts_the_least_recently_used_line_and_reports_its_owner() {
        let mut l1 = L1Cache::new(&roomy());
        bring_in(&mut l1, 0, 10);
        bring_in(&mut l1, 4, 14);
        assert_eq!(l1.owners_of_set(0).collect::<Vec<_>>(), [Some(10), Some(14)]);
        assert_eq!(l1.access(0, ALL, LOAD, 3, 0), L1Outcome::Hit { owner: 10, locality: HitLocality::InterWarp });
        assert_eq!(l1.access(8, ALL, LOAD, 18, 0), L1Outcome::Miss { evicted: Some(Evicted { line: 4, owner: 14 }) });
        assert_eq!(l1.owners_of_set(0).collect::<Vec<_>>(), [Some(10), None], "the reserved way has no data yet");
        fill(&mut l1, 8, ALL);
        assert_eq!(l1.owners_of_set(0).collect::<Vec<_>>(), [Some(10), Some(18)]);
    }

    #[test]
    fn fifo_evicts_the_oldest_fill_even_after_a_hit_on_it() {
        let mut l1 = L1Cache::new(&L1Config { replacement: Replacement::Fifo, ..roomy() });
        bring_in(&mut l1, 0, 10);
        bring_in(&mut l1, 4, 14);
        assert_eq!(l1.access(0, ALL, LOAD, 3, 0), L1Outcome::Hit { owner: 10, locality: HitLocality::InterWarp });
        assert_eq!(l1.access(8, ALL, LOAD, 18, 0), L1Outcome::Miss { evicted: Some(Evicted { line: 0, owner: 10 }) });
    }

    #[test]
    fn a_missing_sector_of_a_valid_line_is_a_sector_miss_then_a_hit() {
        let mut l1 = L1Cache::new(&config());
        assert_eq!(l1.access(3, 0b0001, LOAD, 5, 1), L1Outcome::Miss { evicted: None });
        l1.pop_miss();
        assert_eq!(fill(&mut l1, 3, 0b0001), [1]);
        assert_eq!(l1.access(3, 0b0011, LOAD, 6, 2), L1Outcome::SectorMiss);
        assert_eq!(pop(&mut l1), Some((3, 0b0010, LOAD)), "only the missing sector");
        assert!(
            matches!(l1.access(3, 0b0001, LOAD, 6, 3), L1Outcome::Hit { .. }),
            "the valid sector still hits meanwhile"
        );
        assert_eq!(fill(&mut l1, 3, 0b0010), [2]);
        assert!(matches!(l1.access(3, 0b0011, LOAD, 6, 4), L1Outcome::Hit { .. }));
        assert_eq!(l1.owners_of_set(3).collect::<Vec<_>>(), [Some(5), None], "a sector miss keeps the owner");
        let s = l1.stats();
        assert_eq!((s.misses, s.sector_misses, s.hits, s.evictions), (1, 1, 2, 0));
    }

    #[test]
    fn new_sectors_of_a_line_in_flight_join_its_entry() {
        let mut l1 = L1Cache::new(&config());
        l1.access(3, 0b0001, LOAD, 0, 1);
        assert_eq!(l1.access(3, 0b0110, LOAD, 0, 2), L1Outcome::SectorMiss);
        assert_eq!(l1.mshrs_in_use(), 1, "same entry");
        assert_eq!(pop(&mut l1), Some((3, 0b0001, LOAD)));
        assert_eq!(pop(&mut l1), Some((3, 0b0110, LOAD)));
        assert_eq!(fill(&mut l1, 3, 0b0001), [] as [u32; 0]);
        assert_eq!(fill(&mut l1, 3, 0b0110), [1, 2]);
        assert!(matches!(l1.access(3, 0b0111, LOAD, 0, 3), L1Outcome::Hit { .. }));
    }

    #[test]
    fn a_write_evict_store_drops_a_valid_line_and_a_write_through_store_keeps_it() {
        for (policy, reload) in [
            (L1WritePolicy::WriteEvict, L1Outcome::Miss { evicted: None }),
            (L1WritePolicy::WriteThrough, L1Outcome::Hit { owner: 0, locality: HitLocality::IntraThread }),
        ] {
            let mut l1 = L1Cache::new(&L1Config { write_policy: policy, ..config() });
            bring_in(&mut l1, 2, 0);
            assert_eq!(l1.access(2, 0b0100, RequestKind::Store, 0, 0), L1Outcome::Forwarded);
            assert_eq!(pop(&mut l1), Some((2, 0b0100, RequestKind::Store)));
            assert_eq!(l1.access(2, ALL, LOAD, 0, 1), reload, "{policy:?}");
            assert_eq!(l1.stats().evictions, 0, "a write is not a replacement");
        }
    }

    #[test]
    fn atomics_drop_the_line_under_either_policy_and_stores_never_allocate() {
        let mut l1 = L1Cache::new(&L1Config { write_policy: L1WritePolicy::WriteThrough, ..config() });
        bring_in(&mut l1, 2, 0);
        assert_eq!(l1.access(2, 0b0001, RequestKind::Atomic, 0, 0), L1Outcome::Forwarded);
        assert_eq!(pop(&mut l1), Some((2, 0b0001, RequestKind::Atomic)));
        assert_eq!(l1.owners_of_set(2).collect::<Vec<_>>(), [None, None]);
        assert_eq!(l1.access(7, ALL, RequestKind::Store, 0, 0), L1Outcome::Forwarded);
        assert_eq!((l1.mshrs_in_use(), l1.owners_of_set(3).filter(Option::is_some).count()), (0, 0));
        assert_eq!(l1.stats().forwarded, 2);
        assert_eq!(l1.stats().accesses, 3, "a load and two writes");
    }

    #[test]
    fn a_store_leaves_a_line_with_a_fetch_in_flight_reserved() {
        let mut l1 = L1Cache::new(&L1Config { miss_queue_entries: 4, ..config() });
        l1.access(1, ALL, LOAD, 0, 1);
        assert_eq!(l1.access(1, 0b1, RequestKind::Store, 0, 0), L1Outcome::Forwarded);
        assert_eq!(l1.access(1, ALL, LOAD, 0, 2), L1Outcome::HitReserved);
        assert_eq!(fill(&mut l1, 1, ALL), [1, 2]);
        assert!(matches!(l1.access(1, ALL, LOAD, 0, 3), L1Outcome::Hit { .. }));
    }

    #[test]
    fn a_failed_access_changes_nothing_and_succeeds_the_same_once_freed() {
        let mut failing = L1Cache::new(&L1Config { mshr_entries: 1, ..config() });
        let mut fresh = L1Cache::new(&L1Config { mshr_entries: 1, ..config() });
        for l1 in [&mut failing, &mut fresh] {
            bring_in(l1, 4, 14);
            bring_in(l1, 0, 10);
            l1.access(1, ALL, LOAD, 0, 1);
        }
        // `failing` retries line 8 while the MSHR is busy; `fresh` never tries.
        let before = state(&failing);
        for _ in 0..3 {
            assert_eq!(failing.access(8, ALL, LOAD, 18, 2), L1Outcome::ReservationFail(FailReason::MshrEntry));
        }
        assert_eq!(state(&failing), before);
        for l1 in [&mut failing, &mut fresh] {
            assert_eq!(fill(l1, 1, ALL), [1]);
            assert_eq!(
                l1.access(8, ALL, LOAD, 18, 2),
                L1Outcome::Miss { evicted: Some(Evicted { line: 4, owner: 14 }) }
            );
        }
        assert_eq!(state(&failing), state(&fresh));
        let (f, g) = (failing.stats(), fresh.stats());
        assert_eq!((f.fail_mshr_entry, g.fail_mshr_entry), (3, 0));
        assert_eq!(L1Stats { fail_mshr_entry: 0, ..f }, g, "only the failure counter differs");
    }

    #[test]
    fn invalidation_drops_valid_lines_and_a_fetch_in_flight_keeps_nothing() {
        let mut l1 = L1Cache::new(&roomy());
        bring_in(&mut l1, 1, 5);
        l1.access(2, ALL, LOAD, 6, 20);
        l1.invalidate_all();
        assert_eq!(l1.owners_of_set(1).collect::<Vec<_>>(), [None, None]);
        assert_eq!(l1.mshrs_in_use(), 1, "the fetch is still in flight");
        assert_eq!(l1.access(2, ALL, LOAD, 7, 21), L1Outcome::HitReserved, "still reserved: merges");
        assert_eq!(fill(&mut l1, 2, ALL), [20, 21], "the waiting requests are answered");
        assert_eq!(l1.mshrs_in_use(), 0);
        assert_eq!(l1.owners_of_set(2).collect::<Vec<_>>(), [None, None], "but nothing is kept");
        assert_eq!(l1.access(1, ALL, LOAD, 0, 22), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access(2, ALL, LOAD, 0, 23), L1Outcome::Miss { evicted: None });
    }

    #[test]
    fn the_fermi_hash_matches_the_formula_for_32_and_64_sets() {
        // set = addr[11:7] ^ {a19, a17, a15, a14, a13}; with 64 sets a12 is the top bit.
        let l1_32 = L1Cache::new(&L1Config { size_bytes: 32 * 2 * 128, index: SetIndex::FermiHash, ..config() });
        let l1_64 = L1Cache::new(&L1Config { size_bytes: 64 * 2 * 128, index: SetIndex::FermiHash, ..config() });
        assert_eq!((l1_32.sets(), l1_64.sets()), (32, 64));
        let line = |addr: u64| addr / 128;
        // 32 sets: line 0; a13 (line 64); a19 (line 4096); (5<<7)|a15|a17 -> 5 ^ 0b01100 = 9.
        let addrs_32 = [0, 1 << 13, 1 << 19, (5 << 7) | (1 << 15) | (1 << 17)];
        assert_eq!(addrs_32.map(|a| l1_32.set_of(line(a))), [0, 1, 16, 9]);
        // ... while linear indexing would put them all in set 0, 0, 0, 5.
        assert_eq!(addrs_32.map(|a| line(a) % 32), [0, 0, 0, 5]);
        // 64 sets: a12 (line 32) -> 32; a14 (line 128) -> 2; (3<<7)|a12|a13 -> (3 ^ 1) | 32 = 34.
        let addrs_64 = [1 << 12, 1 << 14, (3 << 7) | (1 << 12) | (1 << 13)];
        assert_eq!(addrs_64.map(|a| l1_64.set_of(line(a))), [32, 2, 34]);
        assert_eq!(addrs_64.map(|a| line(a) % 64), [32, 0, 35]);
        // Lines 0 and 128 share linear set 0 of 64; the hash separates them.
        assert_eq!((l1_64.set_of(0), l1_64.set_of(128)), (0, 2));
    }

    #[test]
    fn the_fermi_hash_places_lines_in_their_hashed_sets() {
        // One way per set: lines 0, 64 and 128 share linear set 0 and evict each other there,
        // but the hash spreads them over sets 0, 1 and 2.
        for (index, evictions) in [(SetIndex::Linear, 2), (SetIndex::FermiHash, 0)] {
            let mut l1 = L1Cache::new(&L1Config { size_bytes: 32 * 128, ways: 1, index, ..roomy() });
            for (owner, line) in [0u64, 64, 128].into_iter().enumerate() {
                bring_in(&mut l1, line, owner as u32);
            }
            assert_eq!(l1.stats().evictions, evictions, "{index:?}");
        }
        let mut l1 = L1Cache::new(&L1Config { size_bytes: 32 * 128, ways: 1, index: SetIndex::FermiHash, ..roomy() });
        bring_in(&mut l1, 64, 9);
        assert_eq!(l1.owners_of_set(1).collect::<Vec<_>>(), [Some(9)]);
    }

    #[test]
    fn without_an_l1_loads_merge_but_never_hit() {
        let mut l1 = L1Cache::new(&L1Config { size_bytes: 0, miss_queue_entries: 4, ..config() });
        assert_eq!((l1.sets(), l1.ways(), l1.owners_of_set(0).count()), (0, 0, 0));
        assert_eq!(l1.access(9, 0b0001, LOAD, 0, 1), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access(9, 0b0001, LOAD, 0, 2), L1Outcome::HitReserved);
        assert_eq!(l1.access(9, 0b0010, LOAD, 0, 3), L1Outcome::ReservationFail(FailReason::MshrMerge));
        assert_eq!(l1.access(10, ALL, LOAD, 0, 4), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access(11, ALL, LOAD, 0, 5), L1Outcome::ReservationFail(FailReason::MshrEntry));
        assert_eq!(fill(&mut l1, 9, 0b0001), [1, 2]);
        assert_eq!(l1.access(9, 0b0001, LOAD, 0, 6), L1Outcome::Miss { evicted: None }, "the fill stored nothing");
        assert_eq!(l1.access(10, 0b0001, RequestKind::Store, 0, 0), L1Outcome::Forwarded);
        let s = l1.stats();
        assert_eq!((s.hits, s.misses, s.hit_reserved, s.forwarded), (0, 3, 1, 1));
    }

    #[test]
    fn without_an_l1_new_sectors_of_a_line_in_flight_join_its_entry() {
        let mut l1 = L1Cache::new(&L1Config { size_bytes: 0, ..config() });
        assert_eq!(l1.access(9, 0b0001, LOAD, 0, 1), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access(9, 0b0010, LOAD, 0, 2), L1Outcome::SectorMiss);
        assert_eq!(pop(&mut l1), Some((9, 0b0001, LOAD)));
        assert_eq!(pop(&mut l1), Some((9, 0b0010, LOAD)));
        assert_eq!(fill(&mut l1, 9, 0b0001), [] as [u32; 0]);
        assert_eq!(fill(&mut l1, 9, 0b0010), [1, 2]);
        assert_eq!(l1.mshrs_in_use(), 0);
    }

    #[test]
    fn stray_fills_and_out_of_range_queries_are_harmless() {
        let mut l1 = L1Cache::new(&config());
        assert_eq!(fill(&mut l1, 42, ALL), [] as [u32; 0], "no fetch in flight: ignored");
        bring_in(&mut l1, 1, 3);
        assert_eq!(fill(&mut l1, 1, ALL), [] as [u32; 0], "a duplicate reply wakes nobody");
        assert_eq!(l1.owners_of_set(4).count(), 0);
        assert_eq!(l1.owners_of_set(u32::MAX).count(), 0);
        assert_eq!(l1.access(u64::MAX, 0b1, LOAD, 0, 7), L1Outcome::Miss { evicted: None });
        assert_eq!(l1.access(u64::MAX, 0b1, LOAD, 0, 8), L1Outcome::HitReserved);
    }

    #[test]
    fn the_reply_names_its_mshr_and_fills_it_without_a_search() {
        // With and without an L1, each load's request names its entry, and filling by entry
        // ends in the same state as filling by line.
        for size_bytes in [config().size_bytes, 0] {
            let mut by_entry = L1Cache::new(&L1Config { size_bytes, ..roomy() });
            let mut by_line = by_entry.clone();
            for l1 in [&mut by_entry, &mut by_line] {
                l1.access(1, 0b0001, LOAD, 0, 10);
                l1.access(2, ALL, LOAD, 0, 11);
                l1.access(1, 0b0110, LOAD, 0, 12);
                l1.access(3, ALL, RequestKind::Store, 0, 0);
            }
            let requests: Vec<MissRequest> = core::iter::from_fn(|| by_entry.pop_miss()).collect();
            while by_line.pop_miss().is_some() {}
            let entries: Vec<(u64, u32)> = requests.iter().take(3).map(|m| (m.line, m.mshr)).collect();
            assert_eq!(entries, [(1, 0), (2, 1), (1, 0)], "size {size_bytes}");
            let mut woken = (Vec::new(), Vec::new());
            for m in requests.iter().filter(|m| m.kind == LOAD) {
                by_entry.fill_entry(m.mshr, m.line, m.sectors, &mut woken.0);
                by_line.fill(m.line, m.sectors, &mut woken.1);
                assert_eq!(woken.0, woken.1);
            }
            assert_eq!(woken.0, [11, 10, 12]);
            assert_eq!(state(&by_entry), state(&by_line));
            assert_eq!(by_entry.mshrs_in_use(), 0);
            // A reply naming an entry that does not fetch its line falls back to the search.
            by_entry.access(4, ALL, LOAD, 0, 13);
            by_entry.fill_entry(1, 4, ALL, &mut woken.0);
            assert_eq!(woken.0, [11, 10, 12, 13]);
        }
    }

    #[test]
    fn a_doomed_load_fails_as_foretold() {
        // Random loads and fills on a cache with few MSHRs: whenever `load_doomed` names a
        // failure, the access fails for that reason and changes nothing else.
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut l1 = L1Cache::new(&L1Config { mshr_entries: 3, miss_queue_entries: 8, ..config() });
        let (mut foretold, mut woken) = (0, Vec::new());
        for step in 0..5000u32 {
            let line = rng.below(24);
            if rng.below(3) == 0 {
                if let Some(miss) = l1.pop_miss() {
                    l1.fill_entry(miss.mshr, miss.line, miss.sectors, &mut woken);
                }
                continue;
            }
            let set = l1.set_of(line);
            let sectors = 1 << rng.below(4);
            let before = state(&l1);
            match l1.load_doomed(set, line) {
                Some(reason) => {
                    foretold += 1;
                    let outcome = l1.access_in(set, line, sectors, LOAD, who(0, step), 0, 1);
                    assert_eq!(outcome, L1Outcome::ReservationFail(reason), "step {step}");
                    assert_eq!(state(&l1), before);
                }
                None => {
                    l1.access_in(set, line, sectors, LOAD, who(0, step), 0, 1);
                }
            }
        }
        assert!(foretold > 100, "{foretold} failures foretold");
    }

    #[test]
    fn a_load_with_no_way_left_fails_as_foretold() {
        // Random loads over a few hot sets, with fills in any order (the replies of different
        // banks overtake each other), on a cache with MSHRs to spare: whenever
        // `still_no_way_for` says so, the load fails for want of a way and changes nothing.
        let mut rng = crate::rng::SplitMix64::new(11);
        let mut l1 = L1Cache::new(&L1Config { mshr_entries: 8, miss_queue_entries: 8, ..config() });
        let (mut foretold, mut in_flight, mut woken) = (0, Vec::new(), Vec::new());
        for step in 0..5000u32 {
            // Lines 0, 4, 8, ... share set 0 and 1, 5, 9, ... set 1.
            let line = rng.below(2) + 4 * rng.below(6);
            if rng.below(3) == 0 {
                in_flight.extend(l1.pop_miss());
                if !in_flight.is_empty() {
                    let miss: MissRequest = in_flight.swap_remove(rng.below(in_flight.len() as u64) as usize);
                    l1.fill_entry(miss.mshr, miss.line, miss.sectors, &mut woken);
                }
                continue;
            }
            let set = l1.set_of(line);
            let before = state(&l1);
            if l1.still_no_way_for(set, line) {
                foretold += 1;
                let outcome = l1.access_in(set, line, ALL, LOAD, who(0, step), 0, 1);
                assert_eq!(outcome, L1Outcome::ReservationFail(FailReason::LineAlloc), "step {step}");
                assert_eq!(state(&l1), before);
            } else {
                l1.access_in(set, line, ALL, LOAD, who(0, step), 0, 1);
            }
        }
        assert!(foretold > 100, "{foretold} failures foretold");
    }

    #[test]
    fn recorded_failures_add_to_the_counters() {
        let mut l1 = L1Cache::new(&config());
        l1.record_failures(FailReason::LineAlloc, 3);
        l1.record_failures(FailReason::MshrEntry, 4);
        l1.record_failures(FailReason::MshrMerge, 5);
        l1.record_failures(FailReason::MissQueue, 6);
        let s = l1.stats();
        assert_eq!((s.fail_line_alloc, s.fail_mshr_entry, s.fail_mshr_merge, s.fail_miss_queue), (3, 4, 5, 6));
        assert_eq!(s.accesses, 0);
    }

    /// A wide set found through the line table and the same set found by a scan agree on every
    /// outcome, fill and eviction of a random stream of loads, stores, atomics, fills and
    /// invalidations over a few hot sets.
    #[test]
    fn wide_sets_found_through_the_table_behave_as_scanned_ones() {
        use crate::rng::SplitMix64;
        for (ways, replacement) in [(32, Replacement::Lru), (64, Replacement::Fifo)] {
            let config = L1Config {
                size_bytes: 4 * ways * 128,
                ways,
                replacement,
                mshr_entries: 48,
                mshr_max_merge: 4,
                miss_queue_entries: 64,
                ..config()
            };
            let mut indexed = L1Cache::new(&config);
            let mut scanned = L1Cache::new(&config);
            assert!(indexed.way_of_line.is_some());
            scanned.way_of_line = None;
            let mut rng = SplitMix64::new(ways as u64);
            let mut in_flight: Vec<(u64, u32)> = Vec::new();
            for step in 0..40_000u32 {
                let line = rng.below(3 * ways as u64) * 4 + rng.below(2);
                let sectors = 1 + rng.below(15) as u32;
                let op = rng.below(20);
                let outcomes = [&mut indexed, &mut scanned].map(|l1| match op {
                    0 => l1.access(line, sectors, RequestKind::Store, 0, step),
                    1 => l1.access(line, sectors, RequestKind::Atomic, 0, step),
                    2 if step % 7 == 0 => {
                        l1.invalidate_all();
                        L1Outcome::Forwarded
                    }
                    _ => l1.access(line, sectors, LOAD, step % 48, step),
                });
                assert_eq!(outcomes[0], outcomes[1], "step {step}");
                while let (Some(a), Some(b)) = (indexed.pop_miss(), scanned.pop_miss()) {
                    assert_eq!(a, b, "step {step}");
                    if a.kind == LOAD {
                        in_flight.push((a.line, a.sectors));
                    }
                }
                if !in_flight.is_empty() && rng.below(2) == 0 {
                    let (line, sectors) = in_flight.swap_remove(rng.below(in_flight.len() as u64) as usize);
                    assert_eq!(fill(&mut indexed, line, sectors), fill(&mut scanned, line, sectors), "step {step}");
                }
                if step % 16 == 0 {
                    assert_eq!(state(&indexed), state(&scanned), "step {step}");
                }
            }
            assert_eq!(indexed.stats(), scanned.stats());
            assert!(indexed.stats().evictions > 500 && indexed.stats().hits > 500, "{:?}", indexed.stats());
        }
    }
}
