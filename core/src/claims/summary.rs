//! A paper's headline averages, ours beside the paper's: the table a paper opens its results
//! with (LaPerm's normalised IPC and hit-rate changes per policy and launch path), each of our
//! figures measured on the runs of one claim row, so it costs no run of its own and cannot be
//! typed.

use alloc::vec::Vec;

use super::judge::num;
use super::{Claim, Metric, Paper};

/// How one of our figures is computed from a row's runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Quantity {
    /// `metric(variant)` as a geometric mean over the row's workloads (the CKE paper's mean
    /// weighted speedup).
    Mean {
        /// What is averaged.
        metric: Metric,
        /// The variant's label.
        variant: &'static str,
    },
    /// `metric(a) / metric(b)`, as a geometric mean over the row's workloads.
    Ratio {
        /// What is compared.
        metric: Metric,
        /// Numerator variant's label.
        a: &'static str,
        /// Denominator variant's label.
        b: &'static str,
    },
    /// `metric(a) − metric(b)` in percentage points, as an arithmetic mean over the row's
    /// workloads: a rate's change, as the papers quote hit rates ("+8.7 %").
    Points {
        /// A rate (a share between 0 and 1).
        metric: Metric,
        /// The variant whose change it is.
        a: &'static str,
        /// The variant it is measured from.
        b: &'static str,
    },
}

/// One cell: our quantity and the paper's figure for it, as the paper gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// What we measure.
    pub ours: Quantity,
    /// The paper's value, as text ("1.13", "≈ TB-Pri's", "not given").
    pub paper: &'static str,
}

/// A line of the table: one quantity, a figure per column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// What the line shows ("TB-Pri: normalised IPC").
    pub quantity: &'static str,
    /// One per column of the table.
    pub figures: &'static [Figure],
}

/// A paper's table of averages, measured on the runs of one row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The paper.
    pub paper: Paper,
    /// The row whose runs supply our figures (it must name every variant the figures do).
    pub claim: &'static str,
    /// The columns' headings (a launch path, a machine).
    pub columns: &'static [&'static str],
    /// The lines.
    pub lines: &'static [Line],
    /// How ours is averaged and over what, against how the paper averages.
    pub note: &'static str,
}

/// Every paper's summary table.
pub fn all() -> &'static [Summary] {
    &[super::laperm::SUMMARY, super::cke::SUMMARY_WS, super::cke::SUMMARY_SMK]
}

/// The summary measured on `claim`'s runs, if one is.
pub fn for_claim(id: &str) -> Option<&'static Summary> {
    all().iter().find(|s| s.claim == id)
}

impl Quantity {
    /// The quantity over `claim`'s workloads, from `value(workload, variant, metric)`;
    /// `None` if a run is missing or a label is not one of the row's variants.
    pub fn measure(self, claim: &Claim, value: &dyn Fn(usize, usize, Metric) -> Option<f64>) -> Option<f64> {
        let (metric, a, b) = match self {
            Quantity::Ratio { metric, a, b } | Quantity::Points { metric, a, b } => (metric, a, b),
            // A mean reads one variant: its own value stands in for the denominator.
            Quantity::Mean { metric, variant } => (metric, variant, variant),
        };
        let (a, b) = (claim.variant(a)?, claim.variant(b)?);
        let n = claim.workloads.len();
        if n == 0 {
            return None;
        }
        let mut sum = 0.0;
        for w in 0..n {
            let (x, y) = (value(w, a, metric)?, value(w, b, metric)?);
            sum += match self {
                Quantity::Ratio { .. } if x > 0.0 && y > 0.0 => libm::log(x / y),
                Quantity::Mean { .. } if x > 0.0 => libm::log(x),
                Quantity::Ratio { .. } | Quantity::Mean { .. } => return None,
                Quantity::Points { .. } => 100.0 * (x - y),
            };
        }
        let mean = sum / n as f64;
        Some(match self {
            Quantity::Ratio { .. } | Quantity::Mean { .. } => libm::exp(mean),
            Quantity::Points { .. } => mean,
        })
    }

    /// `value` as the table shows it: a ratio to three significant digits, a change in points
    /// signed, to one decimal.
    pub fn show(self, value: f64) -> alloc::string::String {
        match self {
            Quantity::Ratio { .. } | Quantity::Mean { .. } => num(value),
            // A change that rounds to nothing has no sign.
            Quantity::Points { .. } if value.is_finite() && libm::fabs(value) < 0.05 => "0.0".into(),
            Quantity::Points { .. } if value.is_finite() => alloc::format!("{value:+.1}"),
            Quantity::Points { .. } => num(value),
        }
    }
}

impl Summary {
    /// Our figure for every cell, line by line, from `value` over the runs of `claim` (the
    /// summary's row).
    pub fn measure(&self, claim: &Claim, value: &dyn Fn(usize, usize, Metric) -> Option<f64>) -> Vec<Vec<Option<f64>>> {
        self.lines.iter().map(|line| line.figures.iter().map(|f| f.ours.measure(claim, value)).collect()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::{by_id, policies, workload, Status, Variant, WorkloadSize};

    #[test]
    fn every_summary_reads_a_row_of_its_paper_that_runs_every_variant_it_names() {
        for summary in all() {
            let claim = by_id(summary.claim).unwrap_or_else(|| panic!("{} is not a row", summary.claim));
            assert_eq!(claim.paper, summary.paper, "{}", summary.claim);
            assert!(claim.runs(), "{} is pending: nothing to measure", summary.claim);
            for line in summary.lines {
                assert_eq!(line.figures.len(), summary.columns.len(), "{}", line.quantity);
                for figure in line.figures {
                    let (metric, a, b) = match figure.ours {
                        Quantity::Ratio { metric, a, b } | Quantity::Points { metric, a, b } => (metric, a, b),
                        Quantity::Mean { metric, variant } => (metric, variant, variant),
                    };
                    assert!(metric.available(), "{}", line.quantity);
                    for label in [a, b] {
                        assert!(claim.variant(label).is_some(), "{}: {label} is not a variant", line.quantity);
                    }
                }
            }
        }
    }

    const TWO: &[WorkloadSize] = &[workload("vecadd"), workload("copy")];
    const AB: &[Variant] = &[policies("A", "rr", "gto"), policies("B", "rr", "gto")];
    const ROW: Claim = Claim {
        id: "test-row",
        paper: Paper::Laperm,
        statement: "",
        paper_says: "",
        workloads: TWO,
        machine: "laperm-k20c",
        settings: &[],
        variants: AB,
        checks: &[],
        status: Status::Pass,
        headline: false,
    };

    #[test]
    fn ratios_are_geometric_means_and_changes_arithmetic_means_in_points() {
        // Workload 0: A = 2, B = 1 (and rates 0.50 / 0.40); workload 1: A = 1, B = 2 (0.30 / 0.35).
        let value = |w: usize, v: usize, m: Metric| {
            Some(match (m, w, v) {
                (Metric::Ipc, 0, 0) | (Metric::Ipc, 1, 1) => 2.0,
                (Metric::Ipc, _, _) => 1.0,
                (_, 0, 0) => 0.50,
                (_, 0, 1) => 0.40,
                (_, 1, 0) => 0.30,
                _ => 0.35,
            })
        };
        let ratio = Quantity::Ratio { metric: Metric::Ipc, a: "A", b: "B" };
        // 2/1 and 1/2: their geometric mean is 1 (an arithmetic mean would say 1.25).
        assert!((ratio.measure(&ROW, &value).expect("measured") - 1.0).abs() < 1e-12);
        let points = Quantity::Points { metric: Metric::L1HitRate, a: "A", b: "B" };
        // +10 and −5 points: +2.5 on average.
        let change = points.measure(&ROW, &value).expect("measured");
        assert!((change - 2.5).abs() < 1e-9, "{change}");
        assert_eq!(points.show(change), "+2.5");
        assert_eq!(points.show(-0.04), "0.0");
        assert_eq!(points.show(-1.25), "-1.2");
        assert_eq!(ratio.show(0.96123), "0.961");
        // A's IPCs 2 and 1: geometric mean √2.
        let mean = Quantity::Mean { metric: Metric::Ipc, variant: "A" };
        assert!((mean.measure(&ROW, &value).expect("measured") - core::f64::consts::SQRT_2).abs() < 1e-12);
    }

    #[test]
    fn a_missing_run_or_an_unknown_variant_leaves_the_cell_empty() {
        let partial = |w: usize, _: usize, _: Metric| if w == 1 { None } else { Some(1.0) };
        assert_eq!(Quantity::Ratio { metric: Metric::Ipc, a: "A", b: "B" }.measure(&ROW, &partial), None);
        let full = |_: usize, _: usize, _: Metric| Some(1.0);
        assert_eq!(Quantity::Ratio { metric: Metric::Ipc, a: "A", b: "C" }.measure(&ROW, &full), None);
    }
}
