//! The whole GPU and its clock: [`Simulation`], the one entry point of the engine.
//!
//! Each simulated cycle runs back to front: replies and requests due from the memory side,
//! then every SM (memory pipeline, miss-queue injection, issue), then thread-block dispatch.
//! When nothing can happen before some later cycle — every warp waits on memory or a long
//! latency — the clock jumps there, and the skipped cycles are charged to the stall reason
//! each scheduler had; so the cost of a run grows with its work, not with memory latency.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::config::{Coherence, GpuConfig, ReadOnlyData, Replacement, TbDispatchRate};
use crate::error::ConfigError;
use crate::events::{SmEvent, Stamped};
use crate::exec::memory::{GlobalMemory, Region};
use crate::exec::{Fault, FaultKind, FaultThread, LaunchProblem, MAX_DEVICE_GRIDS};
use crate::isa::{Dim3, SourcePos, Space};
use crate::launch::{DeviceLaunch, HostQueue, LaunchPaths, NewRun, Occupancy, Origin, Ready, Run, Undispatched};
use crate::mem::denovo::{Home, HomeAction};
use crate::mem::dram::Dram;
use crate::mem::events::EventQueue;
use crate::mem::l1::{L1Stats, Message, RequestKind};
use crate::mem::l2::{L2Bank, L2Output, L2Request, Lookup};
use crate::mem::network::{Endpoint, Network};
use crate::mem::replay::{replay, ReplayCache, ReplayCounts, ReplayPolicy};
use crate::sched::tb::{
    BlockNeeds, Dispatch, KernelLaunch, PendingKernel, Placement, SmFree, TbCx, TbPolicy, TbScheduler,
};
use crate::sched::warp::{WarpPolicy, WarpScheduler};
use crate::sm::scoreboard::{self, Operands};
use crate::sm::wakeups::Wakeups;
use crate::sm::{CycleTally, Finished, IssueCx, LaunchShape, Sm};
use crate::stats::blocking::{BlockingKernel, MemoryBlocking};
use crate::stats::energy::{Energy, EnergyModel};
use crate::stats::l1_totals::L1Totals;
use crate::stats::parts;
use crate::stats::snapshot::NONE;
use crate::stats::{
    BlockLog, KernelReport, L1Replay, L2Stats, Report, Snapshot, StallBreakdown, TimeSeries, TrafficClass, Window,
    WindowCursor,
};
use crate::workload::{Part, Workload};

/// Which policies run: each a spec, the registry id optionally followed by parameter values
/// (`swl:limit=6`; see [`crate::sched::PolicySpec`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policies {
    /// Thread-block scheduler (see [`crate::sched::tb::TB_POLICIES`]).
    pub tb: String,
    /// Warp scheduler (see [`crate::sched::warp::WARP_POLICIES`]).
    pub warp: String,
}

impl Default for Policies {
    fn default() -> Self {
        Policies { tb: "rr".into(), warp: "gto".into() }
    }
}

/// Bounds and sampling of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOptions {
    /// The run stops with [`StepOutcome::CycleLimit`] after this many cycles.
    pub max_cycles: u64,
    /// Initial width of the time-series windows, in cycles (narrow, so that short runs still
    /// chart over time; long runs widen it by doubling, keeping at most 2048 windows).
    pub series_every: u64,
    /// Jump over cycles in which nothing can happen (on by default; turning it off must not
    /// change any result, only the time taken, and a test checks exactly that).
    pub skip_idle: bool,
    /// Keep each SM's event stream ([`crate::events`]), stamped with cycles, for
    /// [`Simulation::recorded`] (off by default: it grows with every memory access).
    #[serde(default)]
    pub record: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { max_cycles: 100_000_000, series_every: 64, skip_idle: true, record: false }
    }
}

/// How a call to [`Simulation::step`] ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepOutcome {
    /// Every launch completed.
    Finished,
    /// The step's budget ran out; call `step` again to continue.
    BudgetSpent,
    /// The run reached [`RunOptions::max_cycles`] without finishing.
    CycleLimit {
        /// The limit.
        cycles: u64,
    },
    /// A warp faulted (for example an out-of-bounds access); the run cannot continue.
    Fault {
        /// Kernel name.
        kernel: String,
        /// SM of the warp.
        sm: u32,
        /// The fault.
        fault: Fault,
        /// For a local array indexed out of range, what the kernel's debug info calls it
        /// (``local array `x` ``); `None` otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        array: Option<String>,
        /// The faulting thread, where the warp is known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thread: Option<FaultThread>,
        /// Where the faulting instruction is in the kernel's source, if its debug info says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<SourcePos>,
        /// For an access outside every buffer, where it is from the nearest one
        /// ("16 bytes past the end of `a` (1024 bytes)").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        near: Option<String>,
    },
    /// Nothing can ever happen again, yet launches remain.
    Deadlock {
        /// What is stuck, for a person.
        what: String,
    },
}

impl core::fmt::Display for StepOutcome {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            StepOutcome::Finished => write!(f, "finished"),
            StepOutcome::BudgetSpent => write!(f, "paused"),
            StepOutcome::CycleLimit { cycles } => {
                write!(f, "stopped at the cycle limit ({cycles} cycles) before the workload finished")
            }
            StepOutcome::Fault { kernel, sm, fault, array, thread, source, near } => {
                write!(f, "kernel {kernel} faulted on SM {sm}")?;
                if let Some(at) = source {
                    write!(f, " at line {}, column {}", at.line, at.column)?;
                }
                write!(f, ": {}", fault.describe(array.as_deref()))?;
                if let Some(near) = near {
                    write!(f, "; {near}")?;
                }
                if let Some(t) = thread {
                    let [x, y, z] = t.thread;
                    let [bx, by, bz] = t.block;
                    write!(f, "; thread ({x}, {y}, {z}) of block ({bx}, {by}, {bz})")?;
                }
                Ok(())
            }
            StepOutcome::Deadlock { what } => write!(f, "{what}"),
        }
    }
}

/// Something the memory side will do at a given cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum MemEvent {
    /// A request reaches its L2 bank.
    ArriveL2 {
        bank: u32,
        sm: u32,
        line: u64,
        sectors: u32,
        kind: u8,
        token: u32,
        kernel: u32,
        updates: u32,
        message: Message,
    },
    /// A DRAM read for `sectors` of `line` completes at `bank`.
    DramDone { bank: u32, line: u64, sectors: u32 },
    /// A reply reaches its SM.
    ArriveSm { sm: u32, line: u64, sectors: u32, atomic: bool, token: u32 },
    /// DeNovo: the L1 of `owner` has looked up a request the home bank forwarded to it and
    /// sends the data of `sectors` to SM `to` (giving them up first if `revoke`).
    AnswerForwarded {
        owner: u32,
        to: u32,
        line: u64,
        sectors: u32,
        atomic: bool,
        token: u32,
        kernel: u32,
        revoke: bool,
    },
    /// DeNovo: SM `sm` learns that another L1 now owns `sectors` of `line`.
    Revoke { sm: u32, line: u64, sectors: u32 },
}

/// The class of network traffic a request of `kind` sent as `message` is, and its reply.
fn traffic_class(kind: RequestKind, message: Message) -> TrafficClass {
    match (message, kind) {
        (Message::WriteBack, _) => TrafficClass::WriteBack,
        (Message::Register, _) => TrafficClass::Ownership,
        (Message::Access, RequestKind::Load) => TrafficClass::Read,
        (Message::Access, _) => TrafficClass::Write,
    }
}

fn kind_code(kind: RequestKind) -> u8 {
    match kind {
        RequestKind::Load => 0,
        RequestKind::Store => 1,
        RequestKind::Atomic => 2,
    }
}

fn kind_of(code: u8) -> RequestKind {
    match code {
        0 => RequestKind::Load,
        1 => RequestKind::Store,
        _ => RequestKind::Atomic,
    }
}

impl CycleTally {
    fn add_to(&self, window: &mut crate::stats::Window) {
        window.warp_instructions += self.instructions;
        window.stalls.add_counts(&self.stalls);
        for (w, n) in window.held_back.iter_mut().zip(self.held_back) {
            *w += n;
        }
    }
}

/// What a dormant stretch of an SM adds to `series`: its schedulers' stall reasons and the
/// co-running kernels (a bit each) whose memory instructions waited at its LSU
/// ([`Sm::catch_up`]).
fn dormant(series: &mut TimeSeries) -> impl FnMut(&[crate::stats::StallReason], u8, u64, u64) + '_ {
    |reasons, held_back, start, cycles| {
        series.add_stall_span(start, cycles, reasons);
        series.add_held_back_span(held_back, start, cycles);
    }
}

/// A GPU running a workload.
pub struct Simulation {
    config: GpuConfig,
    workload: Workload,
    /// The workload's kernels decoded for the scoreboard.
    operands: Vec<Vec<Operands>>,
    options: RunOptions,
    memory: GlobalMemory,
    regions: Vec<Region>,
    sms: Vec<Sm>,
    /// By SM: the engine may skip its cycles before this one (nothing can change in it unless a
    /// reply arrives or a block is admitted, and the engine then moves it earlier). Kept apart
    /// from the SMs, with the SMs that have one as bits, so that the clock's look at them each
    /// cycle costs the busy ones, not every one.
    sm_wake: Wakeups,
    banks: Vec<L2Bank>,
    /// DeNovo's owner registry at the home banks (`None` under other coherence).
    home: Option<Home>,
    dram: Dram,
    network: Network,
    /// Pending memory-side events, ordered by (cycle, order of scheduling).
    events: EventQueue<MemEvent>,
    /// Resources were freed or blocks became available since the last dispatch that placed
    /// nothing: only then can a (deterministic) TB policy decide differently.
    dispatch_pending: bool,
    /// The cycle the TB policy asked to be called again at (`u64::MAX`: not asked).
    tb_wake: u64,
    tb_policy: TbPolicy,
    now: u64,
    /// Host launches and their stream order.
    host: HostQueue,
    /// The root run of each host launch once it started.
    host_runs: Vec<Option<u32>>,
    /// A host launch completed: others may be able to start.
    host_changed: bool,
    /// Every kernel run so far, by run id.
    runs: Vec<Run>,
    undispatched: Undispatched,
    /// Launches on their way to becoming runs: latencies, the KMU and KDU, DTBL's group tables.
    launch_paths: LaunchPaths,
    /// The cycle the launch queues' occupancy was last recorded, and what it was.
    launch_queues_seen: (u64, Occupancy),
    kernels: Vec<KernelReport>,
    blocks: BlockLog,
    series: TimeSeries,
    series_mark: (u64, L1Stats, L2Stats),
    /// The L1s' counts summed, kept up to date by looking at the SMs the clock visited.
    l1_totals: L1Totals,
    /// For programs side by side, their warp instructions at the series' last sample.
    parts_mark: [u64; parts::SERIES_PARTS],
    /// For programs side by side, each kernel run's program (`stats::parts::run_parts`).
    run_parts: Vec<u8>,
    /// The window of the last sample's cycle, and of the cycle being simulated.
    mark_window: WindowCursor,
    now_window: WindowCursor,
    outcome: Option<StepOutcome>,
    // Scratch buffers reused every cycle.
    finished: Vec<Finished>,
    placements: Vec<Placement>,
    launched: Vec<DeviceLaunch>,
    ready_launches: Vec<u32>,
    ready_runs: Vec<Ready>,
    woken: Vec<u32>,
    l2_out: Vec<L2Output>,
    /// The home bank's decisions for one DeNovo request (kept to reuse its allocation).
    home_actions: Vec<HomeAction>,
    free: Vec<SmFree>,
    budget: Vec<u32>,
}

impl Simulation {
    /// Validates everything and prepares the GPU at cycle 0.
    pub fn new(
        config: GpuConfig,
        workload: Workload,
        policies: &Policies,
        options: RunOptions,
    ) -> Result<Simulation, ConfigError> {
        Simulation::new_with_memo(config, workload, policies, options, &crate::scalability::NoMemo)
    }

    /// [`Simulation::new`], with the profile runs a policy asks for before the run (Warped-Slicer's
    /// curves, SMK-W's rates) recalled from and kept in `memo`.
    pub fn new_with_memo(
        config: GpuConfig,
        workload: Workload,
        policies: &Policies,
        options: RunOptions,
        memo: &dyn crate::scalability::ProfileMemo,
    ) -> Result<Simulation, ConfigError> {
        config.validate()?;
        workload.validate(&config)?;
        let mut warp_policy =
            WarpPolicy::from_spec(&policies.warp).map_err(|e| ConfigError::new("policies.warp", e.0))?;
        let mut tb_policy = TbPolicy::from_spec(&policies.tb).map_err(|e| ConfigError::new("policies.tb", e.0))?;
        let smc_bytes = if warp_policy.smc().is_some() { config.core.shared_memory_per_sm } else { 0 };
        crate::footprint::check(&config, &workload, smc_bytes)?;
        // Profiled under the base policy, without memory-issue gates (see `scalability`).
        let base = policies.warp.split('+').next().unwrap_or_default();
        if let Some(cycles) = tb_policy.profile_cycles() {
            tb_policy.set_curves(crate::scalability::curves(&config, &workload, base, cycles, memo));
        }
        if let Some(cycles) = warp_policy.alone_profile_cycles() {
            warp_policy.set_alone_rates(crate::scalability::alone(&config, &workload, base, cycles, memo));
        }
        Ok(Simulation::with_policies(config, workload, tb_policy, warp_policy, options))
    }

    /// [`Simulation::new`] with the policies given as objects (tests use policies the registry
    /// does not list); the configuration and the workload are valid.
    pub(crate) fn with_policies(
        config: GpuConfig,
        workload: Workload,
        tb_policy: TbPolicy,
        warp_policy: WarpPolicy,
        options: RunOptions,
    ) -> Simulation {
        let (mut memory, regions) = workload.materialize();
        if config.coherence == Coherence::DeNovo && config.denovo.read_only == ReadOnlyData::Keep {
            memory.track_writes();
        }
        let streams = workload.host_streams();
        let sms = (0..config.core.sm_count)
            .map(|i| {
                let mut sm = Sm::new(i, &config, &warp_policy, options.skip_idle, options.record);
                sm.set_co_running(&streams);
                sm.set_local_frames(workload.kernels.iter().map(|k| k.spill_words).max().unwrap_or(0));
                if !workload.parts.is_empty() {
                    sm.keep_stall_spans();
                }
                sm
            })
            .collect();
        let banks = (0..config.l2.banks).map(|b| L2Bank::new(b, &config)).collect();
        let home = (config.coherence == Coherence::DeNovo).then(|| Home::for_config(&config));
        Simulation {
            home,
            dram: Dram::new(&config),
            network: Network::new(&config),
            sm_wake: Wakeups::new(config.core.sm_count as usize),
            sms,
            banks,
            memory,
            regions,
            events: EventQueue::new(),
            dispatch_pending: false,
            tb_wake: u64::MAX,
            tb_policy,
            now: 0,
            host: HostQueue::new(
                &workload.launches.iter().map(|l| l.stream).collect::<Vec<_>>(),
                &workload.copies.iter().map(|c| c.before).collect::<Vec<_>>(),
                config.window.cycles > 0,
            ),
            host_runs: vec![None; workload.launches.len()],
            host_changed: true,
            runs: Vec::new(),
            undispatched: Undispatched::default(),
            launch_paths: LaunchPaths::new(&config),
            launch_queues_seen: (0, Occupancy::default()),
            kernels: Vec::new(),
            blocks: BlockLog::default(),
            series: TimeSeries::new(options.series_every),
            series_mark: (0, L1Stats::default(), L2Stats::default()),
            l1_totals: L1Totals::new(config.core.sm_count as usize),
            parts_mark: Default::default(),
            run_parts: Vec::new(),
            mark_window: WindowCursor::default(),
            now_window: WindowCursor::default(),
            outcome: None,
            finished: Vec::new(),
            placements: Vec::new(),
            launched: Vec::new(),
            ready_launches: Vec::new(),
            ready_runs: Vec::new(),
            woken: Vec::new(),
            l2_out: Vec::new(),
            home_actions: Vec::new(),
            free: vec![SmFree::default(); config.core.sm_count as usize],
            budget: vec![0; config.core.sm_count as usize],
            config,
            operands: workload.kernels.iter().map(scoreboard::decode).collect(),
            workload,
            options,
        }
    }

    /// The current cycle.
    pub fn cycle(&self) -> u64 {
        self.now
    }

    /// Device memory (buffers' final contents once finished).
    pub fn memory(&self) -> &GlobalMemory {
        &self.memory
    }

    /// Where each buffer of the workload lives.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The workload being run.
    pub fn workload(&self) -> &Workload {
        &self.workload
    }

    /// The words of buffer `index`.
    pub fn buffer(&self, index: usize) -> &[u32] {
        self.regions.get(index).map_or(&[], |&r| self.memory.words(r))
    }

    /// How far the launch sequence has got, from 0 to 1: complete host launches plus, for each
    /// under way, the finished share of the blocks of its grid and of the grids its threads
    /// have launched so far (a share that falls when a new child grid is launched).
    pub fn progress(&self) -> f64 {
        let launches = self.workload.launches.len().max(1) as f64;
        let mut done = 0.0;
        for run in self.host_runs.iter().flatten() {
            let run = &self.runs[*run as usize];
            done += if run.complete() { 1.0 } else { run.tree_finished as f64 / run.tree_blocks.max(1) as f64 };
        }
        done / launches
    }

    /// For a run stopped before its end, what is still running: each unfinished kernel with
    /// its finished blocks and the source lines its live warps are at (the line of the
    /// nearest instruction at or before each warp's next one that the debug info places),
    /// most warps first. Empty when every kernel finished.
    pub fn still_running(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (k, (run, report)) in self.runs.iter().zip(&self.kernels).enumerate() {
            if run.finished_blocks >= run.blocks {
                continue;
            }
            let code = self.workload.kernels.get(run.code as usize);
            let mut lines: Vec<(u32, usize)> = Vec::new();
            for sm in &self.sms {
                for (warp_run, pc) in sm.live_warp_pcs() {
                    if warp_run as usize != k {
                        continue;
                    }
                    let line = code.and_then(|c| (0..=pc).rev().find_map(|p| c.source_of(p))).map_or(0, |at| at.line);
                    match lines.iter_mut().find(|(l, _)| *l == line) {
                        Some((_, n)) => *n += 1,
                        None => lines.push((line, 1)),
                    }
                }
            }
            lines.sort_by_key(|&(line, n)| (core::cmp::Reverse(n), line));
            let at: Vec<String> = lines
                .iter()
                .take(4)
                .map(|&(line, n)| {
                    let warps = if n == 1 { String::from("1 warp") } else { format!("{n} warps") };
                    if line == 0 {
                        format!("{warps} at an unknown line")
                    } else {
                        format!("{warps} near line {line}")
                    }
                })
                .collect();
            let warps = if at.is_empty() { String::from("no warp resident") } else { at.join(", ") };
            out.push(format!("{} ({} of {} blocks done; {warps})", report.name, run.finished_blocks, run.blocks));
        }
        out
    }

    /// Host launches complete so far, and all of them.
    pub fn launches_done(&self) -> (usize, usize) {
        let done = self.host_runs.iter().flatten().filter(|&&run| self.runs[run as usize].complete()).count();
        (done, self.workload.launches.len())
    }

    /// The L1 of SM `sm` as owner ids (the warp slot that filled each line), set-major:
    /// entry `set * ways + way`, `None` where the way holds no data. For the cache heat map.
    pub fn l1_owners(&self, sm: usize) -> Vec<Option<u32>> {
        let Some(sm) = self.sms.get(sm) else { return Vec::new() };
        let l1 = sm.l1();
        (0..l1.sets()).flat_map(|set| l1.owners_of_set(set)).collect()
    }

    /// SM `sm`'s L1 accesses so far as the replay of `l1.replacement = Belady` sees them (see
    /// [`crate::mem::replay`]); empty for any other replacement.
    pub fn l1_accesses(&self, sm: usize) -> &[crate::mem::replay::L1Access] {
        self.sms.get(sm).map_or(&[], |s| s.l1_log())
    }

    /// SM `sm`'s event stream so far, stamped with cycles; empty unless [`RunOptions::record`]
    /// is on (see [`crate::events`]).
    pub fn recorded(&self, sm: usize) -> &[Stamped] {
        self.sms.get(sm).map_or(&[], |s| s.recorded())
    }

    /// The machine.
    pub fn config(&self) -> &GpuConfig {
        &self.config
    }

    /// The thread-block policy, as it stands (for tests of policies).
    #[cfg(test)]
    pub(crate) fn tb_policy(&self) -> &TbPolicy {
        &self.tb_policy
    }

    /// The warp policy of SM `sm`, as it stands: for views of a policy's own state (CCWS's
    /// scores: match [`WarpPolicy::Ccws`] and ask it for its state at [`Simulation::cycle`]).
    /// `None` past the last SM.
    pub fn warp_policy(&self, sm: usize) -> Option<&WarpPolicy> {
        self.sms.get(sm).map(|s| s.policy())
    }

    /// Runs at most `budget` cycles. Skipping idle cycles may carry the clock past the budget's
    /// end; [`Simulation::step_until`] stops exactly.
    pub fn step(&mut self, budget: u64) -> StepOutcome {
        self.advance_to(self.now.saturating_add(budget), u64::MAX)
    }

    /// Runs until the clock reads `cycle` — landing on it exactly even inside a stretch of
    /// idle cycles it would otherwise jump over — or until the run ends. Where it lands
    /// changes no result: nothing happens in the cycles a jump skips.
    pub fn step_until(&mut self, cycle: u64) -> StepOutcome {
        self.advance_to(cycle, cycle)
    }

    /// Simulates cycles while the clock is before `end`, never moving it past `landing`.
    fn advance_to(&mut self, end: u64, landing: u64) -> StepOutcome {
        if let Some(outcome) = &self.outcome {
            return outcome.clone();
        }
        while self.now < end {
            if let Some(outcome) = self.cycle_once(landing) {
                self.catch_up_all();
                self.outcome = Some(outcome.clone());
                return outcome;
            }
        }
        self.catch_up_all();
        StepOutcome::BudgetSpent
    }

    /// Runs to the end (or a fault, deadlock or the cycle limit).
    pub fn run(&mut self) -> StepOutcome {
        loop {
            match self.step(u64::MAX) {
                StepOutcome::BudgetSpent => continue,
                outcome => return outcome,
            }
        }
    }

    /// Simulates cycle `now` and moves the clock to the next cycle where anything can happen,
    /// or to `landing` if that comes first (and is later than `now`).
    fn cycle_once(&mut self, landing: u64) -> Option<StepOutcome> {
        let now = self.now;
        if now >= self.options.max_cycles {
            return Some(StepOutcome::CycleLimit { cycles: self.options.max_cycles });
        }
        if self.config.window.cycles > 0 && now >= u64::from(self.config.window.cycles) {
            // The measurement window closes: the run is complete, whatever is still running.
            self.sample_series(now, true);
            return Some(StepOutcome::Finished);
        }
        self.sample_series(now, false);
        if self.host_changed {
            self.host_changed = false;
            if self.host.all_done() {
                // The host's writes after its last launch.
                let last = self.workload.launches.len() as u32;
                self.workload.apply_copies_before(last, &mut self.memory, &self.regions);
                self.sample_series(now, true);
                return Some(StepOutcome::Finished);
            }
            self.start_host_launches(now);
        }
        self.advance_launches(now);
        self.memory_events(now);
        if let Some(outcome) = self.sm_cycles(now) {
            return Some(outcome);
        }
        self.retire_blocks(now);
        self.dispatch(now);
        self.note_launch_queues(now);

        let next = match self.next_cycle(now) {
            u64::MAX => return Some(StepOutcome::Deadlock { what: self.describe_stuck() }),
            next if self.options.skip_idle => next.min(landing.max(now + 1)),
            _ => now + 1,
        };
        self.now = next;
        None
    }

    /// Counts the stall cycles of every dormant SM up to the current cycle, so that a report
    /// taken now is complete.
    fn catch_up_all(&mut self) {
        self.l1_totals.touch_all();
        let Simulation { sms, series, now, kernels, .. } = self;
        for sm in sms.iter_mut() {
            sm.catch_up(*now, kernels, &mut dormant(series));
        }
    }

    fn start_host_launches(&mut self, now: u64) {
        let mut ready = core::mem::take(&mut self.ready_launches);
        ready.clear();
        self.host.take_ready(&mut ready);
        for &index in &ready {
            // The host's writes before this launch land first: every earlier launch is
            // complete (it is a sync point) and no later one has started.
            self.workload.apply_copies_before(index, &mut self.memory, &self.regions);
            // Acquire: under GPU coherence a kernel starts with empty L1s, under DeNovo with
            // only what each L1 owns (and, with read-only data kept, what no kernel wrote since
            // the last boundary); device launches share their parent's view and do not
            // invalidate.
            let stream = self.workload.launches[index as usize].stream;
            match (self.config.coherence, self.co_runner_lines(stream)) {
                (Coherence::InvalidateL1, None) => self.sms.iter_mut().for_each(Sm::invalidate_l1),
                (Coherence::InvalidateL1, Some(kept)) => {
                    // Programs side by side: only the launching program's lines go.
                    self.sms.iter_mut().for_each(|sm| sm.self_invalidate_l1(|line| kept.contains(line)));
                }
                (Coherence::DeNovo, kept) => self.self_invalidate(kept.as_ref()),
                (Coherence::KeepL1, _) => {}
            }
            let launch = &self.workload.launches[index as usize];
            let args = Workload::arg_words(launch, &self.regions);
            let origin = Origin::Host { launch: index, stream: launch.stream };
            let (code, grid, block) = (launch.kernel, launch.grid, launch.block);
            let run = NewRun { code, grid, block, args, origin, depth: 0, launched: now };
            let mut runs = core::mem::take(&mut self.ready_runs);
            self.launch_paths.host(now, run, &mut runs);
            self.start_runs(now, &mut runs);
        }
        self.ready_launches = ready;
    }

    /// Records how full the KDU, the KMU and the group tables are in this cycle's window, and
    /// how full they were over the cycles since the last visit (they change only in cycles the
    /// clock visits), so that the windows' maxima do not depend on which cycles were skipped.
    fn note_launch_queues(&mut self, now: u64) {
        if !self.launch_paths.limits_kernels() {
            return;
        }
        let (last_cycle, last) = self.launch_queues_seen;
        let held = |w: &mut Window, o: &Occupancy| {
            w.kdu_kernels = w.kdu_kernels.max(o.kdu_kernels);
            w.kmu_waiting = w.kmu_waiting.max(o.kmu_waiting);
            w.group_records = w.group_records.max(o.group_records);
        };
        let mut at = last_cycle + 1;
        while at < now {
            held(self.series.at(at), &last);
            at = (at / self.series.every + 1) * self.series.every;
        }
        let current = self.launch_paths.occupancy();
        held(self.series.at(now), &current);
        self.launch_queues_seen = (now, current);
    }

    /// Moves launches along their paths; those that reach the dispatcher become runs.
    fn advance_launches(&mut self, now: u64) {
        let mut runs = core::mem::take(&mut self.ready_runs);
        let Simulation { launch_paths, tb_policy, config, .. } = self;
        let cx = TbCx { now, sm_count: config.core.sm_count };
        launch_paths.advance(now, &mut |waiting| tb_policy.kmu_pick(&cx, waiting), &mut runs);
        if runs.is_empty() {
            self.ready_runs = runs;
        } else {
            self.start_runs(now, &mut runs);
        }
    }

    /// Starts the runs in `runs` (emptied; kept for its allocation).
    fn start_runs(&mut self, now: u64, runs: &mut Vec<Ready>) {
        for ready in runs.drain(..) {
            let id = self.start_run(now, ready);
            if let Origin::Host { launch, .. } = self.runs[id as usize].origin {
                self.host_runs[launch as usize] = Some(id);
            }
        }
        self.ready_runs = core::mem::take(runs);
    }

    /// DeNovo's acquire: each L1 keeps what it owns and, with read-only data kept, the lines of
    /// buffers no store or atomic reached since the previous boundary.
    fn self_invalidate(&mut self, co_runners: Option<&CoRunnerLines>) {
        let Simulation { sms, memory, config, .. } = self;
        let keep_read_only = config.denovo.read_only == ReadOnlyData::Keep;
        let line_bytes = config.l1.line_bytes as u64;
        let keep = |line: u64| {
            let (first, last) = (line * line_bytes, (line + 1) * line_bytes - 1);
            let unwritten = |byte: u64| u32::try_from(byte).is_ok_and(|a| !memory.written_since(a));
            (keep_read_only && unwritten(first) && unwritten(last)) || co_runners.is_some_and(|c| c.contains(line))
        };
        for sm in sms.iter_mut() {
            sm.self_invalidate_l1(keep);
        }
        memory.forget_writes();
    }

    /// For programs side by side, the lines a kernel boundary in `stream` leaves alone: every
    /// line outside the buffers of the program that launches into it. `None` for one program.
    fn co_runner_lines(&self, stream: u32) -> Option<CoRunnerLines> {
        let part = &self.workload.parts[self.workload.part_of_stream(stream)?];
        let line_bytes = u64::from(self.config.l1.line_bytes);
        let buffers = part.first_buffer as usize..(part.first_buffer + part.buffers) as usize;
        let own = self.regions[buffers]
            .iter()
            .map(|r| {
                let (start, end) = (u64::from(r.base), u64::from(r.base) + u64::from(r.bytes));
                (start / line_bytes, end.div_ceil(line_bytes))
            })
            .collect();
        Some(CoRunnerLines { own })
    }

    /// Creates a run and hands it to the TB scheduler; returns its id.
    fn start_run(&mut self, now: u64, ready: Ready) -> u32 {
        let Ready { run: NewRun { code, grid, block, args, origin, launched, .. }, kdu_entry, group_sm } = ready;
        let id = self.runs.len() as u32;
        let (depth, root) = match origin {
            Origin::Host { .. } => (0, id),
            Origin::Device { run, .. } => (self.runs[run as usize].depth + 1, self.runs[run as usize].root),
        };
        let dynamic_shared = match origin {
            Origin::Host { launch, .. } => self.workload.launches[launch as usize].dynamic_shared,
            Origin::Device { .. } => 0,
        };
        let needs = self.block_needs(code, block, dynamic_shared);
        let blocks = grid.count() as u32;
        let kernel = &self.workload.kernels[code as usize];
        self.runs.push(Run {
            code,
            grid,
            block,
            args,
            needs,
            origin,
            depth,
            blocks,
            finished_blocks: 0,
            children_left: 0,
            root,
            tree_blocks: blocks as u64,
            tree_finished: 0,
            launched,
            dispatched: 0,
            kdu_entry,
            group_sm,
        });
        self.undispatched.push(PendingKernel { kernel: id, blocks, next_block: 0 }, needs);
        let (stream, parent, parent_block, parent_sm) = match origin {
            Origin::Host { stream, .. } => (stream, None, None, None),
            Origin::Device { run, block, sm } => (0, Some(run), Some(block), Some(sm)),
        };
        self.kernels.push(KernelReport {
            name: kernel.name.clone(),
            blocks,
            start_cycle: now,
            stream,
            parent,
            depth,
            parent_block,
            parent_sm,
            ..KernelReport::default()
        });
        if !self.workload.parts.is_empty() {
            let part = parts::part_of_run(&self.workload.parts, &self.kernels[id as usize], &self.run_parts);
            self.run_parts.push(part);
        }
        let sm_count = self.config.core.sm_count;
        self.tb_policy.on_kernel_launch(
            &TbCx { now, sm_count },
            &KernelLaunch {
                kernel: id,
                code,
                blocks,
                grid,
                block,
                sm_count,
                origin,
                depth,
                needs,
                sm_capacity: SmFree::whole_sm(&self.config.core),
            },
        );
        for sm in &mut self.sms {
            sm.tell(now, SmEvent::KernelStart { kernel: id });
        }
        self.dispatch_pending = true;
        id
    }

    /// What one block of kernel `code` takes, with `dynamic_shared` bytes of the launch's own.
    fn block_needs(&self, code: u32, block: Dim3, dynamic_shared: u32) -> BlockNeeds {
        let kernel = &self.workload.kernels[code as usize];
        BlockNeeds::of(&self.config.core, block, kernel.regs_per_thread, kernel.block_shared_bytes(dynamic_shared))
    }

    /// Checks the grids device threads launched this cycle and queues them; the parent's run
    /// now waits for each. Returns the fault of the first one that cannot run.
    fn queue_device_launches(&mut self, now: u64) -> Option<StepOutcome> {
        let mut launched = core::mem::take(&mut self.launched);
        let mut outcome = None;
        for launch in launched.drain(..) {
            if outcome.is_some() {
                continue;
            }
            let problem = self.launch_problem(&launch);
            if let Some(problem) = problem {
                let kind = FaultKind::BadLaunch { kernel: launch.code, problem };
                let fault = Fault { pc: launch.pc, lane: launch.lane, kind };
                let kernel = self.kernels[launch.parent as usize].name.clone();
                let source = self
                    .workload
                    .kernels
                    .get(self.runs[launch.parent as usize].code as usize)
                    .and_then(|k| k.source_of(fault.pc));
                outcome = Some(StepOutcome::Fault {
                    kernel,
                    sm: launch.sm,
                    fault,
                    array: None,
                    thread: None,
                    source,
                    near: None,
                });
                continue;
            }
            let parent = &mut self.runs[launch.parent as usize];
            parent.children_left += 1;
            let (root, depth, stall) = (parent.root as usize, parent.depth + 1, launch.stall);
            // Counted now, not when the latency is over, so progress does not read 100 % while
            // a launched grid waits to start.
            self.runs[root].tree_blocks += launch.grid.count();
            self.launch_paths.device(now, launch, depth, stall);
        }
        self.launched = launched;
        outcome
    }

    fn launch_problem(&self, launch: &DeviceLaunch) -> Option<LaunchProblem> {
        let (grid, block) = (launch.grid, launch.block);
        if let Some(problem) = LaunchProblem::of_dimensions(grid, block) {
            return Some(problem);
        }
        let core = &self.config.core;
        let needs = self.block_needs(launch.code, block, 0);
        if block.count() > core.max_threads_per_sm as u64 || !SmFree::whole_sm(core).fits(&needs) {
            return Some(LaunchProblem::BlockTooLarge);
        }
        if self.runs.len() + self.launch_paths.in_flight() >= MAX_DEVICE_GRIDS {
            return Some(LaunchProblem::TooManyGrids);
        }
        None
    }

    /// Run `run` may have become complete: if so, tell whoever waits for it, up the tree.
    fn settle(&mut self, mut run: u32) {
        loop {
            if !self.runs[run as usize].complete() {
                return;
            }
            match self.runs[run as usize].origin {
                Origin::Device { run: parent, .. } => {
                    self.runs[parent as usize].children_left -= 1;
                    run = parent;
                }
                Origin::Host { launch, .. } => {
                    self.host.complete(launch);
                    self.host_changed = true;
                    return;
                }
            }
        }
    }

    fn push_event(&mut self, at: u64, event: MemEvent) {
        self.events.push(at, event);
    }

    fn memory_events(&mut self, now: u64) {
        while let Some((at, event)) = self.events.pop_due(now) {
            self.l2_out.clear();
            let mut out = core::mem::take(&mut self.l2_out);
            match event {
                MemEvent::ArriveL2 { bank, sm, line, sectors, kind, token, kernel, updates, message } => {
                    let request = L2Request { sm, line, sectors, kind: kind_of(kind), token, kernel, updates, message };
                    if self.home.is_some() {
                        self.arrive_home(at, bank, request, &mut out);
                    } else {
                        self.banks[bank as usize].arrive(at, request, &mut self.dram, &mut out, &mut self.kernels);
                    }
                    self.send_replies(bank, &out);
                }
                MemEvent::AnswerForwarded { owner, to, line, sectors, atomic, token, kernel, revoke } => {
                    if revoke {
                        self.sms[owner as usize].l1_mut().revoke(line, sectors);
                    }
                    let bytes = sectors.count_ones() * self.config.l1.sector_bytes;
                    let class = if atomic { TrafficClass::Ownership } else { TrafficClass::Read };
                    let delivered = self.send(at, Endpoint::Sm(owner), Endpoint::Sm(to), bytes, class, kernel);
                    self.push_event(delivered, MemEvent::ArriveSm { sm: to, line, sectors, atomic, token });
                }
                MemEvent::Revoke { sm, line, sectors } => self.sms[sm as usize].l1_mut().revoke(line, sectors),
                MemEvent::DramDone { bank, line, sectors } => {
                    self.banks[bank as usize].dram_done(at, line, sectors, &mut self.dram, &mut out, &mut self.kernels);
                    self.send_replies(bank, &out);
                }
                MemEvent::ArriveSm { sm, line, sectors, atomic, token } => {
                    let i = sm as usize;
                    self.l1_totals.touch(i);
                    self.sms[i].settle_lsu(at, &mut self.kernels);
                    if atomic {
                        self.sms[i].atomic_reply(at, token);
                    } else {
                        self.sms[i].fill(at, line, sectors, token, &mut self.woken, &mut self.kernels);
                    }
                    // Most replies in a memory-bound run leave the SM with nothing to do at
                    // once (a load still waits for other lines, the LSU for a way in a full set).
                    let next = self.sms[i].next_cycle_after_reply(at);
                    self.sm_wake.lower(i, next);
                }
            }
            self.l2_out = out;
        }
    }

    /// Makes sure SM `sm` runs at cycle `at` (it has news), counting its dormant cycles first.
    fn wake(&mut self, sm: usize, at: u64) {
        self.l1_totals.touch(sm);
        let Simulation { sms, series, kernels, .. } = self;
        sms[sm].catch_up(at, kernels, &mut dormant(series));
        self.sm_wake.lower(sm, at);
    }

    /// Sends a message of `data_bytes` of traffic `class` at `at`, charged to kernel run
    /// `kernel`; returns the cycle it is delivered.
    fn send(
        &mut self,
        at: u64,
        from: Endpoint,
        to: Endpoint,
        data_bytes: u32,
        class: TrafficClass,
        kernel: u32,
    ) -> u64 {
        let flits = self.network.flits(data_bytes);
        let run = self.kernels.get_mut(kernel as usize).map(|k| &mut k.network);
        self.network.send(at, from, to, flits, class, run)
    }

    /// DeNovo: `request` reached its home `bank` at `at`; what the owner registry says is
    /// done, the bank's own part through `out`.
    fn arrive_home(&mut self, at: u64, bank: u32, request: L2Request, out: &mut Vec<L2Output>) {
        let Some(home) = &mut self.home else { return };
        let mut actions = core::mem::take(&mut self.home_actions);
        actions.clear();
        home.arrive(&request, request.message, |a| actions.push(a));
        let (to, kernel) = (request.sm, request.kernel);
        let bank_at = Endpoint::Bank(bank);
        for &action in &actions {
            match action {
                HomeAction::Serve { sectors } => {
                    let served = L2Request { sectors, ..request };
                    self.banks[bank as usize].arrive(at, served, &mut self.dram, out, &mut self.kernels);
                }
                HomeAction::Forward { owner, sectors, revoke } => {
                    let ready = self.banks[bank as usize].lookup(at, &request, Lookup::Forward, &mut self.kernels);
                    let delivered = self.send(ready, bank_at, Endpoint::Sm(owner), 0, TrafficClass::Ownership, kernel);
                    let answer = delivered + self.config.denovo.remote_l1_latency as u64;
                    let atomic = request.kind == RequestKind::Atomic;
                    let token = request.token;
                    let line = request.line;
                    let event = MemEvent::AnswerForwarded { owner, to, line, sectors, atomic, token, kernel, revoke };
                    self.push_event(answer, event);
                }
                HomeAction::Revoke { owner, sectors } => {
                    let delivered = self.send(at, bank_at, Endpoint::Sm(owner), 0, TrafficClass::Ownership, kernel);
                    self.push_event(delivered, MemEvent::Revoke { sm: owner, line: request.line, sectors });
                }
                HomeAction::Acknowledge => {
                    let ready = self.banks[bank as usize].lookup(at, &request, Lookup::Register, &mut self.kernels);
                    // Nothing waits for it; it takes its share of the network.
                    self.send(ready, bank_at, Endpoint::Sm(to), 0, TrafficClass::Ownership, kernel);
                }
            }
        }
        self.home_actions = actions;
    }

    fn send_replies(&mut self, bank: u32, out: &[L2Output]) {
        let sector_bytes = self.config.l1.sector_bytes;
        let denovo = self.home.is_some();
        for &o in out {
            match o {
                L2Output::Reply { at, request } => {
                    let atomic = request.kind == RequestKind::Atomic;
                    // Under DeNovo an atomic takes ownership, so its sectors' data comes back.
                    let data = if atomic && !denovo { 4 } else { request.sectors.count_ones() * sector_bytes };
                    let class = traffic_class(request.kind, request.message);
                    let (from, to) = (Endpoint::Bank(bank), Endpoint::Sm(request.sm));
                    let delivered = self.send(at, from, to, data, class, request.kernel);
                    let event = MemEvent::ArriveSm {
                        sm: request.sm,
                        line: request.line,
                        sectors: request.sectors,
                        atomic,
                        token: request.token,
                    };
                    self.push_event(delivered, event);
                }
                L2Output::DramDone { at, line, sectors } => {
                    self.push_event(at, MemEvent::DramDone { bank, line, sectors })
                }
            }
        }
    }

    /// Where global byte `address` is from the nearest buffer, for a fault message.
    fn nearest_buffer(&self, address: u32) -> Option<String> {
        let (k, region) = self.regions.iter().enumerate().min_by_key(|(_, r)| {
            let end = r.base as u64 + r.bytes as u64;
            if (address as u64) < r.base as u64 {
                r.base as u64 - address as u64
            } else {
                (address as u64).saturating_sub(end)
            }
        })?;
        let name = &self.workload.buffers.get(k)?.name;
        let (base, bytes) = (region.base as u64, region.bytes as u64);
        let address = address as u64;
        Some(if address < base {
            format!("{} bytes before the start of buffer `{name}`", base - address)
        } else if address >= base + bytes {
            format!("{} bytes past the end of buffer `{name}` ({bytes} bytes)", address - (base + bytes))
        } else {
            format!("byte {} of buffer `{name}` ({bytes} bytes)", address - base)
        })
    }

    fn sm_cycles(&mut self, now: u64) -> Option<StepOutcome> {
        // Counted for the whole cycle, then added to the series once.
        let mut cycle = CycleTally::default();
        let shortcuts = self.options.skip_idle;
        // The SMs that run this cycle, 64 at a time as bits (running one changes no other's
        // wake-up cycle).
        for word in 0..self.sm_wake.words() {
            let first = word * 64;
            let mut awake = if shortcuts { self.sm_wake.due(word, now) } else { self.sm_wake.all(word) };
            while awake != 0 {
                let i = first + awake.trailing_zeros() as usize;
                awake &= awake - 1;
                if let Err(crate::sm::SmFault { kernel, fault, thread }) = self.sm_cycle(i, now, &mut cycle) {
                    // The run ends inside this cycle: SMs before this one took part in it,
                    // dormant or not, so their stall counts include it.
                    self.l1_totals.touch_all();
                    let Simulation { sms, series, kernels, .. } = self;
                    for sm in &mut sms[..i] {
                        sm.catch_up(now + 1, kernels, &mut dormant(series));
                    }
                    cycle.add_to(self.now_window.window(series, now));
                    let name = self.kernels.get(kernel as usize).map_or_else(String::new, |k| k.name.clone());
                    let code =
                        self.runs.get(kernel as usize).and_then(|run| self.workload.kernels.get(run.code as usize));
                    let array = match fault.kind {
                        FaultKind::LocalIndex { array, .. } => {
                            code.and_then(|k| k.local_array(array)).map(String::from)
                        }
                        _ => None,
                    };
                    let source = code.and_then(|k| k.source_of(fault.pc));
                    let near = match fault.kind {
                        FaultKind::Memory { space: Space::Global, address, .. } => self.nearest_buffer(address),
                        _ => None,
                    };
                    return Some(StepOutcome::Fault { kernel: name, sm: i as u32, fault, array, thread, source, near });
                }
            }
        }
        cycle.add_to(self.now_window.window(&mut self.series, now));
        if !self.launched.is_empty() {
            return self.queue_device_launches(now);
        }
        None
    }

    /// Cycle `now` of SM `i`: its memory pipeline, a miss-queue injection, its issue stage.
    fn sm_cycle(&mut self, i: usize, now: u64, cycle: &mut CycleTally) -> Result<(), crate::sm::SmFault> {
        self.l1_totals.touch(i);
        {
            let Simulation { sms, series, kernels, .. } = self;
            sms[i].catch_up(now, kernels, &mut dormant(series));
        }
        self.sms[i].lsu_cycle(now, &mut self.kernels);
        // Inject the head of the miss queue when the SM's network port is free.
        if self.network.inject_free_at(Endpoint::Sm(i as u32)) <= now {
            if let Some(miss) = self.sms[i].pop_miss(now, &mut self.kernels) {
                self.inject(i, now, miss);
            }
        }
        let issue_width = self.config.core.issue_width;
        let Simulation { sms, workload, operands, memory, finished, blocks, kernels, launched, .. } = self;
        let mut io = IssueCx {
            kernels: &workload.kernels,
            operands,
            global: memory,
            issue_width,
            finished,
            records: blocks,
            launches: launched,
            runs: kernels,
            tally: cycle,
        };
        let mut wake = sms[i].issue_cycle(now, &mut io)?;
        if sms[i].has_misses() {
            wake = wake.min(self.network.inject_free_at(Endpoint::Sm(i as u32)).max(now + 1));
        }
        self.sm_wake.set(i, wake);
        Ok(())
    }

    /// Sends SM `i`'s miss request into the network at `now`, towards its L2 bank.
    fn inject(&mut self, i: usize, now: u64, miss: crate::mem::l1::MissRequest) {
        // Echoed back in the reply: an atomic's load, or the MSHR a load's data completes.
        let token = match miss.kind {
            RequestKind::Atomic => self.sms[i].take_atomic_token().unwrap_or(u32::MAX),
            RequestKind::Load => miss.mshr,
            RequestKind::Store => 0,
        };
        // A store's registration carries no data: the L1 keeps it.
        let carries_data = miss.kind == RequestKind::Store && miss.message != Message::Register;
        let data = if carries_data { miss.sectors.count_ones() * self.config.l1.sector_bytes } else { 0 };
        let bank = (miss.line % self.config.l2.banks as u64) as u32;
        let class = traffic_class(miss.kind, miss.message);
        let delivered = self.send(now, Endpoint::Sm(i as u32), Endpoint::Bank(bank), data, class, miss.kernel);
        let event = MemEvent::ArriveL2 {
            bank,
            sm: i as u32,
            line: miss.line,
            sectors: miss.sectors,
            kind: kind_code(miss.kind),
            token,
            kernel: miss.kernel,
            updates: miss.updates,
            message: miss.message,
        };
        self.push_event(delivered, event);
    }

    fn retire_blocks(&mut self, now: u64) {
        let mut finished = core::mem::take(&mut self.finished);
        self.dispatch_pending |= !finished.is_empty();
        let cx = TbCx { now, sm_count: self.config.core.sm_count };
        for f in finished.drain(..) {
            let run = &mut self.runs[f.kernel as usize];
            run.finished_blocks += 1;
            self.launch_paths.completed(run);
            let (complete, root) = (run.finished_blocks == run.blocks, run.root);
            self.runs[root as usize].tree_finished += 1;
            if complete {
                self.kernels[f.kernel as usize].end_cycle = now;
            }
            self.tb_policy.on_tb_finish(&cx, f.sm, f.kernel, f.block);
            if complete {
                self.tb_policy.on_kernel_complete(&cx, f.kernel);
                for sm in &mut self.sms {
                    sm.tell(now, SmEvent::KernelEnd { kernel: f.kernel });
                }
            }
            self.settle(f.kernel);
        }
        self.finished = finished;
    }

    fn dispatch(&mut self, now: u64) {
        if !(self.dispatch_pending || now >= self.tb_wake) || self.undispatched.is_empty() {
            return;
        }
        for (free, sm) in self.free.iter_mut().zip(&self.sms) {
            *free = sm.free();
        }
        let (per_sm, total) = match self.config.core.tb_dispatch {
            TbDispatchRate::OnePerSmPerCycle => (1, u32::MAX),
            TbDispatchRate::OnePerCycle => (1, 1),
        };
        self.budget.fill(per_sm);
        self.placements.clear();
        let lists = self.undispatched.lists();
        let mut d = Dispatch {
            now,
            wake: u64::MAX,
            free: &mut self.free,
            pending: lists.pending,
            needs: lists.needs,
            placed: lists.placed,
            out: &mut self.placements,
            budget_per_sm: &mut self.budget,
            budget_total: total,
            fully_placed: 0,
        };
        self.tb_policy.dispatch(&mut d);
        self.tb_wake = d.wake;
        let fully_placed = d.fully_placed;
        self.dispatch_pending = !self.placements.is_empty();
        for p in &self.placements {
            self.launch_paths.placed(now, &mut self.runs[p.kernel as usize], p.sm);
            let run = &self.runs[p.kernel as usize];
            let stream = match self.runs[run.root as usize].origin {
                Origin::Host { stream, .. } => stream,
                Origin::Device { .. } => 0,
            };
            let shape =
                LaunchShape { kernel: p.kernel, stream, code_index: run.code, grid: run.grid, block: run.block };
            let kernel = &self.workload.kernels[run.code as usize];
            self.sms[p.sm as usize].admit(now, shape, kernel, p.block, run.needs, &run.args);
        }
        self.undispatched.drop_placed(fully_placed);
        for i in 0..self.placements.len() {
            let sm = self.placements[i].sm as usize;
            self.wake(sm, now + 1);
        }
    }

    /// At the start of a cycle in a new window (or when `force`d), moves the L1/L2 hit and
    /// miss counts accumulated since the last sample into the window of that sample. Every
    /// access happened at or after the sample, in the same window, so attribution is exact
    /// whether or not idle cycles were skipped.
    fn sample_series(&mut self, now: u64, force: bool) {
        let (mark, l1_before, l2_before) = self.series_mark;
        if !force && (self.mark_window.holds(&self.series, now) || now / self.series.every == mark / self.series.every)
        {
            return;
        }
        let sms = &self.sms;
        let (hits, misses) = self.l1_totals.sum(|i| sms[i].l1().stats());
        let l1 = L1Stats { hits, misses, ..L1Stats::default() };
        debug_assert_eq!((l1.hits, l1.misses), {
            let mut all = L1Stats::default();
            sms.iter().for_each(|sm| all.merge(&sm.l1().stats()));
            (all.hits, all.misses + all.sector_misses)
        });
        let mut l2 = L2Stats::default();
        for b in &self.banks {
            l2.merge(&b.stats());
        }
        self.mark_window.point(&self.series, now);
        let window = self.series.at(mark);
        window.l1_hits += l1.hits - l1_before.hits;
        window.l1_misses += l1.misses - l1_before.misses;
        window.l2_hits += l2.hits - l2_before.hits;
        window.l2_misses += l2.misses - l2_before.misses;
        if !self.run_parts.is_empty() {
            let totals = parts::part_instructions(&self.run_parts, &self.kernels);
            for ((w, now), before) in window.parts.iter_mut().zip(&totals).zip(&self.parts_mark) {
                w.warp_instructions += now - before;
            }
            self.parts_mark = totals;
            // Stalls are charged when a blocked request is taken, perhaps windows later: each
            // goes to the windows of the cycles it covers.
            let (series, run_parts) = (&mut self.series, &self.run_parts);
            for sm in &mut self.sms {
                sm.take_stall_spans(|s| {
                    if let Some(&part) = run_parts.get(s.kernel as usize) {
                        series.add_part_stall_span(part as usize, s.start, s.cycles);
                    }
                });
            }
        }
        self.series_mark = (now, l1, l2);
    }

    fn next_cycle(&self, now: u64) -> u64 {
        let mut next = u64::MAX;
        // A launch to start, or a dispatch that placed blocks and may place more next cycle.
        // Otherwise a slot only frees when a warp issues, which the SMs' wake-ups cover.
        if self.host_changed || self.dispatch_pending {
            return now + 1;
        }
        if let Some(at) = self.launch_paths.next_due(now) {
            next = next.min(at);
        }
        if !self.undispatched.is_empty() {
            next = next.min(self.tb_wake.max(now + 1));
        }
        next = next.min(self.sm_wake.next_after(now));
        if next == now + 1 {
            return next;
        }
        if let Some(at) = self.events.next_due() {
            next = next.min(at.max(now + 1));
        }
        // A jump stops at the cycle limit and at the end of a measurement window, so that a run
        // cut short reports the same cycles whichever cycles were skipped (`u64::MAX`, nothing
        // left to happen, stays a deadlock).
        let end = match self.config.window.cycles {
            0 => self.options.max_cycles,
            window => self.options.max_cycles.min(u64::from(window)),
        };
        match next {
            u64::MAX => next,
            _ => next.min(end.max(now + 1)),
        }
    }

    fn describe_stuck(&self) -> String {
        let mut names: Vec<&str> = Vec::new();
        for (run, report) in self.runs.iter().zip(&self.kernels) {
            if run.finished_blocks < run.blocks && !names.contains(&report.name.as_str()) {
                names.push(&report.name);
            }
        }
        let what = if names.is_empty() { String::from("the launch sequence") } else { names.join(", ") };
        format!(
            "{what} cannot make progress at cycle {}: no warp can issue and no memory request is in flight \
             (typically warps of one block waiting at different barriers)",
            self.now
        )
    }

    /// The machine at the start of cycle [`Simulation::cycle`] (everything before it
    /// simulated), with the L1 of SM `l1_sm` (clamped to the last SM), for a warp policy
    /// that keeps scores (CCWS) that SM's scores and load gate, and for a chunked TB policy
    /// (IKRA's) every SM's chunk and steal queue. Resets that L1's per-line
    /// counts, so each snapshot of an SM counts the hits and allocations since the previous
    /// one; nothing else changes, and no result depends on when snapshots are taken.
    pub fn snapshot(&mut self, l1_sm: usize) -> Snapshot {
        let mut snapshot = Snapshot {
            cycle: self.now,
            warps_per_sm: self.config.core.max_warps_per_sm,
            blocks_finished: self.blocks.finished(),
            ..Snapshot::default()
        };
        self.snapshot_warps(&mut snapshot);
        self.snapshot_totals(&mut snapshot);
        snapshot.chunks = self.tb_policy.chunk_view();
        snapshot.priority_queues = self.tb_policy.queue_view();
        let l1_sm = l1_sm.min(self.sms.len().saturating_sub(1));
        if let Some(sm) = self.sms.get_mut(l1_sm) {
            snapshot.l1_sm = l1_sm as u32;
            let l1 = sm.l1_mut();
            (snapshot.l1_sets, snapshot.l1_ways) = (l1.sets(), l1.ways());
            snapshot.l1_owner =
                (0..l1.sets()).flat_map(|set| l1.owners_of_set(set)).map(|o| o.unwrap_or(NONE)).collect();
            (snapshot.l1_hits_since, snapshot.l1_fills_since) = l1.take_line_activity();
            snapshot.smc_owner = l1.smc_owners().map(|o| o.unwrap_or(NONE)).collect();
            snapshot.warp_scores = sm.policy().scores(self.now);
            snapshot.interference = sm.policy().interference();
        }
        snapshot
    }

    fn snapshot_warps(&self, snapshot: &mut Snapshot) {
        let slots = self.sms.len() * snapshot.warps_per_sm as usize;
        snapshot.warp_state.reserve(slots);
        snapshot.warp_run.reserve(slots);
        snapshot.warp_block.reserve(slots);
        for sm in &self.sms {
            for view in sm.warp_views(self.now, &self.workload.kernels) {
                let (run, block) = view.block.unwrap_or((NONE, NONE));
                snapshot.warp_state.push(view.state as u8);
                snapshot.warp_run.push(run);
                snapshot.warp_block.push(block);
            }
        }
    }

    /// Totals so far; L1 misses count sector misses too, as the time series does.
    fn snapshot_totals(&self, snapshot: &mut Snapshot) {
        for sm in &self.sms {
            let l1 = sm.l1().stats();
            snapshot.warp_instructions += sm.warp_instructions();
            snapshot.l1_hits += l1.hits;
            snapshot.l1_misses += l1.misses + l1.sector_misses;
        }
        for bank in &self.banks {
            let l2 = bank.stats();
            snapshot.l2_hits += l2.hits;
            snapshot.l2_misses += l2.misses;
        }
    }

    /// Everything measured so far. With `l1.replacement = Belady` this also replays every SM's
    /// recorded L1 stream twice ([`crate::mem::replay`]: time O(accesses × ways)), so such a
    /// run is best reported once, at its end.
    pub fn report(&self) -> Report {
        let sms: Vec<_> = self.sms.iter().map(|sm| sm.report()).collect();
        let mut l1 = L1Stats::default();
        let mut stalls = StallBreakdown::default();
        let (mut warp_instructions, mut gated_loads, mut victim_tag_hits) = (0, 0, 0);
        for s in &sms {
            l1.merge(&s.l1);
            stalls.merge(&s.stalls);
            warp_instructions += s.warp_instructions;
            gated_loads += s.gated_loads;
            victim_tag_hits += s.victim_tag_hits;
        }
        let mut l2 = L2Stats::default();
        for b in &self.banks {
            l2.merge(&b.stats());
        }
        let cycles = self.now;
        let mut kernels: Vec<KernelReport> = self
            .kernels
            .iter()
            // Every failed attempt of a run's request is an LSU stall cycle.
            .map(|k| KernelReport { lsu_stall_cycles: k.l1.failures(), ..k.clone() })
            .collect();
        let l1_replay = (self.config.l1.replacement == Replacement::Belady).then(|| self.replay_l1(&mut kernels));
        let shared_accesses = kernels.iter().map(|k| k.shared_accesses).sum();
        let parts = crate::stats::parts::part_reports(&self.workload.parts, &kernels);
        let memory_blocking = self.memory_blocking(&kernels);
        let energy_model = EnergyModel::for_config(&self.config);
        let warnings = self.warnings(&sms);
        let mut report = Report {
            gpu: self.config.name.clone(),
            cycles,
            warp_instructions,
            ipc: if cycles == 0 { 0.0 } else { warp_instructions as f64 / cycles as f64 },
            kernels,
            run_groups: Vec::new(),
            parts,
            run_parts: self.run_parts.clone(),
            memory_blocking,
            warnings,
            sms,
            blocks: self.blocks.records().to_vec(),
            block_record_stride: self.blocks.stride(),
            blocks_finished: self.blocks.finished(),
            l1,
            l2,
            dram: self.dram.stats(),
            network: self.network.stats(),
            stalls,
            series: {
                let mut series = self.series.clone();
                series.settle();
                series
            },
            gated_loads,
            victim_tag_hits,
            l1_replay,
            steal: self.tb_policy.steal_stats(),
            sharing: self.tb_policy.sharing(),
            launches: self.launch_paths.stats(),
            shared_accesses,
            energy: Energy::default(),
            energy_model,
        };
        report.energy = energy_model.of_report(&report);
        report
    }

    /// What looks wrong in how the kernels ran, for a person: each barrier that only part
    /// of a block reached (the first per kernel, with its source line).
    fn warnings(&self, sms: &[crate::stats::SmReport]) -> Vec<String> {
        let mut seen: Vec<u32> = Vec::new();
        let mut out = Vec::new();
        for p in sms.iter().filter_map(|s| s.partial_barrier) {
            let Some(run) = self.runs.get(p.kernel as usize) else { continue };
            let code = self.workload.kernels.get(run.code as usize);
            if seen.contains(&run.code) {
                continue;
            }
            seen.push(run.code);
            let name = code.map_or("?", |k| k.name.as_str());
            let at = match code.and_then(|k| k.source_of(p.pc)) {
                Some(at) => format!(" at line {}, column {}", at.line, at.column),
                None => String::new(),
            };
            let how = if p.diverged {
                "a warp reached it with some of its threads on another path"
            } else {
                "a warp of the block exited without reaching it"
            };
            out.push(format!(
                "kernel {name}: the __syncthreads(){at} was reached by only part of block {}: {how}. CUDA requires \
                 every thread of a block to reach each barrier; the engine lets exited warps count as arrived and a \
                 divergent warp arrive with the threads it has, as GPUs since Volta do",
                p.block
            ));
        }
        out
    }

    /// Who held up whose memory instructions among the co-running kernels, all SMs together;
    /// `None` with fewer than two.
    fn memory_blocking(&self, kernels: &[KernelReport]) -> Option<MemoryBlocking> {
        let n = self.sms.first()?.blocked_by()?.kernels();
        let streams = self.workload.host_streams();
        let kernels = streams[..n]
            .iter()
            .map(|&stream| BlockingKernel {
                stream,
                name: kernels
                    .iter()
                    .find(|k| k.parent.is_none() && k.stream == stream)
                    .map_or_else(String::new, |k| k.name.clone()),
                program: Part::of_stream(&self.workload.parts, stream).map(|p| self.workload.parts[p].name.clone()),
            })
            .collect();
        let waited = (0..n)
            .map(|victim| {
                (0..n)
                    .map(|holder| self.sms.iter().filter_map(Sm::blocked_by).map(|b| b.waited(victim, holder)).sum())
                    .collect()
            })
            .collect();
        Some(MemoryBlocking { kernels, waited })
    }

    /// Replays every SM's recorded L1 stream with Belady's and with LRU replacement; sets each
    /// run's counts in `kernels` and returns the totals.
    fn replay_l1(&self, kernels: &mut [KernelReport]) -> L1Replay {
        let cache = ReplayCache::of(&self.config.l1);
        let (mut belady_runs, mut lru_runs) = (Vec::new(), Vec::new());
        let (mut belady, mut lru) = (ReplayCounts::default(), ReplayCounts::default());
        for sm in &self.sms {
            belady.merge(&replay(sm.l1_log(), &cache, ReplayPolicy::Belady, &mut belady_runs));
            lru.merge(&replay(sm.l1_log(), &cache, ReplayPolicy::Lru, &mut lru_runs));
        }
        let both = |b: ReplayCounts, l: ReplayCounts| L1Replay {
            accesses: b.accesses,
            loads: b.loads,
            belady_hits: b.hits,
            belady_misses: b.misses,
            lru_hits: l.hits,
            lru_misses: l.misses,
        };
        for (k, report) in kernels.iter_mut().enumerate() {
            let of = |runs: &[ReplayCounts]| runs.get(k).copied().unwrap_or_default();
            report.l1_replay = Some(both(of(&belady_runs), of(&lru_runs)));
        }
        both(belady, lru)
    }
}

/// The lines a kernel boundary of one program among several leaves in the L1s: those outside
/// its own buffers.
struct CoRunnerLines {
    /// The launching program's buffers as line ranges `[first, end)`.
    own: Vec<(u64, u64)>,
}

impl CoRunnerLines {
    fn contains(&self, line: u64) -> bool {
        !self.own.iter().any(|&(first, end)| (first..end).contains(&line))
    }
}
