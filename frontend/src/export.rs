//! What a finished run exports: the report as JSON and its tables as CSV (the time series' CSV
//! is [`crate::csv::series_csv`]; saving goes through [`crate::download`]). Pure, tested natively.

use std::fmt::Write;

use warpscope_core::mem::l1::L1Stats;
use warpscope_core::stats::{L1Replay, Report};

/// The report as pretty JSON, exactly what `warpscope run --json` prints for the same run (for
/// a run of more than [`warpscope_core::stats::MAX_RUNS_SHOWN`] kernel runs, with the later
/// runs totalled per kernel, as the worker sent them).
pub fn report_json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|err| format!("{{\"error\": \"{err}\"}}"))
}

/// One row per thread block: kernel run, kernel name, block, SM, start, end.
pub fn blocks_csv(report: &Report) -> String {
    let mut out = String::from("kernel_run,kernel,block,sm,start_cycle,end_cycle\n");
    for b in &report.blocks {
        let name = report.run_name(b.kernel).unwrap_or("");
        let _ = writeln!(out, "{},{},{},{},{},{}", b.kernel, name, b.block, b.sm, b.start, b.end);
    }
    out
}

/// One row per kernel run (and per kernel for the runs a page's report totals) and one per
/// SM, then the totals: the statistics table as CSV. The
/// columns after the memory-pipeline stalls are the L1 hit breakdown, the loads a warp
/// policy's gate held back, the victim-tag hits (CCWS) and, for a machine whose L1 is replayed
/// with optimal replacement, the replay's Belady and LRU misses; a cell is empty where the
/// report keeps no such count for the row (victim-tag hits per kernel run, a replay per SM,
/// any replay without one).
pub fn summary_csv(report: &Report) -> String {
    let mut out = String::from(
        "scope,name,cycles_or_start,end,warp_instructions,l1_accesses,l1_hits,l1_misses,stalls_memory_pipeline,\
         l1_intra_warp_hits,l1_inter_warp_hits,l1_intra_thread_hits,gated_loads,victim_tag_hits,l1_belady_misses,\
         l1_lru_replay_misses\n",
    );
    let locality = |l1: &L1Stats| format!("{},{},{}", l1.intra_warp_hits, l1.inter_warp_hits, l1.intra_thread_hits);
    let replay = |r: Option<&L1Replay>| r.map_or(",".to_owned(), |r| format!("{},{}", r.belady_misses, r.lru_misses));
    for (i, k) in report.kernels.iter().enumerate() {
        let _ = writeln!(
            out,
            "kernel {i},{},{},{},{},,,,,{},{},,{}",
            k.name,
            k.start_cycle,
            k.end_cycle,
            k.warp_instructions,
            locality(&k.l1),
            k.gated_loads,
            replay(k.l1_replay.as_ref())
        );
    }
    // Runs the page's report totals per kernel ([`Report::run_groups`]): one row each, whose
    // start and end are the earliest start and the latest end.
    for g in &report.run_groups {
        let _ = writeln!(
            out,
            "{} runs totalled,{},{},{},{},,,,,{},{},,,",
            g.runs,
            g.name,
            g.first_start,
            g.last_end,
            g.warp_instructions,
            locality(&g.l1),
            g.gated_loads
        );
    }
    for (i, sm) in report.sms.iter().enumerate() {
        let _ = writeln!(
            out,
            "sm {i},,,,{},{},{},{},{},{},{},{},,",
            sm.warp_instructions,
            sm.l1.accesses,
            sm.l1.hits,
            sm.l1.misses,
            sm.stalls.memory_pipeline,
            locality(&sm.l1),
            sm.gated_loads,
            sm.victim_tag_hits
        );
    }
    let _ = writeln!(
        out,
        "total,{},{},,{},{},{},{},{},{},{},{},{}",
        report.gpu,
        report.cycles,
        report.warp_instructions,
        report.l1.accesses,
        report.l1.hits,
        report.l1.misses,
        report.stalls.memory_pipeline,
        locality(&report.l1),
        report.gated_loads,
        report.victim_tag_hits,
        replay(report.l1_replay.as_ref())
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::stats::{BlockRecord, KernelReport, SmReport};

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
    fn a_summarised_reports_csvs_name_its_runs_and_total_them_per_kernel() {
        let child = |start| KernelReport {
            name: "child".into(),
            blocks: 1,
            start_cycle: start,
            end_cycle: start + 9,
            parent: Some(0),
            ..Default::default()
        };
        let mut r = report();
        r.kernels.extend([child(5), child(7), child(3)]);
        r.blocks.push(BlockRecord { kernel: 3, block: 0, sm: 2, start: 7, end: 16 });
        r.summarise_runs(2);
        assert_eq!(blocks_csv(&r).lines().last(), Some("3,child,0,2,7,16"), "a summarised run keeps its name");
        let csv = summary_csv(&r);
        let columns = csv.lines().next().unwrap().split(',').count();
        let row = csv.lines().find(|l| l.starts_with("2 runs totalled,")).expect(&csv);
        assert_eq!(row.split(',').count(), columns, "{row}");
        assert!(row.starts_with("2 runs totalled,child,3,16,0,"), "{row}");
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

    /// A CCWS run on a Belady machine: every new count in its place, every row as wide as the
    /// header.
    #[test]
    fn summary_csv_carries_hit_locality_gated_loads_victim_tags_and_the_replay() {
        let mut r = report();
        r.l1 =
            L1Stats { hits: 30, intra_warp_hits: 20, inter_warp_hits: 10, intra_thread_hits: 5, ..L1Stats::default() };
        r.gated_loads = 7;
        r.victim_tag_hits = 3;
        r.l1_replay = Some(L1Replay { belady_misses: 11, lru_misses: 19, ..L1Replay::default() });
        r.kernels[0].gated_loads = 7;
        r.sms = vec![SmReport { gated_loads: 7, victim_tag_hits: 3, l1: r.l1, ..SmReport::default() }];
        let csv = summary_csv(&r);
        let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
        let header = &rows[0];
        assert!(rows.iter().all(|row| row.len() == header.len()), "{csv}");
        let column = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no {name}"));
        let cell = |row: usize, name: &str| rows[row][column(name)];
        let (kernel, sm, total) = (1, 2, 3);
        assert_eq!(
            ["l1_intra_warp_hits", "l1_inter_warp_hits", "l1_intra_thread_hits"].map(|c| cell(total, c)),
            ["20", "10", "5"]
        );
        assert_eq!([cell(total, "gated_loads"), cell(total, "victim_tag_hits")], ["7", "3"]);
        assert_eq!([cell(total, "l1_belady_misses"), cell(total, "l1_lru_replay_misses")], ["11", "19"]);
        assert_eq!([cell(sm, "victim_tag_hits"), cell(sm, "l1_belady_misses")], ["3", ""], "no replay per SM");
        assert_eq!([cell(kernel, "gated_loads"), cell(kernel, "victim_tag_hits")], ["7", ""], "no VTA hits per run");
        // Without a replay its cells are empty, not zero: absence is not a count of none.
        let csv = summary_csv(&report());
        let total = csv.lines().last().unwrap();
        assert!(total.ends_with(",0,0,0,0,0,,"), "{total}");
    }

    #[test]
    fn the_json_export_carries_the_new_counts() {
        let mut r = report();
        r.gated_loads = 7;
        r.victim_tag_hits = 3;
        r.l1.intra_warp_hits = 4;
        let json: serde_json::Value = serde_json::from_str(&report_json(&r)).unwrap();
        assert_eq!((json["gated_loads"].as_u64(), json["victim_tag_hits"].as_u64()), (Some(7), Some(3)));
        assert_eq!(json["l1"]["intra_warp_hits"].as_u64(), Some(4));
        assert!(json.get("l1_replay").is_none(), "absent without a Belady replay");
    }
}
