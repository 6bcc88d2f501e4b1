//! The warp-limit axis of the sweep chart: limits on a log₂ scale (1 to 8 a warp apart would
//! crowd the left edge of a linear axis that reaches 48), labelled where the labels fit.

use super::scale::LinearScale;

/// A scale from warp limits (1 to `last`) to pixels, logarithmic: equal ratios take equal
/// widths.
pub fn limit_scale(limits: &[u32], range: (f64, f64)) -> LimitScale {
    let last = limits.iter().copied().max().unwrap_or(1).max(1);
    let first = limits.iter().copied().min().unwrap_or(1).max(1);
    LimitScale(LinearScale::new(((first as f64).log2(), (last as f64).log2()), range))
}

/// Warp limits → pixels (see [`limit_scale`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimitScale(LinearScale);

impl LimitScale {
    /// Pixel position of `limit`.
    pub fn map(&self, limit: f64) -> f64 {
        self.0.map(limit.max(1.0).log2())
    }

    /// The pixel interval.
    pub fn range(&self) -> (f64, f64) {
        self.0.range()
    }
}

/// The limits to label, ascending: the last always (the unlimited scheduler), then powers of
/// two, then the others, each where it is at least `min_gap` pixels from every label chosen
/// before it.
pub fn limit_ticks(limits: &[u32], scale: &LimitScale, min_gap: f64) -> Vec<u32> {
    let mut sorted = limits.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let Some(&last) = sorted.last() else { return Vec::new() };
    let mut ticks = vec![last];
    let (powers, others): (Vec<u32>, Vec<u32>) = sorted.iter().partition(|l| l.is_power_of_two());
    for limit in powers.into_iter().chain(others) {
        let x = scale.map(limit as f64);
        if ticks.iter().all(|&t| (x - scale.map(t as f64)).abs() >= min_gap) {
            ticks.push(limit);
        }
    }
    ticks.sort_unstable();
    ticks
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: [u32; 12] = [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32];

    #[test]
    fn equal_ratios_take_equal_widths() {
        let s = limit_scale(&LIMITS, (0.0, 500.0));
        assert_eq!(s.map(1.0), 0.0);
        assert_eq!(s.map(32.0), 500.0);
        assert_eq!(s.map(2.0), 100.0, "32 is five doublings of 1");
        assert!((s.map(8.0) - s.map(4.0) - (s.map(32.0) - s.map(16.0))).abs() < 1e-9);
        let single = limit_scale(&[1], (0.0, 100.0));
        assert!(single.map(1.0).is_finite(), "one limit does not divide by zero");
    }

    #[test]
    fn labels_are_dropped_where_they_would_touch() {
        let wide = limit_scale(&LIMITS, (0.0, 500.0));
        // 7 is 19 px from 8 at this width: with 20 px needed, the power of two keeps its label.
        assert_eq!(limit_ticks(&LIMITS, &wide, 20.0), [1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32]);
        let narrow = limit_scale(&LIMITS, (0.0, 200.0));
        assert_eq!(limit_ticks(&LIMITS, &narrow, 20.0), [1, 2, 4, 8, 16, 32], "doublings are 40 px apart");
        // 32 and 48 are 23 px apart here: the last, the unlimited scheduler, keeps its label.
        let to_48 = [1, 2, 4, 8, 16, 32, 48];
        assert_eq!(limit_ticks(&to_48, &limit_scale(&to_48, (0.0, 150.0)), 25.0), [1, 2, 4, 8, 16, 48]);
        assert_eq!(limit_ticks(&[], &narrow, 20.0), Vec::<u32>::new());
        assert_eq!(limit_ticks(&[4], &narrow, 20.0), [4]);
    }
}
