//! Loose round-robin (LRR): warps take turns in slot order, starting after the warp that
//! issued last; a warp that cannot issue passes its turn to the next ready one.

use alloc::vec::Vec;

use super::{WarpCx, WarpScheduler, WarpSlot};
use crate::sched::{ParamValues, Tunable};

/// State: the slot that issued last.
#[derive(Clone, Debug, Default)]
pub struct Lrr {
    last: Option<WarpSlot>,
}

impl WarpScheduler for Lrr {
    fn order(&mut self, cx: &WarpCx<'_>, ready: &mut Vec<WarpSlot>) {
        let slots = cx.warps.len() as u32;
        let start = self.last.map_or(0, |l| l as u32 + 1);
        // Distance after the last issuer, wrapping around the slots.
        ready.sort_unstable_by_key(|&s| (s as u32 + slots - start % slots) % slots);
    }

    fn on_issue(&mut self, _cx: &WarpCx<'_>, slot: WarpSlot) {
        self.last = Some(slot);
    }
}

impl Tunable for Lrr {
    fn tuned(_: &ParamValues) -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{cx, warps};
    use super::*;

    #[test]
    fn turns_rotate_after_the_last_issuer() {
        let w = warps(&[0, 1, 2, 3, 4]);
        let mut lrr = Lrr::default();
        let mut ready = alloc::vec![4, 0, 2, 3];
        lrr.order(&cx(&w), &mut ready);
        assert_eq!(ready, [0, 2, 3, 4], "nobody has issued: slot order");
        lrr.on_issue(&cx(&w), 2);
        let mut ready = alloc::vec![0, 1, 2, 4];
        lrr.order(&cx(&w), &mut ready);
        assert_eq!(ready, [4, 0, 1, 2], "after slot 2: 3 (not ready), 4, then wrap");
    }
}
