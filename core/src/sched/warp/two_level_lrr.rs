//! Two-level round-robin (2LVL-LRR, Narasiman et al.'s setting that the CCWS paper quotes,
//! fetch groups of 8): the scheduler stays in the group it issued from last, taking its warps
//! in turn after the last issuer, until none can issue; then the next group in turn that has a
//! ready warp takes over, again from the warp after the last issuer.

use alloc::vec;
use alloc::vec::Vec;

use super::fetch_groups::{group_param, FetchGroups};
use super::{Issued, ReadyWarps, SmShape, WarpCx, WarpScheduler, WarpSlot};
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// State: the groups, and per scheduler the warp that issued last.
#[derive(Clone, Debug)]
pub struct TwoLevelLrr {
    groups: FetchGroups,
    last: Vec<Option<WarpSlot>>,
}

impl TwoLevelLrr {
    /// Fetch groups of `group` warps.
    pub fn new(group: u32) -> Self {
        TwoLevelLrr { groups: FetchGroups::new(group), last: Vec::new() }
    }
}

impl Default for TwoLevelLrr {
    fn default() -> Self {
        TwoLevelLrr::new(Self::PARAMS[0].default)
    }
}

impl WarpScheduler for TwoLevelLrr {
    // Its picks depend on issue order and ages only.
    fn hears_events(&self) -> bool {
        false
    }

    fn attach(&mut self, shape: &SmShape) {
        self.groups.schedulers = shape.schedulers.max(1);
        self.last = vec![None; shape.schedulers as usize];
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        let slots = cx.warps.len() as u32;
        let groups = (slots.div_ceil(self.groups.schedulers.max(1) as u32)).div_ceil(self.groups.size.max(1) as u32);
        let last = self.last[cx.scheduler as usize];
        let start = last.map_or(0, |l| l as u32 + 1) % slots.max(1);
        let current = last.map_or(0, |l| self.groups.of(l) as u32);
        // The current group first, then the others in turn; within a group, the nearest warp
        // after the last issuer, wrapping around the slots (LRR's rule).
        ready.iter().min_by_key(|&w| {
            let group_turn = (self.groups.of(w) as u32 + groups.max(1) - current) % groups.max(1);
            (group_turn, (w as u32 + slots - start) % slots.max(1))
        })
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, _issued: &Issued) {
        self.last[cx.scheduler as usize] = Some(slot);
    }
}

impl Tunable for TwoLevelLrr {
    const PARAMS: &'static [ParamInfo] = &[group_param(8)];

    fn tuned(values: &ParamValues) -> Self {
        TwoLevelLrr::new(values.get("group"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{attached, cx, members, pick, warps, ALU};
    use super::*;

    #[test]
    fn turns_stay_in_the_group_then_pass_to_the_next_group_with_a_ready_warp() {
        // One scheduler, six slots, groups of 2: {0, 1}, {2, 3}, {4, 5}.
        let w = warps(&[0, 1, 2, 3, 4, 5]);
        let m = members(&[0, 1, 2, 3, 4, 5], 6);
        let mut two = attached(TwoLevelLrr::new(2), 6);
        assert_eq!(pick(&mut two, &cx(&w), &m, &[1, 3, 5]), Some(1), "nobody issued: group 0 first");
        two.on_issue(&cx(&w), 2, &ALU);
        assert_eq!(pick(&mut two, &cx(&w), &m, &[0, 1, 3, 5]), Some(3), "group {{2, 3}}: the warp after slot 2");
        // Plain LRR would take slot 3 too, but here: group {2, 3} stalled, next group in turn.
        assert_eq!(pick(&mut two, &cx(&w), &m, &[0, 1, 5]), Some(5), "the next group, {{4, 5}}");
        two.on_issue(&cx(&w), 5, &ALU);
        assert_eq!(pick(&mut two, &cx(&w), &m, &[0, 1, 4]), Some(4), "its own group first, wrapping inside it");
        assert_eq!(pick(&mut two, &cx(&w), &m, &[1, 0]), Some(0), "then group 0, from the slot after 5");
    }
}
