//! Static wavefront limiting (SWL, from the CCWS paper): only the `limit` oldest live warps of
//! the SM may issue at all, greedy-then-oldest among them; the others wait until an older warp
//! exits. The limit does not change occupancy (blocks are still admitted by resources); it
//! shrinks the set of warps whose data competes for the L1 at once.
//!
//! A barrier needs the whole block: when warps within the limit wait at one, the rest of their
//! block may run up to it too, so that it can open; then the limit applies again.
//!
//! The limit is the SM's: on an SM of several schedulers it counts the oldest warps of all of
//! them, and each scheduler keeps its own greedy warp. With `per_scheduler` each scheduler
//! lets its own `limit` oldest warps issue instead, as GPGPU-Sim's warp limiting does (the CIAO
//! paper's Best-SWL does not say which, `ciao.md` §9 #22).

use alloc::vec;
use alloc::vec::Vec;

use super::{oldest_threshold, Issued, ReadyWarps, SmShape, WarpCx, WarpInfo, WarpScheduler, WarpSlot};
use crate::events::SmEvent;
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// State: the limit, each scheduler's greedy warp, and which warps may issue now.
#[derive(Clone, Debug)]
pub struct Swl {
    limit: usize,
    per_scheduler: bool,
    greedy: Vec<Option<WarpSlot>>,
    /// The cycle and scheduler `eligible` was worked out for (`u64::MAX`: never). Worked out
    /// again for each scheduler, so that it sees warps that exited or reached a barrier
    /// through an earlier scheduler's issue in the same cycle.
    eligible_at: (u64, u16),
    /// Per warp slot of the SM: may it issue this cycle.
    eligible: Vec<bool>,
    /// Scratch: the ages of the live warps (kept to avoid allocating every cycle).
    ages: Vec<u64>,
    /// The age at or below which a warp may issue: the SM's, or each scheduler's.
    thresholds: Vec<u64>,
    /// Scratch: per thread-block slot, whether one of its warps waits at a barrier.
    block_at_barrier: Vec<bool>,
    /// Live warps held back, as of the last pick or the last warp arriving or leaving.
    held: u32,
}

impl Swl {
    /// Only the `limit` oldest warps of the SM issue, or of each scheduler with `per_scheduler`.
    pub fn new(limit: u32, per_scheduler: bool) -> Self {
        Swl {
            limit: limit.max(1) as usize,
            per_scheduler,
            greedy: Vec::new(),
            eligible_at: (u64::MAX, 0),
            eligible: Vec::new(),
            ages: Vec::new(),
            thresholds: Vec::new(),
            block_at_barrier: Vec::new(),
            held: 0,
        }
    }

    /// Works out, once per cycle, which warps may issue: the `limit` oldest live ones, and the
    /// rest of any block with a warp at a barrier.
    fn refresh(&mut self, cx: &WarpCx<'_>) {
        if self.eligible_at == (cx.now, cx.scheduler) {
            return;
        }
        self.eligible_at = (cx.now, cx.scheduler);
        self.survey(cx);
        let mut eligible = core::mem::take(&mut self.eligible);
        eligible.clear();
        eligible.extend(cx.warps.iter().enumerate().map(|(slot, w)| w.live && self.passes(slot, w)));
        self.eligible = eligible;
        let live = cx.warps.iter().filter(|w| w.live).count();
        self.held = (live - self.eligible.iter().filter(|&&e| e).count()) as u32;
    }

    /// Counts the live warps held back now, without touching the cycle's permissions (a warp
    /// arrived or left, and the count must not wait for the next pick).
    fn recount(&mut self, cx: &WarpCx<'_>) {
        self.survey(cx);
        self.held = cx.warps.iter().enumerate().filter(|&(slot, w)| w.live && !self.passes(slot, w)).count() as u32;
    }

    /// Fills the scratch: the age thresholds, and the blocks with a warp at a barrier.
    fn survey(&mut self, cx: &WarpCx<'_>) {
        let groups = if self.per_scheduler { self.greedy.len().max(1) } else { 1 };
        self.thresholds.clear();
        for group in 0..groups {
            self.ages.clear();
            let members = cx.warps.iter().enumerate().filter(|&(slot, w)| w.live && slot % groups == group);
            self.ages.extend(members.map(|(_, w)| w.age));
            self.thresholds.push(oldest_threshold(&mut self.ages, self.limit));
        }
        self.block_at_barrier.iter_mut().for_each(|b| *b = false);
        for w in cx.warps.iter().filter(|w| w.live && w.at_barrier) {
            let slot = w.tb_slot as usize;
            if slot >= self.block_at_barrier.len() {
                self.block_at_barrier.resize(slot + 1, false);
            }
            self.block_at_barrier[slot] = true;
        }
    }

    /// Whether live warp `w`, in `slot`, may issue by the survey's thresholds.
    fn passes(&self, slot: usize, w: &WarpInfo) -> bool {
        let threshold = self.thresholds[slot % self.thresholds.len()];
        w.age <= threshold || self.block_at_barrier.get(w.tb_slot as usize).copied().unwrap_or(false)
    }

    fn may_issue(&self, slot: WarpSlot) -> bool {
        self.eligible.get(slot as usize).copied().unwrap_or(false)
    }
}

impl Default for Swl {
    fn default() -> Self {
        Swl::new(Self::PARAMS[0].default, false)
    }
}

impl Tunable for Swl {
    const PARAMS: &'static [ParamInfo] = &[
        ParamInfo {
            name: "limit",
            label: "Active warps",
            unit: "warps",
            description: "How many of the SM's oldest warps may issue; the others wait until one of them exits.",
            min: 1,
            max: 64,
            default: 8,
        },
        ParamInfo {
            name: "per_scheduler",
            label: "Limit per scheduler",
            unit: "",
            description: "0 (the CCWS paper's SWL): the limit counts the SM's oldest warps; 1 (GPGPU-Sim's warp \
                          limiting): each warp scheduler lets its own limit of oldest warps issue.",
            min: 0,
            max: 1,
            default: 0,
        },
    ];

    fn tuned(values: &ParamValues) -> Self {
        Swl::new(values.get("limit"), values.get("per_scheduler") == 1)
    }
}

impl WarpScheduler for Swl {
    fn attach(&mut self, shape: &SmShape) {
        self.greedy = vec![None; shape.schedulers as usize];
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        self.refresh(cx);
        match self.greedy[cx.scheduler as usize] {
            Some(g) if ready.contains(g) && self.may_issue(g) => Some(g),
            // `None` with warps ready: every one of them is held back (counted as throttled).
            _ => ready.iter().find(|&w| self.may_issue(w)),
        }
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, _issued: &Issued) {
        self.greedy[cx.scheduler as usize] = Some(slot);
    }

    fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        if let SmEvent::WarpAdmit { .. } | SmEvent::WarpExit { .. } = event {
            self.recount(cx);
        }
    }

    fn held_warps(&self) -> u32 {
        self.held
    }

    fn holds(&self, slot: WarpSlot) -> bool {
        !self.may_issue(slot)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{attached, cx, members, pick, warps, ALU};
    use super::super::WarpInfo;
    use super::*;

    #[test]
    fn only_the_oldest_warps_issue_greedily() {
        // Slot ages: slot 0 is the youngest, slot 4 the oldest.
        let w = warps(&[50, 40, 30, 20, 10]);
        let m = members(&[4, 3, 2, 1, 0], 5);
        let mut swl = attached(Swl::new(2, false), 5);
        let all = [4, 3, 2, 1, 0];
        assert_eq!(pick(&mut swl, &cx(&w), &m, &all), Some(4), "oldest first");
        swl.on_issue(&cx(&w), 3, &ALU);
        assert_eq!(pick(&mut swl, &cx(&w), &m, &all), Some(3), "greedy within the limit");
        assert_eq!(pick(&mut swl, &cx(&w), &m, &[2, 1, 0]), None, "slots 4 and 3 stalled: the rest are held back");
        assert_eq!(pick(&mut swl, &cx(&w), &m, &[4, 0]), Some(4));
    }

    #[test]
    fn a_warp_that_exits_makes_room_for_the_next_oldest() {
        let mut w = warps(&[50, 40, 30, 20, 10]);
        let m = members(&[4, 3, 2, 1, 0], 5);
        let mut swl = attached(Swl::new(2, false), 5);
        assert_eq!(pick(&mut swl, &cx(&w), &m, &[2]), None);
        w[4].live = false;
        let next_cycle = WarpCx { now: 1, ..cx(&w) };
        assert_eq!(pick(&mut swl, &next_cycle, &m, &[2]), Some(2), "slot 2 is now among the 2 oldest");
    }

    #[test]
    fn the_rest_of_a_block_runs_to_its_barrier() {
        // Slots 3 and 2 (oldest) form block 0 with slot 1; slot 0 is block 1.
        let mut w: Vec<WarpInfo> = warps(&[40, 30, 20, 10]);
        for (slot, block) in [(3, 0), (2, 0), (1, 0), (0, 1)] {
            w[slot].tb_slot = block;
        }
        let m = members(&[3, 2, 1, 0], 4);
        let mut swl = attached(Swl::new(2, false), 5);
        assert_eq!(pick(&mut swl, &cx(&w), &m, &[1, 0]), None, "slots 1 and 0 are beyond the limit");
        w[3].at_barrier = true;
        w[2].at_barrier = true;
        let next_cycle = WarpCx { now: 1, ..cx(&w) };
        assert_eq!(pick(&mut swl, &next_cycle, &m, &[1, 0]), Some(1), "block 0's last warp joins the barrier");
        let mut only_other = attached(Swl::new(2, false), 4);
        assert_eq!(pick(&mut only_other, &next_cycle, &m, &[0]), None, "another block still waits");
    }

    #[test]
    fn a_limit_above_the_live_warps_is_plain_gto() {
        let w = warps(&[30, 20, 10]);
        let m = members(&[2, 1, 0], 3);
        let mut swl = attached(Swl::new(64, false), 3);
        let mut gto = attached(super::super::gto::Gto::default(), 3);
        for r in [&[2, 1, 0][..], &[1, 0], &[0], &[2, 0]] {
            let (a, b) = (pick(&mut swl, &cx(&w), &m, r), pick(&mut gto, &cx(&w), &m, r));
            assert_eq!(a, b);
            if let Some(s) = a {
                swl.on_issue(&cx(&w), s, &ALU);
                gto.on_issue(&cx(&w), s, &ALU);
            }
        }
    }

    #[test]
    fn per_scheduler_each_scheduler_keeps_its_own_oldest_warps() {
        // Two schedulers: even slots are scheduler 0's, odd ones scheduler 1's. Ages: slots 0
        // and 2 are the SM's two oldest, both scheduler 0's.
        let w = warps(&[10, 30, 20, 40]);
        let shape = SmShape { schedulers: 2, warp_slots: 4, tb_slots: 2 };
        let (even, odd) = (members(&[0, 2], 4), members(&[1, 3], 4));
        let s1 = WarpCx { scheduler: 1, ..cx(&w) };
        let mut sm_wide = Swl::new(2, false);
        sm_wide.attach(&shape);
        assert_eq!(pick(&mut sm_wide, &s1, &odd, &[1, 3]), None, "the SM's two oldest are both scheduler 0's");
        assert_eq!(sm_wide.held_warps(), 2);
        let mut per = Swl::new(1, true);
        per.attach(&shape);
        assert_eq!(pick(&mut per, &s1, &odd, &[1, 3]), Some(1), "scheduler 1's oldest");
        assert_eq!(pick(&mut per, &s1, &odd, &[3]), None, "its second is beyond its limit of 1");
        assert_eq!(pick(&mut per, &cx(&w), &even, &[2]), None, "scheduler 0's second oldest waits too");
        assert_eq!(per.held_warps(), 2, "one held on each scheduler");
    }
}
