//! The app's state and the one place it changes: worker replies and user actions become
//! [`Action`]s folded by [`AppState::reduce`] (a Yew reducer). Pure, tested natively.

use std::rc::Rc;

use warpscope_core::{CacheSweepReport, CacheSweepSpec};
use warpscope_wasm::protocol::{Failure, JobId, JobReport, Reply, PROTOCOL_VERSION};
use yew::Reducible;

/// Whether the engine's worker can take a job.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerStatus {
    /// Loading; requests are held until it says it is ready.
    Starting,
    /// Listening.
    Ready,
}

/// Hit and miss counts of one frame window, for the hit-rate chart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSample {
    /// First cycle of the window.
    pub start: u64,
    /// One past its last cycle.
    pub end: u64,
    /// Hits in the window.
    pub hits: u64,
    /// Misses in the window.
    pub misses: u64,
}

/// What the run area shows.
#[derive(Clone, Debug, PartialEq)]
pub enum RunView {
    /// Nothing run yet.
    Idle,
    /// A job is running.
    Running {
        /// Its id.
        id: JobId,
        /// Cycles done.
        cycle: u64,
        /// Cycles in all.
        total: u64,
        /// Page time (ms) when it was started, and of the latest progress.
        started_ms: f64,
        /// Page time (ms) of the latest progress.
        latest_ms: f64,
        /// Frames so far.
        frames: Vec<FrameSample>,
    },
    /// The latest job finished.
    Finished {
        /// The spec it ran.
        spec: CacheSweepSpec,
        /// Its result.
        report: CacheSweepReport,
        /// All its frames.
        frames: Vec<FrameSample>,
        /// Wall time from Run to Done, ms.
        elapsed_ms: f64,
    },
    /// The latest job was cancelled.
    Cancelled {
        /// Cycles done when it stopped.
        cycle: u64,
        /// Cycles it would have taken.
        total: u64,
    },
    /// The latest job failed; the message is for the person.
    Failed {
        /// What went wrong and what to do.
        message: String,
        /// The configuration field at fault, if any (a [`warpscope_core::ConfigError`] path).
        field: Option<String>,
    },
}

/// Everything the app shows that is not the form.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// Increases each time a new worker must be spawned (after a crash); replies carry the
    /// generation they came from, so those of a dead worker are dropped.
    pub worker_generation: u32,
    /// The current worker's status.
    pub worker: WorkerStatus,
    /// Spec of the running job (kept for the Finished view).
    pub running_spec: Option<CacheSweepSpec>,
    /// The run area.
    pub run: RunView,
}

impl Default for AppState {
    fn default() -> Self {
        AppState { worker_generation: 0, worker: WorkerStatus::Starting, running_spec: None, run: RunView::Idle }
    }
}

/// Something that happened.
#[derive(Clone, Debug)]
pub enum Action {
    /// The person pressed Run and job `id` was sent.
    Started {
        /// The job's id.
        id: JobId,
        /// What it runs.
        spec: CacheSweepSpec,
        /// Page time, ms.
        at_ms: f64,
    },
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

impl AppState {
    /// The id of the running job, if any.
    pub fn running_id(&self) -> Option<JobId> {
        match self.run {
            RunView::Running { id, .. } => Some(id),
            _ => None,
        }
    }

    /// Applies `action`; pure.
    pub fn apply(mut self, action: Action) -> AppState {
        match action {
            Action::Started { id, spec, at_ms } => {
                self.running_spec = Some(spec);
                self.run = RunView::Running {
                    id,
                    cycle: 0,
                    total: spec.total_accesses(),
                    started_ms: at_ms,
                    latest_ms: at_ms,
                    frames: Vec::new(),
                };
            }
            Action::Reply { generation, .. } | Action::WorkerDied { generation, .. }
                if generation != self.worker_generation => {}
            Action::WorkerUnavailable { message } => self.run = RunView::Failed { message, field: None },
            Action::WorkerDied { message, .. } => self.worker_crashed(format!("it stopped with: {message}")),
            Action::Reply { reply, at_ms, .. } => self.apply_reply(reply, at_ms),
        }
        self
    }

    fn apply_reply(&mut self, reply: Reply, at_ms: f64) {
        let running = self.running_id();
        match reply {
            Reply::Ready { protocol } if protocol == PROTOCOL_VERSION => self.worker = WorkerStatus::Ready,
            Reply::Ready { protocol } => {
                self.run = RunView::Failed {
                    message: format!(
                        "The page and the simulation worker are from different versions (protocol {PROTOCOL_VERSION} \
                         vs {protocol}). Reload the page, bypassing the cache."
                    ),
                    field: None,
                };
            }
            Reply::Progress { id, cycle: c, total: t, .. } if Some(id) == running => {
                if let RunView::Running { cycle, total, latest_ms, .. } = &mut self.run {
                    (*cycle, *total, *latest_ms) = (c, t, at_ms);
                }
            }
            Reply::Frame { id, start, end, hits, misses } if Some(id) == running => {
                if let RunView::Running { frames, .. } = &mut self.run {
                    frames.push(FrameSample { start, end, hits, misses });
                }
            }
            Reply::Done { id, report: JobReport::CacheSweep(report), .. } if Some(id) == running => {
                if let (RunView::Running { started_ms, frames, .. }, Some(spec)) = (&mut self.run, self.running_spec) {
                    let (elapsed_ms, frames) = (at_ms - *started_ms, std::mem::take(frames));
                    self.run = RunView::Finished { spec, report, frames, elapsed_ms };
                }
            }
            Reply::Cancelled { id, cycle } if Some(id) == running => {
                if let RunView::Running { total, .. } = self.run {
                    self.run = RunView::Cancelled { cycle, total };
                }
            }
            Reply::Failed { error: Failure::Crashed { message }, .. } => self.worker_crashed(message),
            Reply::Failed { id, error } if id.is_none() || id == running => {
                self.run = match error {
                    Failure::InvalidConfig(err) => RunView::Failed {
                        message: format!("The engine rejected the settings: {}", err.reason),
                        field: Some(err.field),
                    },
                    Failure::BadRequest { message } => RunView::Failed {
                        message: format!("The simulation worker did not understand the page: {message}"),
                        field: None,
                    },
                    Failure::Stopped { message } => {
                        RunView::Failed { message: format!("The simulation stopped: {message}."), field: None }
                    }
                    Failure::Compile { diagnostics } => RunView::Failed {
                        message: format!("The kernel file does not compile ({} problems).", diagnostics.len()),
                        field: None,
                    },
                    Failure::Crashed { .. } => unreachable!("handled above"),
                };
            }
            // Replies about a job that is no longer current.
            _ => {}
        }
    }

    /// The worker is dead: say so and ask for a new one.
    fn worker_crashed(&mut self, message: String) {
        self.worker_generation += 1;
        self.worker = WorkerStatus::Starting;
        self.run = RunView::Failed {
            message: format!(
                "The simulation worker crashed ({message}). A fresh worker has been started; press Run to try again."
            ),
            field: None,
        };
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn running(id: JobId) -> AppState {
        let state = AppState::default().apply(Action::Reply {
            generation: 0,
            reply: Reply::Ready { protocol: PROTOCOL_VERSION },
            at_ms: 0.0,
        });
        assert_eq!(state.worker, WorkerStatus::Ready);
        state.apply(Action::Started { id, spec: CacheSweepSpec::default(), at_ms: 100.0 })
    }

    fn reply(state: AppState, reply: Reply, at_ms: f64) -> AppState {
        let generation = state.worker_generation;
        state.apply(Action::Reply { generation, reply, at_ms })
    }

    #[test]
    fn a_run_goes_from_progress_to_finished() {
        let state = running(7);
        let state = reply(state, Reply::Progress { id: 7, cycle: 10, total: 20, fraction: 0.5 }, 150.0);
        let state = reply(state, Reply::Frame { id: 7, start: 0, end: 10, hits: 4, misses: 6 }, 150.0);
        let report = CacheSweepReport { accesses: 20, hits: 8, misses: 12, evictions: 3 };
        let state =
            reply(state, Reply::Done { id: 7, report: JobReport::CacheSweep(report), elapsed_ms: 190.0 }, 300.0);
        let RunView::Finished { report: got, frames, elapsed_ms, .. } = state.run else { panic!("{:?}", state.run) };
        assert_eq!(got, report);
        assert_eq!(frames, [FrameSample { start: 0, end: 10, hits: 4, misses: 6 }]);
        assert_eq!(elapsed_ms, 200.0);
    }

    #[test]
    fn replies_of_an_older_job_are_ignored() {
        let state = running(8);
        let before = state.clone();
        let state = reply(state, Reply::Progress { id: 7, cycle: 10, total: 20, fraction: 0.5 }, 150.0);
        let state = reply(state, Reply::Cancelled { id: 7, cycle: 10 }, 150.0);
        assert_eq!(state, before);
    }

    #[test]
    fn a_crash_restarts_the_worker_and_ignores_the_dead_one() {
        let state = running(1);
        let state =
            reply(state, Reply::Failed { id: Some(1), error: Failure::Crashed { message: "boom".into() } }, 1.0);
        assert_eq!(state.worker_generation, 1);
        assert_eq!(state.worker, WorkerStatus::Starting);
        assert!(matches!(&state.run, RunView::Failed { message, .. } if message.contains("boom")));
        // The dead worker's error event arrives afterwards: it must not restart the worker again.
        let state = state.apply(Action::WorkerDied { generation: 0, message: "unreachable".into() });
        assert_eq!(state.worker_generation, 1);
    }

    #[test]
    fn a_config_failure_names_the_field() {
        let state = running(2);
        let error = Failure::InvalidConfig(warpscope_core::ConfigError::new("cache.ways", "must be between 1 and 64"));
        let state = reply(state, Reply::Failed { id: Some(2), error }, 1.0);
        assert!(matches!(&state.run, RunView::Failed { field: Some(f), .. } if f == "cache.ways"));
    }
}
