//! Memory-instruction limiting (`cke.md` §3.3–3.5): each co-running kernel may have at most
//! `MIL_k` global memory instructions in flight on an SM; a warp whose next instruction would
//! exceed it is held back and its scheduler picks another (no warp or block is throttled,
//! compute instructions never wait).
//!
//! - **SMIL** fixes each kernel's limit (the paper's offline sweep).
//! - **DMIL** recomputes it every 1024 of the kernel's L1 requests on the SM as
//!   `max(peak in flight / (reservation failures >> 10), 1)`, so that the memory pipeline stays
//!   busy with about one failed attempt per request. The paper leaves open what happens when
//!   failures are fewer than one per request (`>> 10` is 0); that is `zero_rule`: the literal
//!   reading lifts the limit, `hold` keeps it and lifts it every 16 intervals, `additive` raises
//!   it by one (the notes' variants A–C). The failure counter saturates at 12 bits, as the
//!   paper's hardware does, so a limit falls at most 3-fold per interval.
//!
//! A kernel is a host stream ([`super::WarpInfo::stream`]); its state on an SM survives its
//! relaunches. An instruction is
//! in flight from its issue until a load's or an atomic's last data returns, or until a store's
//! last request is accepted by the L1 (the notes' suggestion). Failed attempts are charged to the
//! kernel whose request is at the LSU's head.

use alloc::vec;
use alloc::vec::Vec;

use super::{InstrClass, Issued, SmEvent, SmShape, WarpCx, WarpSlot};
use crate::sched::{ParamInfo, ParamValues};

/// Most co-running kernels one SM keeps counters for; a further kernel is not limited.
pub const MAX_KERNELS: usize = 4;
/// No limit.
pub const UNLIMITED: u32 = u32::MAX;
/// Requests per DMIL interval (the paper's `>> 10`).
const INTERVAL: u32 = 1024;
/// The failure counter's width (12 bits).
const RSFAIL_MAX: u32 = (1 << 12) - 1;
/// Under the `hold` rule, intervals between lifts of the limit.
const HOLD_RESET: u32 = 16;

/// What DMIL does in an interval with fewer failures than requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroRule {
    /// No limit (`x / 0`, the literal reading).
    Lift,
    /// Keep the limit; lift it every 16 intervals.
    Hold,
    /// Raise it by one, up to 128 (the in-flight counter's range).
    Additive,
}

/// How the limits are set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limits {
    /// Fixed per kernel, by stream: `[k0, k1, k2, k3]` for streams 1 to 4 (SMIL).
    Static([u32; MAX_KERNELS]),
    /// Recomputed from the kernel's failures (DMIL).
    Dynamic(ZeroRule),
}

/// One kernel's counters on one SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KernelCounters {
    stream: u32,
    in_flight: u32,
    peak: u32,
    rsfail: u32,
    requests: u32,
    intervals: u32,
    limit: u32,
}

/// The gate of one SM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MilGate {
    limits: Limits,
    kernels: Vec<KernelCounters>,
    /// Requests of each warp's store still to be accepted, by warp slot.
    store_requests: Vec<u32>,
}

impl MilGate {
    /// A gate with `limits`.
    pub fn new(limits: Limits) -> Self {
        MilGate { limits, kernels: Vec::new(), store_requests: Vec::new() }
    }

    /// SMIL from its parameters `k0`..`k3` (0: no limit).
    pub fn smil(values: &ParamValues) -> Self {
        let limit = |name| match values.get(name) {
            0 => UNLIMITED,
            n => n,
        };
        MilGate::new(Limits::Static([limit("k0"), limit("k1"), limit("k2"), limit("k3")]))
    }

    /// DMIL from its parameter `zero_rule`.
    pub fn dmil(values: &ParamValues) -> Self {
        let rule = match values.get("zero_rule") {
            1 => ZeroRule::Hold,
            2 => ZeroRule::Additive,
            _ => ZeroRule::Lift,
        };
        MilGate::new(Limits::Dynamic(rule))
    }

    /// SMIL's parameters.
    pub const SMIL_PARAMS: &'static [ParamInfo] = &[
        static_limit("k0", "Stream 1's limit"),
        static_limit("k1", "Stream 2's limit"),
        static_limit("k2", "Stream 3's limit"),
        static_limit("k3", "Stream 4's limit"),
    ];

    /// DMIL's parameters.
    pub const DMIL_PARAMS: &'static [ParamInfo] = &[ParamInfo {
        name: "zero_rule",
        label: "Fewer failures than requests",
        unit: "",
        description: "What an interval with fewer reservation failures than requests does to the limit: 0 lifts it (the paper's formula read literally), 1 keeps it and lifts it every 16 intervals, 2 raises it by one.",
        min: 0,
        max: 2,
        default: 0,
    }];

    /// Sizes the per-warp store counts.
    pub fn attach(&mut self, shape: &SmShape) {
        self.store_requests = vec![0; shape.warp_slots as usize];
    }

    /// The counters of `stream`'s kernel, numbered on first use; `None` past [`MAX_KERNELS`].
    fn counters(&mut self, stream: u32) -> Option<&mut KernelCounters> {
        let i = match self.kernels.iter().position(|k| k.stream == stream) {
            Some(i) => i,
            None if self.kernels.len() < MAX_KERNELS => {
                let limit = match self.limits {
                    Limits::Static(limits) => static_limit_of(&limits, stream),
                    Limits::Dynamic(_) => UNLIMITED,
                };
                self.kernels.push(KernelCounters {
                    stream,
                    in_flight: 0,
                    peak: 0,
                    rsfail: 0,
                    requests: 0,
                    intervals: 0,
                    limit,
                });
                self.kernels.len() - 1
            }
            None => return None,
        };
        Some(&mut self.kernels[i])
    }

    /// Whether `slot`'s next instruction, of `class`, may issue.
    pub fn may_issue(&self, cx: &WarpCx<'_>, slot: WarpSlot, class: InstrClass) -> bool {
        if !class.is_global() {
            return true;
        }
        let stream = cx.warps[slot as usize].stream;
        self.kernels.iter().find(|k| k.stream == stream).is_none_or(|k| k.in_flight < k.limit)
    }

    /// `slot` issued `issued`.
    pub fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        if !issued.class.is_global() {
            return;
        }
        if issued.class == InstrClass::GlobalStore {
            if issued.requests == 0 {
                return;
            }
            if let Some(pending) = self.store_requests.get_mut(slot as usize) {
                *pending = issued.requests;
            }
        }
        if let Some(k) = self.counters(cx.warps[slot as usize].stream) {
            k.in_flight += 1;
            k.peak = k.peak.max(k.in_flight);
        }
    }

    /// Completions, accepted requests and failed attempts.
    pub fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        let stream_of = |slot: WarpSlot| cx.warps.get(slot as usize).map(|w| w.stream);
        match *event {
            SmEvent::LoadComplete { slot, .. } => {
                if let Some(k) = stream_of(slot).and_then(|s| self.counters(s)) {
                    k.in_flight = k.in_flight.saturating_sub(1);
                }
            }
            SmEvent::Store { slot, atomic, .. } => {
                if !atomic {
                    let done = self.store_requests.get_mut(slot as usize).is_some_and(|pending| {
                        *pending = pending.saturating_sub(1);
                        *pending == 0
                    });
                    if done {
                        if let Some(k) = stream_of(slot).and_then(|s| self.counters(s)) {
                            k.in_flight = k.in_flight.saturating_sub(1);
                        }
                    }
                }
                self.accepted(stream_of(slot));
            }
            SmEvent::Hit { slot, .. }
            | SmEvent::Miss { slot, .. }
            | SmEvent::MshrMerge { slot, .. }
            | SmEvent::SectorMiss { slot, .. } => self.accepted(stream_of(slot)),
            SmEvent::ReservationFail { slot, attempts, .. } => {
                if let Some(k) = stream_of(slot).and_then(|s| self.counters(s)) {
                    let attempts = attempts.min(u64::from(RSFAIL_MAX)) as u32;
                    k.rsfail = k.rsfail.saturating_add(attempts).min(RSFAIL_MAX);
                }
            }
            _ => {}
        }
    }

    /// A request of `stream`'s kernel got into the L1: DMIL's interval may end.
    fn accepted(&mut self, stream: Option<u32>) {
        let Limits::Dynamic(rule) = self.limits else { return };
        let Some(k) = stream.and_then(|s| self.counters(s)) else { return };
        k.requests += 1;
        if k.requests < INTERVAL {
            return;
        }
        let failures_per_request = k.rsfail >> 10;
        k.intervals += 1;
        k.limit = match (failures_per_request, rule) {
            (0, ZeroRule::Lift) => UNLIMITED,
            (0, ZeroRule::Hold) if k.intervals % HOLD_RESET == 0 => UNLIMITED,
            (0, ZeroRule::Hold) => k.limit,
            (0, ZeroRule::Additive) => k.limit.saturating_add(1).min(128),
            (r, _) => (k.peak / r).max(1),
        };
        k.requests = 0;
        k.rsfail = 0;
        k.peak = k.in_flight;
    }

    /// Each kernel's limit now, in order of first memory instruction (for views and tests).
    pub fn limits(&self) -> Vec<(u32, u32)> {
        self.kernels.iter().map(|k| (k.stream, k.limit)).collect()
    }
}

/// SMIL's limit for the kernel in host stream `stream`: `k0` for stream 1 (or the default
/// stream), `k1` for stream 2 and so on, so that in programs side by side (`a+b`, whose
/// streams are numbered from 1 in program order) `k0` limits the first.
fn static_limit_of(limits: &[u32; MAX_KERNELS], stream: u32) -> u32 {
    limits.get(stream.saturating_sub(1) as usize).copied().unwrap_or(UNLIMITED)
}

const fn static_limit(name: &'static str, label: &'static str) -> ParamInfo {
    ParamInfo {
        name,
        label,
        unit: "instructions",
        description: "Global memory instructions this kernel may have in flight on an SM; 0 for no limit. k0 is the kernel in stream 1 (the first program side by side), k1 in stream 2, and so on.",
        min: 0,
        max: 128,
        default: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sched::warp::test_support::warps;
    use crate::sched::warp::WarpInfo;

    const LOAD: Issued = Issued { class: InstrClass::GlobalLoad, kernel: 0, requests: 1, lanes: 32 };

    /// Warps 0-1 of stream 1, warps 2-3 of stream 2.
    fn two_kernels() -> Vec<WarpInfo> {
        let mut w = warps(&[0, 1, 2, 3]);
        for (i, info) in w.iter_mut().enumerate() {
            info.stream = if i < 2 { 1 } else { 2 };
        }
        w
    }

    fn cx(w: &[WarpInfo]) -> WarpCx<'_> {
        WarpCx { now: 0, sm: 0, scheduler: 0, warps: w }
    }

    #[test]
    fn static_limits_follow_the_stream_whichever_kernel_loads_first() {
        let w = two_kernels();
        let mut gate = MilGate::new(Limits::Static([UNLIMITED, 1, UNLIMITED, UNLIMITED]));
        gate.attach(&SmShape { schedulers: 1, warp_slots: 4, tb_slots: 4 });
        let cx = cx(&w);
        // Stream 2 (warps 2-3) loads first; its limit is still k1's.
        gate.on_issue(&cx, 2, &LOAD);
        assert!(!gate.may_issue(&cx, 3, InstrClass::GlobalLoad));
        gate.on_issue(&cx, 0, &LOAD);
        gate.on_issue(&cx, 1, &LOAD);
        assert!(gate.may_issue(&cx, 0, InstrClass::GlobalLoad), "stream 1 is not limited");
        assert_eq!(gate.limits(), [(2, 1), (1, UNLIMITED)]);
    }

    #[test]
    fn a_static_limit_holds_back_a_kernels_memory_instructions_only_while_it_has_that_many_in_flight() {
        let w = two_kernels();
        let mut gate = MilGate::new(Limits::Static([1, UNLIMITED, UNLIMITED, UNLIMITED]));
        gate.attach(&SmShape { schedulers: 1, warp_slots: 4, tb_slots: 4 });
        let cx = cx(&w);
        assert!(gate.may_issue(&cx, 0, InstrClass::GlobalLoad));
        gate.on_issue(&cx, 0, &LOAD);
        assert!(!gate.may_issue(&cx, 1, InstrClass::GlobalLoad), "stream 1 has its one in flight");
        assert!(gate.may_issue(&cx, 1, InstrClass::Compute), "compute never waits");
        assert!(gate.may_issue(&cx, 1, InstrClass::Shared), "nor shared memory");
        gate.on_issue(&cx, 2, &LOAD);
        gate.on_issue(&cx, 3, &LOAD);
        assert!(gate.may_issue(&cx, 2, InstrClass::GlobalStore), "stream 2 is not limited");
        gate.on_event(&cx, &SmEvent::LoadComplete { slot: 0, at: 5 });
        assert!(gate.may_issue(&cx, 1, InstrClass::GlobalLoad), "the load returned");
        // A store of three requests is in flight until the third is accepted.
        gate.on_issue(&cx, 1, &Issued { class: InstrClass::GlobalStore, kernel: 0, requests: 3, lanes: 32 });
        for accepted in 0..3 {
            assert!(!gate.may_issue(&cx, 0, InstrClass::GlobalLoad), "after {accepted} of 3 requests");
            gate.on_event(&cx, &SmEvent::Store { slot: 1, kernel: 0, line: accepted, atomic: false });
        }
        assert!(gate.may_issue(&cx, 0, InstrClass::GlobalLoad));
    }

    /// One stretch of stream 1's traffic: `in_flight` loads issued together and answered after
    /// `failures` failed attempts, then `requests` requests accepted.
    fn interval(gate: &mut MilGate, w: &[WarpInfo], in_flight: u32, failures: u64, requests: u32) {
        let cx = cx(w);
        for _ in 0..in_flight {
            gate.on_issue(&cx, 0, &LOAD);
        }
        let cause = crate::mem::l1::FailReason::MshrEntry;
        gate.on_event(&cx, &SmEvent::ReservationFail { slot: 0, kernel: 0, line: 0, cause, attempts: failures });
        for _ in 0..in_flight {
            gate.on_event(&cx, &SmEvent::LoadComplete { slot: 0, at: 0 });
        }
        for line in 0..requests {
            gate.on_event(&cx, &SmEvent::Hit { slot: 0, kernel: 0, line: u64::from(line), owner: 0 });
        }
    }

    #[test]
    fn dmil_divides_the_peak_by_the_failures_per_request_every_1024_requests() {
        let w = two_kernels();
        let mut gate = MilGate::new(Limits::Dynamic(ZeroRule::Lift));
        gate.attach(&SmShape { schedulers: 1, warp_slots: 4, tb_slots: 4 });
        // The notes' ks: about 8 in flight at the peak and 7 failures a request: 8 / 7 = 1.
        // The 12-bit counter saturates at 4095, so at most 3 a request count: 8 / 3 = 2.
        interval(&mut gate, &w, 8, 7 * 1024, 1024);
        assert_eq!(gate.limits(), [(1, 2)]);
        // Still failing three times a request with at most 2 in flight: 2 / 3 → at least 1.
        interval(&mut gate, &w, 2, 3 * 1024, 1024);
        assert_eq!(gate.limits(), [(1, 1)]);
        // An interval with fewer failures than requests lifts the limit (the literal rule).
        interval(&mut gate, &w, 1, 1000, 1024);
        assert_eq!(gate.limits(), [(1, UNLIMITED)]);
        // Nothing changes before the 1024th request.
        interval(&mut gate, &w, 9, 4 * 1024, 1023);
        assert_eq!(gate.limits(), [(1, UNLIMITED)]);
        interval(&mut gate, &w, 0, 0, 1);
        assert_eq!(gate.limits(), [(1, 3)], "peak 9 over 3 failures a request");
    }

    #[test]
    fn the_zero_rule_holds_or_raises_the_limit_instead() {
        let w = two_kernels();
        for (rule, expected) in [(ZeroRule::Hold, 2), (ZeroRule::Additive, 3)] {
            let mut gate = MilGate::new(Limits::Dynamic(rule));
            gate.attach(&SmShape { schedulers: 1, warp_slots: 4, tb_slots: 4 });
            interval(&mut gate, &w, 6, 3 * 1024, 1024);
            assert_eq!(gate.limits(), [(1, 2)]);
            interval(&mut gate, &w, 1, 0, 1024);
            assert_eq!(gate.limits(), [(1, expected)], "{rule:?}");
        }
    }
}
