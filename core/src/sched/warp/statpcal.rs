//! statPCAL, the static form of priority-based cache allocation (Li et al., HPCA 2015), as the
//! CIAO paper compares against it (`ciao.md` §3.6): the SM's `tokens` oldest live warps hold a
//! token and use the L1 as usual; every other warp runs too (no warp is held back, so the SM
//! keeps its thread-level parallelism), but its global loads bypass the L1: they may hit a line
//! there, and otherwise go to L2 without allocating, so they cannot push the token warps'
//! lines out. The paper profiles the token count per benchmark; here it is a parameter, and the
//! claim rows take the best of a sweep as the paper's oracle does.
//!
//! Issue order is greedy-then-oldest, as in the paper's baseline.

use alloc::vec::Vec;

use super::gto::Gto;
use super::{oldest_threshold, Issued, ReadyWarps, SmShape, WarpCx, WarpScheduler, WarpSlot};
use crate::events::SmEvent;
use crate::mem::l1::LoadRoute;
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// State: GTO's, the token count, and which slots hold a token.
#[derive(Clone, Debug)]
pub struct StatPcal {
    gto: Gto,
    tokens: usize,
    /// Per warp slot: does its warp hold a token. Worked out when a warp arrives or leaves
    /// (ages never change, so nothing else moves a token).
    token: Vec<bool>,
    /// Scratch: the live warps' ages.
    ages: Vec<u64>,
}

impl StatPcal {
    /// The `tokens` oldest warps allocate in the L1; the others bypass it.
    pub fn new(tokens: u32) -> Self {
        StatPcal { gto: Gto::default(), tokens: tokens.max(1) as usize, token: Vec::new(), ages: Vec::new() }
    }

    /// Hands the tokens to the oldest live warps.
    fn deal(&mut self, cx: &WarpCx<'_>) {
        self.ages.clear();
        self.ages.extend(cx.warps.iter().filter(|w| w.live).map(|w| w.age));
        let threshold = oldest_threshold(&mut self.ages, self.tokens);
        self.token.clear();
        self.token.extend(cx.warps.iter().map(|w| w.live && w.age <= threshold));
    }
}

impl Default for StatPcal {
    fn default() -> Self {
        StatPcal::new(Self::PARAMS[0].default)
    }
}

impl Tunable for StatPcal {
    const PARAMS: &'static [ParamInfo] = &[ParamInfo {
        name: "tokens",
        label: "Token warps",
        unit: "warps",
        description: "How many of the SM's oldest warps may allocate lines in the L1; the other warps run too, but \
                      their loads only use lines already there and otherwise go to L2 without allocating.",
        min: 1,
        max: 64,
        default: 8,
    }];

    fn tuned(values: &ParamValues) -> Self {
        StatPcal::new(values.get("tokens"))
    }
}

impl WarpScheduler for StatPcal {
    fn attach(&mut self, shape: &SmShape) {
        self.gto.attach(shape);
        self.token = alloc::vec![false; shape.warp_slots as usize];
    }

    fn pick(&mut self, cx: &WarpCx<'_>, ready: &ReadyWarps<'_>) -> Option<WarpSlot> {
        self.gto.pick(cx, ready)
    }

    fn on_issue(&mut self, cx: &WarpCx<'_>, slot: WarpSlot, issued: &Issued) {
        self.gto.on_issue(cx, slot, issued);
    }

    fn on_event(&mut self, cx: &WarpCx<'_>, event: &SmEvent) {
        if let SmEvent::WarpAdmit { .. } | SmEvent::WarpExit { .. } = event {
            self.deal(cx);
        }
    }

    fn load_route(&self, slot: WarpSlot) -> LoadRoute {
        match self.token.get(slot as usize) {
            Some(false) => LoadRoute::BypassL1,
            _ => LoadRoute::L1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{attached, cx, warps};
    use super::*;

    fn admitted(policy: &mut StatPcal, w: &[super::super::WarpInfo]) {
        policy.on_event(&cx(w), &SmEvent::WarpAdmit { slot: 0, kernel: 0 });
    }

    #[test]
    fn the_oldest_warps_hold_the_tokens_and_the_rest_bypass() {
        // Slot ages: slot 3 is the oldest.
        let mut w = warps(&[40, 30, 20, 10]);
        let mut p = attached(StatPcal::new(2), 4);
        admitted(&mut p, &w);
        let routes: Vec<LoadRoute> = (0..4).map(|s| p.load_route(s)).collect();
        assert_eq!(routes, [LoadRoute::BypassL1, LoadRoute::BypassL1, LoadRoute::L1, LoadRoute::L1]);
        // The oldest leaves: its token passes to the next oldest.
        w[3].live = false;
        p.on_event(&cx(&w), &SmEvent::WarpExit { slot: 3, kernel: 0 });
        let routes: Vec<LoadRoute> = (0..3).map(|s| p.load_route(s)).collect();
        assert_eq!(routes, [LoadRoute::BypassL1, LoadRoute::L1, LoadRoute::L1]);
    }

    #[test]
    fn no_warp_is_held_back() {
        let w = warps(&[40, 30, 20, 10]);
        let mut p = attached(StatPcal::new(1), 4);
        admitted(&mut p, &w);
        assert_eq!(p.held_warps(), 0);
    }
}
