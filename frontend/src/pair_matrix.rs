//! The pair matrix: every pair of chosen library programs run side by side under one sharing
//! scheme, each program also alone, on the page's workers; and the weighted speedup, ANTT and
//! fairness of each pair against its programs' runs alone (`cke.md` §6). Pure, tested natively.
//!
//! The runs are the claim harness's: a pair's first program is the kernel file and the second
//! its co-runner, both at their files' sizes; a program alone runs under round-robin block
//! scheduling and the scheme's warp scheduler without its memory-issue gates
//! ([`plan::SOLO_TB`], [`plan::base_warp`]); every run lasts the same measurement window, each
//! program relaunched when it completes. The figures are measured by the metrics the claim
//! rows use ([`Metric::measure_co_run`]), so the page and `warpscope reproduce` agree.

use warpscope_core::claims::measure::normalized_ipcs;
use warpscope_core::claims::{plan, Metric};
use warpscope_core::config::GpuConfig;
use warpscope_core::library;
use warpscope_core::{Policies, RunOptions};
use warpscope_wasm::protocol::{CoRunner, ReportDetail, SimulateJob};

use crate::state::RunView;

/// Fewest programs a matrix has.
pub const MIN_PROGRAMS: usize = 2;
/// Most: six programs make fifteen pairs and six runs alone, some minutes on a laptop.
pub const MAX_PROGRAMS: usize = 6;

/// The measurement window when the machine has none: the concurrent-kernel papers' two
/// million cycles (`cke.md` §1.0).
pub const DEFAULT_WINDOW: u32 = 2_000_000;

/// The pairs of `n` programs, row by row: (0, 1), (0, 2), …, (1, 2), ….
pub fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
}

/// What a matrix runs: its programs, the scheme, the machine and the window.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSpec {
    /// Library ids, in the order chosen.
    pub programs: Vec<String>,
    /// The sharing scheme the pairs run under.
    pub scheme: Policies,
    /// The machine (its window is replaced by `window`).
    pub config: GpuConfig,
    /// Cycles each run lasts.
    pub window: u32,
}

impl MatrixSpec {
    /// Why it cannot run, for a person; `None` if it can.
    pub fn problem(&self) -> Option<String> {
        let n = self.programs.len();
        if n < MIN_PROGRAMS {
            return Some(format!("choose at least {MIN_PROGRAMS} programs"));
        }
        if n > MAX_PROGRAMS {
            return Some(format!(
                "at most {MAX_PROGRAMS} programs: they make {} pairs already",
                pairs(MAX_PROGRAMS).len()
            ));
        }
        if let Some(unknown) = self.programs.iter().find(|p| library::by_id(p).is_none()) {
            return Some(format!("{unknown} is not a library workload"));
        }
        None
    }

    /// The jobs: each program alone (in program order), then each pair (in [`pairs`] order).
    pub fn jobs(&self) -> Vec<SimulateJob> {
        let mut config = self.config.clone();
        config.window.cycles = self.window;
        let solo = Policies { tb: plan::SOLO_TB.into(), warp: plan::base_warp(&self.scheme.warp).into() };
        let job = |first: &str, beside: Option<&str>, policies: &Policies| SimulateJob {
            source: library::by_id(first).map_or("", |w| w.source).to_string(),
            name: beside.map(|_| first.to_string()),
            co_runners: beside
                .map(|id| vec![CoRunner { workload: id.to_string(), defines: Vec::new() }])
                .unwrap_or_default(),
            defines: Vec::new(),
            config: config.clone(),
            policies: policies.clone(),
            max_cycles: RunOptions::default().max_cycles,
            snapshot_every: 0,
            heat_sm: 0,
            detail: ReportDetail::Totals,
        };
        let alone = self.programs.iter().map(|p| job(p, None, &solo));
        let together = pairs(self.programs.len())
            .into_iter()
            .map(|(i, j)| job(&self.programs[i], Some(&self.programs[j]), &self.scheme));
        alone.chain(together).collect()
    }
}

/// One pair's figures against its programs alone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// Sum of the two normalised IPCs.
    pub weighted_speedup: f64,
    /// Mean of the slowdowns (lower is better).
    pub antt: f64,
    /// The smaller normalised IPC over the larger.
    pub fairness: f64,
    /// Each program's IPC beside the other over its IPC alone, row program first.
    pub normalized: [f64; 2],
    /// Some run of the three stopped at its cycle limit before the window ended.
    pub stopped_early: bool,
}

/// A matrix being run or run: its spec and every run's view, the runs alone first.
#[derive(Clone, Debug, PartialEq)]
pub struct PairMatrix {
    /// Distinguishes it from older matrices, whose late replies are dropped.
    pub serial: u32,
    /// What it runs.
    pub spec: MatrixSpec,
    /// The runs, in [`MatrixSpec::jobs`] order.
    pub runs: Vec<RunView>,
}

impl PairMatrix {
    /// A matrix of `spec`, every run queued.
    pub fn new(serial: u32, spec: MatrixSpec) -> PairMatrix {
        let n = spec.programs.len();
        PairMatrix { serial, runs: vec![RunView::Queued; n + pairs(n).len()], spec }
    }

    /// The run of program `p` alone.
    pub fn alone(&self, p: usize) -> &RunView {
        &self.runs[p]
    }

    /// The run of programs `i` and `j` (either order) side by side.
    pub fn together(&self, i: usize, j: usize) -> Option<&RunView> {
        let (a, b) = (i.min(j), i.max(j));
        let k = pairs(self.spec.programs.len()).iter().position(|&p| p == (a, b))?;
        self.runs.get(self.spec.programs.len() + k)
    }

    /// The figures of programs `i` and `j`, row program `i` first, once all three runs
    /// finished; `None` before, or if a program issued nothing alone.
    pub fn cell(&self, i: usize, j: usize) -> Option<Cell> {
        let together = self.together(i, j)?.result()?;
        let (ri, rj) = (self.alone(i).result()?, self.alone(j).result()?);
        // The pair's report lists the lower-numbered program first.
        let solos = if i < j { [&*ri.report, &*rj.report] } else { [&*rj.report, &*ri.report] };
        let measure = |m: Metric| m.measure_co_run(&together.report, &solos);
        let [first, second] = normalized_ipcs(&together.report, &solos)?[..] else { return None };
        Some(Cell {
            weighted_speedup: measure(Metric::WeightedSpeedup)?,
            antt: measure(Metric::Antt)?,
            fairness: measure(Metric::Fairness)?,
            normalized: if i < j { [first, second] } else { [second, first] },
            stopped_early: [together, ri, rj].iter().any(|r| r.stopped_early.is_some()),
        })
    }

    /// Runs finished, and the share of the whole matrix done (running runs by their progress).
    pub fn progress(&self) -> (usize, f64) {
        RunView::progress_of(&self.runs)
    }

    /// Whether a run is waiting or running.
    pub fn busy(&self) -> bool {
        self.runs.iter().any(RunView::busy)
    }

    /// The geometric mean of the finished pairs' weighted speedups (the papers' average).
    pub fn mean_weighted_speedup(&self) -> Option<f64> {
        let values: Vec<f64> = pairs(self.spec.programs.len())
            .into_iter()
            .filter_map(|(i, j)| self.cell(i, j))
            .map(|c| c.weighted_speedup)
            .filter(|w| *w > 0.0)
            .collect();
        (!values.is_empty()).then(|| (values.iter().map(|w| w.ln()).sum::<f64>() / values.len() as f64).exp())
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use warpscope_core::config::presets;
    use warpscope_core::stats::{PartReport, Report};

    use super::*;
    use crate::state::RunResult;

    fn spec(programs: &[&str]) -> MatrixSpec {
        MatrixSpec {
            programs: programs.iter().map(|p| p.to_string()).collect(),
            scheme: Policies { tb: "ws".into(), warp: "gto+qbmi+dmil".into() },
            config: presets::cke_maxwell(),
            window: 300_000,
        }
    }

    fn finished(report: Report) -> RunView {
        RunView::Finished(Rc::new(RunResult {
            buffers: Rc::default(),
            ran_on: (0, 0),
            report: Rc::new(report),
            snapshots: Rc::default(),
            elapsed_ms: 1.0,
            stopped_early: None,
            job: None,
        }))
    }

    #[test]
    fn programs_run_alone_without_the_scheme_then_in_every_pair_under_it() {
        assert_eq!(pairs(3), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairs(1), []);
        let spec = spec(&["backprop", "spmv", "kmeans"]);
        assert_eq!(spec.problem(), None);
        let jobs = spec.jobs();
        assert_eq!(jobs.len(), 3 + 3);
        for (job, id) in jobs[..3].iter().zip(["backprop", "spmv", "kmeans"]) {
            assert_eq!(job.source, library::by_id(id).unwrap().source);
            assert!(job.co_runners.is_empty() && job.name.is_none());
            assert_eq!((job.policies.tb.as_str(), job.policies.warp.as_str()), ("rr", "gto"), "alone: no gates");
            assert_eq!(job.config.window.cycles, 300_000);
        }
        let pair = &jobs[3 + 2];
        assert_eq!(pair.name.as_deref(), Some("spmv"));
        assert_eq!(pair.co_runners, [CoRunner { workload: "kmeans".into(), defines: vec![] }]);
        assert_eq!(pair.policies, spec.scheme);
        assert_eq!(pair.config.window.cycles, 300_000);
        assert_eq!(pair.detail, ReportDetail::Totals);

        assert!(self::spec(&["backprop"]).problem().unwrap().contains("at least 2"));
        assert!(self::spec(&["backprop", "nothing"]).problem().unwrap().contains("nothing is not"));
        assert!(self::spec(&["a"; 7]).problem().unwrap().contains("at most 6"));
    }

    /// Over a 100-cycle window A issued 100 and B 300 side by side; alone A issues 200 and B
    /// 400 in 100 cycles: normalised IPCs 0.5 and 0.75.
    #[test]
    fn a_cell_is_measured_against_both_programs_alone_from_either_side() {
        let mut matrix = PairMatrix::new(1, spec(&["a", "b"]));
        assert_eq!(matrix.runs.len(), 3);
        assert_eq!(matrix.cell(0, 1), None, "nothing ran yet");
        let alone = |warp_instructions| Report { cycles: 100, warp_instructions, ..Report::default() };
        let part = |name: &str, warp_instructions| PartReport {
            name: name.into(),
            warp_instructions,
            ..PartReport::default()
        };
        matrix.runs[0] = finished(alone(200));
        matrix.runs[1] = finished(alone(400));
        assert_eq!(matrix.cell(0, 1), None, "the pair has not run");
        assert_eq!(matrix.progress().0, 2);
        matrix.runs[2] =
            finished(Report { cycles: 100, parts: vec![part("a", 100), part("b", 300)], ..Report::default() });
        let cell = matrix.cell(0, 1).expect("all three ran");
        assert!((cell.weighted_speedup - 1.25).abs() < 1e-12);
        assert!((cell.antt - (2.0 + 4.0 / 3.0) / 2.0).abs() < 1e-12);
        assert!((cell.fairness - 0.5 / 0.75).abs() < 1e-12);
        assert_eq!(cell.normalized, [0.5, 0.75]);
        let mirrored = matrix.cell(1, 0).unwrap();
        assert_eq!(mirrored.normalized, [0.75, 0.5], "the row program first");
        assert_eq!(mirrored.weighted_speedup, cell.weighted_speedup);
        assert!(!cell.stopped_early && !matrix.busy());
        assert!((matrix.mean_weighted_speedup().unwrap() - 1.25).abs() < 1e-12);
    }
}
