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

/// The program of kernel run `run`, given the programs of the runs before it: a host run's by
/// its stream, a device run's its parent's; [`NO_PART`] for a run of no program.
pub fn part_of_run(parts: &[Part], run: &KernelReport, earlier: &[u8]) -> u8 {
    let part = match run.parent {
        Some(parent) => earlier.get(parent as usize).copied().filter(|&p| p != NO_PART).map(usize::from),
        None => Part::of_stream(parts, run.stream),
    };
    part.map_or(NO_PART, |p| p.min(NO_PART as usize - 1) as u8)
}

/// Each kernel run's program as one byte ([`NO_PART`] for none), for the page to colour a
/// co-run's blocks by program even for the runs the report only totals; empty for one program.
pub fn run_parts(parts: &[Part], kernels: &[KernelReport]) -> Vec<u8> {
    let mut out = Vec::new();
    if parts.is_empty() {
        return out;
    }
    for run in kernels {
        let part = part_of_run(parts, run, &out);
        out.push(part);
    }
    out
}

/// [`run_parts`]'s mark of a run of no program.
pub const NO_PART: u8 = u8::MAX;

/// Programs side by side whose counts the time series keeps per window; a fifth and later
/// program's are left out of the series (the report's totals still have them).
pub const SERIES_PARTS: usize = 4;

/// One program's counts over a window of the time series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartWindow {
    /// Warp instructions its kernels issued.
    pub warp_instructions: u64,
    /// SM cycles in which the LSU retried one of its requests that the L1 could not take
    /// (each in the window of its cycle, however late the engine counts a blocked request's).
    pub lsu_stall_cycles: u64,
}

impl PartWindow {
    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &PartWindow) {
        self.warp_instructions += other.warp_instructions;
        self.lsu_stall_cycles += other.lsu_stall_cycles;
    }
}

/// The programs' warp instructions so far: each run's added to its program's (`run_parts` as
/// [`run_parts`] gives them, run for run).
pub fn part_instructions(run_parts: &[u8], kernels: &[KernelReport]) -> [u64; SERIES_PARTS] {
    let mut totals = [0; SERIES_PARTS];
    for (run, &part) in kernels.iter().zip(run_parts) {
        if let Some(t) = totals.get_mut(part as usize) {
            *t += run.warp_instructions;
        }
    }
    totals
}

/// The totals of each of `parts` over the kernel runs `kernels` (in start order, so that a
/// device-launched run's parent comes before it).
pub fn part_reports(parts: &[Part], kernels: &[KernelReport]) -> Vec<PartReport> {
    if parts.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<PartReport> =
        parts.iter().map(|p| PartReport { name: p.name.clone(), ..PartReport::default() }).collect();
    for (k, part) in kernels.iter().zip(run_parts(parts, kernels)) {
        if let Some(p) = out.get_mut(part as usize) {
            p.warp_instructions += k.warp_instructions;
            p.l1.merge(&k.l1);
            p.lsu_stall_cycles += k.lsu_stall_cycles;
            if k.parent.is_none() && k.end_cycle > 0 {
                p.launches_completed += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;

    /// Two programs on streams 1–2 and 3, a device run whose parent is the second program's,
    /// and a run on a stream no program owns.
    #[test]
    fn each_run_belongs_to_its_stream_s_program_and_a_child_to_its_parent_s() {
        let part = |name: &str, streams: Vec<u32>| Part { name: name.into(), streams, first_buffer: 0, buffers: 0 };
        let parts = [part("backprop", vec![1, 2]), part("spmv", vec![3])];
        let run = |stream: u32, parent: Option<u32>, warp_instructions: u64| KernelReport {
            stream,
            parent,
            warp_instructions,
            end_cycle: 10,
            ..KernelReport::default()
        };
        // Run 3 is launched from the device by run 2 (on spmv's stream) into stream 0.
        let kernels = [run(1, None, 5), run(2, None, 7), run(3, None, 11), run(0, Some(2), 13), run(9, None, 17)];
        assert_eq!(run_parts(&parts, &kernels), [0, 0, 1, 1, NO_PART]);
        let totals = part_reports(&parts, &kernels);
        assert_eq!(
            totals.iter().map(|p| (p.warp_instructions, p.launches_completed)).collect::<Vec<_>>(),
            [(12, 2), (24, 1)]
        );
        assert!(run_parts(&[], &kernels).is_empty(), "one program: nothing to say");
    }
}
