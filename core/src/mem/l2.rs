//! One L2 bank: a set-associative, write-back, write-allocate, sectored cache with its own MSHRs
//! in front of a DRAM channel. Requests arrive from the network; the bank answers with replies
//! to send back and DRAM reads to wait for. Timing is by timestamps: the bank's pipeline takes
//! a request per cycle, or as many cycles as its data needs on the bank's data path, or as many
//! as its atomic unit needs to apply the updates of one address one after another. Hits
//! answer after `hit_latency`, misses after the DRAM read. A miss whose DRAM channel has its
//! request queue full holds the pipeline until a slot frees, so everything behind it waits too:
//! that is how a saturated DRAM pushes back on the L2.
//!
//! Sectors: a line's tag holds a valid and a dirty bit per sector. A load fetches from DRAM
//! only the sectors it needs that are not valid, and a write-back writes only dirty sectors,
//! so DRAM moves sector-sized pieces. A store makes the sectors it writes valid and dirty
//! without fetching them (the partial-sector byte masks real L2s keep are not modelled). An
//! unsectored L2 is the case of one sector per line.

use core::mem::size_of;

use alloc::collections::VecDeque;
use alloc::vec;
use alloc::vec::Vec;

use crate::config::{GpuConfig, Replacement, SetIndex};
use crate::mem::cache::fermi_hash_set;
use crate::mem::dram::Dram;
use crate::mem::l1::{Message, RequestKind};
use crate::mem::line_table::{LineCounts, LineTable};
use crate::stats::{KernelReport, L2Stats};

/// A request from an SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2Request {
    /// Requesting SM.
    pub sm: u32,
    /// Line address.
    pub line: u64,
    /// Sectors requested (loads) or written (stores, atomics), in the L1's sector size.
    pub sectors: u32,
    /// Load, store or atomic.
    pub kind: RequestKind,
    /// The SM's token, echoed in the reply.
    pub token: u32,
    /// The kernel run whose instruction made it (its statistics count it).
    pub kernel: u32,
    /// For an atomic, the most lanes that update one address (its updates are applied one
    /// after another); 1 otherwise.
    pub updates: u32,
    /// What it is for the coherence protocol: an L1's write-back of owned data is counted
    /// apart from stores.
    pub message: Message,
}

/// What the home bank looked up for DeNovo without serving data itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A load or atomic whose sectors another L1 owns: sent on there.
    Forward,
    /// A store's registration: the owner recorded.
    Register,
}

/// The kernel run a bank's action is counted against, in the runs' reports.
struct Charge<'a> {
    runs: &'a mut [KernelReport],
    kernel: u32,
}

impl Charge<'_> {
    /// The run's report (none for a run the slice does not hold, as in unit tests).
    fn run(&mut self) -> Option<&mut KernelReport> {
        self.runs.get_mut(self.kernel as usize)
    }

    /// Counts one on `counter` of the bank's `stats` and of the run's L2 statistics.
    #[inline]
    fn count(&mut self, stats: &mut L2Stats, counter: impl Fn(&mut L2Stats) -> &mut u64) {
        *counter(stats) += 1;
        if let Some(run) = self.run() {
            *counter(&mut run.l2) += 1;
        }
    }
}

/// What the bank asks the engine to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum L2Output {
    /// Send the reply to `request` back to its SM at cycle `at`.
    Reply {
        /// When the data is ready to leave the bank.
        at: u64,
        /// The request answered.
        request: L2Request,
    },
    /// Call [`L2Bank::dram_done`] for `sectors` of `line` at cycle `at`.
    DramDone {
        /// When the sectors are back from DRAM.
        at: u64,
        /// Which line.
        line: u64,
        /// Which of its sectors (the L2's sectors).
        sectors: u32,
    },
}

/// A request waiting in an MSHR with the sectors (the L2's) it still needs.
#[derive(Clone, Copy, Debug)]
struct Waiter {
    request: L2Request,
    needs: u32,
}

#[derive(Clone, Debug)]
struct Mshr {
    /// Sectors a store or atomic wrote while the line was being fetched.
    dirty_on_fill: u32,
    /// Sectors asked of DRAM through this entry.
    fetching: u32,
    /// Of those, sectors back.
    arrived: u32,
    waiters: Vec<Waiter>,
}

const INVALID: u64 = u64::MAX;

/// One bank.
#[derive(Clone, Debug)]
pub struct L2Bank {
    id: u32,
    banks: u32,
    sets: u32,
    ways: u32,
    index: SetIndex,
    line_bytes: u32,
    replacement: Replacement,
    hit_latency: u64,
    max_merge: usize,
    /// Bytes of an L1 sector (request masks) and of an L2 sector (tags, DRAM transfers).
    l1_sector_bytes: u32,
    sector_bytes: u32,
    bytes_per_cycle: u32,
    atomic_update_cycles: u64,
    lines: Vec<u64>,
    stamps: Vec<u64>,
    /// Per tag entry: sectors holding data, and of those, sectors written since the fill.
    valid: Vec<u32>,
    dirty: Vec<u32>,
    clock: u64,
    /// The MSHR fetching each line in flight: every request that misses the tags asks.
    in_flight: LineTable,
    /// MSHRs not in use.
    free_mshrs: Vec<u32>,
    mshrs: Vec<Mshr>,
    /// Requests that found no MSHR (or no merge slot), oldest first, retried when one frees,
    /// with the first tag entry of their set (each is retried many times). A deque: those
    /// served are mostly near the front, so closing their gap moves the few ahead of them.
    waiting: VecDeque<(L2Request, usize)>,
    /// How many of `waiting` are for each line.
    waiting_lines: LineCounts,
    /// How many of `waiting` are for a line an MSHR is fetching: with no MSHR free, only those
    /// (and those for the line just filled) can be served, so a retry stops once it has passed
    /// them all instead of walking the whole queue.
    waiting_on_mshrs: usize,
    /// Tests: retry by walking the whole queue, the plain way the early stop must agree with.
    #[cfg(test)]
    walk_whole_queue: bool,
    /// A store installed the line of a waiting request since the last retry of `waiting` (so
    /// that line is present now).
    stored_since_retry: bool,
    pipeline_free: u64,
    stats: L2Stats,
}

impl L2Bank {
    /// Bytes one bank of a validated `config` allocates, about: its per-line arrays and its
    /// MSHRs with their line table. For [`crate::footprint`].
    pub fn bytes_needed(config: &GpuConfig) -> u64 {
        let l2 = &config.l2;
        let lines = (l2.size_bytes / l2.banks.max(1)) as u64 / config.l1.line_bytes.max(1) as u64;
        let per_line = (2 * size_of::<u64>() + 2 * size_of::<u32>()) as u64;
        let entries = l2.mshr_entries as u64;
        let table = (entries.max(1) * 4).next_power_of_two() * (size_of::<u64>() + size_of::<u32>()) as u64;
        lines * per_line + entries * (size_of::<Mshr>() + size_of::<u32>()) as u64 + table
    }

    /// Bank `id` of a validated `config`.
    pub fn new(id: u32, config: &GpuConfig) -> Self {
        let l2 = &config.l2;
        let per_bank = l2.size_bytes / l2.banks;
        let line_bytes = config.l1.line_bytes;
        let entries = (per_bank / line_bytes) as usize;
        L2Bank {
            id,
            banks: l2.banks,
            sets: per_bank / line_bytes / l2.ways,
            ways: l2.ways,
            index: l2.index,
            line_bytes,
            replacement: l2.replacement,
            hit_latency: l2.hit_latency as u64,
            max_merge: l2.mshr_max_merge as usize,
            l1_sector_bytes: config.l1.sector_bytes.max(1),
            sector_bytes: l2.sector_bytes.max(1),
            bytes_per_cycle: l2.bytes_per_cycle.max(1),
            atomic_update_cycles: l2.atomic_update_cycles as u64,
            lines: vec![INVALID; entries],
            stamps: vec![0; entries],
            valid: vec![0; entries],
            dirty: vec![0; entries],
            clock: 0,
            in_flight: LineTable::new(l2.mshr_entries as usize),
            free_mshrs: (0..l2.mshr_entries).rev().collect(),
            mshrs: (0..l2.mshr_entries)
                .map(|_| Mshr { dirty_on_fill: 0, fetching: 0, arrived: 0, waiters: Vec::new() })
                .collect(),
            waiting: VecDeque::new(),
            waiting_lines: LineCounts::new(l2.mshr_entries as usize),
            waiting_on_mshrs: 0,
            #[cfg(test)]
            walk_whole_queue: false,
            stored_since_retry: false,
            pipeline_free: 0,
            stats: L2Stats::default(),
        }
    }

    fn set_of(&self, line: u64) -> u32 {
        // Lines are interleaved over the banks (`line % banks` picks the bank), so the set
        // index uses what is left: consecutive lines of this bank fill consecutive sets.
        let local = line / self.banks as u64;
        match self.index {
            SetIndex::Linear => (local % self.sets as u64) as u32,
            SetIndex::FermiHash => fermi_hash_set(local * self.line_bytes as u64, self.sets),
        }
    }

    /// First tag entry of `line`'s set.
    fn set_base(&self, line: u64) -> usize {
        (self.set_of(line) * self.ways) as usize
    }

    /// The tag entry holding `line`, searched in the set starting at `base`.
    fn find_in(&self, base: usize, line: u64) -> Option<usize> {
        self.lines[base..base + self.ways as usize].iter().position(|&l| l == line).map(|i| base + i)
    }

    fn touch(&mut self, i: usize) {
        self.clock += 1;
        if self.replacement == Replacement::Lru {
            self.stamps[i] = self.clock;
        }
    }

    /// The L2 sectors covering the L1 sectors of `mask`.
    fn l2_sectors(&self, mask: u32) -> u32 {
        if self.l1_sector_bytes == self.sector_bytes {
            return mask;
        }
        let (l1, l2) = (self.l1_sector_bytes, self.sector_bytes);
        let mut out = 0u32;
        let mut rest = mask;
        while rest != 0 {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            let (first, last) = (i * l1 / l2, ((i + 1) * l1 - 1) / l2);
            for k in first..=last.min(31) {
                out |= 1 << k;
            }
        }
        out
    }

    /// Bytes of the L2 sectors in `sectors`.
    fn bytes(&self, sectors: u32) -> u32 {
        sectors.count_ones() * self.sector_bytes
    }

    /// Cycles `request`, touching L2 `sectors`, holds the bank's pipeline: its data's cycles
    /// on the data path, or for an atomic the updates of its most updated address one after
    /// another, whichever is longer; at least one.
    fn occupancy(&self, request: &L2Request, sectors: u32) -> u64 {
        let data = self.bytes(sectors).div_ceil(self.bytes_per_cycle) as u64;
        let updates = match request.kind {
            RequestKind::Atomic => request.updates as u64 * self.atomic_update_cycles,
            _ => 0,
        };
        data.max(updates).max(1)
    }

    /// Installs `line` at cycle `at` with `valid` and `dirty` sectors for a request of kernel
    /// run `kernel`, writing back the dirty sectors of the victim through `dram` (a write-back
    /// the run is charged with).
    #[allow(clippy::too_many_arguments)]
    fn install(
        &mut self,
        at: u64,
        base: usize,
        line: u64,
        valid: u32,
        dirty: u32,
        dram: &mut Dram,
        mut charge: Charge<'_>,
    ) {
        // The first empty way, else the first with the smallest stamp, in one pass.
        let end = base + self.ways as usize;
        let mut victim = base;
        let mut oldest = u64::MAX;
        for (i, (&l, &stamp)) in self.lines[base..end].iter().zip(&self.stamps[base..end]).enumerate() {
            if l == INVALID {
                victim = base + i;
                break;
            }
            if stamp < oldest {
                (victim, oldest) = (base + i, stamp);
            }
        }
        if self.lines[victim] != INVALID && self.dirty[victim] != 0 {
            charge.count(&mut self.stats, |s| &mut s.writebacks);
            if let Some(run) = charge.run() {
                run.dram_writes += 1;
            }
            dram.write(at, self.channel(dram), self.bytes(self.dirty[victim]));
        }
        self.clock += 1;
        self.lines[victim] = line;
        self.stamps[victim] = self.clock;
        self.valid[victim] = valid;
        self.dirty[victim] = dirty;
    }

    /// The MSHR fetching `line`, if any.
    #[inline]
    fn mshr_of(&self, line: u64) -> Option<usize> {
        self.in_flight.get(line)
    }

    /// Takes a free MSHR, if any, for `line`.
    fn take_mshr(&mut self, line: u64) -> Option<usize> {
        let m = self.free_mshrs.pop()? as usize;
        self.in_flight.insert(line, m);
        self.waiting_on_mshrs += self.waiting_lines.get(line);
        Some(m)
    }

    fn free_mshr(&mut self, m: usize, line: u64) {
        self.in_flight.remove(line);
        self.free_mshrs.push(m as u32);
        self.waiting_on_mshrs -= self.waiting_lines.get(line);
    }

    /// Queues `request`, which could not be served, behind those waiting already.
    fn wait(&mut self, request: L2Request, base: usize) {
        self.waiting_lines.add(request.line);
        if self.mshr_of(request.line).is_some() {
            self.waiting_on_mshrs += 1;
        }
        self.waiting.push_back((request, base));
    }

    fn channel(&self, dram: &Dram) -> u32 {
        self.id % dram.channels()
    }

    /// A request arrives at cycle `now`. `runs` are the kernel runs' reports, which count
    /// each request against its run.
    pub fn arrive(
        &mut self,
        now: u64,
        request: L2Request,
        dram: &mut Dram,
        out: &mut Vec<L2Output>,
        runs: &mut [KernelReport],
    ) {
        let start = now.max(self.pipeline_free);
        self.pipeline_free = start + self.occupancy(&request, self.l2_sectors(request.sectors));
        // Counted once here: a request retried from the wait queue is not a new access.
        let mut charge = Charge { runs: &mut *runs, kernel: request.kernel };
        match (request.kind, request.message) {
            (RequestKind::Store, Message::WriteBack) => charge.count(&mut self.stats, |s| &mut s.l1_writebacks),
            (RequestKind::Store, _) => charge.count(&mut self.stats, |s| &mut s.writes),
            _ => charge.count(&mut self.stats, |s| &mut s.accesses),
        }
        let base = self.set_base(request.line);
        if !self.serve(now, start, request, base, dram, out, runs) {
            self.wait(request, base);
        }
    }

    /// DeNovo: the bank looks `request` up in the owner registry at `now` (its pipeline busy
    /// one cycle, behind whatever it is doing) without serving data; counted as `lookup` says.
    /// Returns the cycle the answer leaves the bank, a hit's latency after it starts.
    pub fn lookup(&mut self, now: u64, request: &L2Request, lookup: Lookup, runs: &mut [KernelReport]) -> u64 {
        let start = now.max(self.pipeline_free);
        self.pipeline_free = start + 1;
        let mut charge = Charge { runs, kernel: request.kernel };
        match lookup {
            Lookup::Forward => charge.count(&mut self.stats, |s| &mut s.forwarded),
            Lookup::Register => charge.count(&mut self.stats, |s| &mut s.registrations),
        }
        start + self.hit_latency
    }

    /// Serves `request` at `start` (the engine being at `now`), `base` being the first tag
    /// entry of its set; `false` if it must wait (no free MSHR, or its line's MSHR has no merge
    /// slot left).
    #[allow(clippy::too_many_arguments)]
    fn serve(
        &mut self,
        now: u64,
        start: u64,
        request: L2Request,
        base: usize,
        dram: &mut Dram,
        out: &mut Vec<L2Output>,
        runs: &mut [KernelReport],
    ) -> bool {
        let line = request.line;
        let needs = self.l2_sectors(request.sectors);
        let mut charge = Charge { runs, kernel: request.kernel };
        if request.kind == RequestKind::Store {
            if let Some(i) = self.find_in(base, line) {
                self.touch(i);
                self.valid[i] |= needs;
                self.dirty[i] |= needs;
            } else if let Some(m) = self.mshr_of(line) {
                self.mshrs[m].dirty_on_fill |= needs;
            } else {
                self.install(start, base, line, needs, needs, dram, charge);
                // Only a waiting request for this very line can now be served by the tags.
                self.stored_since_retry |= self.waiting_lines.get(line) > 0;
            }
            return true;
        }
        let present = self.find_in(base, line);
        let missing = present.map_or(needs, |i| needs & !self.valid[i]);
        let written = if request.kind == RequestKind::Atomic { needs } else { 0 };
        if let (Some(i), 0) = (present, missing) {
            charge.count(&mut self.stats, |s| &mut s.hits);
            self.touch(i);
            self.dirty[i] |= written;
            out.push(L2Output::Reply { at: start + self.hit_latency, request });
            return true;
        }
        let waiter = Waiter { request, needs: missing };
        let fetch = match self.mshr_of(line) {
            Some(m) => {
                let entry = &mut self.mshrs[m];
                if entry.waiters.len() >= self.max_merge {
                    return false;
                }
                entry.dirty_on_fill |= written;
                entry.waiters.push(waiter);
                // Sectors no read in flight brings are fetched by a read of their own.
                let fetch = missing & !entry.fetching;
                if fetch == 0 {
                    charge.count(&mut self.stats, |s| &mut s.mshr_merges);
                    return true;
                }
                entry.fetching |= fetch;
                fetch
            }
            None => {
                let Some(m) = self.take_mshr(line) else { return false };
                let entry = &mut self.mshrs[m];
                entry.dirty_on_fill = written;
                entry.fetching = missing;
                entry.arrived = 0;
                entry.waiters.clear();
                entry.waiters.push(waiter);
                missing
            }
        };
        charge.count(&mut self.stats, |s| &mut s.misses);
        if let Some(run) = charge.run() {
            run.dram_reads += 1;
        }
        let asked = start + self.hit_latency;
        let channel = self.channel(dram);
        let read = dram.read(now + self.hit_latency, asked, channel, self.bytes(fetch));
        if read.accepted > asked {
            // The channel's queue was full: the bank held the miss until a slot freed,
            // taking nothing new meanwhile.
            self.pipeline_free = self.pipeline_free.max(start + (read.accepted - asked) + 1);
        }
        out.push(L2Output::DramDone { at: read.done, line, sectors: fetch });
        true
    }

    /// The DRAM read of `sectors` of `line` completed at `now`: fill them, answer every waiter
    /// whose sectors are all back, free the MSHR once all its reads are back, and retry the
    /// requests that found no MSHR. The fill's write-back, if any, is charged to the run of
    /// the oldest waiter.
    pub fn dram_done(
        &mut self,
        now: u64,
        line: u64,
        sectors: u32,
        dram: &mut Dram,
        out: &mut Vec<L2Output>,
        runs: &mut [KernelReport],
    ) {
        let Some(index) = self.mshr_of(line) else { return };
        let entry = &mut self.mshrs[index];
        entry.arrived |= sectors;
        let dirty = entry.dirty_on_fill;
        let kernel = entry.waiters.first().map_or(u32::MAX, |w| w.request.kernel);
        let base = self.set_base(line);
        match self.find_in(base, line) {
            // Sectors added to a line kept meanwhile (its first sectors arrived earlier, or it
            // was present when the miss for these began).
            Some(i) => {
                self.touch(i);
                self.valid[i] |= sectors | dirty;
                self.dirty[i] |= dirty;
            }
            None => self.install(now, base, line, sectors | dirty, dirty, dram, Charge { runs: &mut *runs, kernel }),
        }
        let entry = &mut self.mshrs[index];
        let arrived = entry.arrived;
        entry.waiters.retain(|w| {
            let answered = w.needs & !arrived == 0;
            if answered {
                out.push(L2Output::Reply { at: now, request: w.request });
            }
            !answered
        });
        if entry.fetching & !arrived != 0 {
            return;
        }
        debug_assert!(entry.waiters.is_empty());
        self.free_mshr(index, line);
        self.retry_waiting(now, line, dram, out, runs);
    }

    /// Retries the waiting requests after the MSHR of `filled` was freed at `now`: in order,
    /// those still unserved keeping their places. A request whose line is neither present nor
    /// being fetched, with no MSHR free, waits on: its line can only have become present
    /// through this fill or a store since the last retry, so the tags need not be searched
    /// again. Once no MSHR is free and every request for a line being fetched or just filled
    /// has been passed, the rest would all wait on, and are not visited.
    fn retry_waiting(
        &mut self,
        now: u64,
        filled: u64,
        dram: &mut Dram,
        out: &mut Vec<L2Output>,
        runs: &mut [KernelReport],
    ) {
        let mut waiting = core::mem::take(&mut self.waiting);
        debug_assert_eq!(
            self.waiting_on_mshrs,
            waiting.iter().filter(|(r, _)| self.mshr_of(r.line).is_some()).count(),
            "waiting requests counted as on an MSHR"
        );
        let skip_absent = !self.stored_since_retry;
        // Requests for `filled` not yet passed, and requests passed and kept whose line is being
        // fetched (it stays so: no MSHR frees during a retry). A request for `filled` whose
        // line is fetched again is counted twice, which only delays the stop.
        let mut filled_ahead = self.waiting_lines.get(filled);
        let mut kept_on_mshrs = 0;
        let mut kept = 0;
        let mut next = 0;
        while next < waiting.len() {
            let none_free = skip_absent && self.free_mshrs.is_empty();
            if none_free && filled_ahead == 0 && self.waiting_on_mshrs == kept_on_mshrs && self.may_stop_retry() {
                break;
            }
            let (request, base) = waiting[next];
            next += 1;
            if request.line == filled {
                filled_ahead -= 1;
            }
            let waits_on = none_free && request.line != filled && self.mshr_of(request.line).is_none();
            let served = !waits_on && self.serve(now, now, request, base, dram, out, runs);
            // (A request that waits on has no MSHR fetching its line.)
            let on_mshr = !waits_on && self.mshr_of(request.line).is_some();
            if served {
                self.waiting_lines.remove_one(request.line);
                self.waiting_on_mshrs -= usize::from(on_mshr);
                continue;
            }
            kept_on_mshrs += usize::from(on_mshr);
            waiting[kept] = (request, base);
            kept += 1;
        }
        waiting.drain(kept..next);
        self.waiting = waiting;
        self.stored_since_retry = false;
    }

    #[cfg(not(test))]
    fn may_stop_retry(&self) -> bool {
        true
    }

    #[cfg(test)]
    fn may_stop_retry(&self) -> bool {
        !self.walk_whole_queue
    }

    /// Counts so far.
    pub fn stats(&self) -> L2Stats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;
    use crate::rng::SplitMix64;

    /// Bank 0 of a GTX 480 with a 10-cycle pipeline in front of 100-cycle, 4-cycles-a-line DRAM
    /// with `queue_entries` slots: a store installs line 1200 at cycle 0, loads of five other
    /// lines arrive at cycles 1 to 5 and miss, and a load of line 1200 arrives at cycle 6.
    /// Returns when each miss's data is back, when the hit is answered, and the cycles the bank
    /// was held by a full queue.
    fn five_misses_then_a_hit(queue_entries: u32) -> (Vec<u64>, u64, u64) {
        let mut config = presets::fermi_gtx480();
        config.l2.hit_latency = 10;
        (config.dram.latency, config.dram.bytes_per_cycle, config.dram.queue_entries) = (100, 32, queue_entries);
        let (mut bank, mut dram, mut out) = (L2Bank::new(0, &config), Dram::new(&config), Vec::new());
        let request = |line, kind| L2Request {
            sm: 0,
            line,
            sectors: 1,
            kind,
            token: 0,
            kernel: 0,
            updates: 1,
            message: Message::Access,
        };
        bank.arrive(0, request(1200, RequestKind::Store), &mut dram, &mut out, &mut []);
        for (cycle, line) in [(1, 0), (2, 12), (3, 24), (4, 36), (5, 48)] {
            bank.arrive(cycle, request(line, RequestKind::Load), &mut dram, &mut out, &mut []);
        }
        bank.arrive(6, request(1200, RequestKind::Load), &mut dram, &mut out, &mut []);
        let mut done = Vec::new();
        let mut hit = 0;
        for o in out {
            match o {
                L2Output::DramDone { at, .. } => done.push(at),
                L2Output::Reply { at, request } if request.line == 1200 => hit = at,
                L2Output::Reply { .. } => {}
            }
        }
        (done, hit, dram.stats().queue_full_cycles)
    }

    #[test]
    fn a_full_dram_queue_holds_the_bank_and_delays_the_hit_behind() {
        // The misses ask DRAM at 11..15 (arrival + 10). Transfers start at 11, 15, 19, 23, 27,
        // one line every 4 cycles, data back 104 cycles after the start.
        let back = [115, 119, 123, 127, 131];
        // 16 slots: never full; the hit starts at 6 and is answered at 16.
        assert_eq!(five_misses_then_a_hit(16), (back.to_vec(), 16, 0));
        // 2 slots: the 4th miss (asked at 14) finds the transfers starting at 15 and 19
        // waiting and is held until 15; the bank takes the 5th at 6 instead of 5, which asks at
        // 16, finds 19 and 23 waiting and is held until 19: 1 + 3 cycles. The data comes back
        // as before (the channel was busy anyway), but the hit waits for the bank: it starts
        // at 6 + 3 + 1 = 10 and is answered at 20.
        assert_eq!(five_misses_then_a_hit(2), (back.to_vec(), 20, 4));
    }

    /// Bank 0 of an H100-like L2 with 32 B sectors (as the L1's), a 10-cycle pipeline in front
    /// of 100-cycle DRAM moving 32 B a cycle, and the data path and atomic unit given.
    fn sectored_bank(bytes_per_cycle: u32, atomic_update_cycles: u32) -> (L2Bank, Dram) {
        let mut config = presets::h100();
        (config.l1.sector_bytes, config.l2.sector_bytes) = (32, 32);
        (config.l2.hit_latency, config.l2.bytes_per_cycle, config.l2.atomic_update_cycles) =
            (10, bytes_per_cycle, atomic_update_cycles);
        (config.dram.latency, config.dram.bytes_per_cycle, config.dram.channels) = (100, 32, 1);
        (L2Bank::new(0, &config), Dram::new(&config))
    }

    fn sectored(line: u64, sectors: u32, kind: RequestKind, token: u32) -> L2Request {
        L2Request { sm: 0, line, sectors, kind, token, kernel: 0, updates: 1, message: Message::Access }
    }

    /// A reply as (cycle, token); a DRAM read as (cycle, line, sectors).
    type Replies = Vec<(u64, u32)>;
    type Reads = Vec<(u64, u64, u32)>;

    /// The replies and DRAM reads of `out`, each in output order.
    fn split(out: &[L2Output]) -> (Replies, Reads) {
        let mut replies = Vec::new();
        let mut reads = Vec::new();
        for &o in out {
            match o {
                L2Output::Reply { at, request } => replies.push((at, request.token)),
                L2Output::DramDone { at, line, sectors } => reads.push((at, line, sectors)),
            }
        }
        (replies, reads)
    }

    #[test]
    fn a_miss_fetches_only_the_sectors_it_needs_and_a_later_one_only_the_rest() {
        let (mut bank, mut dram) = sectored_bank(128, 0);
        let mut out = Vec::new();
        // Sector 0 of line 0 misses: one 32 B read, asked at 10, one cycle of transfer, back at 111.
        bank.arrive(0, sectored(0, 0b0001, RequestKind::Load, 1), &mut dram, &mut out, &mut []);
        assert_eq!(split(&out), (vec![], vec![(111, 0, 0b0001)]));
        out.clear();
        bank.dram_done(111, 0, 0b0001, &mut dram, &mut out, &mut []);
        assert_eq!(split(&out).0, [(111, 1)]);
        out.clear();
        // Sector 0 again hits; sectors 0 and 2 fetch only sector 2.
        bank.arrive(200, sectored(0, 0b0001, RequestKind::Load, 2), &mut dram, &mut out, &mut []);
        bank.arrive(201, sectored(0, 0b0101, RequestKind::Load, 3), &mut dram, &mut out, &mut []);
        assert_eq!(split(&out), (vec![(210, 2)], vec![(312, 0, 0b0100)]));
        let stats = bank.stats();
        assert_eq!((stats.hits, stats.misses), (1, 2));
        assert_eq!((dram.stats().reads, dram.stats().bytes_read), (2, 64), "a line of four sectors would be 256 B");
    }

    #[test]
    fn sectors_not_in_flight_get_a_read_of_their_own_and_each_waiter_goes_when_its_sectors_are_back() {
        let (mut bank, mut dram) = sectored_bank(128, 0);
        let mut out = Vec::new();
        bank.arrive(0, sectored(80, 0b0001, RequestKind::Load, 1), &mut dram, &mut out, &mut []);
        // Needs sector 0 (in flight: merged) and sector 1 (not: a read of its own).
        bank.arrive(1, sectored(80, 0b0011, RequestKind::Load, 2), &mut dram, &mut out, &mut []);
        // Needs only sector 0: merged.
        bank.arrive(2, sectored(80, 0b0001, RequestKind::Load, 3), &mut dram, &mut out, &mut []);
        // Reads asked at 10 and 11 start at 10 and 11 (one cycle each): back at 111 and 112.
        assert_eq!(split(&out), (vec![], vec![(111, 80, 0b0001), (112, 80, 0b0010)]));
        assert_eq!(bank.stats().mshr_merges, 1);
        out.clear();
        bank.dram_done(111, 80, 0b0001, &mut dram, &mut out, &mut []);
        assert_eq!(split(&out).0, [(111, 1), (111, 3)], "the request needing sector 1 too still waits");
        assert_eq!(bank.free_mshrs.len(), bank.mshrs.len() - 1, "the entry waits for its second read");
        out.clear();
        bank.dram_done(112, 80, 0b0010, &mut dram, &mut out, &mut []);
        assert_eq!(split(&out).0, [(112, 2)]);
        assert_eq!(bank.free_mshrs.len(), bank.mshrs.len());
    }

    /// A bank with 4 MSHRs of 2 merge slots each takes 6 000 cycles of random loads, stores
    /// and atomics (half the cycles, over 16 lines), each DRAM read coming back when the bank
    /// said. Its replies and reads, in order, are those of the same bank retrying by walking
    /// its whole wait queue each time an MSHR frees, and the queue grows long enough for the
    /// early stop to matter.
    #[test]
    fn a_retry_that_stops_early_serves_what_a_walk_of_the_whole_queue_serves() {
        let mut config = presets::fermi_gtx480();
        (config.l2.mshr_entries, config.l2.mshr_max_merge) = (4, 2);
        let banks = config.l2.banks as u64;
        let mut walker = L2Bank::new(0, &config);
        walker.walk_whole_queue = true;
        let mut runs =
            [(L2Bank::new(0, &config), Dram::new(&config), Vec::new()), (walker, Dram::new(&config), Vec::new())];
        let mut rng = SplitMix64::new(26);
        let mut longest_queue = 0;
        for cycle in 0..6_000u64 {
            let arrival = (rng.below(2) == 0).then(|| {
                let kind = match rng.below(10) {
                    0 => RequestKind::Store,
                    1 => RequestKind::Atomic,
                    _ => RequestKind::Load,
                };
                let sectors = 1 + rng.below(15) as u32;
                sectored(rng.below(16) * banks, sectors, kind, cycle as u32)
            });
            for (bank, dram, out) in &mut runs {
                let due: Vec<(u64, u32)> = out
                    .iter()
                    .filter_map(|o| match *o {
                        L2Output::DramDone { at, line, sectors } if at == cycle => Some((line, sectors)),
                        _ => None,
                    })
                    .collect();
                for (line, sectors) in due {
                    bank.dram_done(cycle, line, sectors, dram, out, &mut []);
                }
                if let Some(request) = arrival {
                    bank.arrive(cycle, request, dram, out, &mut []);
                }
                longest_queue = longest_queue.max(bank.waiting.len());
            }
        }
        let [(_, _, stopping), (_, _, walking)] = &runs;
        assert!(longest_queue >= 50, "the wait queue reached only {longest_queue}");
        assert!(split(stopping).0.len() > 1_000);
        assert_eq!(split(stopping), split(walking));
    }

    #[test]
    fn a_write_back_writes_only_the_dirty_sectors() {
        let (mut bank, mut dram) = sectored_bank(128, 0);
        let mut out = Vec::new();
        // 20 ways: a store to sector 2 of line 0, then loads filling the other 20 lines of its set.
        bank.arrive(0, sectored(0, 0b0100, RequestKind::Store, 0), &mut dram, &mut out, &mut []);
        let set_stride = bank.sets as u64 * bank.banks as u64;
        for k in 1..=20 {
            let line = k * set_stride;
            bank.arrive(k, sectored(line, 0b1111, RequestKind::Load, 0), &mut dram, &mut out, &mut []);
            bank.dram_done(k + 500, line, 0b1111, &mut dram, &mut out, &mut []);
        }
        assert_eq!(bank.stats().writebacks, 1);
        assert_eq!((dram.stats().writes, dram.stats().bytes_written), (1, 32));
    }

    #[test]
    fn the_data_path_spaces_requests_by_the_cycles_their_data_takes() {
        // 64 B a cycle: a full line holds the bank two cycles, one sector one.
        let (mut bank, mut dram) = sectored_bank(64, 0);
        let mut out = Vec::new();
        for line in [0, 80] {
            bank.arrive(0, sectored(line, 0b1111, RequestKind::Store, 0), &mut dram, &mut out, &mut []);
        }
        out.clear();
        // Stores at 0 took cycles 0-1 and 2-3. Loads at 10: a full line (10-11), one sector
        // (12), a full line (13-14).
        for (token, (line, sectors)) in [(0, 0b1111), (80, 0b0001), (0, 0b1111)].into_iter().enumerate() {
            bank.arrive(10, sectored(line, sectors, RequestKind::Load, token as u32), &mut dram, &mut out, &mut []);
        }
        assert_eq!(split(&out).0, [(20, 0), (22, 1), (23, 2)]);
    }

    #[test]
    fn updates_of_one_address_are_applied_one_after_another() {
        let atomic = |updates, token| L2Request { updates, ..sectored(0, 0b0001, RequestKind::Atomic, token) };
        for (cycles_per_update, expected) in [(0, [(10, 0), (11, 1), (12, 2)]), (2, [(10, 0), (74, 1), (76, 2)])] {
            let (mut bank, mut dram) = sectored_bank(128, cycles_per_update);
            let mut out = Vec::new();
            bank.arrive(0, sectored(0, 0b1111, RequestKind::Store, 9), &mut dram, &mut out, &mut []);
            out.clear();
            // Three hits at cycle 1: 32 lanes on one word, then 1 lane, then an ordinary load.
            // At 2 cycles an update, the first holds the bank 64 cycles (1..65), the second 2.
            bank.arrive(1, atomic(32, 0), &mut dram, &mut out, &mut []);
            bank.arrive(1, atomic(1, 1), &mut dram, &mut out, &mut []);
            bank.arrive(1, sectored(0, 0b0001, RequestKind::Load, 2), &mut dram, &mut out, &mut []);
            let replies: Vec<(u64, u32)> = split(&out).0;
            let expected: Vec<(u64, u32)> = expected.iter().map(|&(at, t)| (at + 1, t)).collect();
            assert_eq!(replies, expected, "{cycles_per_update} cycles per update");
        }
    }
}
