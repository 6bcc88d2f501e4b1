//! One L2 bank: a set-associative, write-back, write-allocate cache with its own MSHRs in
//! front of a DRAM channel. Requests arrive from the network; the bank answers with replies to
//! send back and DRAM reads to wait for. Timing is by timestamps: the bank's pipeline accepts
//! one request per cycle, hits answer after `hit_latency`, misses after the DRAM read. A miss
//! whose DRAM channel has its request queue full holds the pipeline until a slot frees, so
//! everything behind it waits too: that is how a saturated DRAM pushes back on the L2.

use alloc::vec;
use alloc::vec::Vec;

use crate::config::{GpuConfig, Replacement, SetIndex};
use crate::mem::cache::fermi_hash_set;
use crate::mem::dram::Dram;
use crate::mem::l1::RequestKind;
use crate::mem::line_table::LineTable;
use crate::stats::{KernelReport, L2Stats};

/// A request from an SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2Request {
    /// Requesting SM.
    pub sm: u32,
    /// Line address.
    pub line: u64,
    /// Sectors requested (loads) or written (stores).
    pub sectors: u32,
    /// Load, store or atomic.
    pub kind: RequestKind,
    /// The SM's token, echoed in the reply.
    pub token: u32,
    /// The kernel run whose instruction made it (its statistics count it).
    pub kernel: u32,
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
    /// Call [`L2Bank::dram_done`] for `line` at cycle `at`.
    DramDone {
        /// When the line is back from DRAM.
        at: u64,
        /// Which line.
        line: u64,
    },
}

#[derive(Clone, Debug)]
struct Mshr {
    /// A store or atomic touched the line while it was being fetched.
    dirty_on_fill: bool,
    waiters: Vec<L2Request>,
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
    lines: Vec<u64>,
    stamps: Vec<u64>,
    dirty: Vec<bool>,
    clock: u64,
    /// The MSHR fetching each line in flight: every request that misses the tags asks.
    in_flight: LineTable,
    /// MSHRs not in use.
    free_mshrs: Vec<u32>,
    mshrs: Vec<Mshr>,
    /// Requests that found no MSHR (or no merge slot), oldest first, retried when one frees,
    /// with the first tag entry of their set (each is retried many times).
    waiting: Vec<(L2Request, usize)>,
    /// A store installed the line of a waiting request since the last retry of `waiting` (so
    /// that line is present now).
    stored_since_retry: bool,
    pipeline_free: u64,
    stats: L2Stats,
}

impl L2Bank {
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
            lines: vec![INVALID; entries],
            stamps: vec![0; entries],
            dirty: vec![false; entries],
            clock: 0,
            in_flight: LineTable::new(l2.mshr_entries as usize),
            free_mshrs: (0..l2.mshr_entries).rev().collect(),
            mshrs: (0..l2.mshr_entries).map(|_| Mshr { dirty_on_fill: false, waiters: Vec::new() }).collect(),
            waiting: Vec::new(),
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

    /// Installs `line` at cycle `at` for a request of kernel run `kernel`, writing back a dirty
    /// victim through `dram` (a write-back the run is charged with).
    fn install(&mut self, at: u64, base: usize, line: u64, dirty: bool, dram: &mut Dram, mut charge: Charge<'_>) {
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
        if self.lines[victim] != INVALID && self.dirty[victim] {
            charge.count(&mut self.stats, |s| &mut s.writebacks);
            if let Some(run) = charge.run() {
                run.dram_writes += 1;
            }
            dram.write(at, self.channel(dram));
        }
        self.clock += 1;
        self.lines[victim] = line;
        self.stamps[victim] = self.clock;
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
        Some(m)
    }

    fn free_mshr(&mut self, m: usize, line: u64) {
        self.in_flight.remove(line);
        self.free_mshrs.push(m as u32);
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
        self.pipeline_free = start + 1;
        // Counted once here: a request retried from the wait queue is not a new access.
        let mut charge = Charge { runs: &mut *runs, kernel: request.kernel };
        match request.kind {
            RequestKind::Store => charge.count(&mut self.stats, |s| &mut s.writes),
            _ => charge.count(&mut self.stats, |s| &mut s.accesses),
        }
        let base = self.set_base(request.line);
        if !self.serve(now, start, request, base, dram, out, runs) {
            self.waiting.push((request, base));
        }
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
        let mut charge = Charge { runs, kernel: request.kernel };
        if request.kind == RequestKind::Store {
            if let Some(i) = self.find_in(base, line) {
                self.touch(i);
                self.dirty[i] = true;
            } else if let Some(m) = self.mshr_of(line) {
                self.mshrs[m].dirty_on_fill = true;
            } else {
                self.install(start, base, line, true, dram, charge);
                // Only a waiting request for this very line can now be served by the tags.
                self.stored_since_retry |= self.waiting.iter().any(|(r, _)| r.line == line);
            }
            return true;
        }
        if let Some(i) = self.find_in(base, line) {
            charge.count(&mut self.stats, |s| &mut s.hits);
            self.touch(i);
            if request.kind == RequestKind::Atomic {
                self.dirty[i] = true;
            }
            out.push(L2Output::Reply { at: start + self.hit_latency, request });
            return true;
        }
        let max_merge = self.max_merge;
        if let Some(m) = self.mshr_of(line) {
            let m = &mut self.mshrs[m];
            if m.waiters.len() >= max_merge {
                return false;
            }
            charge.count(&mut self.stats, |s| &mut s.mshr_merges);
            m.dirty_on_fill |= request.kind == RequestKind::Atomic;
            m.waiters.push(request);
            return true;
        }
        let channel = self.channel(dram);
        match self.take_mshr(line) {
            Some(m) => {
                charge.count(&mut self.stats, |s| &mut s.misses);
                if let Some(run) = charge.run() {
                    run.dram_reads += 1;
                }
                let m = &mut self.mshrs[m];
                m.dirty_on_fill = request.kind == RequestKind::Atomic;
                m.waiters.clear();
                m.waiters.push(request);
                let asked = start + self.hit_latency;
                let read = dram.read(now + self.hit_latency, asked, channel);
                if read.accepted > asked {
                    // The channel's queue was full: the bank held the miss until a slot freed,
                    // taking nothing new meanwhile.
                    self.pipeline_free = self.pipeline_free.max(start + (read.accepted - asked) + 1);
                }
                out.push(L2Output::DramDone { at: read.done, line });
                true
            }
            None => false,
        }
    }

    /// The DRAM read of `line` completed at `now`: fill, answer every waiter, retry waiters
    /// that found no MSHR. The fill's write-back, if any, is charged to the run whose miss
    /// started the read.
    pub fn dram_done(
        &mut self,
        now: u64,
        line: u64,
        dram: &mut Dram,
        out: &mut Vec<L2Output>,
        runs: &mut [KernelReport],
    ) {
        let Some(index) = self.mshr_of(line) else { return };
        let dirty = self.mshrs[index].dirty_on_fill;
        let base = self.set_base(line);
        let kernel = self.mshrs[index].waiters.first().map_or(u32::MAX, |r| r.kernel);
        self.install(now, base, line, dirty, dram, Charge { runs: &mut *runs, kernel });
        let mshr = &mut self.mshrs[index];
        for &request in &mshr.waiters {
            out.push(L2Output::Reply { at: now, request });
        }
        mshr.waiters.clear();
        self.free_mshr(index, line);
        // In order; those still unserved keep their places. A request whose line is neither
        // present nor being fetched, with no MSHR free, would wait on: its line can only have
        // become present through this fill or a store since the last retry, so the tags need
        // not be searched again.
        let mut waiting = core::mem::take(&mut self.waiting);
        let skip_absent = !self.stored_since_retry;
        waiting.retain(|&(request, base)| {
            let waits_on = skip_absent
                && self.free_mshrs.is_empty()
                && request.line != line
                && self.mshr_of(request.line).is_none();
            waits_on || !self.serve(now, now, request, base, dram, out, runs)
        });
        self.waiting = waiting;
        self.stored_since_retry = false;
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
        let request = |line, kind| L2Request { sm: 0, line, sectors: 1, kind, token: 0, kernel: 0 };
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
}
