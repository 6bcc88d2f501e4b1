//! `warpscope sweep`: every point of a [`Grid`] run on every core (rayon, here only: the
//! engine stays single-threaded), one JSON line or CSV row per point written the moment it
//! finishes. Rows carry their point's index, so `warpscope merge` (or a sort) restores grid
//! order; nothing in a row depends on timing, threads or shards.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use serde_json::Value;
use warpscope_core::claims::Metric;
use warpscope_core::library;
use warpscope_core::stats::Report;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

use crate::grid::{Grid, Point, Shard};
use crate::run::{catch_ctrl_c, machine, stop_requested, STEP_CYCLES};

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// A header row, then one row per point.
    Csv,
}

#[derive(clap::Args)]
pub struct SweepArgs {
    /// Library workload ids (`warpscope workloads`), or co-runs `a+b`; repeatable and
    /// comma-separated, as every axis below.
    #[arg(long, value_name = "ID,...", required = true)]
    workload: Vec<String>,
    /// Size-knob values (default: each workload's own).
    #[arg(long, value_name = "N,...")]
    size: Vec<String>,
    /// Values of one `#define` of the workloads' files, as `run -D` takes it; each -D is an
    /// axis of its own (`-D BLOCK=128,256`).
    #[arg(short = 'D', value_name = "NAME=V1,V2,...")]
    defines: Vec<String>,
    /// Machine preset ids (default: fermi-gtx480).
    #[arg(long, value_name = "PRESET,...")]
    gpu: Vec<String>,
    /// Values of one hardware setting, as `run --set` takes it; each --set is an axis of its own.
    #[arg(long = "set", value_name = "PATH=V1,V2,...")]
    settings: Vec<String>,
    /// Thread-block scheduler specs (default: rr).
    #[arg(long, value_name = "SPEC,...")]
    tb: Vec<String>,
    /// Warp scheduler specs (default: gto); `ccws:k_throttle=4,vta_entries=8,gto` is two specs.
    #[arg(long, value_name = "SPEC,...")]
    warp: Vec<String>,
    /// Stop each run after this many cycles.
    #[arg(long, default_value_t = RunOptions::default().max_cycles)]
    max_cycles: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    format: Format,
    /// Add each run's whole report, as `run --json` prints it, to its JSON line (`report`).
    #[arg(long)]
    full: bool,
    /// Write the rows to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Runs at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Run only share I of N (1-based): the points whose index leaves I-1 divided by N.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
}

/// How a point's run ended, or why it could not start.
enum Ran {
    Done(StepOutcome, Box<Report>),
    Failed(String),
}

/// Sets up and runs one point, in slices so that Ctrl-C is seen; `None` when Ctrl-C
/// stopped it (its row is left out rather than written half done).
fn simulate(grid: &Grid, point: &Point) -> Option<Ran> {
    let setup = || -> Result<Simulation, String> {
        let config = machine(point.gpu, &point.set_flags())?;
        let workload = library::program(point.workload, point.size, &point.define_pairs(), &config)?;
        let policies = Policies { tb: point.tb.into(), warp: point.warp.into() };
        let options = RunOptions { max_cycles: grid.max_cycles, ..RunOptions::default() };
        Simulation::new(config, workload, &policies, options).map_err(|e| e.to_string())
    };
    let mut sim = match setup() {
        Ok(sim) => sim,
        Err(e) => return Some(Ran::Failed(e)),
    };
    loop {
        let outcome = sim.step(STEP_CYCLES);
        if outcome != StepOutcome::BudgetSpent {
            return Some(Ran::Done(outcome, Box::new(sim.report())));
        }
        if stop_requested() {
            return None;
        }
    }
}

/// The numbers each row reports after its outcome (null where the point could not be set up).
const MEASURES: [&str; 12] = [
    "cycles",
    "warp_instructions",
    "ipc",
    "l1_accesses",
    "l1_hits",
    "l1_misses",
    "l1_hit_rate",
    "l1_mpki",
    "l2_accesses",
    "l2_hits",
    "l2_hit_rate",
    "dram_reads",
];

/// Every column, in order (the CSV header; the keys of a JSON line, before `report`).
fn columns(grid: &Grid) -> Vec<String> {
    let mut names: Vec<String> = ["index", "total", "grid", "workload", "size"].map(String::from).to_vec();
    names.extend(grid.defines.iter().map(|(name, _)| format!("D:{name}")));
    names.push("gpu".into());
    names.extend(grid.settings.iter().map(|(path, _)| format!("set:{path}")));
    names.extend(["tb", "warp", "outcome"].map(String::from));
    names.extend(MEASURES.map(String::from));
    names.push("message".into());
    names
}

/// One row's values, in [`columns`] order.
fn cells(grid: &Grid, fingerprint: &str, point: &Point, ran: &Ran) -> Vec<Value> {
    let mut row =
        vec![point.index.into(), grid.len().into(), fingerprint.into(), point.workload.into(), point.size.into()];
    row.extend(point.defines.iter().map(|(_, value)| Value::from(*value)));
    row.push(point.gpu.into());
    row.extend(point.settings.iter().map(|(_, value)| Value::from(*value)));
    row.extend([point.tb.into(), point.warp.into()]);
    let (report, outcome, message) = match ran {
        Ran::Done(outcome, report) => {
            let name = match outcome {
                StepOutcome::Finished => "finished",
                StepOutcome::CycleLimit { .. } => "cycle-limit",
                StepOutcome::Fault { .. } => "fault",
                StepOutcome::Deadlock { .. } => "deadlock",
                StepOutcome::BudgetSpent => unreachable!("simulate steps on until the run ends"),
            };
            let message = (*outcome != StepOutcome::Finished).then(|| outcome.to_string());
            (Some(report), name, message)
        }
        Ran::Failed(why) => (None, "error", Some(why.clone())),
    };
    row.push(outcome.into());
    match report {
        Some(r) => {
            let metric = |m: Metric| m.measure(r).map_or(Value::Null, Value::from);
            row.extend([
                r.cycles.into(),
                r.warp_instructions.into(),
                r.ipc.into(),
                r.l1.accesses.into(),
                r.l1.hits.into(),
                (r.l1.misses + r.l1.sector_misses).into(),
                metric(Metric::L1HitRate),
                metric(Metric::L1Mpki),
                r.l2.accesses.into(),
                r.l2.hits.into(),
                metric(Metric::L2HitRate),
                r.dram.reads.into(),
            ]);
        }
        None => row.extend(std::iter::repeat_n(Value::Null, MEASURES.len())),
    }
    row.push(message.map_or(Value::Null, Value::from));
    row
}

/// A JSON line: the columns in order, then the whole report when asked for.
fn json_line(names: &[String], row: &[Value], report: Option<&Report>) -> String {
    let mut fields: Vec<String> =
        names.iter().zip(row).map(|(name, value)| format!("{}:{value}", Value::from(name.as_str()))).collect();
    if let Some(report) = report {
        fields.push(format!("\"report\":{}", serde_json::to_string(report).expect("reports serialise")));
    }
    format!("{{{}}}\n", fields.join(","))
}

/// A CSV field: empty for null, quoted when it holds a comma or a quote; a line break
/// becomes a space so that every row stays one line.
fn csv_field(value: &Value) -> String {
    let text = match value {
        Value::Null => return String::new(),
        Value::String(s) => s.replace(['\n', '\r'], " "),
        other => other.to_string(),
    };
    match text.contains([',', '"']) {
        true => format!("\"{}\"", text.replace('"', "\"\"")),
        false => text,
    }
}

fn csv_line(row: &[Value]) -> String {
    let fields: Vec<String> = row.iter().map(csv_field).collect();
    format!("{}\n", fields.join(","))
}

/// Where finished rows go, one whole line at a time, and the progress line on a terminal.
struct Sink {
    out: Box<dyn Write + Send>,
    /// The first write error; nothing more is started after one.
    error: Option<std::io::Error>,
    written: usize,
    failed: usize,
    total: usize,
    started: Instant,
    show: bool,
}

impl Sink {
    fn write(&mut self, line: &str) {
        if self.error.is_some() {
            return;
        }
        if self.show {
            // The rows may go to the same terminal: clear the progress line first.
            eprint!("\r\x1b[2K");
        }
        if let Err(e) = self.out.write_all(line.as_bytes()).and_then(|()| self.out.flush()) {
            self.error = Some(e);
        }
    }

    fn progress(&self) {
        if self.show {
            let seconds = self.started.elapsed().as_secs_f64();
            let rate = self.written as f64 / seconds.max(1e-9);
            eprint!(
                "\r\x1b[2K  {} of {} points  ·  {seconds:.0} s  ·  {rate:.2} points/s, about {:.0} s left  (Ctrl-C stops, keeping the rows written)",
                self.written,
                self.total,
                (self.total - self.written) as f64 / rate
            );
        }
    }
}

pub fn run(args: &SweepArgs) -> ExitCode {
    match sweep(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("warpscope: {e}");
            ExitCode::from(2)
        }
    }
}

fn sweep(args: &SweepArgs) -> Result<ExitCode, String> {
    let grid = Grid::parse(
        &args.workload,
        &args.size,
        &args.defines,
        &args.gpu,
        &args.settings,
        &args.tb,
        &args.warp,
        args.max_cycles,
    )?;
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    if args.full && args.format == Format::Csv {
        return Err("--full adds each report to its JSON line: use it with --format jsonl".into());
    }
    if args.jobs == Some(0) {
        return Err("--jobs 0: run at least one point at a time".into());
    }
    grid.check()?;
    let indices: Vec<usize> = (0..grid.len()).filter(|&i| shard.is_none_or(|s| s.contains(i))).collect();
    let out: Box<dyn Write + Send> = match &args.out {
        Some(path) => Box::new(File::create(path).map_err(|e| format!("--out {}: {e}", path.display()))?),
        None => Box::new(std::io::stdout()),
    };
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("--jobs {jobs}: cannot start the threads: {e}"))?;
    let names = columns(&grid);
    let fingerprint = grid.fingerprint();
    let sink = Mutex::new(Sink {
        out,
        error: None,
        written: 0,
        failed: 0,
        total: indices.len(),
        started: Instant::now(),
        show: std::io::stderr().is_terminal(),
    });
    let lock = || sink.lock().expect("no thread panics holding the sink");
    if args.format == Format::Csv {
        lock().write(&csv_line(&names.iter().map(|n| Value::from(n.as_str())).collect::<Vec<_>>()));
    }
    catch_ctrl_c();
    pool.install(|| {
        indices.par_iter().for_each(|&index| {
            if stop_requested() || lock().error.is_some() {
                return;
            }
            let point = grid.point(index);
            let Some(ran) = simulate(&grid, &point) else { return };
            let row = cells(&grid, &fingerprint, &point, &ran);
            let line = match (args.format, &ran) {
                (Format::Csv, _) => csv_line(&row),
                (Format::Jsonl, Ran::Done(_, report)) if args.full => json_line(&names, &row, Some(report)),
                (Format::Jsonl, _) => json_line(&names, &row, None),
            };
            let mut sink = lock();
            sink.write(&line);
            sink.written += 1;
            if let Ran::Failed(why) = &ran {
                sink.failed += 1;
                eprintln!("warpscope: point {index}: {why}");
            }
            sink.progress();
        });
    });
    let sink = sink.into_inner().expect("threads joined");
    if sink.show {
        eprint!("\r\x1b[2K");
    }
    let destination = args.out.as_ref().map_or("standard output".to_string(), |p| p.display().to_string());
    if let Some(e) = sink.error {
        return Err(format!("cannot write to {destination}: {e}"));
    }
    if stop_requested() {
        eprintln!(
            "warpscope: stopped by Ctrl-C: {} of {} points written to {destination}, each complete",
            sink.written, sink.total
        );
        return Ok(ExitCode::from(130));
    }
    if sink.failed > 0 {
        eprintln!("warpscope: {} of {} points could not be set up (outcome `error`)", sink.failed, sink.total);
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_only_when_they_must_be() {
        assert_eq!(csv_field(&Value::Null), "");
        assert_eq!(csv_field(&Value::from(0.5)), "0.5");
        assert_eq!(csv_field(&Value::from("gto")), "gto");
        assert_eq!(csv_field(&Value::from("ccws:k=4,cutoff=2")), "\"ccws:k=4,cutoff=2\"");
        assert_eq!(csv_field(&Value::from("a \"b\"\nc")), "\"a \"\"b\"\" c\"");
    }
}
