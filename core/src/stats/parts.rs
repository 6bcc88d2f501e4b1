//! Per-program totals of a co-run ([`crate::workload::Workload::co_run`]): what each program
//! did beside the others, over the whole run (every relaunch under a measurement window, and
//! the part of a run the window cut off).

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::KernelReport;
use crate::workload::Part;

/// One program of a co-run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartReport {
    /// Its name.
    pub name: String,
    /// Warp instructions its kernels issued, grids they launched from the device included.
    pub warp_instructions: u64,
    /// Its host launches that completed.
    pub launches_completed: u64,
    /// Its kernels' L1 counts: accesses, hits and misses, and the failed attempts by cause,
    /// charged to the program whose request was at the LSU's head (the concurrent-kernel
    /// paper's per-kernel reservation failures, counted per retry cycle).
    #[serde(default)]
    pub l1: crate::mem::l1::L1Stats,
    /// SM cycles in which the LSU retried one of its requests that the L1 could not take.
    #[serde(default)]
    pub lsu_stall_cycles: u64,
}

/// The totals of each of `parts` over the kernel runs `kernels` (in start order, so that a
/// device-launched run's parent comes before it).
pub fn part_reports(parts: &[Part], kernels: &[KernelReport]) -> Vec<PartReport> {
    if parts.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<PartReport> =
        parts.iter().map(|p| PartReport { name: p.name.clone(), ..PartReport::default() }).collect();
    // The part of each run: a host run's by its stream, a device run's its parent's.
    let mut part_of: Vec<Option<usize>> = Vec::with_capacity(kernels.len());
    for k in kernels {
        let part = match k.parent {
            Some(parent) => part_of.get(parent as usize).copied().flatten(),
            None => Part::of_stream(parts, k.stream),
        };
        part_of.push(part);
        if let Some(p) = part {
            out[p].warp_instructions += k.warp_instructions;
            out[p].l1.merge(&k.l1);
            out[p].lsu_stall_cycles += k.lsu_stall_cycles;
            if k.parent.is_none() && k.end_cycle > 0 {
                out[p].launches_completed += 1;
            }
        }
    }
    out
}
