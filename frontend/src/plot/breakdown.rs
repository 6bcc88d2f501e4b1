//! Breakdowns as stacked bars, one bar per compared run, as the IKRA paper draws its figures:
//! where global accesses were served (shares of each run's accesses), and network traffic by
//! class (flit-hops, each bar's length relative to the first run's total).

use warpscope_core::claims::AccessLevel;
use warpscope_core::stats::Report;

/// The parts of an access breakdown, nearest first.
pub const ACCESS_PARTS: [&str; 4] = ["L1", "remote L1", "L2", "memory"];
/// The parts of a traffic breakdown.
pub const TRAFFIC_PARTS: [&str; 4] = ["reads", "writes", "write-backs", "ownership"];

/// Accesses `report` counts at each level of [`AccessLevel::ALL`].
pub fn accesses(report: &Report) -> [f64; 4] {
    AccessLevel::ALL.map(|level| level.served(report) as f64)
}

/// The parts of an energy breakdown, the IKRA paper's components.
pub const ENERGY_PARTS: [&str; 5] = ["GPU core+", "L1", "scratchpad", "L2", "network"];

/// `report`'s dynamic energy by component, in [`ENERGY_PARTS`] order.
pub fn energy(report: &Report) -> [f64; 5] {
    report.energy.parts().map(|(_, pj)| pj)
}

/// Flit-hops of each traffic class of `report`, in [`TRAFFIC_PARTS`] order.
pub fn traffic(report: &Report) -> [f64; 4] {
    let n = &report.network;
    [n.read, n.write, n.writeback, n.ownership].map(|t| t.flit_hops as f64)
}

/// How bars are scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Every bar full length; segments are shares of its own total.
    Shares,
    /// Bar lengths relative to the largest total; labels relative to the first bar's total.
    RelativeToFirst,
}

/// One segment of a bar: its part, and its start and width in percent of the track.
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// Index into the parts.
    pub part: usize,
    /// Start, percent of the track.
    pub start: f64,
    /// Width, percent of the track.
    pub width: f64,
    /// Share of its bar's total, 0–1.
    pub share: f64,
}

/// One run's bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Non-empty segments, in part order.
    pub segments: Vec<Segment>,
    /// The bar's total over the first bar's total (`None` when the first is 0).
    pub relative: Option<f64>,
}

/// Bars for `rows` (each run's values by part) under `scale`.
pub fn bars<R: AsRef<[f64]>>(rows: &[R], scale: Scale) -> Vec<Bar> {
    let rows: Vec<&[f64]> = rows.iter().map(|r| r.as_ref()).collect();
    let totals: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
    let largest = totals.iter().cloned().fold(0.0, f64::max);
    let first = totals.first().copied().unwrap_or(0.0);
    rows.iter()
        .zip(&totals)
        .map(|(row, &total)| {
            let length = match scale {
                Scale::Shares if total > 0.0 => 100.0,
                Scale::RelativeToFirst if largest > 0.0 => 100.0 * total / largest,
                _ => 0.0,
            };
            let mut start = 0.0;
            let mut segments = Vec::new();
            for (part, &value) in row.iter().enumerate() {
                if value <= 0.0 || total <= 0.0 {
                    continue;
                }
                let share = value / total;
                let width = length * share;
                segments.push(Segment { part, start, width, share });
                start += width;
            }
            Bar { segments, relative: (first > 0.0).then(|| total / first) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_fill_each_bar_and_relative_bars_scale_to_the_largest() {
        let rows = [[30.0, 10.0, 0.0, 10.0], [5.0, 0.0, 0.0, 20.0], [0.0; 4]];
        let shares = bars(&rows, Scale::Shares);
        // 30, 10 and 10 of 50: 60 %, 20 %, (none), 20 %.
        let s = &shares[0].segments;
        assert_eq!(s.iter().map(|g| g.part).collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!(s.iter().map(|g| g.width).collect::<Vec<_>>(), [60.0, 20.0, 20.0]);
        assert_eq!(s.iter().map(|g| g.start).collect::<Vec<_>>(), [0.0, 60.0, 80.0]);
        assert_eq!(shares[1].relative, Some(0.5), "25 against the first bar's 50");
        assert!(shares[2].segments.is_empty());
        let relative = bars(&rows, Scale::RelativeToFirst);
        // The first bar is the largest (50): full length; the second is half as long.
        assert_eq!(relative[0].segments.iter().map(|g| g.width).sum::<f64>(), 100.0);
        let second: Vec<f64> = relative[1].segments.iter().map(|g| g.width).collect();
        assert_eq!(second, [10.0, 40.0], "5 and 20 of 25, on a bar half the track");
        assert_eq!(relative[1].segments[1].share, 0.8);
    }

    #[test]
    fn a_first_run_with_nothing_gives_no_relative_figure() {
        let b = bars(&[[0.0; 4], [1.0, 0.0, 0.0, 0.0]], Scale::RelativeToFirst);
        assert_eq!((b[0].relative, b[1].relative), (None, None));
        assert_eq!(b[1].segments[0].width, 100.0);
    }
}
