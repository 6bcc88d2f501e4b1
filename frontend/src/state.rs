//! The app's state and the one place it changes: worker replies and user actions become
//! [`Action`]s folded by [`AppState::reduce`] (a Yew reducer). Pure, tested natively.
//!
//! Jobs go to one worker, one at a time: the Simulate view's run, the compare view's variants
//! and the gallery's reproductions are queued as [`QueuedJob`]s, each with the [`Target`] its
//! result belongs to. The app sends the job in [`AppState::current`] whenever it changes.

use std::collections::VecDeque;
use std::rc::Rc;

use warpscope_core::kernel::{Define, Diagnostic};
use warpscope_core::stats::{Report, Snapshot};
use warpscope_wasm::protocol::{
    self, Catalog, CompileSummary, Failure, Job, JobId, JobReport, Reply, PROTOCOL_VERSION,
};
use yew::Reducible;

use crate::identity::same_or_equal;

/// The machine a first visit starts on.
pub const DEFAULT_MACHINE: &str = "fermi-gtx480";
/// The workload a first visit starts with.
pub const DEFAULT_WORKLOAD: &str = "hotspot";
/// Cycle budget of a run unless the person sets another.
pub const DEFAULT_MAX_CYCLES: u64 = 20_000_000;

/// Whether the engine's worker can take a job.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerStatus {
    /// Loading; requests are held until it says it is ready.
    Starting,
    /// Listening.
    Ready,
}

/// Where a job's result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The Simulate view.
    Main,
    /// Variant `n` of the compare view.
    Compare(usize),
    /// Card `card`, variant `variant` of the gallery.
    Gallery {
        /// Card index.
        card: usize,
        /// Variant index within the card.
        variant: usize,
    },
}

/// A job waiting for (or holding) the worker.
#[derive(Clone, Debug, PartialEq)]
pub struct QueuedJob {
    /// Its id.
    pub id: JobId,
    /// Where its result goes.
    pub target: Target,
    /// What to run (a `Simulate` job carries its own snapshot interval).
    pub job: Job,
}

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
}

impl PartialEq for RunResult {
    fn eq(&self, other: &Self) -> bool {
        same_or_equal(&self.report, &other.report)
            && self.snapshots == other.snapshots
            && self.elapsed_ms == other.elapsed_ms
            && self.stopped_early == other.stopped_early
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

/// Everything the app shows that is not the set-up being edited.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// Increases each time a new worker must be spawned (after a crash); replies carry the
    /// generation they came from, so those of a dead worker are dropped.
    pub worker_generation: u32,
    /// The current worker's status.
    pub worker: WorkerStatus,
    /// Menus' contents, once the worker sent them.
    pub catalog: Option<Rc<Catalog>>,
    /// A message about the worker itself (version mismatch, crash), for the person.
    pub notice: Option<String>,
    /// The latest compile.
    pub compile: CompileView,
    /// The Simulate view's run.
    pub main: RunView,
    /// The compare view's runs, one per variant.
    pub compare: Vec<RunView>,
    /// The gallery's runs: per card, per variant.
    pub gallery: Vec<Vec<RunView>>,
    /// The job holding the worker.
    pub current: Option<QueuedJob>,
    /// Jobs waiting, in order.
    pub queue: VecDeque<QueuedJob>,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            worker_generation: 0,
            worker: WorkerStatus::Starting,
            catalog: None,
            notice: None,
            compile: CompileView::default(),
            main: RunView::Idle,
            compare: Vec::new(),
            gallery: Vec::new(),
            current: None,
            queue: VecDeque::new(),
        }
    }
}

/// Something that happened.
#[derive(Clone, Debug)]
pub enum Action {
    /// Jobs to run, in order; a job for a target that already has one queued or running
    /// replaces it.
    Enqueue(Vec<QueuedJob>),
    /// Stop every job whose target matches `which`.
    Cancel(fn(Target) -> bool),
    /// A compile request `id` was sent.
    Compiling {
        /// Its id.
        id: JobId,
    },
    /// The compare view now has `n` variants (results beyond are dropped).
    ResizeCompare(usize),
    /// The gallery has these many variants per card.
    ShapeGallery(Vec<usize>),
    /// The worker of `generation` replied.
    Reply {
        /// Which worker.
        generation: u32,
        /// What it said.
        reply: Reply,
        /// Page time, ms.
        at_ms: f64,
    },
    /// The browser would not start a worker at all.
    WorkerUnavailable {
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
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        next.apply(action);
        Rc::new(next)
    }
}

impl AppState {
    /// The run view of `target` (created idle when the compare or gallery list is short).
    pub fn view_mut(&mut self, target: Target) -> &mut RunView {
        match target {
            Target::Main => &mut self.main,
            Target::Compare(i) => {
                if self.compare.len() <= i {
                    self.compare.resize(i + 1, RunView::Idle);
                }
                &mut self.compare[i]
            }
            Target::Gallery { card, variant } => {
                if self.gallery.len() <= card {
                    self.gallery.resize(card + 1, Vec::new());
                }
                let card = &mut self.gallery[card];
                if card.len() <= variant {
                    card.resize(variant + 1, RunView::Idle);
                }
                &mut card[variant]
            }
        }
    }

    /// The run view of `target`, if it exists.
    pub fn view(&self, target: Target) -> Option<&RunView> {
        match target {
            Target::Main => Some(&self.main),
            Target::Compare(i) => self.compare.get(i),
            Target::Gallery { card, variant } => self.gallery.get(card).and_then(|c| c.get(variant)),
        }
    }

    /// Whether any job is queued or running.
    pub fn busy(&self) -> bool {
        self.current.is_some() || !self.queue.is_empty()
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Enqueue(jobs) => {
                for job in jobs {
                    self.queue.retain(|q| q.target != job.target);
                    *self.view_mut(job.target) = RunView::Queued;
                    self.queue.push_back(job);
                }
                self.start_next();
            }
            Action::Cancel(which) => {
                let dropped: Vec<Target> = self.queue.iter().map(|q| q.target).filter(|t| which(*t)).collect();
                self.queue.retain(|q| !which(q.target));
                for target in dropped {
                    *self.view_mut(target) = RunView::Idle;
                }
                // The running job ends when the worker says `Cancelled`; the app sends the
                // request when it sees `cancel_requested`.
            }
            Action::Compiling { id } => {
                self.compile.latest = id;
                self.compile.pending = true;
            }
            Action::ResizeCompare(n) => self.compare.resize(n, RunView::Idle),
            Action::ShapeGallery(shape) => {
                self.gallery = shape.into_iter().map(|n| vec![RunView::Idle; n]).collect();
            }
            Action::Reply { generation, .. } if generation != self.worker_generation => {}
            Action::Reply { reply, at_ms, .. } => self.on_reply(reply, at_ms),
            Action::WorkerUnavailable { message } => {
                self.notice = Some(format!("The simulator cannot start in this browser: {message}"));
                self.fail_all("The simulation worker is not available.");
            }
            Action::WorkerDied { generation, message } if generation == self.worker_generation => {
                self.worker_crashed(message);
            }
            Action::WorkerDied { .. } => {}
        }
    }

    /// Moves the next queued job to `current` when the worker is free.
    fn start_next(&mut self) {
        if self.current.is_none() && self.worker == WorkerStatus::Ready {
            self.current = self.queue.pop_front();
        }
    }

    /// The running job ended (either way): free the worker for the next one.
    fn finish_current(&mut self) {
        self.current = None;
        self.start_next();
    }

    fn on_reply(&mut self, reply: Reply, at_ms: f64) {
        let running = self.current.as_ref().map(|c| (c.id, c.target));
        match reply {
            Reply::Ready { protocol } if protocol != PROTOCOL_VERSION => {
                self.notice = Some(format!(
                    "The simulation worker is a different version (protocol {protocol}, page {PROTOCOL_VERSION}). \
                     Reload the page to load matching files."
                ));
            }
            Reply::Ready { .. } => {
                self.worker = WorkerStatus::Ready;
                self.start_next();
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
                let Some((running, target)) = running.filter(|(r, _)| *r == id) else { return };
                let view = self.view_mut(target);
                match view {
                    RunView::Running { cycle: c, fraction: f, latest_ms, .. } => {
                        (*c, *f, *latest_ms) = (cycle, fraction, at_ms);
                    }
                    _ => *view = RunView::started(running, cycle, fraction, at_ms),
                }
            }
            Reply::Snapshot { id, every, snapshot } => {
                let Some((running, target)) = running.filter(|(r, _)| *r == id) else { return };
                let view = self.view_mut(target);
                if !matches!(view, RunView::Running { .. }) {
                    *view = RunView::started(running, snapshot.cycle, 0.0, at_ms);
                }
                if let RunView::Running { snapshots, .. } = view {
                    let list = Rc::make_mut(snapshots);
                    list.retain(|s| protocol::keeps(s.cycle, every));
                    list.push(Rc::new(*snapshot));
                }
            }
            Reply::Done { id, report, elapsed_ms, stopped_early } => {
                let Some((_, target)) = running.filter(|(r, _)| *r == id) else { return };
                let view = self.view_mut(target);
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
                    })),
                    JobReport::CacheSweep(_) => {
                        RunView::Failed { message: "The worker answered with a cache sweep.".into(), field: None }
                    }
                };
                self.finish_current();
            }
            Reply::Cancelled { id, cycle } => {
                let Some((_, target)) = running.filter(|(r, _)| *r == id) else { return };
                *self.view_mut(target) = RunView::Cancelled { cycle };
                self.finish_current();
            }
            Reply::Failed { error: Failure::Crashed { message }, .. } => self.worker_crashed(message),
            Reply::Failed { id: None, error } => {
                self.notice = Some(format!("The simulation worker reported a problem: {}", describe(&error)));
            }
            Reply::Failed { id: Some(id), error } => {
                let Some((_, target)) = running.filter(|(r, _)| *r == id) else { return };
                let field = match &error {
                    Failure::InvalidConfig(err) => Some(err.field.clone()),
                    _ => None,
                };
                *self.view_mut(target) = RunView::Failed { message: describe(&error), field };
                self.finish_current();
            }
            Reply::Frame { .. } => {}
        }
    }

    /// Every queued and running job fails with `message`.
    fn fail_all(&mut self, message: &str) {
        let targets: Vec<Target> =
            self.current.take().into_iter().chain(self.queue.drain(..)).map(|job| job.target).collect();
        for target in targets {
            *self.view_mut(target) = RunView::Failed { message: message.into(), field: None };
        }
    }

    /// The worker is dead: say so and ask for a new one. Queued jobs wait for it.
    fn worker_crashed(&mut self, message: String) {
        self.worker_generation += 1;
        self.worker = WorkerStatus::Starting;
        self.notice = Some(format!("The simulation worker crashed and has been restarted ({message})."));
        if let Some(job) = self.current.take() {
            *self.view_mut(job.target) = RunView::Failed {
                message: format!(
                    "The simulation worker crashed, so this run was lost; a fresh worker has been started. \
                     Please report this with the set-up (use Share) and this message: {message}"
                ),
                field: None,
            };
        }
        self.compile.pending = false;
    }
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
    use warpscope_core::mem::cache::{CacheGeometry, Replacement};
    use warpscope_core::sweep::AccessPattern;
    use warpscope_core::CacheSweepSpec;

    /// Any job will do: the queue does not look inside.
    fn job(id: JobId, target: Target) -> QueuedJob {
        let spec = CacheSweepSpec {
            cache: CacheGeometry { size_bytes: 4096, line_bytes: 128, ways: 4 },
            replacement: Replacement::Lru,
            pattern: AccessPattern::Strided { footprint_bytes: 8192, stride_bytes: 4 },
            passes: 1,
        };
        QueuedJob { id, target, job: Job::CacheSweep(spec) }
    }

    fn ready() -> AppState {
        let mut state = AppState::default();
        state.apply(Action::Reply { generation: 0, reply: Reply::Ready { protocol: PROTOCOL_VERSION }, at_ms: 0.0 });
        state
    }

    fn reply(state: &mut AppState, reply: Reply) {
        state.apply(Action::Reply { generation: state.worker_generation, reply, at_ms: 10.0 });
    }

    fn done(id: JobId, cycles: u64) -> Reply {
        let report = Report { cycles, ..Report::default() };
        Reply::Done { id, report: JobReport::Simulation(Box::new(report)), elapsed_ms: 1.0, stopped_early: None }
    }

    #[test]
    fn jobs_take_the_worker_one_at_a_time_in_order() {
        let mut state = ready();
        state.apply(Action::Enqueue(vec![job(1, Target::Compare(0)), job(2, Target::Compare(1))]));
        assert_eq!(state.current.as_ref().map(|j| j.id), Some(1));
        assert_eq!(state.compare, [RunView::Queued, RunView::Queued]);
        reply(&mut state, done(1, 300));
        assert_eq!(state.current.as_ref().map(|j| j.id), Some(2), "the next job is sent when one ends");
        assert_eq!(state.compare[0].result().map(|r| r.report.cycles), Some(300));
        reply(&mut state, done(2, 100));
        assert!(state.current.is_none() && !state.busy());
        assert_eq!(state.compare[1].result().map(|r| r.report.cycles), Some(100));
    }

    #[test]
    fn nothing_is_sent_before_the_worker_is_ready_and_a_requeued_target_replaces_its_job() {
        let mut state = AppState::default();
        state.apply(Action::Enqueue(vec![job(1, Target::Main), job(2, Target::Compare(0))]));
        assert!(state.current.is_none(), "held until Ready");
        state.apply(Action::Enqueue(vec![job(3, Target::Compare(0))]));
        assert_eq!(state.queue.iter().map(|j| j.id).collect::<Vec<_>>(), [1, 3]);
        reply(&mut state, Reply::Ready { protocol: PROTOCOL_VERSION });
        assert_eq!(state.current.as_ref().map(|j| j.id), Some(1));
    }

    #[test]
    fn replies_of_other_jobs_and_dead_workers_are_dropped() {
        let mut state = ready();
        state.apply(Action::Enqueue(vec![job(7, Target::Main)]));
        reply(&mut state, done(6, 1));
        assert_eq!(state.main, RunView::Queued, "a reply for an older job changes nothing");
        state.apply(Action::Reply { generation: 99, reply: done(7, 1), at_ms: 0.0 });
        assert_eq!(state.main, RunView::Queued, "a reply from another worker generation changes nothing");
        reply(&mut state, Reply::Failed { id: None, error: Failure::Crashed { message: "boom".into() } });
        assert!(matches!(&state.main, RunView::Failed { message, .. } if message.contains("boom")));
        assert_eq!(state.worker, WorkerStatus::Starting);
        assert!(state.current.is_none());
    }

    #[test]
    fn held_snapshots_follow_the_workers_thinning_rule() {
        let mut state = ready();
        state.apply(Action::Enqueue(vec![job(1, Target::Main)]));
        for (cycle, every) in [(0, 100), (100, 100), (200, 100), (300, 100), (400, 200)] {
            let snapshot = Box::new(Snapshot { cycle, ..Snapshot::default() });
            reply(&mut state, Reply::Snapshot { id: 1, every, snapshot });
        }
        let RunView::Running { snapshots, .. } = &state.main else { panic!("{:?}", state.main) };
        let cycles: Vec<u64> = snapshots.iter().map(|s| s.cycle).collect();
        assert_eq!(cycles, [0, 200, 400], "once the interval doubles, odd multiples of the old one go");
    }

    #[test]
    fn a_file_with_errors_keeps_the_last_launch_sequence_that_compiled() {
        let mut state = ready();
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
    fn cancelling_drops_queued_jobs_of_that_view_only() {
        let mut state = ready();
        state.apply(Action::Enqueue(vec![
            job(1, Target::Main),
            job(2, Target::Compare(0)),
            job(3, Target::Compare(1)),
        ]));
        state.apply(Action::Cancel(|t| matches!(t, Target::Compare(_))));
        assert!(state.queue.is_empty());
        assert_eq!(state.compare, [RunView::Idle, RunView::Idle]);
        assert_eq!(state.current.as_ref().map(|j| j.id), Some(1), "the running Main job is untouched");
    }
}
