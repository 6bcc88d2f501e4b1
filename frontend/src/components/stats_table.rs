//! The statistics of a finished run: totals, memory hierarchy, stalls, and per kernel run.
//! Rows that only mean something for some runs (the L1's hits by locality, a warp policy's
//! gate and victim tags, the Belady replay) appear where they do ([`Shown`]).

use yew::prelude::*;

use warpscope_core::mem::l1::L1Stats;
use warpscope_core::sched::tb::steal::StealStats;
use warpscope_core::sched::warp::{WarpPolicy, WarpScheduler};
use warpscope_core::stats::blocking::MemoryBlocking;
use warpscope_core::stats::energy::Energy;
use warpscope_core::stats::{LaunchStats, NetworkStats, Report};

use crate::format::{grouped, percent};
use crate::identity::same_or_equal;

/// Props of [`StatsTable`].
#[derive(Properties)]
pub struct StatsTableProps {
    /// The run's report.
    pub report: std::rc::Rc<Report>,
    /// The warp policy spec it ran under, when known.
    #[prop_or_default]
    pub warp_policy: Option<AttrValue>,
}

impl PartialEq for StatsTableProps {
    fn eq(&self, other: &Self) -> bool {
        same_or_equal(&self.report, &other.report) && self.warp_policy == other.warp_policy
    }
}

/// Which of the rows that only some runs have a run shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// The L1's hits split by whose line they found: any run with L1 hits (with none, there
    /// is nothing to split).
    pub hit_locality: bool,
    /// Loads the warp policy's gate held back: under a policy that gates loads by class
    /// (CCWS), where zero says that nothing was throttled, or wherever the count is not zero.
    /// A warp limit (SWL) holds warps back by not picking them, never by the gate: its
    /// throttling is the "Throttled" stall row's.
    pub gated_loads: bool,
    /// Victim-tag hits: under a policy that keeps victim tags (CCWS, CIAO), where zero says
    /// that no lost locality was detected, or wherever the count is not zero. Other policies
    /// have no tags, and a row of zeros would suggest they looked.
    pub victim_tags: bool,
    /// The shared-memory cache's loads: under a policy that redirects loads there (CIAO-P,
    /// CIAO-C), or wherever one was redirected.
    pub smc: bool,
    /// Loads that went to L2 without allocating in the L1: under a policy that has warps
    /// bypass it (statPCAL), or wherever one did.
    pub bypass: bool,
    /// The Belady replay: when the report has one (`l1.replacement = Belady`).
    pub replay: bool,
}

impl Shown {
    /// The rows for `report`, run under warp policy `warp_policy` (a spec) if known.
    pub fn of(report: &Report, warp_policy: Option<&str>) -> Shown {
        // The policy's type, not its name, says what it has.
        let policy = warp_policy.and_then(|spec| WarpPolicy::from_spec(spec).ok());
        let ccws = matches!(policy, Some(WarpPolicy::Ccws(_)));
        let tags = ccws || matches!(policy, Some(WarpPolicy::CiaoP(_) | WarpPolicy::CiaoT(_) | WarpPolicy::CiaoC(_)));
        let redirects = policy.as_ref().is_some_and(|p| p.smc().is_some());
        let l1 = &report.l1;
        Shown {
            hit_locality: l1.hits > 0,
            gated_loads: ccws || report.gated_loads > 0,
            victim_tags: tags || report.victim_tag_hits > 0,
            smc: redirects || l1.redirected_loads() > 0,
            bypass: matches!(policy, Some(WarpPolicy::StatPcal(_))) || l1.bypassed > 0,
            replay: report.l1_replay.is_some(),
        }
    }
}

/// The report's active warps per SM, averaged over the run's cycles.
fn active_warps(r: &Report) -> String {
    let warp_cycles: u64 = r.sms.iter().map(|s| s.active_warp_cycles).sum();
    match r.cycles * r.sms.len() as u64 {
        0 => "–".to_owned(),
        sm_cycles => format!("{:.1}", warp_cycles as f64 / sm_cycles as f64),
    }
}

/// Rows of numbers with ids the browser tests read (`stat-cycles`, `stat-l1-hit-rate`, …).
#[function_component(StatsTable)]
pub fn stats_table(props: &StatsTableProps) -> Html {
    let r = &props.report;
    let shown = Shown::of(r, props.warp_policy.as_deref());
    let l1_fails = r.l1.failures();
    let mpki = |misses: u64| match r.warp_instructions {
        0 => "–".to_owned(),
        n => format!("{:.1} per thousand warp instructions", 1000.0 * misses as f64 / n as f64),
    };
    let l2_lookups = r.l2.hits + r.l2.misses;
    let s = &r.stalls;
    let scheduler_cycles = s.total();
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
                    { row("stat-blocks", "Thread blocks", grouped(r.blocks_finished), format!("{} kernel runs", grouped(r.runs_total()))) }
                    { row("stat-l1-hit-rate", "L1 hit rate", percent(r.l1.hits + r.l1.owned_writes, r.l1.accesses),
                        l1_hits_note(&r.l1)) }
                    if shown.hit_locality {
                        { row("stat-l1-intra-warp", "L1 hits on the warp's own lines", grouped(r.l1.intra_warp_hits),
                            format!("{} of hits (intra-warp); {} by a thread that had touched the line before (intra-thread)",
                                percent(r.l1.intra_warp_hits, r.l1.hits), grouped(r.l1.intra_thread_hits))) }
                        { row("stat-l1-inter-warp", "L1 hits on other warps' lines", grouped(r.l1.inter_warp_hits),
                            format!("{} of hits (inter-warp: the line was brought in by another warp)",
                                percent(r.l1.inter_warp_hits, r.l1.hits))) }
                    }
                    { row("stat-l1-misses", "L1 misses", grouped(r.l1.misses),
                        format!("{} sector misses, {} merged into fetches in flight", grouped(r.l1.sector_misses), grouped(r.l1.hit_reserved))) }
                    if let (true, Some(replay)) = (shown.replay, &r.l1_replay) {
                        { row("stat-l1-belady-misses", "L1 misses, optimal replacement", grouped(replay.belady_misses),
                            format!("{}; Belady's MIN on the run's own L1 access stream ({} loads), replayed after the run",
                                mpki(replay.belady_misses), grouped(replay.loads))) }
                        { row("stat-l1-lru-replay-misses", "L1 misses, LRU replay", grouped(replay.lru_misses),
                            format!("{}; the same stream replayed with LRU, against which Belady's gain is measured",
                                mpki(replay.lru_misses))) }
                    }
                    { row("stat-l1-evictions", "L1 evictions", grouped(r.l1.evictions), String::new()) }
                    { row("stat-l1-fails", "L1 reservation failures", grouped(l1_fails),
                        format!("MSHR full {}, merge limit {}, miss queue {}, no way {}", grouped(r.l1.fail_mshr_entry),
                            grouped(r.l1.fail_mshr_merge), grouped(r.l1.fail_miss_queue), grouped(r.l1.fail_line_alloc))) }
                    { row("stat-l2-hit-rate", "L2 hit rate", percent(r.l2.hits, l2_lookups),
                        format!("{} hits of {} lookups", grouped(r.l2.hits), grouped(l2_lookups))) }
                    { row("stat-dram", "DRAM reads / writes", format!("{} / {}", grouped(r.dram.reads), grouped(r.dram.writes)), "lines".into()) }
                    { row("stat-dram-queue-full", "DRAM queue full", grouped(r.dram.queue_full_cycles),
                        "cycles L2 banks held a read for a full channel queue".into()) }
                    { row("stat-flits", "Interconnect flits", grouped(r.network.flits), traffic_note(&r.network)) }
                    { row("stat-energy", "Dynamic energy", format!("{:.1} µJ", r.energy.total() / 1e6), energy_note(&r.energy)) }
                    if r.l1.registrations > 0 || r.l2.forwarded > 0 {
                        { row("stat-remote-l1", "Remote-L1 hits", grouped(r.l2.forwarded), format!(
                            "DeNovo: reads the home bank forwarded to the L1 that owned the data; {} registrations of written data, \
                             {} owned lines written back", grouped(r.l1.registrations), grouped(r.l1.owned_writebacks))) }
                    }
                    { row("stat-stall-memory", "Memory pipeline stalls", percent(s.memory_pipeline, scheduler_cycles), "of scheduler cycles".into()) }
                    { row("stat-stall-scoreboard", "Waiting on results", percent(s.scoreboard, scheduler_cycles), "of scheduler cycles".into()) }
                    { row("stat-stall-no-warp", "No warp", percent(s.no_warp, scheduler_cycles), "of scheduler cycles".into()) }
                    { row("stat-stall-barrier", "At barriers", percent(s.barrier, scheduler_cycles), "of scheduler cycles".into()) }
                    { row("stat-stall-throttled", "Throttled", percent(s.throttled, scheduler_cycles), "of scheduler cycles".into()) }
                    if s.device_launch > 0 {
                        { row("stat-stall-launch", "In device launch calls", percent(s.device_launch, scheduler_cycles),
                            "of scheduler cycles: every warp that could issue was stalled launching a child".into()) }
                    }
                    { row("stat-active-warps", "Active warps", active_warps(r),
                        "per SM, averaged over the run: live warps the warp policy did not hold back".into()) }
                    if shown.bypass {
                        { row("stat-l1-bypassed", "Loads past the L1", grouped(r.l1.bypassed),
                            "misses of warps without a token, sent to L2 without allocating a line".into()) }
                    }
                    if shown.gated_loads {
                        { row("stat-gated-loads", "Loads held back", grouped(r.gated_loads),
                            "global loads the warp policy's gate held back at least once (each counted once)".into()) }
                    }
                    if shown.smc {
                        { row("stat-smc-hit-rate", "Shared-memory cache hit rate",
                            percent(r.l1.smc_hits, r.l1.redirected_loads()),
                            format!("{} loads of isolated warps served from unused shared memory: {} hits, {} misses, {} lines moved from the L1",
                                grouped(r.l1.redirected_loads()), grouped(r.l1.smc_hits),
                                grouped(r.l1.smc_misses), grouped(r.l1.smc_migrations))
                                + &if r.l1.smc_returns > 0 {
                                    format!("; {} lines moved back to the L1 by other warps' loads", grouped(r.l1.smc_returns))
                                } else {
                                    String::new()
                                }) }
                    }
                    if shown.victim_tags {
                        { row("stat-vta-hits", "Victim-tag hits", grouped(r.victim_tag_hits),
                            "misses on a line in the missing warp's own victim tags: locality it lost to other warps".into()) }
                    }
                    if let Some(s) = &r.steal {
                        { row("stat-steals", "Blocks stolen", grouped(s.steals_from_queues + s.steals_from_chunks), steal_note(s)) }
                    }
                </tbody>
            </table>
            if !r.launches.is_empty() {
                { launch_table(&r.launches) }
            }
            if let Some(b) = &r.memory_blocking {
                { blocking_table(b, r) }
            }
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
                        <tr><td colspan="7" class="note">{ format!("… and {} more runs (export the CSV for all)", grouped(r.kernels.len() as u64 - 200)) }</td></tr>
                    }
                    if !r.run_groups.is_empty() {
                        <tr><td colspan="7" class="note" id="run-groups-note">{ format!(
                            "The page keeps the first {} runs whole and totals the other {} per kernel (the CLI's --json has every run):",
                            grouped(r.kernels.len() as u64),
                            grouped(r.runs_total() - r.kernels.len() as u64)
                        ) }</td></tr>
                    }
                    { for r.run_groups.iter().map(|g| html! {
                        <tr class="run-group">
                            <td>{ "…" }</td><td class="mono">{ &g.name }</td><td>{ grouped(g.blocks) }</td>
                            <td>{ grouped(g.first_start) }</td>
                            <td>{ if g.last_end == 0 { "running".to_owned() } else { grouped(g.last_end) } }</td>
                            <td>{ grouped(g.warp_instructions) }</td>
                            <td>{ runs_origin(g.runs, g.device_runs) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// Who held up whose memory instructions at the LSU among the co-running kernels: a row per
/// kernel that waited, a column per kernel whose access held the LSU, in SM cycles (each cell's
/// raw number in `data-value` for the browser tests).
fn blocking_table(b: &MemoryBlocking, r: &Report) -> Html {
    let sm_cycles = r.cycles * r.sms.len() as u64;
    let turned_away = |k: usize| {
        let l1 = b.l1_of(k, &r.kernels);
        let per_access = if l1.accesses == 0 { 0.0 } else { l1.failures() as f64 / l1.accesses as f64 };
        let causes = [
            ("line allocation", l1.fail_line_alloc),
            ("MSHR", l1.fail_mshr_entry),
            ("MSHR merge", l1.fail_mshr_merge),
            ("miss queue", l1.fail_miss_queue),
        ];
        let causes: Vec<String> =
            causes.iter().filter(|(_, n)| *n > 0).map(|(c, n)| format!("{c} {}", grouped(*n))).collect();
        (format!("{per_access:.2} per access"), causes.join(", "), l1.failures())
    };
    html! {
        <table class="report blocking" id="memory-blocking">
            <caption>{ "Memory instructions held back at the load-store unit" }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "Ready memory instruction of" }</th>
                    { for b.kernels.iter().map(|k| html! { <th scope="col">{ format!("behind {}", k.label()) }</th> }) }
                    <th scope="col">{ "Its requests turned away by the L1" }</th>
                </tr>
            </thead>
            <tbody>
                { for b.kernels.iter().zip(&b.waited).enumerate().map(|(v, (k, row))| html! {
                    <tr>
                        <th scope="row">{ k.label() }</th>
                        { for row.iter().enumerate().map(|(h, &n)| html! {
                            <td id={format!("blocked-{v}-{h}")} data-value={n.to_string()}
                                title={format!("{} of the SMs' cycles", percent(n, sm_cycles))}>{ grouped(n) }</td>
                        }) }
                        {{
                            let (rate, causes, failures) = turned_away(v);
                            html! { <td id={format!("turned-away-{v}")} data-value={failures.to_string()} title={causes}>{ rate }</td> }
                        }}
                    </tr>
                }) }
                <tr><td colspan={(b.kernels.len() + 2).to_string()} class="note">{
                    "SM cycles in which some warp of the row's kernel had a memory instruction ready to issue that the LSU \
                     did not take, busy with an access of the column's kernel (stalled, perhaps, on a request the L1 \
                     turned away); counted whether or not its scheduler issued something else. The last column is \
                     how often the L1 turned the kernel's requests away (no line to allocate, no MSHR, the miss queue \
                     full), per access: a request turned away holds the LSU for every kernel on its SM."
                }</td></tr>
            </tbody>
        </table>
    }
}

/// What device-side launches did on their way to the dispatcher, in words; each value cell
/// carries its raw number (`data-value`) for the browser tests.
fn launch_table(l: &LaunchStats) -> Html {
    let row = |id: &'static str, label: &'static str, value: String, raw: String, note: String| {
        html! { <tr><th scope="row">{ label }</th><td id={id} data-value={raw}>{ value }</td><td class="note">{ note }</td></tr> }
    };
    let count = |id, label, n: u64, note: &str| row(id, label, grouped(n), n.to_string(), note.to_owned());
    let waits = match l.kmu_waits {
        0 => "no kernel went through the KMU".to_owned(),
        1 => format!("1 kernel went through the KMU to a KDU entry, waiting {} cycles", grouped(l.kmu_wait_cycles)),
        n => format!(
            "{} kernels went through the KMU to a KDU entry, waiting {} cycles in all",
            grouped(n),
            grouped(l.kmu_wait_cycles)
        ),
    };
    html! {
        <table class="report" id="launch-stats">
            <caption>{ "Device launches" }</caption>
            <tbody>
                { count("stat-device-launches", "Device launches", l.device_launches, "grids launched by device threads, one per launching lane") }
                { count("stat-new-kernels", "New kernels", l.new_kernels,
                    "launches that became kernels of their own with a KDU entry (every CDP launch; under DTBL, a group no running kernel matched)") }
                { count("stat-coalesced-groups", "Coalesced groups", l.coalesced_groups,
                    "DTBL groups that joined a kernel already in the KDU") }
                { count("stat-overflowed-groups", "Overflowed groups", l.overflowed_groups,
                    "DTBL groups whose SM's group table was full, queued through global memory") }
                { count("stat-kdu-peak", "KDU peak", u64::from(l.kdu_peak), "the most KDU entries in use at once") }
                { row("stat-kmu-peak", "KMU peak", grouped(u64::from(l.kmu_peak)), l.kmu_peak.to_string(),
                    format!("the most kernels waiting in the KMU at once; {waits}")) }
                { count("stat-group-table-peak", "Group table peak", u64::from(l.group_table_peak),
                    "the most DTBL group records one SM's table held at once") }
                { row("stat-launch-to-dispatch", "Launch → first block", format!("{:.0} cycles", l.mean_launch_to_dispatch()),
                    l.mean_launch_to_dispatch().to_string(), format!(
                        "mean cycles from a launch instruction to its grid's first dispatched block, over {} device-launched runs; \
                         longest {} cycles", grouped(l.children_dispatched), grouped(l.launch_to_dispatch_max))) }
                { row("stat-on-parent-sm", "Child blocks on their parent's SM", percent(l.child_blocks_on_parent_sm, l.child_blocks),
                    l.on_parent_sm_share().to_string(), format!(
                        "{} of {} blocks of device-launched runs ran on the SM their direct parent ran on",
                        grouped(l.child_blocks_on_parent_sm), grouped(l.child_blocks))) }
                { count("stat-launch-stall", "Launch stall cycles", l.launch_stall_cycles,
                    "warp-cycles launching warps spent stalled in launch calls") }
            </tbody>
        </table>
    }
}

/// What the L1 hit rate counts: under DeNovo, writes to data the L1 owns are hits too.
fn l1_hits_note(l1: &L1Stats) -> String {
    let (hits, accesses) = (grouped(l1.hits), grouped(l1.accesses));
    match l1.owned_writes {
        0 => format!("{hits} hits of {accesses} accesses"),
        w => format!("{hits} read hits and {} writes to owned data of {accesses} accesses", grouped(w)),
    }
}

/// The energy's components as shares, and DRAM's apart.
fn energy_note(e: &Energy) -> String {
    let total = e.total();
    if total <= 0.0 {
        return String::new();
    }
    let parts: Vec<String> = e.parts().iter().map(|(name, pj)| format!("{name} {:.0} %", 100.0 * pj / total)).collect();
    format!(
        "{}; DRAM apart: {:.1} µJ. Per-event figures at 45 nm, idle and static energy left out, as the IKRA paper does",
        parts.join(", "),
        e.dram / 1e6
    )
}

/// The network's packets and its traffic by class, in flits and flit-hops.
fn traffic_note(n: &NetworkStats) -> String {
    let mut note = format!("{} packets, {} flit-hops", grouped(n.packets), grouped(n.flit_hops()));
    let classes =
        [("reads", &n.read), ("writes", &n.write), ("write-backs", &n.writeback), ("ownership", &n.ownership)];
    let shown: Vec<String> = classes
        .iter()
        .filter(|(_, t)| t.packets > 0)
        .map(|(name, t)| format!("{name} {}", percent(t.flits, n.flits)))
        .collect();
    if !shown.is_empty() {
        note.push_str(&format!(" · flits: {}", shown.join(", ")));
    }
    note
}

/// Where Steal's blocks came from, and why it cut the grid afresh.
fn steal_note(s: &StealStats) -> String {
    let r = &s.rechunks;
    let mut note = format!(
        "{} from steal queues, {} from chunks; grid chunked {} ({} first launch, {} new shape, {} after a steal-queue overflow)",
        grouped(s.steals_from_queues),
        grouped(s.steals_from_chunks),
        match r.first + r.new_dimensions + r.after_overflow {
            1 => "once".to_owned(),
            n => format!("{} times", grouped(n)),
        },
        r.first,
        grouped(r.new_dimensions),
        grouped(r.after_overflow)
    );
    if s.forgotten > 0 {
        note.push_str(&format!("; {} stolen blocks not recorded by a full queue", grouped(s.forgotten)));
    }
    note
}

/// "901 120 runs, from the device" for a row of totalled runs.
fn runs_origin(runs: u64, device_runs: u64) -> String {
    let origin = match device_runs {
        0 => "from the host".to_owned(),
        d if d == runs => "from the device".to_owned(),
        d => format!("{} from the device", grouped(d)),
    };
    format!("{} runs, {origin}", grouped(runs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::mem::l1::L1Stats;
    use warpscope_core::stats::L1Replay;

    #[test]
    fn traffic_is_told_by_class_and_owned_writes_count_as_hits() {
        use warpscope_core::stats::Traffic;
        let t = |packets, flits, flit_hops| Traffic { packets, flits, flit_hops };
        let n = NetworkStats {
            packets: 40,
            flits: 200,
            read: t(30, 150, 300),
            write: t(0, 0, 0),
            writeback: t(2, 10, 25),
            ownership: t(8, 40, 75),
        };
        assert_eq!(
            traffic_note(&n),
            "40 packets, 400 flit-hops · flits: reads 75.00 %, write-backs 5.00 %, ownership 20.00 %"
        );
        let l1 = L1Stats { accesses: 20, hits: 5, owned_writes: 3, ..L1Stats::default() };
        assert_eq!(l1_hits_note(&l1), "5 read hits and 3 writes to owned data of 20 accesses");
        assert_eq!(l1_hits_note(&L1Stats { owned_writes: 0, ..l1 }), "5 hits of 20 accesses");
        let e = Energy { core: 6e6, l1: 1e6, scratchpad: 0.0, l2: 2e6, network: 1e6, dram: 2.5e6 };
        assert_eq!(
            energy_note(&e),
            "GPU core+ 60 %, L1 10 %, scratchpad 0 %, L2 20 %, network 10 %; DRAM apart: 2.5 µJ. \
             Per-event figures at 45 nm, idle and static energy left out, as the IKRA paper does"
        );
    }

    #[test]
    fn stealing_is_told_by_source_and_rechunks_by_cause() {
        use warpscope_core::sched::tb::steal::Rechunks;
        let s = StealStats {
            steals_from_queues: 3,
            steals_from_chunks: 1200,
            rechunks: Rechunks { first: 1, new_dimensions: 0, after_overflow: 0 },
            ..StealStats::default()
        };
        assert_eq!(
            steal_note(&s),
            "3 from steal queues, 1\u{202f}200 from chunks; grid chunked once (1 first launch, 0 new shape, 0 after a steal-queue overflow)"
        );
        let s = StealStats { forgotten: 2, rechunks: Rechunks { first: 1, new_dimensions: 7, after_overflow: 1 }, ..s };
        assert!(steal_note(&s).contains("grid chunked 9 times (1 first launch, 7 new shape, 1 after a steal-queue overflow); 2 stolen blocks not recorded"));
    }

    #[test]
    fn rows_follow_the_policy_and_what_the_report_has() {
        let plain = Report::default();
        assert_eq!(Shown::of(&plain, Some("gto")), Shown::default(), "nothing to split, gate or replay");
        let ccws = Shown::of(&plain, Some("ccws:k_throttle=16"));
        assert!(ccws.gated_loads && ccws.victim_tags, "CCWS's zeros mean something");
        let swl = Shown::of(&plain, Some("swl:limit=4"));
        assert!(!swl.gated_loads && !swl.victim_tags, "a warp limit has no gate and no tags");
        let ciao_t = Shown::of(&plain, Some("ciao-t"));
        assert!(ciao_t.victim_tags && !ciao_t.smc && !ciao_t.gated_loads, "CIAO-T stalls, never redirects");
        let ciao_c = Shown::of(&plain, Some("ciao-c:high_epoch=1000"));
        assert!(ciao_c.victim_tags && ciao_c.smc, "CIAO-C's zero redirected loads mean something");
        assert_eq!(Shown::of(&plain, Some("not a policy")), Shown::default());

        let counted = Report {
            l1: L1Stats { hits: 5, ..L1Stats::default() },
            gated_loads: 2,
            l1_replay: Some(L1Replay::default()),
            ..Report::default()
        };
        let shown = Shown::of(&counted, None);
        assert!(shown.hit_locality && shown.gated_loads && shown.replay, "{shown:?}");
        assert!(!shown.victim_tags && !shown.smc);
        let redirected = Report { l1: L1Stats { smc_misses: 1, ..L1Stats::default() }, ..Report::default() };
        assert!(Shown::of(&redirected, None).smc);
        assert!(Shown::of(&plain, Some("statpcal:tokens=2")).bypass, "statPCAL's zero bypasses mean something");
        let bypassed = Report { l1: L1Stats { bypassed: 1, ..L1Stats::default() }, ..Report::default() };
        assert!(Shown::of(&bypassed, None).bypass && !Shown::of(&plain, None).bypass);
    }

    #[test]
    fn active_warps_are_averaged_over_every_sm_and_cycle() {
        use warpscope_core::stats::SmReport;
        let sm = |active_warp_cycles| SmReport { active_warp_cycles, ..SmReport::default() };
        // 2 SMs over 100 cycles: 48 warps all along on one, 12 on the other for half the run.
        let r = Report { cycles: 100, sms: vec![sm(4800), sm(600)], ..Report::default() };
        assert_eq!(active_warps(&r), "27.0");
        assert_eq!(active_warps(&Report::default()), "–", "no cycles, no average");
    }
}
