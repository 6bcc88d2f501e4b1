//! Greedy-then-oldest (GTO): keep issuing from the warp that issued last while it can; when it
//! stalls, the oldest ready warp (smallest dynamic id) takes over and becomes the greedy one.

use super::{ReadyWarps, WarpCx, WarpScheduler, WarpSlot};
use crate::sched::{ParamValues, Tunable};

/// State: the greedy warp.
#[derive(Clone, Debug, Default)]
pub struct Gto {
    greedy: Option<WarpSlot>,
}

impl WarpScheduler for Gto {
    fn pick(&mut self, _cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        match self.greedy {
            Some(g) if ready.contains(g) => Some(g),
            _ => ready.oldest(),
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
    use super::super::test_support::{cx, members, pick, picks, warps};
    use super::*;

    #[test]
    fn the_greedy_warp_first_then_by_age() {
        // Slot ages: slot 3 is the oldest, slot 0 the youngest.
        let w = warps(&[40, 30, 20, 10]);
        let m = members(&[3, 2, 1, 0], 4);
        let mut gto = Gto::default();
        assert_eq!(pick(&mut gto, &cx(&w), &m, &[3, 2, 1, 0]), Some(3), "nobody issued yet: oldest first");
        gto.on_issue(&cx(&w), 1);
        assert_eq!(pick(&mut gto, &cx(&w), &m, &[3, 1, 0]), Some(1), "greedy slot 1 keeps priority");
        assert_eq!(pick(&mut gto, &cx(&w), &m, &[3, 0]), Some(3), "greedy warp stalled: oldest ready");
        // A wide issue: the greedy warp, then the rest oldest first.
        assert_eq!(picks(&mut gto, &w, &m, &[3, 1, 0]), [1, 3, 0]);
    }
}
