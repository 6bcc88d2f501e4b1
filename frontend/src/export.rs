//! Files the person can download: the report as JSON, its tables as CSV. The CSV builders
//! are pure and tested natively; [`download`] is the one browser call.

use std::fmt::Write;

use warpscope_core::stats::Report;
use wasm_bindgen::JsCast;

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

/// Offers `contents` as a file named `name`.
pub fn download(name: &str, mime: &str, contents: &str) {
    let parts = js_sys::Array::of1(&contents.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    download_url(name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Clicks a temporary link to `url` with the download name `name`.
pub fn download_url(name: &str, url: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(link) = document.create_element("a") else { return };
    let Ok(link) = link.dyn_into::<web_sys::HtmlAnchorElement>() else { return };
    link.set_href(url);
    link.set_download(name);
    link.click();
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
