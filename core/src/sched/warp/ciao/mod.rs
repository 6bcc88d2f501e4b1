//! CIAO (Zhang, Gao, Kim and Jung, IPDPS 2018), as `ciao.md` specifies it: greedy-then-oldest,
//! plus a detector of which warps evict whose lines ([`interference`]) and a response to the
//! worst of them. Where CCWS holds back the warps that lose least locality, CIAO acts on the
//! warp that *causes* the loss: when a warp's interference score (IRS, Eq. 1) passes the high
//! cutoff, the warp its interference list names is isolated (its global loads go to a cache
//! carved from unused shared memory) or stalled (it issues nothing), step by step, and put back
//! once the warp it was acting for has calmed down (IRS below the low cutoff) or finished.
//!
//! The variants differ only in that response (Algorithm 1's high part), each in its own file:
//! [`redirect`] (CIAO-P: isolate), [`throttle`] (CIAO-T: stall) and [`combined`] (CIAO-C:
//! isolate first, stall a warp still interfering once isolated). The rest is shared here.
//!
//! Per warp slot the state is Algorithm 1's V and I bits — active, isolated, stalled — and the
//! pair list: the warp whose interference caused the isolation and the one that caused the
//! stall. Decisions are taken at epoch boundaries counted in warp instructions issued by the SM
//! since its kernel started (every 100 the low part: release; every 5000 the high part: act),
//! at the end of the cycle that reaches them, the low part first. Which warps each part
//! examines, and every other reading the notes list as ambiguous (§9), is a parameter with the
//! notes' default; except #15, redirecting local-memory accesses too: the engine has no local
//! memory (a thread's arrays live in registers), so only global loads exist to redirect.
//!
//! Guards: the last active warp of the SM is never stalled, and when no active warp can go on
//! (all wait at barriers, or none is left) the most recently stalled warp is let go again, since
//! a stalled warp cannot reach its block's barrier and with nothing issuing no epoch would end.
//!
//! Timing: the engine calls a policy only in cycles where something happens, so a boundary
//! reached in cycle `t` is evaluated by the first call of a later cycle, before anything of that
//! cycle is heard: the same as evaluating it at the end of `t`.

pub mod combined;
pub mod interference;
pub mod redirect;
pub mod throttle;
#[cfg(test)]
mod toy;

pub use interference::{irs_above, IlReplace, Interference, IrsFormula, ListEntry};

use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Debug;
use core::marker::PhantomData;

use super::{InstrClass, Issued, PolicyCounters, ReadyWarps, SmEvent, SmShape, WarpCx, WarpScheduler, WarpSlot};
use crate::mem::l1::{LoadRoute, SmcIndex, SmcSettings};
use crate::sched::{ParamInfo, ParamValues, Tunable};
use crate::stats::snapshot::NONE;
use crate::stats::{InterferenceView, WarpRole};

/// What a variant does to warp `j`, the top interferer of a warp whose IRS passed the high
/// cutoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Send `j`'s global loads to the shared-memory cache.
    Isolate,
    /// Let `j` issue nothing.
    Stall,
    /// Leave `j` as it is.
    Nothing,
}

/// A CIAO variant: Algorithm 1's high part.
pub trait Response: Clone + Debug + Default {
    /// Whether it ever isolates (and so needs the shared-memory cache).
    const ISOLATES: bool;
    /// What it does instead of isolating when the SM has no shared memory to spare
    /// (`ciao.md` §4.2: CIAO-P nothing, CIAO-C a stall).
    const WITHOUT_SMC: Step;
    /// The step for a top interferer that is `isolated` (and maybe already stalled).
    fn step(isolated: bool) -> Step;
}

/// A warp that caused an isolation or a stall: its slot and, to tell it from a later warp in
/// the same slot, its dynamic id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trigger {
    /// Its warp slot.
    pub slot: WarpSlot,
    /// Its dynamic warp id.
    pub age: u64,
}

/// One warp slot's CIAO state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CiaoWarp {
    /// The dynamic id of the warp in the slot, `None` without one.
    pub live: Option<u64>,
    /// Its global loads go to the shared-memory cache (I = 1).
    pub isolated: bool,
    /// It issues nothing (V = 0).
    pub stalled: bool,
    /// The pair list: who caused the isolation …
    pub isolated_for: Option<Trigger>,
    /// … and who caused the stall.
    pub stalled_for: Option<Trigger>,
    /// When it was stalled (a running count: the most recent stall has the largest).
    stall_order: u64,
    /// When it was isolated or stalled last (a running count).
    acted_order: u64,
}

/// Which warps the high part examines (§9 #5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExamHigh {
    /// The next active warp after the last one examined, in slot order.
    RoundRobin,
    /// The warp that issued last (the front of GTO's list).
    GtoFront,
    /// Every active warp.
    All,
}

/// Which warps the low part examines (§9 #5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExamLow {
    /// Every isolated or stalled warp.
    All,
    /// The most recently isolated or stalled ones, releasing at most one.
    LifoOne,
    /// The warp that issued last.
    GtoFront,
}

/// What to do when no active warp can go on (§9 #20).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DeadlockGuard {
    /// Let the most recently stalled warp go when no active warp can go on.
    Minimal,
    /// Also let go at once every stalled warp whose block has a warp waiting at a barrier.
    EagerBarrierRelease,
    /// Nothing (a run can then hang until its cycle budget ends).
    Off,
}

/// The parameters, read once.
#[derive(Clone, Copy, Debug)]
struct Settings {
    high_cutoff: u64,
    low_cutoff: u64,
    high_epoch: u64,
    low_epoch: u64,
    formula: IrsFormula,
    window_is_high_epoch: bool,
    count_threads: bool,
    active_excludes_stalled: bool,
    exam_high: ExamHigh,
    exam_low: ExamLow,
    continue_skips_high: bool,
    stall_requires_victim_isolated: bool,
    stall_loads_only: bool,
    per_dynamic_warp: bool,
    guard: DeadlockGuard,
    migration_is_eviction: bool,
    smc: SmcSettings,
}

/// CIAO on one SM, with variant `R`'s response.
#[derive(Clone, Debug)]
pub struct Ciao<R> {
    settings: Settings,
    detector: Interference,
    warps: Vec<CiaoWarp>,
    /// Each scheduler's greedy warp.
    greedy: Vec<Option<WarpSlot>>,
    /// The SM's last issuing warp (GTO's front).
    last_issued: Option<WarpSlot>,
    /// Warp instructions issued by the SM since its kernel started.
    instructions: u64,
    /// Those in the current counting window (§9 #3).
    window_instructions: u64,
    next_low: u64,
    next_high: u64,
    /// The cycle in which a boundary was reached and not yet evaluated.
    pending: Option<u64>,
    /// The round-robin examiner's next slot.
    cursor: usize,
    order: u64,
    isolations: u64,
    stalls: u64,
    /// Slots holding a warp, and of those the stalled ones (kept with `warps`, so that Eq. 1's
    /// N and the guard's test need no scan of the slots).
    live_warps: u64,
    stalled_warps: u64,
    /// The shared-memory cache's lines for the running kernel (`None`: not told, as outside
    /// an SM; isolation is then possible).
    smc_lines: Option<u32>,
    _response: PhantomData<R>,
}

impl<R: Response> Ciao<R> {
    /// CIAO with every parameter given (see [`Tunable::PARAMS`]).
    pub fn new(values: &ParamValues) -> Self {
        let on = |name: &str| values.get(name) != 0;
        let settings = Settings {
            high_cutoff: values.get("high_cutoff") as u64,
            low_cutoff: values.get("low_cutoff") as u64,
            high_epoch: values.get("high_epoch").max(1) as u64,
            low_epoch: values.get("low_epoch").max(1) as u64,
            formula: if on("irs_alg1") { IrsFormula::Alg1 } else { IrsFormula::Eq1 },
            window_is_high_epoch: on("window_high_epoch"),
            count_threads: on("count_thread_instructions"),
            active_excludes_stalled: on("active_excludes_stalled"),
            exam_high: match values.get("exam_high") {
                1 => ExamHigh::GtoFront,
                2 => ExamHigh::All,
                _ => ExamHigh::RoundRobin,
            },
            exam_low: match values.get("exam_low") {
                1 => ExamLow::LifoOne,
                2 => ExamLow::GtoFront,
                _ => ExamLow::All,
            },
            continue_skips_high: on("continue_skips_high"),
            stall_requires_victim_isolated: on("stall_requires_victim_isolated"),
            stall_loads_only: on("stall_loads_only"),
            per_dynamic_warp: on("per_dynamic_warp"),
            guard: match values.get("deadlock_guard") {
                1 => DeadlockGuard::EagerBarrierRelease,
                2 => DeadlockGuard::Off,
                _ => DeadlockGuard::Minimal,
            },
            migration_is_eviction: on("migration_is_eviction"),
            smc: SmcSettings {
                power_of_two: !on("smc_all_lines"),
                index: if on("smc_xor_fold") { SmcIndex::XorFold } else { SmcIndex::Linear },
                extra_latency: values.get("smc_extra_latency"),
                bypass_busy_slot: on("smc_bypass_busy_slot"),
                dynamic: on("smc_dynamic"),
                exclusive_copies: on("exclusive_copies"),
            },
        };
        let replace = if on("il_replace_on_reaching_zero") { IlReplace::OnReachingZero } else { IlReplace::AtZero };
        Ciao {
            detector: Interference::new(
                values.get("vta_entries"),
                replace,
                on("il_record_self"),
                on("vta_drop_on_hit"),
            ),
            next_low: settings.low_epoch,
            next_high: settings.high_epoch,
            settings,
            warps: Vec::new(),
            greedy: Vec::new(),
            last_issued: None,
            instructions: 0,
            window_instructions: 0,
            pending: None,
            cursor: 0,
            order: 0,
            isolations: 0,
            stalls: 0,
            live_warps: 0,
            stalled_warps: 0,
            smc_lines: None,
            _response: PhantomData,
        }
    }

    /// Slot `slot`'s state.
    pub fn warp(&self, slot: usize) -> CiaoWarp {
        self.warps[slot]
    }

    /// The interference detector.
    pub fn detector(&self) -> &Interference {
        &self.detector
    }

    /// Warp instructions the SM issued since its kernel started.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// Isolations and stalls ordered since the SM started.
    pub fn actions(&self) -> (u64, u64) {
        (self.isolations, self.stalls)
    }

    /// Whether the warp that `trigger` names is still on the SM.
    fn live(&self, trigger: Trigger) -> bool {
        match self.warps.get(trigger.slot as usize).and_then(|w| w.live) {
            Some(age) => !self.settings.per_dynamic_warp || age == trigger.age,
            None => false,
        }
    }

    /// Eq. 1's N: the warps on the SM (or only the unstalled ones).
    fn active_warps(&self) -> u64 {
        debug_assert_eq!(self.live_warps, self.warps.iter().filter(|w| w.live.is_some()).count() as u64);
        debug_assert_eq!(self.stalled_warps, self.warps.iter().filter(|w| w.stalled).count() as u64);
        if self.settings.active_excludes_stalled {
            self.live_warps - self.stalled_warps
        } else {
            self.live_warps
        }
    }

    /// Slot `slot` holds `state` from now on (a warp arrived or left).
    fn replace(&mut self, slot: usize, state: CiaoWarp) {
        let old = self.warps[slot];
        self.live_warps = self.live_warps - old.live.is_some() as u64 + state.live.is_some() as u64;
        self.stalled_warps = self.stalled_warps - old.stalled as u64 + state.stalled as u64;
        self.warps[slot] = state;
    }

    /// Lets a stalled `slot` issue again.
    fn unstall(&mut self, slot: usize) {
        let w = &mut self.warps[slot];
        if w.stalled {
            w.stalled = false;
            w.stalled_for = None;
            self.stalled_warps -= 1;
        }
    }

    /// Whether `slot`'s IRS is above `cutoff` ten-thousandths.
    fn irs_above(&self, slot: usize, cutoff: u64) -> bool {
        let hits = self.detector.hits(slot);
        irs_above(self.settings.formula, hits, self.window_instructions, self.active_warps(), cutoff)
    }

    /// Whether the trigger keeps its warp isolated or stalled: still there and still above
    /// the low cutoff.
    fn holds(&self, trigger: Option<Trigger>) -> bool {
        trigger.is_some_and(|k| self.live(k) && self.irs_above(k.slot as usize, self.settings.low_cutoff))
    }

    /// Evaluates the boundaries reached in an earlier cycle than `now`.
    fn settle(&mut self, now: u64) {
        match self.pending {
            Some(at) if at < now => self.pending = None,
            _ => return,
        }
        while self.instructions >= self.next_low {
            self.low_part();
            self.next_low += self.settings.low_epoch;
        }
        while self.instructions >= self.next_high {
            self.high_part();
            self.next_high += self.settings.high_epoch;
            if self.settings.window_is_high_epoch {
                self.detector.clear_hits();
                self.window_instructions = 0;
            }
        }
    }

    /// Algorithm 1's low part: release the warps whose trigger has calmed down or gone.
    fn low_part(&mut self) {
        match self.settings.exam_low {
            ExamLow::All => {
                for slot in 0..self.warps.len() {
                    self.test_release(slot);
                }
            }
            ExamLow::LifoOne => {
                // The most recently acted-on first; stop at the first release.
                let mut tried = u64::MAX;
                loop {
                    let next = (0..self.warps.len())
                        .filter(|&s| {
                            self.warps[s].acted_order < tried && (self.warps[s].stalled || self.warps[s].isolated)
                        })
                        .max_by_key(|&s| self.warps[s].acted_order);
                    let Some(slot) = next else { break };
                    if self.test_release(slot) {
                        break;
                    }
                    tried = self.warps[slot].acted_order;
                }
            }
            ExamLow::GtoFront => {
                if let Some(slot) = self.last_issued {
                    self.test_release(slot as usize);
                }
            }
        }
    }

    /// Releases `slot` one step if its trigger no longer holds it; whether it did.
    fn test_release(&mut self, slot: usize) -> bool {
        let w = self.warps[slot];
        if w.stalled {
            if !self.holds(w.stalled_for) {
                self.unstall(slot);
                return true;
            }
        } else if w.isolated && !self.holds(w.isolated_for) {
            self.warps[slot].isolated = false;
            self.warps[slot].isolated_for = None;
            return true;
        }
        false
    }

    /// Algorithm 1's high part for the warps the examiner picks.
    fn high_part(&mut self) {
        let examinable =
            |w: &CiaoWarp, skip_isolated: bool| w.live.is_some() && !w.stalled && !(skip_isolated && w.isolated);
        let skip = self.settings.continue_skips_high;
        match self.settings.exam_high {
            ExamHigh::RoundRobin => {
                let n = self.warps.len();
                if let Some(slot) = (0..n).map(|k| (self.cursor + k) % n).find(|&s| examinable(&self.warps[s], skip)) {
                    self.cursor = (slot + 1) % n;
                    self.examine(slot);
                }
            }
            ExamHigh::GtoFront => {
                if let Some(slot) = self.last_issued.map(usize::from) {
                    if examinable(&self.warps[slot], skip) {
                        self.examine(slot);
                    }
                }
            }
            ExamHigh::All => {
                for slot in 0..self.warps.len() {
                    if examinable(&self.warps[slot], skip) {
                        self.examine(slot);
                    }
                }
            }
        }
    }

    /// Warp `i`: if its IRS passes the high cutoff, the variant's step on its top interferer.
    fn examine(&mut self, i: usize) {
        if !self.irs_above(i, self.settings.high_cutoff) {
            return;
        }
        let j = self.detector.entry(i).wid as usize;
        let (Some(i_age), Some(_)) = (self.warps[i].live, self.warps.get(j).and_then(|w| w.live)) else { return };
        if j == i {
            return;
        }
        let trigger = Some(Trigger { slot: i as WarpSlot, age: i_age });
        self.order += 1;
        let mut step = R::step(self.warps[j].isolated);
        if step == Step::Isolate && self.smc_lines == Some(0) {
            step = R::WITHOUT_SMC;
        }
        match step {
            Step::Isolate => {
                let w = &mut self.warps[j];
                w.isolated = true;
                w.isolated_for = trigger;
                w.acted_order = self.order;
                self.isolations += 1;
            }
            Step::Stall => {
                if self.settings.stall_requires_victim_isolated && !self.warps[i].isolated {
                    return;
                }
                // `j` is live: the active warps besides it.
                let others_active = self.live_warps - self.stalled_warps - !self.warps[j].stalled as u64;
                if others_active == 0 {
                    return; // never stall the last active warp
                }
                let w = &mut self.warps[j];
                self.stalled_warps += !w.stalled as u64;
                w.stalled = true;
                w.stalled_for = trigger;
                w.stall_order = self.order;
                w.acted_order = self.order;
                self.stalls += 1;
            }
            Step::Nothing => {}
        }
    }

    /// The deadlock guard, before a pick: lets stalled warps go when no active warp can go on.
    fn guard(&mut self, cx: &WarpCx<'_>) {
        if self.settings.guard == DeadlockGuard::Off || self.stalled_warps == 0 {
            return;
        }
        let at_barrier = |slot: usize| cx.warps.get(slot).is_some_and(|w| w.at_barrier);
        if self.settings.guard == DeadlockGuard::EagerBarrierRelease {
            for slot in 0..self.warps.len() {
                let block = cx.warps.get(slot).map(|w| w.tb_slot);
                let block_waits = || cx.warps.iter().any(|w| w.live && w.at_barrier && Some(w.tb_slot) == block);
                if self.warps[slot].stalled && block_waits() {
                    self.unstall(slot);
                }
            }
        }
        let can_go_on =
            (0..self.warps.len()).any(|s| self.warps[s].live.is_some() && !self.warps[s].stalled && !at_barrier(s));
        if !can_go_on {
            let latest =
                (0..self.warps.len()).filter(|&s| self.warps[s].stalled).max_by_key(|&s| self.warps[s].stall_order);
            if let Some(slot) = latest {
                self.unstall(slot);
            }
        }
    }

    fn is_stalled(&self, slot: WarpSlot) -> bool {
        self.warps.get(slot as usize).is_some_and(|w| w.stalled)
    }
}

impl<R: Response> Default for Ciao<R> {
    fn default() -> Self {
        Ciao::new(&ParamValues::defaults(Self::PARAMS))
    }
}

/// A 0/1 switch parameter.
const fn switch(name: &'static str, label: &'static str, description: &'static str, default: u32) -> ParamInfo {
    ParamInfo { name, label, unit: "", description, min: 0, max: 1, default }
}

impl<R: Response> Tunable for Ciao<R> {
    /// The paper's values are the defaults (cutoffs 1 % and 0.5 %, epochs of 5000 and 100
    /// instructions, 8 victim tags a warp); the switches choose between readings the notes
    /// (`ciao.md` §9) found ambiguous, each defaulting to the notes' recommendation.
    const PARAMS: &'static [ParamInfo] = &[
        ParamInfo {
            name: "high_cutoff",
            label: "High cutoff",
            unit: "1/10000",
            description:
                "A warp whose interference score (VTA hits per instruction per active warp, Eq. 1) passes this \
                          at a high-epoch boundary gets its top interferer isolated or stalled (the paper: 1 %).",
            min: 1,
            max: 10_000,
            default: 100,
        },
        ParamInfo {
            name: "low_cutoff",
            label: "Low cutoff",
            unit: "1/10000",
            description: "An isolated or stalled warp is let go when the warp it was held for falls to this score or \
                          below, or finishes (the paper: 0.5 %).",
            min: 0,
            max: 10_000,
            default: 50,
        },
        ParamInfo {
            name: "high_epoch",
            label: "High epoch",
            unit: "instructions",
            description: "Warp instructions the SM issues between two looks for a warp to isolate or stall.",
            min: 1,
            max: 1_000_000,
            default: 5000,
        },
        ParamInfo {
            name: "low_epoch",
            label: "Low epoch",
            unit: "instructions",
            description: "Warp instructions the SM issues between two looks for a warp to let go.",
            min: 1,
            max: 1_000_000,
            default: 100,
        },
        ParamInfo {
            name: "vta_entries",
            label: "Victim tags per warp",
            unit: "tags",
            description: "Tags of evicted lines each warp keeps, with the warp that evicted each (fully associative, \
                          FIFO; the paper: 8, half of CCWS's).",
            min: 1,
            max: 256,
            default: 8,
        },
        switch(
            "irs_alg1",
            "Algorithm 1's score",
            "0 (Eq. 1): IRS = VTA hits × active warps / instructions; 1: Algorithm 1's hits / instructions / active \
             warps, under which the paper's 1 % is practically out of reach.",
            0,
        ),
        switch(
            "window_high_epoch",
            "Count per high epoch",
            "0 (the paper's §V-F): the hit and instruction counts run for the whole kernel; 1: they restart at each \
             high-epoch boundary (§IV-A's \"a given epoch\").",
            0,
        ),
        switch(
            "count_thread_instructions",
            "Count thread instructions",
            "0: the instruction counts (Eq. 1 and the epochs) are warp instructions issued by the SM; 1: thread \
             instructions, each warp instruction counting its active lanes, as GPGPU-Sim counts, which makes the \
             scores up to 32 times smaller and the epochs up to 32 times shorter (notes §9 #2).",
            0,
        ),
        switch(
            "active_excludes_stalled",
            "Stalled warps not active",
            "0: Eq. 1's active warps are all the warps on the SM; 1: only those not stalled.",
            0,
        ),
        ParamInfo {
            name: "exam_high",
            label: "High part examines",
            unit: "",
            description:
                "0: the next active warp in slot order at each boundary (round robin); 1: the warp that issued \
                          last (Algorithm 1's front of the list, taken literally); 2: every active warp.",
            min: 0,
            max: 2,
            default: 0,
        },
        ParamInfo {
            name: "exam_low",
            label: "Low part examines",
            unit: "",
            description: "0: every isolated or stalled warp; 1: the most recently acted on first, letting go at most \
                          one (the paper's \"reverse order\"); 2: the warp that issued last.",
            min: 0,
            max: 2,
            default: 0,
        },
        switch(
            "continue_skips_high",
            "Isolated warps not examined",
            "1: Algorithm 1's `continue` also skips the high part for isolated warps, so an isolated warp never \
             triggers a stall (against the paper's own example); 0: every active warp can trigger.",
            0,
        ),
        switch(
            "il_replace_on_reaching_zero",
            "List entry replaced on reaching 0",
            "0: another evictor replaces the listed one when the counter is already 0; 1: in the step that brings it \
             to 0.",
            0,
        ),
        switch(
            "il_record_self",
            "Self-evictions listed",
            "1: a warp that evicted its own line can become its own top interferer (and is then left alone); 0: \
             self-evictions count as VTA hits but leave the list.",
            1,
        ),
        switch(
            "stall_requires_victim_isolated",
            "Stall only for isolated victims",
            "1: a warp is stalled only when the warp it interferes with is itself isolated (interference inside the \
             shared-memory cache, §III-C); 0: as Algorithm 1.",
            0,
        ),
        switch(
            "stall_loads_only",
            "Stall holds loads only",
            "0: a stalled warp issues nothing; 1: only its global loads wait.",
            0,
        ),
        switch(
            "vta_drop_on_hit",
            "VTA hit drops the tag",
            "0: a tag stays after a VTA hit (as CCWS's artifact); 1: it is removed.",
            0,
        ),
        switch(
            "per_dynamic_warp",
            "Counts per warp, not slot",
            "0 (the paper): a slot's VTA-hit count carries over to the next warp in it, and a trigger is alive while \
             its slot is occupied; 1: counts and triggers belong to one warp.",
            0,
        ),
        switch(
            "smc_all_lines",
            "Shared-memory cache: every line",
            "0 (the paper's row mask): the cache takes a power of two of lines; 1: every line that fits in the unused \
             shared memory.",
            0,
        ),
        switch(
            "smc_xor_fold",
            "Shared-memory cache: folded index",
            "0 (the paper's translation unit): a line goes to slot line mod lines; 1: higher line bits are folded in \
             by XOR first, which spreads power-of-two strides.",
            0,
        ),
        ParamInfo {
            name: "smc_extra_latency",
            label: "Shared-memory cache extra latency",
            unit: "cycles",
            description: "Cycles a hit there takes beyond an L1 hit (the L1's tags are checked first).",
            min: 0,
            max: 100,
            default: 1,
        },
        switch(
            "smc_bypass_busy_slot",
            "Shared-memory cache: busy slot bypassed",
            "0: a load whose slot is reserved for another line's fetch waits for it, as a set with every way \
             reserved does; 1: it goes to L2 without a slot. The paper does not say.",
            0,
        ),
        switch(
            "smc_dynamic",
            "Shared-memory cache: resized as blocks come and go",
            "0 (the notes' default): sized once per kernel run, for the shared memory its most resident blocks leave \
             unused; 1: resized to what is unused now whenever a block arrives or leaves, starting empty each time.",
            0,
        ),
        switch(
            "exclusive_copies",
            "One copy of a line, both ways",
            "0 (the notes' default): only an isolated warp's load moves a line, out of the L1; other warps' loads \
             never look in the shared-memory cache, and a line may be in both, kept coherent by stores dropping \
             both; 1: a load through the L1 that misses there moves its line back out of the shared-memory cache.",
            0,
        ),
        switch(
            "migration_is_eviction",
            "Migration counts as eviction",
            "1: a line an isolated warp moves out of the L1 (or, with one copy both ways, another warp moves back) \
             goes into the victim tags of the warp that had brought it in, with the mover as its evictor; 0: a \
             migration leaves no trace.",
            1,
        ),
        ParamInfo {
            name: "deadlock_guard",
            label: "Deadlock guard",
            unit: "",
            description:
                "0: when no active warp can go on, the most recently stalled warp is let go; 1: also let go at \
                          once any stalled warp whose block waits at a barrier; 2: none (a run may hang until its \
                          cycle budget).",
            min: 0,
            max: 2,
            default: 0,
        },
    ];

    fn tuned(values: &ParamValues) -> Self {
        Ciao::new(values)
    }
}

impl<R: Response> WarpScheduler for Ciao<R> {
    fn attach(&mut self, shape: &SmShape) {
        let slots = shape.warp_slots as usize;
        self.detector.attach(slots);
        self.warps = vec![CiaoWarp::default(); slots];
        (self.live_warps, self.stalled_warps) = (0, 0);
        self.greedy = vec![None; shape.schedulers as usize];
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        self.settle(cx.now);
        self.guard(cx);
        let stalled = |slot: WarpSlot| !self.settings.stall_loads_only && self.is_stalled(slot);
        match self.greedy[cx.scheduler as usize] {
            Some(g) if ready.contains(g) && !stalled(g) => Some(g),
            // `None` with warps ready: all of them are stalled (counted as throttled).
            _ => ready.iter().find(|&w| !stalled(w)),
        }
    }

    fn may_issue(&self, _cx: &WarpCx<'_>, slot: WarpSlot, class: InstrClass) -> bool {
        !(self.settings.stall_loads_only && class == InstrClass::GlobalLoad && self.is_stalled(slot))
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        self.settle(cx.now);
        self.greedy[cx.scheduler as usize] = Some(slot);
        self.last_issued = Some(slot);
        let counted = if self.settings.count_threads { issued.lanes as u64 } else { 1 };
        self.instructions += counted;
        self.window_instructions += counted;
        if self.instructions >= self.next_low || self.instructions >= self.next_high {
            self.pending = Some(cx.now);
        }
    }

    fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        // Boundaries reached earlier are evaluated before an event that changes what they see.
        // Events the policy ignores leave them pending: the LSU reports foreseen reservation
        // failures late when the engine skips idle cycles, and when a decision is taken must
        // not depend on that (the report's active warps count stalled warps from then on).
        let acts = matches!(
            event,
            SmEvent::Eviction { .. }
                | SmEvent::Miss { .. }
                | SmEvent::Store { .. }
                | SmEvent::Migration { .. }
                | SmEvent::SmcSized { .. }
                | SmEvent::WarpAdmit { .. }
                | SmEvent::WarpExit { .. }
                | SmEvent::KernelStart { .. }
        );
        if !acts {
            return;
        }
        self.settle(cx.now);
        match *event {
            SmEvent::Eviction { line, owner, by } => self.detector.evicted(line, owner as usize, by),
            SmEvent::Miss { slot, line, .. } => {
                self.detector.missed(slot as usize, line);
            }
            SmEvent::Store { line, .. } => self.detector.written(line),
            SmEvent::Migration { line, owner, by } if self.settings.migration_is_eviction => {
                self.detector.evicted(line, owner as usize, by)
            }
            SmEvent::SmcSized { lines, .. } => self.smc_lines = Some(lines),
            SmEvent::WarpAdmit { slot, .. } => {
                let age = cx.warps.get(slot as usize).map_or(0, |w| w.age);
                self.replace(slot as usize, CiaoWarp { live: Some(age), ..CiaoWarp::default() });
                self.detector.admit(slot as usize, self.settings.per_dynamic_warp);
            }
            SmEvent::WarpExit { slot, .. } => self.replace(slot as usize, CiaoWarp::default()),
            SmEvent::KernelStart { .. } => {
                self.detector.reset();
                self.instructions = 0;
                self.window_instructions = 0;
                self.next_low = self.settings.low_epoch;
                self.next_high = self.settings.high_epoch;
                self.pending = None;
            }
            _ => {}
        }
    }

    fn held_warps(&self) -> u32 {
        self.stalled_warps as u32
    }

    fn holds(&self, slot: WarpSlot) -> bool {
        !self.settings.stall_loads_only && self.is_stalled(slot)
    }

    fn interference(&self) -> Option<InterferenceView> {
        let n = self.warps.len();
        let mut view = InterferenceView {
            role: vec![WarpRole::Empty as u8; n],
            interferer: vec![NONE; n],
            confidence: vec![0; n],
            vta_hits: vec![0; n],
            above_high: vec![false; n],
            smc_lines: self.smc_lines.unwrap_or(0),
            detections: self.detector.total_hits(),
        };
        for (slot, w) in self.warps.iter().enumerate().filter(|(_, w)| w.live.is_some()) {
            view.role[slot] = match (w.stalled, w.isolated) {
                (true, _) => WarpRole::Stalled,
                (false, true) => WarpRole::Isolated,
                (false, false) => WarpRole::Active,
            } as u8;
            let entry = self.detector.entry(slot);
            let j = entry.wid as usize;
            if j != slot && self.warps.get(j).is_some_and(|w| w.live.is_some()) {
                view.interferer[slot] = j as u32;
                view.confidence[slot] = entry.counter;
            }
            view.vta_hits[slot] = self.detector.hits(slot);
            view.above_high[slot] = self.irs_above(slot, self.settings.high_cutoff);
        }
        Some(view)
    }

    fn counters(&self) -> PolicyCounters {
        PolicyCounters { victim_tag_hits: self.detector.total_hits() }
    }

    fn smc(&self) -> Option<SmcSettings> {
        R::ISOLATES.then_some(self.settings.smc)
    }

    fn load_route(&self, slot: WarpSlot) -> LoadRoute {
        match self.warps.get(slot as usize).is_some_and(|w| w.isolated) {
            true => LoadRoute::SharedMemoryCache,
            false => LoadRoute::L1,
        }
    }
}
