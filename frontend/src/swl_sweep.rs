//! The static-warp-limit sweep one click from a finished run: the same set-up (kernel file,
//! defines, machine, thread-block scheduler, budget) under `swl:limit=L` for a set of limits,
//! each a job on the page's worker pool; and what its chart shows — IPC and L1 misses per
//! thousand instructions against the limit, the best limit (the CCWS paper's Best-SWL) and
//! where the run's own policy lies. Pure, tested natively.
//!
//! The points are measured as `warpscope swl-sweep` measures them ([`Metric::Ipc`],
//! [`Metric::L1Mpki`], [`Metric::L1HitRate`] over the whole report), and the best is picked
//! the same way (the first of the highest IPC), so the page and the CLI agree bit for bit.

use warpscope_core::claims::Metric;
use warpscope_core::sched::warp::WARP_POLICIES;
use warpscope_core::sched::PolicySpec;
use warpscope_core::stats::Report;
use warpscope_wasm::protocol::{ReportDetail, SimulateJob};

use crate::state::RunView;

/// The limits swept below the SM's warp slots: every limit up to 8, where the best limits of
/// the cache-sensitive workloads lie and the curve turns, then sparser steps (the CLI's
/// claim rows use 1–8, 12, 16, 24, 32). The SM's own slot count is always added: that point
/// is the unlimited scheduler (GTO over every warp).
const LADDER: [u32; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64, 96, 128];

/// The limits to run on an SM of `warp_slots` warp slots, ascending.
pub fn limits(warp_slots: u32) -> Vec<u32> {
    let mut limits: Vec<u32> = LADDER.iter().copied().filter(|&l| l <= warp_slots).collect();
    if warp_slots > 0 && limits.last() != Some(&warp_slots) {
        limits.push(warp_slots);
    }
    limits
}

/// The static warp limit's policy id.
const SWL: &str = "swl";

/// The warp policy spec of limit `limit`.
pub fn spec(limit: u32) -> String {
    format!("{SWL}:limit={limit}")
}

/// The jobs of a sweep of `origin`: the same job under each limit, taking only the first and
/// last snapshots (the chart needs the reports alone).
pub fn jobs(origin: &SimulateJob, limits: &[u32]) -> Vec<SimulateJob> {
    limits
        .iter()
        .map(|&limit| {
            let mut job = origin.clone();
            job.policies.warp = spec(limit);
            job.snapshot_every = 0;
            job.detail = ReportDetail::Totals;
            job
        })
        .collect()
}

/// One limit's measurements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The warp limit.
    pub limit: u32,
    /// Cycles of the whole run.
    pub cycles: u64,
    /// Warp instructions per cycle.
    pub ipc: f64,
    /// L1 misses (and sector misses) per thousand warp instructions; Belady's misses when the
    /// machine replays its L1 with optimal replacement.
    pub l1_mpki: f64,
    /// L1 hits per access.
    pub l1_hit_rate: f64,
    /// The run stopped at its cycle budget: its numbers cover only part of the work, so it is
    /// never the best.
    pub stopped_early: bool,
}

impl Point {
    /// `report`'s measurements at `limit`.
    pub fn measure(limit: u32, report: &Report, stopped_early: bool) -> Point {
        let metric = |m: Metric| m.measure(report).unwrap_or(0.0);
        Point {
            limit,
            cycles: report.cycles,
            ipc: metric(Metric::Ipc),
            l1_mpki: metric(Metric::L1Mpki),
            l1_hit_rate: metric(Metric::L1HitRate),
            stopped_early,
        }
    }
}

/// The sweep's runs: one per limit, and its serial (the jobs of an older sweep are ignored).
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// Distinguishes it from older sweeps, whose late replies are dropped.
    pub serial: u32,
    /// The limits, ascending.
    pub limits: Vec<u32>,
    /// Their runs, index for index.
    pub runs: Vec<RunView>,
}

impl Sweep {
    /// A sweep of `limits`, every run queued.
    pub fn new(serial: u32, limits: Vec<u32>) -> Sweep {
        let runs = vec![RunView::Queued; limits.len()];
        Sweep { serial, limits, runs }
    }

    /// The finished limits' points, ascending.
    pub fn points(&self) -> Vec<Point> {
        self.limits
            .iter()
            .zip(&self.runs)
            .filter_map(|(&limit, run)| {
                run.result().map(|r| Point::measure(limit, &r.report, r.stopped_early.is_some()))
            })
            .collect()
    }

    /// Runs finished, and the share of the whole sweep done (running runs by their progress).
    pub fn progress(&self) -> (usize, f64) {
        RunView::progress_of(&self.runs)
    }

    /// Whether a run is waiting or running.
    pub fn busy(&self) -> bool {
        self.runs.iter().any(RunView::busy)
    }
}

/// The best limit (Best-SWL): the first of the highest IPC among the points that ran to the
/// end, as `warpscope swl-sweep` picks it.
pub fn best(points: &[Point]) -> Option<&Point> {
    points.iter().filter(|p| !p.stopped_early).fold(None, |best: Option<&Point>, p| match best {
        Some(b) if p.ipc <= b.ipc => Some(b),
        _ => Some(p),
    })
}

/// The limit a warp policy spec runs at, if it is the static warp limit itself (the run's own
/// point is then on the curve).
pub fn limit_of(spec: &str) -> Option<u32> {
    let (info, values) = PolicySpec::check(spec, WARP_POLICIES).ok()?;
    (info.id == SWL).then(|| values.get("limit"))
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::state::RunResult;
    use warpscope_core::config::presets;
    use warpscope_core::mem::l1::L1Stats;
    use warpscope_core::stats::L1Replay;
    use warpscope_core::Policies;

    fn report(cycles: u64, instructions: u64, misses: u64) -> Report {
        let l1 = L1Stats { accesses: 100, hits: 100 - misses.min(100), misses, ..L1Stats::default() };
        Report { cycles, warp_instructions: instructions, l1, ..Report::default() }
    }

    fn finished(report: Report, stopped_early: bool) -> RunView {
        RunView::Finished(Rc::new(RunResult {
            buffers: Rc::default(),
            ran_on: (0, 0),
            report: Rc::new(report),
            snapshots: Rc::default(),
            elapsed_ms: 1.0,
            stopped_early: stopped_early.then(|| "the cycle budget".into()),
            job: None,
        }))
    }

    #[test]
    fn limits_are_dense_below_eight_then_sparse_up_to_the_slots() {
        assert_eq!(limits(32), [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32]);
        assert_eq!(limits(48), [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48]);
        assert_eq!(limits(64), [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64]);
        assert_eq!(limits(40), [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 40], "the slots themselves close it");
        assert_eq!(limits(3), [1, 2, 3]);
        assert!(limits(0).is_empty());
    }

    #[test]
    fn jobs_change_only_the_warp_policy_and_the_snapshots() {
        let origin = SimulateJob {
            source: "kernel".into(),
            name: None,
            co_runners: Vec::new(),
            defines: vec![("N".into(), "1024".into())],
            config: presets::ccws_fermi(),
            policies: Policies { tb: "rr".into(), warp: "ccws".into() },
            max_cycles: 5_000_000,
            snapshot_every: 50,
            heat_sm: 3,
            detail: ReportDetail::Shown,
        };
        let jobs = jobs(&origin, &[1, 8]);
        assert_eq!(jobs.len(), 2);
        for (job, warp) in jobs.iter().zip(["swl:limit=1", "swl:limit=8"]) {
            let expected = SimulateJob {
                policies: Policies { tb: "rr".into(), warp: warp.into() },
                snapshot_every: 0,
                detail: ReportDetail::Totals,
                ..origin.clone()
            };
            assert_eq!(*job, expected);
            assert!(warpscope_core::sched::warp::WarpPolicy::from_spec(&job.policies.warp).is_ok());
        }
    }

    #[test]
    fn points_measure_finished_runs_as_the_cli_does_and_the_best_is_the_first_fastest() {
        let mut sweep = Sweep::new(7, vec![1, 2, 4, 8]);
        sweep.runs[0] = finished(report(2000, 1000, 10), false);
        sweep.runs[1] = finished(report(1000, 1000, 20), false);
        sweep.runs[2] = RunView::Running {
            id: 3,
            cycle: 10,
            fraction: 0.5,
            started_ms: 0.0,
            latest_ms: 0.0,
            snapshots: Rc::default(),
        };
        sweep.runs[3] = finished(report(1000, 1000, 40), false);
        let points = sweep.points();
        assert_eq!(points.iter().map(|p| p.limit).collect::<Vec<_>>(), [1, 2, 8]);
        assert_eq!((points[0].ipc, points[0].l1_mpki, points[0].l1_hit_rate), (0.5, 10.0, 0.9));
        let best = best(&points).expect("a best limit");
        assert_eq!(best.limit, 2, "2 and 8 tie at IPC 1: the smaller limit, as the CLI's fold keeps the first");
        assert_eq!(sweep.progress(), (3, 3.5 / 4.0));
        assert!(sweep.busy());
    }

    #[test]
    fn a_run_stopped_at_its_budget_is_never_the_best() {
        let points = [Point::measure(1, &report(1000, 900, 0), false), Point::measure(2, &report(1000, 2000, 0), true)];
        assert_eq!(best(&points).map(|p| p.limit), Some(1));
        assert_eq!(best(&points[1..]), None);
        assert_eq!(best(&[]), None);
    }

    #[test]
    fn a_belady_machine_measures_its_replayed_misses() {
        let mut r = report(1000, 2000, 50);
        r.l1_replay = Some(L1Replay { belady_misses: 4, lru_misses: 50, ..L1Replay::default() });
        assert_eq!(Point::measure(3, &r, false).l1_mpki, 2.0, "4 Belady misses in 2000 instructions");
    }

    #[test]
    fn the_runs_own_limit_is_known_only_for_the_static_warp_limit() {
        assert_eq!(limit_of("swl:limit=6"), Some(6));
        assert_eq!(limit_of("swl"), Some(8), "the default limit");
        assert_eq!(limit_of("ccws"), None);
        assert_eq!(limit_of("gto"), None);
        assert_eq!(limit_of("swl:limit=0"), None, "not a policy");
    }
}
