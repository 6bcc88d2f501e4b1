//! Cache-conscious wavefront scheduling (CCWS; Rogers, O'Connor and Aamodt, MICRO 2012):
//! greedy-then-oldest, plus a per-warp "may load" bit. A per-warp victim tag array
//! ([`VictimTags`]) notices a warp missing on a line it brought in itself and lost to an
//! eviction; that warp's lost-locality score jumps ([`lost_locality`], Eq. 1); the scores,
//! largest first, are summed against a cutoff of `live warps × base score`, and the warps
//! pushed past it may not issue global loads until the scores decay. Everything else (ALU
//! work, stores, atomics, shared memory) issues as under GTO, and no warp leaves the
//! scheduler: only the loads of the warps losing least locality wait.
//!
//! One object serves the SM: the tags, scores and counters are SM-wide, and each scheduler
//! keeps its own greedy warp ([`Gto`]).
//!
//! Events: an [`SmEvent::Eviction`] puts the victim's tag into its *owner's* tags (the warp
//! whose miss brought the line in), whichever warp evicted it. An [`SmEvent::Miss`] (a load of
//! a line absent from the L1) probes the missing warp's own tags; MSHR merges, sector misses
//! and reservation failures do not. The engine reports a miss before the eviction it causes;
//! the artifact inserts the victim first and then probes. The two differ only when the victim
//! is the missing warp's own line, goes to the set of the probed tag, and that set is full
//! with the probed tag the oldest: the insert would push it out before the probe. We probe
//! first, so that miss counts as a VTA hit here and not in the artifact. An
//! [`SmEvent::Store`] (a store or an atomic) removes its line from every warp's tags, as the
//! artifact does: the L1 evicts global data on writes, which is no lost locality.
//!
//! Timing: the gate used in a cycle is worked out from the scores after the decay steps of all
//! earlier cycles and the VTA hits, arrivals and exits heard so far in this cycle; it is
//! worked out again when a scheduler picks in a new cycle or after something changed it. The
//! artifact recomputes it at the end of each cycle, so its gate lags ours by the VTA hits of
//! the current cycle's memory stage (the paper allows a lag of a few cycles).

pub mod lost_locality;

pub use lost_locality::{decayed, llds, LostLocality};

use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::gto::Gto;
use super::victim_tags::VictimTags;
use super::{
    InstrClass, Issued, PolicyCounters, ReadyWarps, SmEvent, SmShape, WarpCx, WarpScheduler, WarpScores, WarpSlot,
};
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// A 0/1 switch parameter.
const fn switch(name: &'static str, label: &'static str, description: &'static str, default: u32) -> ParamInfo {
    ParamInfo { name, label, unit: "", description, min: 0, max: 1, default }
}

/// The scores, tags and gate of one SM.
#[derive(Clone, Debug)]
pub struct Ccws {
    gto: Gto,
    tags: VictimTags,
    scores: LostLocality,
    straddler_allowed: bool,
    clear_on_admit: bool,
    /// The cycle `allowed` was worked out for (`None`: never).
    gate_at: Option<u64>,
    /// Something changed the scores or the warps since.
    stale: bool,
    /// Per warp slot: may it issue a global load.
    allowed: Vec<bool>,
    /// Live warps `allowed` bars from loading.
    barred: u32,
    cutoff: u64,
    /// Scratch for the cutoff test's sort.
    order: Vec<WarpSlot>,
}

/// One warp slot in [`CcwsState`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CcwsWarp {
    /// Whether a warp occupies the slot.
    pub live: bool,
    /// Its lost-locality score (0 without a warp).
    pub score: u64,
    /// Whether it may issue global loads.
    pub allowed: bool,
}

/// What CCWS holds on one SM at a cycle, for a view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CcwsState {
    /// Per warp slot.
    pub warps: Vec<CcwsWarp>,
    /// The cumulative cutoff: live warps × base score.
    pub cutoff: u64,
    /// The score a VTA hit would give now (Eq. 1).
    pub llds: u64,
    /// VTA hits since the SM started.
    pub victim_tag_hits: u64,
}

impl Ccws {
    /// CCWS with every parameter given (see [`Tunable::PARAMS`]).
    pub fn new(values: &ParamValues) -> Self {
        let on = |name: &str| values.get(name) != 0;
        Ccws {
            gto: Gto::default(),
            tags: VictimTags::new(values.get("vta_entries"), values.get("vta_ways")),
            scores: LostLocality::new(
                values.get("base_score"),
                values.get("k_throttle"),
                on("decay_clamps_to_llds"),
                values.get("counter_scope") == 1,
                on("ties_by_age"),
            ),
            straddler_allowed: on("straddler_allowed"),
            clear_on_admit: on("clear_vta_on_admit"),
            gate_at: None,
            stale: true,
            allowed: Vec::new(),
            barred: 0,
            cutoff: 0,
            order: Vec::new(),
        }
    }

    /// Works out the gate for `cx.now` unless it is up to date.
    fn refresh(&mut self, cx: &WarpCx<'_>) {
        if self.gate_at == Some(cx.now) && !self.stale {
            return;
        }
        self.gate_at = Some(cx.now);
        self.stale = false;
        self.scores.catch_up(cx.now);
        let live = |slot: usize| cx.warps.get(slot).is_some_and(|w| w.live);
        let n_active = cx.warps.iter().filter(|w| w.live).count() as u64;
        debug_assert_eq!(n_active, self.scores.live_warps(), "arrivals and exits heard match the SM's warps");
        self.cutoff = self.scores.gate(live, n_active, self.straddler_allowed, &mut self.order, &mut self.allowed);
        self.barred = self.allowed.iter().enumerate().filter(|&(slot, &a)| !a && live(slot)).count() as u32;
    }

    /// Scores, permissions and the cutoff as they are at cycle `now` (at or after the last
    /// cycle the policy was called in), for a view; allocates.
    pub fn state(&self, now: u64) -> CcwsState {
        let mut allowed = vec![false; self.allowed.len()];
        let cutoff = self.scores.gate_at(now, self.straddler_allowed, &mut allowed);
        let warps = allowed
            .iter()
            .enumerate()
            .map(|(slot, &allowed)| CcwsWarp {
                live: self.scores.is_live(slot),
                score: self.scores.score_at(slot, now),
                allowed,
            })
            .collect();
        CcwsState { warps, cutoff, llds: self.scores.llds(), victim_tag_hits: self.scores.victim_tag_hits() }
    }
}

impl Default for Ccws {
    fn default() -> Self {
        Ccws::new(&ParamValues::defaults(Self::PARAMS))
    }
}

impl Tunable for Ccws {
    /// The paper's Table 3 values are the defaults (base score 100, K_THROTTLE 8, 16 victim
    /// tags a warp, 8-way); the switches choose between readings of the paper where the notes
    /// (`ccws.md` §1.5, §6) found it ambiguous, each defaulting to the authors' simulator.
    const PARAMS: &'static [ParamInfo] = &[
        ParamInfo {
            name: "base_score",
            label: "Base score",
            unit: "points",
            description: "Every warp's lost-locality score without lost locality; the cutoff is live warps times this.",
            min: 1,
            max: 10_000,
            default: 100,
        },
        ParamInfo {
            name: "k_throttle",
            label: "K_THROTTLE",
            unit: "",
            description: "Eq. 1's constant: a VTA hit sets the warp's score to VTA hits / instructions × this × the \
                          cutoff, so larger values throttle sooner and harder.",
            min: 1,
            max: 4096,
            default: 8,
        },
        ParamInfo {
            name: "vta_entries",
            label: "Victim tags per warp",
            unit: "tags",
            description: "Tags of evicted lines each warp keeps; more tags detect lost locality over longer distances \
                          (the paper's Fig. 13 chose 16).",
            min: 1,
            max: 256,
            default: 16,
        },
        ParamInfo {
            name: "vta_ways",
            label: "Victim tag ways",
            unit: "ways",
            description: "Associativity of each warp's tags (FIFO within a set); with fewer entries than this they are \
                          fully associative, as in Fig. 13.",
            min: 1,
            max: 256,
            default: 8,
        },
        switch(
            "decay_clamps_to_llds",
            "Decay re-applies the cap",
            "1 (the artifact): each cycle's decay also caps every score at the current LLDS, so a falling VTA-hit \
             rate lowers all raised scores at once; 0: scores only lose one point a cycle, as the paper describes.",
            1,
        ),
        switch(
            "straddler_allowed",
            "Straddling warp may load",
            "1 (the artifact): the warp whose score crosses the cutoff keeps its loads, so one warp at twice the base \
             blocks another; 0: only warps whose whole score lies within the cutoff load (the first-ranked always may), so \
             any raised score blocks one.",
            1,
        ),
        switch(
            "counter_scope",
            "Eq. 1 counts since the start",
            "0 (the artifact): Eq. 1's VTA hits and instructions are summed over the warps now on the SM, an exiting \
             warp taking its counts along; 1: counted over the SM's whole run, every kernel included.",
            0,
        ),
        switch(
            "clear_vta_on_admit",
            "New warp starts with no tags",
            "1 (the notes' suggestion): a warp taking a slot starts with empty victim tags; 0 (the artifact): it \
             inherits the tags of the warp that had the slot before.",
            1,
        ),
        switch(
            "ties_by_age",
            "Equal scores: older warp first",
            "0 (the artifact): among warps of equal score the lower slot ranks first, so a warp in a high slot that \
             never gets to load (and so never raises its score) stays last while newer warps in lower slots pass it; \
             1: the older warp ranks first, in GTO's order. The paper does not say.",
            0,
        ),
    ];

    fn tuned(values: &ParamValues) -> Self {
        Ccws::new(values)
    }
}

impl WarpScheduler for Ccws {
    fn attach(&mut self, shape: &SmShape) {
        self.gto.attach(shape);
        let slots = shape.warp_slots as usize;
        self.tags.attach(slots);
        self.scores.attach(slots);
        self.allowed = vec![true; slots];
        self.order = Vec::with_capacity(slots);
        self.gate_at = None;
        self.stale = true;
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        self.refresh(cx);
        self.gto.pick(cx, ready)
    }

    fn may_issue(&self, _cx: &WarpCx<'_>, slot: WarpSlot, class: InstrClass) -> bool {
        class != InstrClass::GlobalLoad || self.allowed.get(slot as usize).copied().unwrap_or(true)
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        self.scores.issue(slot as usize, cx.now);
        self.gto.on_issue(cx, slot, issued);
    }

    fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        match *event {
            SmEvent::Eviction { line, owner, by } => self.tags.insert(owner as usize, line, by),
            SmEvent::Miss { slot, line, .. } if self.tags.contains(slot as usize, line) => {
                self.scores.vta_hit(slot as usize, cx.now);
                self.stale = true;
            }
            SmEvent::Store { line, .. } => self.tags.invalidate(line),
            SmEvent::WarpAdmit { slot, .. } => {
                self.scores.admit(slot as usize, cx.now);
                if self.clear_on_admit {
                    self.tags.clear(slot as usize);
                }
                self.stale = true;
            }
            SmEvent::WarpExit { slot, .. } => {
                self.scores.exit(slot as usize, cx.now);
                self.stale = true;
            }
            _ => {}
        }
    }

    fn held_warps(&self) -> u32 {
        self.barred
    }

    fn counters(&self) -> PolicyCounters {
        PolicyCounters { victim_tag_hits: self.scores.victim_tag_hits() }
    }

    /// [`Ccws::state`] in the snapshot's policy-neutral terms: lost-locality scores, the
    /// cutoff, LLDS as the detection score and VTA hits as the detections.
    fn scores(&self, now: u64) -> Option<WarpScores> {
        let state = self.state(now);
        Some(WarpScores {
            live: state.warps.iter().map(|w| w.live).collect(),
            score: state.warps.iter().map(|w| w.score).collect(),
            may_load: state.warps.iter().map(|w| w.allowed).collect(),
            cutoff: state.cutoff,
            detection_score: state.llds,
            detections: state.victim_tag_hits,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{members, pick, warps, ALU};
    use super::super::{WarpInfo, WarpPolicy};
    use super::*;

    const LOAD: InstrClass = InstrClass::GlobalLoad;

    /// CCWS from a spec, on one scheduler owning `slots` slots, each admitted at cycle 0.
    fn ccws(spec: &str, slots: usize) -> (Ccws, Vec<WarpInfo>) {
        let Ok(WarpPolicy::Ccws(mut c)) = WarpPolicy::from_spec(spec) else { panic!("{spec}") };
        c.attach(&SmShape { schedulers: 1, warp_slots: slots as u16, tb_slots: 8 });
        let w = warps(&(0..slots as u64).collect::<Vec<_>>());
        for slot in 0..slots as u16 {
            c.on_event(&at(&w, 0), &SmEvent::WarpAdmit { slot, kernel: 0 });
        }
        (c, w)
    }

    fn at(w: &[WarpInfo], now: u64) -> WarpCx<'_> {
        WarpCx { now, sm: 0, scheduler: 0, warps: w }
    }

    fn miss(c: &mut Ccws, w: &[WarpInfo], now: u64, slot: u16, line: u64) {
        c.on_event(&at(w, now), &SmEvent::Miss { slot, kernel: 0, line });
    }

    fn evict(c: &mut Ccws, w: &[WarpInfo], now: u64, line: u64, owner: u16, by: u16) {
        c.on_event(&at(w, now), &SmEvent::Eviction { line, owner: owner as u32, by });
    }

    fn issue(c: &mut Ccws, w: &[WarpInfo], now: u64, slot: u16, times: u32) {
        for _ in 0..times {
            c.on_issue(&at(w, now), slot, &ALU);
        }
    }

    /// Which slots may load at `now` (as a scheduler's pick works it out).
    fn may_load(c: &mut Ccws, w: &[WarpInfo], now: u64) -> Vec<bool> {
        let slots: Vec<u16> = (0..w.len() as u16).collect();
        pick(c, &at(w, now), &members(&slots, w.len()), &slots);
        (0..w.len() as u16).map(|s| c.may_issue(&at(w, now), s, LOAD)).collect()
    }

    fn score(c: &Ccws, now: u64, slot: usize) -> u64 {
        c.state(now).warps[slot].score
    }

    #[test]
    fn the_owner_gets_the_victim_tag_whoever_evicted_it() {
        let (mut c, w) = ccws("ccws", 4);
        issue(&mut c, &w, 0, 0, 10);
        // Warp 1's miss evicts line 40, which warp 0 brought in.
        miss(&mut c, &w, 1, 1, 7);
        evict(&mut c, &w, 1, 40, 0, 1);
        miss(&mut c, &w, 2, 1, 40);
        assert_eq!(c.counters().victim_tag_hits, 0, "warp 1 never had line 40");
        miss(&mut c, &w, 3, 0, 40);
        assert_eq!(c.counters().victim_tag_hits, 1, "warp 0 lost it");
        // LLDS: 1 hit / 10 instructions × 8 × 400 = 320.
        assert_eq!(c.state(3).llds, 320);
        assert_eq!(score(&c, 3, 0), 320);
        assert_eq!(score(&c, 3, 1), 100);
        miss(&mut c, &w, 3, 0, 40);
        assert_eq!(c.counters().victim_tag_hits, 2, "a hit leaves the tag in place");
    }

    #[test]
    fn merges_and_sector_misses_do_not_probe() {
        let (mut c, w) = ccws("ccws", 2);
        issue(&mut c, &w, 0, 0, 10);
        evict(&mut c, &w, 0, 40, 0, 1);
        c.on_event(&at(&w, 1), &SmEvent::MshrMerge { slot: 0, kernel: 0, line: 40 });
        c.on_event(&at(&w, 1), &SmEvent::SectorMiss { slot: 0, kernel: 0, line: 40 });
        c.on_event(&at(&w, 1), &SmEvent::Hit { slot: 0, kernel: 0, line: 40, owner: 0 });
        assert_eq!(c.counters().victim_tag_hits, 0);
    }

    #[test]
    fn a_store_or_atomic_removes_the_tag_from_every_warp() {
        let (mut c, w) = ccws("ccws", 3);
        issue(&mut c, &w, 0, 0, 10);
        evict(&mut c, &w, 0, 40, 0, 2);
        evict(&mut c, &w, 0, 40, 1, 2);
        evict(&mut c, &w, 0, 42, 1, 2);
        c.on_event(&at(&w, 1), &SmEvent::Store { slot: 2, kernel: 0, line: 40, atomic: true });
        miss(&mut c, &w, 2, 0, 40);
        miss(&mut c, &w, 2, 1, 40);
        assert_eq!(c.counters().victim_tag_hits, 0);
        miss(&mut c, &w, 2, 1, 42);
        assert_eq!(c.counters().victim_tag_hits, 1, "other lines stay");
    }

    #[test]
    fn a_new_warp_in_a_slot_starts_with_no_tags_unless_told_otherwise() {
        for (spec, hits) in [("ccws", 0), ("ccws:clear_vta_on_admit=0", 1)] {
            let (mut c, mut w) = ccws(spec, 2);
            issue(&mut c, &w, 0, 0, 10);
            evict(&mut c, &w, 0, 40, 0, 1);
            w[0].live = false;
            c.on_event(&at(&w, 1), &SmEvent::WarpExit { slot: 0, kernel: 0 });
            w[0].live = true;
            c.on_event(&at(&w, 2), &SmEvent::WarpAdmit { slot: 0, kernel: 0 });
            issue(&mut c, &w, 2, 0, 10);
            miss(&mut c, &w, 3, 0, 40);
            assert_eq!(c.counters().victim_tag_hits, hits, "{spec}");
        }
    }

    #[test]
    fn only_global_loads_of_a_held_back_warp_wait() {
        // Two warps; warp 0 at 200 (twice the base) pushes warp 1 past the cutoff of 200.
        let (mut c, w) = ccws("ccws", 2);
        issue(&mut c, &w, 0, 0, 8);
        evict(&mut c, &w, 0, 40, 0, 1);
        miss(&mut c, &w, 0, 0, 40);
        assert_eq!(score(&c, 0, 0), 200, "1 hit / 8 instructions × 8 × 200");
        assert_eq!(may_load(&mut c, &w, 0), [true, false]);
        for class in [InstrClass::Compute, InstrClass::GlobalStore, InstrClass::GlobalAtomic, InstrClass::Shared] {
            assert!(c.may_issue(&at(&w, 0), 1, class), "{class:?} is never gated");
        }
        assert!(!c.may_issue(&at(&w, 0), 1, LOAD));
        // One cycle of decay: warp 0 at 199, so warp 1's segment starts below the cutoff again.
        assert_eq!(may_load(&mut c, &w, 1), [true, true]);
    }

    #[test]
    fn decay_with_the_clamp_follows_a_falling_hit_rate() {
        // 32 warps: cutoff 3200. 50 instructions, then one VTA hit: LLDS = 1/50 × 8 × 3200 = 512.
        for (spec, back_at) in [("ccws:decay_clamps_to_llds=0", 412), ("ccws", 158)] {
            let (mut c, w) = ccws(spec, 32);
            issue(&mut c, &w, 0, 3, 50);
            evict(&mut c, &w, 0, 9, 0, 3);
            miss(&mut c, &w, 0, 0, 9);
            assert_eq!(score(&c, 0, 0), 512, "{spec}");
            // Next cycle, 50 more instructions halve the ratio: LLDS 256.
            issue(&mut c, &w, 1, 3, 50);
            assert_eq!(c.state(1).llds, 256);
            // Pure decay: 512 - 412 = 100. With the clamp: the end of cycle 0 gives 511, the end
            // of cycle 1 min(510, 256) = 256, which reaches 100 after 156 more cycles.
            assert_eq!(score(&c, back_at - 1, 0), 101, "{spec}");
            assert_eq!(score(&c, back_at, 0), 100, "{spec}");
            // The policy catching up in one jump or cycle by cycle agrees.
            let mut stepwise = c.clone();
            for now in 2..=back_at {
                may_load(&mut stepwise, &w, now);
            }
            may_load(&mut c, &w, back_at);
            assert_eq!(c.state(back_at), stepwise.state(back_at));
            assert_eq!(score(&stepwise, back_at, 0), 100);
        }
    }

    #[test]
    fn below_one_hit_in_256_instructions_nothing_is_throttled() {
        // §1.5.6: N = 32, K = 8: LLDS exceeds the base only when H/I > 1/256.
        for (instructions, expected) in [(256, 100), (257, 100), (253, 101)] {
            let (mut c, w) = ccws("ccws", 32);
            issue(&mut c, &w, 0, 1, instructions);
            evict(&mut c, &w, 0, 9, 0, 3);
            miss(&mut c, &w, 0, 0, 9);
            assert_eq!(score(&c, 0, 0), expected, "1 hit in {instructions}");
            let blocked = may_load(&mut c, &w, 0).iter().filter(|&&a| !a).count();
            assert_eq!(blocked, 0, "one warp at {expected} < 2 × base blocks nobody");
        }
    }

    #[test]
    fn one_raised_warp_blocks_the_last_one_at_twice_the_base_or_at_once_without_the_straddler() {
        // 32 warps, cutoff 3200. 1 hit in 128 instructions: LLDS = 200 = 2 × base.
        for (spec, instructions, blocked) in [
            ("ccws", 129, 0),
            ("ccws", 128, 1),
            ("ccws:straddler_allowed=0", 253, 1),
            ("ccws:straddler_allowed=0", 256, 0),
        ] {
            let (mut c, w) = ccws(spec, 32);
            issue(&mut c, &w, 0, 1, instructions);
            evict(&mut c, &w, 0, 9, 5, 3);
            miss(&mut c, &w, 0, 5, 9);
            let may = may_load(&mut c, &w, 0);
            assert_eq!(may.iter().filter(|&&a| !a).count(), blocked, "{spec}, 1 hit in {instructions}");
            if blocked == 1 {
                assert!(!may[31], "the last-ranked warp: the highest slot at the base");
            }
        }
    }

    #[test]
    fn the_cutoff_follows_the_live_warps() {
        let (mut c, mut w) = ccws("ccws", 4);
        assert_eq!(c.state(0).cutoff, 400);
        w[2].live = false;
        c.on_event(&at(&w, 5), &SmEvent::WarpExit { slot: 2, kernel: 0 });
        let s = c.state(5);
        assert_eq!((s.cutoff, s.warps[2]), (300, CcwsWarp { live: false, score: 0, allowed: false }));
        assert_eq!(may_load(&mut c, &w, 6), [true, true, false, true]);
    }

    #[test]
    fn with_no_lost_locality_it_picks_as_gto() {
        let w = warps(&[40, 30, 20, 10]);
        let m = members(&[3, 2, 1, 0], 4);
        let (mut c, _) = ccws("ccws", 4);
        let mut gto = super::super::test_support::attached(Gto::default(), 4);
        for (now, r) in [&[3, 2, 1, 0][..], &[1, 0], &[0], &[2, 0], &[3, 2]].into_iter().enumerate() {
            let (a, b) = (pick(&mut c, &at(&w, now as u64), &m, r), pick(&mut gto, &at(&w, now as u64), &m, r));
            assert_eq!(a, b);
            let s = a.unwrap();
            c.on_issue(&at(&w, now as u64), s, &ALU);
            gto.on_issue(&at(&w, now as u64), s, &ALU);
            assert!(c.may_issue(&at(&w, now as u64), s, LOAD));
        }
    }

    #[test]
    fn schedulers_share_the_scores_and_keep_their_own_greedy_warp() {
        let mut c = Ccws::default();
        c.attach(&SmShape { schedulers: 2, warp_slots: 4, tb_slots: 2 });
        let w = warps(&[10, 11, 12, 13]);
        for slot in 0..4 {
            c.on_event(&at(&w, 0), &SmEvent::WarpAdmit { slot, kernel: 0 });
        }
        let s0 = WarpCx { scheduler: 0, ..at(&w, 0) };
        let s1 = WarpCx { scheduler: 1, ..at(&w, 0) };
        c.on_issue(&s0, 2, &ALU);
        c.on_issue(&s1, 3, &ALU);
        // 2 instructions, a VTA hit of slot 1 (scheduler 1): LLDS = 1/2 × 8 × 400 = 1600.
        evict(&mut c, &w, 0, 8, 1, 0);
        miss(&mut c, &w, 0, 1, 8);
        let (even, odd) = (members(&[0, 2], 4), members(&[1, 3], 4));
        assert_eq!(pick(&mut c, &s0, &even, &[0, 2]), Some(2), "scheduler 0 stays on slot 2");
        assert_eq!(pick(&mut c, &s1, &odd, &[1, 3]), Some(3), "scheduler 1 stays on slot 3");
        // Slot 1 at 1600 fills the cutoff of 400 alone: only it may load, on either scheduler.
        for slot in 0..4 {
            assert_eq!(c.may_issue(&s0, slot, LOAD), slot == 1, "slot {slot}");
        }
    }

    #[test]
    fn specs_name_the_parameters() {
        let Ok(WarpPolicy::Ccws(c)) = WarpPolicy::from_spec("ccws:k_throttle=32,vta_entries=128") else {
            panic!("ccws spec")
        };
        assert_eq!((c.tags.sets(), c.tags.ways()), (16, 8));
        assert!(WarpPolicy::from_spec("ccws:k_throttle=1024,vta_entries=256").is_ok());
        assert!(WarpPolicy::from_spec("ccws:straddler_allowed=2").is_err());
        let names: Vec<&str> = Ccws::PARAMS.iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "base_score",
                "k_throttle",
                "vta_entries",
                "vta_ways",
                "decay_clamps_to_llds",
                "straddler_allowed",
                "counter_scope",
                "clear_vta_on_admit",
                "ties_by_age"
            ]
        );
    }
}
