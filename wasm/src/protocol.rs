//! Messages between the page and the worker.
//!
//! The page sends [`Request`]s; the worker answers with [`Reply`]s. Every reply about a job
//! carries the job's `id`, so that the page can drop late replies of a job it has already
//! cancelled or replaced. The worker says [`Reply::Ready`] once its handler is installed; the
//! page holds requests back until then (a message posted to a worker that has not yet set its
//! handler would be lost).

use serde::{Deserialize, Serialize};
use warpscope_core::stats::Report;
use warpscope_core::{CacheSweepReport, CacheSweepSpec, ConfigError};

/// Bumped whenever a message changes shape, so that a stale cached worker is detected.
pub const PROTOCOL_VERSION: u32 = 2;

/// Identifies one job for the lifetime of the page.
pub type JobId = u32;

/// What the page asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Request {
    /// Start `job`, replacing (cancelling) any job still running.
    Run {
        /// Chosen by the page; echoed in every reply about this job.
        id: JobId,
        /// What to compute.
        job: Job,
        /// A [`Reply::Frame`] is sent every `frame_every` cycles of simulated work (0: none).
        frame_every: u64,
    },
    /// Stop job `id` at the next slice boundary; the worker answers [`Reply::Cancelled`].
    Cancel {
        /// The job to stop.
        id: JobId,
    },
    /// Diagnostic: make the worker panic, so that tests can check that a crash reaches the
    /// person as a message and the page recovers. The page only sends it in debug mode.
    Crash,
}

/// A computation the worker can run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Job {
    /// A cache driven by a synthetic address stream; one access is one cycle of work.
    CacheSweep(CacheSweepSpec),
    /// One of the engine's benchmark workloads (`streaming`, `thrashing`, `compute`) on a
    /// machine preset, with the default policies.
    Bench {
        /// Workload name.
        workload: String,
        /// Machine preset id.
        preset: String,
        /// The small size used by tests instead of the standard one.
        tiny: bool,
    },
}

/// The final result of a job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum JobReport {
    /// Result of [`Job::CacheSweep`].
    CacheSweep(CacheSweepReport),
    /// Result of an engine run (boxed: a report is large, a sweep's tiny).
    Simulation(Box<Report>),
}

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Reply {
    /// The worker is listening.
    Ready {
        /// The worker's [`PROTOCOL_VERSION`].
        protocol: u32,
    },
    /// How far job `id` has got. Sent after every slice (a few per frame of the display).
    Progress {
        /// The job.
        id: JobId,
        /// Cycles of work done.
        cycle: u64,
        /// Cycles the whole job takes.
        total: u64,
        /// `cycle / total`, for a progress bar.
        fraction: f64,
    },
    /// Sampled state for animation: counts over the window `[start, end)` of cycles.
    /// Window boundaries are multiples of `frame_every`, so frames do not depend on how fast
    /// the machine is.
    Frame {
        /// The job.
        id: JobId,
        /// First cycle of the window.
        start: u64,
        /// One past the last cycle of the window.
        end: u64,
        /// Hits within the window.
        hits: u64,
        /// Misses within the window.
        misses: u64,
    },
    /// Job `id` finished.
    Done {
        /// The job.
        id: JobId,
        /// Its result.
        report: JobReport,
        /// Wall time from the request's arrival to the end, measured in the worker.
        elapsed_ms: f64,
    },
    /// Job `id` stopped on request at `cycle`.
    Cancelled {
        /// The job.
        id: JobId,
        /// Cycles of work done when it stopped.
        cycle: u64,
    },
    /// Job `id` (or the worker itself, when `id` is `None`) failed.
    Failed {
        /// The job, when the failure belongs to one.
        id: Option<JobId>,
        /// What went wrong.
        error: Failure,
    },
}

/// Why a job or the worker failed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Failure {
    /// The job's configuration cannot be simulated; `field` says which value and why.
    InvalidConfig(ConfigError),
    /// A message the worker could not understand (usually a page/worker version mismatch).
    BadRequest {
        /// What the decoder said.
        message: String,
    },
    /// The simulation could not finish: a fault, a deadlock, or its cycle limit.
    Stopped {
        /// What happened, for a person.
        message: String,
    },
    /// The worker panicked. It is dead and the page must start a new one.
    Crashed {
        /// The panic message and location.
        message: String,
    },
}

impl Failure {
    /// Whether the worker is unusable after this failure.
    pub fn is_fatal(&self) -> bool {
        matches!(self, Failure::Crashed { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::mem::cache::{CacheGeometry, Replacement};
    use warpscope_core::sweep::AccessPattern;

    #[test]
    fn requests_and_replies_round_trip_as_tagged_objects() {
        let run = Request::Run {
            id: 3,
            job: Job::CacheSweep(CacheSweepSpec {
                cache: CacheGeometry { size_bytes: 16384, line_bytes: 128, ways: 4 },
                replacement: Replacement::Lru,
                pattern: AccessPattern::Strided { footprint_bytes: 65536, stride_bytes: 4 },
                passes: 2,
            }),
            frame_every: 1000,
        };
        let json = serde_json::to_value(&run).unwrap();
        assert_eq!(json["type"], "Run");
        assert_eq!(json["job"]["kind"], "CacheSweep");
        assert_eq!(json["job"]["pattern"]["kind"], "Strided");
        assert_eq!(serde_json::from_value::<Request>(json).unwrap(), run);

        let failed = Reply::Failed {
            id: Some(3),
            error: Failure::InvalidConfig(ConfigError::new("cache.ways", "must be between 1 and 64, got 0")),
        };
        let json = serde_json::to_value(&failed).unwrap();
        assert_eq!(json["error"]["kind"], "InvalidConfig");
        assert_eq!(json["error"]["field"], "cache.ways");
        assert_eq!(serde_json::from_value::<Reply>(json).unwrap(), failed);
    }

    #[test]
    fn only_a_crash_is_fatal() {
        assert!(Failure::Crashed { message: String::new() }.is_fatal());
        assert!(!Failure::BadRequest { message: String::new() }.is_fatal());
        assert!(!Failure::InvalidConfig(ConfigError::new("x", "y")).is_fatal());
    }
}
