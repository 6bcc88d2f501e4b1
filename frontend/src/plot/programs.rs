//! The timeline's colouring by program, for programs run side by side: each block in its
//! program's hue (shaded across its grid, as by kernel run), so that how the scheme shares the
//! SMs between the programs shows at a glance. Read from the report's `run_parts`, which names
//! the program of every run, the runs it only totals included.

use warpscope_core::stats::parts::NO_PART;
use warpscope_core::stats::{BlockRecord, Report};

/// The program of run `run`: an index into the report's `parts`.
pub fn of_run(report: &Report, run: u32) -> Option<usize> {
    match report.run_parts.get(run as usize) {
        Some(&p) if p != NO_PART && (p as usize) < report.parts.len() => Some(p as usize),
        _ => None,
    }
}

/// The colour class of a block: its program, or one past the last for a block of no program.
pub fn class(report: &Report, block: &BlockRecord) -> u32 {
    of_run(report, block.kernel).unwrap_or(report.parts.len()) as u32
}

/// The legend: each program's name and the blocks of it drawn, in program order, then the
/// blocks of no program if there are any.
pub fn legend(report: &Report) -> Vec<(String, u64)> {
    let mut counts = vec![0u64; report.parts.len() + 1];
    for b in &report.blocks {
        counts[class(report, b) as usize] += 1;
    }
    let mut out: Vec<(String, u64)> = report.parts.iter().zip(&counts).map(|(p, &n)| (p.name.clone(), n)).collect();
    if counts[report.parts.len()] > 0 {
        out.push(("no program".into(), counts[report.parts.len()]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::stats::PartReport;

    #[test]
    fn blocks_take_their_run_s_program_and_the_legend_counts_them() {
        let part = |name: &str| PartReport { name: name.into(), ..PartReport::default() };
        let block = |kernel| BlockRecord { kernel, ..BlockRecord::default() };
        let report = Report {
            parts: vec![part("backprop"), part("spmv")],
            // Run 3 is past the list (a report never says so, but a damaged one may).
            run_parts: vec![0, 1, NO_PART],
            blocks: vec![block(0), block(1), block(1), block(2), block(3)],
            ..Report::default()
        };
        let classes: Vec<u32> = report.blocks.iter().map(|b| class(&report, b)).collect();
        assert_eq!(classes, [0, 1, 1, 2, 2]);
        assert_eq!(of_run(&report, 1), Some(1));
        assert_eq!(
            legend(&report),
            [("backprop".to_string(), 1), ("spmv".to_string(), 2), ("no program".to_string(), 2)]
        );
    }
}
