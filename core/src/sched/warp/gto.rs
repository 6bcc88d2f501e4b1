//! Greedy-then-oldest (GTO): keep issuing from the warp that issued last while it can; when it
//! stalls, the oldest ready warp (smallest dynamic id) takes over and becomes the greedy one.
//! Each scheduler of the SM has its own greedy warp.

use alloc::vec;
use alloc::vec::Vec;

use super::{Issued, ReadyWarps, SmShape, WarpCx, WarpScheduler, WarpSlot};
use crate::sched::{ParamValues, Tunable};

/// State: each scheduler's greedy warp.
#[derive(Clone, Debug, Default)]
pub struct Gto {
    greedy: Vec<Option<WarpSlot>>,
}

impl Gto {
    /// The greedy warp of `scheduler`: `ready`'s member it keeps issuing, or else its oldest.
    pub(super) fn pick_for(&self, scheduler: u16, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        match self.greedy[scheduler as usize] {
            Some(g) if ready.contains(g) => Some(g),
            _ => ready.oldest(),
        }
    }
}

impl WarpScheduler for Gto {
    // Its picks depend on issue order and ages only.
    fn hears_events(&self) -> bool {
        false
    }

    fn attach(&mut self, shape: &SmShape) {
        self.greedy = vec![None; shape.schedulers as usize];
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        self.pick_for(cx.scheduler, ready)
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, _issued: &Issued) {
        self.greedy[cx.scheduler as usize] = Some(slot);
    }
}

impl Tunable for Gto {
    fn tuned(_: &ParamValues) -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{attached, cx, members, pick, picks, warps, ALU};
    use super::*;

    #[test]
    fn the_greedy_warp_first_then_by_age() {
        // Slot ages: slot 3 is the oldest, slot 0 the youngest.
        let w = warps(&[40, 30, 20, 10]);
        let m = members(&[3, 2, 1, 0], 4);
        let mut gto = attached(Gto::default(), 4);
        assert_eq!(pick(&mut gto, &cx(&w), &m, &[3, 2, 1, 0]), Some(3), "nobody issued yet: oldest first");
        gto.on_issue(&cx(&w), 1, &ALU);
        assert_eq!(pick(&mut gto, &cx(&w), &m, &[3, 1, 0]), Some(1), "greedy slot 1 keeps priority");
        assert_eq!(pick(&mut gto, &cx(&w), &m, &[3, 0]), Some(3), "greedy warp stalled: oldest ready");
        // A wide issue: the greedy warp, then the rest oldest first.
        assert_eq!(picks(&mut gto, &w, &m, &[3, 1, 0]), [1, 3, 0]);
    }

    #[test]
    fn each_scheduler_of_an_sm_keeps_its_own_greedy_warp() {
        // Two schedulers: even slots belong to scheduler 0, odd ones to scheduler 1.
        let w = warps(&[10, 11, 12, 13]);
        let mut gto = Gto::default();
        gto.attach(&SmShape { schedulers: 2, warp_slots: 4, tb_slots: 2 });
        let (even, odd) = (members(&[0, 2], 4), members(&[1, 3], 4));
        let s0 = WarpCx { scheduler: 0, ..cx(&w) };
        let s1 = WarpCx { scheduler: 1, ..cx(&w) };
        gto.on_issue(&s0, 2, &ALU);
        gto.on_issue(&s1, 3, &ALU);
        assert_eq!(pick(&mut gto, &s0, &even, &[0, 2]), Some(2), "scheduler 0 stays on slot 2");
        assert_eq!(pick(&mut gto, &s1, &odd, &[1, 3]), Some(3), "scheduler 1 stays on slot 3, not 0's choice");
        gto.on_issue(&s1, 1, &ALU);
        assert_eq!(pick(&mut gto, &s0, &even, &[0, 2]), Some(2), "another scheduler's issue changes nothing here");
    }
}
