//! `warpscope reproduce`: runs the papers' claim rows (`warpscope_core::claims`) natively on
//! every core, judges each row, and writes `REPRODUCTION.md` — or, with `--check`, fails when a
//! verdict departs from its row's recorded status or the committed file is not what the run
//! generates.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use warpscope_core::claims::{
    self, judge_reports, measure_run, plan, summary, Claim, Paper, RunSpec, Status, Summary, Verdict,
};
use warpscope_core::scalability::{ProfileKey, ProfileMemo};
use warpscope_core::stats::Report;

use crate::reproduction_md;

#[derive(clap::Args)]
pub struct ReproduceArgs {
    /// Only this paper's rows (ikra, laperm, ccws, cke, ciao).
    #[arg(long)]
    paper: Option<String>,
    /// Only this row (e.g. ccws-5.2-7); repeatable.
    #[arg(long)]
    claim: Vec<String>,
    /// Simulations run at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Print the outcome as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// List the rows and their statuses without running anything.
    #[arg(long)]
    list: bool,
    /// Do not write the report: fail if it differs from the committed one, or if any verdict
    /// differs from its row's status (what the test command runs).
    #[arg(long)]
    check: bool,
    /// The report generated from every row.
    #[arg(long, default_value = "REPRODUCTION.md")]
    output: PathBuf,
}

/// What became of one row.
pub struct Outcome {
    /// The row.
    pub claim: &'static Claim,
    /// Its verdict, unless it is pending or a run failed.
    pub verdict: Option<Verdict>,
    /// Why its runs could not all finish.
    pub failure: Option<String>,
    /// The paper's summary table measured on this row's runs, if one is: our figure for each
    /// cell, line by line.
    pub summary: Option<(&'static Summary, Vec<Vec<Option<f64>>>)>,
}

impl Outcome {
    /// Whether the verdict is what the row records: a `Pass` that holds, a `KnownFailure` that
    /// does not, or a pending row. `Err` says what differs.
    pub fn agrees(&self) -> Result<(), String> {
        let holds = self.verdict.as_ref().is_some_and(|v| v.holds);
        if self.claim.status.confirmed_by(holds) {
            return Ok(());
        }
        Err(match (&self.claim.status, &self.failure) {
            (Status::Pass, Some(why)) => format!("is recorded as Pass but a run failed: {why}"),
            (Status::Pass, None) => "is recorded as Pass but does not hold".into(),
            _ => "is recorded as a known failure but now holds: revisit the row and its reason".into(),
        })
    }
}

fn select(args: &ReproduceArgs) -> Result<Vec<&'static Claim>, String> {
    let paper = match &args.paper {
        Some(id) => Some(Paper::by_id(id).ok_or_else(|| {
            let ids: Vec<&str> = Paper::ALL.iter().map(|p| p.id()).collect();
            format!("--paper {id}: choose one of {}", ids.join(", "))
        })?),
        None => None,
    };
    for id in &args.claim {
        if claims::by_id(id).is_none() {
            return Err(format!("--claim {id}: no such row (`warpscope reproduce --list` lists them)"));
        }
    }
    Ok(claims::all()
        .filter(|c| paper.is_none_or(|p| c.paper == p))
        .filter(|c| args.claim.is_empty() || args.claim.iter().any(|id| id == c.id))
        .collect())
}

pub fn run(args: &ReproduceArgs) -> ExitCode {
    let selected = match select(args) {
        Ok(selected) => selected,
        Err(e) => {
            eprintln!("warpscope: {e}");
            return ExitCode::from(2);
        }
    };
    if args.list {
        for c in &selected {
            let status = match c.status {
                Status::Pass => "pass".to_string(),
                Status::KnownFailure(_) => "known failure".to_string(),
                Status::Pending(what) => format!("pending: {what}"),
            };
            println!("{:<14} {}  [{status}]", c.id, c.statement);
        }
        return ExitCode::SUCCESS;
    }
    let whole = selected.len() == claims::all().count();
    if args.check && !whole {
        eprintln!("warpscope: --check judges every row; drop --paper and --claim");
        return ExitCode::from(2);
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let started = Instant::now();
    let outcomes = evaluate(&selected, jobs);
    let elapsed = started.elapsed().as_secs_f64();

    if args.json {
        println!("{}", serde_json::to_string_pretty(&json(&outcomes)).expect("plain values encode"));
    } else {
        print_table(&outcomes);
    }
    let mut ok = true;
    for o in &outcomes {
        if let Err(what) = o.agrees() {
            eprintln!("warpscope: {} {what}", o.claim.id);
            ok = false;
        }
    }
    if whole {
        let text = reproduction_md::render(&outcomes);
        if args.check {
            match std::fs::read_to_string(&args.output) {
                Ok(committed) if committed == text => {}
                Ok(_) => {
                    eprintln!(
                        "warpscope: {} is not what the rows generate; run `warpscope reproduce` and commit it",
                        args.output.display()
                    );
                    ok = false;
                }
                Err(e) => {
                    eprintln!("warpscope: cannot read {}: {e}", args.output.display());
                    ok = false;
                }
            }
        } else if let Err(e) = std::fs::write(&args.output, text) {
            eprintln!("warpscope: cannot write {}: {e}", args.output.display());
            return ExitCode::from(2);
        } else {
            eprintln!("wrote {}", args.output.display());
        }
    }
    eprintln!(
        "{} rows judged in {elapsed:.1} s on {jobs} threads",
        outcomes.iter().filter(|o| o.verdict.is_some()).count()
    );
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs every run the `claims` need once (rows share runs), `jobs` at a time, and judges them.
pub fn evaluate(claims: &[&'static Claim], jobs: usize) -> Vec<Outcome> {
    let runs: Vec<Vec<RunSpec>> = claims.iter().map(|c| if c.runs() { plan::runs(c) } else { Vec::new() }).collect();
    // Each distinct run once, in a fixed order.
    let mut index: BTreeMap<&RunSpec, usize> = runs.iter().flatten().map(|spec| (spec, 0)).collect();
    for (i, slot) in index.values_mut().enumerate() {
        *slot = i;
    }
    let specs: Vec<RunSpec> = index.keys().map(|&spec| spec.clone()).collect();
    let plans: Vec<Vec<usize>> = runs.iter().map(|r| r.iter().map(|spec| index[spec]).collect()).collect();
    let reports = run_all(&specs, jobs);
    claims
        .iter()
        .zip(&plans)
        .map(|(&claim, indices)| {
            if indices.is_empty() {
                return Outcome { claim, verdict: None, failure: None, summary: None };
            }
            if let Some(Err(why)) = indices.iter().map(|&i| &reports[i]).find(|r| r.is_err()) {
                return Outcome { claim, verdict: None, failure: Some(why.clone()), summary: None };
            }
            let report = |i: usize| reports[indices[i]].as_ref().ok();
            let summary = summary::for_claim(claim.id)
                .map(|table| (table, table.measure(claim, &|w, v, metric| measure_run(claim, &report, w, v, metric))));
            Outcome { claim, verdict: Some(judge_reports(claim, &report)), failure: None, summary }
        })
        .collect()
}

/// The profile runs made so far, shared by the threads: Warped-Slicer's variants of one pair
/// profile the same programs, and each profile is made once.
#[derive(Default)]
struct SharedMemo(Mutex<Vec<(ProfileKey, u64)>>);

impl ProfileMemo for SharedMemo {
    fn recall(&self, key: &ProfileKey) -> Option<u64> {
        let made = self.0.lock().expect("no thread panics holding it");
        made.iter().find(|(k, _)| k == key).map(|&(_, instructions)| instructions)
    }

    fn remember(&self, key: ProfileKey, instructions: u64) {
        let mut made = self.0.lock().expect("no thread panics holding it");
        if !made.iter().any(|(k, _)| *k == key) {
            made.push((key, instructions));
        }
    }
}

/// Simulates `specs` on `jobs` threads, with a progress line on a terminal.
fn run_all(specs: &[RunSpec], jobs: usize) -> Vec<Result<Report, String>> {
    let memo = SharedMemo::default();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Report, String>>>> = Mutex::new(vec![None; specs.len()]);
    let progress = Progress::new(specs.len());
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(specs.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(spec) = specs.get(i) else { break };
                let result = spec.simulate_with(&memo).map(|mut report| {
                    // Rows read totals; the per-block records and the series are for the app.
                    report.blocks = Vec::new();
                    report.series.windows = Vec::new();
                    report
                });
                results.lock().expect("no thread panics holding it")[i] = Some(result);
                progress.show(done.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    progress.finish();
    results.into_inner().expect("threads joined").into_iter().map(|r| r.expect("every run ran")).collect()
}

/// A progress bar on standard error when it is a terminal; silence otherwise (logs of CI).
struct Progress {
    total: usize,
    started: Instant,
    terminal: bool,
}

impl Progress {
    fn new(total: usize) -> Self {
        Progress { total, started: Instant::now(), terminal: std::io::stderr().is_terminal() }
    }

    fn show(&self, done: usize) {
        if !self.terminal || self.total == 0 {
            return;
        }
        const WIDTH: usize = 30;
        let filled = done * WIDTH / self.total;
        let bar: String = "█".repeat(filled) + &"·".repeat(WIDTH - filled);
        let secs = self.started.elapsed().as_secs();
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{bar} {done}/{} runs  {}:{:02}", self.total, secs / 60, secs % 60);
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.terminal && self.total > 0 {
            eprintln!();
        }
    }
}

fn verdict_word(o: &Outcome) -> &'static str {
    match (&o.claim.status, &o.verdict) {
        (Status::Pending(_), _) => "pending",
        (_, None) => "run failed",
        (Status::Pass, Some(v)) if v.holds => "pass",
        (Status::Pass, Some(_)) => "FAILS",
        (Status::KnownFailure(_), Some(v)) if v.holds => "NOW HOLDS",
        (Status::KnownFailure(_), Some(_)) => "known failure",
    }
}

fn print_table(outcomes: &[Outcome]) {
    for o in outcomes {
        println!("{:<14} {:<14} {}", o.claim.id, verdict_word(o), o.claim.statement);
        if let Some(v) = &o.verdict {
            for (check, outcome) in o.claim.checks.iter().zip(&v.checks) {
                let mark = if outcome.holds { "holds" } else { "fails" };
                println!(
                    "{:<29} {} ({}): {mark}: {}",
                    "",
                    check.metric.name(),
                    check.relation.describe(),
                    outcome.seen
                );
            }
        }
        if let Some(why) = &o.failure {
            println!("{:<29} {why}", "");
        }
        if let Some((table, ours)) = &o.summary {
            println!("{:<29} the paper's averages beside ours ({}):", "", table.columns.join(" / "));
            for (line, values) in table.lines.iter().zip(ours) {
                let cells: Vec<String> = line
                    .figures
                    .iter()
                    .zip(values)
                    .map(|(f, v)| format!("{} vs {}", f.paper, v.map_or_else(|| "—".into(), |v| f.ours.show(v))))
                    .collect();
                println!("{:<31} {}: {}", "", line.quantity, cells.join(" / "));
            }
        }
    }
}

fn json(outcomes: &[Outcome]) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = outcomes
        .iter()
        .map(|o| {
            let (status, reason) = match o.claim.status {
                Status::Pass => ("pass", None),
                Status::KnownFailure(why) => ("known-failure", Some(why)),
                Status::Pending(what) => ("pending", Some(what)),
            };
            let checks: Vec<serde_json::Value> = o.verdict.as_ref().map_or_else(Vec::new, |v| {
                o.claim
                    .checks
                    .iter()
                    .zip(&v.checks)
                    .map(|(c, out)| {
                        serde_json::json!({
                            "metric": c.metric.name(),
                            "expected": c.relation.describe(),
                            "holds": out.holds,
                            "seen": out.seen,
                        })
                    })
                    .collect()
            });
            serde_json::json!({
                "id": o.claim.id,
                "paper": o.claim.paper.id(),
                "statement": o.claim.statement,
                "paper_says": o.claim.paper_says,
                "status": status,
                "reason": reason,
                "holds": o.verdict.as_ref().map(|v| v.holds),
                "agrees": o.agrees().is_ok(),
                "failure": o.failure,
                "checks": checks,
                "summary": o.summary.as_ref().map(|(table, ours)| summary_json(table, ours)),
            })
        })
        .collect();
    serde_json::json!({ "claims": rows })
}

/// A summary table as JSON: each line's quantity and, per column, the paper's figure and ours.
fn summary_json(table: &Summary, ours: &[Vec<Option<f64>>]) -> serde_json::Value {
    let lines: Vec<serde_json::Value> = table
        .lines
        .iter()
        .zip(ours)
        .map(|(line, values)| {
            let cells: Vec<serde_json::Value> = table
                .columns
                .iter()
                .zip(line.figures.iter().zip(values))
                .map(|(column, (figure, value))| {
                    serde_json::json!({ "column": column, "paper": figure.paper, "ours": value })
                })
                .collect();
            serde_json::json!({ "quantity": line.quantity, "cells": cells })
        })
        .collect();
    serde_json::json!({ "note": table.note, "lines": lines })
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::claims::CheckOutcome;

    fn outcome(status: Status, holds: Option<bool>) -> Outcome {
        let claim: &'static Claim =
            Box::leak(Box::new(Claim { status, ..*claims::by_id("ccws-5.2-7").expect("a row") }));
        let verdict = holds.map(|holds| Verdict { holds, checks: vec![CheckOutcome { holds, seen: "x".into() }] });
        Outcome { claim, verdict, failure: None, summary: None }
    }

    #[test]
    fn a_verdict_agrees_only_with_the_status_it_confirms() {
        assert!(outcome(Status::Pass, Some(true)).agrees().is_ok());
        assert!(outcome(Status::Pass, Some(false)).agrees().is_err(), "a pass that fails turns red");
        assert!(outcome(Status::Pass, None).agrees().is_err(), "a pass whose runs failed turns red");
        assert!(outcome(Status::KnownFailure("measured"), Some(false)).agrees().is_ok());
        assert!(outcome(Status::KnownFailure("measured"), Some(true)).agrees().is_err(), "a fixed failure is noticed");
        assert!(outcome(Status::Pending("a mechanism"), None).agrees().is_ok());
    }

    #[test]
    fn the_report_shows_each_verdict_beside_the_papers_number() {
        let rows = [outcome(Status::Pass, Some(false)), outcome(Status::KnownFailure("the reason"), Some(false))];
        let text = reproduction_md::render(&rows);
        assert!(text.contains("**2 claims: 1 pass, 1 known failures, 0 pending**"), "{text}");
        assert!(text.contains("**FAILS** (recorded as pass)"));
        assert!(text.contains("**known failure**: the reason"));
        assert!(text.contains("`warpscope reproduce --claim ccws-5.2-7`"));
        assert!(text.contains("HMEAN IPC peaks between 1 and 32 warps"), "the paper's number is in the row");
    }

    #[test]
    fn a_summary_table_sets_each_measured_figure_beside_the_papers() {
        let table = summary::all().iter().find(|s| s.paper == Paper::Laperm).expect("LaPerm's table");
        let mut ours: Vec<Vec<Option<f64>>> = table.lines.iter().map(|l| vec![Some(1.0); l.figures.len()]).collect();
        ours[0] = vec![Some(0.98765), Some(1.2)];
        ours[3] = vec![Some(-1.26), None];
        let mut row = outcome(Status::KnownFailure("measured"), Some(false));
        row.summary = Some((table, ours));
        let text = reproduction_md::render(&[row]);
        assert!(text.contains("### The paper's averages beside ours"), "{text}");
        assert!(text.contains("| quantity | CDP: paper | CDP: ours | DTBL: paper | DTBL: ours |"), "{text}");
        assert!(text.contains("| TB-Pri: normalised IPC | 1.04 | 0.988 | 1.13 | 1.20 |"), "{text}");
        assert!(text.contains("| TB-Pri: L1 hit rate vs RR (points) | +1.1 | -1.3 | +2.1 | — |"), "{text}");
    }
}
