//! A report's kernel runs, bounded for a page. A kernel whose threads launch grids from the
//! device can start a million runs (the engine's limit, [`crate::exec::MAX_DEVICE_GRIDS`]); a
//! report keeps a record of each, which the CLI's JSON wants, but a browser tab that receives
//! a million records stops responding while it takes them in, and shows 200 of them. So the
//! report the page receives keeps the first [`MAX_RUNS_SHOWN`] runs whole and totals the rest
//! per kernel name ([`RunGroup`]): every count the page's tables, legend and charts show stays
//! exact, only the per-run detail of the later runs goes.
//!
//! Block records keep their run ids: a run id at or beyond the kept runs names a summarised
//! run ([`Report::run_name`]). The kept runs are a prefix, so a kept run's parent (always
//! launched earlier) is kept too and every `parent` still indexes the list.
//!
//! Judging a claim needs every run ([`Report::region`] unions their spans), so the gallery's
//! runs are not summarised.

use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::{KernelReport, L2Stats, Report};
use crate::mem::l1::L1Stats;

/// Most kernel runs a report sent to the page keeps whole. Taking in a run's record costs the
/// page about 30 µs (measured: a report of 901 120 runs took the page about 30 s), so 4 096
/// runs cost it about a tenth of a second; the run table lists 200, and no library workload
/// at its default size starts more (sssp-dp at its largest, N=512, starts 351 000).
pub const MAX_RUNS_SHOWN: usize = 4096;

/// The runs of one kernel after the kept ones, totalled.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunGroup {
    /// Kernel name.
    pub name: String,
    /// Runs totalled.
    pub runs: u64,
    /// How many of them were launched from the device.
    pub device_runs: u64,
    /// Thread blocks in their grids.
    pub blocks: u64,
    /// The earliest start among them.
    pub first_start: u64,
    /// The latest end among them (0 while any is running).
    pub last_end: u64,
    /// Warp instructions they executed.
    pub warp_instructions: u64,
    /// Their L1 accesses, as [`KernelReport::l1`].
    pub l1: L1Stats,
    /// Their LSU retry cycles, as [`KernelReport::lsu_stall_cycles`].
    pub lsu_stall_cycles: u64,
    /// Their L2 requests, as [`KernelReport::l2`].
    pub l2: L2Stats,
    /// DRAM line reads their misses started.
    pub dram_reads: u64,
    /// DRAM write-backs charged to them.
    pub dram_writes: u64,
    /// Their loads the warp policy's gate held back.
    pub gated_loads: u64,
}

impl RunGroup {
    fn new(run: &KernelReport) -> Self {
        RunGroup {
            name: run.name.clone(),
            first_start: run.start_cycle,
            last_end: run.end_cycle,
            ..RunGroup::default()
        }
    }

    fn add(&mut self, run: &KernelReport) {
        self.runs += 1;
        self.device_runs += u64::from(run.parent.is_some());
        self.blocks += u64::from(run.blocks);
        self.first_start = self.first_start.min(run.start_cycle);
        // A run still going has end 0, and so does the group.
        self.last_end = if self.last_end == 0 || run.end_cycle == 0 { 0 } else { self.last_end.max(run.end_cycle) };
        self.warp_instructions += run.warp_instructions;
        self.l1.merge(&run.l1);
        self.lsu_stall_cycles += run.lsu_stall_cycles;
        self.l2.merge(&run.l2);
        self.dram_reads += run.dram_reads;
        self.dram_writes += run.dram_writes;
        self.gated_loads += run.gated_loads;
    }
}

impl Report {
    /// Keeps the first `keep` kernel runs whole and totals the others per kernel name into
    /// [`Report::run_groups`], in the order each name first appears among them. Nothing changes
    /// when there are at most `keep` runs.
    pub fn summarise_runs(&mut self, keep: usize) {
        if self.kernels.len() <= keep {
            return;
        }
        for run in self.kernels.drain(keep..) {
            let group = match self.run_groups.iter().position(|g| g.name == run.name) {
                Some(i) => &mut self.run_groups[i],
                None => {
                    self.run_groups.push(RunGroup::new(&run));
                    self.run_groups.last_mut().expect("just pushed")
                }
            };
            group.add(&run);
        }
        self.kernels.shrink_to_fit();
    }

    /// Kernel runs in the whole run, kept whole or summarised.
    pub fn runs_total(&self) -> u64 {
        self.kernels.len() as u64 + self.run_groups.iter().map(|g| g.runs).sum::<u64>()
    }

    /// The name of the kernel that run `id` ran: from its record, or for a summarised run, the
    /// one kernel the summarised runs ran (`None` if they ran several: which one is not kept).
    pub fn run_name(&self, id: u32) -> Option<&str> {
        if let Some(run) = self.kernels.get(id as usize) {
            return Some(&run.name);
        }
        match self.run_groups.as_slice() {
            [only] if (id as u64) < self.runs_total() => Some(&only.name),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::*;

    fn run(name: &str, parent: Option<u32>, start: u64, end: u64) -> KernelReport {
        KernelReport {
            name: name.into(),
            blocks: 2,
            start_cycle: start,
            end_cycle: end,
            warp_instructions: 10,
            parent,
            l1: L1Stats { accesses: 3, hits: 1, ..L1Stats::default() },
            dram_reads: 1,
            ..KernelReport::default()
        }
    }

    #[test]
    fn a_report_within_the_limit_is_unchanged() {
        let mut r = Report { kernels: vec![run("a", None, 0, 5), run("b", Some(0), 1, 4)], ..Report::default() };
        let before = r.clone();
        r.summarise_runs(2);
        assert_eq!(r, before);
        assert_eq!(r.runs_total(), 2);
    }

    #[test]
    fn runs_beyond_the_limit_are_totalled_per_kernel_in_order_of_appearance() {
        // a parent, then children c and d interleaved; keep 2.
        let kernels: Vec<KernelReport> = vec![
            run("parent", None, 0, 100),
            run("c", Some(0), 5, 20),
            run("d", Some(0), 6, 30),
            run("c", Some(0), 7, 50),
            run("d", Some(0), 3, 0), // still running
            run("c", None, 60, 90),
        ];
        let mut r = Report { kernels, ..Report::default() };
        r.summarise_runs(2);
        assert_eq!(r.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["parent", "c"]);
        assert_eq!(r.run_groups.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(), ["d", "c"]);
        let (d, c) = (&r.run_groups[0], &r.run_groups[1]);
        assert_eq!((d.runs, d.device_runs, d.blocks, d.first_start, d.last_end), (2, 2, 4, 3, 0));
        assert_eq!((c.runs, c.device_runs, c.blocks, c.first_start, c.last_end), (2, 1, 4, 7, 90));
        assert_eq!((c.warp_instructions, c.l1.accesses, c.l1.hits, c.dram_reads), (20, 6, 2, 2));
        assert_eq!(r.runs_total(), 6);
    }

    #[test]
    fn a_summarised_run_is_named_when_one_kernel_ran_them_all() {
        let mut one = Report {
            kernels: vec![run("p", None, 0, 9), run("c", Some(0), 1, 2), run("c", Some(0), 1, 3)],
            ..Report::default()
        };
        one.summarise_runs(1);
        assert_eq!((one.run_name(0), one.run_name(2), one.run_name(3)), (Some("p"), Some("c"), None));
        let mut two = Report {
            kernels: vec![run("p", None, 0, 9), run("c", Some(0), 1, 2), run("d", Some(0), 1, 3)],
            ..Report::default()
        };
        two.summarise_runs(1);
        assert_eq!((two.run_name(0), two.run_name(1)), (Some("p"), None));
    }
}
