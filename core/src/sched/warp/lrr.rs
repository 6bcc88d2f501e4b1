//! Loose round-robin (LRR): warps take turns in slot order, starting after the warp that
//! issued last; a warp that cannot issue passes its turn to the next ready one. Each
//! scheduler of the SM takes turns among its own warps.

use alloc::vec;
use alloc::vec::Vec;

use super::{Issued, ReadyWarps, SmShape, WarpCx, WarpScheduler, WarpSlot};
use crate::sched::{ParamValues, Tunable};

/// State: the slot that issued last, per scheduler.
#[derive(Clone, Debug, Default)]
pub struct Lrr {
    last: Vec<Option<WarpSlot>>,
}

impl WarpScheduler for Lrr {
    // Its picks depend on issue order and ages only.
    fn hears_events(&self) -> bool {
        false
    }

    fn attach(&mut self, shape: &SmShape) {
        self.last = vec![None; shape.schedulers as usize];
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        let slots = cx.warps.len() as u32;
        let start = self.last[cx.scheduler as usize].map_or(0, |l| l as u32 + 1) % slots;
        // The nearest after the last issuer, wrapping around the slots.
        ready.iter().min_by_key(|&s| (s as u32 + slots - start) % slots)
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, _issued: &Issued) {
        self.last[cx.scheduler as usize] = Some(slot);
    }
}

impl Tunable for Lrr {
    fn tuned(_: &ParamValues) -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{attached, cx, members, pick, picks, warps, ALU};
    use super::*;

    #[test]
    fn turns_rotate_after_the_last_issuer() {
        let w = warps(&[0, 1, 2, 3, 4]);
        // Members by age; LRR ignores age.
        let m = members(&[3, 0, 4, 1, 2], 5);
        let mut lrr = attached(Lrr::default(), 5);
        assert_eq!(pick(&mut lrr, &cx(&w), &m, &[4, 0, 2, 3]), Some(0), "nobody has issued: slot order");
        assert_eq!(picks(&mut lrr, &w, &m, &[4, 0, 2, 3]), [0, 2, 3, 4]);
        lrr.on_issue(&cx(&w), 2, &ALU);
        assert_eq!(picks(&mut lrr, &w, &m, &[0, 1, 2, 4]), [4, 0, 1, 2], "after slot 2: 3 (not ready), 4, then wrap");
    }
}
