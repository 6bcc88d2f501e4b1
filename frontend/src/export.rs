//! What a finished run exports: the report as JSON and its tables as CSV (the time series' CSV
//! is [`crate::csv::series_csv`]; saving goes through [`crate::download`]). Pure, tested natively.

use std::fmt::Write;

use warpscope_core::stats::Report;

/// The report as pretty JSON, exactly what `warpscope run --json` prints for the same run.
pub fn report_json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|err| format!("{{\"error\": \"{err}\"}}"))
}

/// One row per thread block: kernel run, kernel name, block, SM, start, end.
pub fn blocks_csv(report: &Report) -> String {
    let mut out = String::from("kernel_run,kernel,block,sm,start_cycle,end_cycle\n");
    for b in &report.blocks {
        let name = report.kernels.get(b.kernel as usize).map_or("", |k| k.name.as_str());
        let _ = writeln!(out, "{},{},{},{},{},{}", b.kernel, name, b.block, b.sm, b.start, b.end);
    }
    out
}

/// One row per kernel run and one per SM, then the totals: the statistics table as CSV.
pub fn summary_csv(report: &Report) -> String {
    let mut out = String::from(
        "scope,name,cycles_or_start,end,warp_instructions,l1_accesses,l1_hits,l1_misses,stalls_memory_pipeline\n",
    );
    for (i, k) in report.kernels.iter().enumerate() {
        let _ = writeln!(out, "kernel {i},{},{},{},{},,,,", k.name, k.start_cycle, k.end_cycle, k.warp_instructions);
    }
    for (i, sm) in report.sms.iter().enumerate() {
        let _ = writeln!(
            out,
            "sm {i},,,,{},{},{},{},{}",
            sm.warp_instructions, sm.l1.accesses, sm.l1.hits, sm.l1.misses, sm.stalls.memory_pipeline
        );
    }
    let _ = writeln!(
        out,
        "total,{},{},,{},{},{},{},{}",
        report.gpu,
        report.cycles,
        report.warp_instructions,
        report.l1.accesses,
        report.l1.hits,
        report.l1.misses,
        report.stalls.memory_pipeline
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::stats::{BlockRecord, KernelReport};

    fn report() -> Report {
        Report {
            gpu: "test".into(),
            cycles: 100,
            warp_instructions: 40,
            kernels: vec![KernelReport {
                name: "step".into(),
                blocks: 2,
                end_cycle: 100,
                warp_instructions: 40,
                ..Default::default()
            }],
            blocks: vec![
                BlockRecord { kernel: 0, block: 1, sm: 1, start: 0, end: 60 },
                BlockRecord { kernel: 0, block: 0, sm: 0, start: 0, end: 90 },
            ],
            ..Default::default()
        }
    }

    #[test]
    fn blocks_csv_has_a_row_per_block_in_report_order() {
        let csv = blocks_csv(&report());
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines, ["kernel_run,kernel,block,sm,start_cycle,end_cycle", "0,step,1,1,0,60", "0,step,0,0,0,90"]);
    }

    #[test]
    fn summary_csv_ends_with_totals_and_json_round_trips() {
        let r = report();
        assert!(summary_csv(&r).lines().last().unwrap().starts_with("total,test,100,,40,"));
        assert_eq!(serde_json::from_str::<Report>(&report_json(&r)).unwrap(), r);
    }
}
