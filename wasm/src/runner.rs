//! One job, advanced in bounded slices, producing the replies the page sees.
//!
//! The worker decides *when* to run a slice (by wall time); the runner decides *what* a slice
//! does and what it reports. Frames cover fixed windows of `frame_every` cycles, and an engine
//! run lands exactly on each snapshot's cycle, so what is recorded is the same on a fast
//! machine and a slow one, whatever the slices.

use warpscope_core::config::presets;
use warpscope_core::library;
use warpscope_core::stats::{Report, MAX_RUNS_SHOWN};
use warpscope_core::sweep::StepOutcome as SweepStep;
use warpscope_core::workload::Workload;
use warpscope_core::{bench, CacheSweep, CacheSweepReport, ConfigError, Policies, RunOptions, Simulation, StepOutcome};

use crate::compile::compile_for_run;
use crate::protocol::{
    keeps, Failure, Job, JobId, JobReport, Reply, ReportDetail, SimulateJob, TakenSnapshot, MAX_SNAPSHOTS,
};
use crate::snapshots::SnapshotSchedule;

/// Most frames one job may record; the page keeps them all for playback.
pub const MAX_FRAMES: u64 = 100_000;

/// Cycles an engine run simulates between two looks at the clock ([`JobRunner::quantum`]).
pub const SIMULATION_QUANTUM: u64 = 256;

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
    /// An engine run, with its snapshots for a `Simulate` job and what its report keeps.
    Simulation(Box<Simulation>, Option<SnapshotSchedule>, ReportDetail),
}

/// A job that has been validated and is ready to advance.
pub struct JobRunner {
    id: JobId,
    work: Work,
    frame_every: u64,
    /// Counts at the start of the current frame window.
    frame_base: CacheSweepReport,
    /// Why an engine run ended before its workload did (the cycle limit), once it has.
    stopped_early: Option<String>,
    /// Snapshots taken and not yet handed over ([`JobRunner::take_snapshots`]).
    snapshots: Vec<TakenSnapshot>,
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

fn simulate(job: SimulateJob) -> Result<Work, Failure> {
    let workload = with_co_runners(&job, compile_for_run(&job.source, &job.defines, &job.config)?.workload)?;
    let options = RunOptions { max_cycles: job.max_cycles, ..RunOptions::default() };
    let sim = Simulation::new(job.config, workload, &job.policies, options).map_err(Failure::InvalidConfig)?;
    let schedule = SnapshotSchedule::new(job.snapshot_every, job.heat_sm as usize, MAX_SNAPSHOTS);
    Ok(Work::Simulation(Box::new(sim), Some(schedule), job.detail))
}

/// `file`, the job's compiled kernel file, with its co-runners beside it: each built from the
/// library as `warpscope run --workload a+b` builds a part. A co-runner that does not build is
/// named by its place in the list.
fn with_co_runners(job: &SimulateJob, file: Workload) -> Result<Workload, Failure> {
    if job.co_runners.is_empty() {
        return Ok(file);
    }
    let invalid = |field: String, why: String| Failure::InvalidConfig(ConfigError::new(field, why));
    let mut parts = vec![(job.name.clone().unwrap_or_else(|| String::from("your file")), file)];
    for (i, c) in job.co_runners.iter().enumerate() {
        let field = format!("co_runners[{i}]");
        if c.workload.contains('+') {
            return Err(invalid(field, format!("`{}`: name one library workload per co-runner", c.workload)));
        }
        let program =
            library::program(&c.workload, None, &c.defines, &job.config).map_err(|why| invalid(field, why))?;
        parts.push((c.workload.clone(), program));
    }
    Workload::co_run(parts).map_err(Failure::InvalidConfig)
}

/// The engine's report with what `detail` leaves out left out.
fn report(sim: &Simulation, detail: ReportDetail) -> Report {
    let mut report = sim.report();
    match detail {
        ReportDetail::Shown => report.summarise_runs(MAX_RUNS_SHOWN),
        ReportDetail::Totals => {
            report.blocks = Vec::new();
            report.series.windows = Vec::new();
        }
    }
    report
}

impl JobRunner {
    /// Validates `job` (compiling a kernel file): a bad configuration or policy becomes
    /// [`Failure::InvalidConfig`], a file that does not compile [`Failure::Compile`].
    pub fn new(id: JobId, job: Job, frame_every: u64) -> Result<Self, Failure> {
        let engine = |work| JobRunner {
            id,
            work,
            frame_every: 0,
            frame_base: CacheSweepReport::default(),
            stopped_early: None,
            snapshots: Vec::new(),
        };
        let spec = match job {
            Job::CacheSweep(spec) => spec,
            Job::Simulate(job) => return Ok(engine(simulate(*job)?)),
            Job::Bench { workload, preset, tiny } => {
                let sim = bench_simulation(&workload, &preset, tiny)?;
                return Ok(engine(Work::Simulation(Box::new(sim), None, ReportDetail::Shown)));
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
        Ok(JobRunner {
            id,
            work: Work::Sweep(sweep),
            frame_every,
            frame_base: CacheSweepReport::default(),
            stopped_early: None,
            snapshots: Vec::new(),
        })
    }

    /// Units of work between two looks at the clock: a simulated cycle costs far more than a
    /// sweep access.
    pub fn quantum(&self) -> u64 {
        match self.work {
            Work::Sweep(_) => 1 << 14,
            Work::Simulation(..) => SIMULATION_QUANTUM,
        }
    }

    /// The job's id.
    pub fn id(&self) -> JobId {
        self.id
    }

    /// Runs at most `budget` cycles, passing each completed frame to `emit` and keeping the
    /// snapshots taken for [`JobRunner::take_snapshots`].
    pub fn advance(&mut self, budget: u64, emit: &mut impl FnMut(Reply)) -> Advance {
        let sweep = match &mut self.work {
            Work::Sweep(sweep) => sweep,
            Work::Simulation(sim, schedule, _) => {
                let (advance, stopped_early) = advance_engine(sim, schedule.as_mut(), budget, &mut self.snapshots);
                self.stopped_early = stopped_early;
                return advance;
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

    /// The snapshots taken since the last call, as one reply (`None` if there are none). The
    /// worker sends them with each progress report and before the job's last reply, so that
    /// the page handles (and draws) a batch at a time.
    ///
    /// A snapshot that the page's rule would drop on applying this very batch is left out:
    /// one whose cycle the batch's last interval does not keep. (The interval only doubles, so
    /// the last one keeps a cycle exactly when every later snapshot's does; and the page
    /// filters what it already holds by the same last interval either way.) The page ends up
    /// holding the same snapshots, and a run whose interval doubles many times sends about
    /// half of what it takes.
    pub fn take_snapshots(&mut self) -> Option<Reply> {
        let mut snapshots = core::mem::take(&mut self.snapshots);
        let newest = snapshots.pop()?;
        snapshots.retain(|t| keeps(t.snapshot.cycle, newest.every));
        snapshots.push(newest);
        Some(Reply::Snapshots { id: self.id, snapshots })
    }

    /// Where the job stands. An engine run does not know its length in cycles (`total` 0);
    /// its fraction counts finished thread blocks.
    pub fn progress(&self) -> Reply {
        let (cycle, total, fraction) = match &self.work {
            Work::Sweep(s) => (s.position(), s.total(), s.position() as f64 / s.total() as f64),
            Work::Simulation(sim, ..) => (sim.cycle(), 0, sim.progress()),
        };
        Reply::Progress { id: self.id, cycle, total, fraction }
    }

    /// The final reply of a finished job; `elapsed_ms` is measured by the caller.
    pub fn done(&self, elapsed_ms: f64) -> Reply {
        let report = match &self.work {
            Work::Sweep(s) => JobReport::CacheSweep(s.report()),
            Work::Simulation(sim, _, detail) => JobReport::Simulation(Box::new(report(sim, *detail))),
        };
        let buffers = match &self.work {
            Work::Sweep(_) => Vec::new(),
            Work::Simulation(sim, ..) => sim.workload().buffers.iter().map(|b| b.name.clone()).collect(),
        };
        Reply::Done { id: self.id, report, elapsed_ms, stopped_early: self.stopped_early.clone(), buffers }
    }

    /// The finished engine run, kept for [`Request::Buffer`](crate::protocol::Request::Buffer)
    /// (`None` for a cache sweep).
    pub fn into_simulation(self) -> Option<Box<Simulation>> {
        match self.work {
            Work::Simulation(sim, ..) => Some(sim),
            Work::Sweep(_) => None,
        }
    }

    /// The final reply of a cancelled job.
    pub fn cancelled(&self) -> Reply {
        let cycle = match &self.work {
            Work::Sweep(s) => s.position(),
            Work::Simulation(sim, ..) => sim.cycle(),
        };
        Reply::Cancelled { id: self.id, cycle }
    }
}

/// The answer to [`Request::Buffer`](crate::protocol::Request::Buffer) for job `id`, from the
/// last finished run (`kept`: its job and simulation, if the worker still holds one).
pub fn buffer_reply(id: JobId, buffer: u32, kept: Option<(JobId, &Simulation)>) -> Reply {
    let Some((_, sim)) = kept.filter(|(job, _)| *job == id) else {
        let why = "this run's results are no longer held (another run started since): run it again";
        return Reply::Buffer { id, name: String::new(), contents: Err(why.into()) };
    };
    let Some(spec) = sim.workload().buffers.get(buffer as usize) else {
        let why = format!("the run has no buffer #{buffer}");
        return Reply::Buffer { id, name: String::new(), contents: Err(why) };
    };
    let text = warpscope_core::workload::buffer_text(sim.buffer(buffer as usize), spec.elem);
    Reply::Buffer { id, name: spec.name.clone(), contents: Ok(text) }
}

/// Runs an engine run for at most `budget` cycles, landing on each snapshot's cycle and
/// adding the snapshot to `taken`. Returns where it stands and, once it has ended at its cycle
/// limit, the sentence that says so.
fn advance_engine(
    sim: &mut Simulation,
    mut snapshots: Option<&mut SnapshotSchedule>,
    budget: u64,
    taken: &mut Vec<TakenSnapshot>,
) -> (Advance, Option<String>) {
    let mut left = budget;
    loop {
        taken.extend(snapshots.as_mut().and_then(|s| s.due(sim)));
        if left == 0 {
            return (Advance::Running, None);
        }
        let start = sim.cycle();
        let target = start.saturating_add(left).min(snapshots.as_ref().map_or(u64::MAX, |s| s.next()));
        let outcome = sim.step_until(target);
        left = left.saturating_sub(sim.cycle() - start);
        if outcome == StepOutcome::BudgetSpent {
            continue;
        }
        taken.extend(snapshots.as_mut().and_then(|s| s.last(sim)));
        return match outcome {
            StepOutcome::Finished => (Advance::Finished, None),
            StepOutcome::CycleLimit { .. } => (Advance::Finished, Some(outcome.to_string())),
            stopped => (Advance::Stopped(Failure::Stopped { message: stopped.to_string() }), None),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{keeps, CoRunner};
    use warpscope_core::library;
    use warpscope_core::mem::cache::{CacheGeometry, Replacement};
    use warpscope_core::stats::{Report, Snapshot};
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

    fn vecadd_job(snapshot_every: u64, max_cycles: u64) -> SimulateJob {
        let vecadd = library::by_id("vecadd").unwrap();
        SimulateJob {
            source: vecadd.source.into(),
            name: None,
            co_runners: Vec::new(),
            defines: vec![vecadd.size_define(vecadd.size.min)],
            config: presets::fermi_gtx480(),
            policies: Policies::default(),
            max_cycles,
            snapshot_every,
            heat_sm: 0,
            detail: ReportDetail::Shown,
        }
    }

    /// Every reply of `job` advanced `budget` cycles at a time, the final one included.
    /// Snapshot batches are taken after every slice, as the worker takes them (less often).
    fn replies(job: SimulateJob, budget: u64) -> Vec<Reply> {
        let mut runner = JobRunner::new(9, Job::Simulate(Box::new(job)), 0).unwrap();
        let mut out = Vec::new();
        loop {
            let advance = runner.advance(budget, &mut |r| out.push(r));
            out.extend(runner.take_snapshots());
            match advance {
                Advance::Running => {}
                Advance::Finished => break,
                Advance::Stopped(failure) => panic!("stopped: {failure:?}"),
            }
        }
        out.push(runner.done(0.0));
        out
    }

    /// `replies` with each snapshot batch split into batches of one.
    fn one_by_one(replies: Vec<Reply>) -> Vec<Reply> {
        let mut out = Vec::new();
        for reply in replies {
            match reply {
                Reply::Snapshots { id, snapshots } => {
                    out.extend(snapshots.into_iter().map(|s| Reply::Snapshots { id, snapshots: vec![s] }))
                }
                other => out.push(other),
            }
        }
        out
    }

    #[test]
    fn a_finished_runs_buffers_are_named_in_done_and_sent_as_text() {
        let job = vecadd_job(0, u64::MAX);
        let mut runner = JobRunner::new(4, Job::Simulate(Box::new(job.clone())), 0).unwrap();
        while runner.advance(1 << 20, &mut |_| {}) == Advance::Running {}
        let Reply::Done { buffers, .. } = runner.done(0.0) else { panic!() };
        assert_eq!(buffers, ["a", "b", "c"]);
        let sim = runner.into_simulation().unwrap();
        // `c = a + b`, element by element, as the CLI's --dump writes it.
        let Reply::Buffer { name, contents: Ok(text), .. } = buffer_reply(4, 2, Some((4, &sim))) else { panic!() };
        assert_eq!(name, "c");
        let column = |i: usize| -> Vec<f32> { sim.buffer(i).iter().map(|&w| f32::from_bits(w)).collect() };
        let sums: Vec<String> = column(0).iter().zip(column(1)).map(|(a, b)| format!("{}", a + b)).collect();
        assert_eq!(text, sums.join("\n") + "\n");
        // Another job's id, or a buffer that does not exist: a sentence, not contents.
        assert!(matches!(buffer_reply(5, 2, Some((4, &sim))), Reply::Buffer { contents: Err(_), .. }));
        assert!(matches!(buffer_reply(4, 3, Some((4, &sim))), Reply::Buffer { contents: Err(_), .. }));
        assert!(matches!(buffer_reply(4, 0, None), Reply::Buffer { contents: Err(_), .. }));
    }

    fn snapshots(replies: &[Reply]) -> Vec<(u64, &Snapshot)> {
        replies
            .iter()
            .flat_map(|r| match r {
                Reply::Snapshots { snapshots, .. } => snapshots.as_slice(),
                _ => &[],
            })
            .map(|s| (s.every, &s.snapshot))
            .collect()
    }

    fn report(replies: &[Reply]) -> (&Report, &Option<String>) {
        match replies.last() {
            Some(Reply::Done { report: JobReport::Simulation(report), stopped_early, .. }) => (report, stopped_early),
            other => panic!("expected Done, got {other:?}"),
        }
    }

    #[test]
    fn a_simulate_job_reports_what_the_engine_computes_with_snapshots_on_its_grid() {
        let job = vecadd_job(500, u64::MAX);
        let out = replies(job.clone(), 256);
        let (report, stopped_early) = report(&out);
        let program = compile_for_run(&job.source, &job.defines, &job.config).unwrap();
        let options = RunOptions { max_cycles: u64::MAX, ..RunOptions::default() };
        let mut direct = Simulation::new(job.config, program.workload, &job.policies, options).unwrap();
        assert_eq!(direct.run(), StepOutcome::Finished);
        assert_eq!(*report, direct.report());
        assert_eq!(*stopped_early, None);

        let snaps = snapshots(&out);
        let cycles: Vec<u64> = snaps.iter().map(|(_, s)| s.cycle).collect();
        let last = report.cycles;
        assert!(last % 500 != 0, "the run ends between two grid points");
        let grid: Vec<u64> = (0..=last / 500).map(|k| k * 500).chain([last]).collect();
        assert_eq!(cycles, grid);
        assert!(snaps.iter().all(|(every, _)| *every == 500));
        let final_snapshot = snaps.last().unwrap().1;
        assert_eq!(final_snapshot.warp_instructions, report.warp_instructions);
        assert_eq!(final_snapshot.blocks_finished, report.blocks_finished);
        assert_eq!(report.blocks.len() as u64, report.blocks_finished, "a small grid keeps every record");
        let hits: u64 = snaps.iter().flat_map(|(_, s)| &s.l1_hits_since).map(|&h| h as u64).sum();
        assert_eq!(hits, report.sms[0].l1.hits);
    }

    /// A claim row's co-run: programs from the library side by side, under Warped-Slicer (which
    /// profiles them first) and a memory-issue gate, give the report the CLI's run gives.
    #[test]
    fn a_job_of_programs_side_by_side_runs_them_as_the_native_runner_does() {
        let mut config = presets::cke_maxwell();
        config.core.sm_count = 2;
        config.window.cycles = 20_000;
        let policies = Policies { tb: "ws:profile_cycles=2000".into(), warp: "gto+dmil".into() };
        let job = SimulateJob {
            name: Some("backprop".into()),
            co_runners: vec![CoRunner { workload: "spmv".into(), defines: vec![] }],
            source: library::by_id("backprop").unwrap().source.into(),
            defines: vec![],
            config: config.clone(),
            policies: policies.clone(),
            detail: ReportDetail::Totals,
            ..vecadd_job(0, u64::MAX)
        };
        let out = replies(job, 4096);
        let (report, _) = report(&out);
        let workload = library::program("backprop+spmv", None, &[], &config).unwrap();
        let mut direct = Simulation::new(config, workload, &policies, RunOptions::default()).unwrap();
        assert_eq!(direct.run(), StepOutcome::Finished);
        let mut expected = direct.report();
        expected.blocks = Vec::new();
        expected.series.windows = Vec::new();
        assert_eq!(*report, expected);
        assert_eq!(report.parts.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["backprop", "spmv"]);
        assert!(report.sharing.is_some(), "Warped-Slicer's split is in the report");
        let co_runner = |id: &str| vec![CoRunner { workload: id.into(), defines: vec![] }];
        for (co_runners, field, says) in [
            (co_runner("nothing"), "co_runners[0]", "no library workload nothing"),
            (co_runner("spmv+kmeans"), "co_runners[0]", "one library workload per co-runner"),
        ] {
            let job = SimulateJob { co_runners, ..vecadd_job(0, 100) };
            let Err(Failure::InvalidConfig(e)) = JobRunner::new(2, Job::Simulate(Box::new(job)), 0) else { panic!() };
            assert_eq!(e.field, field);
            assert!(e.reason.contains(says), "{}", e.reason);
        }
        // A kernel file of the page beside a library program: the file is "your file".
        let job =
            SimulateJob { co_runners: co_runner("spmv"), detail: ReportDetail::Totals, ..vecadd_job(0, u64::MAX) };
        let out = replies(job, 1 << 20);
        let (file_beside, _) = self::report(&out);
        assert_eq!(file_beside.parts.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["your file", "spmv"]);
        assert!(file_beside.parts.iter().all(|p| p.warp_instructions > 0), "both ran");
    }

    /// A storm of device grids: `parents` × 32 threads each launch a one-block grid.
    fn storm_job(parents: u32, detail: ReportDetail) -> SimulateJob {
        let source = format!(
            "__global__ void child(int *out) {{ out[threadIdx.x] = 1; }}\n\
             __global__ void parent(int *out) {{ child<<<1, 32>>>(out); }}\n\
             host {{ int out[32]; parent<<<{parents}, 32>>>(out); }}\n"
        );
        SimulateJob { source, defines: vec![], detail, ..vecadd_job(0, u64::MAX) }
    }

    #[test]
    fn the_page_gets_the_first_runs_whole_and_the_rest_totalled_per_kernel() {
        let parents = (MAX_RUNS_SHOWN as u32).div_ceil(32) + 8;
        let grids = u64::from(parents) * 32;
        let job = storm_job(parents, ReportDetail::Shown);
        let program = compile_for_run(&job.source, &job.defines, &job.config).unwrap();
        let mut direct =
            Simulation::new(job.config.clone(), program.workload, &job.policies, RunOptions::default()).unwrap();
        assert_eq!(direct.run(), StepOutcome::Finished);
        let whole = direct.report();
        assert_eq!(whole.kernels.len() as u64, 1 + grids, "the engine's report keeps every run");

        let out = replies(job, 4096);
        let (shown, _) = report(&out);
        assert_eq!(shown.kernels.len(), MAX_RUNS_SHOWN);
        assert!(shown.kernels == whole.kernels[..MAX_RUNS_SHOWN], "the first runs, whole");
        assert_eq!(shown.runs_total(), 1 + grids);
        let [children] = shown.run_groups.as_slice() else { panic!("{:?}", shown.run_groups) };
        let rest = &whole.kernels[MAX_RUNS_SHOWN..];
        assert_eq!(
            (children.name.as_str(), children.runs, children.device_runs),
            ("child", rest.len() as u64, rest.len() as u64)
        );
        assert_eq!(children.warp_instructions, rest.iter().map(|k| k.warp_instructions).sum::<u64>());
        assert_eq!(children.last_end, rest.iter().map(|k| k.end_cycle).max().unwrap());
        assert_eq!(
            (&shown.blocks, shown.cycles, &shown.l1),
            (&whole.blocks, whole.cycles, &whole.l1),
            "all else as the engine's"
        );

        let totals = replies(storm_job(parents, ReportDetail::Totals), 4096);
        let (totals, _) = report(&totals);
        assert!(totals.kernels == whole.kernels, "a claim is judged from every run");
        assert!(totals.blocks.is_empty() && totals.series.windows.is_empty() && totals.run_groups.is_empty());
    }

    #[test]
    fn replies_do_not_depend_on_slice_size() {
        let one_slice = one_by_one(replies(vecadd_job(300, u64::MAX), u64::MAX));
        for budget in [1, 7, 256] {
            assert_eq!(one_by_one(replies(vecadd_job(300, u64::MAX), budget)), one_slice, "slices of {budget} cycles");
        }
    }

    /// What the page holds after applying `replies`' snapshot batches by its rule.
    fn held_by_the_page(replies: &[Reply]) -> Vec<Snapshot> {
        let mut held: Vec<Snapshot> = Vec::new();
        for (every, snapshot) in snapshots(replies) {
            held.retain(|s| keeps(s.cycle, every));
            held.push(snapshot.clone());
        }
        held
    }

    #[test]
    fn batches_leave_out_only_what_the_page_would_drop() {
        // Stopped at an odd cycle: the last snapshot is off every interval's grid.
        let mut job = vecadd_job(1, 1001);
        job.defines = vec![("N".into(), "16384".into())];
        // Slices of one cycle take at most one snapshot each: every snapshot is sent.
        let all = replies(job.clone(), 1);
        let expected = held_by_the_page(&all);
        assert_eq!(expected.last().map(|s| s.cycle), Some(1001));
        assert!(snapshots(&all).last().is_some_and(|(every, _)| *every >= 4), "the interval doubled twice");
        for budget in [3, 100, 1000, u64::MAX] {
            let batched = replies(job.clone(), budget);
            assert_eq!(held_by_the_page(&batched), expected, "slices of {budget} cycles");
            if budget == u64::MAX {
                let (sent, taken) = (snapshots(&batched).len(), snapshots(&all).len());
                assert!(sent < taken / 2, "one batch sends {sent} of {taken} snapshots");
            }
        }
    }

    #[test]
    fn the_page_rule_keeps_at_most_max_snapshots_as_the_interval_doubles() {
        let mut job = vecadd_job(1, u64::MAX);
        job.defines = vec![("N".into(), "16384".into())];
        let out = replies(job, 100);
        let snaps = snapshots(&out);
        let last = report(&out).0.cycles;
        assert!(last > 2 * MAX_SNAPSHOTS as u64, "long enough to double twice: {last} cycles");
        // What the page does: append, then drop what the announced interval no longer keeps,
        // except the newest.
        let mut held: Vec<u64> = Vec::new();
        let mut intervals = Vec::new();
        for (every, s) in &snaps {
            held.push(s.cycle);
            let newest = s.cycle;
            held.retain(|&c| c == newest || keeps(c, *every));
            assert!(held.len() <= MAX_SNAPSHOTS + 1, "{} held at cycle {newest}", held.len());
            if intervals.last() != Some(every) {
                intervals.push(*every);
            }
        }
        // The interval only ever doubles; every snapshot but the last lies on its grid.
        assert!(intervals.len() >= 3 && intervals[0] == 1);
        assert!(intervals.windows(2).all(|w| w[1] == 2 * w[0]));
        assert!(snaps[..snaps.len() - 1].iter().all(|(every, s)| s.cycle % every == 0));
        // The page ends with the multiples of the last interval, and the end.
        let every = *intervals.last().unwrap();
        let mut expected: Vec<u64> = (0..=last / every).map(|k| k * every).collect();
        if expected.last() != Some(&last) {
            expected.push(last);
        }
        assert_eq!(held, expected);
    }

    #[test]
    fn no_interval_means_the_first_and_the_last_snapshot_and_any_sm_is_pictured() {
        let mut job = vecadd_job(0, u64::MAX);
        job.heat_sm = u32::MAX;
        let out = replies(job, 256);
        let snaps = snapshots(&out);
        let last = report(&out).0.cycles;
        let cycles: Vec<(u64, u64)> = snaps.iter().map(|(every, s)| (*every, s.cycle)).collect();
        assert_eq!(cycles, [(0, 0), (0, last)]);
        assert!(keeps(last, 0));
        assert_eq!(snaps[0].1.l1_sm, presets::fermi_gtx480().core.sm_count - 1, "the last SM");
    }

    #[test]
    fn the_cycle_limit_ends_with_the_report_and_a_sentence() {
        let out = replies(vecadd_job(100, 250), 64);
        let (report, stopped_early) = report(&out);
        assert_eq!(report.cycles, 250);
        assert_eq!(
            stopped_early.as_deref(),
            Some("stopped at the cycle limit (250 cycles) before the workload finished")
        );
        let cycles: Vec<u64> = snapshots(&out).iter().map(|(_, s)| s.cycle).collect();
        assert_eq!(cycles, [0, 100, 200, 250]);
    }

    #[test]
    fn a_file_that_does_not_compile_fails_with_its_diagnostics() {
        let mut job = vecadd_job(100, u64::MAX);
        job.source = job.source.replace("c[i] = a[i] + b[i];", "c[i] = a[i] + d[i];");
        let Err(Failure::Compile { diagnostics }) = JobRunner::new(1, Job::Simulate(Box::new(job.clone())), 0) else {
            panic!("expected a compile failure")
        };
        let line = job.source.lines().position(|l| l.contains("d[i]")).unwrap() as u32 + 1;
        let column = job.source.lines().nth(line as usize - 1).unwrap().find("d[i]").unwrap() as u32 + 1;
        let at: Vec<(u32, u32)> = diagnostics.iter().map(|d| (d.span.line, d.span.column)).collect();
        assert_eq!(at, [(line, column)], "{diagnostics:?}");
    }

    #[test]
    fn an_unknown_policy_or_a_bad_machine_is_an_invalid_config() {
        let mut job = vecadd_job(100, u64::MAX);
        job.policies.warp = "fastest".into();
        let Err(Failure::InvalidConfig(e)) = JobRunner::new(1, Job::Simulate(Box::new(job)), 0) else { panic!() };
        assert_eq!(e.field, "policies.warp");
        let mut job = vecadd_job(100, u64::MAX);
        job.config.core.warp_size = 0;
        let Err(Failure::InvalidConfig(e)) = JobRunner::new(1, Job::Simulate(Box::new(job)), 0) else { panic!() };
        assert_eq!(e.field, "core.warp_size");
    }

    #[test]
    fn a_fault_stops_the_job_with_a_sentence() {
        let mut job = vecadd_job(100, u64::MAX);
        job.source = job.source.replace("c[i] = a[i] + b[i];", "c[i + 100000000] = a[i] + b[i];");
        let mut runner = JobRunner::new(1, Job::Simulate(Box::new(job)), 0).unwrap();
        let mut out = Vec::new();
        let failure = loop {
            let advance = runner.advance(1000, &mut |r| out.push(r));
            out.extend(runner.take_snapshots());
            match advance {
                Advance::Running => {}
                Advance::Finished => panic!("the run should fault"),
                Advance::Stopped(failure) => break failure,
            }
        };
        let Failure::Stopped { message } = failure else { panic!("{failure:?}") };
        assert!(message.starts_with("kernel vecadd faulted on SM "), "{message}");
        assert!(!message.contains("BadAddress {"), "no Debug output: {message}");
        assert!(snapshots(&out).len() >= 2, "the machine at the fault is pictured");
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
