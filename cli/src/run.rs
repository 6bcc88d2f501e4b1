//! `warpscope run`: compile a kernel file (or a library workload) and simulate it.
//! `warpscope workloads`: list the library.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::kernel::{compile, CompileOptions, Diagnostic, Severity};
use warpscope_core::library;
use warpscope_core::sched::tb::TB_POLICIES;
use warpscope_core::sched::warp::gated::MEMORY_GATES;
use warpscope_core::sched::warp::WARP_POLICIES;
use warpscope_core::stats::Report;
use warpscope_core::workload::Workload;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

#[derive(clap::Args)]
pub struct RunArgs {
    /// A kernel file (`.cu`); or use --workload.
    #[arg(required_unless_present = "workload", conflicts_with = "workload")]
    pub(crate) file: Option<std::path::PathBuf>,
    /// A library workload id (see `warpscope workloads`), or several joined by `+` to run them side by
    /// side, each in streams of its own (`backprop+kmeans`).
    #[arg(long)]
    pub(crate) workload: Option<String>,
    /// The library workload's size knob.
    #[arg(long, requires = "workload")]
    pub(crate) size: Option<u32>,
    /// Override a #define, like a compiler's -D (repeatable): -D N=4096.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    pub(crate) define: Vec<String>,
    /// Machine preset id.
    #[arg(long, default_value = "fermi-gtx480")]
    pub(crate) gpu: String,
    /// Change a hardware setting of the preset (repeatable): --set l1.ways=8, --set
    /// coherence=KeepL1. The paths are the app's; `warpscope import-config` and the app's
    /// Hardware panel list them.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub(crate) settings: Vec<String>,
    /// Thread-block scheduler: an id, optionally tuned as ID:NAME=VALUE,... (`warpscope
    /// policies` lists them).
    #[arg(long, default_value = "rr")]
    pub(crate) tb: String,
    /// Warp scheduler: an id, optionally tuned as ID:NAME=VALUE,... (e.g. swl:limit=6).
    #[arg(long, default_value = "gto")]
    pub(crate) warp: String,
    /// Stop after this many cycles.
    #[arg(long, default_value_t = RunOptions::default().max_cycles)]
    pub(crate) max_cycles: u64,
    /// Print the whole report as JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// After the run (finished or not), write a buffer's contents: to standard output, one
    /// element per line; to PATH as text, or as raw little-endian words if PATH ends in
    /// `.bin` (repeatable).
    #[arg(long = "dump", value_name = "BUFFER[=PATH]")]
    pub(crate) dump: Vec<String>,
    /// Add each buffer's FNV-1a 64 checksum (of its words' little-endian bytes) to the
    /// summary, or as `buffers` to the JSON report.
    #[arg(long)]
    pub(crate) checksums: bool,
}

/// Prints a diagnostic the way compilers do: position, message, the line, a caret.
fn print_diagnostic(name: &str, source: &str, d: &Diagnostic) {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    eprintln!("{name}:{}:{}: {kind}: {}", d.span.line, d.span.column, d.message);
    if let Some(line) = source.lines().nth(d.span.line.saturating_sub(1) as usize) {
        let width = source[d.span.offset as usize..].chars().take(d.span.len.max(1) as usize).count().max(1);
        eprintln!("  {line}");
        eprintln!("  {}{}", " ".repeat(d.span.column.saturating_sub(1) as usize), "^".repeat(width));
    }
    if let Some(help) = &d.help {
        eprintln!("  help: {help}");
    }
}

/// What `run` simulates: the machine with its settings and the compiled workload.
pub struct Prepared {
    pub config: GpuConfig,
    pub workload: Workload,
}

/// The machine preset `gpu` with the hardware `settings` (`PATH=VALUE`, as `--set` takes
/// them) applied in order; the error names the bad preset or setting.
pub fn machine(gpu: &str, settings: &[String]) -> Result<GpuConfig, String> {
    let Some(machine) = presets::by_id(gpu) else {
        let ids: Vec<&str> = presets::ALL.iter().map(|p| p.id).collect();
        return Err(format!("unknown machine preset {gpu}; choose one of {}", ids.join(", ")));
    };
    let mut config = (machine.build)();
    for setting in settings {
        let applied = match setting.split_once('=') {
            Some((path, value)) => config.set_field(path.trim(), value.trim()).map_err(|e| e.to_string()),
            None => Err("write PATH=VALUE".to_string()),
        };
        if let Err(reason) = applied {
            return Err(format!("--set {setting}: {reason}"));
        }
    }
    Ok(config)
}

/// Reads the machine, the settings, the defines and the kernel file or library workload of
/// `args`, and compiles it; on failure prints why and returns the exit code.
pub fn prepare(args: &RunArgs) -> Result<Prepared, ExitCode> {
    let config = match machine(&args.gpu, &args.settings) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("warpscope: {e}");
            return Err(ExitCode::from(2));
        }
    };
    let mut defines = Vec::new();
    for d in &args.define {
        let Some((name, value)) = d.split_once('=') else {
            eprintln!("warpscope: -D {d}: write NAME=VALUE");
            return Err(ExitCode::from(2));
        };
        defines.push((name.trim().to_string(), value.trim().to_string()));
    }
    let (name, source) = match (&args.file, &args.workload) {
        (Some(file), _) => match std::fs::read_to_string(file) {
            Ok(text) => (file.display().to_string(), text),
            Err(e) => {
                eprintln!("warpscope: cannot read {}: {e}", file.display());
                return Err(ExitCode::from(2));
            }
        },
        (None, Some(id)) if id.contains('+') => {
            // Programs side by side: each compiled on its own, then combined.
            return match library::program(id, args.size, &defines, &config) {
                Ok(workload) => Ok(Prepared { config, workload }),
                Err(e) => {
                    eprintln!("warpscope: {e}");
                    Err(ExitCode::from(2))
                }
            };
        }
        (None, Some(id)) => {
            let Some(entry) = library::by_id(id) else {
                eprintln!("warpscope: no library workload {id}; choose one of {}", library::ids().join(", "));
                return Err(ExitCode::from(2));
            };
            if let Some(size) = args.size {
                if size < entry.size.min || size > entry.size.max {
                    eprintln!(
                        "warpscope: --size {size}: {} takes {} from {} to {}",
                        entry.id, entry.size.unit, entry.size.min, entry.size.max
                    );
                    return Err(ExitCode::from(2));
                }
                defines.push(entry.size_define(size));
            }
            (format!("{id}.cu"), entry.source.to_string())
        }
        (None, None) => unreachable!("clap requires a file or --workload"),
    };
    let program = match compile(&source, &CompileOptions { config: &config, defines: &defines, optimize: true }) {
        Ok(program) => program,
        Err(diagnostics) => {
            for d in &diagnostics {
                print_diagnostic(&name, &source, d);
            }
            return Err(ExitCode::from(1));
        }
    };
    for w in &program.warnings {
        print_diagnostic(&name, &source, w);
    }
    Ok(Prepared { config, workload: program.workload })
}

pub fn run(args: &RunArgs) -> ExitCode {
    let Prepared { config, workload } = match prepare(args) {
        Ok(prepared) => prepared,
        Err(code) => return code,
    };
    let dumps = match crate::dump::parse(&args.dump, &workload.buffers, args.json) {
        Ok(dumps) => dumps,
        Err(e) => {
            eprintln!("warpscope: {e}");
            return ExitCode::from(2);
        }
    };
    // Only the names are kept: the run holds the buffers themselves.
    let names: Vec<String> = workload.buffers.iter().map(|b| b.name.clone()).collect();
    let policies = Policies { tb: args.tb.clone(), warp: args.warp.clone() };
    let options = RunOptions { max_cycles: args.max_cycles, ..RunOptions::default() };
    let mut sim = match Simulation::new(config, workload, &policies, options) {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("warpscope: {e}");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let (outcome, interrupted) = drive(&mut sim);
    let seconds = started.elapsed().as_secs_f64();
    let report = sim.report();
    let checksums: Vec<(String, usize, u64)> = match args.checksums {
        true => names
            .iter()
            .enumerate()
            .map(|(i, name)| (name.clone(), sim.buffer(i).len(), crate::dump::checksum(sim.buffer(i))))
            .collect(),
        false => Vec::new(),
    };
    if args.json {
        // The report's own bytes, with the checksums added as its last field.
        let mut json = serde_json::to_string(&report).expect("reports serialise");
        if args.checksums && json.ends_with('}') {
            let list: Vec<serde_json::Value> = checksums
                .iter()
                .map(|(name, words, sum)| serde_json::json!({"name": name, "words": words, "fnv1a64": format!("{sum:016x}")}))
                .collect();
            json.pop();
            json.push_str(&format!(",\"buffers\":{}}}", serde_json::Value::Array(list)));
        }
        println!("{json}");
    } else {
        print_summary(&report, seconds);
        for warning in &report.warnings {
            eprintln!("warning: {warning}");
        }
        for (name, words, sum) in &checksums {
            println!("buffer {name:<20} {words:>10} words   FNV-1a 64 {sum:016x}");
        }
    }
    if let Err(e) = crate::dump::write(&dumps, |i| sim.buffer(i)) {
        eprintln!("warpscope: {e}");
        return ExitCode::from(2);
    }
    let still_running = || {
        for kernel in sim.still_running() {
            eprintln!("warpscope: still running: {kernel}");
        }
    };
    if interrupted {
        eprintln!("warpscope: stopped by Ctrl-C at cycle {}: the report covers the run so far", sim.cycle());
        still_running();
        return ExitCode::from(130);
    }
    if outcome == StepOutcome::Finished {
        ExitCode::SUCCESS
    } else {
        eprintln!("warpscope: {outcome}");
        if matches!(outcome, StepOutcome::CycleLimit { .. } | StepOutcome::Deadlock { .. }) {
            still_running();
        }
        ExitCode::from(1)
    }
}

/// Cycles simulated between looks at Ctrl-C and the clock: small enough to answer within a
/// fraction of a second, large enough to cost nothing.
pub const STEP_CYCLES: u64 = 100_000;

static STOP: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C set the flag [`stop_requested`] reads instead of ending the process. A second
/// handler cannot be set (a test harness may run twice): then Ctrl-C just ends the process,
/// as it always did.
pub fn catch_ctrl_c() {
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
}

/// Whether Ctrl-C has been pressed since [`catch_ctrl_c`].
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Runs `sim` to its end, showing progress on a terminal (cycles, launches finished, rate)
/// and stopping at Ctrl-C; returns the outcome and whether Ctrl-C stopped it. Stepping in
/// slices changes no result: the engine lands where it would have been anyway.
fn drive(sim: &mut Simulation) -> (StepOutcome, bool) {
    catch_ctrl_c();
    let show = std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut shown = Instant::now();
    let mut shown_cycle = 0;
    loop {
        let outcome = sim.step(STEP_CYCLES);
        let stop = stop_requested();
        if show && (outcome != StepOutcome::BudgetSpent || stop) && started.elapsed().as_secs_f64() > 0.5 {
            eprint!("\r\x1b[2K");
        } else if show && shown.elapsed().as_secs_f64() >= 0.5 {
            let (done, launches) = sim.launches_done();
            let rate = (sim.cycle() - shown_cycle) as f64 / shown.elapsed().as_secs_f64();
            eprint!(
                "\r\x1b[2K  cycle {}  ·  {done} of {launches} launches done  ·  {:.0} %  ·  {:.2} M cycles/s  (Ctrl-C stops with the report so far)",
                sim.cycle(),
                100.0 * sim.progress(),
                rate / 1e6
            );
            shown = Instant::now();
            shown_cycle = sim.cycle();
        }
        if outcome != StepOutcome::BudgetSpent {
            return (outcome, false);
        }
        if stop {
            return (outcome, true);
        }
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1} %", 100.0 * part as f64 / whole as f64)
    }
}

/// A program's memory pipeline beside the others: its L1 misses, the attempts of its requests
/// the L1 turned away (by cause), and the SM cycles its requests held the LSU stalled.
fn print_part_memory(r: &Report, part: &warpscope_core::stats::PartReport) {
    let l1 = &part.l1;
    if l1.accesses == 0 {
        return;
    }
    let per_access = l1.failures() as f64 / l1.accesses as f64;
    let causes = [
        ("MSHR", l1.fail_mshr_entry),
        ("line", l1.fail_line_alloc),
        ("merge", l1.fail_mshr_merge),
        ("miss queue", l1.fail_miss_queue),
    ];
    let causes: Vec<String> = causes
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(cause, n)| format!("{cause} {}", percent(*n, l1.failures())))
        .collect();
    let causes = if causes.is_empty() { String::new() } else { format!(" ({})", causes.join(", ")) };
    let sm_cycles = r.cycles * r.sms.len() as u64;
    println!(
        "    L1 misses {}, {per_access:.2} failed attempts per access{causes}; LSU stalled at its requests in {} of SM cycles",
        percent(l1.misses + l1.sector_misses, l1.accesses),
        percent(part.lsu_stall_cycles, sm_cycles)
    );
}

/// Who held up whose memory instructions at the LSU: for each co-running kernel, how often
/// the L1 turned its requests away, and the SM cycles its ready memory instructions waited
/// behind each kernel's access.
fn print_memory_blocking(r: &Report, blocking: &warpscope_core::stats::blocking::MemoryBlocking) {
    let sm_cycles = r.cycles * r.sms.len() as u64;
    println!("co-running kernels at the L1 and the LSU:");
    for (victim, row) in blocking.waited.iter().enumerate() {
        let l1 = blocking.l1_of(victim, &r.kernels);
        let causes = [
            ("line", l1.fail_line_alloc),
            ("MSHR", l1.fail_mshr_entry),
            ("merge", l1.fail_mshr_merge),
            ("miss queue", l1.fail_miss_queue),
        ];
        let causes: Vec<String> = causes.iter().filter(|(_, n)| *n > 0).map(|(c, n)| format!("{c} {n}")).collect();
        let causes = if causes.is_empty() { String::new() } else { format!(" ({})", causes.join(", ")) };
        let behind: Vec<String> = row
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(holder, n)| match holder == victim {
                true => format!("{n} SM cycles behind its own accesses"),
                false => format!("{n} behind {}", blocking.kernels[holder].label()),
            })
            .collect();
        let waited = match behind.is_empty() {
            true => "never waited at the LSU".to_string(),
            false => format!(
                "waited at the busy LSU {} ({} of SM cycles)",
                behind.join(" and "),
                percent(row.iter().sum(), sm_cycles)
            ),
        };
        println!(
            "    {}: {} L1 accesses, {} attempts turned away{causes}; {waited}",
            blocking.kernels[victim].label(),
            l1.accesses,
            l1.failures()
        );
    }
}

/// Each SM's split among the co-running kernels, named by program when each has one stream.
fn print_sharing(r: &Report, sharing: &warpscope_core::stats::sharing::SharingReport) {
    let named = r.parts.len() == sharing.kernels.len();
    let shares: Vec<String> = sharing
        .kernels
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let name = if named { r.parts[i].name.clone() } else { format!("stream {}", k.stream) };
            let score = k.normalised.map(|n| format!(" ({n:.2} of its rate alone)")).unwrap_or_default();
            format!("{name} {}{score}", k.blocks_per_sm)
        })
        .collect();
    let theory =
        sharing.theoretical_speedup.map(|t| format!("; theoretical weighted speedup {t:.2}")).unwrap_or_default();
    println!("blocks per SM      {}{theory}", shares.join(", "));
}

fn print_summary(r: &Report, seconds: f64) {
    println!("{}", r.gpu);
    println!("cycles             {:>12}", r.cycles);
    println!("warp instructions  {:>12}   IPC {:.2}", r.warp_instructions, r.ipc);
    for part in &r.parts {
        let ipc = if r.cycles == 0 { 0.0 } else { part.warp_instructions as f64 / r.cycles as f64 };
        let launches = match part.launches_completed {
            1 => "1 launch".to_string(),
            n => format!("{n} launches"),
        };
        println!("  {:<16} {:>12}   IPC {ipc:.2}, {launches} completed", part.name, part.warp_instructions);
        print_part_memory(r, part);
    }
    if let Some(sharing) = &r.sharing {
        print_sharing(r, sharing);
    }
    if let Some(blocking) = &r.memory_blocking {
        print_memory_blocking(r, blocking);
    }
    println!("L1 hit rate        {:>12}   ({} accesses)", percent(r.l1.hits, r.l1.accesses), r.l1.accesses);
    println!(
        "L1 hits            {:>12}   intra-warp ({} intra-thread), {} inter-warp",
        percent(r.l1.intra_warp_hits, r.l1.hits),
        percent(r.l1.intra_thread_hits, r.l1.hits),
        percent(r.l1.inter_warp_hits, r.l1.hits)
    );
    let smc = r.l1.redirected_loads();
    if smc > 0 {
        println!(
            "shared-mem cache   {:>12}   hit ({} redirected loads: {} hits, {} misses, {} moved from the L1)",
            percent(r.l1.smc_hits, smc),
            smc,
            r.l1.smc_hits,
            r.l1.smc_misses,
            r.l1.smc_migrations
        );
        if r.l1.smc_returns > 0 {
            println!(
                "                                 {} lines moved back to the L1 by other warps' loads",
                r.l1.smc_returns
            );
        }
    }
    if let Some(replay) = &r.l1_replay {
        let mpki = |misses: u64| {
            if r.warp_instructions == 0 {
                "-".to_string()
            } else {
                format!("{:.2}", 1000.0 * misses as f64 / r.warp_instructions as f64)
            }
        };
        let timed = r.l1.misses;
        let difference = if timed == 0 {
            "-".to_string()
        } else {
            format!("{:+.3} %", 100.0 * (replay.lru_misses as f64 - timed as f64) / timed as f64)
        };
        println!(
            "L1 replay (Belady) {:>12}   misses, MPKI {}; timed with LRU, the {} loads of {} accesses replayed \
             with instant fills",
            replay.belady_misses,
            mpki(replay.belady_misses),
            replay.loads,
            replay.accesses
        );
        println!(
            "L1 replay (LRU)    {:>12}   misses, MPKI {}; {difference} from the timed L1's {} misses",
            replay.lru_misses,
            mpki(replay.lru_misses),
            timed
        );
    }
    println!("L2 hit rate        {:>12}   ({} accesses)", percent(r.l2.hits, r.l2.accesses), r.l2.accesses);
    if r.l1.registrations > 0 || r.l2.forwarded > 0 {
        println!(
            "DeNovo             {:>12}   remote-L1 hits (reads the home bank forwarded to the owning L1); {} writes \
             to owned data, {} registrations, {} owned lines written back",
            r.l2.forwarded, r.l1.owned_writes, r.l1.registrations, r.l1.owned_writebacks
        );
    }
    let n = &r.network;
    let class = |t: &warpscope_core::stats::Traffic| format!("{} flits, {} flit-hops", t.flits, t.flit_hops);
    println!("network            {:>12}   flits in {} packets, {} flit-hops", n.flits, n.packets, n.flit_hops());
    println!("  reads            {}", class(&n.read));
    println!("  writes           {}", class(&n.write));
    if n.writeback.packets > 0 || n.ownership.packets > 0 {
        println!("  write-backs      {}", class(&n.writeback));
        println!("  ownership        {}", class(&n.ownership));
    }
    let e = &r.energy;
    let total = e.total();
    let parts: Vec<String> = e
        .parts()
        .iter()
        .map(|(name, pj)| {
            format!("{name} {}", if total > 0.0 { format!("{:.1} %", 100.0 * pj / total) } else { "-".into() })
        })
        .collect();
    println!(
        "dynamic energy     {:>12.1} µJ  {}; DRAM apart, {:.1} µJ (45 nm per-event figures, see stats/energy.rs)",
        total / 1e6,
        parts.join(", "),
        e.dram / 1e6
    );
    println!(
        "DRAM               {:>12} reads, {} writes; L2 banks held {} cycles by full DRAM queues",
        r.dram.reads, r.dram.writes, r.dram.queue_full_cycles
    );
    let s = &r.stalls;
    let total = s.total();
    // Only runs that launch from the device stall in launch calls.
    let launch = match s.device_launch {
        0 => String::new(),
        n => format!(", device launch calls {}", percent(n, total)),
    };
    println!(
        "scheduler cycles   issued {}, no warp {}, scoreboard {}, memory pipeline {}, barrier {}, throttled {}{launch}",
        percent(s.issued, total),
        percent(s.no_warp, total),
        percent(s.scoreboard, total),
        percent(s.memory_pipeline, total),
        percent(s.barrier, total),
        percent(s.throttled, total)
    );
    let (spills, fills) = r.sms.iter().fold((0, 0), |(s, f), sm| (s + sm.spills, f + sm.fills));
    if spills + fills > 0 {
        println!(
            "local memory       {:>12} spills, {fills} fills of registers (warp instructions, {} of all)",
            spills,
            percent(spills + fills, r.warp_instructions)
        );
    }
    let l = &r.launches;
    if l.device_launches > 0 {
        println!(
            "device launches    {:>12}   {} new kernels, {} groups joined a running kernel ({} through global memory); launching warps stalled {} cycles",
            l.device_launches, l.new_kernels, l.coalesced_groups, l.overflowed_groups, l.launch_stall_cycles
        );
        println!(
            "launch queues      KDU {} kernels at most, KMU {} waiting at most ({:.0} cycles each on average), group table {} records at most",
            l.kdu_peak,
            l.kmu_peak,
            if l.kmu_waits == 0 { 0.0 } else { l.kmu_wait_cycles as f64 / l.kmu_waits as f64 },
            l.group_table_peak
        );
        println!(
            "child blocks       {:>12}   {} on their parent's SM; launch to first dispatch {:.0} cycles on average, {} at most",
            l.child_blocks,
            percent(l.child_blocks_on_parent_sm, l.child_blocks),
            l.mean_launch_to_dispatch(),
            l.launch_to_dispatch_max
        );
    }
    if let Some(steal) = &r.steal {
        let c = &steal.rechunks;
        println!(
            "blocks stolen      {:>12}   ({} from steal queues, {} from chunks); grid chunked {} ({} first, {} new shape, {} after an overflow); {} overflows",
            steal.steals_from_queues + steal.steals_from_chunks,
            steal.steals_from_queues,
            steal.steals_from_chunks,
            match c.first + c.new_dimensions + c.after_overflow {
                1 => "once".to_string(),
                n => format!("{n} times"),
            },
            c.first,
            c.new_dimensions,
            c.after_overflow,
            steal.overflows
        );
    }
    println!();
    // With a replayed L1, each run's misses: timed, and replayed with Belady and with LRU.
    let replayed = r.l1_replay.is_some();
    let misses_header =
        if replayed { format!(" {:>10} {:>10} {:>10}", "L1 misses", "Belady", "LRU replay") } else { String::new() };
    println!(
        "{:<4} {:<20} {:>7} {:>6} {:>10} {:>10} {:>12}{misses_header}",
        "run", "kernel", "blocks", "from", "start", "end", "warp instr"
    );
    const SHOWN: usize = 40;
    for (i, k) in r.kernels.iter().enumerate().take(SHOWN) {
        let from = match k.parent {
            Some(p) => format!("#{p}"),
            None => format!("s{}", k.stream),
        };
        let misses = match &k.l1_replay {
            Some(x) => format!(" {:>10} {:>10} {:>10}", k.l1.misses, x.belady_misses, x.lru_misses),
            None => String::new(),
        };
        println!(
            "{:<4} {:<20} {:>7} {:>6} {:>10} {:>10} {:>12}{misses}",
            i, k.name, k.blocks, from, k.start_cycle, k.end_cycle, k.warp_instructions
        );
    }
    if r.kernels.len() > SHOWN {
        println!("… and {} more kernel runs (--json has them all)", r.kernels.len() - SHOWN);
    }
    if r.block_record_stride > 1 {
        println!(
            "{} thread blocks finished; the report keeps one record in every {} (at most {})",
            r.blocks_finished,
            r.block_record_stride,
            warpscope_core::stats::MAX_BLOCK_RECORDS
        );
    }
    println!();
    println!(
        "simulated in {seconds:.3} s: {:.2} M warp instructions/s, {:.2} M cycles/s",
        r.warp_instructions as f64 / seconds / 1e6,
        r.cycles as f64 / seconds / 1e6
    );
}

/// `warpscope policies`: both registries, each policy with its parameters.
pub fn list_policies() -> ExitCode {
    for (title, policies) in [
        ("Thread-block schedulers (--tb)", TB_POLICIES),
        ("Warp schedulers (--warp)", WARP_POLICIES),
        ("Memory-issue gates (--warp BASE+GATE, e.g. gto+dmil)", MEMORY_GATES),
    ] {
        println!("\n{title}");
        for p in policies {
            println!("  {:<8} {}: {}", p.id, p.label, p.description);
            for param in p.params {
                println!(
                    "           {}:{}=N  {} ({}..={} {}, default {}): {}",
                    p.id, param.name, param.label, param.min, param.max, param.unit, param.default, param.description
                );
            }
        }
    }
    ExitCode::SUCCESS
}

pub fn list() -> ExitCode {
    let mut last = None;
    for w in library::all() {
        if last != Some(w.category) {
            println!("\n{}", w.category.label());
            last = Some(w.category);
        }
        println!(
            "  {:<22} {} ({} = {}, {}..={} {})",
            w.id, w.title, w.size.define, w.size.default, w.size.min, w.size.max, w.size.unit
        );
    }
    ExitCode::SUCCESS
}
