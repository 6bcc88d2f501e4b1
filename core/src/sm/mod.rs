//! One streaming multiprocessor: warp slots, thread-block admission, a scoreboard, the issue
//! stage driven by the warp-scheduling policy, barriers, and the memory pipeline (LSU) in
//! front of the L1.
//!
//! Each cycle the engine calls [`Sm::lsu_cycle`] (back of the pipeline first, so it consumes
//! what issue produced the cycle before) and then [`Sm::issue_cycle`]. Results of fixed-latency
//! units are modelled by the cycle each destination register becomes readable; loads mark their
//! destination unreadable until every line request of the instruction is answered.

mod active_warps;
pub mod blocked_by;
pub mod lsu;
mod memory_arbiter;
mod ready;
pub mod scoreboard;
mod snapshot;
pub mod wakeups;

pub use snapshot::WarpView;

use alloc::vec;
use alloc::vec::Vec;

use crate::config::{CoreConfig, DeviceLaunchConfig, GpuConfig, Replacement};
use crate::events::{SmEvent, Stamped};
use crate::exec::memory::{GlobalMemory, SharedMemory};
use crate::exec::{self, AccessKind, ExecEnv, Executed, Fault, WarpExec, WarpPlace, LANES};
use crate::isa::{Dim3, InstrClass, Kernel, Space, Unit};
use crate::launch::DeviceLaunch;
use crate::mem::coalescer::{bank_conflict_degree, coalesce, most_updates_of_one_address};
use crate::mem::l1::{L1Cache, RequestKind, SmcSettings};
use crate::mem::replay::L1Access;
use crate::sched::tb::{occupancy, BlockNeeds, SmFree};
use crate::sched::warp::{
    Issued, MemoryContender, ReadyWarps, SmShape, WarpCx, WarpInfo, WarpPolicy, WarpScheduler, WarpSet, WarpSlot, Words,
};
use crate::stats::{BlockLog, BlockRecord, KernelReport, PartialBarrier, SmReport, StallCounts, StallReason};
use active_warps::ActiveWarps;
use blocked_by::BlockedBy;
pub use lsu::StallSpan;
use lsu::{Lsu, PendingLoads, Tally};
use ready::{Next, Readiness, NOT_READY};
use scoreboard::Operands;

/// One warp slot.
#[derive(Clone, Debug, Default)]
struct Warp {
    exec: WarpExec,
    /// Register file rows of this warp: `regs[r * 32 + lane]`.
    regs: Vec<u32>,
    /// Cycle from which each register may be read.
    ready_at: Vec<u64>,
    place: Option<WarpPlace>,
    block_slot: u16,
    /// Its block's kernel code (a copy of [`Block::code_index`], so that the issue stage's
    /// look at the warp's next instruction does not go through the block).
    code_index: u32,
    /// The (kernel run, block index) of the block it was admitted for, kept after it exits so
    /// that a snapshot can tell a finished warp of a live block from a stale slot.
    admitted_for: Option<(u32, u32)>,
    /// The cycle it last issued (`u64::MAX`: not since it was admitted).
    last_issue: u64,
    /// Its next instruction, a global load, was held back by the policy's gate (and counted).
    gated: bool,
    /// The cycle a device-runtime call it made returns (0: none); nothing issues before it.
    busy_until: u64,
}

impl Warp {
    /// Register `dst`, and the one after it for a `pair` (a 64-bit result), become readable
    /// at cycle `at` ([`NOT_READY`]: when a load's data arrives).
    fn hold(&mut self, dst: u8, pair: bool, at: u64) {
        self.ready_at[dst as usize] = at;
        if pair {
            self.ready_at[dst as usize + 1] = at;
        }
    }
}

/// One thread-block slot.
#[derive(Clone, Debug)]
struct Block {
    live: bool,
    kernel: u32,
    block: u32,
    code_index: u32,
    warps_live: u32,
    warps_at_barrier: u32,
    /// The barrier the block's waiting warps are at.
    barrier_pc: u32,
    shared: SharedMemory,
    needs: BlockNeeds,
    start: u64,
}

/// Timing state of one warp scheduler.
#[derive(Clone, Debug)]
struct Scheduler {
    /// Cycle each unit accepts its next instruction: ALU, SFU, control.
    unit_free: [u64; 4],
    /// Its live warps, oldest first (warps are admitted in age order), and which can issue.
    ready: Readiness,
    /// None of its warps can issue before this cycle unless one of them gets a register
    /// released, a block arrives, a barrier opens or the LSU empties (each resets it).
    sleep_until: u64,
}

/// A thread block finished; the engine records it and tells the TB scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The SM it ran on.
    pub sm: u32,
    /// Kernel run id.
    pub kernel: u32,
    /// Block index.
    pub block: u32,
}

/// What the issue stage reads and produces outside the SM.
pub struct IssueCx<'a> {
    /// The workload's kernels.
    pub kernels: &'a [Kernel],
    /// Their instructions decoded for the scoreboard ([`scoreboard::decode`]), by kernel.
    pub operands: &'a [Vec<Operands>],
    /// Device memory.
    pub global: &'a mut GlobalMemory,
    /// Instructions each scheduler may issue per cycle.
    pub issue_width: u32,
    /// Blocks that finished.
    pub finished: &'a mut Vec<Finished>,
    /// Their records.
    pub records: &'a mut BlockLog,
    /// Grids launched by device threads.
    pub launches: &'a mut Vec<DeviceLaunch>,
    /// The kernel runs' reports, by run: each counts the warp instructions of its run.
    pub runs: &'a mut [KernelReport],
    /// What every SM did in the cycle so far.
    pub tally: &'a mut CycleTally,
}

/// A warp the policy picked, as the issue stage found it.
#[derive(Clone, Copy)]
struct Picked {
    slot: WarpSlot,
    /// Its position in its scheduler's list (fixed while the scheduler picks).
    position: usize,
    /// The address of its next instruction.
    pc: u32,
    /// That instruction decoded (`None` past the end of the code, which faults).
    next: Option<Operands>,
}

/// What the SMs did in one cycle, added to the engine's time series once at its end.
#[derive(Default)]
pub struct CycleTally {
    /// Warp instructions issued.
    pub instructions: u64,
    /// Each scheduler's reason.
    pub stalls: StallCounts,
    /// SMs on which each co-running kernel (the first [`crate::stats::parts::SERIES_PARTS`])
    /// had a ready memory instruction waiting at the busy LSU.
    pub held_back: [u64; crate::stats::parts::SERIES_PARTS],
}

/// Where an SM's dormant stretch is counted: `(reasons, held_back, first_cycle, cycles)`, see
/// [`Sm::catch_up`].
pub type DormantCharge<'a> = dyn FnMut(&[StallReason], u8, u64, u64) + 'a;

/// Which of the co-running kernels `streams` (in order of first launch) runs in `stream`.
fn kernel_group(streams: &[u32], stream: u32) -> Option<usize> {
    streams.iter().position(|&s| s == stream)
}

/// A warp of kernel run `kernel` faulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmFault {
    /// The kernel run.
    pub kernel: u32,
    /// The fault.
    pub fault: Fault,
    /// The faulting lane's block index and thread index in it.
    pub thread: Option<crate::exec::FaultThread>,
}

/// A kernel launch as an SM needs to know it.
#[derive(Clone, Copy, Debug)]
pub struct LaunchShape {
    /// Kernel run id.
    pub kernel: u32,
    /// The host stream of the launch at the root of the run.
    pub stream: u32,
    /// Index of the kernel's code in the workload.
    pub code_index: u32,
    /// Grid dimensions.
    pub grid: Dim3,
    /// Block dimensions.
    pub block: Dim3,
}

/// One SM.
pub struct Sm {
    id: u32,
    warp_size: u32,
    /// Bytes of the local window each warp slot's frame takes: the most any kernel of the
    /// workload spills ([`crate::workload::local_frame_bytes`]).
    local_frame_bytes: u32,
    /// What a device-side launch costs the launching warp.
    launch_cost: DeviceLaunchConfig,
    /// The warp-scheduling policy, one object for all the schedulers.
    policy: WarpPolicy,
    /// The SM's event stream, when the run records it.
    recorder: Option<Vec<Stamped>>,
    /// Whether anyone hears its events: a policy that acts on them, or the recorder.
    listening: bool,
    /// The L1's accesses, when the L1 is to be replayed (`l1.replacement = Belady`).
    l1_log: Option<Vec<L1Access>>,
    /// The LSU's stalls by kernel run since the engine last took them, when programs run side
    /// by side (see [`Sm::take_stall_spans`]).
    stall_spans: Option<Vec<StallSpan>>,
    /// Who held up whose memory instructions, with two or more co-running kernels.
    blocked_by: Option<BlockedBy>,
    schedulers: Vec<Scheduler>,
    warps: Vec<Warp>,
    /// Policy-visible state of each warp slot, kept in step with `warps`.
    info: Vec<WarpInfo>,
    blocks: Vec<Block>,
    free: SmFree,
    next_age: u64,
    latency: [u64; 4],
    interval: [u64; 4],
    shared_latency: u64,
    shared_banks: u32,
    line_bytes: u32,
    sector_bytes: u32,
    lsu: Lsu,
    loads: PendingLoads,
    l1: L1Cache,
    /// Scratch: per-lane addresses of a memory instruction.
    addresses: [u32; LANES],
    report: SmReport,
    /// Scheduler cycles by reason (the report's `stalls`).
    stalls: StallCounts,
    /// What each scheduler did in the last cycle it ran.
    last_reasons: Vec<StallReason>,
    /// Whether schedulers may sleep and the SM may be skipped while dormant.
    shortcuts: bool,
    /// Stall cycles are counted for every cycle before this one.
    accounted_to: u64,
    /// With a policy that redirects loads, how its shared-memory cache is sized.
    smc: Option<SmcSizing>,
    /// Warps in the SM's slots, arrived and not yet exited.
    live_warps: u32,
    /// Of those, the ones its policy lets issue, over time.
    active: ActiveWarps,
    /// Whether the policy chooses each cycle which kernel's memory instruction takes the LSU.
    arbitrates: bool,
    /// Scratch: the warps that could issue a global memory instruction this cycle.
    contenders: Vec<MemoryContender>,
    /// The workload's host streams in order of first launch: the co-running kernels, numbered
    /// by position for per-kernel MSHR shares.
    streams: Vec<u32>,
}

/// What sizing the shared-memory cache takes: the policy's settings, the SM's resources, and
/// the kernel run it was last sized for.
struct SmcSizing {
    settings: SmcSettings,
    core: CoreConfig,
    kernel: Option<u32>,
}

/// Who hears an SM's events at cycle `now`: its policy, and its recorder if the run records.
pub struct Listeners<'a> {
    id: u32,
    now: u64,
    info: &'a [WarpInfo],
    policy: &'a mut WarpPolicy,
    recorder: &'a mut Option<Vec<Stamped>>,
    /// Whether the policy or the recorder hears anything ([`WarpScheduler::hears_events`]).
    listening: bool,
}

impl Listeners<'_> {
    /// `event` happened.
    #[inline(always)]
    pub fn hear(&mut self, event: SmEvent) {
        if !self.listening {
            return;
        }
        self.policy.on_event(&WarpCx { now: self.now, sm: self.id, scheduler: 0, warps: self.info }, &event);
        if let Some(recorder) = self.recorder {
            recorder.push(Stamped { cycle: self.now, event });
        }
    }
}

/// Marks register `reg` of warp `w` (and the next, for a `pair`) readable from cycle `at`,
/// waking its scheduler.
fn release(warps: &mut [Warp], schedulers: &mut [Scheduler], w: WarpSlot, reg: u8, pair: bool, at: u64) {
    warps[w as usize].hold(reg, pair, at);
    let n = schedulers.len();
    let scheduler = &mut schedulers[w as usize % n];
    scheduler.ready.touch(w);
    scheduler.sleep_until = 0;
}

/// When `warp`'s next instruction has its registers ready (`NOT_READY` while a load is in
/// flight) and the warp is out of any launch call's stall, and the unit it needs, from its
/// kernel's decoded `operands`.
fn next_instruction(warp: &Warp, operands: &[Vec<Operands>]) -> Next {
    let code = &operands[warp.code_index as usize];
    match warp.exec.stack.pc().and_then(|pc| code.get(pc as usize)) {
        Some(next) => {
            let registers = next.ready_at(&warp.ready_at);
            Next { wait: registers.max(warp.busy_until), unit: next.unit, launch: warp.busy_until > registers }
        }
        // Running off the end faults when it issues: let it issue.
        None => Next { wait: 0, unit: Unit::Control, launch: false },
    }
}

fn unit_index(unit: Unit) -> usize {
    match unit {
        Unit::Alu | Unit::Memory => 0,
        Unit::Sfu => 1,
        Unit::Control => 2,
        Unit::Fp64 => 3,
    }
}

impl Sm {
    /// An idle SM of `config` whose schedulers run `policy`.
    /// With `shortcuts` off, every scheduler is evaluated and every LSU retry made each cycle:
    /// the plain cycle-by-cycle reference the shortcuts must agree with.
    /// With `record`, the SM keeps its event stream ([`Sm::recorded`]).
    pub fn new(id: u32, config: &GpuConfig, policy: &WarpPolicy, shortcuts: bool, record: bool) -> Self {
        let core = &config.core;
        let p = &config.pipeline;
        let (n, slots) = (core.schedulers_per_sm as usize, core.max_warps_per_sm as usize);
        let mut policy = policy.clone();
        // A recorded stream, or a policy that acts on failures as they come, needs every retry
        // made in its cycle.
        // Under UCP a failed allocation can end at a new split of the ways, which no event
        // announces: the LSU retries every cycle.
        let ways_split = config.l1.partition == crate::config::L1Partition::Ucp;
        let lsu_may_wait = shortcuts && !record && !policy.hears_every_retry() && !ways_split;
        let smc_settings = policy.smc();
        let arbitrates = policy.arbitrates_memory();
        let listening = record || policy.hears_events();
        policy.attach(&SmShape {
            schedulers: n as u16,
            warp_slots: slots as u16,
            tb_slots: core.max_tbs_per_sm as u16,
        });
        Sm {
            id,
            warp_size: core.warp_size,
            local_frame_bytes: 0,
            launch_cost: config.device_launch,
            policy,
            recorder: record.then(Vec::new),
            listening,
            l1_log: (config.l1.replacement == Replacement::Belady).then(Vec::new),
            stall_spans: None,
            blocked_by: None,
            schedulers: (0..n)
                .map(|_| Scheduler {
                    unit_free: [0; 4],
                    ready: Readiness::new(slots, slots.div_ceil(n)),
                    sleep_until: 0,
                })
                .collect(),
            warps: vec![Warp::default(); slots],
            info: vec![WarpInfo::default(); slots],
            blocks: (0..core.max_tbs_per_sm)
                .map(|_| Block {
                    live: false,
                    kernel: 0,
                    block: 0,
                    code_index: 0,
                    warps_live: 0,
                    warps_at_barrier: 0,
                    barrier_pc: 0,
                    shared: SharedMemory::new(0),
                    needs: BlockNeeds::default(),
                    start: 0,
                })
                .collect(),
            free: SmFree::whole_sm(core),
            next_age: 0,
            latency: [p.alu.latency as u64, p.sfu.latency as u64, p.control.latency as u64, p.fp64.latency as u64],
            interval: [p.alu.interval as u64, p.sfu.interval as u64, p.control.interval as u64, p.fp64.interval as u64],
            shared_latency: config.shared_memory.latency as u64,
            shared_banks: config.shared_memory.banks,
            line_bytes: config.l1.line_bytes,
            sector_bytes: config.l1.sector_bytes,
            lsu: {
                let mut lsu = Lsu::new(config, lsu_may_wait);
                lsu.set_smc_extra_latency(smc_settings.map_or(0, |s| s.extra_latency));
                lsu
            },
            loads: PendingLoads::default(),
            l1: {
                let mut l1 = L1Cache::new(&config.l1);
                if config.coherence == crate::config::Coherence::DeNovo {
                    l1.own_writes();
                }
                l1
            },
            addresses: [0; LANES],
            report: SmReport::default(),
            stalls: StallCounts::default(),
            last_reasons: vec![StallReason::NoWarp; core.schedulers_per_sm as usize],
            shortcuts,
            accounted_to: 0,
            smc: smc_settings.map(|settings| SmcSizing { settings, core: *core, kernel: None }),
            live_warps: 0,
            active: ActiveWarps::default(),
            arbitrates,
            contenders: Vec::with_capacity(if arbitrates { slots } else { 0 }),
            streams: Vec::new(),
        }
    }

    /// The workload's host streams, in order of first launch: the co-running kernels among
    /// which the L1 shares out its MSHRs when `l1.mshr_partition` asks it to.
    pub fn set_co_running(&mut self, streams: &[u32]) {
        self.streams = streams.to_vec();
        self.l1.share_mshrs(streams.len() as u32);
        self.blocked_by = (streams.len() >= 2).then(|| BlockedBy::new(streams.len(), self.schedulers.len()));
    }

    /// Keeps the LSU's stalls by kernel run from now on, for the time series to split them by
    /// program ([`Sm::take_stall_spans`]).
    pub fn keep_stall_spans(&mut self) {
        self.stall_spans.get_or_insert_with(Vec::new);
    }

    /// Who held up whose memory instructions among the co-running kernels (in the order of
    /// [`Sm::set_co_running`]'s streams); `None` with fewer than two.
    pub fn blocked_by(&self) -> Option<&BlockedBy> {
        self.blocked_by.as_ref()
    }

    /// Hands each stall span kept since the last call to `take`, oldest first, and forgets it.
    pub fn take_stall_spans(&mut self, mut take: impl FnMut(&StallSpan)) {
        if let Some(spans) = &mut self.stall_spans {
            spans.iter().for_each(&mut take);
            spans.clear();
        }
    }

    /// Sizes the warp slots' frames in the local window for kernels spilling at most
    /// `spill_words` words per thread (the workload is valid, so every frame fits the window).
    pub fn set_local_frames(&mut self, spill_words: u32) {
        self.local_frame_bytes = crate::workload::local_frame_bytes(spill_words) as u32;
    }

    /// Bytes the warp and block slots of an SM of `core` allocate, about, running kernels of
    /// at most `regs_per_thread` registers: every warp slot's registers (a slot keeps its
    /// allocation between blocks). Its L1 and its blocks' shared memory are counted apart. For
    /// [`crate::footprint`].
    pub fn slot_bytes_needed(core: &CoreConfig, regs_per_thread: u32) -> u64 {
        let per_warp = (size_of::<Warp>() + size_of::<WarpInfo>()) as u64;
        let registers = regs_per_thread as u64 * (LANES * size_of::<u32>() + size_of::<u64>()) as u64;
        core.max_warps_per_sm as u64 * (per_warp + registers) + core.max_tbs_per_sm as u64 * size_of::<Block>() as u64
    }

    /// A block of kernel run `kernel` arrives: with a policy that redirects loads, the
    /// shared-memory cache takes the shared memory that the kernel's blocks leave unused when
    /// as many as fit are resident (fixed per kernel run, so that it never keeps a block out),
    /// sized when the run's first block arrives on the SM.
    fn size_smc(&mut self, now: u64, kernel: u32, needs: &BlockNeeds) {
        let Some(smc) = &mut self.smc else { return };
        let unused = if smc.settings.dynamic {
            // What the resident blocks leave now (this one's share already taken).
            self.free.shared_bytes
        } else {
            if smc.kernel == Some(kernel) {
                return;
            }
            let blocks = occupancy(&smc.core, needs).blocks_per_sm;
            smc.core.shared_memory_per_sm.saturating_sub(blocks.saturating_mul(needs.shared_bytes))
        };
        smc.kernel = Some(kernel);
        let lines = smc.settings.lines_in(unused, self.line_bytes);
        if smc.settings.dynamic && lines == self.l1.smc_lines() {
            return;
        }
        self.l1.set_smc(lines, &smc.settings);
        self.tell(now, SmEvent::SmcSized { kernel, lines });
    }

    /// A block left: with dynamic sizing, the shared-memory cache grows into what it freed.
    fn resize_smc_after_exit(&mut self, now: u64, kernel: u32) {
        if self.smc.as_ref().is_some_and(|smc| smc.settings.dynamic) {
            self.size_smc(now, kernel, &BlockNeeds::default());
        }
    }

    /// Its warp policy (for views of a policy's state, such as CCWS's scores).
    pub fn policy(&self) -> &WarpPolicy {
        &self.policy
    }

    /// Its event stream so far (empty unless the run records).
    pub fn recorded(&self) -> &[Stamped] {
        self.recorder.as_deref().unwrap_or(&[])
    }

    /// Its L1's accesses so far, in the order the L1 accepted them, with the invalidations
    /// between kernels; empty unless the L1 is replayed (`l1.replacement = Belady`).
    pub fn l1_log(&self) -> &[L1Access] {
        self.l1_log.as_deref().unwrap_or(&[])
    }

    /// Invalidates the L1 (a kernel boundary under GPU coherence), and notes it in the log.
    pub fn invalidate_l1(&mut self) {
        self.l1.invalidate_all();
        if let Some(log) = &mut self.l1_log {
            log.push(L1Access::FLUSH);
        }
    }

    /// Kernel boundary under DeNovo: the L1 keeps what it owns and the valid data of lines
    /// `keep` accepts. (No replay marker: the Belady replay is refused under DeNovo.)
    pub fn self_invalidate_l1(&mut self, keep: impl Fn(u64) -> bool) {
        self.l1.self_invalidate(keep);
    }

    /// Tells the policy (and the recorder) about an event of the whole GPU at `now`.
    pub fn tell(&mut self, now: u64, event: SmEvent) {
        let Sm { id, info, policy, recorder, listening, .. } = self;
        Listeners { id: *id, now, info, policy, recorder, listening: *listening }.hear(event);
        // A kernel starting or ending can change what the policy holds back.
        self.count_active(now + 1);
    }

    /// Runs `f` on the LSU with what it counts into and reports to at `now`: the L1, the pending
    /// loads, and a [`Tally`] of this SM's report, the runs' reports and its listeners.
    fn with_lsu<R>(
        &mut self,
        now: u64,
        runs: &mut [KernelReport],
        f: impl FnOnce(&mut Lsu, &mut L1Cache, &mut PendingLoads, &mut Tally<'_>) -> R,
    ) -> R {
        let Sm { id, lsu, l1, loads, info, report, policy, recorder, listening, l1_log, stall_spans, .. } = self;
        let events = Listeners { id: *id, now, info, policy, recorder, listening: *listening };
        f(lsu, l1, loads, &mut Tally { sm: report, runs, events, log: l1_log, stall_spans })
    }

    /// Free resources, for the TB scheduler.
    pub fn free(&self) -> SmFree {
        self.free
    }

    /// The L1, for the memory side (miss queue, fills) and heat maps.
    pub fn l1(&self) -> &L1Cache {
        &self.l1
    }

    /// The L1, mutably.
    pub fn l1_mut(&mut self) -> &mut L1Cache {
        &mut self.l1
    }

    /// Statistics so far.
    pub fn report(&self) -> SmReport {
        let mut r = self.report.clone();
        r.l1 = self.l1.stats();
        r.stalls = self.stalls.into();
        r.victim_tag_hits = self.policy.counters().victim_tag_hits;
        r.active_warp_cycles = self.active.warp_cycles(self.accounted_to);
        r
    }

    /// Starts block `block` of `launch` (resources were checked by the dispatcher).
    pub fn admit(
        &mut self,
        now: u64,
        launch: LaunchShape,
        kernel: &Kernel,
        block: u32,
        needs: BlockNeeds,
        args: &[u32],
    ) {
        let Some(slot) = self.blocks.iter().position(|b| !b.live) else { return };
        let b = &mut self.blocks[slot];
        b.live = true;
        b.kernel = launch.kernel;
        b.block = block;
        b.code_index = launch.code_index;
        b.warps_live = needs.warps;
        b.warps_at_barrier = 0;
        b.shared.reset(needs.shared_bytes);
        b.needs = needs;
        b.start = now;
        self.free.take(&needs);
        self.size_smc(now, launch.kernel, &needs);

        let block_idx = launch.grid.unflatten(block);
        let rows = kernel.regs_per_thread as usize;
        let mut warp_in_block = 0;
        for w in 0..self.warps.len() {
            if warp_in_block == needs.warps {
                break;
            }
            if self.info[w].live {
                continue;
            }
            let place = WarpPlace {
                grid: launch.grid,
                block: launch.block,
                block_idx,
                first_thread: warp_in_block * self.warp_size,
                warp_size: self.warp_size,
                local_base: crate::isa::LOCAL_WINDOW_BASE
                    + (self.id * self.warps.len() as u32 + w as u32) * self.local_frame_bytes,
            };
            let warp = &mut self.warps[w];
            warp.regs.clear();
            warp.regs.resize(rows * LANES, 0);
            for (i, &arg) in args.iter().enumerate() {
                warp.regs[i * LANES..(i + 1) * LANES].fill(arg);
            }
            warp.ready_at.clear();
            warp.ready_at.resize(rows, 0);
            warp.exec.stack.reset(place.live_mask());
            warp.exec.local.clear();
            warp.exec.local.resize(kernel.spill_words as usize * LANES, 0);
            warp.place = Some(place);
            warp.block_slot = slot as u16;
            warp.code_index = launch.code_index;
            warp.admitted_for = Some((launch.kernel, block));
            warp.last_issue = u64::MAX;
            warp.gated = false;
            warp.busy_until = 0;
            let n_sched = self.schedulers.len();
            self.schedulers[w % n_sched].ready.admit(w as WarpSlot);
            self.info[w] = WarpInfo {
                live: true,
                age: self.next_age,
                tb_slot: slot as u16,
                kernel: launch.kernel,
                stream: launch.stream,
                at_barrier: false,
            };
            self.next_age += 1;
            self.live_warps += 1;
            warp_in_block += 1;
            self.tell(now, SmEvent::WarpAdmit { slot: w as WarpSlot, kernel: launch.kernel });
        }
        // From the next cycle, as the issue stage counts: whether the SM's issue stage ran in
        // this cycle before the block arrived must not matter.
        self.count_active(now + 1);
        self.wake_all();
    }

    /// Takes the number of warps the policy lets issue from cycle `from` on.
    fn count_active(&mut self, from: u64) {
        self.active.set(from, self.live_warps - self.policy.held_warps().min(self.live_warps));
    }

    fn wake_all(&mut self) {
        for scheduler in &mut self.schedulers {
            scheduler.sleep_until = 0;
        }
    }

    /// Advances the memory pipeline by one cycle; loads answered entirely by L1 hits release
    /// their registers.
    pub fn lsu_cycle(&mut self, now: u64, runs: &mut [KernelReport]) {
        if !self.lsu.active() && !self.loads.any_complete() {
            // Idle, or blocked until an event (the case of most cycles of a memory-bound run):
            // only a foreseen failed attempt is there to count, as `Lsu::cycle` would.
            self.with_lsu(now, runs, |lsu, l1, _, tally| lsu.settle(now + 1, l1, tally));
            return;
        }
        let was_busy = self.lsu.busy();
        self.with_lsu(now, runs, |lsu, l1, loads, tally| lsu.cycle(now, l1, loads, tally));
        // Loads whose requests are all issued and answered by hits: their data is ready.
        self.release_completed(now);
        if was_busy && !self.lsu.busy() {
            self.wake_all();
        }
    }

    /// A reply for `line` reached the SM at `now`, for the miss request that named MSHR `mshr`.
    pub fn fill(
        &mut self,
        now: u64,
        line: u64,
        sectors: u32,
        mshr: u32,
        woken: &mut Vec<u32>,
        runs: &mut [KernelReport],
    ) {
        woken.clear();
        self.l1.fill_entry(mshr, line, sectors, woken);
        if self.l1.sets() > 0 {
            self.lsu.fill_arrived(now, sectors);
        }
        // Only a listener can change what the policy holds back on hearing of a fill.
        if self.listening {
            self.tell(now, SmEvent::Fill { line });
        }
        // The fill freed an MSHR and un-reserved a line: the LSU may proceed this cycle.
        self.with_lsu(now, runs, |lsu, l1, _, tally| lsu.fill_may_unblock(now, l1, tally));
        for &token in woken.iter() {
            self.loads.answer(token, now);
        }
        self.release_completed(now);
    }

    #[inline]
    fn release_completed(&mut self, now: u64) {
        let Sm { id, warps, schedulers, loads, info, policy, recorder, listening, .. } = self;
        let mut listeners = Listeners { id: *id, now, info, policy, recorder, listening: *listening };
        loads.complete_ready(|w, reg, pair, at| {
            release(warps, schedulers, w, reg, pair, at);
            listeners.hear(SmEvent::LoadComplete { slot: w, at });
        });
    }

    /// The first cycle from `now` on at which the SM must run, after a reply changed it at
    /// `now`. A cycle in which its LSU has nothing to present and every scheduler sleeps
    /// changes nothing: it only counts each scheduler's last stall reason, as a dormant SM's
    /// catch-up does. So a reply that only fills a line or counts down a load, leaving the LSU
    /// blocked, need not wake the SM. (A reply releases the loads it completes itself, adds no
    /// miss request, and the SM's own wake-up already covers those waiting.)
    pub fn next_cycle_after_reply(&self, now: u64) -> u64 {
        if self.lsu.active() {
            return now;
        }
        self.earliest_scheduler_wake().max(now)
    }

    /// The earliest cycle at which a scheduler of the SM wakes (`u64::MAX`: none will).
    fn earliest_scheduler_wake(&self) -> u64 {
        self.schedulers.iter().map(|s| s.sleep_until).min().unwrap_or(u64::MAX)
    }

    /// An atomic's reply reached the SM at `now`.
    pub fn atomic_reply(&mut self, now: u64, token: u32) {
        self.loads.answer(token, now);
        self.release_completed(now);
    }

    /// Runs the issue stage of every scheduler for cycle `now`; what it produces for the rest
    /// of the GPU goes into `io`. Returns the next cycle the SM has something to do, unless a
    /// reply or a new block arrives first.
    pub fn issue_cycle(&mut self, now: u64, io: &mut IssueCx<'_>) -> Result<u64, SmFault> {
        self.accounted_to = now + 1;
        self.arbitrate_memory(now, io.operands);
        let mut wake = u64::MAX;
        for s in 0..self.schedulers.len() {
            if self.shortcuts && now < self.schedulers[s].sleep_until {
                // Nothing changed since its last look: it stalls for the same reason.
                self.stalls.add(self.last_reasons[s], 1);
                io.tally.stalls.add(self.last_reasons[s], 1);
                wake = wake.min(self.schedulers[s].sleep_until);
                continue;
            }
            let reason = self.schedule(s, now, io)?;
            self.stalls.add(reason, 1);
            io.tally.stalls.add(reason, 1);
            self.last_reasons[s] = reason;
            // A policy's gate can change without any event the SM sees; everything else wakes
            // a sleeping scheduler (a register released, a block admitted, a barrier opening,
            // the LSU emptying).
            let sleep_until = match reason {
                StallReason::Issued | StallReason::Throttled => now + 1,
                _ => self.earliest_issue(s, now),
            };
            self.schedulers[s].sleep_until = sleep_until;
            wake = wake.min(sleep_until);
        }
        if let Some(b) = &mut self.blocked_by {
            let held_back = b.count(1);
            for (k, n) in io.tally.held_back.iter_mut().enumerate() {
                *n += u64::from(held_back >> k & 1);
            }
        }
        // What the schedulers did can stall, release or retire warps.
        self.count_active(now + 1);
        // The first cycle after this one the SM must run, unless news arrives before it. A
        // scheduler's issue can wake the others (a barrier opening, a block finishing) after
        // their wake-up cycle was taken above, but it issued, so `wake` is `now + 1` anyway.
        debug_assert_eq!(wake.max(now + 1), self.earliest_scheduler_wake().max(now + 1));
        Ok(if self.lsu.active() { now + 1 } else { wake.max(now + 1) })
    }

    /// The first cycle after `now` at which some warp of scheduler `s` could issue.
    fn earliest_issue(&self, s: usize, now: u64) -> u64 {
        let scheduler = &self.schedulers[s];
        let (free, lsu_busy) = (scheduler.unit_free, self.lsu.busy());
        match scheduler.ready.wide() {
            false => scheduler.ready.earliest_issue::<1>(now, free, lsu_busy),
            true => scheduler.ready.earliest_issue::<4>(now, free, lsu_busy),
        }
    }

    /// Counts the stall cycles of a dormant stretch, from the last cycle this SM ran up to
    /// (not including) `now`: nothing changed in it, so each scheduler kept its last reason, and
    /// a failed LSU attempt foreseen in it is counted. `charge(reasons, held_back, first_cycle,
    /// cycles)` is called with every scheduler's reason and the co-running kernels (a bit each)
    /// whose ready memory instructions waited at the busy LSU ([`blocked_by`]).
    pub fn catch_up(&mut self, now: u64, runs: &mut [KernelReport], charge: &mut DormantCharge<'_>) {
        if now <= self.accounted_to {
            // A foreseen attempt is never before `accounted_to`: it is settled below, or made
            // for a cycle after the one the SM last ran.
            return;
        }
        self.settle_lsu(now, runs);
        let cycles = now - self.accounted_to;
        for &reason in &self.last_reasons {
            self.stalls.add(reason, cycles);
        }
        let held_back = self.blocked_by.as_mut().map_or(0, |b| b.count(cycles));
        charge(&self.last_reasons, held_back, self.accounted_to, cycles);
        self.accounted_to = now;
    }

    /// Counts the LSU's foreseen failed attempts before `now`, as [`Sm::catch_up`] does first,
    /// for a reply about to change the LSU at `now`. The stall cycles of the dormant stretch
    /// wait for the next catch-up: a reply changes no scheduler's last stall reason.
    pub fn settle_lsu(&mut self, now: u64, runs: &mut [KernelReport]) {
        if now > self.accounted_to {
            self.with_lsu(now, runs, |lsu, l1, _, tally| lsu.settle(now, l1, tally));
        }
    }

    /// Notes whom scheduler `s` sees held up this cycle, and behind whom: the co-running
    /// kernels of its warps whose memory instruction is ready, when the LSU is busy.
    fn look_blocked(&mut self, s: usize, runs: &[KernelReport]) {
        let streams = &self.streams;
        let group = |stream: u32| kernel_group(streams, stream).unwrap_or(usize::MAX);
        let mut waiting = 0u8;
        let holder = self.lsu.holder().and_then(|run| runs.get(run as usize)).map_or(usize::MAX, |r| group(r.stream));
        if self.lsu.busy() {
            let ready = &self.schedulers[s].ready;
            let mut add = |w: usize| {
                let victim = group(self.info[w].stream);
                if victim < blocked_by::MAX_KERNELS {
                    waiting |= 1 << victim;
                }
            };
            match ready.wide() {
                false => ready.memory_candidates::<1>().for_each(&mut add),
                true => ready.memory_candidates::<4>().for_each(&mut add),
            }
        }
        if let Some(b) = &mut self.blocked_by {
            b.look(s, waiting, holder);
        }
    }

    /// The warps of scheduler `s` that can issue at `now`, oldest first; when there are none,
    /// why.
    fn collect_ready<const W: usize>(
        &mut self,
        s: usize,
        now: u64,
        operands: &[Vec<Operands>],
    ) -> Result<Words<W>, StallReason> {
        let Sm { schedulers, warps, lsu, .. } = self;
        let scheduler = &mut schedulers[s];
        scheduler.ready.refresh::<W>(now, |w| next_instruction(&warps[w as usize], operands));
        let free = scheduler.unit_free;
        let lsu_busy = lsu.busy();
        let look = scheduler.ready.look::<W>([free[0] > now, free[1] > now, free[2] > now, free[3] > now, lsu_busy]);
        if look.ready.is_empty() {
            return Err(scheduler.ready.stall_reason(&look, lsu_busy));
        }
        Ok(look.ready)
    }

    /// Takes the oldest miss-queue entry at cycle `now` (it enters the network); a request
    /// blocked on a full queue can go again next cycle.
    pub fn pop_miss(&mut self, now: u64, runs: &mut [KernelReport]) -> Option<crate::mem::l1::MissRequest> {
        let miss = self.l1.pop_miss()?;
        self.with_lsu(now, runs, |lsu, l1, _, tally| lsu.miss_queue_popped(now, l1, tally));
        Some(miss)
    }

    /// Whether requests wait in the miss queue.
    pub fn has_misses(&self) -> bool {
        self.l1.miss_queue_len() > 0
    }

    /// The token of the oldest atomic that left for L2 (the engine pairs it with the request).
    pub fn take_atomic_token(&mut self) -> Option<u32> {
        self.lsu.take_atomic_token()
    }

    fn schedule(&mut self, s: usize, now: u64, io: &mut IssueCx<'_>) -> Result<StallReason, SmFault> {
        let operands = io.operands;
        let ready = match self.schedulers[s].ready.wide() {
            false => self.collect_ready::<1>(s, now, operands).map(WarpSet::from),
            true => self.collect_ready::<4>(s, now, operands).map(WarpSet::from),
        };
        if self.blocked_by.is_some() {
            self.look_blocked(s, io.runs);
        }
        let ready = match ready {
            Ok(ready) => ready,
            Err(reason) => return Ok(reason),
        };
        let outcome = self.issue_picks(s, now, io, ready);
        // Warps that finished leave the scheduler's list only now: positions held still while
        // the policy picked.
        self.schedulers[s].ready.drop_exited();
        outcome
    }

    /// Issues the policy's picks from `ready` while the issue width allows; says whether any
    /// issued.
    fn issue_picks(
        &mut self,
        s: usize,
        now: u64,
        io: &mut IssueCx<'_>,
        mut left: WarpSet,
    ) -> Result<StallReason, SmFault> {
        let kernels = io.kernels;
        let mut count = 0;
        let mut throttled = false;
        let scheduler = s as u16;
        while count < io.issue_width && !left.is_empty() {
            let cx = WarpCx { now, sm: self.id, scheduler, warps: &self.info };
            let members = &self.schedulers[s].ready.members;
            let picked = self.policy.pick(&cx, &ReadyWarps::new(&left, members));
            let Some(picked) = picked else {
                // The policy holds back every warp left (a warp limit): they are throttled.
                throttled = true;
                break;
            };
            let Some(i) = members.position(picked).filter(|&i| left.contains(i)) else {
                debug_assert!(false, "the policy picked {picked:?}, not a ready warp");
                break;
            };
            let w = picked;
            left.remove(i);
            let warp = &self.warps[w as usize];
            let code_index = warp.code_index as usize;
            let pc = warp.exec.stack.pc().unwrap_or(0);
            let next = io.operands[code_index].get(pc as usize).copied();
            let class = next.map_or(InstrClass::Compute, |n| n.class);
            let cx = WarpCx { now, sm: self.id, scheduler, warps: &self.info };
            if !self.policy.may_issue(&cx, w, class) {
                throttled = true;
                // A load held back counts once, however many cycles it waits.
                if class == InstrClass::GlobalLoad && !self.warps[w as usize].gated {
                    self.warps[w as usize].gated = true;
                    self.report.gated_loads += 1;
                    if let Some(run) = io.runs.get_mut(self.info[w as usize].kernel as usize) {
                        run.gated_loads += 1;
                    }
                }
                continue;
            }
            // Only one memory instruction enters the LSU per cycle.
            if next.is_some_and(|n| n.unit == Unit::Memory) && self.lsu.busy() {
                continue;
            }
            let kernel = self.info[w as usize].kernel;
            let lanes = self.warps[w as usize].exec.stack.active_mask().count_ones();
            let at = Picked { slot: w, position: i, pc, next };
            let requests = self.issue(s, at, now, &kernels[code_index], io).map_err(|fault| {
                let thread = self.warps[w as usize].place.map(|p| p.thread_of(fault.lane));
                SmFault { kernel, fault, thread }
            })?;
            self.warps[w as usize].gated = false;
            if let Some(run) = io.runs.get_mut(kernel as usize) {
                run.warp_instructions += 1;
                if class == InstrClass::Shared {
                    // One pass through the banks per conflict degree: each reads the array.
                    run.shared_accesses += requests as u64;
                }
            }
            io.tally.instructions += 1;
            count += 1;
            let cx = WarpCx { now, sm: self.id, scheduler, warps: &self.info };
            self.policy.on_issue(&cx, w, &Issued { class, kernel, requests, lanes });
        }
        Ok(if count > 0 {
            StallReason::Issued
        } else if throttled {
            StallReason::Throttled
        } else {
            StallReason::MemoryPipeline
        })
    }

    /// Executes the instruction of scheduler `s`'s warp `picked` and starts its timing. Returns
    /// the requests a memory instruction made (see [`Issued::requests`]).
    // Kept out of line: inlined, its many instruction kinds crowd the registers of the picking
    // loop around it (measured: fewer host instructions on three of the four benchmarks).
    #[inline(never)]
    fn issue(
        &mut self,
        s: usize,
        picked: Picked,
        now: u64,
        kernel: &Kernel,
        io: &mut IssueCx<'_>,
    ) -> Result<u32, Fault> {
        let Picked { slot: w, position, pc, next } = picked;
        let wi = w as usize;
        let block_slot = self.warps[wi].block_slot as usize;
        let Sm { warps, blocks, addresses, .. } = self;
        let warp = &mut warps[wi];
        let Some(place) = &warp.place else { return Ok(0) };
        let mut env = ExecEnv { global: io.global, shared: &mut blocks[block_slot].shared, addresses };
        // Some lanes elsewhere (another path, or waiting to reconverge) when it issues.
        let diverged = warp.exec.stack.depth() > 1;
        let executed = exec::step(&kernel.code, &mut warp.exec, &mut warp.regs, place, &mut env)?;
        self.warps[wi].last_issue = now;
        self.report.warp_instructions += 1;
        // Running off the end of the code faulted in `step`.
        let Some(ops) = next else { return Ok(0) };
        let unit = ops.unit;
        let mut requests = 0;
        match executed {
            Executed::Launch { kernel: code, dims, args, mask } => {
                let u = unit_index(unit);
                self.schedulers[s].unit_free[u] = now + self.interval[u];
                let params = io.kernels.get(code as usize).map_or(0, |k| k.params as usize);
                let (block, parent) = (self.blocks[block_slot].block, self.blocks[block_slot].kernel);
                let sm = self.id;
                // The device runtime's calls stall the launching warp (CDP's tens of thousands of
                // cycles, DTBL's launch latency); the cost grows with the lanes that launch.
                let lanes = mask.count_ones();
                let stall = self.launch_cost.warp_stall(lanes);
                self.warps[wi].busy_until = now + stall;
                let mut first = true;
                exec::for_each_launch(&self.warps[wi].regs, dims, args, params, mask, |lane, grid, child, args| {
                    let parent_block = block;
                    io.launches.push(DeviceLaunch {
                        sm,
                        parent,
                        parent_block,
                        pc,
                        lane,
                        lanes,
                        stall: if core::mem::take(&mut first) { stall } else { 0 },
                        code,
                        grid,
                        block: child,
                        args,
                    });
                });
            }
            Executed::Compute | Executed::Finished | Executed::Barrier => {
                let u = unit_index(unit);
                if let Some(dst) = ops.dst {
                    self.warps[wi].hold(dst.0, ops.dst_pair, now + self.latency[u]);
                }
                self.schedulers[s].unit_free[u] = now + self.interval[u];
            }
            Executed::Memory(access) => {
                let dst = ops.dst;
                // A spill or fill: every lane's address is in the local window.
                if crate::isa::is_local_address(self.addresses[access.mask.trailing_zeros() as usize % LANES]) {
                    match access.kind {
                        AccessKind::Load => self.report.fills += 1,
                        _ => self.report.spills += 1,
                    }
                }
                match access.space {
                    Space::Shared => {
                        let degree = bank_conflict_degree(access.mask, &self.addresses, self.shared_banks) as u64;
                        requests = degree as u32;
                        self.lsu.start_shared(now + degree, self.info[wi].kernel);
                        if let Some(dst) = dst {
                            self.warps[wi].hold(dst.0, ops.dst_pair, now + degree + self.shared_latency);
                        }
                    }
                    Space::Global => {
                        let kind = match access.kind {
                            AccessKind::Load => RequestKind::Load,
                            AccessKind::Store => RequestKind::Store,
                            AccessKind::Atomic => RequestKind::Atomic,
                        };
                        let token = dst.map(|d| {
                            self.warps[wi].hold(d.0, ops.dst_pair, NOT_READY);
                            self.loads.start(w, d.0, ops.dst_pair, now)
                        });
                        let (line, sector) = (self.line_bytes, self.sector_bytes);
                        coalesce(access.mask, &self.addresses, access.block, line, sector, self.lsu.requests_mut());
                        if kind == RequestKind::Atomic {
                            for r in self.lsu.requests_mut().iter_mut() {
                                r.updates = most_updates_of_one_address(r.lanes, &self.addresses);
                            }
                        }
                        requests = self.lsu.requests_mut().len() as u32;
                        let warp = (w, self.info[wi].age as u32);
                        let route = self.policy.load_route(w);
                        let stream = self.info[wi].stream;
                        let kernel_group = kernel_group(&self.streams, stream).unwrap_or(0);
                        self.l1.set_requester_kernel(kernel_group as u8);
                        self.lsu.start_global(kind, warp, token, self.info[wi].kernel, route, &self.l1);
                    }
                }
            }
        }
        match executed {
            Executed::Barrier => {
                self.schedulers[s].ready.set_barrier(w, true);
                self.info[wi].at_barrier = true;
                if self.blocks[block_slot].warps_at_barrier == 0 {
                    self.blocks[block_slot].barrier_pc = pc;
                }
                let b = &self.blocks[block_slot];
                if diverged {
                    self.note_partial_barrier(block_slot, pc, true);
                } else if b.warps_live < b.needs.warps {
                    // Warps of the block exited without reaching it.
                    self.note_partial_barrier(block_slot, pc, false);
                }
                self.blocks[block_slot].warps_at_barrier += 1;
                self.release_barrier_if_complete(block_slot);
            }
            Executed::Finished => {
                self.info[wi].live = false;
                self.live_warps -= 1;
                self.warps[wi].place = None;
                self.schedulers[s].ready.exit(w);
                let kernel = self.info[wi].kernel;
                self.tell(now, SmEvent::WarpExit { slot: w, kernel });
                let b = &mut self.blocks[block_slot];
                b.warps_live -= 1;
                if b.warps_live == 0 {
                    b.live = false;
                    self.free.give_back(&b.needs);
                    io.finished.push(Finished { sm: self.id, kernel: b.kernel, block: b.block });
                    io.records.push(BlockRecord {
                        kernel: b.kernel,
                        block: b.block,
                        sm: self.id,
                        start: b.start,
                        end: now,
                    });
                    self.resize_smc_after_exit(now, kernel);
                } else {
                    // Finished warps count as arrived at a barrier, as on Volta and later.
                    if let Some(pc) = (b.warps_at_barrier > 0).then_some(b.barrier_pc) {
                        self.note_partial_barrier(block_slot, pc, false);
                    }
                    self.release_barrier_if_complete(block_slot);
                }
            }
            _ => {}
        }
        if self.info[wi].live {
            // Its next instruction is looked at now, while the warp's state is in the host's
            // cache, rather than when its scheduler next runs.
            let next = next_instruction(&self.warps[wi], io.operands);
            self.schedulers[s].ready.looked_at(position, now, next);
        }
        Ok(requests)
    }

    /// Keeps the first barrier on this SM that only part of a block reached.
    fn note_partial_barrier(&mut self, block_slot: usize, pc: u32, diverged: bool) {
        if self.report.partial_barrier.is_none() {
            let b = &self.blocks[block_slot];
            self.report.partial_barrier = Some(PartialBarrier { kernel: b.kernel, pc, block: b.block, diverged });
        }
    }

    fn release_barrier_if_complete(&mut self, block_slot: usize) {
        let b = &mut self.blocks[block_slot];
        if b.warps_at_barrier == 0 || b.warps_at_barrier < b.warps_live {
            return;
        }
        b.warps_at_barrier = 0;
        let n = self.schedulers.len();
        for (w, warp) in self.warps.iter().enumerate() {
            if self.info[w].live && warp.block_slot as usize == block_slot {
                self.schedulers[w % n].ready.set_barrier(w as WarpSlot, false);
                self.info[w].at_barrier = false;
            }
        }
        self.wake_all();
    }
}
