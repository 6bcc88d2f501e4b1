//! Deciding a claim from its runs' measurements: each [`Check`] combines the workloads' values
//! ([`Across`]) and tests a [`Relation`] between the variants, and says in a line what it saw.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use super::{Check, Claim, Metric};
use crate::stats::Report;

/// How the values of a claim's workloads combine before the relation is tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Across {
    /// The relation must hold on every workload by itself.
    Each,
    /// On the harmonic mean over the workloads (the CCWS paper's HMEAN of IPC).
    HarmonicMean,
    /// On the geometric mean over the workloads.
    GeometricMean,
    /// On the arithmetic mean over the workloads.
    Mean,
}

/// What must hold between the variants' values (variants named by label).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Relation {
    /// `a / b ≥ min`.
    RatioAtLeast {
        /// Numerator variant.
        a: &'static str,
        /// Denominator variant.
        b: &'static str,
        /// Lower bound.
        min: f64,
    },
    /// `a / b ≤ max`.
    RatioAtMost {
        /// Numerator variant.
        a: &'static str,
        /// Denominator variant.
        b: &'static str,
        /// Upper bound.
        max: f64,
    },
    /// `min ≤ a / b ≤ max`.
    RatioBetween {
        /// Numerator variant.
        a: &'static str,
        /// Denominator variant.
        b: &'static str,
        /// Lower bound.
        min: f64,
        /// Upper bound.
        max: f64,
    },
    /// `|a / b − 1| ≤ tolerance`: the same within a tolerance.
    Close {
        /// One variant.
        a: &'static str,
        /// The other.
        b: &'static str,
        /// Largest relative difference.
        tolerance: f64,
    },
    /// `min ≤ value ≤ max` for one variant (use infinities for one-sided bounds).
    Between {
        /// The variant.
        variant: &'static str,
        /// Lower bound.
        min: f64,
        /// Upper bound.
        max: f64,
    },
    /// Along `variants`, each value is at least the previous one × (1 − `slack`), and the
    /// last is above the first: a rising trend that tolerates small dips.
    Rising {
        /// The variants, in the order of the trend.
        variants: &'static [&'static str],
        /// Largest tolerated relative dip between neighbours.
        slack: f64,
    },
    /// Along `variants`, each value is at most the previous one × (1 + `slack`), and the last
    /// is below the first.
    Falling {
        /// The variants, in the order of the trend.
        variants: &'static [&'static str],
        /// Largest tolerated relative rise between neighbours.
        slack: f64,
    },
    /// Along `pairs`, the ratio `a / b` of each pair is at least the previous pair's × (1 −
    /// `slack`), and the last is above the first: a speedup that grows with something the
    /// pairs step through (an input size, a cache size).
    RatiosRising {
        /// `(a, b)` variant pairs, in the order of the trend.
        pairs: &'static [(&'static str, &'static str)],
        /// Largest tolerated relative dip between neighbours.
        slack: f64,
    },
    /// Along `pairs`, each ratio `a / b` is at most the previous one × (1 + `slack`), and the
    /// last is below the first.
    RatiosFalling {
        /// `(a, b)` variant pairs, in the order of the trend.
        pairs: &'static [(&'static str, &'static str)],
        /// Largest tolerated relative rise between neighbours.
        slack: f64,
    },
    /// The largest value among `variants` is above the values at both ends by more than
    /// `margin` (relative): a peak, not a plateau that wobbles.
    InteriorMaximum {
        /// The variants, in sweep order.
        variants: &'static [&'static str],
        /// How far the peak must rise above the larger end, relative to it.
        margin: f64,
    },
    /// The smallest value among `variants` is `at`'s (ties count for `at`).
    MinimumAt {
        /// The variants.
        variants: &'static [&'static str],
        /// The one expected smallest.
        at: &'static str,
    },
}

impl Relation {
    /// Every variant label it names.
    pub fn labels(&self) -> Vec<&'static str> {
        match *self {
            Relation::RatioAtLeast { a, b, .. }
            | Relation::RatioAtMost { a, b, .. }
            | Relation::RatioBetween { a, b, .. }
            | Relation::Close { a, b, .. } => alloc::vec![a, b],
            Relation::Between { variant, .. } => alloc::vec![variant],
            Relation::Rising { variants, .. }
            | Relation::Falling { variants, .. }
            | Relation::InteriorMaximum { variants, .. } => variants.to_vec(),
            Relation::MinimumAt { variants, at } => {
                let mut all = variants.to_vec();
                all.push(at);
                all
            }
            Relation::RatiosRising { pairs, .. } | Relation::RatiosFalling { pairs, .. } => {
                pairs.iter().flat_map(|&(a, b)| [a, b]).collect()
            }
        }
    }

    /// What is expected, for a person.
    pub fn describe(&self) -> String {
        match *self {
            Relation::RatioAtLeast { a, b, min } => alloc::format!("{a}/{b} ≥ {}", num(min)),
            Relation::RatioAtMost { a, b, max } => alloc::format!("{a}/{b} ≤ {}", num(max)),
            Relation::RatioBetween { a, b, min, max } => alloc::format!("{}–{} for {a}/{b}", num(min), num(max)),
            Relation::Close { a, b, tolerance } => alloc::format!("{a} within {} % of {b}", num(tolerance * 100.0)),
            Relation::Between { variant, min, max } => match (min.is_finite(), max.is_finite()) {
                (true, true) => alloc::format!("{variant} in {}–{}", num(min), num(max)),
                (true, false) => alloc::format!("{variant} ≥ {}", num(min)),
                _ => alloc::format!("{variant} ≤ {}", num(max)),
            },
            Relation::Rising { variants, slack } => {
                alloc::format!("rising along {} (dips ≤ {} %)", variants.join(", "), num(slack * 100.0))
            }
            Relation::Falling { variants, slack } => {
                alloc::format!("falling along {} (rises ≤ {} %)", variants.join(", "), num(slack * 100.0))
            }
            Relation::InteriorMaximum { variants, margin } => alloc::format!(
                "maximum inside {}…{}, > {} % above both ends",
                first(variants),
                last(variants),
                num(margin * 100.0)
            ),
            Relation::MinimumAt { at, .. } => alloc::format!("minimum at {at}"),
            Relation::RatiosRising { pairs, slack } | Relation::RatiosFalling { pairs, slack } => {
                let ratios: Vec<String> = pairs.iter().map(|(a, b)| alloc::format!("{a}/{b}")).collect();
                let (trend, change) = if matches!(self, Relation::RatiosRising { .. }) {
                    ("rising", "dips")
                } else {
                    ("falling", "rises")
                };
                alloc::format!("{trend} along {} ({change} ≤ {} %)", ratios.join(", "), num(slack * 100.0))
            }
        }
    }

    /// Whether it holds for `value(label)`, and the line that shows what was seen.
    fn test(&self, value: &dyn Fn(&str) -> f64) -> (bool, String) {
        match *self {
            Relation::RatioAtLeast { a, b, min } => {
                let r = value(a) / value(b);
                (r >= min, alloc::format!("{a}/{b} = {}", num(r)))
            }
            Relation::RatioAtMost { a, b, max } => {
                let r = value(a) / value(b);
                (r <= max, alloc::format!("{a}/{b} = {}", num(r)))
            }
            Relation::RatioBetween { a, b, min, max } => {
                let r = value(a) / value(b);
                ((min..=max).contains(&r), alloc::format!("{a}/{b} = {}", num(r)))
            }
            Relation::Close { a, b, tolerance } => {
                let r = value(a) / value(b);
                ((r - 1.0).abs() <= tolerance, alloc::format!("{a}/{b} = {}", num(r)))
            }
            Relation::Between { variant, min, max } => {
                let v = value(variant);
                (min <= v && v <= max, alloc::format!("{variant} = {}", num(v)))
            }
            Relation::Rising { .. }
            | Relation::Falling { .. }
            | Relation::RatiosRising { .. }
            | Relation::RatiosFalling { .. } => {
                let (rising, slack, values): (bool, f64, Vec<f64>) = match *self {
                    Relation::Rising { variants, slack } => (true, slack, variants.iter().map(|&v| value(v)).collect()),
                    Relation::Falling { variants, slack } => {
                        (false, slack, variants.iter().map(|&v| value(v)).collect())
                    }
                    Relation::RatiosRising { pairs, slack } => {
                        (true, slack, pairs.iter().map(|&(a, b)| value(a) / value(b)).collect())
                    }
                    Relation::RatiosFalling { pairs, slack } => {
                        (false, slack, pairs.iter().map(|&(a, b)| value(a) / value(b)).collect())
                    }
                    _ => unreachable!("matched above"),
                };
                let steps = values.windows(2).all(|w| match rising {
                    true => w[1] >= w[0] * (1.0 - slack),
                    false => w[1] <= w[0] * (1.0 + slack),
                });
                let (a, z) = (values.first().copied().unwrap_or(0.0), values.last().copied().unwrap_or(0.0));
                let overall = if rising { z > a } else { z < a };
                (steps && overall, series(&values))
            }
            Relation::InteriorMaximum { variants, margin } => {
                let values: Vec<f64> = variants.iter().map(|&v| value(v)).collect();
                let best = argmax(&values);
                let ends = values.first().copied().unwrap_or(0.0).max(values.last().copied().unwrap_or(0.0));
                let holds = values.len() >= 3 && values[best] > ends * (1.0 + margin);
                (holds, alloc::format!("max at {} ({})", variants[best], series(&values)))
            }
            Relation::MinimumAt { variants, at } => {
                let values: Vec<f64> = variants.iter().map(|&v| value(v)).collect();
                let low = values.iter().copied().fold(f64::INFINITY, f64::min);
                let holds = value(at) <= low;
                let best = values.iter().position(|&v| v == low).unwrap_or(0);
                (holds, alloc::format!("min at {} ({})", variants[best], series(&values)))
            }
        }
    }
}

/// What one check found.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckOutcome {
    /// Whether the relation held (on every workload, for [`Across::Each`]).
    pub holds: bool,
    /// The measured values in a line: `memcached: GTO/LRR = 6.44; bfs: GTO/LRR = 1.01`.
    pub seen: String,
}

/// A claim's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Every check held.
    pub holds: bool,
    /// Each check's outcome, in the claim's order.
    pub checks: Vec<CheckOutcome>,
}

/// Decides `claim` from `value(workload index, variant index, metric)`, the measurement of
/// each of its runs. A measurement that is missing fails its check.
pub fn judge(claim: &Claim, value: &dyn Fn(usize, usize, Metric) -> Option<f64>) -> Verdict {
    let checks: Vec<CheckOutcome> = claim.checks.iter().map(|check| judge_check(claim, check, value)).collect();
    Verdict { holds: !checks.is_empty() && checks.iter().all(|c| c.holds), checks }
}

/// [`judge`] over the reports of the claim's runs: `report(i)` is that of run `i` of
/// [`super::plan::runs`], if it finished. The native reproduction and the gallery both judge so.
pub fn judge_reports<'r>(claim: &Claim, report: &dyn Fn(usize) -> Option<&'r Report>) -> Verdict {
    judge(claim, &|w, v, metric| measure_run(claim, report, w, v, metric))
}

/// `metric` of workload `w` under variant `v`, read off the reports of the claim's runs as
/// [`judge_reports`] reads them: over the workload's named kernels only, if it names some, and
/// for a best-of variant, that of its member with the highest IPC.
pub fn measure_run<'r>(
    claim: &Claim,
    report: &dyn Fn(usize) -> Option<&'r Report>,
    w: usize,
    v: usize,
    metric: Metric,
) -> Option<f64> {
    let measured = |w: usize, v: usize, metric: Metric| {
        if metric.needs_solo_runs() {
            let parts = claim.workloads[w].id.split('+').count();
            let solos: Option<Vec<&Report>> =
                (0..parts).map(|p| report(super::plan::solo_index(claim, w, v, p)?)).collect();
            return metric.measure_co_run(report(super::plan::index(claim, w, v))?, &solos?);
        }
        let kernels = claim.workloads[w].kernels;
        let report = report(super::plan::index(claim, w, v))?;
        if kernels.is_empty() {
            metric.measure(report)
        } else {
            metric.measure(&report.region(kernels))
        }
    };
    match claim.variants[v].best_of {
        [] => measured(w, v, metric),
        members => measured(w, best_member(claim, members, &|m| measured(w, m, Metric::Ipc))?, metric),
    }
}

/// Of the variants labelled `members`, the one with the highest IPC by `ipc(variant index)`
/// (the first on a tie); `None` if one of them has no measurement.
fn best_member(claim: &Claim, members: &[&str], ipc: &dyn Fn(usize) -> Option<f64>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for label in members {
        let m = claim.variant(label)?;
        let value = ipc(m)?;
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((m, value));
        }
    }
    best.map(|(m, _)| m)
}

fn judge_check(claim: &Claim, check: &Check, value: &dyn Fn(usize, usize, Metric) -> Option<f64>) -> CheckOutcome {
    let workloads: Vec<usize> = (0..claim.workloads.len())
        .filter(|&w| check.on.is_empty() || check.on.contains(&claim.workloads[w].name()))
        .collect();
    // Values by variant for each group of workloads the relation is tested on.
    let groups: Vec<(String, Vec<usize>)> = match check.across {
        Across::Each => workloads.iter().map(|&w| (String::from(claim.workloads[w].name()), alloc::vec![w])).collect(),
        across => {
            let name = match across {
                Across::HarmonicMean => "harmonic mean",
                Across::GeometricMean => "geometric mean",
                _ => "mean",
            };
            alloc::vec![(String::from(name), workloads)]
        }
    };
    let mut holds = !groups.is_empty();
    let mut seen = String::new();
    for (name, members) in &groups {
        let mut missing = false;
        let named = check.relation.labels();
        let per_variant: Vec<f64> = (0..claim.variants.len())
            .map(|v| {
                // Only the variants the relation names need a value (a kernel may not run in others).
                if !named.contains(&claim.variants[v].label) {
                    return f64::NAN;
                }
                let values: Vec<f64> = members
                    .iter()
                    .filter_map(|&w| {
                        let x = value(w, v, check.metric);
                        missing |= x.is_none();
                        x
                    })
                    .collect();
                combine(check.across, &values)
            })
            .collect();
        if !seen.is_empty() {
            seen.push_str("; ");
        }
        let _ = write!(seen, "{name}: ");
        if missing {
            holds = false;
            seen.push_str("not measured");
            continue;
        }
        let lookup = |label: &str| claim.variant(label).map_or(f64::NAN, |i| per_variant[i]);
        let (ok, line) = check.relation.test(&lookup);
        holds &= ok;
        seen.push_str(&line);
    }
    CheckOutcome { holds, seen }
}

fn combine(across: Across, values: &[f64]) -> f64 {
    let n = values.len() as f64;
    match across {
        Across::Each | Across::Mean => values.iter().sum::<f64>() / n,
        Across::HarmonicMean => n / values.iter().map(|v| 1.0 / v).sum::<f64>(),
        Across::GeometricMean => libm::exp(values.iter().map(|&v| libm::log(v)).sum::<f64>() / n),
    }
}

fn argmax(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

fn first(labels: &[&'static str]) -> &'static str {
    labels.first().copied().unwrap_or("")
}

fn last(labels: &[&'static str]) -> &'static str {
    labels.last().copied().unwrap_or("")
}

/// `a → b → c`.
fn series(values: &[f64]) -> String {
    let mut out = String::new();
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(" → ");
        }
        out.push_str(&num(v));
    }
    out
}

/// Three significant digits, without an exponent for the magnitudes claims meet.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return String::from(if v.is_nan() { "n/a" } else { "∞" });
    }
    let magnitude = libm::fabs(v);
    let decimals = if magnitude >= 100.0 {
        0
    } else if magnitude >= 10.0 {
        1
    } else if magnitude >= 1.0 {
        2
    } else {
        3
    };
    alloc::format!("{v:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::{check, warp, workload, Claim, Paper, Status, WorkloadSize};

    const XY: &[WorkloadSize] = &[workload("x"), workload("y")];

    const SWEEP: &[&str] = &["L1", "L2", "L4", "L8"];
    const VARIANTS: &[crate::claims::Variant] =
        &[warp("L1", "swl:limit=1"), warp("L2", "swl:limit=2"), warp("L4", "swl:limit=4"), warp("L8", "swl:limit=8")];

    fn claim(checks: &'static [Check]) -> Claim {
        Claim {
            id: "t-1-1",
            paper: Paper::Ccws,
            statement: "s",
            paper_says: "p",
            workloads: XY,
            machine: "ccws-fermi",
            settings: &[],
            variants: VARIANTS,
            checks,
            status: Status::Pass,
            headline: false,
        }
    }

    /// Workload x peaks at L4; workload y rises throughout.
    fn ipc(w: usize, v: usize, _: Metric) -> Option<f64> {
        Some(match w {
            0 => [1.0, 2.0, 4.0, 3.0][v],
            _ => [1.0, 2.0, 3.0, 4.0][v],
        })
    }

    #[test]
    fn an_oracle_variant_measures_each_workloads_fastest_member() {
        const WITH_BEST: &[crate::claims::Variant] = &[
            warp("L1", "swl:limit=1"),
            warp("L2", "swl:limit=2"),
            warp("L4", "swl:limit=4"),
            warp("L8", "swl:limit=8"),
            crate::claims::best_of("Best", SWEEP),
        ];
        const CHECKS: &[Check] = &[
            check(Metric::L1Mpki, Across::Each, Relation::RatioBetween { a: "Best", b: "L4", min: 1.0, max: 1.0 }),
            check(Metric::L1Mpki, Across::Each, Relation::RatioBetween { a: "Best", b: "L8", min: 1.0, max: 1.0 }),
        ];
        let claim = Claim { variants: WITH_BEST, ..claim(CHECKS) };
        // Run `w * 5 + v`: IPC as `ipc` says (x peaks at L4, y at L8), and misses that tell the
        // variants apart; the oracle's own slot (v = 4) must not be read as a measurement.
        let reports: Vec<Report> = (0..10)
            .map(|i| {
                let (w, v) = (i / 5, i % 5);
                let ipc = if v < 4 { ipc(w, v, Metric::Ipc).unwrap() } else { 100.0 };
                Report {
                    cycles: (12_000.0 / ipc) as u64,
                    warp_instructions: 12_000,
                    l1: crate::mem::l1::L1Stats { misses: 10 * (v as u64 + 1), ..Default::default() },
                    ..Report::default()
                }
            })
            .collect();
        let v = judge_reports(&claim, &|i| reports.get(i));
        // Best = L4 on x (so the first check holds there, the second not), L8 on y.
        assert!(!v.checks[0].holds && !v.checks[1].holds, "{} / {}", v.checks[0].seen, v.checks[1].seen);
        assert_eq!(v.checks[0].seen, "x: Best/L4 = 1.00; y: Best/L4 = 1.33");
        assert_eq!(v.checks[1].seen, "x: Best/L8 = 0.750; y: Best/L8 = 1.00");
        assert_eq!(crate::claims::plan::runs(&claim)[4], crate::claims::plan::runs(&claim)[0], "a free slot");
    }

    #[test]
    fn a_trend_of_ratios_is_judged_pair_by_pair() {
        // x: L2/L1 = 2, L8/L4 = 0.75 (falling); y: L2/L1 = 2, L8/L4 = 1.33 (falling).
        const PAIRS: &[(&str, &str)] = &[("L2", "L1"), ("L8", "L4")];
        const CHECKS: &[Check] = &[
            check(Metric::Ipc, Across::Each, Relation::RatiosFalling { pairs: PAIRS, slack: 0.0 }),
            check(Metric::Ipc, Across::Each, Relation::RatiosRising { pairs: PAIRS, slack: 0.0 }),
        ];
        let v = judge(&claim(CHECKS), &ipc);
        assert!(v.checks[0].holds && !v.checks[1].holds);
        assert_eq!(v.checks[0].seen, "x: 2.00 → 0.750; y: 2.00 → 1.33");
        assert_eq!(CHECKS[0].relation.describe(), "falling along L2/L1, L8/L4 (rises ≤ 0.000 %)");
        assert_eq!(CHECKS[0].relation.labels(), ["L2", "L1", "L8", "L4"]);
    }

    #[test]
    fn an_interior_maximum_is_judged_per_workload() {
        const CHECKS: &[Check] =
            &[check(Metric::Ipc, Across::Each, Relation::InteriorMaximum { variants: SWEEP, margin: 0.3 })];
        let v = judge(&claim(CHECKS), &ipc);
        assert!(!v.holds, "y's maximum is at the end");
        assert_eq!(
            v.checks[0].seen,
            "x: max at L4 (1.00 → 2.00 → 4.00 → 3.00); y: max at L8 (1.00 → 2.00 → 3.00 → 4.00)"
        );
        const ON_X: &[Check] = &[Check {
            metric: Metric::Ipc,
            on: &["x"],
            across: Across::Each,
            relation: Relation::InteriorMaximum { variants: SWEEP, margin: 0.3 },
        }];
        assert!(judge(&claim(ON_X), &ipc).holds, "4 is a third above 3");
        const FLAT: &[Check] = &[Check {
            metric: Metric::Ipc,
            on: &["x"],
            across: Across::Each,
            relation: Relation::InteriorMaximum { variants: SWEEP, margin: 0.34 },
        }];
        assert!(!judge(&claim(FLAT), &ipc).holds, "but not 34 % above it");
    }

    #[test]
    fn means_combine_the_workloads_before_the_relation() {
        // Harmonic means: L1 1, L8 2·3·4/(3+4) = 24/7.
        const CHECKS: &[Check] = &[check(
            Metric::Ipc,
            Across::HarmonicMean,
            Relation::RatioBetween { a: "L8", b: "L1", min: 3.42, max: 3.43 },
        )];
        let v = judge(&claim(CHECKS), &ipc);
        assert!(v.holds, "{:?}", v);
        assert_eq!(v.checks[0].seen, "harmonic mean: L8/L1 = 3.43");
        const GEO: &[Check] =
            &[check(Metric::Ipc, Across::GeometricMean, Relation::Close { a: "L8", b: "L1", tolerance: 0.01 })];
        // sqrt(3·4) = 3.46: not within 1 % of 1.
        assert!(!judge(&claim(GEO), &ipc).holds);
    }

    #[test]
    fn a_check_on_a_named_workload_reads_that_input_only() {
        // The same workload twice, the second on another input under its own name: a check on
        // that name sees only its runs (y's rising IPC), and reports it by that name.
        const TWICE: &[WorkloadSize] = &[workload("x"), workload("x").with_defines(&[("G", "2")]).named("x-other")];
        const CHECKS: &[Check] = &[crate::claims::on(
            &["x-other"],
            Metric::Ipc,
            Across::Each,
            Relation::RatioAtLeast { a: "L8", b: "L4", min: 1.3 },
        )];
        let v = judge(&Claim { workloads: TWICE, ..claim(CHECKS) }, &ipc);
        assert!(v.holds, "{:?}", v);
        assert_eq!(v.checks[0].seen, "x-other: L8/L4 = 1.33");
        const ON_X: &[Check] = &[crate::claims::on(
            &["x"],
            Metric::Ipc,
            Across::Each,
            Relation::RatioAtLeast { a: "L8", b: "L4", min: 1.3 },
        )];
        assert!(!judge(&Claim { workloads: TWICE, ..claim(ON_X) }, &ipc).holds, "x peaks at L4");
    }

    #[test]
    fn trends_tolerate_their_slack_only() {
        const RISING: &[Check] = &[check(Metric::Ipc, Across::Each, Relation::Rising { variants: SWEEP, slack: 0.3 })];
        // x dips 25 % at the end: within 30 %.
        assert!(judge(&claim(RISING), &ipc).holds);
        const STRICT: &[Check] = &[check(Metric::Ipc, Across::Each, Relation::Rising { variants: SWEEP, slack: 0.2 })];
        assert!(!judge(&claim(STRICT), &ipc).holds);
        const FALLING: &[Check] =
            &[check(Metric::Ipc, Across::Each, Relation::Falling { variants: SWEEP, slack: 1.0 })];
        assert!(!judge(&claim(FALLING), &ipc).holds, "the last must be below the first");
        const MIN: &[Check] = &[check(Metric::Ipc, Across::Each, Relation::MinimumAt { variants: SWEEP, at: "L1" })];
        assert!(judge(&claim(MIN), &ipc).holds);
    }

    #[test]
    fn a_missing_measurement_fails_its_check() {
        const CHECKS: &[Check] =
            &[check(Metric::Ipc, Across::Each, Relation::Between { variant: "L1", min: 0.0, max: 9.0 })];
        let v = judge(&claim(CHECKS), &|w, v, m| if w == 1 { None } else { ipc(w, v, m) });
        assert!(!v.holds);
        assert_eq!(v.checks[0].seen, "x: L1 = 1.00; y: not measured");
    }

    #[test]
    fn only_the_variants_a_relation_names_need_a_value() {
        // L8 measures nothing (a kernel that does not run in it): a check of L1 against L2 holds.
        const CHECKS: &[Check] =
            &[check(Metric::Ipc, Across::Each, Relation::RatioAtLeast { a: "L2", b: "L1", min: 2.0 })];
        let v = judge(&claim(CHECKS), &|w, v, m| if v == 3 { None } else { ipc(w, v, m) });
        assert!(v.holds, "{v:?}");
    }

    #[test]
    fn numbers_keep_three_significant_digits() {
        assert_eq!(num(1234.4), "1234");
        assert_eq!(num(0.12345), "0.123");
        assert_eq!(num(12.345), "12.3");
        assert_eq!(num(f64::NAN), "n/a");
    }
}
