//! The time series as CSV, for spreadsheets and scripts.

use std::fmt::Write;

use warpscope_core::stats::TimeSeries;

use crate::plot::series::spans;

/// Column names of [`series_csv`].
pub const SERIES_CSV_HEADER: &str = "start_cycle,end_cycle,warp_instructions,ipc,l1_hits,l1_misses,l1_hit_rate,\
l2_hits,l2_misses,l2_hit_rate,issued,no_warp,scoreboard,memory_pipeline,barrier,throttled,device_launch";

/// One row per window of `series` under [`SERIES_CSV_HEADER`]: raw counts as recorded, plus
/// IPC and hit rates worked out per window (a hit rate is left empty where there were no
/// accesses). The last window's end is inferred as in [`spans`].
pub fn series_csv(series: &TimeSeries) -> String {
    let mut out = String::from(SERIES_CSV_HEADER);
    out.push('\n');
    let rate = |hits: u64, misses: u64| {
        if hits + misses == 0 {
            String::new()
        } else {
            format!("{:.6}", hits as f64 / (hits + misses) as f64)
        }
    };
    for (span, w) in spans(series).iter().zip(&series.windows) {
        let s = &w.stalls;
        let _ = writeln!(
            out,
            "{},{},{},{:.6},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            span.start,
            span.end,
            w.warp_instructions,
            w.warp_instructions as f64 / span.width(),
            w.l1_hits,
            w.l1_misses,
            rate(w.l1_hits, w.l1_misses),
            w.l2_hits,
            w.l2_misses,
            rate(w.l2_hits, w.l2_misses),
            s.issued,
            s.no_warp,
            s.scoreboard,
            s.memory_pipeline,
            s.barrier,
            s.throttled,
            s.device_launch,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::series::tests::sample;

    #[test]
    fn one_row_per_window_under_the_header() {
        let csv = series_csv(&sample(2));
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], SERIES_CSV_HEADER);
        assert_eq!(lines[1], "0,100,10,0.100000,3,1,0.750000,1,1,0.500000,50,50,100,0,0,0,0");
        assert_eq!(lines[2].split(',').nth(6), Some(""), "no L1 accesses: empty hit rate");
        assert!(lines.iter().all(|l| l.split(',').count() == 17));
    }

    #[test]
    fn an_empty_series_is_just_the_header() {
        assert_eq!(series_csv(&TimeSeries::default()), format!("{SERIES_CSV_HEADER}\n"));
    }
}
