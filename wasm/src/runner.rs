//! One job, advanced in bounded slices, producing the replies the page sees.
//!
//! The worker decides *when* to run a slice (by wall time); the runner decides *what* a slice
//! does and what it reports. Frames cover fixed windows of `frame_every` cycles, so the
//! recorded frames are the same on a fast machine and a slow one.

use warpscope_core::config::presets;
use warpscope_core::sweep::StepOutcome as SweepStep;
use warpscope_core::{bench, CacheSweep, CacheSweepReport, ConfigError, Policies, RunOptions, Simulation, StepOutcome};

use crate::protocol::{Failure, Job, JobId, JobReport, Reply};

/// Most frames one job may record; the page keeps them all for playback.
pub const MAX_FRAMES: u64 = 100_000;

/// Where a job stands after a slice.
#[derive(Clone, Debug, PartialEq)]
pub enum Advance {
    /// More to do.
    Running,
    /// Finished: send [`JobRunner::done`].
    Finished,
    /// Cannot go on.
    Stopped(Failure),
}

/// The computation behind a job.
enum Work {
    Sweep(CacheSweep),
    Simulation(Box<Simulation>),
}

/// A job that has been validated and is ready to advance.
pub struct JobRunner {
    id: JobId,
    work: Work,
    frame_every: u64,
    /// Counts at the start of the current frame window.
    frame_base: CacheSweepReport,
}

fn bench_simulation(workload: &str, preset: &str, tiny: bool) -> Result<Simulation, Failure> {
    let invalid = |field: &str, reason: String| Failure::InvalidConfig(ConfigError::new(field, reason));
    let bench = bench::by_name(workload, tiny)
        .ok_or_else(|| invalid("workload", format!("no benchmark workload is called \"{workload}\"")))?;
    let preset =
        presets::by_id(preset).ok_or_else(|| invalid("preset", format!("no machine preset is called \"{preset}\"")))?;
    Simulation::new((preset.build)(), bench.workload, &Policies::default(), RunOptions::default())
        .map_err(Failure::InvalidConfig)
}

impl JobRunner {
    /// Validates `job`; a bad configuration becomes [`Failure::InvalidConfig`].
    pub fn new(id: JobId, job: Job, frame_every: u64) -> Result<Self, Failure> {
        let spec = match job {
            Job::CacheSweep(spec) => spec,
            Job::Simulate(_) => {
                return Err(Failure::BadRequest { message: "this worker cannot run kernel files yet".into() })
            }
            Job::Bench { workload, preset, tiny } => {
                let sim = bench_simulation(&workload, &preset, tiny)?;
                let work = Work::Simulation(Box::new(sim));
                return Ok(JobRunner { id, work, frame_every: 0, frame_base: CacheSweepReport::default() });
            }
        };
        let sweep = CacheSweep::new(spec).map_err(Failure::InvalidConfig)?;
        if frame_every > 0 && sweep.total().div_ceil(frame_every) > MAX_FRAMES {
            return Err(Failure::InvalidConfig(ConfigError::new(
                "frame_every",
                format!(
                    "{frame_every} cycles per frame would record {} frames; at most {MAX_FRAMES} are kept, \
                     so use at least {} cycles per frame",
                    sweep.total().div_ceil(frame_every),
                    sweep.total().div_ceil(MAX_FRAMES)
                ),
            )));
        }
        Ok(JobRunner { id, work: Work::Sweep(sweep), frame_every, frame_base: CacheSweepReport::default() })
    }

    /// Units of work between two looks at the clock: a simulated cycle costs far more than a
    /// sweep access.
    pub fn quantum(&self) -> u64 {
        match self.work {
            Work::Sweep(_) => 1 << 14,
            Work::Simulation(_) => 256,
        }
    }

    /// The job's id.
    pub fn id(&self) -> JobId {
        self.id
    }

    /// Runs at most `budget` cycles, passing each completed frame to `emit`.
    pub fn advance(&mut self, budget: u64, emit: &mut impl FnMut(Reply)) -> Advance {
        let sweep = match &mut self.work {
            Work::Sweep(sweep) => sweep,
            Work::Simulation(sim) => {
                return match sim.step(budget) {
                    StepOutcome::Finished => Advance::Finished,
                    StepOutcome::BudgetSpent => Advance::Running,
                    stopped => Advance::Stopped(Failure::Stopped { message: describe(&stopped) }),
                };
            }
        };
        let mut left = budget;
        loop {
            let before = sweep.position();
            let to_frame_end = match self.frame_every {
                0 => u64::MAX,
                every => every - before % every,
            };
            let outcome = sweep.step(left.min(to_frame_end));
            let now = sweep.position();
            left -= now - before;
            let finished = outcome == SweepStep::Finished;
            let window_closed = self.frame_every > 0 && (now % self.frame_every == 0 || finished);
            if window_closed && now > self.frame_base.accesses {
                let report = sweep.report();
                let window = report.since(&self.frame_base);
                emit(Reply::Frame {
                    id: self.id,
                    start: self.frame_base.accesses,
                    end: now,
                    hits: window.hits,
                    misses: window.misses,
                });
                self.frame_base = report;
            }
            if finished {
                return Advance::Finished;
            }
            if left == 0 {
                return Advance::Running;
            }
        }
    }

    /// Where the job stands. An engine run does not know its length in cycles (`total` 0);
    /// its fraction counts finished thread blocks.
    pub fn progress(&self) -> Reply {
        let (cycle, total, fraction) = match &self.work {
            Work::Sweep(s) => (s.position(), s.total(), s.position() as f64 / s.total() as f64),
            Work::Simulation(sim) => (sim.cycle(), 0, sim.progress()),
        };
        Reply::Progress { id: self.id, cycle, total, fraction }
    }

    /// The final reply of a finished job; `elapsed_ms` is measured by the caller.
    pub fn done(&self, elapsed_ms: f64) -> Reply {
        let report = match &self.work {
            Work::Sweep(s) => JobReport::CacheSweep(s.report()),
            Work::Simulation(sim) => JobReport::Simulation(Box::new(sim.report())),
        };
        Reply::Done { id: self.id, report, elapsed_ms }
    }

    /// The final reply of a cancelled job.
    pub fn cancelled(&self) -> Reply {
        let cycle = match &self.work {
            Work::Sweep(s) => s.position(),
            Work::Simulation(sim) => sim.cycle(),
        };
        Reply::Cancelled { id: self.id, cycle }
    }
}

/// A person's account of why a simulation stopped.
fn describe(outcome: &StepOutcome) -> String {
    match outcome {
        StepOutcome::CycleLimit { cycles } => {
            format!("the run reached its limit of {cycles} cycles without finishing")
        }
        StepOutcome::Fault { kernel, sm, fault } => {
            format!(
                "kernel {kernel} faulted on SM {sm} at instruction {} (lane {}): {:?}",
                fault.pc, fault.lane, fault.kind
            )
        }
        StepOutcome::Deadlock { what } => what.clone(),
        StepOutcome::Finished | StepOutcome::BudgetSpent => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::mem::cache::{CacheGeometry, Replacement};
    use warpscope_core::sweep::AccessPattern;
    use warpscope_core::CacheSweepSpec;

    fn spec(passes: u32) -> CacheSweepSpec {
        CacheSweepSpec {
            cache: CacheGeometry { size_bytes: 4096, line_bytes: 128, ways: 4 },
            replacement: Replacement::Lru,
            pattern: AccessPattern::Random { footprint_bytes: 16384, accesses_per_pass: 1000, seed: 5 },
            passes,
        }
    }

    fn frames(budget: u64, frame_every: u64) -> (Vec<Reply>, Reply) {
        let mut runner = JobRunner::new(1, Job::CacheSweep(spec(3)), frame_every).unwrap();
        let mut out = Vec::new();
        while runner.advance(budget, &mut |r| out.push(r)) == Advance::Running {}
        (out, runner.done(0.0))
    }

    #[test]
    fn frames_tile_the_run_and_do_not_depend_on_slice_size() {
        let (small_slices, done) = frames(7, 400);
        let (one_slice, _) = frames(u64::MAX, 400);
        assert_eq!(small_slices, one_slice);
        // 3000 cycles in windows of 400: seven full windows and a last one of 200.
        let windows: Vec<(u64, u64)> = small_slices
            .iter()
            .map(|f| match f {
                Reply::Frame { start, end, .. } => (*start, *end),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(windows.len(), 8);
        assert_eq!(windows[0], (0, 400));
        assert_eq!(windows[7], (2800, 3000));
        assert!(windows.windows(2).all(|w| w[0].1 == w[1].0));
        // The frames add up to the final report.
        let (hits, misses) = small_slices.iter().fold((0, 0), |(h, m), f| match f {
            Reply::Frame { hits, misses, .. } => (h + hits, m + misses),
            _ => (h, m),
        });
        let Reply::Done { report: JobReport::CacheSweep(report), .. } = done else { panic!() };
        assert_eq!((hits, misses), (report.hits, report.misses));
        assert_eq!(report, CacheSweep::new(spec(3)).unwrap().run_to_end());
    }

    #[test]
    fn too_many_frames_is_refused_with_the_smallest_workable_value() {
        let Err(Failure::InvalidConfig(err)) = JobRunner::new(1, Job::CacheSweep(spec(1000)), 1) else {
            panic!("expected a configuration error")
        };
        assert_eq!(err.field, "frame_every");
        assert!(err.reason.contains("at least 10 cycles per frame"), "{}", err.reason);
    }

    #[test]
    fn a_bench_job_reports_what_the_engine_computes() {
        let mut runner =
            JobRunner::new(2, Job::Bench { workload: "compute".into(), preset: "fermi-gtx480".into(), tiny: true }, 0)
                .unwrap();
        let mut steps = 0;
        while runner.advance(runner.quantum(), &mut |_| {}) == Advance::Running {
            steps += 1;
        }
        assert!(steps > 1, "the run is sliced");
        let Reply::Done { report: JobReport::Simulation(report), .. } = runner.done(0.0) else { panic!() };
        let mut direct = bench_simulation("compute", "fermi-gtx480", true).unwrap();
        assert_eq!(direct.run(), StepOutcome::Finished);
        assert_eq!(*report, direct.report());
    }

    #[test]
    fn an_unknown_bench_names_the_field() {
        let job = Job::Bench { workload: "nbody".into(), preset: "fermi-gtx480".into(), tiny: true };
        let Err(Failure::InvalidConfig(e)) = JobRunner::new(1, job, 0) else { panic!() };
        assert_eq!(e.field, "workload");
    }

    #[test]
    fn a_bad_spec_is_an_invalid_config_failure() {
        let mut bad = spec(1);
        bad.cache.ways = 0;
        assert!(matches!(
            JobRunner::new(1, Job::CacheSweep(bad), 0),
            Err(Failure::InvalidConfig(ConfigError { ref field, .. })) if field == "cache.ways"
        ));
    }
}
