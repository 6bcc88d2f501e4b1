//! Linear scales, "nice" axis ticks and tick labels.

/// Maps a data interval (`domain`) linearly onto a pixel interval (`range`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearScale {
    domain: (f64, f64),
    range: (f64, f64),
}

impl LinearScale {
    /// A scale from `domain` to `range`. An empty or non-finite domain is widened to one unit
    /// so that mapping never divides by zero.
    pub fn new(domain: (f64, f64), range: (f64, f64)) -> Self {
        let (lo, hi) = domain;
        let domain = if lo.is_finite() && hi.is_finite() && hi > lo {
            domain
        } else if lo.is_finite() {
            (lo, lo + 1.0)
        } else {
            (0.0, 1.0)
        };
        LinearScale { domain, range }
    }

    /// The (possibly widened) data interval.
    pub fn domain(&self) -> (f64, f64) {
        self.domain
    }

    /// The pixel interval.
    pub fn range(&self) -> (f64, f64) {
        self.range
    }

    /// Pixel position of data value `v`.
    pub fn map(&self, v: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        r0 + (v - d0) / (d1 - d0) * (r1 - r0)
    }

    /// Data value at pixel position `px`.
    pub fn invert(&self, px: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if r1 == r0 {
            return d0;
        }
        d0 + (px - r0) / (r1 - r0) * (d1 - d0)
    }

    /// Data units per pixel (for tolerances in hit-testing).
    pub fn per_pixel(&self) -> f64 {
        let (d0, d1) = self.domain;
        let span = (self.range.1 - self.range.0).abs();
        if span == 0.0 {
            0.0
        } else {
            (d1 - d0) / span
        }
    }
}

/// A step of 1, 2 or 5 × 10ⁿ that cuts `span` into about `target` intervals.
pub fn nice_step(span: f64, target: usize) -> f64 {
    if !span.is_finite() || span <= 0.0 {
        return 1.0;
    }
    let raw = span / target.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let fraction = raw / magnitude;
    let nice = if fraction <= 1.0 {
        1.0
    } else if fraction <= 2.0 {
        2.0
    } else if fraction <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// Multiples of a nice step inside `[lo, hi]` (both ends included when they fall on a step),
/// about `target` of them.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !lo.is_finite() || !hi.is_finite() || hi < lo {
        return Vec::new();
    }
    if hi == lo {
        return vec![lo];
    }
    let step = nice_step(hi - lo, target);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

/// `hi` rounded up to a nice step, for the top of a y axis; 1 when there is no data.
pub fn nice_ceiling(hi: f64, target: usize) -> f64 {
    if !hi.is_finite() || hi <= 0.0 {
        return 1.0;
    }
    let step = nice_step(hi, target);
    (hi / step - 1e-9).ceil().max(1.0) * step
}

/// The smallest "round" stride (1, 2, 5, 10, 20, 50, …) of at least `at_least`: labels on every
/// such row (SM 0, 5, 10, …) are easier to count along than every third.
pub fn label_stride(at_least: usize) -> usize {
    let mut decade = 1;
    loop {
        for step in [1, 2, 5] {
            if step * decade >= at_least {
                return step * decade;
            }
        }
        decade *= 10;
    }
}

/// A cycle count for an axis: `950`, `1.2k`, `3.4M`, `2G` (no trailing `.0`).
pub fn format_cycles(cycles: f64) -> String {
    let (value, unit) = match cycles.abs() {
        a if a >= 1e9 => (cycles / 1e9, "G"),
        a if a >= 1e6 => (cycles / 1e6, "M"),
        a if a >= 1e3 => (cycles / 1e3, "k"),
        _ => (cycles, ""),
    };
    let text = format!("{value:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text}{unit}")
}

/// A tick value with just enough decimals for ticks `step` apart (`0.25` → two decimals).
pub fn format_tick(value: f64, step: f64) -> String {
    let decimals = if step > 0.0 && step.is_finite() { (-step.log10().floor()).clamp(0.0, 6.0) as usize } else { 0 };
    format!("{value:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_strides_are_round() {
        let strides: Vec<usize> = [0, 1, 2, 3, 4, 5, 6, 11, 21, 51, 101].into_iter().map(label_stride).collect();
        assert_eq!(strides, [1, 1, 2, 5, 5, 5, 10, 20, 50, 100, 200]);
    }

    #[test]
    fn maps_and_inverts() {
        let s = LinearScale::new((0.0, 100.0), (10.0, 210.0));
        assert_eq!(s.map(50.0), 110.0);
        assert_eq!(s.invert(110.0), 50.0);
        assert_eq!(s.per_pixel(), 0.5);
    }

    #[test]
    fn an_empty_domain_does_not_divide_by_zero() {
        let s = LinearScale::new((5.0, 5.0), (0.0, 100.0));
        assert!(s.map(5.0).is_finite());
        assert_eq!(s.domain(), (5.0, 6.0));
        let s = LinearScale::new((f64::NAN, 1.0), (0.0, 100.0));
        assert_eq!(s.domain(), (0.0, 1.0));
    }

    #[test]
    fn steps_are_one_two_or_five() {
        assert_eq!(nice_step(100.0, 5), 20.0);
        assert_eq!(nice_step(1.0, 4), 0.5);
        assert_eq!(nice_step(7_300.0, 5), 2_000.0);
        assert_eq!(nice_step(0.0, 5), 1.0);
    }

    #[test]
    fn ticks_cover_the_interval() {
        assert_eq!(nice_ticks(0.0, 100.0, 5), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(nice_ticks(0.0, 7_300.0, 5), vec![0.0, 2_000.0, 4_000.0, 6_000.0]);
        assert_eq!(nice_ticks(3.0, 3.0, 5), vec![3.0]);
        assert!(nice_ticks(1.0, 0.0, 5).is_empty());
        assert!(nice_ticks(0.0, f64::INFINITY, 5).is_empty());
    }

    #[test]
    fn ceilings_are_nice() {
        assert_eq!(nice_ceiling(3.7, 4), 4.0);
        assert_eq!(nice_ceiling(0.0, 4), 1.0);
        assert_eq!(nice_ceiling(f64::NAN, 4), 1.0);
        assert!((nice_ceiling(0.3, 4) - 0.3).abs() < 1e-12);
    }

    #[test]
    fn cycles_read_short() {
        assert_eq!(format_cycles(0.0), "0");
        assert_eq!(format_cycles(950.0), "950");
        assert_eq!(format_cycles(1_200.0), "1.2k");
        assert_eq!(format_cycles(2_000.0), "2k");
        assert_eq!(format_cycles(3_400_000.0), "3.4M");
        assert_eq!(format_cycles(2e9), "2G");
    }

    #[test]
    fn tick_labels_have_the_decimals_the_step_needs() {
        assert_eq!(format_tick(0.5, 0.5), "0.5");
        assert_eq!(format_tick(0.25, 0.05), "0.25");
        assert_eq!(format_tick(40.0, 20.0), "40");
    }
}
