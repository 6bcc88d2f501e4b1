//! The statistics of a finished run: totals, memory hierarchy, stalls, and per kernel run.

use yew::prelude::*;

use warpscope_core::stats::Report;

use crate::format::{grouped, percent};
use crate::identity::same_or_equal;

/// Props of [`StatsTable`].
#[derive(Properties)]
pub struct StatsTableProps {
    /// The run's report.
    pub report: std::rc::Rc<Report>,
}

impl PartialEq for StatsTableProps {
    fn eq(&self, other: &Self) -> bool {
        same_or_equal(&self.report, &other.report)
    }
}

/// Rows of numbers with ids the browser tests read (`stat-cycles`, `stat-l1-hit-rate`, …).
#[function_component(StatsTable)]
pub fn stats_table(props: &StatsTableProps) -> Html {
    let r = &props.report;
    let l1_fails = r.l1.failures();
    let l2_lookups = r.l2.hits + r.l2.misses;
    let s = &r.stalls;
    let scheduler_cycles = s.issued + s.no_warp + s.scoreboard + s.memory_pipeline + s.barrier + s.throttled;
    let row = |id: &'static str, label: &'static str, value: String, note: String| {
        html! { <tr><th scope="row">{ label }</th><td id={id}>{ value }</td><td class="note">{ note }</td></tr> }
    };
    html! {
        <div class="stats">
            <table class="report" id="stats">
                <caption>{ "Whole run" }</caption>
                <tbody>
                    { row("stat-cycles", "Cycles", grouped(r.cycles), String::new()) }
                    { row("stat-instructions", "Warp instructions", grouped(r.warp_instructions), String::new()) }
                    { row("stat-ipc", "IPC", format!("{:.3}", r.ipc), "warp instructions per cycle, whole GPU".into()) }
                    { row("stat-blocks", "Thread blocks", grouped(r.blocks.len() as u64), format!("{} kernel runs", r.kernels.len())) }
                    { row("stat-l1-hit-rate", "L1 hit rate", percent(r.l1.hits, r.l1.accesses),
                        format!("{} hits of {} accesses", grouped(r.l1.hits), grouped(r.l1.accesses))) }
                    { row("stat-l1-misses", "L1 misses", grouped(r.l1.misses),
                        format!("{} sector misses, {} merged into fetches in flight", grouped(r.l1.sector_misses), grouped(r.l1.hit_reserved))) }
                    { row("stat-l1-evictions", "L1 evictions", grouped(r.l1.evictions), String::new()) }
                    { row("stat-l1-fails", "L1 reservation failures", grouped(l1_fails),
                        format!("MSHR full {}, merge limit {}, miss queue {}, no way {}", grouped(r.l1.fail_mshr_entry),
                            grouped(r.l1.fail_mshr_merge), grouped(r.l1.fail_miss_queue), grouped(r.l1.fail_line_alloc))) }
                    { row("stat-l2-hit-rate", "L2 hit rate", percent(r.l2.hits, l2_lookups),
                        format!("{} hits of {} lookups", grouped(r.l2.hits), grouped(l2_lookups))) }
                    { row("stat-dram", "DRAM reads / writes", format!("{} / {}", grouped(r.dram.reads), grouped(r.dram.writes)), "lines".into()) }
                    { row("stat-dram-queue-full", "DRAM queue full", grouped(r.dram.queue_full_cycles),
                        "cycles L2 banks held a read for a full channel queue".into()) }
                    { row("stat-flits", "Interconnect flits", grouped(r.network.flits), format!("{} packets", grouped(r.network.packets))) }
                    { row("stat-stall-memory", "Memory pipeline stalls", percent(s.memory_pipeline, scheduler_cycles), "of scheduler cycles".into()) }
                    { row("stat-stall-scoreboard", "Waiting on results", percent(s.scoreboard, scheduler_cycles), "of scheduler cycles".into()) }
                    { row("stat-stall-no-warp", "No warp", percent(s.no_warp, scheduler_cycles), "of scheduler cycles".into()) }
                    { row("stat-stall-barrier", "At barriers", percent(s.barrier, scheduler_cycles), "of scheduler cycles".into()) }
                    { row("stat-stall-throttled", "Throttled", percent(s.throttled, scheduler_cycles), "of scheduler cycles".into()) }
                </tbody>
            </table>
            // Scrolls in its own frame, so it takes focus for the arrow keys to scroll it.
            <table class="report kernels" id="kernel-table" tabindex="0">
                <caption>{ "Kernel runs" }</caption>
                <thead><tr><th scope="col">{ "#" }</th><th scope="col">{ "Kernel" }</th><th scope="col">{ "Blocks" }</th>
                    <th scope="col">{ "Start" }</th><th scope="col">{ "End" }</th><th scope="col">{ "Warp instr." }</th>
                    <th scope="col">{ "Origin" }</th></tr></thead>
                <tbody>
                    { for r.kernels.iter().enumerate().take(200).map(|(i, k)| html! {
                        <tr>
                            <td>{ i }</td><td class="mono">{ &k.name }</td><td>{ grouped(k.blocks as u64) }</td>
                            <td>{ grouped(k.start_cycle) }</td><td>{ grouped(k.end_cycle) }</td>
                            <td>{ grouped(k.warp_instructions) }</td>
                            <td>{ match k.parent { Some(p) => format!("device, from run {p}"), None => format!("host, stream {}", k.stream) } }</td>
                        </tr>
                    }) }
                    if r.kernels.len() > 200 {
                        <tr><td colspan="7" class="note">{ format!("… and {} more runs (export the CSV for all)", r.kernels.len() - 200) }</td></tr>
                    }
                </tbody>
            </table>
        </div>
    }
}
