//! How many warps an SM lets issue, integrated over time: the papers' "active warps" (CIAO
//! Figs. 1b, 9b, 10b; the CCWS paper's throttled warps). A warp is active while it is live and
//! its policy does not hold it back (CIAO's stalled warps, CCWS's warps barred from loading,
//! SWL's warps beyond the limit).
//!
//! The count only changes when the SM runs (an issue, an event its policy hears, a block
//! arriving), so it is taken when the SM runs and held over the cycles it sleeps: the integral
//! is the same with or without the engine's idle skipping.

/// The running integral of active warps over cycles.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ActiveWarps {
    /// Active warps since `since`.
    count: u32,
    since: u64,
    /// Σ active warps × cycles before `since`.
    warp_cycles: u64,
}

impl ActiveWarps {
    /// From cycle `now` on, `count` warps are active.
    pub(super) fn set(&mut self, now: u64, count: u32) {
        if now > self.since {
            self.warp_cycles += self.count as u64 * (now - self.since);
            self.since = now;
        }
        self.count = count;
    }

    /// Σ active warps × cycles up to (not including) `now`.
    pub(super) fn warp_cycles(&self, now: u64) -> u64 {
        self.warp_cycles + self.count as u64 * now.saturating_sub(self.since)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrates_a_step_function() {
        let mut a = ActiveWarps::default();
        a.set(0, 4); // 4 warps over cycles 0..10
        a.set(10, 2); // 2 over 10..15
        a.set(10, 3); // changed again in the same cycle: 3 over 10..15
        a.set(15, 0);
        assert_eq!(a.warp_cycles(15), 4 * 10 + 3 * 5);
        assert_eq!(a.warp_cycles(100), 4 * 10 + 3 * 5, "nothing active after cycle 15");
        a.set(20, 1);
        assert_eq!(a.warp_cycles(22), 4 * 10 + 3 * 5 + 2);
    }
}
