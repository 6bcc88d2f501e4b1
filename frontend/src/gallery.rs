//! The paper gallery's cards: the claim rows marked `headline` in `warpscope_core::claims`,
//! the same rows the native `warpscope reproduce` judges and `make test` checks, so a card and
//! the test cannot disagree. A card runs its claim's runs ([`plan::runs`]) in the page's
//! workers and decides the claim with [`claims::judge`], the native test's own code, over
//! their reports. Marking a row `headline` adds its card; nothing here is written per card.
//! Pure, tested natively.

use std::sync::OnceLock;

use warpscope_core::claims::{self, plan, Claim, Paper, RunSpec, Status, Variant, Verdict};
use warpscope_core::config::presets;
use warpscope_core::library;
use warpscope_core::{ConfigError, RunOptions};
use warpscope_wasm::protocol::{CoRunner, ReportDetail, SimulateJob};

use crate::state::RunView;

/// One card: a headline claim and the runs it needs (none while it is pending).
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// The row.
    pub claim: &'static Claim,
    /// Its runs, workload by workload, each under every variant ([`plan::index`] finds one).
    pub runs: Vec<RunSpec>,
}

impl Card {
    fn new(claim: &'static Claim) -> Card {
        Card { claim, runs: if claim.runs() { plan::runs(claim) } else { Vec::new() } }
    }

    /// The element id of the card (`card-ccws-5.2-13`).
    pub fn element_id(&self) -> String {
        format!("card-{}", self.claim.id)
    }

    /// Whether the card can be reproduced (its row is not pending).
    pub fn runnable(&self) -> bool {
        !self.runs.is_empty()
    }
}

/// Every card: the headline rows, in the rows' order (paper by paper).
pub fn cards() -> &'static [Card] {
    static CARDS: OnceLock<Vec<Card>> = OnceLock::new();
    CARDS.get_or_init(|| claims::all().filter(|c| c.headline).map(Card::new).collect())
}

/// The cards grouped by paper, in [`Paper::ALL`] order: each paper with at least one card,
/// and the indices (into [`cards`]) of its cards.
pub fn by_paper() -> Vec<(Paper, Vec<usize>)> {
    let cards = cards();
    Paper::ALL
        .into_iter()
        .map(|paper| (paper, (0..cards.len()).filter(|&i| cards[i].claim.paper == paper).collect::<Vec<_>>()))
        .filter(|(_, indices)| !indices.is_empty())
        .collect()
}

/// The worker's job for one run: exactly what `RunSpec::simulate` runs natively (the same
/// compile, machine, policies and cycle limit), without snapshots for playback.
pub fn job(spec: &RunSpec) -> Result<SimulateJob, ConfigError> {
    // Programs side by side: the first is the kernel file, the rest its co-runners, each with
    // the row's defines (as `library::program` gives them to every part).
    let mut parts = spec.workload.split('+').map(str::trim);
    let first = parts.next().unwrap_or_default();
    let co_runners: Vec<CoRunner> =
        parts.map(|id| CoRunner { workload: id.to_string(), defines: spec.defines() }).collect();
    Ok(SimulateJob {
        source: library::by_id(first).map_or("", |w| w.source).to_string(),
        name: (!co_runners.is_empty()).then(|| first.to_string()),
        co_runners,
        defines: spec.defines(),
        config: spec.config()?,
        policies: spec.policies(),
        max_cycles: RunOptions::default().max_cycles,
        snapshot_every: 0,
        heat_sm: 0,
        detail: ReportDetail::Totals,
    })
}

/// Where a card's runs stand, as a whole.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// Nothing run yet (or the card is pending).
    NotRun,
    /// Runs wait or run.
    Running {
        /// Runs finished.
        done: usize,
        /// Runs on a worker now.
        running: usize,
        /// Share of the card's work done, 0..=1 (finished runs count whole, running ones by
        /// their blocks done).
        fraction: f64,
    },
    /// Stopped by the person before every run finished.
    Cancelled,
    /// A run failed (or stopped at its cycle limit): the claim cannot be judged.
    Failed(String),
    /// Every run finished: the claim judged from their reports.
    Judged(Verdict),
}

/// Where `card` stands given its runs' views (index for index with `card.runs`).
pub fn progress(card: &Card, runs: &[RunView]) -> Progress {
    if !card.runnable() || runs.len() != card.runs.len() {
        return Progress::NotRun;
    }
    let failed = runs.iter().zip(&card.runs).find_map(|(run, spec)| match run {
        RunView::Failed { message, .. } => Some(format!("{}: {message}", spec.workload)),
        RunView::Finished(result) => {
            result.stopped_early.as_ref().map(|why| format!("{} did not finish: {why}", spec.command()))
        }
        _ => None,
    });
    if let Some(message) = failed {
        return Progress::Failed(message);
    }
    let done = runs.iter().filter(|r| r.result().is_some()).count();
    if runs.iter().any(RunView::busy) {
        let running = runs.iter().filter(|r| matches!(r, RunView::Running { .. })).count();
        let work: f64 = runs.iter().map(RunView::done_share).sum();
        return Progress::Running { done, running, fraction: work / runs.len() as f64 };
    }
    if done == runs.len() {
        return Progress::Judged(verdict(card, runs));
    }
    if runs.iter().any(|r| matches!(r, RunView::Cancelled { .. })) {
        return Progress::Cancelled;
    }
    Progress::NotRun
}

/// The claim decided from the runs' reports, by the same `judge` and `Metric::measure` the
/// native test uses. A run not finished is a missing measurement (its check fails).
pub fn verdict(card: &Card, runs: &[RunView]) -> Verdict {
    claims::judge_reports(card.claim, &|i| runs.get(i).and_then(RunView::result).map(|r| &*r.report))
}

/// Whether `verdict` is what the row records — a `Pass` that holds, a `KnownFailure` that
/// does not — as the native test requires. `Err` says how it differs.
pub fn agrees(claim: &Claim, verdict: &Verdict) -> Result<(), String> {
    if claim.status.confirmed_by(verdict.holds) {
        return Ok(());
    }
    Err(match claim.status {
        Status::Pass => "the row records a pass, but here the claim does not hold".into(),
        _ => "the row records a known failure, but here the claim holds".into(),
    })
}

/// The machine preset's name (`ccws-fermi` → its label), or the id if there is none.
pub fn machine_name(id: &str) -> String {
    presets::by_id(id).map_or_else(|| id.to_string(), |p| p.label.to_string())
}

/// The workloads, with their sizes where the row sets one: `hotspot (size 64), nw`.
pub fn workloads(claim: &Claim) -> String {
    let names: Vec<String> = claim
        .workloads
        .iter()
        .map(|w| {
            let mut notes: Vec<String> = Vec::new();
            if let Some(size) = w.size {
                let unit = library::by_id(w.id).map_or("", |e| e.size.unit);
                notes.push(format!("{size}{}{unit}", if unit.is_empty() { "" } else { " " }));
            }
            notes.extend(w.defines.iter().map(|(name, value)| format!("{name}={value}")));
            if !w.kernels.is_empty() {
                notes.push(format!("measured over {}", w.kernels.join(", ")));
            }
            if notes.is_empty() {
                w.name().to_string()
            } else {
                format!("{} ({})", w.name(), notes.join(", "))
            }
        })
        .collect();
    names.join(", ")
}

/// What a variant changes, as `warpscope run` takes it: `--tb rr --warp lrr --set
/// l1.size_bytes=262144`.
pub fn variant_flags(variant: &Variant) -> String {
    let mut flags = format!("--tb {} --warp {}", variant.tb, variant.warp);
    for (path, value) in variant.settings {
        flags.push_str(&format!(" --set {path}={value}"));
    }
    for (name, value) in variant.defines {
        flags.push_str(&format!(" -D {name}={value}"));
    }
    flags
}

/// The settings every run of the claim changes from the preset: `l1.size_bytes=262144, …`.
pub fn settings(claim: &Claim) -> String {
    let all: Vec<String> = claim.settings.iter().map(|(path, value)| format!("{path}={value}")).collect();
    all.join(", ")
}

/// The metric the card's run table shows: its first check's.
pub fn table_metric(claim: &Claim) -> Option<claims::Metric> {
    claim.checks.first().map(|c| c.metric)
}

/// `seen` split where the judge joined its workloads' or groups' lines (`; `).
pub fn seen_parts(seen: &str) -> Vec<&str> {
    seen.split("; ").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::RunResult;
    use std::rc::Rc;
    use warpscope_core::stats::Report;

    fn card(id: &str) -> &'static Card {
        cards().iter().find(|c| c.claim.id == id).unwrap_or_else(|| panic!("no card {id}"))
    }

    fn finished(report: Report) -> RunView {
        RunView::Finished(Rc::new(RunResult {
            buffers: Rc::default(),
            ran_on: (0, 0),
            report: Rc::new(report),
            snapshots: Rc::default(),
            elapsed_ms: 1.0,
            stopped_early: None,
            job: None,
        }))
    }

    /// A report whose IPC is `ipc` (1000 cycles), also over the kernels the rows measure
    /// bfs and memcached by.
    fn ipc(ipc: f64) -> Report {
        let instructions = (ipc * 1000.0) as u64;
        let run = |name: &str| warpscope_core::stats::KernelReport {
            name: name.into(),
            end_cycle: 999,
            warp_instructions: instructions,
            ..Default::default()
        };
        Report {
            cycles: 1000,
            warp_instructions: instructions,
            kernels: vec![run("bfs_visit"), run("memc_get")],
            ..Report::default()
        }
    }

    #[test]
    fn the_cards_are_exactly_the_headline_rows_grouped_by_paper() {
        let ids: Vec<&str> = cards().iter().map(|c| c.claim.id).collect();
        let headline: Vec<&str> = claims::all().filter(|c| c.headline).map(|c| c.id).collect();
        assert_eq!(ids, headline);
        assert!(ids.contains(&"ccws-5.2-13") && ids.contains(&"ccws-5.2-7"));
        let groups = by_paper();
        let flat: Vec<usize> = groups.iter().flat_map(|(_, cards)| cards.clone()).collect();
        assert_eq!(flat, (0..cards().len()).collect::<Vec<_>>(), "every card once, in paper order");
        for (paper, indices) in &groups {
            assert!(indices.iter().all(|&i| cards()[i].claim.paper == *paper));
        }
        let mut elements: Vec<String> = cards().iter().map(Card::element_id).collect();
        elements.sort();
        elements.dedup();
        assert_eq!(elements.len(), cards().len(), "element ids are unique");
    }

    #[test]
    fn a_pending_card_has_no_runs_and_a_run_card_every_workload_under_every_variant() {
        // Every row runs now: a pending one is made up for the test.
        let row = claims::by_id("cke-7.2-6").expect("a row");
        let pending: &'static Claim = Box::leak(Box::new(Claim { status: Status::Pending("a mechanism"), ..*row }));
        let pending = Card::new(pending);
        assert!(!pending.runnable() && pending.runs.is_empty());
        assert_eq!(progress(&pending, &[]), Progress::NotRun);
        let two = card("ccws-5.2-13");
        assert_eq!(two.runs.len(), 8, "4 workloads × 2 variants");
        assert_eq!(card("ccws-5.2-7").runs.len(), 48, "4 workloads × 12 variants");
        assert_eq!(
            card("ciao-8-3").runs.len(),
            70,
            "7 workloads × GTO, CCWS, the three CIAOs, two with the XOR index and three examining every warp"
        );
        assert_eq!(two.runs[plan::index(two.claim, 2, 1)].workload, "memcached");
        assert_eq!(two.runs[1].settings, [("l1.size_bytes", "262144")]);
    }

    #[test]
    fn a_runs_job_is_what_the_native_runner_simulates_without_snapshots() {
        let spec = &card("ccws-5.2-13").runs[1];
        let job = job(spec).expect("a valid machine");
        assert_eq!(job.source, spec.source());
        assert_eq!(job.defines, spec.defines());
        assert_eq!(job.config, spec.config().unwrap());
        assert_eq!(job.config.l1.size_bytes, 262_144);
        assert_eq!(job.policies, spec.policies());
        assert_eq!(job.max_cycles, RunOptions::default().max_cycles, "the native run's cycle limit");
        assert_eq!(job.snapshot_every, 0);
    }

    #[test]
    fn the_card_is_judged_by_the_claims_own_judge_once_every_run_finished() {
        let card = card("ccws-5.2-13");
        // Variant 1 (8× L1) over variant 0 (LRR): 3.5×, 3×, 1.5×, 4×.
        let ratios = [(1.0, 3.5), (1.0, 3.0), (2.0, 3.0), (0.5, 2.0)];
        let mut runs: Vec<RunView> = ratios.iter().flat_map(|&(a, b)| [finished(ipc(a)), finished(ipc(b))]).collect();
        let Progress::Judged(verdict) = progress(card, &runs) else { panic!("{:?}", progress(card, &runs)) };
        assert!(!verdict.holds, "memcached gains only 1.5×");
        assert_eq!(
            verdict.checks[0].seen,
            "bfs: LRR, 8× L1/LRR = 3.50; kmeans: LRR, 8× L1/LRR = 3.00; memcached: LRR, 8× L1/LRR = 1.50; \
             gc: LRR, 8× L1/LRR = 4.00"
        );
        assert_eq!(seen_parts(&verdict.checks[0].seen).len(), 4);
        assert!(agrees(card.claim, &verdict).is_ok(), "the row is a known failure");
        runs[5] = finished(ipc(8.0));
        let Progress::Judged(verdict) = progress(card, &runs) else { panic!() };
        assert!(verdict.holds);
        assert!(agrees(card.claim, &verdict).is_err(), "a known failure that holds is said so");
    }

    #[test]
    fn progress_counts_finished_and_running_runs_and_a_failure_stops_the_judging() {
        let card = card("ccws-5.2-13");
        let mut runs = vec![RunView::Queued; 8];
        runs[0] = finished(ipc(1.0));
        runs[1] = RunView::Running {
            id: 2,
            cycle: 10,
            fraction: 0.5,
            started_ms: 0.0,
            latest_ms: 1.0,
            snapshots: Rc::default(),
        };
        assert_eq!(progress(card, &runs), Progress::Running { done: 1, running: 1, fraction: 1.5 / 8.0 });
        runs[1] = RunView::Cancelled { cycle: 10 };
        for r in &mut runs[2..] {
            *r = RunView::Idle;
        }
        assert_eq!(progress(card, &runs), Progress::Cancelled);
        runs[4] = RunView::Failed { message: "The worker crashed.".into(), field: None };
        assert_eq!(progress(card, &runs), Progress::Failed("memcached: The worker crashed.".into()));
        let stopped = RunView::Finished(Rc::new(RunResult {
            buffers: Rc::default(),
            ran_on: (0, 0),
            report: Rc::new(ipc(1.0)),
            snapshots: Rc::default(),
            elapsed_ms: 1.0,
            stopped_early: Some("the cycle limit".into()),
            job: None,
        }));
        let all_stopped = vec![stopped; 8];
        assert!(matches!(progress(card, &all_stopped), Progress::Failed(m) if m.contains("did not finish")));
    }

    #[test]
    fn the_set_up_reads_like_the_command_line() {
        let card = card("ccws-5.2-13");
        assert_eq!(
            workloads(card.claim),
            "bfs (GRAPH=uniform, EDGES_PER_VERTEX=16, measured over bfs_visit, bfs_mark), \
             kmeans (60000 points, BLOCK=256, ITERATIONS=1), memcached (measured over memc_get), gc"
        );
        assert_eq!(variant_flags(&card.claim.variants[1]), "--tb rr --warp lrr --set l1.size_bytes=262144");
        assert_ne!(machine_name("ccws-fermi"), "ccws-fermi", "a preset's label");
        assert_eq!(machine_name("gtx9000"), "gtx9000");
        assert_eq!(table_metric(card.claim), Some(claims::Metric::Ipc));
    }
}
