//! Per-window quantities derived from a [`TimeSeries`]: IPC, hit rates and stall shares, each
//! with the window's cycle span so that charts can place them honestly.

use warpscope_core::stats::{TimeSeries, Window};

/// One window's place on the cycle axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    /// First cycle.
    pub start: f64,
    /// One past the last cycle.
    pub end: f64,
}

impl Span {
    /// The middle cycle, where a line chart puts the window's point.
    pub fn mid(&self) -> f64 {
        (self.start + self.end) / 2.0
    }

    /// Width in cycles.
    pub fn width(&self) -> f64 {
        self.end - self.start
    }
}

/// The cycle span of every window. All but the last are `every` wide; the last may be partial,
/// and its width is inferred from its scheduler cycles (every scheduler counts one per cycle,
/// so a full window's count tells how many schedulers there are). A lone window keeps its
/// nominal width because there is no full window to learn from.
pub fn spans(series: &TimeSeries) -> Vec<Span> {
    let every = series.every.max(1);
    let n = series.windows.len();
    let mut spans: Vec<Span> =
        series.windows.iter().map(|w| Span { start: w.start as f64, end: (w.start + every) as f64 }).collect();
    if n >= 2 {
        let full = series.windows[n - 2].stalls.total();
        let last = series.windows[n - 1].stalls.total();
        if full > 0 {
            let cycles = (last as f64 * every as f64 / full as f64).round().clamp(1.0, every as f64);
            spans[n - 1].end = spans[n - 1].start + cycles;
        }
    }
    spans
}

/// The last cycle the series covers (0 when empty).
pub fn extent(series: &TimeSeries) -> f64 {
    spans(series).last().map_or(0.0, |s| s.end)
}

/// Warp instructions per cycle in each window.
pub fn ipc(series: &TimeSeries) -> Vec<(Span, f64)> {
    spans(series).into_iter().zip(&series.windows).map(|(s, w)| (s, w.warp_instructions as f64 / s.width())).collect()
}

/// One program's rates over time, for programs side by side.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramRates {
    /// Its warp instructions per cycle, at each window's first cycle.
    pub ipc: Vec<(f64, f64)>,
    /// The share of the SMs' cycles their LSUs stalled on its requests (0 to 1), likewise.
    pub lsu_stalled: Vec<(f64, f64)>,
}

/// Most points a program's rate is drawn with: consecutive windows are taken together beyond
/// it, as one window per few pixels is all a chart can show, and a window of a few dozen
/// cycles on a small machine jumps between a handful of values.
pub const PROGRAM_POINTS: usize = 256;

/// The first `programs` programs' rates (at most the series keeps,
/// [`warpscope_core::stats::parts::SERIES_PARTS`]) on a machine of `sm_count` SMs, over
/// groups of consecutive windows, at most [`PROGRAM_POINTS`] of them.
pub fn program_rates(series: &TimeSeries, programs: usize, sm_count: u32) -> Vec<ProgramRates> {
    (0..programs.min(warpscope_core::stats::parts::SERIES_PARTS))
        .map(|p| ProgramRates {
            ipc: grouped_rate(series, &|w| w.parts[p].warp_instructions, 1),
            lsu_stalled: grouped_rate(series, &|w| w.parts[p].lsu_stall_cycles, sm_count),
        })
        .collect()
}

/// The share of the SMs on which each of the first `kernels` co-running kernels had a ready
/// memory instruction waiting at the busy LSU (0 to 1), over groups of consecutive windows as
/// [`program_rates`] takes them.
pub fn held_back(series: &TimeSeries, kernels: usize, sm_count: u32) -> Vec<Vec<(f64, f64)>> {
    (0..kernels.min(warpscope_core::stats::parts::SERIES_PARTS))
        .map(|k| grouped_rate(series, &|w| w.held_back[k], sm_count))
        .collect()
}

/// `count` per cycle and per unit of `per` (SMs; 1 for per cycle), over groups of consecutive
/// windows, at most [`PROGRAM_POINTS`] of them, each at its first cycle.
fn grouped_rate(series: &TimeSeries, count: &dyn Fn(&Window) -> u64, per: u32) -> Vec<(f64, f64)> {
    let group = series.windows.len().div_ceil(PROGRAM_POINTS).max(1);
    let per = f64::from(per.max(1));
    spans(series)
        .chunks(group)
        .zip(series.windows.chunks(group))
        .map(|(s, w)| {
            let width: f64 = s.iter().map(Span::width).sum();
            (s[0].start, w.iter().map(count).sum::<u64>() as f64 / (width * per))
        })
        .collect()
}

/// The launch queues' gauges in each window, at the window's first cycle: the most kernels
/// holding a KDU entry, waiting in the KMU, and DTBL group records (all SMs), in that order.
/// `None` when every window's are zero (no CDP or DTBL launch path, or no device launch).
pub fn launch_queues(series: &TimeSeries) -> Option<[Vec<(f64, f64)>; 3]> {
    if series.windows.iter().all(|w| w.kdu_kernels == 0 && w.kmu_waiting == 0 && w.group_records == 0) {
        return None;
    }
    let gauge = |f: fn(&Window) -> u32| series.windows.iter().map(|w| (w.start as f64, f64::from(f(w)))).collect();
    Some([gauge(|w| w.kdu_kernels), gauge(|w| w.kmu_waiting), gauge(|w| w.group_records)])
}

/// Which cache a hit rate is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The SMs' L1s together.
    L1,
    /// The shared L2.
    L2,
}

impl Level {
    /// Its name in legends.
    pub fn label(self) -> &'static str {
        match self {
            Level::L1 => "L1",
            Level::L2 => "L2",
        }
    }

    fn counts(self, w: &Window) -> (u64, u64) {
        match self {
            Level::L1 => (w.l1_hits, w.l1_misses),
            Level::L2 => (w.l2_hits, w.l2_misses),
        }
    }
}

/// Hit rate (0–1) of `level` in each window; `None` where there were no accesses, so that
/// charts leave a gap rather than invent a zero.
pub fn hit_rate(series: &TimeSeries, level: Level) -> Vec<(Span, Option<f64>)> {
    spans(series)
        .into_iter()
        .zip(&series.windows)
        .map(|(s, w)| {
            let (hits, misses) = level.counts(w);
            let accesses = hits + misses;
            (s, (accesses > 0).then(|| hits as f64 / accesses as f64))
        })
        .collect()
}

/// The stall categories, in stacking order (bottom first), with their legend names.
pub const STALL_CATEGORIES: [(&str, &str); 7] = [
    ("issued", "#16a34a"),
    ("scoreboard", "#60a5fa"),
    ("memory pipeline", "#f59e0b"),
    ("barrier", "#a78bfa"),
    ("throttled", "#ef4444"),
    ("device launch", "#db2777"),
    ("no warp", "#cbd5e1"),
];

/// The position of device launch calls in [`STALL_CATEGORIES`]: shown only for runs that
/// launch from the device.
pub const DEVICE_LAUNCH_CATEGORY: usize = 5;

/// Each window's scheduler cycles split into the shares (summing to 1, or all 0 for a window
/// with no scheduler cycles) of [`STALL_CATEGORIES`], in that order.
pub fn stall_shares(series: &TimeSeries) -> Vec<(Span, [f64; 7])> {
    spans(series)
        .into_iter()
        .zip(&series.windows)
        .map(|(span, w)| {
            let s = &w.stalls;
            let parts = [s.issued, s.scoreboard, s.memory_pipeline, s.barrier, s.throttled, s.device_launch, s.no_warp];
            let total = s.total();
            let shares = if total == 0 { [0.0; 7] } else { parts.map(|p| p as f64 / total as f64) };
            (span, shares)
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use warpscope_core::stats::parts::PartWindow;
    use warpscope_core::stats::StallBreakdown;

    /// A series of `n` windows 100 cycles wide; window `i` issued `10 * (i + 1)` instructions.
    pub(crate) fn sample(n: usize) -> TimeSeries {
        let windows = (0..n)
            .map(|i| Window {
                start: i as u64 * 100,
                warp_instructions: 10 * (i as u64 + 1),
                l1_hits: if i == 1 { 0 } else { 3 },
                l1_misses: if i == 1 { 0 } else { 1 },
                l2_hits: 1,
                l2_misses: 1,
                // Two schedulers: 200 scheduler cycles per full window.
                stalls: StallBreakdown { issued: 50, no_warp: 50, scoreboard: 100, ..StallBreakdown::default() },
                ..Window::default()
            })
            .collect();
        TimeSeries::of_windows(100, windows)
    }

    #[test]
    fn a_programs_rates_are_its_counts_over_each_windows_cycles_and_sms() {
        let mut s = sample(2);
        s.windows[0].parts[0] = PartWindow { warp_instructions: 150, lsu_stall_cycles: 40 };
        s.windows[0].parts[1] = PartWindow { warp_instructions: 50, lsu_stall_cycles: 0 };
        s.windows[1].parts[1] = PartWindow { warp_instructions: 20, lsu_stall_cycles: 100 };
        let rates = program_rates(&s, 2, 4);
        assert_eq!(rates.len(), 2);
        assert_eq!(rates[0].ipc, [(0.0, 1.5), (100.0, 0.0)]);
        // 40 of the 4 SMs' 400 cycles in the first window.
        assert_eq!(rates[0].lsu_stalled, [(0.0, 0.1), (100.0, 0.0)]);
        assert_eq!(rates[1].lsu_stalled, [(0.0, 0.0), (100.0, 0.25)]);
        assert_eq!(program_rates(&s, 9, 4).len(), 4, "the series keeps four programs");
        // Past the most points, consecutive windows go together: 600 windows, 3 a point.
        let mut long = sample(600);
        long.windows.iter_mut().for_each(|w| w.parts[0].warp_instructions = 30);
        long.windows[0].parts[0].warp_instructions = 90;
        let ipc = &program_rates(&long, 1, 4)[0].ipc;
        assert_eq!(ipc.len(), 200);
        assert_eq!((ipc[0], ipc[1]), ((0.0, 150.0 / 300.0), (300.0, 0.3)));
        // Held back on 2 of 4 SMs through the first window: half.
        s.windows[0].held_back[1] = 200;
        assert_eq!(held_back(&s, 2, 4)[1], [(0.0, 0.5), (100.0, 0.0)]);
    }

    #[test]
    fn the_last_window_width_is_inferred_from_scheduler_cycles() {
        let mut s = sample(3);
        s.windows[2].stalls = StallBreakdown { issued: 30, no_warp: 10, ..StallBreakdown::default() };
        let spans = spans(&s);
        assert_eq!(spans[1], Span { start: 100.0, end: 200.0 });
        assert_eq!(spans[2], Span { start: 200.0, end: 220.0 }, "40 scheduler cycles of 2 schedulers");
        assert_eq!(extent(&s), 220.0);
        assert_eq!(ipc(&s)[2].1, 30.0 / 20.0);
    }

    #[test]
    fn empty_and_idle_series_are_safe() {
        let empty = TimeSeries::of_windows(0, vec![]);
        assert!(spans(&empty).is_empty());
        assert_eq!(extent(&empty), 0.0);
        let idle = TimeSeries::of_windows(10, vec![Window::default(), Window { start: 10, ..Window::default() }]);
        assert!(ipc(&idle).iter().all(|(_, v)| *v == 0.0));
        assert!(hit_rate(&idle, Level::L1).iter().all(|(_, v)| v.is_none()));
        assert!(stall_shares(&idle).iter().all(|(_, s)| s.iter().all(|x| *x == 0.0)));
    }

    #[test]
    fn hit_rates_leave_gaps_without_accesses() {
        let rates = hit_rate(&sample(3), Level::L1);
        assert_eq!(rates[0].1, Some(0.75));
        assert_eq!(rates[1].1, None);
        assert_eq!(hit_rate(&sample(3), Level::L2)[1].1, Some(0.5));
    }

    #[test]
    fn stall_shares_sum_to_one() {
        let mut series = sample(2);
        let shares = stall_shares(&series);
        assert_eq!(shares[0].1, [0.25, 0.5, 0.0, 0.0, 0.0, 0.0, 0.25]);
        assert!((shares[1].1.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // Launch calls take their own band, before no warp.
        series.windows[0].stalls.device_launch = 200;
        assert_eq!(stall_shares(&series)[0].1, [0.125, 0.25, 0.0, 0.0, 0.0, 0.5, 0.125]);
        assert_eq!(STALL_CATEGORIES[DEVICE_LAUNCH_CATEGORY].0, "device launch");
    }

    #[test]
    fn launch_queue_gauges_are_per_window_and_absent_when_all_zero() {
        let mut series = sample(3);
        assert_eq!(launch_queues(&series), None);
        series.windows[1].kdu_kernels = 7;
        series.windows[2].group_records = 130;
        let [kdu, kmu, groups] = launch_queues(&series).expect("gauges");
        assert_eq!(kdu, [(0.0, 0.0), (100.0, 7.0), (200.0, 0.0)]);
        assert!(kmu.iter().all(|p| p.1 == 0.0));
        assert_eq!(groups[2], (200.0, 130.0));
    }
}
