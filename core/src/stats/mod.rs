//! What a run reports: totals, per kernel, per SM, per thread block, and a bounded time series
//! for the charts. Plain serialisable data in the user's vocabulary.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::mem::l1::L1Stats;

pub mod block_log;
pub mod blocking;
pub mod chunk_view;
pub mod energy;
pub mod l1_totals;
pub mod launch;
pub mod parts;
pub mod run_groups;
pub mod sharing;
pub mod snapshot;
pub use block_log::{BlockLog, MAX_BLOCK_RECORDS};
pub use chunk_view::{ChunkView, SmChunk};
pub use launch::LaunchStats;
pub use parts::PartReport;
pub use run_groups::{RunGroup, MAX_RUNS_SHOWN};
pub use snapshot::{InterferenceView, Snapshot, WarpRole, WarpScores, WarpState};

/// How each scheduler spent its cycles (one count per scheduler per cycle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StallBreakdown {
    /// Cycles in which it issued at least one instruction.
    pub issued: u64,
    /// No live warp to issue from.
    pub no_warp: u64,
    /// Live warps all waiting for operands (loads in flight, long-latency results) or a busy unit.
    pub scoreboard: u64,
    /// A warp was ready but the memory pipeline (LSU) was occupied.
    pub memory_pipeline: u64,
    /// Every live warp waits at a barrier.
    pub barrier: u64,
    /// Warps were ready but the policy held them back (a load gate, a warp limit).
    pub throttled: u64,
    /// Every live warp not at a barrier was stalled in a device launch call (the device
    /// runtime's CDP costs, DTBL's launch latency; see `config::device_launch`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub device_launch: u64,
}

impl StallBreakdown {
    /// Adds `cycles` to the bucket of `reason`.
    pub fn add(&mut self, reason: StallReason, cycles: u64) {
        let bucket = match reason {
            StallReason::Issued => &mut self.issued,
            StallReason::NoWarp => &mut self.no_warp,
            StallReason::Scoreboard => &mut self.scoreboard,
            StallReason::MemoryPipeline => &mut self.memory_pipeline,
            StallReason::Barrier => &mut self.barrier,
            StallReason::Throttled => &mut self.throttled,
            StallReason::DeviceLaunch => &mut self.device_launch,
        };
        *bucket += cycles;
    }

    /// Every scheduler cycle counted, whatever the reason.
    pub fn total(&self) -> u64 {
        self.issued
            + self.no_warp
            + self.scoreboard
            + self.memory_pipeline
            + self.barrier
            + self.throttled
            + self.device_launch
    }

    /// Element-wise sum.
    pub fn merge(&mut self, other: &StallBreakdown) {
        self.issued += other.issued;
        self.no_warp += other.no_warp;
        self.scoreboard += other.scoreboard;
        self.memory_pipeline += other.memory_pipeline;
        self.barrier += other.barrier;
        self.throttled += other.throttled;
        self.device_launch += other.device_launch;
    }
}

impl StallBreakdown {
    /// Adds counts kept by reason (see [`StallCounts`]).
    pub fn add_counts(&mut self, counts: &StallCounts) {
        let [issued, no_warp, scoreboard, memory_pipeline, barrier, throttled, device_launch] = counts.0;
        self.issued += issued;
        self.no_warp += no_warp;
        self.scoreboard += scoreboard;
        self.memory_pipeline += memory_pipeline;
        self.barrier += barrier;
        self.throttled += throttled;
        self.device_launch += device_launch;
    }
}

/// Scheduler cycles by reason, as an array indexed by [`StallReason`]: what the engine counts
/// with every cycle (one indexed add, not a match); a report shows it as a [`StallBreakdown`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StallCounts([u64; StallReason::COUNT]);

impl StallCounts {
    /// Adds `cycles` to `reason`.
    #[inline]
    pub fn add(&mut self, reason: StallReason, cycles: u64) {
        self.0[reason as usize] += cycles;
    }
}

impl From<StallCounts> for StallBreakdown {
    fn from(counts: StallCounts) -> StallBreakdown {
        let mut b = StallBreakdown::default();
        b.add_counts(&counts);
        b
    }
}

/// Why a scheduler did (not) issue in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StallReason {
    /// It issued.
    Issued,
    /// No live warp.
    NoWarp,
    /// Operands or units not ready.
    Scoreboard,
    /// The LSU was busy.
    MemoryPipeline,
    /// All at a barrier.
    Barrier,
    /// The policy held the ready warps back.
    Throttled,
    /// Every warp that could otherwise issue was stalled in a device launch call.
    DeviceLaunch,
}

impl StallReason {
    /// How many reasons there are.
    pub const COUNT: usize = 7;

    /// Every reason, in the order of their numbers.
    pub const ALL: [StallReason; StallReason::COUNT] = [
        StallReason::Issued,
        StallReason::NoWarp,
        StallReason::Scoreboard,
        StallReason::MemoryPipeline,
        StallReason::Barrier,
        StallReason::Throttled,
        StallReason::DeviceLaunch,
    ];
}

/// The L2, summed over banks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct L2Stats {
    /// Read and atomic requests that looked up a line.
    pub accesses: u64,
    /// Of which found it.
    pub hits: u64,
    /// Of which missed and started a DRAM read.
    pub misses: u64,
    /// Of which merged into a DRAM read already in flight.
    pub mshr_merges: u64,
    /// Store requests (write-back, write-allocate).
    pub writes: u64,
    /// Dirty lines written back to DRAM on eviction.
    pub writebacks: u64,
    /// DeNovo: loads and atomics the bank sent on to the L1 that owns (some of) their
    /// sectors: remote-L1 hits. The part of a load the bank holds is counted as an access too.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub forwarded: u64,
    /// DeNovo: stores' registrations recorded (the bank noted a new owner).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub registrations: u64,
    /// DeNovo: owned sectors written back by an L1 that evicted them (not in `writes`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub l1_writebacks: u64,
}

/// Whether a count is zero (the report leaves such counts out).
pub(crate) fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

impl L2Stats {
    /// Adds `other`'s counts to these (summing banks).
    pub fn merge(&mut self, other: &L2Stats) {
        self.accesses += other.accesses;
        self.hits += other.hits;
        self.misses += other.misses;
        self.mshr_merges += other.mshr_merges;
        self.writes += other.writes;
        self.writebacks += other.writebacks;
        self.forwarded += other.forwarded;
        self.registrations += other.registrations;
        self.l1_writebacks += other.l1_writebacks;
    }
}

/// Off-chip traffic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DramStats {
    /// Reads (a line, or the sectors of one that a miss needed).
    pub reads: u64,
    /// Writes (write-backs of a line's dirty sectors).
    pub writes: u64,
    /// Bytes the reads moved.
    #[serde(default)]
    pub bytes_read: u64,
    /// Bytes the writes moved.
    #[serde(default)]
    pub bytes_written: u64,
    /// Cycles L2 banks held a read because its channel's request queue was full (the bank
    /// takes no new request meanwhile).
    #[serde(default)]
    pub queue_full_cycles: u64,
}

/// Interconnect traffic, both directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkStats {
    /// Packets sent.
    pub packets: u64,
    /// Flits sent (header and data).
    pub flits: u64,
    /// Loads: requests and the data that answers them, from an L2 bank or an owning L1.
    #[serde(default)]
    pub read: Traffic,
    /// Stores written through and atomics done at the L2, with their replies.
    #[serde(default)]
    pub write: Traffic,
    /// DeNovo: owned data written back by the L1 that evicted it.
    #[serde(default, skip_serializing_if = "Traffic::is_none")]
    pub writeback: Traffic,
    /// DeNovo: registrations and their answers, revocations, and reads forwarded from the
    /// home bank to the owning L1 (the owner's data back counts as `read`).
    #[serde(default, skip_serializing_if = "Traffic::is_none")]
    pub ownership: Traffic,
}

/// One class of network messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Traffic {
    /// Packets.
    pub packets: u64,
    /// Flits (header and data).
    pub flits: u64,
    /// Flits times the hops each travelled: the links' work, which a mesh makes grow with distance.
    pub flit_hops: u64,
}

impl Traffic {
    fn is_none(&self) -> bool {
        self.packets == 0
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &Traffic) {
        self.packets += other.packets;
        self.flits += other.flits;
        self.flit_hops += other.flit_hops;
    }
}

/// Which class of network traffic a message is, as [`NetworkStats`] splits it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TrafficClass {
    /// [`NetworkStats::read`].
    Read,
    /// [`NetworkStats::write`].
    Write,
    /// [`NetworkStats::writeback`].
    WriteBack,
    /// [`NetworkStats::ownership`].
    Ownership,
}

impl NetworkStats {
    /// Counts one packet of `flits` that travelled `hops` hops.
    pub fn count(&mut self, class: TrafficClass, flits: u32, hops: u32) {
        self.packets += 1;
        self.flits += flits as u64;
        let t = self.class_mut(class);
        t.packets += 1;
        t.flits += flits as u64;
        t.flit_hops += flits as u64 * hops as u64;
    }

    fn class_mut(&mut self, class: TrafficClass) -> &mut Traffic {
        match class {
            TrafficClass::Read => &mut self.read,
            TrafficClass::Write => &mut self.write,
            TrafficClass::WriteBack => &mut self.writeback,
            TrafficClass::Ownership => &mut self.ownership,
        }
    }

    /// Flit-hops of every class.
    pub fn flit_hops(&self) -> u64 {
        self.read.flit_hops + self.write.flit_hops + self.writeback.flit_hops + self.ownership.flit_hops
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &NetworkStats) {
        self.packets += other.packets;
        self.flits += other.flits;
        self.read.merge(&other.read);
        self.write.merge(&other.write);
        self.writeback.merge(&other.writeback);
        self.ownership.merge(&other.ownership);
    }
}

/// The L1 access streams of a run replayed after it in a stand-alone model of the L1, with
/// Belady's optimal replacement and with LRU (`l1.replacement = Belady`; see
/// [`crate::mem::replay`]): same sets, ways and set index, instant fills (a merge into a fetch
/// in flight or a sector miss is a hit on the line), stores as the L1's write policy says,
/// flushes where the L1 was invalidated between kernels. The run itself is timed with LRU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct L1Replay {
    /// Accesses replayed: every load, store and atomic the L1s accepted (their `accesses`).
    pub accesses: u64,
    /// Of which loads: each a hit or a miss under either policy.
    pub loads: u64,
    /// Loads that found their line with optimal replacement.
    pub belady_hits: u64,
    /// Loads that missed with optimal replacement: the fewest any replacement policy could
    /// have on this access stream.
    pub belady_misses: u64,
    /// Loads that found their line when replayed with LRU.
    pub lru_hits: u64,
    /// Loads that missed when replayed with LRU: close to the timed L1's `misses`, which the
    /// replay checks itself against (the L1 cannot evict a line with a fetch in flight).
    pub lru_misses: u64,
}

impl L1Replay {
    /// Adds `other`'s counts (another kernel run's).
    pub fn merge(&mut self, other: &L1Replay) {
        self.accesses += other.accesses;
        self.loads += other.loads;
        self.belady_hits += other.belady_hits;
        self.belady_misses += other.belady_misses;
        self.lru_hits += other.lru_hits;
        self.lru_misses += other.lru_misses;
    }
}

/// One kernel run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelReport {
    /// Kernel name.
    pub name: String,
    /// Thread blocks in its grid.
    pub blocks: u32,
    /// Cycle its first block could be dispatched.
    pub start_cycle: u64,
    /// Cycle its last block finished (0 while running).
    pub end_cycle: u64,
    /// Warp instructions it executed.
    pub warp_instructions: u64,
    /// Stream of a host launch (0: the default stream; device launches report 0).
    pub stream: u32,
    /// For a grid launched from the device, the kernel run (index in this list) that launched it.
    pub parent: Option<u32>,
    /// Nesting depth: 0 for host launches, parent + 1 for device launches.
    pub depth: u32,
    /// For a grid launched from the device, the block of the parent run whose thread launched
    /// it.
    #[serde(default)]
    pub parent_block: Option<u32>,
    /// For a grid launched from the device, the SM that thread ran on.
    #[serde(default)]
    pub parent_sm: Option<u32>,
    /// Its accesses to the L1s of every SM, counted as [`Report::l1`] counts them (the runs'
    /// counts add up to it).
    #[serde(default)]
    pub l1: L1Stats,
    /// Cycles an LSU retried one of its requests that the L1 could not accept: its share of
    /// the memory-pipeline stall, one cycle per failed attempt, so `l1`'s failures in the
    /// report (the runs' counts add up to the SMs' `lsu_stall_cycles`).
    #[serde(default)]
    pub lsu_stall_cycles: u64,
    /// Its requests at the L2 banks, counted as [`Report::l2`] counts them; a write-back is
    /// charged to the run whose request installed the line that evicted it.
    #[serde(default)]
    pub l2: L2Stats,
    /// DRAM line reads its L2 misses started.
    #[serde(default)]
    pub dram_reads: u64,
    /// DRAM line writes (write-backs) charged to it.
    #[serde(default)]
    pub dram_writes: u64,
    /// Passes of its shared-memory instructions through the banks (one per instruction, more
    /// with bank conflicts): the scratchpad's accesses, for the energy model.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shared_accesses: u64,
    /// The network messages its accesses caused, by class (a write-back is charged to the run
    /// whose access evicted the line; the runs' counts add up to [`Report::network`]).
    #[serde(default)]
    pub network: NetworkStats,
    /// Its global loads that the warp policy's gate held back at least once (each counted
    /// once, however long it waited).
    #[serde(default)]
    pub gated_loads: u64,
    /// Its L1 accesses replayed (only when `l1.replacement` is `Belady`): the runs' counts add
    /// up to [`Report::l1_replay`]'s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1_replay: Option<L1Replay>,
}

/// One SM.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmReport {
    /// Warp instructions issued.
    pub warp_instructions: u64,
    /// Of which spills of registers to local memory ([`crate::isa::Instr::Spill`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spills: u64,
    /// Of which fills of spilled registers from local memory ([`crate::isa::Instr::Fill`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fills: u64,
    /// Scheduler cycles by outcome (summed over the SM's schedulers).
    pub stalls: StallBreakdown,
    /// Its L1.
    pub l1: L1Stats,
    /// Cycles the LSU spent retrying a request the L1 could not accept.
    pub lsu_stall_cycles: u64,
    /// Global loads the warp policy's gate held back at least once (each counted once).
    #[serde(default)]
    pub gated_loads: u64,
    /// Misses on a line in the missing warp's own victim tags (CCWS; 0 under other policies).
    #[serde(default)]
    pub victim_tag_hits: u64,
    /// Σ over cycles of the warps the policy let issue (live and not held back): divided by
    /// the cycles, the SM's average active warps.
    #[serde(default)]
    pub active_warp_cycles: u64,
    /// The first `__syncthreads()` on this SM that only part of a block reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_barrier: Option<PartialBarrier>,
}

/// A barrier that only part of a block reached: undefined behaviour in CUDA (a block's every
/// thread must reach each `__syncthreads()`), which the engine runs as Volta and later do,
/// exited warps counting as arrived and a divergent warp arriving with the lanes it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartialBarrier {
    /// Kernel run.
    pub kernel: u32,
    /// The barrier instruction.
    pub pc: u32,
    /// Linear block index in its grid.
    pub block: u32,
    /// A warp reached it with some of its lanes elsewhere (rather than a warp of the block
    /// exiting while others waited there).
    pub diverged: bool,
}

/// One thread block's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockRecord {
    /// Kernel run id (launch index).
    pub kernel: u32,
    /// Linear block index in its grid.
    pub block: u32,
    /// The SM it ran on.
    pub sm: u32,
    /// Cycle it was dispatched.
    pub start: u64,
    /// Cycle its last warp finished.
    pub end: u64,
}

/// Counts over one window of the time series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// First cycle of the window.
    pub start: u64,
    /// Warp instructions issued in it.
    pub warp_instructions: u64,
    /// L1 hits (all SMs).
    pub l1_hits: u64,
    /// L1 misses (all SMs; new fetches, sector misses included).
    pub l1_misses: u64,
    /// L2 hits.
    pub l2_hits: u64,
    /// L2 misses.
    pub l2_misses: u64,
    /// Scheduler cycles by outcome (all SMs).
    pub stalls: StallBreakdown,
    /// Under the CDP and DTBL launch paths, the most kernels holding a KDU entry at once.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub kdu_kernels: u32,
    /// The most kernels waiting in the KMU for a KDU entry at once.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub kmu_waiting: u32,
    /// The most DTBL group records the SMs' tables held at once, all SMs together.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub group_records: u32,
    /// With co-running kernels (host streams, the first [`parts::SERIES_PARTS`] in order of
    /// first launch), the SMs on which each had a ready memory instruction waiting at the busy
    /// LSU, summed over the window's cycles (`sm::blocked_by`).
    #[serde(default, skip_serializing_if = "no_held_back")]
    pub held_back: [u64; parts::SERIES_PARTS],
    /// For programs side by side, each one's counts (the first [`parts::SERIES_PARTS`]).
    #[serde(default, skip_serializing_if = "no_part_counts")]
    pub parts: [parts::PartWindow; parts::SERIES_PARTS],
}

fn no_held_back(held_back: &[u64; parts::SERIES_PARTS]) -> bool {
    held_back.iter().all(|&n| n == 0)
}

fn no_part_counts(parts: &[parts::PartWindow; parts::SERIES_PARTS]) -> bool {
    parts.iter().all(|p| *p == parts::PartWindow::default())
}

/// A bounded series of windows: when full, adjacent windows merge and the width doubles, so
/// memory stays bounded however long the run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeSeries {
    /// Cycles per window.
    pub every: u64,
    /// Windows in time order (the last may be partial).
    pub windows: Vec<Window>,
    /// Scheduler stalls that cover windows whole, not yet added to them: by window, how many
    /// more schedulers stall for each reason from that window on than in the one before (a
    /// difference array). A span of a dormant SM costs two entries here instead of one add
    /// per window it covers; [`TimeSeries::settle`] adds them before the windows are read or
    /// merged.
    #[serde(skip)]
    whole: Vec<[i64; StallReason::COUNT]>,
}

/// Most windows kept before they are merged pairwise.
pub const MAX_WINDOWS: usize = 2048;

impl TimeSeries {
    /// An empty series of windows `every` cycles wide.
    pub fn new(every: u64) -> Self {
        TimeSeries { every: every.max(1), windows: Vec::new(), whole: Vec::new() }
    }

    /// A series of these windows, `every` cycles wide (for a report's series read back).
    pub fn of_windows(every: u64, windows: Vec<Window>) -> Self {
        TimeSeries { every, windows, whole: Vec::new() }
    }

    /// Adds `cycles` cycles starting at `start` to the stalls of each of `reasons` (one per
    /// scheduler), window by window: the windows it covers whole through [`TimeSeries::whole`].
    pub fn add_stall_span(&mut self, start: u64, cycles: u64, reasons: &[StallReason]) {
        if cycles == 0 {
            return;
        }
        let end = start + cycles;
        // Create the windows first: doing so may merge them and widen every window.
        self.index_of(end - 1);
        let every = self.every;
        // The windows `first..last` lie wholly inside the span.
        let (first, last) = (start.div_ceil(every) as usize, (end / every) as usize);
        if last < first + 3 {
            self.spread(start, cycles, |window, chunk| {
                for &reason in reasons {
                    window.stalls.add(reason, chunk);
                }
            });
            return;
        }
        let head = first as u64 * every - start;
        let tail = end - last as u64 * every;
        if head > 0 {
            self.spread(start, head, |window, chunk| reasons.iter().for_each(|&r| window.stalls.add(r, chunk)));
        }
        if tail > 0 {
            self.spread(end - tail, tail, |window, chunk| reasons.iter().for_each(|&r| window.stalls.add(r, chunk)));
        }
        if self.whole.len() <= last {
            self.whole.resize(last + 1, [0; StallReason::COUNT]);
        }
        for &reason in reasons {
            self.whole[first][reason as usize] += 1;
            self.whole[last][reason as usize] -= 1;
        }
    }

    /// Adds the stalls kept aside for whole windows ([`TimeSeries::whole`]) to the windows.
    pub fn settle(&mut self) {
        let mut running = [0i64; StallReason::COUNT];
        for (window, change) in self.windows.iter_mut().zip(&self.whole) {
            for (k, c) in change.iter().enumerate() {
                running[k] += c;
            }
            window.stalls.add_counts(&StallCounts(running.map(|n| n as u64 * self.every)));
        }
        self.whole.clear();
    }

    /// Adds `cycles` cycles from `start` to the held-back counts of each co-running kernel in
    /// `held_back` (a bit each), window by window.
    pub fn add_held_back_span(&mut self, held_back: u8, start: u64, cycles: u64) {
        if held_back == 0 {
            return;
        }
        self.spread(start, cycles, |window, chunk| {
            for (k, n) in window.held_back.iter_mut().enumerate() {
                *n += chunk * u64::from(held_back >> k & 1);
            }
        });
    }

    /// Adds `cycles` LSU stall cycles from `start` to program `part`'s counts, window by
    /// window; a program past [`parts::SERIES_PARTS`] is left out.
    pub fn add_part_stall_span(&mut self, part: usize, start: u64, cycles: u64) {
        if part >= parts::SERIES_PARTS {
            return;
        }
        self.spread(start, cycles, |window, chunk| window.parts[part].lsu_stall_cycles += chunk);
    }

    /// Calls `add` with each window the cycles `start..start + cycles` fall in (created as
    /// needed) and how many of them it holds.
    fn spread(&mut self, start: u64, cycles: u64, mut add: impl FnMut(&mut Window, u64)) {
        let end = start + cycles;
        let mut at = start;
        while at < end {
            let index = self.index_of(at);
            let chunk = ((index as u64 + 1) * self.every).min(end) - at;
            add(&mut self.windows[index], chunk);
            at += chunk;
        }
    }

    /// The window containing `cycle`, created (and older ones merged) as needed.
    pub fn at(&mut self, cycle: u64) -> &mut Window {
        let index = self.index_of(cycle);
        &mut self.windows[index]
    }

    /// The index of the window containing `cycle`, created (and older ones merged) as needed.
    #[inline]
    fn index_of(&mut self, cycle: u64) -> usize {
        // Spans charged to the series are mostly in windows that exist already.
        let index = (cycle / self.every) as usize;
        if index < self.windows.len() {
            return index;
        }
        self.grow_to(cycle)
    }

    /// [`TimeSeries::index_of`] for a cycle past the last window.
    #[cold]
    fn grow_to(&mut self, cycle: u64) -> usize {
        loop {
            let index = (cycle / self.every) as usize;
            if index < MAX_WINDOWS {
                while self.windows.len() <= index {
                    let start = self.windows.len() as u64 * self.every;
                    self.windows.push(Window { start, ..Window::default() });
                }
                return index;
            }
            self.halve();
        }
    }

    fn halve(&mut self) {
        self.settle();
        let merged: Vec<Window> = self
            .windows
            .chunks(2)
            .map(|pair| {
                let mut w = pair[0];
                if let Some(b) = pair.get(1) {
                    w.warp_instructions += b.warp_instructions;
                    w.l1_hits += b.l1_hits;
                    w.l1_misses += b.l1_misses;
                    w.l2_hits += b.l2_hits;
                    w.l2_misses += b.l2_misses;
                    w.stalls.merge(&b.stalls);
                    w.kdu_kernels = w.kdu_kernels.max(b.kdu_kernels);
                    w.kmu_waiting = w.kmu_waiting.max(b.kmu_waiting);
                    w.group_records = w.group_records.max(b.group_records);
                    for (mine, theirs) in w.parts.iter_mut().zip(&b.parts) {
                        mine.merge(theirs);
                    }
                    for (mine, theirs) in w.held_back.iter_mut().zip(&b.held_back) {
                        *mine += theirs;
                    }
                }
                w
            })
            .collect();
        self.windows = merged;
        self.every *= 2;
    }
}

/// Remembers where the window of a recent cycle is, so that the clock loop finds the window of
/// each cycle without a division; it asks the series again when the cycle leaves that window
/// or the windows were widened.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WindowCursor {
    every: u64,
    start: u64,
    end: u64,
    index: usize,
}

impl WindowCursor {
    /// Whether `cycle` is in the window last found (under the series' current width).
    pub fn holds(&self, series: &TimeSeries, cycle: u64) -> bool {
        series.every == self.every && self.start <= cycle && cycle < self.end
    }

    /// Remembers the bounds of the window `cycle` falls in, without creating it.
    pub fn point(&mut self, series: &TimeSeries, cycle: u64) {
        self.every = series.every;
        self.index = (cycle / series.every) as usize;
        self.start = self.index as u64 * series.every;
        self.end = self.start + series.every;
    }

    /// The window containing `cycle`, as [`TimeSeries::at`].
    pub fn window<'a>(&mut self, series: &'a mut TimeSeries, cycle: u64) -> &'a mut Window {
        if !self.holds(series, cycle) {
            series.at(cycle);
            self.point(series, cycle);
        }
        &mut series.windows[self.index]
    }
}

/// Everything a run measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The machine's name.
    pub gpu: String,
    /// Cycles simulated.
    pub cycles: u64,
    /// Warp instructions issued.
    pub warp_instructions: u64,
    /// Warp instructions per cycle, whole GPU.
    pub ipc: f64,
    /// Kernel runs in the order they started: host launches and grids launched from the
    /// device (see [`KernelReport::parent`]).
    pub kernels: Vec<KernelReport>,
    /// In a report summarised for the page ([`Report::summarise_runs`]), the runs after those
    /// `kernels` keeps, totalled per kernel name; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub run_groups: Vec<RunGroup>,
    /// For programs run side by side, each one's totals; empty for one program.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<PartReport>,
    /// For programs run side by side, the program of every kernel run (index into `parts`;
    /// [`parts::NO_PART`] for none), the runs the report only totals included; empty for one
    /// program.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub run_parts: Vec<u8>,
    /// With two or more co-running kernels (host streams), who held up whose memory
    /// instructions at the LSU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_blocking: Option<blocking::MemoryBlocking>,
    /// What looks wrong in how the kernels ran (a barrier only part of a block reached),
    /// for a person; empty when nothing does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Per SM.
    pub sms: Vec<SmReport>,
    /// Thread blocks in the order they finished: every one, or for a grid of more than
    /// [`MAX_BLOCK_RECORDS`] blocks every `block_record_stride`-th (see [`BlockLog`]).
    pub blocks: Vec<BlockRecord>,
    /// One record in `blocks` for every this many finished blocks (1, or 0 in a report built
    /// by hand: every block's).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub block_record_stride: u64,
    /// Thread blocks finished, whether `blocks` keeps their record or not.
    #[serde(default)]
    pub blocks_finished: u64,
    /// All L1s together.
    pub l1: L1Stats,
    /// The L2.
    pub l2: L2Stats,
    /// DRAM.
    pub dram: DramStats,
    /// The interconnect.
    pub network: NetworkStats,
    /// Scheduler cycles by outcome, all SMs.
    pub stalls: StallBreakdown,
    /// Counts over time.
    pub series: TimeSeries,
    /// Global loads the warp policy's gate held back at least once, all SMs (each counted once,
    /// however long it waited; the runs' counts add up to it).
    #[serde(default)]
    pub gated_loads: u64,
    /// Passes of shared-memory instructions through the banks, every run (see
    /// [`KernelReport::shared_accesses`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shared_accesses: u64,
    /// Misses on a line in the missing warp's own victim tags, all SMs (CCWS's lost-locality
    /// detector; 0 under other policies).
    #[serde(default)]
    pub victim_tag_hits: u64,
    /// The L1 access streams replayed with optimal and with LRU replacement, when
    /// `l1.replacement` is `Belady` (the run is timed with LRU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1_replay: Option<L1Replay>,
    /// What the Steal thread-block scheduler did (only under it): steals, steal-queue
    /// overflows, re-chunks and the partition check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steal: Option<crate::sched::tb::steal::StealStats>,
    /// How SMK or Warped-Slicer split each SM among the co-running kernels (only under them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharing: Option<sharing::SharingReport>,
    /// What device-side launches did on their way to the dispatcher (all zero without any).
    #[serde(default, skip_serializing_if = "LaunchStats::is_empty")]
    pub launches: LaunchStats,
    /// Dynamic energy by component (`energy.rs`), over every run.
    #[serde(default)]
    pub energy: energy::Energy,
    /// The cost of each event on this machine, which `energy` was computed with.
    #[serde(default)]
    pub energy_model: energy::EnergyModel,
}

impl Report {
    /// What the runs of the named kernels measured, as a report of its own: their cycles (the
    /// union of their start-to-end spans, so overlapping runs count once), warp instructions,
    /// L1, L2 and DRAM counts, loads held back by the warp policy, and their kernel runs.
    /// Per-SM counts (victim-tag hits among them), stalls and the time series are not kept per
    /// kernel run and stay empty. A claim measures a workload over the kernels
    /// the paper's program runs, leaving out kernels that stand in for its host-side set-up.
    /// It needs every run's record: in a report whose runs were summarised for the page the
    /// summarised runs are left out.
    pub fn region(&self, kernels: &[&str]) -> Report {
        let runs: Vec<&KernelReport> = self.kernels.iter().filter(|k| kernels.contains(&k.name.as_str())).collect();
        let mut spans: Vec<(u64, u64)> = runs.iter().map(|k| (k.start_cycle, k.end_cycle + 1)).collect();
        spans.sort_unstable();
        let mut cycles = 0;
        let mut covered_to = 0;
        for (start, end) in spans {
            let from = start.max(covered_to);
            if end > from {
                cycles += end - from;
                covered_to = end;
            }
        }
        let mut out = Report { gpu: self.gpu.clone(), cycles, ..Report::default() };
        for k in &runs {
            out.warp_instructions += k.warp_instructions;
            out.l1.merge(&k.l1);
            out.l2.merge(&k.l2);
            out.dram.reads += k.dram_reads;
            out.dram.writes += k.dram_writes;
            out.network.merge(&k.network);
            out.gated_loads += k.gated_loads;
            out.shared_accesses += k.shared_accesses;
            if let Some(replay) = &k.l1_replay {
                out.l1_replay.get_or_insert_with(L1Replay::default).merge(replay);
            }
            out.kernels.push((*k).clone());
        }
        out.ipc = if cycles == 0 { 0.0 } else { out.warp_instructions as f64 / cycles as f64 };
        out.energy_model = self.energy_model;
        out.energy = self.energy_model.of_report(&out);
        out
    }
}

fn one() -> u64 {
    1
}

fn is_one(n: &u64) -> bool {
    *n == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stall_spans_over_whole_windows_add_up_as_window_by_window() {
        // The same spans, added through the difference array and one window at a time, with
        // enough cycles to merge the windows twice on the way.
        let mut lazy = TimeSeries::new(8);
        let mut plain = TimeSeries::new(8);
        let mut state = 11u64;
        let (mut start, mut kept_aside) = (0u64, 0);
        for _ in 0..3000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let cycles = (state >> 33) % 2000;
            let reasons = [StallReason::ALL[(state >> 20) as usize % 7], StallReason::ALL[(state >> 24) as usize % 7]];
            lazy.add_stall_span(start, cycles, &reasons);
            kept_aside += usize::from(!lazy.whole.is_empty());
            plain.spread(start, cycles, |w, chunk| reasons.iter().for_each(|&r| w.stalls.add(r, chunk)));
            if state % 7 == 0 {
                // Other counts arrive between spans, as the clock's tallies do.
                lazy.at(start).warp_instructions += 1;
                plain.at(start).warp_instructions += 1;
            }
            start += (state >> 45) % 150;
        }
        assert!(lazy.every > 8, "the windows merged");
        assert!(kept_aside > 1000, "whole windows were kept aside ({kept_aside} times)");
        lazy.settle();
        assert_eq!(lazy, plain);
        assert!(lazy.windows.iter().any(|w| w.stalls.total() > 0));
    }

    #[test]
    fn a_region_counts_its_kernels_once_and_overlaps_once() {
        let run = |name: &str, start: u64, end: u64, instructions: u64| KernelReport {
            name: name.into(),
            start_cycle: start,
            end_cycle: end,
            warp_instructions: instructions,
            l1: L1Stats { misses: instructions / 10, ..L1Stats::default() },
            dram_reads: 1,
            ..KernelReport::default()
        };
        let report = Report {
            cycles: 1000,
            kernels: alloc::vec![run("setup", 0, 99, 50), run("get", 100, 399, 300), run("get", 300, 599, 200)],
            ..Report::default()
        };
        let get = report.region(&["get"]);
        // Spans 100..=399 and 300..=599 overlap by 100 cycles: 500 cycles in all.
        assert_eq!((get.cycles, get.warp_instructions, get.l1.misses, get.dram.reads), (500, 500, 50, 2));
        assert_eq!(get.ipc, 1.0);
        assert_eq!(report.region(&["none"]).cycles, 0);
    }

    #[test]
    fn stall_counts_by_index_match_the_breakdown() {
        let reasons = StallReason::ALL;
        let (mut counts, mut breakdown) = (StallCounts::default(), StallBreakdown::default());
        for (i, &r) in reasons.iter().enumerate() {
            counts.add(r, i as u64 + 1);
            breakdown.add(r, i as u64 + 1);
        }
        assert_eq!(StallBreakdown::from(counts), breakdown);
        assert_eq!(reasons.len(), StallReason::COUNT);
    }

    #[test]
    fn the_cursor_finds_the_same_windows_as_the_series() {
        let (mut a, mut b) = (TimeSeries::new(10), TimeSeries::new(10));
        let mut cursor = WindowCursor::default();
        for cycle in (0..50_000u64).step_by(7) {
            a.at(cycle).warp_instructions += cycle;
            cursor.window(&mut b, cycle).warp_instructions += cycle;
        }
        assert_eq!(a, b);
        assert!(cursor.holds(&b, 49_999) && !cursor.holds(&b, 0));
    }

    #[test]
    fn a_stall_span_is_split_at_window_edges() {
        let mut s = TimeSeries::new(10);
        s.add_stall_span(7, 15, &[StallReason::Barrier, StallReason::Issued]);
        let barrier: Vec<u64> = s.windows.iter().map(|w| w.stalls.barrier).collect();
        assert_eq!(barrier, [3, 10, 2]);
        assert_eq!(s.windows[1].stalls.issued, 10);
    }

    #[test]
    fn the_series_stays_bounded_and_keeps_totals() {
        let mut s = TimeSeries::new(10);
        for cycle in 0..100_000u64 {
            s.at(cycle).warp_instructions += 1;
        }
        assert!(s.windows.len() <= MAX_WINDOWS);
        assert_eq!(s.windows.iter().map(|w| w.warp_instructions).sum::<u64>(), 100_000);
        assert!(s.windows.iter().enumerate().all(|(i, w)| w.start == i as u64 * s.every));
        assert_eq!(s.every, 80, "10 doubled until 100 000 cycles fit in 2048 windows");
    }
}
