//! The way from a launch to a run the dispatcher sees, for each `LaunchPath`:
//! - `Fixed`: a device launch becomes a run `latency` cycles after its instruction.
//! - `Cdp`: it reaches the kernel management unit (KMU) after the runtime's stall and the
//!   kernel launch latency, and becomes a run when it gets a KDU entry; which waiting kernel
//!   gets a freed entry is the TB policy's `kmu_pick` (first come, first served by default).
//! - `Dtbl`: after the warp's stall, the thread-block group joins a KDU kernel with the same
//!   function and block shape, taking a record in its launching SM's group table (or, with the
//!   table full, reaching the dispatcher `overflow_latency` later through global memory); a
//!   group no kernel matches becomes a kernel of its own through the KMU.
//!
//! Host kernels need a KDU entry too under `Cdp` and `Dtbl`; they take the first free one,
//! ahead of device kernels (the host's streams already order them).
//!
//! Each group or kernel is one run: a joined group is a run counted against its kernel's entry.
//! Runs are dispatched oldest first under the baseline, so a group goes after the blocks of the
//! kernel it joined, as the paper's appended groups do, and after any kernel that reached the
//! dispatcher before it (the paper's would go before one that arrived after the kernel it
//! joined: a documented simplification).

use alloc::collections::{BTreeMap, VecDeque};
use alloc::vec::Vec;

use super::{DeviceLaunch, Kdu, Origin, Run};
use crate::config::{DeviceLaunchConfig, GpuConfig, InsertSearch, KduRelease, LaunchPath};
use crate::isa::Dim3;
use crate::sched::tb::{KmuPick, WaitingKernel};
use crate::stats::LaunchStats;

/// A grid on its way to becoming a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewRun {
    /// Index of its code in the workload.
    pub code: u32,
    /// Grid dimensions.
    pub grid: Dim3,
    /// Block dimensions.
    pub block: Dim3,
    /// Argument words.
    pub args: Vec<u32>,
    /// Who launched it.
    pub origin: Origin,
    /// Its nesting depth (0 for host launches).
    pub depth: u32,
    /// The cycle its launch instruction issued (host launches: the cycle they started).
    pub launched: u64,
}

/// A run to start now, with what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ready {
    /// The grid.
    pub run: NewRun,
    /// The KDU entry its blocks count against.
    pub kdu_entry: Option<u32>,
    /// The SM whose group table holds its record until its last block is dispatched.
    pub group_sm: Option<u32>,
}

/// How full the launch queues are at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occupancy {
    /// Kernels holding a KDU entry.
    pub kdu_kernels: u32,
    /// Kernels waiting in the KMU.
    pub kmu_waiting: u32,
    /// DTBL group records held in the SMs' tables, all SMs together.
    pub group_records: u32,
}

/// Something due at a cycle.
#[derive(Clone, Debug)]
enum Due {
    /// A device launch reaches its path's queue.
    Arrive(NewRun),
    /// A run reaches the dispatcher (after the KMU's search, or a group's overflow).
    Start(Ready),
}

/// A kernel waiting in the KMU.
#[derive(Clone, Debug)]
struct Waiting {
    run: NewRun,
    since: u64,
}

/// The launch paths' state.
#[derive(Clone, Debug)]
pub struct LaunchPaths {
    config: DeviceLaunchConfig,
    kdu: Kdu,
    host_waiting: VecDeque<Waiting>,
    device_waiting: Vec<Waiting>,
    /// `device_waiting` as the TB policy sees it (same order).
    waiting_view: Vec<WaitingKernel>,
    /// Group records each SM's table holds.
    group_records: Vec<u32>,
    /// Their sum.
    group_records_held: u32,
    /// What is due, by (cycle, order of scheduling).
    timeline: BTreeMap<(u64, u64), Due>,
    scheduled: u64,
    stats: LaunchStats,
}

impl LaunchPaths {
    /// The paths of `config`, empty.
    pub fn new(config: &GpuConfig) -> Self {
        let launch = config.device_launch;
        LaunchPaths {
            config: launch,
            kdu: Kdu::new(if launch.limits_kernels() { launch.kdu_entries } else { 0 }),
            host_waiting: VecDeque::new(),
            device_waiting: Vec::new(),
            waiting_view: Vec::new(),
            group_records: alloc::vec![0; config.core.sm_count as usize],
            group_records_held: 0,
            timeline: BTreeMap::new(),
            scheduled: 0,
            stats: LaunchStats::default(),
        }
    }

    fn schedule(&mut self, at: u64, due: Due) {
        self.timeline.insert((at, self.scheduled), due);
        self.scheduled += 1;
    }

    /// `ready` reaches the dispatcher `delay` cycles from now: at once (into `out`) or later.
    fn start_after(&mut self, now: u64, delay: u64, ready: Ready, out: &mut Vec<Ready>) {
        match delay {
            0 => out.push(ready),
            delay => self.schedule(now + delay, Due::Start(ready)),
        }
    }

    /// A host launch may start: it goes to `out` now, or waits for a KDU entry.
    pub fn host(&mut self, now: u64, run: NewRun, out: &mut Vec<Ready>) {
        if !self.config.limits_kernels() {
            out.push(Ready { run, kdu_entry: None, group_sm: None });
            return;
        }
        if self.host_waiting.is_empty() {
            if let Some(entry) = self.kdu.take(run.code, run.block, run.grid.count() as u32) {
                out.push(Ready { run, kdu_entry: Some(entry), group_sm: None });
                return;
            }
        }
        self.host_waiting.push_back(Waiting { run, since: now });
        self.note_waiting();
    }

    /// A device thread's launch instruction issued at `now`; `stall` is its warp's stall (given
    /// with the instruction's first launch only, so that it counts once).
    pub fn device(&mut self, now: u64, launch: DeviceLaunch, depth: u32, stall: u64) {
        self.stats.device_launches += 1;
        self.stats.launch_stall_cycles += stall;
        let at = now + self.config.arrival_after(launch.lanes);
        let origin = Origin::Device { run: launch.parent, block: launch.parent_block, sm: launch.sm };
        let run = NewRun {
            code: launch.code,
            grid: launch.grid,
            block: launch.block,
            args: launch.args,
            origin,
            depth,
            launched: now,
        };
        self.schedule(at, Due::Arrive(run));
    }

    /// Moves everything due at `now` along; runs that reach the dispatcher go to `out`. `pick`
    /// is the TB policy's choice among waiting device kernels.
    pub fn advance(&mut self, now: u64, pick: &mut dyn FnMut(&[WaitingKernel]) -> KmuPick, out: &mut Vec<Ready>) {
        // Most cycles nothing is due and no kernel waits: the clock calls this every cycle it
        // visits, and a memory-bound run visits almost every cycle.
        let due = self.timeline.first_key_value().is_some_and(|((at, _), _)| *at <= now);
        if !due && self.host_waiting.is_empty() && self.device_waiting.is_empty() {
            return;
        }
        while let Some(entry) = self.timeline.first_entry() {
            if entry.key().0 > now {
                break;
            }
            match entry.remove() {
                // Admitted at once, so that a later DTBL group of the same cycle can join it.
                Due::Arrive(run) => {
                    self.arrive(now, run, out);
                    self.admit(now, pick, out);
                }
                Due::Start(ready) => out.push(ready),
            }
        }
        self.admit(now, pick, out);
        self.note_waiting();
    }

    fn arrive(&mut self, now: u64, run: NewRun, out: &mut Vec<Ready>) {
        match self.config.path {
            LaunchPath::Fixed => out.push(Ready { run, kdu_entry: None, group_sm: None }),
            LaunchPath::Cdp => self.wait_for_entry(now, run),
            LaunchPath::Dtbl => {
                let Some(entry) = self.kdu.join(run.code, run.block, run.grid.count() as u32) else {
                    return self.wait_for_entry(now, run);
                };
                self.stats.coalesced_groups += 1;
                let Origin::Device { sm, .. } = run.origin else { return };
                let capacity = self.config.group_entries_per_sm;
                let records = &mut self.group_records[sm as usize];
                if capacity == 0 || *records < capacity {
                    // The table is kept in level order; finding the group's place reads the
                    // records already there, one a cycle, if that search is not hidden.
                    let search = match self.config.insert_search {
                        InsertSearch::Hidden => 0,
                        InsertSearch::Linear => *records as u64,
                    };
                    *records += 1;
                    self.group_records_held += 1;
                    self.stats.group_table_peak = self.stats.group_table_peak.max(*records);
                    let ready = Ready { run, kdu_entry: Some(entry), group_sm: Some(sm) };
                    self.start_after(now, search, ready, out);
                } else {
                    self.stats.overflowed_groups += 1;
                    let ready = Ready { run, kdu_entry: Some(entry), group_sm: None };
                    self.start_after(now, self.config.overflow_latency as u64, ready, out);
                }
            }
        }
    }

    fn wait_for_entry(&mut self, now: u64, run: NewRun) {
        self.stats.new_kernels += 1;
        self.waiting_view.push(WaitingKernel {
            code: run.code,
            block: run.block,
            origin: run.origin,
            depth: run.depth,
        });
        self.device_waiting.push(Waiting { run, since: now });
    }

    /// Counts the KMU's queue once admissions are done, so a kernel passing straight through
    /// does not count as waiting.
    fn note_waiting(&mut self) {
        let waiting = (self.host_waiting.len() + self.device_waiting.len()) as u32;
        self.stats.kmu_peak = self.stats.kmu_peak.max(waiting);
    }

    /// Gives free KDU entries to waiting kernels, host kernels first.
    fn admit(&mut self, now: u64, pick: &mut dyn FnMut(&[WaitingKernel]) -> KmuPick, out: &mut Vec<Ready>) {
        while self.kdu.has_room() {
            let (waiting, search) = if let Some(host) = self.host_waiting.pop_front() {
                (host, 0)
            } else if !self.device_waiting.is_empty() {
                let choice = pick(&self.waiting_view);
                let index = choice.index.min(self.device_waiting.len() - 1);
                self.waiting_view.remove(index);
                (self.device_waiting.remove(index), choice.search_cycles as u64)
            } else {
                return;
            };
            let Waiting { run, since } = waiting;
            self.stats.kmu_waits += 1;
            self.stats.kmu_wait_cycles += now - since;
            let entry = self.kdu.take(run.code, run.block, run.grid.count() as u32);
            let ready = Ready { run, kdu_entry: entry, group_sm: None };
            self.start_after(now, search, ready, out);
        }
    }

    /// The next cycle something is due after `now` (`None`: nothing until a KDU entry frees,
    /// which a block's retirement or dispatch signals through the engine's own wake-ups).
    pub fn next_due(&self, now: u64) -> Option<u64> {
        let admit = self.kdu.has_room() && !(self.host_waiting.is_empty() && self.device_waiting.is_empty());
        let first = self.timeline.first_key_value().map(|((at, _), _)| (*at).max(now + 1));
        match admit {
            true => Some(now + 1),
            false => first,
        }
    }

    /// Launches not yet runs: due, or waiting in the KMU.
    pub fn in_flight(&self) -> usize {
        self.timeline.len() + self.host_waiting.len() + self.device_waiting.len()
    }

    /// Whether kernels need KDU entries (the CDP and DTBL paths).
    pub fn limits_kernels(&self) -> bool {
        self.config.limits_kernels()
    }

    /// KDU entries in use, kernels waiting in the KMU and group records held, as they stand.
    pub fn occupancy(&self) -> Occupancy {
        Occupancy {
            kdu_kernels: self.kdu.used(),
            kmu_waiting: (self.host_waiting.len() + self.device_waiting.len()) as u32,
            group_records: self.group_records_held,
        }
    }

    /// A block of `run` was dispatched to `sm` at `now`. Returns whether a KDU entry freed.
    pub fn placed(&mut self, now: u64, run: &mut Run, sm: u32) -> bool {
        if let Origin::Device { sm: parent_sm, .. } = run.origin {
            if run.dispatched == 0 {
                let gap = now - run.launched;
                self.stats.children_dispatched += 1;
                self.stats.launch_to_dispatch_cycles += gap;
                self.stats.launch_to_dispatch_max = self.stats.launch_to_dispatch_max.max(gap);
            }
            self.stats.child_blocks += 1;
            self.stats.child_blocks_on_parent_sm += (parent_sm == sm) as u64;
        }
        run.dispatched += 1;
        if run.dispatched == run.blocks {
            if let Some(sm) = run.group_sm.take() {
                self.group_records[sm as usize] -= 1;
                self.group_records_held -= 1;
            }
        }
        self.config.kdu_release == KduRelease::AllDispatched && self.release(run)
    }

    /// A block of `run` completed. Returns whether a KDU entry freed.
    pub fn completed(&mut self, run: &Run) -> bool {
        self.config.kdu_release == KduRelease::AllCompleted && self.release(run)
    }

    fn release(&mut self, run: &Run) -> bool {
        run.kdu_entry.is_some_and(|entry| self.kdu.release_block(entry))
    }

    /// The counts so far.
    pub fn stats(&self) -> LaunchStats {
        LaunchStats { kdu_peak: self.kdu.peak(), ..self.stats }
    }
}
