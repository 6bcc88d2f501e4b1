//! `warpscope bench`: simulated warp instructions and cycles per second of wall time on the
//! standard workloads, plus the streaming workload with doubled DRAM latency (idle cycles must
//! cost nothing, so its wall time should barely move), and four blocks of fixed work on
//! machines of 15 to 1024 SMs (idle SMs must cost nothing either). With `--library`: every
//! library workload at its default size on its paper's machine, and the median throughput.

use std::process::ExitCode;
use std::time::Instant;

use warpscope_core::bench::{self, Bench};
use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::library;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Machine preset id.
    #[arg(long, default_value = "fermi-gtx480")]
    preset: String,
    /// Repetitions of each workload; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    /// Run only the workload with this name (for profiling).
    #[arg(long)]
    only: Option<String>,
    /// With --only: use the small size and print the whole report as JSON instead of timings
    /// (what the browser's determinism test compares against).
    #[arg(long, requires = "only")]
    report: bool,
    /// Instead: every library workload at its default size on its paper's machine (each
    /// category's baseline preset), then the median and the slowest in warp instructions per
    /// second against the targets (10 M and 4 M).
    #[arg(long, conflicts_with_all = ["only", "report", "preset"])]
    library: bool,
}

/// The library's throughput targets: the median, and the least any workload may reach, in
/// millions of warp instructions per second of wall time.
const LIBRARY_MEDIAN_TARGET: f64 = 10.0;
const LIBRARY_FLOOR_TARGET: f64 = 4.0;

struct Measured {
    cycles: u64,
    warp_instructions: u64,
    /// Accesses to the L1s, every SM's: a memory-bound run's cost goes with these rather than
    /// with its instructions (an uncoalesced warp load is up to 32 of them).
    l1_accesses: u64,
    seconds: f64,
}

fn measure(config: &GpuConfig, bench: &Bench, repeat: u32) -> Result<Measured, String> {
    let mut best: Option<Measured> = None;
    for _ in 0..repeat.max(1) {
        let mut sim =
            Simulation::new(config.clone(), bench.workload.clone(), &Policies::default(), RunOptions::default())
                .map_err(|e| e.to_string())?;
        let start = Instant::now();
        let outcome = sim.run();
        let seconds = start.elapsed().as_secs_f64();
        if outcome != StepOutcome::Finished {
            return Err(format!("{} did not finish: {outcome:?}", bench.name));
        }
        let report = sim.report();
        if best.as_ref().is_none_or(|b| seconds < b.seconds) {
            let l1_accesses = report.sms.iter().map(|sm| sm.l1.accesses).sum();
            best = Some(Measured {
                cycles: report.cycles,
                warp_instructions: report.warp_instructions,
                l1_accesses,
                seconds,
            });
        }
    }
    best.ok_or_else(|| "no run".into())
}

impl Measured {
    /// Millions of warp instructions per second of wall time.
    fn rate(&self) -> f64 {
        self.warp_instructions as f64 / self.seconds / 1e6
    }
}

fn row(name: &str, m: &Measured) {
    println!("{name:<24} {}", numbers(m));
}

/// The columns every table shares: cycles, warp instructions, wall seconds, M instr/s, M cyc/s,
/// IPC.
fn numbers(m: &Measured) -> String {
    format!(
        "{:>12} {:>12} {:>8.3} {:>10.2} {:>10.2} {:>6.2}",
        m.cycles,
        m.warp_instructions,
        m.seconds,
        m.rate(),
        m.cycles as f64 / m.seconds / 1e6,
        m.warp_instructions as f64 / m.cycles as f64,
    )
}

pub fn run(args: &BenchArgs) -> ExitCode {
    if args.library {
        return match library_throughput(args.repeat) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("warpscope: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let Some(preset) = presets::by_id(&args.preset) else {
        eprintln!("warpscope: unknown preset {}", args.preset);
        return ExitCode::from(2);
    };
    let config = (preset.build)();
    if args.report {
        let name = args.only.as_deref().unwrap_or_default();
        let Some(bench) = bench::by_name(name, true) else {
            eprintln!("warpscope: unknown workload {name}");
            return ExitCode::from(2);
        };
        let mut sim = match Simulation::new(config, bench.workload, &Policies::default(), RunOptions::default()) {
            Ok(sim) => sim,
            Err(e) => {
                eprintln!("warpscope: {e}");
                return ExitCode::from(2);
            }
        };
        let outcome = sim.run();
        if outcome != StepOutcome::Finished {
            eprintln!("warpscope: {name} did not finish: {outcome:?}");
            return ExitCode::FAILURE;
        }
        println!("{}", serde_json::to_string(&sim.report()).expect("reports serialise"));
        return ExitCode::SUCCESS;
    }
    if let Some(only) = &args.only {
        if !bench::standard().iter().any(|b| b.name == only.as_str()) {
            let names: Vec<&str> = bench::standard().iter().map(|b| b.name).collect();
            eprintln!("warpscope: no benchmark workload named {only}; they are {}", names.join(", "));
            return ExitCode::from(2);
        }
    }
    println!("machine: {} ({} SMs)", config.name, config.core.sm_count);
    println!(
        "{:<24} {:>12} {:>12} {:>8} {:>10} {:>10} {:>6}",
        "workload", "cycles", "warp instr", "wall s", "M instr/s", "M cyc/s", "IPC"
    );
    let mut streaming_seconds = None;
    for bench in bench::standard() {
        if args.only.as_ref().is_some_and(|only| only != bench.name) {
            continue;
        }
        match measure(&config, &bench, args.repeat) {
            Ok(m) => {
                row(bench.name, &m);
                if bench.name == "streaming" {
                    streaming_seconds = Some(m.seconds);
                }
            }
            Err(e) => {
                eprintln!("warpscope: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if args.only.is_some() {
        return ExitCode::SUCCESS;
    }
    let mut slow = config.clone();
    slow.dram.latency *= 2;
    let streaming = bench::standard().into_iter().next().expect("the standard set starts with streaming");
    match measure(&slow, &streaming, args.repeat) {
        Ok(m) => {
            row("streaming, 2× DRAM lat.", &m);
            if let Some(base) = streaming_seconds {
                println!("wall time with doubled DRAM latency: {:.2}× the baseline", m.seconds / base);
            }
        }
        Err(e) => {
            eprintln!("warpscope: {e}");
            return ExitCode::FAILURE;
        }
    }
    match idle_sms(&config, args.repeat) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("warpscope: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Every library workload at its default size on its paper's machine, the fastest of `repeat`
/// runs each, then the median and the slowest throughput against the targets.
fn library_throughput(repeat: u32) -> Result<(), String> {
    println!(
        "{:<24} {:<14} {:>12} {:>12} {:>8} {:>10} {:>10} {:>6} {:>9} {:>8}",
        "workload", "machine", "cycles", "warp instr", "wall s", "M instr/s", "M cyc/s", "IPC", "L1/instr", "M L1/s"
    );
    let mut rates = Vec::new();
    let mut access_rates = Vec::new();
    for workload in library::all() {
        let preset_id = workload.category.paper_preset();
        let preset = presets::by_id(preset_id).ok_or_else(|| format!("no preset {preset_id}"))?;
        let config = (preset.build)();
        let program = library::program(workload.id, None, &[], &config)?;
        let bench = Bench { name: workload.id, about: workload.summary, workload: program };
        let m = measure(&config, &bench, repeat)?;
        let l1_rate = m.l1_accesses as f64 / m.seconds / 1e6;
        let per_instruction = m.l1_accesses as f64 / m.warp_instructions as f64;
        println!("{:<24} {preset_id:<14} {} {per_instruction:>9.2} {l1_rate:>8.2}", workload.id, numbers(&m));
        rates.push((m.rate(), workload.id));
        if m.l1_accesses >= m.warp_instructions {
            access_rates.push((l1_rate, workload.id));
        }
    }
    rates.sort_by(|a, b| a.0.total_cmp(&b.0));
    let median = match rates.len() {
        0 => return Err("the library is empty".into()),
        n if n % 2 == 1 => rates[n / 2].0,
        n => (rates[n / 2 - 1].0 + rates[n / 2].0) / 2.0,
    };
    let (slowest, name) = rates[0];
    println!();
    println!(
        "median {median:.2} M warp instr/s: {:.2}× the target of {LIBRARY_MEDIAN_TARGET} M",
        median / LIBRARY_MEDIAN_TARGET
    );
    println!(
        "slowest {slowest:.2} M warp instr/s ({name}): {:.2}× the floor of {LIBRARY_FLOOR_TARGET} M",
        slowest / LIBRARY_FLOOR_TARGET
    );
    // Not a target: what the floor comes to for a memory-bound run (one L1 access or more per
    // warp instruction), whose cost is its L1 accesses (each a tag look-up, and a miss's whole
    // trip through the network and the L2) rather than its instructions.
    access_rates.sort_by(|a, b| a.0.total_cmp(&b.0));
    if let (Some(&(least, name)), Some(&(most, _))) = (access_rates.first(), access_rates.last()) {
        let median = access_rates[access_rates.len() / 2].0;
        println!(
            "memory-bound ({} runs, an L1 access or more per warp instruction): {least:.2} ({name}) to {most:.2} M L1 \
             accesses/s, median {median:.2} M",
            access_rates.len()
        );
    }
    Ok(())
}

/// The SM counts the idle-SM rows compare: the preset's class of 15, an H100's 132, and 1024.
const SM_COUNTS: [u32; 3] = [15, 132, 1024];

/// Four blocks of fixed work on `config` resized to each of [`SM_COUNTS`]: the wall time of
/// each against the first's.
fn idle_sms(config: &GpuConfig, repeat: u32) -> Result<(), String> {
    println!();
    println!("idle SMs: four blocks of fixed work on {} with its SM count changed", config.name);
    println!("{:<24} {:>6} {:>12} {:>8} {:>10}", "workload", "SMs", "cycles", "wall s", "× 15 SMs");
    for bench in bench::four_blocks() {
        let mut base = None;
        for sms in SM_COUNTS {
            let mut resized = config.clone();
            resized.core.sm_count = sms;
            let m = measure(&resized, &bench, repeat)?;
            let base = *base.get_or_insert(m.seconds);
            let name = format!("{}, 4 blocks", bench.name);
            println!("{name:<24} {sms:>6} {:>12} {:>8.3} {:>9.2}×", m.cycles, m.seconds, m.seconds / base);
        }
    }
    Ok(())
}
