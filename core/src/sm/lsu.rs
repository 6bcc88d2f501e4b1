//! The memory pipeline of an SM: one dispatch slot, fed by the issue stage, that presents one
//! line request per cycle to the L1. A request the L1 cannot accept (a reservation failure)
//! is retried every cycle and blocks every later memory instruction: the memory-pipeline stall.
//!
//! Retries that must fail are not made but counted: a failed request waits for an event that
//! can let it in (see [`Blocked`]), and a request the L1 will certainly turn away next cycle
//! waits from this one, so that the SM need not run that cycle just to fail.
//!
//! [`PendingLoads`] tracks each load or atomic until every one of its line requests is
//! answered, then releases its destination register.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use crate::config::GpuConfig;
use crate::events::SmEvent;
use crate::mem::coalescer::LineRequest;
use crate::mem::l1::{FailReason, L1Cache, L1Outcome, LoadRoute, RequestKind, Requester};
use crate::mem::replay::L1Access;
use crate::sched::warp::WarpSlot;
use crate::stats::{KernelReport, SmReport};

use super::Listeners;

/// Where the LSU counts and reports: its SM's report, the report of each kernel run (by run
/// id), which the run of the request at hand is charged in, and the SM's event stream.
pub struct Tally<'a> {
    /// The SM's counters.
    pub sm: &'a mut SmReport,
    /// Every kernel run's report.
    pub runs: &'a mut [KernelReport],
    /// Hears each access's outcome.
    pub events: Listeners<'a>,
    /// Keeps each accepted access, when the L1 is to be replayed.
    pub log: &'a mut Option<Vec<L1Access>>,
    /// Keeps the cycles the LSU stalled on each run's request, when programs run side by side
    /// (the time series splits them by program).
    pub stall_spans: &'a mut Option<Vec<StallSpan>>,
}

/// Consecutive cycles in which the LSU stalled on one kernel run's request: each a failed
/// attempt, made or foreseen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StallSpan {
    /// The run whose request failed.
    pub kernel: u32,
    /// The first of the cycles.
    pub start: u64,
    /// How many.
    pub cycles: u64,
}

impl Tally<'_> {
    /// The LSU stalled on run `kernel`'s request for `cycles` cycles from `start`.
    fn stalled(&mut self, kernel: u32, start: u64, cycles: u64) {
        self.sm.lsu_stall_cycles += cycles;
        if let Some(spans) = self.stall_spans.as_mut() {
            spans.push(StallSpan { kernel, start, cycles });
        }
    }
}

/// What occupies the dispatch slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle,
    /// A shared-memory access of kernel run `kernel` holds the banks until this cycle.
    Shared {
        until: u64,
        kernel: u32,
    },
    /// A global access presenting its line requests; `next` is the next to send.
    Global {
        kind: RequestKind,
        warp: WarpSlot,
        /// The warp's dynamic id on the SM.
        warp_id: u32,
        token: Option<u32>,
        kernel: u32,
        next: usize,
        /// Where its loads go (stores and atomics always go to the L1).
        route: LoadRoute,
    },
}

/// A head request that fails for `reason` every cycle until a fill or a miss-queue slot frees
/// something: the LSU waits for that instead of retrying, and counts the attempts it would have
/// made (each a failure) as if it had made them.
#[derive(Clone, Copy, Debug)]
struct Blocked {
    reason: FailReason,
    /// Its latest attempt, made or foreseen: every attempt before this cycle is counted.
    since: u64,
    /// Whether the attempt at `since` is counted. One foreseen for the next cycle is counted
    /// only once that cycle has passed, so that counts read at any cycle match those of
    /// an LSU that retried.
    counted: bool,
    /// The kernel run of the request, charged with the attempts.
    kernel: u32,
    /// The warp and line of the request, for the event stream.
    warp: WarpSlot,
    line: u64,
    /// The L1 set of `line`.
    set: u32,
}

impl Blocked {
    /// Counts the attempts from `since` up to (not including) `until` not counted yet.
    fn count_until(&mut self, until: u64, l1: &mut L1Cache, tally: &mut Tally<'_>) {
        let first = self.since + self.counted as u64;
        self.charge(first, until.saturating_sub(first), l1, tally);
    }

    /// Counts `attempts` failed attempts, one a cycle from `first`, as stalled cycles and as the
    /// L1's failures, for the SM and for the request's run.
    fn charge(&self, first: u64, attempts: u64, l1: &mut L1Cache, tally: &mut Tally<'_>) {
        if attempts == 0 {
            return;
        }
        tally.events.hear(SmEvent::ReservationFail {
            slot: self.warp,
            kernel: self.kernel,
            line: self.line,
            cause: self.reason,
            attempts,
        });
        tally.stalled(self.kernel, first, attempts);
        l1.record_failures(self.reason, attempts);
        if let Some(run) = tally.runs.get_mut(self.kernel as usize) {
            run.l1.record_failures(self.reason, attempts);
        }
    }
}

/// The LSU.
#[derive(Clone, Debug)]
pub struct Lsu {
    state: State,
    requests: Vec<LineRequest>,
    hit_latency: u64,
    blocked: Option<Blocked>,
    /// Whether a failed request may wait for its unblocking event (off: retry every cycle).
    may_block: bool,
    /// Tokens of atomics in the order they entered the miss queue, so a reply finds its load.
    atomic_tokens: VecDeque<u32>,
    /// Bytes of a fill the L1's data array writes per cycle (0: fills do not take the array).
    fill_bytes_per_cycle: u32,
    sector_bytes: u32,
    /// The first cycle the data array is not writing a fill: no request is presented before.
    array_free_at: u64,
    /// Cycles a shared-memory cache hit takes beyond an L1 hit.
    smc_extra_latency: u64,
}

impl Lsu {
    /// An idle LSU.
    pub fn new(config: &GpuConfig, may_block: bool) -> Self {
        Lsu {
            state: State::Idle,
            requests: Vec::with_capacity(32),
            hit_latency: config.l1.hit_latency as u64,
            blocked: None,
            may_block,
            atomic_tokens: VecDeque::new(),
            fill_bytes_per_cycle: config.l1.fill_bytes_per_cycle,
            sector_bytes: config.l1.sector_bytes,
            array_free_at: 0,
            smc_extra_latency: 0,
        }
    }

    /// Hits in the shared-memory cache take `cycles` more than L1 hits.
    pub fn set_smc_extra_latency(&mut self, cycles: u32) {
        self.smc_extra_latency = cycles as u64;
    }

    /// A fill of `sectors` reached the L1 at `now`: it takes the data array for its bytes'
    /// cycles, after any fill before it.
    pub fn fill_arrived(&mut self, now: u64, sectors: u32) {
        if self.fill_bytes_per_cycle == 0 {
            return;
        }
        let cycles = (sectors.count_ones() * self.sector_bytes).div_ceil(self.fill_bytes_per_cycle).max(1);
        self.array_free_at = self.array_free_at.max(now) + cycles as u64;
    }

    /// Whether the dispatch slot is taken (a memory instruction cannot issue).
    pub fn busy(&self) -> bool {
        self.state != State::Idle
    }

    /// Whether the LSU has work for the next cycle (a blocked LSU waits for an event).
    pub fn active(&self) -> bool {
        self.busy() && self.blocked.is_none()
    }

    /// Something that can unblock the head request happened; it is retried from cycle `retry`.
    /// The attempts it would have made (and failed) in between are counted now.
    pub fn unblock(&mut self, retry: u64, l1: &mut L1Cache, tally: &mut Tally<'_>) {
        if let Some(mut blocked) = self.blocked.take() {
            blocked.count_until(retry, l1, tally);
        }
    }

    /// A fill reached the L1 at `now`: the head request is retried from `now`, unless it is a
    /// load turned away for want of a way whose set the fill left full (the retry would fail the
    /// same way; a fill into another set is the common case for loads whose lines crowd a few
    /// sets). It then waits on, its attempts counted as they pass. Not where fills occupy the
    /// data array: there a retry first waits for the array, cycles that are not failed attempts.
    pub fn fill_may_unblock(&mut self, now: u64, l1: &mut L1Cache, tally: &mut Tally<'_>) {
        if let (Some(blocked), State::Global { kind: RequestKind::Load, route: LoadRoute::L1, .. }) =
            (&self.blocked, self.state)
        {
            let still_failing = blocked.reason == FailReason::LineAlloc
                && self.fill_bytes_per_cycle == 0
                && l1.still_no_way_for(blocked.set, blocked.line);
            if still_failing {
                return;
            }
        }
        self.unblock(now, l1, tally);
    }

    /// A miss request left the queue at `now`. A head request blocked on the full queue is
    /// retried next cycle. One blocked for another reason would fail that retry the same way
    /// (a queue slot is all that changed): it stays blocked, with that attempt foreseen, as
    /// [`Lsu::unblock`] followed by the failed retry would leave the counts.
    pub fn miss_queue_popped(&mut self, now: u64, l1: &mut L1Cache, tally: &mut Tally<'_>) {
        match &mut self.blocked {
            Some(blocked) if blocked.reason != FailReason::MissQueue => {
                blocked.count_until(now + 1, l1, tally);
                (blocked.since, blocked.counted) = (now + 1, false);
            }
            Some(_) => self.unblock(now + 1, l1, tally),
            None => {}
        }
    }

    /// The cycles before `now` are over (simulated, or slept through by the SM): every failed
    /// attempt among them, foreseen or waited out while blocked, is counted, so that counts read
    /// when a run stops (its end, the cycle limit, a measurement window) match those of an LSU
    /// that retried every cycle.
    pub fn settle(&mut self, now: u64, l1: &mut L1Cache, tally: &mut Tally<'_>) {
        if let Some(blocked) = &mut self.blocked {
            let first = blocked.since + blocked.counted as u64;
            if first < now {
                blocked.charge(first, now - first, l1, tally);
                (blocked.since, blocked.counted) = (now - 1, true);
            }
        }
    }

    /// The buffer the coalescer fills for the next global access.
    pub fn requests_mut(&mut self) -> &mut Vec<LineRequest> {
        &mut self.requests
    }

    /// A shared-memory access occupies the slot until `until`.
    pub fn start_shared(&mut self, until: u64, kernel: u32) {
        self.state = State::Shared { until, kernel };
    }

    /// The kernel run whose access holds the LSU, if one does.
    pub fn holder(&self) -> Option<u32> {
        match self.state {
            State::Idle => None,
            State::Shared { kernel, .. } | State::Global { kernel, .. } => Some(kernel),
        }
    }

    /// A global access of the warp in slot `warp` (dynamic id `warp_id`), of kernel run
    /// `kernel`, whose requests are in [`Lsu::requests_mut`], to `l1`; a load goes by `route`.
    #[allow(clippy::too_many_arguments)]
    pub fn start_global(
        &mut self,
        kind: RequestKind,
        (warp, warp_id): (WarpSlot, u32),
        token: Option<u32>,
        kernel: u32,
        route: LoadRoute,
        l1: &L1Cache,
    ) {
        for r in &mut self.requests {
            r.set = l1.set_of(r.line);
        }
        let route = if kind == RequestKind::Load { route } else { LoadRoute::L1 };
        self.state = State::Global { kind, warp, warp_id, token, kernel, next: 0, route };
    }

    /// The token of the oldest atomic sent towards L2 (call when its miss request leaves).
    pub fn take_atomic_token(&mut self) -> Option<u32> {
        self.atomic_tokens.pop_front()
    }

    /// One cycle: present the next line request to the L1.
    pub fn cycle(&mut self, now: u64, l1: &mut L1Cache, loads: &mut PendingLoads, tally: &mut Tally<'_>) {
        match self.state {
            State::Idle => {}
            State::Shared { until, .. } => {
                if now >= until {
                    self.state = State::Idle;
                }
            }
            State::Global { .. } if self.blocked.is_some() => self.settle(now + 1, l1, tally),
            // A fill is writing the data array: the request waits (it is not a failed attempt).
            State::Global { .. } if now < self.array_free_at => {}
            State::Global { kind, warp, warp_id, token, kernel, next, route } => {
                l1.advance_to(now);
                let Some(request) = self.requests.get(next).copied() else {
                    self.finish(token, loads);
                    return;
                };
                let who = Requester {
                    slot: warp as u32,
                    warp: warp_id,
                    lanes: request.lanes,
                    token: token.unwrap_or(u32::MAX),
                };
                let outcome = match route {
                    LoadRoute::L1 => {
                        l1.access_in(request.set, request.line, request.sectors, kind, who, kernel, request.updates)
                    }
                    LoadRoute::SharedMemoryCache => l1.load_redirected(request.line, request.sectors, who, kernel),
                    LoadRoute::BypassL1 => l1.load_bypassing(request.line, request.sectors, who, kernel),
                };
                // Only the L1's own route is foreseeable by `load_doomed` and replayable.
                let plain = route == LoadRoute::L1;
                if let Some(run) = tally.runs.get_mut(kernel as usize) {
                    run.l1.record(&outcome);
                }
                let (slot, line) = (warp, request.line);
                // The replay's stream: accepted L1 accesses only (a turned-away attempt is none;
                // the shared-memory cache is not the L1, and a bypassing load allocates nothing).
                let accepted = !matches!(outcome, L1Outcome::ReservationFail(_));
                if let Some(log) = tally.log.as_mut().filter(|_| accepted && plain) {
                    log.push(L1Access::new(line, kind, slot, kernel));
                }
                match outcome {
                    L1Outcome::ReservationFail(cause) => {
                        tally.events.hear(SmEvent::ReservationFail { slot, kernel, line, cause, attempts: 1 });
                        tally.stalled(kernel, now, 1);
                        // A redirected or bypassing load's failure is retried every cycle:
                        // `load_doomed` foresees only the L1's.
                        if self.may_block && plain {
                            self.blocked = Some(Blocked {
                                reason: cause,
                                since: now,
                                counted: true,
                                kernel,
                                warp,
                                line,
                                set: request.set,
                            });
                        }
                        return;
                    }
                    L1Outcome::Hit { owner, .. } => {
                        tally.events.hear(SmEvent::Hit { slot, kernel, line, owner });
                        if let Some(t) = token {
                            loads.hit(t, now + self.hit_latency);
                        }
                    }
                    L1Outcome::HitReserved | L1Outcome::SectorMiss => {
                        tally.events.hear(match outcome {
                            L1Outcome::HitReserved => SmEvent::MshrMerge { slot, kernel, line },
                            _ => SmEvent::SectorMiss { slot, kernel, line },
                        });
                        if let Some(t) = token {
                            loads.expect(t);
                        }
                    }
                    L1Outcome::Miss { evicted } | L1Outcome::SmcMiss { evicted } => {
                        if let Some(t) = token {
                            loads.expect(t);
                        }
                        tally.events.hear(SmEvent::Miss { slot, kernel, line });
                        if let Some(e) = evicted {
                            tally.events.hear(SmEvent::Eviction { line: e.line, owner: e.owner, by: warp });
                        }
                    }
                    L1Outcome::SmcHit { .. } => {
                        if let Some(t) = token {
                            loads.hit(t, now + self.hit_latency + self.smc_extra_latency);
                        }
                    }
                    L1Outcome::Migrated { evicted, moved } | L1Outcome::ReturnedFromSmc { evicted, moved } => {
                        // The data moves over through the response path: as a hit in the
                        // shared-memory cache here, whichever way it goes.
                        if let Some(t) = token {
                            loads.hit(t, now + self.hit_latency + self.smc_extra_latency);
                        }
                        if let Some(e) = evicted {
                            tally.events.hear(SmEvent::Eviction { line: e.line, owner: e.owner, by: warp });
                        }
                        tally.events.hear(SmEvent::Migration { line: moved.line, owner: moved.owner, by: warp });
                    }
                    L1Outcome::Forwarded | L1Outcome::Registered { .. } => {
                        tally.events.hear(SmEvent::Store { slot, kernel, line, atomic: kind == RequestKind::Atomic });
                        if let (RequestKind::Atomic, Some(t)) = (kind, token) {
                            loads.expect(t);
                            self.atomic_tokens.push_back(t);
                        }
                        if let L1Outcome::Registered { evicted: Some(e) } = outcome {
                            tally.events.hear(SmEvent::Eviction { line: e.line, owner: e.owner, by: warp });
                        }
                    }
                    L1Outcome::OwnedWrite => {
                        // Done in the L1, which owns the data: an atomic's old value is there
                        // after a hit's latency.
                        tally.events.hear(SmEvent::Store { slot, kernel, line, atomic: kind == RequestKind::Atomic });
                        if let (RequestKind::Atomic, Some(t)) = (kind, token) {
                            loads.hit(t, now + self.hit_latency);
                        }
                    }
                }
                let Some(&following) = self.requests.get(next + 1) else {
                    self.finish(token, loads);
                    return;
                };
                self.state = State::Global { kind, warp, warp_id, token, kernel, next: next + 1, route };
                // Nothing but a fill or a miss-queue slot (each of which unblocks) can change the
                // L1 before the next cycle's attempt: if it must fail, wait from now.
                if self.may_block && kind == RequestKind::Load && plain {
                    if let Some(reason) = l1.load_doomed(following.set, following.line) {
                        let (warp, line, set) = (warp, following.line, following.set);
                        self.blocked =
                            Some(Blocked { reason, since: now + 1, counted: false, kernel, warp, line, set });
                    }
                }
            }
        }
    }

    fn finish(&mut self, token: Option<u32>, loads: &mut PendingLoads) {
        if let Some(t) = token {
            loads.all_sent(t);
        }
        self.state = State::Idle;
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    warp: WarpSlot,
    reg: u8,
    /// The destination is a register pair: `reg` and the one after (a 64-bit load).
    pair: bool,
    outstanding: u32,
    ready_at: u64,
    all_sent: bool,
    live: bool,
}

/// Loads and atomics waiting for their data, indexed by token.
#[derive(Clone, Debug, Default)]
pub struct PendingLoads {
    entries: Vec<Pending>,
    free: Vec<u32>,
    /// Tokens that became complete and have not been released yet.
    complete: Vec<u32>,
}

impl PendingLoads {
    /// A load of `warp` into register `reg` (and the next, for a `pair`), issued at `now`;
    /// returns its token.
    pub fn start(&mut self, warp: WarpSlot, reg: u8, pair: bool, now: u64) -> u32 {
        let entry = Pending { warp, reg, pair, outstanding: 0, ready_at: now, all_sent: false, live: true };
        match self.free.pop() {
            Some(t) => {
                self.entries[t as usize] = entry;
                t
            }
            None => {
                self.entries.push(entry);
                self.entries.len() as u32 - 1
            }
        }
    }

    fn entry(&mut self, token: u32) -> Option<&mut Pending> {
        self.entries.get_mut(token as usize).filter(|e| e.live)
    }

    /// One of its requests hit; the data is there at `at`.
    pub fn hit(&mut self, token: u32, at: u64) {
        if let Some(e) = self.entry(token) {
            e.ready_at = e.ready_at.max(at);
        }
    }

    /// One of its requests went to the memory side.
    pub fn expect(&mut self, token: u32) {
        if let Some(e) = self.entry(token) {
            e.outstanding += 1;
        }
    }

    /// A reply for it arrived at `now`.
    pub fn answer(&mut self, token: u32, now: u64) {
        let Some(e) = self.entry(token) else { return };
        e.outstanding = e.outstanding.saturating_sub(1);
        e.ready_at = e.ready_at.max(now);
        if e.outstanding == 0 && e.all_sent {
            self.complete.push(token);
        }
    }

    /// Every request of it has been presented to the L1.
    pub fn all_sent(&mut self, token: u32) {
        let Some(e) = self.entry(token) else { return };
        e.all_sent = true;
        if e.outstanding == 0 {
            self.complete.push(token);
        }
    }

    /// Whether some load is complete and waits to be released.
    #[inline]
    pub fn any_complete(&self) -> bool {
        !self.complete.is_empty()
    }

    /// Releases every complete load: `release(warp, reg, pair, ready_at)`. Returns whether any
    /// was.
    pub fn complete_ready(&mut self, mut release: impl FnMut(WarpSlot, u8, bool, u64)) -> bool {
        let any = self.any_complete();
        while let Some(token) = self.complete.pop() {
            let e = &mut self.entries[token as usize];
            if e.live {
                e.live = false;
                release(e.warp, e.reg, e.pair, e.ready_at);
                self.free.push(token);
            }
        }
        any
    }
}
