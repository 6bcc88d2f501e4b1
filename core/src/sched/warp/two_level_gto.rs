//! Two-level GTO (2LVL-GTO, the CCWS paper's tuned two-level scheduler, §5.1): warps are split
//! into fetch groups of `group` consecutive slots; the scheduler stays in the group it issued
//! from last, greedy-then-oldest inside it, until none of its warps can issue; then it moves
//! to the group whose oldest live warp is oldest and has a ready warp, again greedy-then-oldest.
//! Why it trails plain GTO: once the current group stalls, a younger group may issue while
//! older warps are ready, and its loads evict the older warps' data.

use alloc::vec;
use alloc::vec::Vec;

use super::fetch_groups::{group_param, FetchGroups};
use super::{Issued, ReadyWarps, SmShape, WarpCx, WarpScheduler, WarpSlot};
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// State: the groups, and per scheduler the warp and group that issued last.
#[derive(Clone, Debug)]
pub struct TwoLevelGto {
    groups: FetchGroups,
    greedy: Vec<Option<WarpSlot>>,
    current: Vec<Option<u16>>,
}

impl TwoLevelGto {
    /// Fetch groups of `group` warps.
    pub fn new(group: u32) -> Self {
        TwoLevelGto { groups: FetchGroups::new(group), greedy: Vec::new(), current: Vec::new() }
    }

    /// The age of group `g`'s oldest live warp among scheduler `cx.scheduler`'s slots.
    fn group_age(&self, cx: &WarpCx<'_>, g: u16) -> u64 {
        let schedulers = self.groups.schedulers.max(1) as usize;
        cx.warps
            .iter()
            .enumerate()
            .skip(cx.scheduler as usize)
            .step_by(schedulers)
            .filter(|&(slot, w)| w.live && self.groups.of(slot as WarpSlot) == g)
            .map(|(_, w)| w.age)
            .min()
            .unwrap_or(u64::MAX)
    }
}

impl Default for TwoLevelGto {
    fn default() -> Self {
        TwoLevelGto::new(Self::PARAMS[0].default)
    }
}

impl WarpScheduler for TwoLevelGto {
    // Its picks depend on issue order and ages only.
    fn hears_events(&self) -> bool {
        false
    }

    fn attach(&mut self, shape: &SmShape) {
        self.groups.schedulers = shape.schedulers.max(1);
        self.greedy = vec![None; shape.schedulers as usize];
        self.current = vec![None; shape.schedulers as usize];
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        let s = cx.scheduler as usize;
        if let Some(g) = self.current[s] {
            if let Some(greedy) = self.greedy[s].filter(|&w| ready.contains(w) && self.groups.of(w) == g) {
                return Some(greedy);
            }
            // Oldest first: the first ready warp of the current group.
            if let Some(w) = ready.iter().find(|&w| self.groups.of(w) == g) {
                return Some(w);
            }
        }
        // The current group cannot issue: the group with the oldest live warp among those with
        // a ready warp, and its oldest ready warp (ties between groups go to the lower group).
        let mut best: Option<(u64, u16, WarpSlot)> = None;
        for w in ready.iter() {
            let g = self.groups.of(w);
            if best.is_some_and(|(_, bg, _)| bg == g) {
                continue;
            }
            let age = self.group_age(cx, g);
            if best.is_none_or(|(ba, bg, _)| (age, g) < (ba, bg)) {
                best = Some((age, g, w));
            }
        }
        best.map(|(_, _, w)| w)
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, _issued: &Issued) {
        let s = cx.scheduler as usize;
        self.greedy[s] = Some(slot);
        self.current[s] = Some(self.groups.of(slot));
    }
}

impl Tunable for TwoLevelGto {
    const PARAMS: &'static [ParamInfo] = &[group_param(2)];

    fn tuned(values: &ParamValues) -> Self {
        TwoLevelGto::new(values.get("group"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{attached, cx, members, pick, warps, ALU};
    use super::*;

    #[test]
    fn stays_in_its_group_while_it_can_then_moves_to_the_oldest_group() {
        // One scheduler, slot i has age 10 + i (slot 0 the oldest); groups of 2: {0, 1}, {2, 3}.
        let w = warps(&[10, 11, 12, 13]);
        let m = members(&[0, 1, 2, 3], 4);
        let mut two = attached(TwoLevelGto::new(2), 4);
        assert_eq!(pick(&mut two, &cx(&w), &m, &[1, 2, 3]), Some(1), "nobody issued: the oldest group, oldest warp");
        two.on_issue(&cx(&w), 2, &ALU);
        assert_eq!(pick(&mut two, &cx(&w), &m, &[1, 2, 3]), Some(2), "greedy warp of the current group");
        // GTO would take slot 1, the oldest ready; the two-level scheduler stays in group {2, 3}.
        assert_eq!(pick(&mut two, &cx(&w), &m, &[1, 3]), Some(3), "the current group's other warp");
        assert_eq!(pick(&mut two, &cx(&w), &m, &[1]), Some(1), "the current group stalled: the older group");
    }

    #[test]
    fn the_oldest_group_is_the_one_with_the_oldest_live_warp() {
        // Groups of 2: {0, 1} holds ages 30, 31; {2, 3} holds 5 (not ready, but live) and 40.
        let w = warps(&[30, 31, 5, 40]);
        let m = members(&[2, 0, 1, 3], 4);
        let mut two = attached(TwoLevelGto::new(2), 4);
        assert_eq!(pick(&mut two, &cx(&w), &m, &[0, 3]), Some(3), "group {{2, 3}} is older through slot 2");
    }
}
