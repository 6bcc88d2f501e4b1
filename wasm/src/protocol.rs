//! Messages between the page and the worker.
//!
//! The page sends [`Request`]s; the worker answers with [`Reply`]s. Every reply about a job
//! carries the job's `id`, so that the page can drop late replies of a job it has already
//! cancelled or replaced. The worker says [`Reply::Ready`] once its handler is installed; the
//! page holds requests back until then (a message posted to a worker that has not yet set its
//! handler would be lost).

use serde::{Deserialize, Serialize};
use warpscope_core::config::GpuConfig;
use warpscope_core::isa::Dim3;
use warpscope_core::kernel::{Define, Diagnostic, Span};
use warpscope_core::sched::tb::Occupancy;
use warpscope_core::stats::{Report, Snapshot};
use warpscope_core::{CacheSweepReport, CacheSweepSpec, ConfigError, Policies};

/// Bumped whenever a message changes shape, so that a stale cached worker is detected.
pub const PROTOCOL_VERSION: u32 = 10;

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
    /// Send the [`Catalog`]: library workloads, machine presets, policies.
    Catalog,
    /// Compile `source` (for the editor's markers); answered by [`Reply::Compiled`] at once,
    /// even while a job runs (compiling is quick and happens between slices). An invalid
    /// `config` is answered the same way, with a single error at 1:1 that names the field: a
    /// `Failed` reply would carry an id the page might take for a job's.
    Compile {
        /// Chosen by the page; the newest answer wins.
        id: JobId,
        /// The kernel file.
        source: String,
        /// `-D NAME=VALUE` overrides, in order.
        defines: Vec<(String, String)>,
        /// The machine it will run on (shared memory, thread and register limits are checked);
        /// boxed, so that every request is not the size of a machine.
        config: Box<GpuConfig>,
    },
    /// Send the final contents of buffer `buffer` of finished job `id` as text (one element
    /// per line); answered by [`Reply::Buffer`]. The worker keeps only the last job that
    /// finished, until the next one starts.
    Buffer {
        /// The finished job.
        id: JobId,
        /// The buffer's index among the workload's (as [`Reply::Done::buffers`] lists them).
        buffer: u32,
    },
    /// Diagnostic: how much memory the worker's WebAssembly instance holds; answered by
    /// [`Reply::Memory`]. For the memory benchmark (`tests/e2e/worker-memory-bench.mjs`).
    Memory,
    /// Diagnostic: make the worker panic, so that tests can check that a crash reaches the
    /// person as a message and the page recovers. Only a worker the page started for
    /// diagnostics (in debug mode) honours it; any other ignores it.
    Crash,
}

/// A computation the worker can run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Job {
    /// A cache driven by a synthetic address stream; one access is one cycle of work.
    CacheSweep(CacheSweepSpec),
    /// One of the engine's benchmark workloads (`streaming`, `thrashing`, `compute`,
    /// `divergent`) on a machine preset, with the default policies.
    Bench {
        /// Workload name.
        workload: String,
        /// Machine preset id.
        preset: String,
        /// The small size used by tests instead of the standard one.
        tiny: bool,
    },
    /// A kernel file compiled and run on the timing engine (boxed: a machine configuration
    /// is large; the JSON is the same).
    Simulate(Box<SimulateJob>),
}

/// A kernel-language source run on a machine under chosen policies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulateJob {
    /// The kernel file.
    pub source: String,
    /// The kernel file's name among programs side by side (the library workload it came
    /// from); `None`: "your file". Only a co-run reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Library workloads run side by side with the kernel file, each in streams of its own
    /// (`Workload::co_run`, as `warpscope run --workload backprop+spmv` builds them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub co_runners: Vec<CoRunner>,
    /// `-D NAME=VALUE` overrides of the kernel file, in order.
    pub defines: Vec<(String, String)>,
    /// The machine.
    pub config: GpuConfig,
    /// Thread-block and warp schedulers.
    pub policies: Policies,
    /// The run stops after this many cycles; the page still gets the report, with
    /// [`Reply::Done::stopped_early`] saying so.
    pub max_cycles: u64,
    /// A snapshot ([`Reply::Snapshots`]) is taken at cycle 0, at every multiple of this many
    /// cycles, and at the cycle the run ends; the interval doubles whenever [`MAX_SNAPSHOTS`]
    /// have been kept, so long runs stay bounded (see [`keeps`]). 0: only the first and the
    /// last.
    pub snapshot_every: u64,
    /// The SM whose L1 the snapshots picture (one beyond the last means the last).
    pub heat_sm: u32,
    /// What the final report keeps.
    #[serde(default)]
    pub detail: ReportDetail,
}

/// A library workload run beside a job's kernel file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoRunner {
    /// Its library id.
    pub workload: String,
    /// Its own `#define` overrides (its size knob among them), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defines: Vec<(String, String)>,
}

/// What a [`SimulateJob`]'s final report keeps: a report is sent whole, so what the page does
/// not use is left out in the worker rather than carried across and dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReportDetail {
    /// What the Simulate and compare views show: the block records and the time series, and
    /// the first [`warpscope_core::stats::MAX_RUNS_SHOWN`] kernel runs whole with the rest totalled per kernel
    /// ([`warpscope_core::stats::Report::summarise_runs`]).
    #[default]
    Shown,
    /// What a claim is judged from and a sweep measures: every kernel run whole, without the
    /// block records and the time series.
    Totals,
}

/// Most snapshots kept at one time. Snapshots land exactly on multiples of the interval (the
/// engine stops on them even inside stretches of idle cycles it would otherwise skip), so the
/// sequence does not depend on how the run is sliced. When a snapshot brings the count of
/// those kept to `MAX_SNAPSHOTS`, the interval doubles: the next snapshot announces it, and
/// from then on only multiples of the new interval are taken or kept.
///
/// The page's rule, applied on every snapshot of a [`Reply::Snapshots`]: append it, then drop
/// every other snapshot it holds whose cycle `c` has `!keeps(c, every)`, `every` being that
/// snapshot's. The newest is never dropped (the last of a job, sent at the cycle the run ended,
/// need not be a multiple). The page then never holds more than `MAX_SNAPSHOTS` + 1.
pub const MAX_SNAPSHOTS: usize = 400;

/// The machine at `snapshot.cycle`, and the snapshot interval then (see [`MAX_SNAPSHOTS`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TakenSnapshot {
    /// The interval in force when it was taken.
    pub every: u64,
    /// The picture.
    pub snapshot: Snapshot,
}

/// A field carried as one JSON string (see [`Reply::Snapshots`]).
mod json_text {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        let text = serde_json::to_string(value).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(&text)
    }

    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        let text = String::deserialize(deserializer)?;
        serde_json::from_str(&text).map_err(D::Error::custom)
    }
}

/// Whether a snapshot of cycle `cycle` stays once the interval is `every` (see
/// [`MAX_SNAPSHOTS`]); with `every` 0 there are only the first and the last, and both stay.
pub fn keeps(cycle: u64, every: u64) -> bool {
    every == 0 || cycle % every == 0
}

/// What the page can offer without knowing the engine's internals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    /// Every library workload, grouped by category in menu order.
    pub workloads: Vec<CatalogWorkload>,
    /// Every machine preset, in menu order.
    pub machines: Vec<CatalogMachine>,
    /// Thread-block schedulers, in menu order.
    pub tb_policies: Vec<CatalogPolicy>,
    /// Warp schedulers, in menu order.
    pub warp_policies: Vec<CatalogPolicy>,
    /// Memory-issue gates a warp scheduler may carry (`gto+dmil`), in menu order.
    pub memory_gates: Vec<CatalogPolicy>,
}

/// A library workload as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogWorkload {
    /// Stable id.
    pub id: String,
    /// Menu name.
    pub title: String,
    /// Category heading.
    pub category: String,
    /// One sentence.
    pub summary: String,
    /// The size knob's `#define`.
    pub size_define: String,
    /// Its value in the file.
    pub size_default: u32,
    /// Smallest allowed value.
    pub size_min: u32,
    /// Largest allowed value.
    pub size_max: u32,
    /// What the knob counts.
    pub size_unit: String,
    /// The kernel file.
    pub source: String,
}

/// A machine preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogMachine {
    /// Stable id.
    pub id: String,
    /// Menu name.
    pub label: String,
    /// Where its numbers come from.
    pub source: String,
    /// The configuration.
    pub config: GpuConfig,
}

/// A scheduling policy from the engine's registry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogPolicy {
    /// Stable id.
    pub id: String,
    /// Menu name.
    pub label: String,
    /// One sentence.
    pub description: String,
    /// What it can be tuned by, in form order; a run names the values in its policy spec
    /// (`id:name=value,...`).
    pub params: Vec<CatalogParam>,
}

/// One tunable number of a policy (see `warpscope_core::sched::ParamInfo`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogParam {
    /// Stable name in specs and links.
    pub name: String,
    /// Form label.
    pub label: String,
    /// Unit shown beside the value; may be empty.
    pub unit: String,
    /// One sentence.
    pub description: String,
    /// Smallest allowed value.
    pub min: u32,
    /// Largest allowed value.
    pub max: u32,
    /// Value when a spec leaves it out.
    pub default: u32,
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
    /// Snapshots of job `id` (a [`Job::Simulate`]) taken since the last, oldest first. The
    /// page applies them one by one by the rule of [`MAX_SNAPSHOTS`]. The worker sends them
    /// in batches, at most one per progress report, and as one JSON text rather than as
    /// JavaScript arrays: a run takes hundreds of snapshots of thousands of numbers each, and
    /// building those arrays element by element, then reading them back on the page, cost
    /// several times the run itself.
    Snapshots {
        /// The job.
        id: JobId,
        /// The pictures, each with the interval in force when it was taken.
        #[serde(with = "json_text")]
        snapshots: Vec<TakenSnapshot>,
    },
    /// The answer to [`Request::Catalog`].
    Catalog {
        /// Everything the menus list.
        catalog: Box<Catalog>,
    },
    /// The answer to [`Request::Compile`].
    Compiled {
        /// The request's id.
        id: JobId,
        /// Errors and warnings, in source order (empty: it compiles cleanly).
        diagnostics: Vec<Diagnostic>,
        /// Every `#define` with its value in effect, also when the file does not compile
        /// (empty only when the configuration is invalid).
        defines: Vec<Define>,
        /// What would run, when it compiled.
        summary: Option<CompileSummary>,
    },
    /// Job `id` finished.
    Done {
        /// The job.
        id: JobId,
        /// Its result, as one JSON text (as [`Reply::Snapshots`], and for the same reason): an
        /// engine run's report holds thousands of numbers (its blocks, its time series), and
        /// building them as JavaScript objects, then reading them back on the page, cost
        /// more than writing and parsing the text.
        #[serde(with = "json_text")]
        report: JobReport,
        /// Wall time of the simulation in the worker: from the job being set up (the kernel
        /// compiled, device memory filled) to its end, progress messages included.
        elapsed_ms: f64,
        /// Why the run ended before its workload did (it reached its cycle limit), for a
        /// person; the report covers the cycles simulated. `None`: it ran to completion.
        #[serde(default)]
        stopped_early: Option<String>,
        /// The names of the run's buffers, in order, whose contents [`Request::Buffer`] asks
        /// for (empty for a cache sweep).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        buffers: Vec<String>,
    },
    /// The answer to [`Request::Buffer`].
    Buffer {
        /// The job.
        id: JobId,
        /// The buffer's name (empty when there is no such buffer).
        name: String,
        /// Its contents as text, or why they cannot be had, for a person.
        contents: Result<String, String>,
    },
    /// The answer to [`Request::Memory`].
    Memory {
        /// The size of the worker's linear memory: what the browser holds for it. WebAssembly
        /// memory grows and never shrinks, so this is the peak of every job run so far.
        bytes: u64,
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

/// What a compiled file would run, for the editor's status line and the Launches panel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompileSummary {
    /// Host launches.
    pub launches: u32,
    /// Kernels with their resource use.
    pub kernels: Vec<KernelSummary>,
    /// Bytes of device memory the buffers take.
    pub buffer_bytes: u64,
    /// The host's launch sequence in order, runs of identical launches grouped into one row,
    /// at most [`MAX_LAUNCH_ROWS`] rows (the rest are only counted in `launches`).
    pub sequence: Vec<LaunchRow>,
    /// SMs of the machine the occupancy was worked out for.
    pub sm_count: u32,
    /// Warp slots of one of its SMs (occupancy as a fraction of them).
    pub max_warps_per_sm: u32,
}

/// Most rows of [`CompileSummary::sequence`]: a host loop may launch thousands of kernels.
pub const MAX_LAUNCH_ROWS: usize = 200;

/// Consecutive host launches from one source statement with the same kernel, shape and stream
/// (a loop's iterations, usually); one launch when nothing repeats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaunchRow {
    /// Position of the first of them in the host's launch sequence, from 0.
    pub first: u32,
    /// How many consecutive launches the row stands for.
    pub count: u32,
    /// The kernel's name.
    pub kernel: String,
    /// Grid dimensions in blocks.
    pub grid: Dim3,
    /// Block dimensions in threads.
    pub block: Dim3,
    /// The stream (0: the default stream).
    pub stream: u32,
    /// Shared memory per block in bytes: the kernel's `__shared__` arrays (the language has no
    /// dynamic shared memory).
    pub shared_bytes: u32,
    /// The launch statement in the source.
    pub at: Span,
    /// The grid as written.
    pub grid_source: DimSource,
    /// The block as written.
    pub block_source: DimSource,
    /// How the block shape fills an SM of the machine compiled for.
    pub occupancy: Occupancy,
}

/// A grid or block expression as written in the source.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DimSource {
    /// The source text (`dim3(N / TILE, N / TILE)`).
    pub text: String,
    /// The `#define`s it names, in order of first use: the Parameters panel changes them.
    pub defines: Vec<String>,
}

/// One kernel's footprint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelSummary {
    /// Its name.
    pub name: String,
    /// Registers per thread after allocation.
    pub registers: u32,
    /// Bytes of local memory per thread holding the registers spilled (0 for most kernels).
    #[serde(default)]
    pub spill_bytes: u32,
    /// Shared memory per block in bytes.
    pub shared_bytes: u32,
    /// Instructions.
    pub instructions: u32,
    /// Kernels its threads launch from the device (grids sized at run time), without repeats.
    pub device_launches: Vec<String>,
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
    /// The simulation could not finish: a fault or a deadlock (a cycle limit is not a
    /// failure: see [`Reply::Done::stopped_early`]).
    Stopped {
        /// What happened, for a person.
        message: String,
    },
    /// The kernel file does not compile; the run never started.
    Compile {
        /// Errors and warnings, in source order.
        diagnostics: Vec<Diagnostic>,
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
    fn the_web_app_messages_round_trip() {
        let config = warpscope_core::config::presets::fermi_gtx480();
        let requests = [
            Request::Catalog,
            Request::Memory,
            Request::Compile {
                id: 4,
                source: "#define N 4".into(),
                defines: vec![("N".into(), "8".into())],
                config: Box::new(config.clone()),
            },
            Request::Run {
                id: 5,
                job: Job::Simulate(Box::new(SimulateJob {
                    source: "host {}".into(),
                    name: None,
                    co_runners: Vec::new(),
                    defines: vec![],
                    config,
                    policies: Policies::default(),
                    max_cycles: 1000,
                    snapshot_every: 10,
                    heat_sm: 2,
                    detail: ReportDetail::Totals,
                })),
                frame_every: 0,
            },
        ];
        for request in requests {
            let json = serde_json::to_value(&request).unwrap();
            assert_eq!(serde_json::from_value::<Request>(json).unwrap(), request);
        }
        let snapshot = Snapshot { cycle: 20, warps_per_sm: 2, warp_state: vec![1, 0], ..Snapshot::default() };
        let vecadd = warpscope_core::library::by_id("vecadd").unwrap();
        let Reply::Compiled { summary: Some(summary), .. } =
            crate::compile::compile_reply(4, vecadd.source, &[], &warpscope_core::config::presets::fermi_gtx480())
        else {
            panic!("vecadd compiles")
        };
        let replies = [
            Reply::Snapshots { id: 5, snapshots: vec![TakenSnapshot { every: 10, snapshot }] },
            Reply::Memory { bytes: 3 << 30 },
            Reply::Compiled { id: 4, diagnostics: vec![], defines: vec![], summary: None },
            Reply::Compiled { id: 4, diagnostics: vec![], defines: vec![], summary: Some(summary) },
            Reply::Failed { id: Some(5), error: Failure::Compile { diagnostics: vec![] } },
        ];
        for reply in replies {
            let json = serde_json::to_value(&reply).unwrap();
            assert_eq!(serde_json::from_value::<Reply>(json).unwrap(), reply);
        }
        let json = serde_json::to_value(Reply::Compiled { id: 4, diagnostics: vec![], defines: vec![], summary: None });
        assert_eq!(json.unwrap()["type"], "Compiled");
    }

    #[test]
    fn done_says_why_a_run_stopped_early_and_may_leave_it_out() {
        let report = JobReport::CacheSweep(CacheSweepReport::default());
        let stopped = Some("stopped at the cycle limit (5 cycles) before the workload finished".to_string());
        let done =
            Reply::Done { buffers: Vec::new(), id: 1, report: report.clone(), elapsed_ms: 2.0, stopped_early: stopped };
        let json = serde_json::to_value(&done).unwrap();
        assert_eq!(serde_json::from_value::<Reply>(json).unwrap(), done);
        let mut json = serde_json::to_value(Reply::Done {
            buffers: Vec::new(),
            id: 1,
            report,
            elapsed_ms: 2.0,
            stopped_early: None,
        })
        .unwrap();
        json.as_object_mut().unwrap().remove("stopped_early");
        assert!(matches!(serde_json::from_value::<Reply>(json), Ok(Reply::Done { stopped_early: None, .. })));
    }

    #[test]
    fn the_page_keeps_multiples_of_the_interval_and_everything_without_one() {
        assert!(keeps(0, 8) && keeps(16, 8) && !keeps(12, 8));
        assert!(keeps(12, 4));
        assert!(keeps(7, 0), "no interval: only a first and a last, both kept");
    }

    #[test]
    fn only_a_crash_is_fatal() {
        assert!(Failure::Crashed { message: String::new() }.is_fatal());
        assert!(!Failure::BadRequest { message: String::new() }.is_fatal());
        assert!(!Failure::InvalidConfig(ConfigError::new("x", "y")).is_fatal());
    }
}
