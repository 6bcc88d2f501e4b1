//! `warpscope swl-sweep`: run one workload under every static warp limit (SWL) and find the
//! best one, as the CCWS paper profiles Best-SWL: performance and L1 misses against the limit.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use warpscope_core::claims::Metric;
use warpscope_core::stats::Report;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

use crate::run::{prepare, Prepared, RunArgs};

#[derive(clap::Args)]
pub struct SwlSweepArgs {
    /// A kernel file (`.cu`); or use --workload.
    #[arg(required_unless_present = "workload", conflicts_with = "workload")]
    file: Option<std::path::PathBuf>,
    /// A library workload id (see `warpscope workloads`).
    #[arg(long)]
    workload: Option<String>,
    /// The library workload's size knob.
    #[arg(long, requires = "workload")]
    size: Option<u32>,
    /// Override a #define (repeatable): -D N=4096.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    define: Vec<String>,
    /// Machine preset id.
    #[arg(long, default_value = "ccws-fermi")]
    gpu: String,
    /// Change a hardware setting of the preset (repeatable), as `warpscope run --set`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    settings: Vec<String>,
    /// Thread-block scheduler.
    #[arg(long, default_value = "rr")]
    tb: String,
    /// The limits to run, as FIRST-LAST or a comma list (default: 1 to the SM's warp slots).
    #[arg(long)]
    limits: Option<String>,
    /// Measure only these kernels' runs (repeatable), leaving out set-up kernels.
    #[arg(long)]
    kernel: Vec<String>,
    /// Simulations run at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Print the points as JSON.
    #[arg(long)]
    json: bool,
}

/// One limit's measurements.
struct Point {
    limit: u32,
    cycles: u64,
    ipc: f64,
    l1_mpki: f64,
    l1_hit_rate: f64,
}

/// Parses a comma list of limits and FIRST-LAST ranges: `1-32`, `1,2,4,8`, `1-8,12,16`.
fn parse_limits(text: &str, slots: u32) -> Result<Vec<u32>, String> {
    let number = |s: &str| s.trim().parse::<u32>().map_err(|_| format!("`{}` is not a number of warps", s.trim()));
    let mut limits = Vec::new();
    for part in text.split(',') {
        match part.split_once('-') {
            Some((a, b)) => limits.extend(number(a)?..=number(b)?),
            None => limits.push(number(part)?),
        }
    }
    match limits.iter().find(|&&l| l == 0 || l > slots) {
        Some(bad) => Err(format!("{bad} is not between 1 and the SM's {slots} warp slots")),
        None if limits.is_empty() => Err("no limits".into()),
        None => Ok(limits),
    }
}

pub fn run(args: &SwlSweepArgs) -> ExitCode {
    let run_args = RunArgs {
        file: args.file.clone(),
        workload: args.workload.clone(),
        size: args.size,
        define: args.define.clone(),
        gpu: args.gpu.clone(),
        settings: args.settings.clone(),
        tb: args.tb.clone(),
        warp: "gto".into(),
        max_cycles: RunOptions::default().max_cycles,
        json: false,
        dump: Vec::new(),
        checksums: false,
    };
    let Prepared { config, workload } = match prepare(&run_args) {
        Ok(prepared) => prepared,
        Err(code) => return code,
    };
    let slots = config.core.max_warps_per_sm;
    let limits = match args.limits.as_deref().map_or_else(|| Ok((1..=slots).collect()), |t| parse_limits(t, slots)) {
        Ok(limits) => limits,
        Err(why) => {
            eprintln!("warpscope: --limits: {why}");
            return ExitCode::from(2);
        }
    };
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Report, String>>>> = Mutex::new(vec![None; limits.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(limits.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&limit) = limits.get(i) else { break };
                let policies = Policies { tb: args.tb.clone(), warp: format!("swl:limit={limit}") };
                let result = Simulation::new(config.clone(), workload.clone(), &policies, RunOptions::default())
                    .map_err(|e| e.to_string())
                    .and_then(|mut sim| match sim.run() {
                        StepOutcome::Finished => Ok(sim.report()),
                        outcome => Err(format!("limit {limit}: {outcome}")),
                    });
                results.lock().expect("no thread panics holding it")[i] = Some(result);
            });
        }
    });
    let kernels: Vec<&str> = args.kernel.iter().map(String::as_str).collect();
    let mut points = Vec::new();
    for (limit, result) in limits.iter().zip(results.into_inner().expect("threads joined")) {
        let report = match result.expect("every limit ran") {
            Ok(report) if kernels.is_empty() => report,
            Ok(report) => report.region(&kernels),
            Err(why) => {
                eprintln!("warpscope: {why}");
                return ExitCode::from(1);
            }
        };
        let metric = |m: Metric| m.measure(&report).unwrap_or(0.0);
        points.push(Point {
            limit: *limit,
            cycles: report.cycles,
            ipc: metric(Metric::Ipc),
            l1_mpki: metric(Metric::L1Mpki),
            l1_hit_rate: metric(Metric::L1HitRate),
        });
    }
    if args.json {
        let json: Vec<serde_json::Value> = points
            .iter()
            .map(|p| {
                serde_json::json!({
                    "limit": p.limit, "cycles": p.cycles, "ipc": p.ipc,
                    "l1_mpki": p.l1_mpki, "l1_hit_rate": p.l1_hit_rate,
                })
            })
            .collect();
        println!("{}", serde_json::Value::Array(json));
        return ExitCode::SUCCESS;
    }
    let best = points.iter().fold(&points[0], |best, p| if p.ipc > best.ipc { p } else { best });
    let widest = points.iter().max_by_key(|p| p.limit).expect("at least one limit");
    println!("static warp limit on {} (greedy-then-oldest among the allowed warps)", config.name);
    println!("{:>5}  {:>12}  {:>6}  {:>8}  {:>8}  {:>7}", "limit", "cycles", "IPC", "vs most", "L1 MPKI", "L1 hit");
    for p in &points {
        println!(
            "{:>5}  {:>12}  {:>6.3}  {:>7.2}×  {:>8.1}  {:>6.1}%{}",
            p.limit,
            p.cycles,
            p.ipc,
            p.ipc / widest.ipc.max(f64::MIN_POSITIVE),
            p.l1_mpki,
            100.0 * p.l1_hit_rate,
            if std::ptr::eq(p, best) { "  ← best" } else { "" }
        );
    }
    println!(
        "best: swl:limit={} at {:.2}× the IPC of {} warps{}",
        best.limit,
        best.ipc / widest.ipc.max(f64::MIN_POSITIVE),
        widest.limit,
        if kernels.is_empty() { String::new() } else { format!(" (measured over {})", kernels.join(", ")) }
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::parse_limits;

    #[test]
    fn limits_are_a_range_or_a_list_within_the_slots() {
        assert_eq!(parse_limits("1-4", 32), Ok(vec![1, 2, 3, 4]));
        assert_eq!(parse_limits("2, 8,32", 32), Ok(vec![2, 8, 32]));
        assert_eq!(parse_limits("1-3,12", 32), Ok(vec![1, 2, 3, 12]));
        assert_eq!(parse_limits("0-4", 32), Err("0 is not between 1 and the SM's 32 warp slots".into()));
        assert_eq!(parse_limits("4,48", 32), Err("48 is not between 1 and the SM's 32 warp slots".into()));
        assert_eq!(parse_limits("four", 32), Err("`four` is not a number of warps".into()));
        assert_eq!(parse_limits("5-4", 32), Err("no limits".into()));
    }
}
