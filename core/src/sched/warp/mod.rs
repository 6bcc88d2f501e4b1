//! Warp schedulers: each cycle, each scheduler of an SM asks the SM's policy to pick, among the
//! scheduler's warps that can issue, the one to issue first; then, while the issue width allows,
//! the next among those left.
//!
//! One policy object serves a whole SM: it is told which scheduler asks ([`WarpCx::scheduler`]),
//! keeps per-scheduler state where a paper's scheduler has it (GTO's greedy warp) and SM-wide
//! state where a paper's mechanism is SM-wide (a warp limit, instruction counts, epochs), and
//! hears every issue and cache event of the SM.
//!
//! # Adding a policy
//! 1. Write `sched/warp/<name>.rs` with a type implementing [`WarpScheduler`]; only `pick` is
//!    required. Put its unit tests at the bottom of the file.
//! 2. Add a row to the `warp_policies!` table below (a new, never-used id).
//! 3. That's it: the engine, the CLI and the UI's menu find it through [`WARP_POLICIES`].
//!
//! The engine owns the issue mechanics (scoreboard, functional units, the memory pipeline); a
//! policy only orders ready warps, may hold back an instruction by its class
//! ([`WarpScheduler::may_issue`]), and hears about issues and cache events.
//!
//! **Invariant:** the engine lets a scheduler sleep while none of its warps can issue, and skips
//! cycles in which nothing can happen; a policy is not called in them. State that changes with
//! time alone (a decay, an epoch) is therefore computed from [`WarpCx::now`] when the policy is
//! next called, never by counting calls.

pub mod bmi;
pub mod ccws;
pub mod ciao;
mod fetch_groups;
pub mod gated;
pub mod gto;
pub mod lrr;
pub mod mil;
#[cfg(test)]
mod probe;
pub mod set;
pub mod smk_w;
pub mod statpcal;
pub mod swl;
pub mod two_level_gto;
pub mod two_level_lrr;
pub mod victim_tags;

pub use gated::MEMORY_GATES;
pub use set::{Members, ReadyWarps, WarpSet, Words};

pub use crate::events::SmEvent;
pub use crate::isa::InstrClass;
pub use crate::stats::WarpScores;

use super::{PolicyInfo, PolicySpec, SpecError, Tunable};

/// A warp slot of an SM (`0..max_warps_per_sm`).
pub type WarpSlot = u16;

/// What a policy may know about one warp slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarpInfo {
    /// Whether a warp occupies the slot.
    pub live: bool,
    /// Dynamic warp id: smaller is older (launch order on this SM).
    pub age: u64,
    /// The thread-block slot the warp belongs to.
    pub tb_slot: u16,
    /// The kernel run the warp belongs to.
    pub kernel: u32,
    /// The host stream of the launch at the root of its run (a grid launched from the device
    /// counts as its parent's): which co-running kernel it is, for the concurrent-kernel gates.
    pub stream: u32,
    /// Whether the warp waits at a barrier for the rest of its block.
    pub at_barrier: bool,
}

/// The age at or below which exactly the `k` oldest of the live warps whose `ages` are given
/// lie (every one when there are no more than `k`): what a limit on the oldest warps admits
/// (SWL's issue limit, statPCAL's tokens). Reorders `ages`; `k` is at least 1.
pub(crate) fn oldest_threshold(ages: &mut [u64], k: usize) -> u64 {
    // Ages are unique, so the `k`-th smallest admits exactly `k`.
    if ages.len() > k {
        *ages.select_nth_unstable(k - 1).1
    } else {
        u64::MAX
    }
}

/// Read-only view given to a warp scheduler.
pub struct WarpCx<'a> {
    /// Current cycle.
    pub now: u64,
    /// The SM.
    pub sm: u32,
    /// The scheduler asking or whose warp issued (`0..schedulers`; 0 for events, which name
    /// their warps). Warp slot `w` belongs to scheduler `w % schedulers`.
    pub scheduler: u16,
    /// Every warp slot of the SM.
    pub warps: &'a [WarpInfo],
}

/// The shape of the SM a policy object serves, given once before its first call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmShape {
    /// Warp schedulers.
    pub schedulers: u16,
    /// Warp slots (`0..warp_slots`).
    pub warp_slots: u16,
    /// Thread-block slots.
    pub tb_slots: u16,
}

impl SmShape {
    /// The scheduler that owns warp slot `slot`.
    pub fn scheduler_of(&self, slot: WarpSlot) -> u16 {
        slot % self.schedulers.max(1)
    }
}

/// An instruction that issued, as a policy hears of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Issued {
    /// What it does.
    pub class: InstrClass,
    /// The kernel run of the warp.
    pub kernel: u32,
    /// For a global access, the line requests the coalescer made of it; for a shared-memory
    /// access, the passes its bank conflicts take; 0 otherwise.
    pub requests: u32,
    /// The lanes it ran for (its thread instructions, as GPGPU-Sim counts instructions).
    pub lanes: u32,
}

/// A warp that could issue a global memory instruction this cycle, as an SM-wide memory-issue
/// arbiter hears of it ([`WarpScheduler::arbitrate_memory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryContender {
    /// The warp.
    pub slot: WarpSlot,
    /// Its next instruction's class (a load, a store or an atomic).
    pub class: InstrClass,
}

/// A warp-scheduling policy: one instance per SM, serving all of its schedulers.
///
/// Within a cycle the engine visits the SM's schedulers in order. For each, it calls `pick`
/// with the scheduler's warps that can issue, takes the one picked out of the set, and issues
/// it unless `may_issue` holds it back (or another memory instruction took the LSU this cycle);
/// `on_issue` follows each issue. While the issue width allows, it picks again among the warps
/// left, so a policy's order within a cycle is the order of its picks.
pub trait WarpScheduler {
    /// Sizes per-scheduler or per-slot state for the SM it serves; called once, before anything
    /// else.
    fn attach(&mut self, _shape: &SmShape) {}

    /// Required: the warp of `ready` (never empty; all of scheduler `cx.scheduler`) to offer
    /// next, highest priority first. `None` holds back every warp left this cycle (a limiting
    /// policy; the cycle counts as throttled if nothing issued); picking a warp not in `ready`
    /// is a bug in the policy.
    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot>;

    /// The gate: whether the picked warp `slot`, whose next instruction is of class `class`,
    /// may issue now. `false` holds it back this cycle (counted as throttled if nothing
    /// issues), and the scheduler picks again among the rest.
    fn may_issue(&self, _cx: &WarpCx<'_>, _slot: WarpSlot, _class: InstrClass) -> bool {
        true
    }

    /// `slot` (of scheduler `cx.scheduler`) issued an instruction.
    fn on_issue(&mut self, _cx: &WarpCx<'_>, _slot: WarpSlot, _issued: &Issued) {}

    /// Whether the policy decides, once per cycle for the whole SM, which co-running kernel's
    /// global memory instruction may take the LSU (balanced memory issue): the SM's four
    /// schedulers share one LSU, so no single scheduler's pick can make that choice. Asked once,
    /// when the SM is built.
    fn arbitrates_memory(&self) -> bool {
        false
    }

    /// Before any scheduler picks in a cycle the LSU is free (only for a policy that
    /// [`WarpScheduler::arbitrates_memory`]): `contenders` are the warps, across all of the
    /// SM's schedulers, whose next instruction is a global memory instruction with its
    /// operands ready. The policy's `may_issue` then holds back the kernels it did not choose.
    fn arbitrate_memory(&mut self, _cx: &WarpCx<'_>, _contenders: &[MemoryContender]) {}

    /// For a policy sized by how fast each co-running kernel runs alone (SMK-W's quotas): the
    /// window, in cycles, to measure it over. The simulation then runs each kernel (host
    /// stream) alone before the run ([`crate::scalability::alone`]) and hands the rates over
    /// with `set_alone_rates`, before the policy is copied to the SMs.
    fn alone_profile_cycles(&self) -> Option<u32> {
        None
    }

    /// Each kernel's warp instructions per SM per cycle alone, by host stream.
    fn set_alone_rates(&mut self, _rates: alloc::vec::Vec<(u32, f64)>) {}

    /// Something happened in the SM: every access its L1 took or turned away, fills,
    /// evictions, completed loads, warps arriving and leaving, kernel runs starting and ending
    /// (see [`SmEvent`]).
    fn on_event(&mut self, _cx: &WarpCx<'_>, _event: &SmEvent) {}

    /// Whether [`WarpScheduler::on_event`] does anything: a policy that keeps the default
    /// says `false`, and the SM then builds no events for it (they come by the million).
    fn hears_events(&self) -> bool {
        true
    }

    /// Whether the policy must hear each failed attempt in the cycle it happens. By default the
    /// LSU does not retry a request that cannot get in before something changes, and reports
    /// the attempts it would have made when that happens ([`SmEvent::ReservationFail`] with a
    /// count): a policy that acts on failures as they come says `true`, and the LSU then retries
    /// every cycle (slower, the same results).
    fn hears_every_retry(&self) -> bool {
        false
    }

    /// How many live warps the policy holds back now (CIAO's stalled warps, CCWS's warps barred
    /// from loading, SWL's warps beyond the limit), for the report's active warps; asked after
    /// every cycle the SM runs, so it must be cheap.
    fn held_warps(&self) -> u32 {
        0
    }

    /// Whether the policy holds the warp in `slot` back entirely now, whatever it waits for (a
    /// CIAO-stalled warp, one beyond a static limit), for snapshots; counted in
    /// [`WarpScheduler::held_warps`].
    fn holds(&self, _slot: WarpSlot) -> bool {
        false
    }

    /// What the policy counted, for the run's report (zeros for a policy that counts nothing).
    fn counters(&self) -> PolicyCounters {
        PolicyCounters::default()
    }

    /// The shared-memory cache this policy sends isolated warps' loads to, if it uses one
    /// (CIAO-P, CIAO-C); asked once, when the SM is built.
    fn smc(&self) -> Option<crate::mem::l1::SmcSettings> {
        None
    }

    /// Where `slot`'s global loads go now.
    fn load_route(&self, _slot: WarpSlot) -> crate::mem::l1::LoadRoute {
        crate::mem::l1::LoadRoute::L1
    }

    /// The policy's per-slot scores, cutoff and load gate as they are at cycle `now` (at or
    /// after the last cycle it was called in), for snapshots; `None` for a policy that keeps no
    /// scores. Allocates: called for views, never on the hot path.
    fn scores(&self, _now: u64) -> Option<WarpScores> {
        None
    }

    /// CIAO's interference picture (who evicts whom, each warp's state) as the policy stands,
    /// for snapshots; `None` for a policy that keeps none. Allocates: for views only.
    fn interference(&self) -> Option<crate::stats::InterferenceView> {
        None
    }
}

/// Counts a policy keeps of its own mechanism, summed over the SMs into the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PolicyCounters {
    /// Misses on a line in the missing warp's own victim tags (CCWS).
    pub victim_tag_hits: u64,
}

/// One policy's calls for every warp instruction (its pick, gate and issue), kept out of
/// [`WarpPolicy`]'s dispatch.
mod outlined {
    use super::{InstrClass, Issued, ReadyWarps, WarpCx, WarpScheduler, WarpSlot};

    #[inline(never)]
    pub(super) fn pick<P: WarpScheduler>(p: &mut P, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        p.pick(cx, ready)
    }

    #[inline(never)]
    pub(super) fn may_issue<P: WarpScheduler>(p: &P, cx: &WarpCx<'_>, slot: WarpSlot, class: InstrClass) -> bool {
        p.may_issue(cx, slot, class)
    }

    #[inline(never)]
    pub(super) fn on_issue<P: WarpScheduler>(p: &mut P, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        p.on_issue(cx, slot, issued)
    }
}

macro_rules! warp_policies {
    ($( $variant:ident($ty:ty) = $id:literal, $label:literal, $description:literal; )*
     #[composite] { $( $cvariant:ident($cty:ty); )* }
     #[cfg(test)] { $( $tvariant:ident($tty:ty); )* }) => {
        /// Every warp scheduler, dispatched statically on the hot path.
        // One value per SM, built once and never moved in the cycle loop: a variant larger than
        // the others (CCWS's tags and scores) costs nothing, and boxing it would add a pointer
        // to follow on every call.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug)]
        pub enum WarpPolicy {
            $( #[doc = $description] $variant($ty), )*
            $( #[doc = "A policy with memory-issue gates (`base+gate`)."] $cvariant($cty), )*
            $( #[cfg(test)] #[doc = "Test-only."] $tvariant($tty), )*
        }

        /// The registry, in menu order.
        pub const WARP_POLICIES: &[PolicyInfo] = &[
            $( PolicyInfo { id: $id, label: $label, description: $description, params: <$ty as Tunable>::PARAMS }, )*
        ];

        impl WarpPolicy {
            /// A fresh instance of the policy a spec names (`id` or `id:name=value,...`; see
            /// [`PolicySpec`]), or why there is none.
            pub fn from_spec(spec: &str) -> Result<WarpPolicy, SpecError> {
                if let Some((base, gates)) = spec.split_once('+') {
                    return Ok(WarpPolicy::Gated(alloc::boxed::Box::new(gated::Gated::from_spec(base.trim(), gates)?)));
                }
                let (info, values) = PolicySpec::check(spec, WARP_POLICIES)?;
                match info.id {
                    $( $id => Ok(WarpPolicy::$variant(<$ty as Tunable>::tuned(&values))), )*
                    other => Err(SpecError(alloc::format!("`{other}` is listed but cannot be built"))),
                }
            }
        }

        impl WarpScheduler for WarpPolicy {
            fn attach(&mut self, shape: &SmShape) {
                match self {
                    $( WarpPolicy::$variant(p) => p.attach(shape), )*
                    $( WarpPolicy::$cvariant(p) => p.attach(shape), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.attach(shape), )*
                }
            }
            // Called for every warp instruction, as the gate and the issue below: each arm jumps to
            // its policy's own function, so the dispatch saves no registers for the largest
            // policy's inlined body.
            #[inline]
            fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
                match self {
                    $( WarpPolicy::$variant(p) => outlined::pick(p, cx, ready), )*
                    $( WarpPolicy::$cvariant(p) => outlined::pick(&mut **p, cx, ready), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => outlined::pick(p, cx, ready), )*
                }
            }
            #[inline]
            fn may_issue(&self, cx: &WarpCx<'_>, slot: WarpSlot, class: InstrClass) -> bool {
                match self {
                    $( WarpPolicy::$variant(p) => outlined::may_issue(p, cx, slot, class), )*
                    $( WarpPolicy::$cvariant(p) => outlined::may_issue(&**p, cx, slot, class), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => outlined::may_issue(p, cx, slot, class), )*
                }
            }
            fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
                match self {
                    $( WarpPolicy::$variant(p) => outlined::on_issue(p, cx, slot, issued), )*
                    $( WarpPolicy::$cvariant(p) => outlined::on_issue(&mut **p, cx, slot, issued), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => outlined::on_issue(p, cx, slot, issued), )*
                }
            }
            fn arbitrates_memory(&self) -> bool {
                match self {
                    $( WarpPolicy::$variant(p) => p.arbitrates_memory(), )*
                    $( WarpPolicy::$cvariant(p) => p.arbitrates_memory(), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.arbitrates_memory(), )*
                }
            }
            fn alone_profile_cycles(&self) -> Option<u32> {
                match self {
                    $( WarpPolicy::$variant(p) => p.alone_profile_cycles(), )*
                    $( WarpPolicy::$cvariant(p) => p.alone_profile_cycles(), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.alone_profile_cycles(), )*
                }
            }
            fn set_alone_rates(&mut self, rates: alloc::vec::Vec<(u32, f64)>) {
                match self {
                    $( WarpPolicy::$variant(p) => p.set_alone_rates(rates), )*
                    $( WarpPolicy::$cvariant(p) => p.set_alone_rates(rates), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.set_alone_rates(rates), )*
                }
            }
            fn arbitrate_memory(&mut self, cx: &WarpCx<'_>, contenders: &[MemoryContender]) {
                match self {
                    $( WarpPolicy::$variant(p) => p.arbitrate_memory(cx, contenders), )*
                    $( WarpPolicy::$cvariant(p) => p.arbitrate_memory(cx, contenders), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.arbitrate_memory(cx, contenders), )*
                }
            }
            fn hears_every_retry(&self) -> bool {
                match self {
                    $( WarpPolicy::$variant(p) => p.hears_every_retry(), )*
                    $( WarpPolicy::$cvariant(p) => p.hears_every_retry(), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.hears_every_retry(), )*
                }
            }
            #[inline]
            fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
                match self {
                    $( WarpPolicy::$variant(p) => p.on_event(cx, event), )*
                    $( WarpPolicy::$cvariant(p) => p.on_event(cx, event), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.on_event(cx, event), )*
                }
            }
            #[inline]
            fn hears_events(&self) -> bool {
                match self {
                    $( WarpPolicy::$variant(p) => p.hears_events(), )*
                    $( WarpPolicy::$cvariant(p) => p.hears_events(), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.hears_events(), )*
                }
            }
            fn holds(&self, slot: WarpSlot) -> bool {
                match self {
                    $( WarpPolicy::$variant(p) => p.holds(slot), )*
                    $( WarpPolicy::$cvariant(p) => p.holds(slot), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.holds(slot), )*
                }
            }
            fn held_warps(&self) -> u32 {
                match self {
                    $( WarpPolicy::$variant(p) => p.held_warps(), )*
                    $( WarpPolicy::$cvariant(p) => p.held_warps(), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.held_warps(), )*
                }
            }

            fn counters(&self) -> PolicyCounters {
                match self {
                    $( WarpPolicy::$variant(p) => p.counters(), )*
                    $( WarpPolicy::$cvariant(p) => p.counters(), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.counters(), )*
                }
            }
            fn interference(&self) -> Option<crate::stats::InterferenceView> {
                match self {
                    $( WarpPolicy::$variant(p) => p.interference(), )*
                    $( WarpPolicy::$cvariant(p) => p.interference(), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.interference(), )*
                }
            }
            fn scores(&self, now: u64) -> Option<WarpScores> {
                match self {
                    $( WarpPolicy::$variant(p) => p.scores(now), )*
                    $( WarpPolicy::$cvariant(p) => p.scores(now), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.scores(now), )*
                }
            }
            fn smc(&self) -> Option<crate::mem::l1::SmcSettings> {
                match self {
                    $( WarpPolicy::$variant(p) => p.smc(), )*
                    $( WarpPolicy::$cvariant(p) => p.smc(), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.smc(), )*
                }
            }
            #[inline]
            fn load_route(&self, slot: WarpSlot) -> crate::mem::l1::LoadRoute {
                match self {
                    $( WarpPolicy::$variant(p) => p.load_route(slot), )*
                    $( WarpPolicy::$cvariant(p) => p.load_route(slot), )*
                    $( #[cfg(test)] WarpPolicy::$tvariant(p) => p.load_route(slot), )*
                }
            }
        }
    };
}

warp_policies! {
    Lrr(lrr::Lrr) = "lrr", "Loose round-robin",
        "Takes warps in turn, starting after the one that issued last; a warp that cannot issue passes its turn on.";
    Gto(gto::Gto) = "gto", "Greedy-then-oldest",
        "Keeps issuing from the same warp until it stalls, then switches to the oldest ready warp.";
    Swl(swl::Swl) = "swl", "Static warp limit",
        "Greedy-then-oldest among the SM's oldest warps only, up to a fixed number; the rest wait (CCWS paper, SWL).";
    TwoLevelGto(two_level_gto::TwoLevelGto) = "2lvl-gto", "Two-level GTO",
        "Fetch groups of consecutive warps: greedy-then-oldest within the current group until it stalls, then the oldest group (CCWS paper, 2LVL-GTO).";
    TwoLevelLrr(two_level_lrr::TwoLevelLrr) = "2lvl-lrr", "Two-level round-robin",
        "Fetch groups of consecutive warps: turns within the current group until it stalls, then the next group in turn (Narasiman et al.; CCWS paper, 2LVL-LRR).";
    Ccws(ccws::Ccws) = "ccws", "Cache-conscious (CCWS)",
        "Greedy-then-oldest, but warps that lose cached lines to other warps raise their scores, and the warps pushed past a cutoff may not issue loads until the scores decay (Rogers et al., CCWS).";
    StatPcal(statpcal::StatPcal) = "statpcal", "Static cache allocation (statPCAL)",
        "Greedy-then-oldest; only the SM's oldest warps, up to a fixed number, allocate in the L1, and the others run too with loads that use the L1's lines but go to L2 without allocating (Li et al., statPCAL, as the CIAO paper compares).";
    CiaoP(ciao::redirect::CiaoP) = "ciao-p", "Interference-aware redirection (CIAO-P)",
        "Greedy-then-oldest, but when a warp keeps losing its cached lines, the warp that evicts them most has its loads sent to a cache in unused shared memory until the victim's loss rate falls or it finishes (Zhang et al., CIAO-P).";
    CiaoT(ciao::throttle::CiaoT) = "ciao-t", "Interference-aware throttling (CIAO-T)",
        "Greedy-then-oldest, but when a warp keeps losing its cached lines, the warp that evicts them most is stalled until the victim's loss rate falls or it finishes (Zhang et al., CIAO-T).";
    CiaoC(ciao::combined::CiaoC) = "ciao-c", "Interference-aware redirection and throttling (CIAO-C)",
        "CIAO-P and CIAO-T together: the worst interferer is first sent to the shared-memory cache, and stalled if it still interferes from there (Zhang et al., CIAO-C).";
    // A registry policy with memory-issue gates: built from `base+gate` specs, not listed.
    #[composite] {
        Gated(alloc::boxed::Box<gated::Gated>);
    }
    // Variants that exist only in the crate's unit tests (not in the registry).
    #[cfg(test)] {
        Probe(probe::Probe);
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use super::*;
    use alloc::vec::Vec;

    /// Live warps in slots `0..n`, with age equal to the slot unless given.
    pub fn warps(ages: &[u64]) -> Vec<WarpInfo> {
        ages.iter()
            .map(|&age| WarpInfo { live: true, age, tb_slot: 0, kernel: 0, stream: 0, at_barrier: false })
            .collect()
    }

    /// Scheduler 0 of SM 0 at cycle 0.
    pub fn cx(warps: &[WarpInfo]) -> WarpCx<'_> {
        WarpCx { now: 0, sm: 0, scheduler: 0, warps }
    }

    /// `policy` attached to an SM of one scheduler owning `slots` warp slots.
    pub fn attached<P: WarpScheduler>(mut policy: P, slots: usize) -> P {
        policy.attach(&SmShape { schedulers: 1, warp_slots: slots as u16, tb_slots: 8 });
        policy
    }

    /// What an ALU instruction of kernel 0 tells `on_issue`.
    pub const ALU: Issued = Issued { class: InstrClass::Compute, kernel: 0, requests: 0, lanes: 32 };

    /// One scheduler owning every slot, with `slots` as members, oldest first.
    pub fn members(slots: &[WarpSlot], sm_slots: usize) -> Members {
        let mut m = Members::new(sm_slots);
        for &s in slots {
            m.push(s);
        }
        m
    }

    /// The positions in `m` of the `ready` slots.
    fn ready_set(m: &Members, ready: &[WarpSlot]) -> WarpSet {
        let mut set = WarpSet::EMPTY;
        for &s in ready {
            set.insert(m.position(s).expect("a member"));
        }
        set
    }

    /// What `policy` picks at `cx` when the `ready` slots of `m` can issue.
    pub fn pick(policy: &mut impl WarpScheduler, cx: &WarpCx<'_>, m: &Members, ready: &[WarpSlot]) -> Option<WarpSlot> {
        policy.pick(cx, &ReadyWarps::new(&ready_set(m, ready), m))
    }

    /// The picks a policy makes from `ready` when every pick issues, in order.
    pub fn picks(policy: &mut impl WarpScheduler, w: &[WarpInfo], m: &Members, ready: &[WarpSlot]) -> Vec<WarpSlot> {
        let mut set = ready_set(m, ready);
        let mut out = Vec::new();
        while let Some(s) = policy.pick(&cx(w), &ReadyWarps::new(&set, m)) {
            set.remove(m.position(s).expect("a member"));
            policy.on_issue(&cx(w), s, &ALU);
            out.push(s);
            if set.is_empty() {
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_builds_every_policy_and_ids_are_unique() {
        for (i, info) in WARP_POLICIES.iter().enumerate() {
            assert!(WarpPolicy::from_spec(info.id).is_ok(), "{}", info.id);
            assert!(WARP_POLICIES[..i].iter().all(|other| other.id != info.id), "duplicate id {}", info.id);
        }
        assert!(WarpPolicy::from_spec("nope").is_err());
    }

    /// A policy that says it hears no events (so the SM builds none for it) must be one the
    /// events would not change: fed a stream of them, its state stays as it was.
    #[test]
    fn a_policy_deaf_to_events_is_unchanged_by_them() {
        use crate::mem::l1::FailReason;
        let shape = SmShape { schedulers: 2, warp_slots: 8, tb_slots: 2 };
        let warps: alloc::vec::Vec<WarpInfo> =
            (0..8).map(|w| WarpInfo { live: true, age: w, ..WarpInfo::default() }).collect();
        let cx = WarpCx { now: 100, sm: 0, scheduler: 0, warps: &warps };
        let events = [
            SmEvent::WarpAdmit { slot: 3, kernel: 0 },
            SmEvent::Miss { slot: 3, kernel: 0, line: 7 },
            SmEvent::Eviction { line: 5, owner: 1, by: 3 },
            SmEvent::Hit { slot: 1, kernel: 0, line: 7, owner: 3 },
            SmEvent::ReservationFail { slot: 2, kernel: 0, line: 9, cause: FailReason::MshrEntry, attempts: 4 },
            SmEvent::LoadComplete { slot: 3, at: 120 },
            SmEvent::WarpExit { slot: 3, kernel: 0 },
        ];
        let mut deaf = 0;
        for info in WARP_POLICIES {
            let mut policy = WarpPolicy::from_spec(info.id).unwrap();
            policy.attach(&shape);
            if policy.hears_events() {
                continue;
            }
            deaf += 1;
            let before = alloc::format!("{policy:?}");
            for event in &events {
                policy.on_event(&cx, event);
            }
            assert_eq!(alloc::format!("{policy:?}"), before, "{} says it hears no events but they change it", info.id);
        }
        assert!(deaf >= 2, "gto and lrr at least hear none");
    }
}
