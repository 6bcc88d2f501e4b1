//! Greedy-then-oldest (GTO): keep issuing from the warp that issued last while it can; when it
//! stalls, the oldest ready warp (smallest dynamic id) takes over and becomes the greedy one.

use alloc::vec::Vec;

use super::{WarpCx, WarpScheduler, WarpSlot};
use crate::sched::{ParamValues, Tunable};

/// State: the greedy warp.
#[derive(Clone, Debug, Default)]
pub struct Gto {
    greedy: Option<WarpSlot>,
}

impl WarpScheduler for Gto {
    fn order(&mut self, _cx: &WarpCx<'_>, ready: &mut Vec<WarpSlot>) {
        // `ready` arrives oldest first: only the greedy warp moves, to the front.
        if let Some(i) = self.greedy.and_then(|g| ready.iter().position(|&s| s == g)) {
            ready[..=i].rotate_right(1);
        }
    }

    fn on_issue(&mut self, _cx: &WarpCx<'_>, slot: WarpSlot) {
        self.greedy = Some(slot);
    }
}

impl Tunable for Gto {
    fn tuned(_: &ParamValues) -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{cx, warps};
    use super::*;

    #[test]
    fn the_greedy_warp_first_then_by_age() {
        // Slot ages: slot 3 is the oldest, slot 0 the youngest.
        // Ready lists arrive oldest first: here slot 3 is the oldest, slot 0 the youngest.
        let w = warps(&[40, 30, 20, 10]);
        let mut gto = Gto::default();
        let mut ready = alloc::vec![3, 2, 1, 0];
        gto.order(&cx(&w), &mut ready);
        assert_eq!(ready, [3, 2, 1, 0], "nobody issued yet: oldest first");
        gto.on_issue(&cx(&w), 1);
        let mut ready = alloc::vec![3, 1, 0];
        gto.order(&cx(&w), &mut ready);
        assert_eq!(ready, [1, 3, 0], "greedy slot 1 keeps priority, the rest stay oldest first");
        let mut ready = alloc::vec![3, 0];
        gto.order(&cx(&w), &mut ready);
        assert_eq!(ready, [3, 0], "greedy warp stalled: oldest ready");
    }
}
