//! The app's state and the one place it changes: worker replies and user actions become
//! [`Action`]s folded by [`AppState::reduce`] (a Yew reducer). Pure, tested natively.
//!
//! Jobs run on a pool of workers ([`crate::pool`]), each running one job at a time: the
//! Simulate view's run, the compare view's variants and the gallery cards' runs are queued as
//! [`QueuedJob`]s, each with the [`Target`] its result belongs to. The app keeps one Web Worker
//! per slot of [`AppState::pool`] and sends each worker the job the pool gives it.
//!
//! A gallery card's runs keep only what the card judges from: no snapshots, and a report the
//! worker sends without its per-block records and time series
//! ([`protocol::ReportDetail::Totals`]; the native `warpscope reproduce` drops the same
//! before it measures). So do the runs of a
//! warp-limit sweep ([`crate::swl_sweep`]), which its chart measures from the totals.

use std::rc::Rc;

use warpscope_core::kernel::{Define, Diagnostic};
use warpscope_core::stats::{Report, Snapshot};
use warpscope_wasm::protocol::{
    self, Catalog, CompileSummary, Failure, Job, JobId, JobReport, Reply, SimulateJob, TakenSnapshot, PROTOCOL_VERSION,
};
use yew::Reducible;

use crate::gallery;
use crate::identity::same_or_equal;
use crate::pair_matrix::PairMatrix;
use crate::pool::{Death, Pool};
pub use crate::pool::{QueuedJob, Target, WorkerStatus};
use crate::swl_sweep::Sweep;

/// The machine a first visit starts on.
pub const DEFAULT_MACHINE: &str = "fermi-gtx480";
/// The workload a first visit starts with.
pub const DEFAULT_WORKLOAD: &str = "hotspot";
/// Cycle budget of a run unless the person sets another.
pub const DEFAULT_MAX_CYCLES: u64 = 20_000_000;

/// A finished run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Everything the engine measured.
    pub report: Rc<Report>,
    /// Pictures of the machine over time, oldest first.
    pub snapshots: Rc<Vec<Rc<Snapshot>>>,
    /// Wall time in the worker, ms.
    pub elapsed_ms: f64,
    /// Why the run ended before the workload did (the cycle budget), if it did.
    pub stopped_early: Option<String>,
    /// What it ran, for the Simulate view's run (a sweep of warp limits reruns it); `None`
    /// for the other views' runs.
    pub job: Option<Rc<SimulateJob>>,
    /// Its buffers' names, in order, and where their final contents can be asked for: the
    /// worker that ran it (by generation) and the job's id.
    pub buffers: Rc<Vec<String>>,
    /// The worker and job of [`RunResult::buffers`].
    pub ran_on: (u32, JobId),
}

impl PartialEq for RunResult {
    fn eq(&self, other: &Self) -> bool {
        same_or_equal(&self.report, &other.report)
            && self.snapshots == other.snapshots
            && self.elapsed_ms == other.elapsed_ms
            && self.stopped_early == other.stopped_early
            && self.job == other.job
            && self.buffers == other.buffers
            && self.ran_on == other.ran_on
    }
}

/// One run's place on the page.
#[derive(Clone, Debug, PartialEq)]
pub enum RunView {
    /// Not run.
    Idle,
    /// Waiting for the worker.
    Queued,
    /// Running.
    Running {
        /// Job id.
        id: JobId,
        /// Cycles simulated so far.
        cycle: u64,
        /// Share of the launch sequence done, 0..=1.
        fraction: f64,
        /// Page time (ms) when it started, and of the latest progress.
        started_ms: f64,
        /// Page time (ms) of the latest progress.
        latest_ms: f64,
        /// Snapshots so far.
        snapshots: Rc<Vec<Rc<Snapshot>>>,
    },
    /// Finished (or stopped at its cycle budget).
    Finished(Rc<RunResult>),
    /// Cancelled at `cycle`.
    Cancelled {
        /// Cycles done.
        cycle: u64,
    },
    /// Failed; the message is for the person.
    Failed {
        /// What went wrong and what to do.
        message: String,
        /// The configuration field at fault (a [`warpscope_core::ConfigError`] path).
        field: Option<String>,
    },
}

impl RunView {
    /// Job `id` running, first heard of at page time `at_ms`.
    fn started(id: JobId, cycle: u64, fraction: f64, at_ms: f64) -> RunView {
        RunView::Running { id, cycle, fraction, started_ms: at_ms, latest_ms: at_ms, snapshots: Rc::default() }
    }

    /// The result, when finished.
    pub fn result(&self) -> Option<&Rc<RunResult>> {
        match self {
            RunView::Finished(result) => Some(result),
            _ => None,
        }
    }

    /// Waiting or running.
    pub fn busy(&self) -> bool {
        matches!(self, RunView::Queued | RunView::Running { .. })
    }

    /// Of several runs: how many finished, and the share of them all done (running runs by
    /// their progress).
    pub fn progress_of(runs: &[RunView]) -> (usize, f64) {
        let done = runs.iter().filter(|r| r.result().is_some()).count();
        let partial: f64 = runs.iter().map(RunView::done_share).sum();
        (done, if runs.is_empty() { 0.0 } else { partial / runs.len() as f64 })
    }

    /// How much of the run is done, 0..=1: all of it once finished, its reported progress
    /// while running, none otherwise.
    pub fn done_share(&self) -> f64 {
        match self {
            RunView::Finished(_) => 1.0,
            RunView::Running { fraction, .. } => fraction.clamp(0.0, 1.0),
            _ => 0.0,
        }
    }
}

/// The editor's view of the latest compile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompileView {
    /// Id of the newest compile request sent; older answers are dropped.
    pub latest: JobId,
    /// Whether its answer is still out.
    pub pending: bool,
    /// Errors and warnings of the newest answer.
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// Its `#define`s.
    pub defines: Rc<Vec<Define>>,
    /// What would run, when the newest answer compiled.
    pub summary: Option<Rc<CompileSummary>>,
    /// The newest summary of any answer that compiled: kept while the file has errors, so
    /// that the launch sequence does not vanish at every typo.
    pub last_good: Option<Rc<CompileSummary>>,
}

impl CompileView {
    /// Whether the newest answer has errors (not just warnings).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == warpscope_core::kernel::Severity::Error)
    }
}

/// The jobs one Cancel button stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The Simulate view's run.
    Main,
    /// Every compare variant.
    Compare,
    /// Every run of gallery card `n`.
    Card(usize),
    /// Every run of the warp-limit sweep.
    Sweep,
    /// Every run of the pair matrix.
    Pairs,
}

impl Scope {
    /// Whether `target` is one of its jobs.
    pub fn matches(self, target: Target) -> bool {
        match (self, target) {
            (Scope::Main, Target::Main) | (Scope::Compare, Target::Compare(_)) => true,
            (Scope::Card(n), Target::Card { card, .. }) => n == card,
            (Scope::Sweep, Target::Sweep { .. }) | (Scope::Pairs, Target::Pair { .. }) => true,
            _ => false,
        }
    }
}

/// Everything the app shows that is not the set-up being edited.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// The workers, their jobs and the jobs waiting.
    pub pool: Pool,
    /// Menus' contents, once the worker sent them.
    pub catalog: Option<Rc<Catalog>>,
    /// A message about the workers themselves (version mismatch, crash), for the person.
    pub notice: Option<String>,
    /// The latest compile.
    pub compile: CompileView,
    /// The Simulate view's run.
    pub main: RunView,
    /// The compare view's runs, one per variant.
    pub compare: Vec<RunView>,
    /// The gallery's runs: per card (in [`gallery::cards`] order), per run of its claim.
    pub gallery: Vec<Vec<RunView>>,
    /// The warp-limit sweep of the Simulate view's run, once asked for (a new run clears it).
    pub sweep: Option<Sweep>,
    /// The pair matrix, once run.
    pub pairs: Option<PairMatrix>,
}

impl Default for AppState {
    fn default() -> Self {
        AppState::with_workers(1)
    }
}

/// Page time (ms) between two updates of one run's progress. A worker reports after every
/// slice, about 80 times a second, and every update renders the page: with several workers
/// running, the main thread would take a good part of a core the workers need.
pub const PROGRESS_EVERY_MS: f64 = 100.0;

/// Something that happened.
#[derive(Clone, Debug)]
pub enum Action {
    /// Jobs to run, in order; a job for a target that already has one queued replaces it.
    Enqueue(Vec<QueuedJob>),
    /// Stop every job of `scope`: queued ones are dropped here; the app asks the workers
    /// running the others to stop.
    Cancel(Scope),
    /// A compile request `id` was sent.
    Compiling {
        /// Its id.
        id: JobId,
    },
    /// The compare view now has `n` variants (results beyond are dropped).
    ResizeCompare(usize),
    /// A warp-limit sweep of the Simulate view's run starts, replacing any other: `jobs` (one
    /// per limit of `limits`, targets [`Target::Sweep`] of `serial`).
    StartSweep {
        /// Its serial, new for the page.
        serial: u32,
        /// The limits, ascending.
        limits: Vec<u32>,
        /// Their jobs, in the same order.
        jobs: Vec<QueuedJob>,
    },
    /// A pair matrix starts, replacing any other: `jobs` in [`crate::pair_matrix::MatrixSpec::jobs`]
    /// order, targets [`Target::Pair`] of the matrix's serial.
    StartPairs {
        /// The matrix, every run queued (boxed: it carries a machine).
        matrix: Box<PairMatrix>,
        /// Its jobs.
        jobs: Vec<QueuedJob>,
    },
    /// A view that spreads its runs over the workers opened: start them all now.
    StartWorkers,
    /// The worker of `generation` replied.
    Reply {
        /// Which worker.
        generation: u32,
        /// What it said.
        reply: Reply,
        /// Page time, ms.
        at_ms: f64,
    },
    /// The browser would not start the worker of `generation` at all.
    WorkerUnavailable {
        /// Which worker.
        generation: u32,
        /// Why, for a person.
        message: String,
    },
    /// The worker of `generation` died without a reply (a script error event).
    WorkerDied {
        /// Which worker.
        generation: u32,
        /// The browser's description.
        message: String,
    },
    /// The worker of `generation` was started [`WORKER_START_TIMEOUT_MS`] ago: if it has not
    /// said it is ready, it never will (a script that failed to load may raise no error).
    WorkerStartDue {
        /// Which worker.
        generation: u32,
    },
}

/// How long a worker may take to say it is ready before it is given up. Loading and compiling
/// the engine takes well under a second; the margin is for slow machines and networks.
pub const WORKER_START_TIMEOUT_MS: u32 = 20_000;

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        // The same state: no copy, and Yew does not render the page again.
        if self.skips(&action) {
            return self;
        }
        let mut next = (*self).clone();
        next.apply(action);
        Rc::new(next)
    }
}

impl AppState {
    /// A page running at most `workers` workers, its gallery cards not run.
    pub fn with_workers(workers: usize) -> AppState {
        AppState {
            pool: Pool::new(workers),
            catalog: None,
            notice: None,
            compile: CompileView::default(),
            main: RunView::Idle,
            compare: Vec::new(),
            gallery: gallery::cards().iter().map(|card| vec![RunView::Idle; card.runs.len()]).collect(),
            sweep: None,
            pairs: None,
        }
    }

    /// The run view of `target` (created idle when the compare or gallery list is short);
    /// `None` for a run of a sweep that has since been replaced or cleared, whose news is
    /// dropped.
    pub fn view_mut(&mut self, target: Target) -> Option<&mut RunView> {
        match target {
            Target::Main => Some(&mut self.main),
            Target::Compare(i) => {
                if self.compare.len() <= i {
                    self.compare.resize(i + 1, RunView::Idle);
                }
                Some(&mut self.compare[i])
            }
            Target::Card { card, run } => {
                if self.gallery.len() <= card {
                    self.gallery.resize(card + 1, Vec::new());
                }
                let card = &mut self.gallery[card];
                if card.len() <= run {
                    card.resize(run + 1, RunView::Idle);
                }
                Some(&mut card[run])
            }
            Target::Sweep { sweep, point } => {
                self.sweep.as_mut().filter(|s| s.serial == sweep).and_then(|s| s.runs.get_mut(point))
            }
            Target::Pair { matrix, run } => {
                self.pairs.as_mut().filter(|m| m.serial == matrix).and_then(|m| m.runs.get_mut(run))
            }
        }
    }

    /// Sets the run view of `target`, if it still has one.
    fn set_view(&mut self, target: Target, view: RunView) {
        if let Some(slot) = self.view_mut(target) {
            *slot = view;
        }
    }

    /// The run view of `target`, if it exists.
    pub fn view(&self, target: Target) -> Option<&RunView> {
        match target {
            Target::Main => Some(&self.main),
            Target::Compare(i) => self.compare.get(i),
            Target::Card { card, run } => self.gallery.get(card).and_then(|c| c.get(run)),
            Target::Sweep { sweep, point } => {
                self.sweep.as_ref().filter(|s| s.serial == sweep).and_then(|s| s.runs.get(point))
            }
            Target::Pair { matrix, run } => {
                self.pairs.as_ref().filter(|m| m.serial == matrix).and_then(|m| m.runs.get(run))
            }
        }
    }

    /// Whether any job is queued or running.
    pub fn busy(&self) -> bool {
        self.pool.busy(|_| true)
    }

    /// Whether a job that runs the set-up being edited (the Simulate view's or a compare
    /// variant) is queued or running: the set-up's fields are locked meanwhile. Gallery cards
    /// run their own set-ups, a sweep the finished run's, and a pair matrix the programs and
    /// scheme it was started with.
    pub fn setup_busy(&self) -> bool {
        self.pool.busy(|t| !matches!(t, Target::Card { .. } | Target::Sweep { .. } | Target::Pair { .. }))
    }

    /// Whether some worker is ready (the page's `Compile` requests go to the first).
    pub fn engine_ready(&self) -> bool {
        self.pool.primary().is_some()
    }

    /// Whether `action` would change nothing the page shows, or too little too soon: a
    /// progress report for a job no worker runs, or one that comes less than
    /// [`PROGRESS_EVERY_MS`] after the last shown for its run (the next one shown carries the
    /// newest numbers; the run's end is a `Done`, never skipped). A report is shown anyway when
    /// the run's latest snapshot is past the cycle its status line says: the worker sends each
    /// batch of snapshots just before a report, and the line should not trail the picture.
    pub fn skips(&self, action: &Action) -> bool {
        let Action::Reply { generation, reply: Reply::Progress { id, .. }, at_ms } = action else { return false };
        let Some(target) = self.pool.running(*generation, *id) else { return true };
        matches!(self.view(target), Some(RunView::Running { latest_ms, cycle, snapshots, .. })
            if at_ms - latest_ms < PROGRESS_EVERY_MS && snapshots.last().is_none_or(|s| s.cycle <= *cycle))
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Enqueue(jobs) => {
                if jobs.iter().any(|j| j.target == Target::Main) {
                    // A new run clears the sweep of the last one (the app has asked the
                    // workers running its jobs to stop; their replies find no view).
                    self.pool.drop_queued(|t| Scope::Sweep.matches(t));
                    self.sweep = None;
                }
                for job in jobs {
                    self.set_view(job.target, RunView::Queued);
                    self.pool.enqueue(job);
                }
                self.schedule();
            }
            Action::StartPairs { matrix, jobs } => {
                self.pool.drop_queued(|t| Scope::Pairs.matches(t));
                self.pairs = Some(*matrix);
                self.apply(Action::Enqueue(jobs));
            }
            Action::StartSweep { serial, limits, jobs } => {
                self.pool.drop_queued(|t| Scope::Sweep.matches(t));
                self.sweep = Some(Sweep::new(serial, limits));
                self.apply(Action::Enqueue(jobs));
            }
            Action::Cancel(scope) => {
                for target in self.pool.drop_queued(|t| scope.matches(t)) {
                    self.set_view(target, RunView::Idle);
                }
                // A running job ends when its worker says `Cancelled`; the app sends the
                // request to each worker in `pool.running_matching(|t| scope.matches(t))`.
            }
            Action::Compiling { id } => {
                self.compile.latest = id;
                self.compile.pending = true;
            }
            Action::ResizeCompare(n) => self.compare.resize(n, RunView::Idle),
            Action::StartWorkers => self.pool.start_all(),
            Action::Reply { generation, .. } if !self.pool.knows(generation) => {}
            Action::Reply { generation, reply, at_ms } => self.on_reply(generation, reply, at_ms),
            Action::WorkerUnavailable { generation, message } => {
                self.worker_died(generation, &format!("the browser would not start it: {message}"));
            }
            Action::WorkerDied { generation, message } => self.worker_died(generation, &message),
            Action::WorkerStartDue { generation } => {
                if self.pool.workers().iter().any(|w| w.generation == generation && w.status == WorkerStatus::Starting)
                {
                    let seconds = WORKER_START_TIMEOUT_MS / 1000;
                    self.worker_died(
                        generation,
                        &format!(
                            "it did not say it was ready within {seconds} s; its scripts may be missing from the \
                             server or blocked"
                        ),
                    );
                }
            }
        }
    }

    /// Gives waiting jobs to free workers; fails them if no worker can ever take them.
    fn schedule(&mut self) {
        self.pool.schedule();
        if self.pool.all_gone() {
            self.notice = Some("The simulator cannot start in this browser: its worker did not load.".into());
            self.fail_all("The simulation worker is not available.");
        }
    }

    fn on_reply(&mut self, generation: u32, reply: Reply, at_ms: f64) {
        let running = |pool: &Pool, id: JobId| pool.running(generation, id);
        match reply {
            Reply::Ready { protocol } if protocol != PROTOCOL_VERSION => {
                self.notice = Some(format!(
                    "The simulation worker is a different version (protocol {protocol}, page {PROTOCOL_VERSION}). \
                     Reload the page to load matching files."
                ));
            }
            Reply::Ready { .. } => {
                self.pool.ready(generation);
                self.schedule();
            }
            Reply::Catalog { catalog } => self.catalog = Some(Rc::new(*catalog)),
            Reply::Compiled { id, diagnostics, defines, summary } if id == self.compile.latest => {
                let summary = summary.map(Rc::new);
                self.compile = CompileView {
                    latest: id,
                    pending: false,
                    diagnostics: Rc::new(diagnostics),
                    defines: Rc::new(defines),
                    last_good: summary.clone().or_else(|| self.compile.last_good.take()),
                    summary,
                };
            }
            Reply::Compiled { .. } => {}
            Reply::Progress { id, cycle, fraction, .. } => {
                let Some(target) = running(&self.pool, id) else { return };
                let Some(view) = self.view_mut(target) else { return };
                match view {
                    RunView::Running { cycle: c, fraction: f, latest_ms, .. } => {
                        (*c, *f, *latest_ms) = (cycle, fraction, at_ms);
                    }
                    _ => *view = RunView::started(id, cycle, fraction, at_ms),
                }
            }
            Reply::Snapshots { id, snapshots: taken } => {
                let Some(target) = running(&self.pool, id) else { return };
                let keep = keeps_snapshots(target);
                let Some(view) = self.view_mut(target) else { return };
                if let (false, Some(first)) = (matches!(view, RunView::Running { .. }), taken.first()) {
                    *view = RunView::started(id, first.snapshot.cycle, 0.0, at_ms);
                }
                if let (RunView::Running { snapshots, .. }, true) = (view, keep) {
                    let list = Rc::make_mut(snapshots);
                    for TakenSnapshot { every, snapshot } in taken {
                        list.retain(|s| protocol::keeps(s.cycle, every));
                        list.push(Rc::new(snapshot));
                    }
                }
            }
            Reply::Done { id, report, elapsed_ms, stopped_early, buffers } => {
                // The Simulate view's run keeps what it ran, for a sweep of warp limits.
                let job = match self.pool.running_job(generation, id) {
                    Some(QueuedJob { target: Target::Main, job: Job::Simulate(job), .. }) => {
                        Some(Rc::new((**job).clone()))
                    }
                    _ => None,
                };
                let Some(target) = self.pool.finish(generation, id) else { return };
                let Some(view) = self.view_mut(target) else {
                    self.schedule();
                    return;
                };
                let snapshots = match view {
                    RunView::Running { snapshots, .. } => std::mem::take(snapshots),
                    _ => Rc::default(),
                };
                *view = match report {
                    JobReport::Simulation(report) => RunView::Finished(Rc::new(RunResult {
                        report: Rc::new(*report),
                        snapshots,
                        elapsed_ms,
                        stopped_early,
                        job,
                        buffers: Rc::new(buffers),
                        ran_on: (generation, id),
                    })),
                    JobReport::CacheSweep(_) => {
                        RunView::Failed { message: "The worker answered with a cache sweep.".into(), field: None }
                    }
                };
                self.schedule();
            }
            // The page saves the contents as they arrive (`app.rs`); only a refusal is news.
            Reply::Buffer { contents: Err(why), .. } => {
                self.notice = Some(format!("The buffer cannot be downloaded: {why}."));
            }
            Reply::Buffer { .. } => {}
            // The page never asks (the memory benchmark does).
            Reply::Memory { .. } => {}
            Reply::Cancelled { id, cycle } => {
                let Some(target) = self.pool.finish(generation, id) else { return };
                self.set_view(target, RunView::Cancelled { cycle });
                self.schedule();
            }
            Reply::Failed { error: Failure::Crashed { message }, .. } => self.worker_died(generation, &message),
            Reply::Failed { id: None, error } => {
                self.notice = Some(format!("The simulation worker reported a problem: {}", describe(&error)));
            }
            Reply::Failed { id: Some(id), error } => {
                let Some(target) = self.pool.finish(generation, id) else { return };
                let field = match &error {
                    Failure::InvalidConfig(err) => Some(err.field.clone()),
                    _ => None,
                };
                self.set_view(target, RunView::Failed { message: describe(&error), field });
                self.schedule();
            }
            Reply::Frame { .. } => {}
        }
    }

    /// Every queued and running job fails with `message`.
    fn fail_all(&mut self, message: &str) {
        for job in self.pool.drain() {
            self.set_view(job.target, RunView::Failed { message: message.into(), field: None });
        }
    }

    /// The worker of `generation` is dead: its job fails, and the pool replaces it (or gives
    /// it up if it never started). A second report of the same death changes nothing.
    fn worker_died(&mut self, generation: u32, message: &str) {
        let Some(Death { lost, replaced, was_ready }) = self.pool.died(generation) else { return };
        let notice = match (replaced, was_ready) {
            (true, _) => format!("A simulation worker crashed and has been restarted ({message})."),
            (false, true) => format!(
                "Simulation workers crashed {} times in a row, so no more are started; reload the page to try again \
                 ({message}).",
                crate::pool::MAX_CRASHES_IN_A_ROW
            ),
            (false, false) => format!("A simulation worker could not start ({message})."),
        };
        if let Some(job) = lost {
            let after = if replaced { "a fresh worker has been started" } else { "no fresh worker is started" };
            let message = format!(
                "The simulation worker crashed, so this run was lost; {after}. Please report this with the set-up \
                 (use Share) and this message: {message}"
            );
            self.set_view(job.target, RunView::Failed { message, field: None });
        }
        if self.pool.primary().is_none() {
            // Its compile answer will not come; the next edit asks the fresh worker.
            self.compile.pending = false;
        }
        self.schedule();
        // `schedule` says so when no worker could ever start; workers that crashed in a row
        // are named as such.
        if was_ready || !self.pool.all_gone() {
            self.notice = Some(notice);
        }
    }
}

/// Whether the runs of `target` keep their snapshots for playback (gallery cards', a sweep's
/// and a pair matrix's do not).
fn keeps_snapshots(target: Target) -> bool {
    !matches!(target, Target::Card { .. } | Target::Sweep { .. } | Target::Pair { .. })
}

/// A person's account of a failure.
pub fn describe(error: &Failure) -> String {
    match error {
        Failure::InvalidConfig(err) => format!("The engine rejected the settings: {} ({}).", err.reason, err.field),
        Failure::BadRequest { message } => format!("The simulation worker did not understand the page: {message}"),
        Failure::Stopped { message } => format!("The simulation stopped: {message}."),
        Failure::Compile { diagnostics } => {
            let errors = diagnostics.iter().filter(|d| d.severity == warpscope_core::kernel::Severity::Error);
            match errors.clone().next() {
                Some(first) => format!(
                    "The kernel file does not compile ({} error{}); the first is at {}:{}: {}",
                    errors.count(),
                    if diagnostics.len() == 1 { "" } else { "s" },
                    first.span.line,
                    first.span.column,
                    first.message
                ),
                None => "The kernel file does not compile.".into(),
            }
        }
        Failure::Crashed { message } => format!("The simulation worker crashed: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::tests::job;

    fn ready(workers: usize) -> AppState {
        let mut state = AppState::with_workers(workers);
        state.apply(Action::Reply { generation: 0, reply: Reply::Ready { protocol: PROTOCOL_VERSION }, at_ms: 0.0 });
        state
    }

    /// A reply from the worker of `generation`.
    fn reply_from(state: &mut AppState, generation: u32, reply: Reply) {
        state.apply(Action::Reply { generation, reply, at_ms: 10.0 });
    }

    /// A reply from the first worker.
    fn reply(state: &mut AppState, reply: Reply) {
        let generation = state.pool.workers()[0].generation;
        reply_from(state, generation, reply);
    }

    fn done(id: JobId, cycles: u64) -> Reply {
        let report = Report { cycles, ..Report::default() };
        Reply::Done {
            buffers: Vec::new(),
            id,
            report: JobReport::Simulation(Box::new(report)),
            elapsed_ms: 1.0,
            stopped_early: None,
        }
    }

    /// The job id each worker runs.
    fn running(state: &AppState) -> Vec<Option<JobId>> {
        state.pool.workers().iter().map(|w| w.job.as_ref().map(|j| j.id)).collect()
    }

    #[test]
    fn with_one_worker_jobs_run_one_at_a_time_in_order() {
        let mut state = ready(1);
        state.apply(Action::Enqueue(vec![job(1, Target::Compare(0)), job(2, Target::Compare(1))]));
        assert_eq!(running(&state), [Some(1)]);
        assert_eq!(state.compare, [RunView::Queued, RunView::Queued]);
        reply(&mut state, done(1, 300));
        assert_eq!(running(&state), [Some(2)], "the next job is sent when one ends");
        assert_eq!(state.compare[0].result().map(|r| r.report.cycles), Some(300));
        reply(&mut state, done(2, 100));
        assert!(running(&state) == [None] && !state.busy());
        assert_eq!(state.compare[1].result().map(|r| r.report.cycles), Some(100));
    }

    #[test]
    fn compare_variants_run_side_by_side_on_two_workers() {
        let mut state = ready(2);
        state.apply(Action::Enqueue(vec![job(1, Target::Compare(0)), job(2, Target::Compare(1))]));
        let second = state.pool.workers()[1].generation;
        reply_from(&mut state, second, Reply::Ready { protocol: PROTOCOL_VERSION });
        assert_eq!(running(&state), [Some(1), Some(2)]);
        reply_from(&mut state, second, Reply::Progress { id: 2, cycle: 50, total: 0, fraction: 0.5 });
        assert!(matches!(state.compare[1], RunView::Running { cycle: 50, .. }));
        reply(&mut state, Reply::Progress { id: 2, cycle: 99, total: 0, fraction: 0.9 });
        assert!(matches!(state.compare[1], RunView::Running { cycle: 50, .. }), "job 2 is not the first worker's");
        reply_from(&mut state, second, done(2, 100));
        reply(&mut state, done(1, 300));
        let cycles: Vec<_> = state.compare.iter().map(|r| r.result().map(|r| r.report.cycles)).collect();
        assert_eq!(cycles, [Some(300), Some(100)]);
    }

    #[test]
    fn nothing_is_sent_before_a_worker_is_ready_and_a_requeued_target_replaces_its_job() {
        let mut state = AppState::with_workers(1);
        state.apply(Action::Enqueue(vec![job(1, Target::Main), job(2, Target::Compare(0))]));
        assert_eq!(running(&state), [None], "held until Ready");
        state.apply(Action::Enqueue(vec![job(3, Target::Compare(0))]));
        assert_eq!(state.pool.queue().iter().map(|j| j.id).collect::<Vec<_>>(), [1, 3]);
        reply(&mut state, Reply::Ready { protocol: PROTOCOL_VERSION });
        assert_eq!(running(&state), [Some(1)]);
        assert!(state.engine_ready());
    }

    #[test]
    fn replies_of_other_jobs_and_dead_workers_are_dropped() {
        let mut state = ready(1);
        state.apply(Action::Enqueue(vec![job(7, Target::Main)]));
        reply(&mut state, done(6, 1));
        assert_eq!(state.main, RunView::Queued, "a reply for an older job changes nothing");
        reply_from(&mut state, 99, done(7, 1));
        assert_eq!(state.main, RunView::Queued, "a reply from another worker generation changes nothing");
        reply(&mut state, Reply::Failed { id: None, error: Failure::Crashed { message: "boom".into() } });
        assert!(matches!(&state.main, RunView::Failed { message, .. } if message.contains("boom")));
        assert_eq!(state.pool.workers()[0].status, WorkerStatus::Starting, "a fresh worker is starting");
        assert_ne!(state.pool.workers()[0].generation, 0);
        assert!(state.notice.as_deref().is_some_and(|n| n.contains("restarted")));
        // The browser's error event for the same crash arrives after the worker's own reply.
        let before = state.pool.clone();
        state.apply(Action::WorkerDied { generation: 0, message: "unreachable".into() });
        assert_eq!(state.pool, before, "one crash, one restart");
        reply_from(&mut state, 0, done(7, 1));
        assert!(matches!(&state.main, RunView::Failed { .. }), "the dead worker's late reply is dropped");
    }

    #[test]
    fn a_crash_fails_only_the_crashed_workers_run() {
        let mut state = ready(2);
        let jobs = (0..3).map(|run| job(run as JobId + 1, Target::Card { card: 0, run })).collect();
        state.apply(Action::Enqueue(jobs));
        let second = state.pool.workers()[1].generation;
        reply_from(&mut state, second, Reply::Ready { protocol: PROTOCOL_VERSION });
        assert_eq!(running(&state), [Some(1), Some(2)]);
        state.apply(Action::WorkerDied { generation: second, message: "out of memory".into() });
        assert!(matches!(&state.gallery[0][1], RunView::Failed { message, .. } if message.contains("out of memory")));
        assert_eq!(state.gallery[0][0], RunView::Queued, "the other worker's run goes on");
        assert_eq!(state.gallery[0][2], RunView::Queued, "the queued run waits for the replacement");
        let fresh = state.pool.workers()[1].generation;
        reply_from(&mut state, fresh, Reply::Ready { protocol: PROTOCOL_VERSION });
        assert_eq!(running(&state), [Some(1), Some(3)]);
    }

    #[test]
    fn when_no_worker_can_start_the_jobs_fail_with_a_notice() {
        let mut state = AppState::with_workers(1);
        state.apply(Action::Enqueue(vec![job(1, Target::Main)]));
        state.apply(Action::WorkerUnavailable { generation: 0, message: "no workers here".into() });
        assert!(matches!(&state.main, RunView::Failed { message, .. } if message.contains("not available")));
        assert!(state.notice.as_deref().is_some_and(|n| n.contains("cannot start")));
        assert_eq!(state.pool.workers().len(), 1, "nothing is restarted");
        state.apply(Action::Enqueue(vec![job(2, Target::Main)]));
        assert!(matches!(&state.main, RunView::Failed { .. }), "later jobs fail at once");
    }

    #[test]
    fn a_worker_that_never_says_ready_is_given_up_when_its_start_is_due() {
        let mut state = AppState::with_workers(1);
        state.apply(Action::Enqueue(vec![job(1, Target::Main)]));
        state.apply(Action::WorkerStartDue { generation: 0 });
        assert!(matches!(&state.main, RunView::Failed { message, .. } if message.contains("not available")));
        assert!(state.notice.as_deref().is_some_and(|n| n.contains("cannot start")), "{:?}", state.notice);
        // A worker that did say it was ready is left alone.
        let mut state = ready(1);
        state.apply(Action::WorkerStartDue { generation: 0 });
        assert_eq!(state.pool.workers()[0].status, WorkerStatus::Ready);
        assert_eq!(state.notice, None);
    }

    #[test]
    fn workers_that_crash_in_a_row_are_given_up_with_a_notice_saying_so() {
        let mut state = ready(1);
        for _ in 0..crate::pool::MAX_CRASHES_IN_A_ROW {
            let generation = state.pool.workers()[0].generation;
            state.apply(Action::Reply { generation, reply: Reply::Ready { protocol: PROTOCOL_VERSION }, at_ms: 0.0 });
            state.apply(Action::WorkerDied { generation, message: "boom".into() });
        }
        assert!(state.pool.all_gone());
        assert!(state.notice.as_deref().is_some_and(|n| n.contains("3 times in a row")), "{:?}", state.notice);
    }

    #[test]
    fn a_cards_runs_keep_no_snapshots() {
        let mut state = ready(1);
        let target = Target::Card { card: 0, run: 0 };
        state.apply(Action::Enqueue(vec![job(1, target)]));
        reply(&mut state, snapshots(1, &[(0, 0)]));
        let RunView::Running { snapshots, .. } = &state.gallery[0][0] else { panic!("{:?}", state.gallery[0][0]) };
        assert!(snapshots.is_empty());
        let reply_done = Reply::Done {
            buffers: Vec::new(),
            id: 1,
            report: JobReport::Simulation(Box::new(Report { cycles: 500, ..Report::default() })),
            elapsed_ms: 1.0,
            stopped_early: None,
        };
        reply(&mut state, reply_done);
        let result = state.gallery[0][0].result().expect("finished");
        assert_eq!(result.report.cycles, 500);
        assert!(result.snapshots.is_empty());
    }

    #[test]
    fn progress_is_shown_at_most_every_tenth_of_a_second_per_run() {
        let state = Rc::new(ready(1));
        let state = state.reduce(Action::Enqueue(vec![job(1, Target::Main)]));
        let progress = |cycle, at_ms| Action::Reply {
            generation: 0,
            reply: Reply::Progress { id: 1, cycle, total: 0, fraction: 0.1 },
            at_ms,
        };
        let shown = state.clone().reduce(progress(10, 1000.0));
        assert!(!Rc::ptr_eq(&shown, &state), "the first report starts the run's view");
        let same = shown.clone().reduce(progress(20, 1050.0));
        assert!(Rc::ptr_eq(&same, &shown), "50 ms later: skipped, nothing renders");
        let later = same.reduce(progress(30, 1100.0));
        assert!(matches!(later.main, RunView::Running { cycle: 30, .. }), "100 ms later: the newest numbers");
        let other = later.clone().reduce(Action::Reply {
            generation: 0,
            reply: Reply::Progress { id: 9, cycle: 1, total: 0, fraction: 0.0 },
            at_ms: 5000.0,
        });
        assert!(Rc::ptr_eq(&other, &later), "a report for no running job changes nothing");
        // A batch of snapshots past the shown cycle: the report right after it is shown.
        let pictured =
            later.clone().reduce(Action::Reply { generation: 0, reply: snapshots(1, &[(35, 0)]), at_ms: 1110.0 });
        let caught_up = pictured.clone().reduce(progress(36, 1111.0));
        assert!(matches!(caught_up.main, RunView::Running { cycle: 36, .. }), "the line does not trail the picture");
        assert!(Rc::ptr_eq(&caught_up.clone().reduce(progress(37, 1112.0)), &caught_up), "then skipped again");
        let finished = later.clone().reduce(Action::Reply { generation: 0, reply: done(1, 40), at_ms: 1101.0 });
        assert_eq!(finished.main.result().map(|r| r.report.cycles), Some(40), "the end is never skipped");
    }

    #[test]
    fn held_snapshots_follow_the_workers_thinning_rule() {
        let mut state = ready(1);
        state.apply(Action::Enqueue(vec![job(1, Target::Main)]));
        let taken = [(0, 100), (100, 100), (200, 100), (300, 100), (400, 200)];
        for (cycle, every) in taken {
            reply(&mut state, snapshots(1, &[(cycle, every)]));
        }
        let held = |state: &AppState| -> Vec<u64> {
            let RunView::Running { snapshots, .. } = &state.main else { panic!("{:?}", state.main) };
            snapshots.iter().map(|s| s.cycle).collect()
        };
        assert_eq!(held(&state), [0, 200, 400], "once the interval doubles, odd multiples of the old one go");
        // The same snapshots in batches of any size leave the same ones held.
        for split in 0..=taken.len() {
            let mut state = ready(1);
            state.apply(Action::Enqueue(vec![job(1, Target::Main)]));
            reply(&mut state, snapshots(1, &taken[..split]));
            reply(&mut state, snapshots(1, &taken[split..]));
            assert_eq!(held(&state), [0, 200, 400], "batches of {split} and {}", taken.len() - split);
        }
    }

    /// A batch of empty snapshots of job `id` at `(cycle, every)`.
    pub(super) fn snapshots(id: JobId, taken: &[(u64, u64)]) -> Reply {
        let snapshots = taken
            .iter()
            .map(|&(cycle, every)| TakenSnapshot { every, snapshot: Snapshot { cycle, ..Snapshot::default() } })
            .collect();
        Reply::Snapshots { id, snapshots }
    }
    #[test]
    fn a_file_with_errors_keeps_the_last_launch_sequence_that_compiled() {
        let mut state = ready(1);
        let summary = |launches| CompileSummary {
            launches,
            kernels: vec![],
            buffer_bytes: 0,
            sequence: vec![],
            sm_count: 15,
            max_warps_per_sm: 48,
        };
        let compiled = |id, summary: Option<CompileSummary>| Reply::Compiled {
            id,
            diagnostics: if summary.is_some() { vec![] } else { vec![error()] },
            defines: vec![],
            summary,
        };
        state.apply(Action::Compiling { id: 1 });
        reply(&mut state, compiled(1, Some(summary(20))));
        assert_eq!(state.compile.last_good.as_ref().map(|s| s.launches), Some(20));
        state.apply(Action::Compiling { id: 2 });
        reply(&mut state, compiled(2, None));
        assert!(state.compile.has_errors() && state.compile.summary.is_none());
        assert_eq!(state.compile.last_good.as_ref().map(|s| s.launches), Some(20), "kept while the file has errors");
        state.apply(Action::Compiling { id: 3 });
        reply(&mut state, compiled(2, Some(summary(5))));
        assert_eq!(state.compile.last_good.as_ref().map(|s| s.launches), Some(20), "a stale answer is dropped");
        reply(&mut state, compiled(3, Some(summary(7))));
        assert_eq!(state.compile.summary.as_ref().map(|s| s.launches), Some(7));
        assert_eq!(state.compile.last_good, state.compile.summary);
    }

    fn error() -> warpscope_core::kernel::Diagnostic {
        warpscope_core::kernel::Diagnostic {
            severity: warpscope_core::kernel::Severity::Error,
            span: warpscope_core::kernel::Span::default(),
            message: "broken".into(),
            help: None,
        }
    }

    #[test]
    fn cancelling_drops_queued_jobs_of_that_view_only_and_names_the_running_ones() {
        let mut state = ready(1);
        state.apply(Action::Enqueue(vec![
            job(1, Target::Main),
            job(2, Target::Compare(0)),
            job(3, Target::Compare(1)),
        ]));
        let compare = |t: Target| Scope::Compare.matches(t);
        state.apply(Action::Cancel(Scope::Compare));
        assert!(state.pool.queue().is_empty());
        assert_eq!(state.compare, [RunView::Idle, RunView::Idle]);
        assert_eq!(running(&state), [Some(1)], "the running Main job is untouched");
        assert!(state.pool.running_matching(compare).is_empty());
        assert!(state.setup_busy());
    }
}

#[cfg(test)]
mod sweep_tests {
    use super::tests::snapshots;
    use super::*;
    use crate::pool::tests::job;
    use warpscope_core::config::presets;
    use warpscope_core::stats::{BlockRecord, TimeSeries};
    use warpscope_core::Policies;

    fn ready(workers: usize) -> AppState {
        let mut state = AppState::with_workers(workers);
        for generation in 0..workers as u32 {
            state.pool.start_all();
            state.apply(Action::Reply { generation, reply: Reply::Ready { protocol: PROTOCOL_VERSION }, at_ms: 0.0 });
        }
        state
    }

    fn reply(state: &mut AppState, generation: u32, reply: Reply) {
        state.apply(Action::Reply { generation, reply, at_ms: 10.0 });
    }

    fn done(id: JobId, cycles: u64) -> Reply {
        let mut report = Report { cycles, warp_instructions: 2 * cycles, ..Report::default() };
        report.blocks = vec![BlockRecord::default(); 2];
        report.series = TimeSeries::of_windows(0, vec![Default::default(); 3]);
        Reply::Done {
            buffers: Vec::new(),
            id,
            report: JobReport::Simulation(Box::new(report)),
            elapsed_ms: 1.0,
            stopped_early: None,
        }
    }

    fn simulate_job() -> SimulateJob {
        SimulateJob {
            source: "kernel".into(),
            name: None,
            co_runners: Vec::new(),
            defines: vec![],
            config: presets::ccws_fermi(),
            policies: Policies { tb: "rr".into(), warp: "ccws".into() },
            max_cycles: 1000,
            snapshot_every: 50,
            heat_sm: 0,
            detail: protocol::ReportDetail::Shown,
        }
    }

    fn sweep(serial: u32, first_id: JobId, limits: &[u32]) -> Action {
        let jobs = (0..limits.len())
            .map(|point| job(first_id + point as JobId, Target::Sweep { sweep: serial, point }))
            .collect();
        Action::StartSweep { serial, limits: limits.to_vec(), jobs }
    }

    /// The worker generation running job `id`.
    fn worker_of(state: &AppState, id: JobId) -> u32 {
        state.pool.workers().iter().find(|w| w.job.as_ref().is_some_and(|j| j.id == id)).expect("running").generation
    }

    #[test]
    fn the_simulate_runs_result_keeps_the_job_it_ran() {
        let mut state = ready(1);
        let main = QueuedJob { id: 1, target: Target::Main, job: Job::Simulate(Box::new(simulate_job())) };
        state.apply(Action::Enqueue(vec![main]));
        reply(&mut state, 0, done(1, 100));
        let result = state.main.result().expect("finished");
        assert_eq!(result.job.as_deref(), Some(&simulate_job()));
        state.apply(Action::Enqueue(vec![QueuedJob {
            id: 2,
            target: Target::Compare(0),
            job: Job::Simulate(Box::new(simulate_job())),
        }]));
        reply(&mut state, 0, done(2, 100));
        assert_eq!(state.compare[0].result().expect("finished").job, None, "only the Simulate view's run keeps it");
    }

    #[test]
    fn a_sweeps_runs_spread_over_the_workers_and_keep_no_snapshots() {
        let mut state = ready(2);
        state.apply(sweep(1, 10, &[1, 2, 4]));
        let sweep = state.sweep.as_ref().expect("a sweep");
        assert_eq!(sweep.runs, [RunView::Queued, RunView::Queued, RunView::Queued]);
        assert!(state.pool.workers().iter().all(|w| w.job.is_some()), "both workers take a limit");
        assert!(!state.setup_busy(), "a sweep reruns the finished run, not the set-up being edited");
        let (first, second) = (worker_of(&state, 10), worker_of(&state, 11));
        reply(&mut state, second, snapshots(11, &[(0, 0)]));
        reply(&mut state, second, done(11, 300));
        reply(&mut state, first, done(10, 500));
        let sweep = state.sweep.as_ref().expect("a sweep");
        let result = sweep.runs[1].result().expect("limit 2 finished");
        // The worker leaves out the blocks and the series: the jobs ask for totals only.
        assert!(result.snapshots.is_empty());
        assert_eq!(sweep.points().iter().map(|p| (p.limit, p.cycles)).collect::<Vec<_>>(), [(1, 500), (2, 300)]);
        assert!(sweep.busy(), "limit 4 runs on the freed worker");
        assert!(state.pool.workers().iter().any(|w| w.job.as_ref().is_some_and(|j| j.id == 12)));
    }

    #[test]
    fn cancelling_a_sweep_drops_its_queued_runs_and_a_new_run_clears_it() {
        let mut state = ready(1);
        state.apply(sweep(1, 10, &[1, 2, 4]));
        state.apply(Action::Cancel(Scope::Sweep));
        let runs = &state.sweep.as_ref().expect("kept to show what ran").runs;
        assert_eq!(runs[1..], [RunView::Idle, RunView::Idle]);
        assert_eq!(state.pool.running_matching(|t| Scope::Sweep.matches(t)), [(0, 10)], "the app stops this one");
        reply(&mut state, 0, Reply::Cancelled { id: 10, cycle: 5 });
        assert_eq!(state.sweep.as_ref().unwrap().runs[0], RunView::Cancelled { cycle: 5 });
        assert!(!state.sweep.as_ref().unwrap().busy());

        // A second sweep and then a new run: the run clears the sweep and its queued jobs, and
        // the stopped job's late reply finds no view.
        state.apply(sweep(2, 20, &[1, 2]));
        state.apply(Action::Enqueue(vec![job(30, Target::Main)]));
        assert_eq!(state.sweep, None);
        assert_eq!(state.pool.queue().iter().map(|j| j.id).collect::<Vec<_>>(), [30], "the sweep's queued job is gone");
        reply(&mut state, 0, done(20, 100));
        assert_eq!(state.sweep, None, "a late reply of a cleared sweep resurrects nothing");
        assert!(matches!(state.main, RunView::Queued | RunView::Running { .. }));
        assert_eq!(state.pool.workers()[0].job.as_ref().map(|j| j.id), Some(30), "the run goes ahead");
    }

    #[test]
    fn a_newer_sweep_drops_the_news_of_an_older_ones_runs() {
        let mut state = ready(1);
        state.apply(sweep(1, 10, &[1, 2]));
        state.apply(sweep(2, 20, &[1, 2]));
        assert_eq!(state.pool.queue().iter().map(|j| j.id).collect::<Vec<_>>(), [20, 21]);
        reply(&mut state, 0, done(10, 100));
        let sweep = state.sweep.as_ref().expect("the newer sweep");
        assert_eq!(sweep.serial, 2);
        assert!(sweep.points().is_empty(), "job 10 was the older sweep's");
        assert_eq!(state.pool.workers()[0].job.as_ref().map(|j| j.id), Some(20));
    }

    fn pair_matrix(serial: u32, first_id: JobId, programs: &[&str]) -> Action {
        let spec = crate::pair_matrix::MatrixSpec {
            programs: programs.iter().map(|p| p.to_string()).collect(),
            scheme: Policies::default(),
            config: presets::cke_maxwell(),
            window: 10_000,
        };
        let matrix = PairMatrix::new(serial, spec);
        let jobs = (0..matrix.runs.len())
            .map(|run| job(first_id + run as JobId, Target::Pair { matrix: serial, run }))
            .collect();
        Action::StartPairs { matrix: Box::new(matrix), jobs }
    }

    #[test]
    fn a_pair_matrix_s_runs_fill_its_views_and_a_newer_one_or_cancel_stops_them() {
        let mut state = ready(2);
        state.apply(pair_matrix(1, 10, &["backprop", "spmv", "kmeans"]));
        assert_eq!(state.pairs.as_ref().expect("a matrix").runs.len(), 6);
        assert!(!state.setup_busy(), "the matrix runs the programs it was started with");
        let (first, second) = (worker_of(&state, 10), worker_of(&state, 11));
        reply(&mut state, second, snapshots(11, &[(0, 0)]));
        reply(&mut state, first, done(10, 500));
        let matrix = state.pairs.as_ref().unwrap();
        assert_eq!(matrix.alone(0).result().map(|r| r.report.cycles), Some(500));
        assert!(
            matches!(matrix.alone(1), RunView::Running { snapshots, .. } if snapshots.is_empty()),
            "no snapshots kept"
        );
        assert_eq!(matrix.progress().0, 1);
        state.apply(Action::Cancel(Scope::Pairs));
        assert_eq!(state.pool.queue().len(), 0, "the queued runs are dropped");
        assert_eq!(state.pool.running_matching(|t| Scope::Pairs.matches(t)).len(), 2, "the app stops these two");
        // A new matrix replaces it: the old runs' late replies find no view.
        state.apply(pair_matrix(2, 20, &["backprop", "spmv"]));
        reply(&mut state, second, done(11, 300));
        let matrix = state.pairs.as_ref().unwrap();
        assert_eq!((matrix.serial, matrix.progress().0), (2, 0));
    }
}
