//! `warpscope`: the engine from the command line.
//!
//! `warpscope run` compiles a kernel file or a library workload and simulates it;
//! `warpscope cache-sweep` drives one cache with a synthetic address stream. Both print a
//! summary, or with `--json` the report exactly as the browser worker's `Done` reply carries
//! it. `warpscope sweep` runs a grid of runs on every core and `warpscope merge` combines the
//! shards of one.

mod bench;
mod docs;
mod dump;
mod grid;
mod instructions;
mod merge;
mod reproduce;
mod reproduction_md;
mod run;
mod sharing;
mod sweep;
mod swl_sweep;
mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use warpscope_core::mem::cache::{CacheGeometry, Replacement};
use warpscope_core::sweep::AccessPattern;
use warpscope_core::{CacheSweep, CacheSweepSpec};

#[derive(Parser)]
#[command(name = "warpscope", version, about = "GPU scheduling and cache simulator")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile a kernel file (or a library workload) and simulate it.
    Run(run::RunArgs),
    /// List the workload library.
    Workloads,
    /// List the scheduling policies and their parameters.
    Policies,
    /// Print the kernel-language reference page (static/language.html).
    Docs,
    /// Drive one cache with a synthetic address stream and count hits and misses.
    CacheSweep(CacheSweepArgs),
    /// Run every point of a grid (workloads × sizes × machines × settings × policies) on every
    /// core, one JSON line or CSV row per point as it finishes; `--shard I/N` runs a share.
    Sweep(sweep::SweepArgs),
    /// Combine the outputs of a sweep's shards into one, in grid order.
    Merge(merge::MergeArgs),
    /// Run a workload under every static warp limit and find the best one (the CCWS paper's
    /// Best-SWL): IPC and L1 misses against the limit.
    SwlSweep(swl_sweep::SwlSweepArgs),
    /// Run the papers' claim rows on every core, judge them and write REPRODUCTION.md.
    Reproduce(reproduce::ReproduceArgs),
    /// Run the classic validation kernels (validation/*.cu) on the H100-like preset and write
    /// VALIDATION.md.
    Validate(validate::ValidateArgs),
    /// Measure the engine's speed on the standard workloads (streaming, thrashing, compute, divergent).
    Bench(bench::BenchArgs),
    /// Compile every library workload with and without optimisation and count the
    /// instructions each kernel executes in the reference runner (a Markdown table).
    Instructions(instructions::InstructionsArgs),
    /// Read a GPGPU-Sim gpgpusim.config onto a preset and print the machine as JSON, with every
    /// option that was not applied.
    ImportConfig(ImportArgs),
    /// Measure how much global data parent blocks share with the child blocks they launch,
    /// and children with their siblings (the LaPerm paper's shared-footprint ratios).
    Sharing(sharing::SharingArgs),
}

#[derive(clap::Args)]
struct ImportArgs {
    /// The gpgpusim.config file.
    file: std::path::PathBuf,
    /// Preset whose values fill in what the file does not set.
    #[arg(long, default_value = "fermi-gtx480")]
    preset: String,
}

fn import_config(args: &ImportArgs) -> ExitCode {
    let Some(preset) = warpscope_core::config::presets::by_id(&args.preset) else {
        eprintln!("warpscope: unknown preset {}", args.preset);
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("warpscope: cannot read {}: {e}", args.file.display());
            return ExitCode::from(2);
        }
    };
    match warpscope_core::config::gpgpusim::import(&text, (preset.build)()) {
        Ok(imported) => {
            for ignored in &imported.ignored {
                eprintln!(
                    "{}:{}: {} not applied: {}",
                    args.file.display(),
                    ignored.line,
                    ignored.option,
                    ignored.reason
                );
            }
            println!("{}", serde_json::to_string_pretty(&imported.config).expect("configs serialise"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}:{}:{}: {}", args.file.display(), e.line, e.column, e);
            ExitCode::from(2)
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum PatternArg {
    /// 0, stride, 2*stride, ... below the footprint, each pass.
    Strided,
    /// Uniformly random 4-byte words below the footprint.
    Random,
}

#[derive(Clone, Copy, ValueEnum)]
enum ReplacementArg {
    Lru,
    Fifo,
}

#[derive(clap::Args)]
struct CacheSweepArgs {
    /// Cache capacity in bytes.
    #[arg(long, default_value_t = default().cache.size_bytes)]
    cache_bytes: u32,
    /// Line size in bytes.
    #[arg(long, default_value_t = default().cache.line_bytes)]
    line_bytes: u32,
    /// Associativity (lines per set).
    #[arg(long, default_value_t = default().cache.ways)]
    ways: u32,
    /// Replacement policy.
    #[arg(long, value_enum, default_value = "lru")]
    replacement: ReplacementArg,
    /// Address pattern.
    #[arg(long, value_enum, default_value = "random")]
    pattern: PatternArg,
    /// Bytes of memory the pattern covers.
    #[arg(long, default_value_t = 64 * 1024)]
    footprint_bytes: u64,
    /// Distance between accesses (strided pattern).
    #[arg(long, default_value_t = 4)]
    stride_bytes: u64,
    /// Lookups per pass (random pattern).
    #[arg(long, default_value_t = 4_000_000)]
    accesses_per_pass: u64,
    /// Seed of the random pattern.
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// Times the pattern is repeated.
    #[arg(long, default_value_t = default().passes)]
    passes: u32,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

fn default() -> CacheSweepSpec {
    CacheSweepSpec::default()
}

impl CacheSweepArgs {
    fn spec(&self) -> CacheSweepSpec {
        let pattern = match self.pattern {
            PatternArg::Strided => {
                AccessPattern::Strided { footprint_bytes: self.footprint_bytes, stride_bytes: self.stride_bytes }
            }
            PatternArg::Random => AccessPattern::Random {
                footprint_bytes: self.footprint_bytes,
                accesses_per_pass: self.accesses_per_pass,
                seed: self.seed,
            },
        };
        CacheSweepSpec {
            cache: CacheGeometry { size_bytes: self.cache_bytes, line_bytes: self.line_bytes, ways: self.ways },
            replacement: match self.replacement {
                ReplacementArg::Lru => Replacement::Lru,
                ReplacementArg::Fifo => Replacement::Fifo,
            },
            pattern,
            passes: self.passes,
        }
    }
}

/// Lets a write to a closed pipe (`warpscope run --json | head -c1`) end the process quietly,
/// as it ends `cat` or `grep`: Rust ignores SIGPIPE, so without this every `println!` after
/// the reader left would panic (and abort, in release builds).
fn die_quietly_on_closed_pipes() {
    #[cfg(unix)]
    // SAFETY: restoring a signal's default disposition at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    die_quietly_on_closed_pipes();
    let args = match Cli::parse().command {
        Command::CacheSweep(args) => args,
        Command::Sweep(args) => return sweep::run(&args),
        Command::Merge(args) => return merge::run(&args),
        Command::Run(args) => return run::run(&args),
        Command::Workloads => return run::list(),
        Command::Policies => return run::list_policies(),
        Command::Docs => {
            print!("{}", docs::language_page());
            return ExitCode::SUCCESS;
        }
        Command::Bench(args) => return bench::run(&args),
        Command::Reproduce(args) => return reproduce::run(&args),
        Command::SwlSweep(args) => return swl_sweep::run(&args),
        Command::Validate(args) => return validate::run(&args),
        Command::ImportConfig(args) => return import_config(&args),
        Command::Instructions(args) => return instructions::run(&args),
        Command::Sharing(args) => return sharing::run(&args),
    };
    let mut sweep = match CacheSweep::new(args.spec()) {
        Ok(sweep) => sweep,
        Err(err) => {
            eprintln!("warpscope: invalid sweep: {err}");
            return ExitCode::from(2);
        }
    };
    let report = sweep.run_to_end();
    if args.json {
        println!("{}", serde_json::to_string(&report).expect("a report of integers always encodes"));
    } else {
        let rate = 100.0 * report.hits as f64 / report.accesses as f64;
        println!("accesses   {:>14}", report.accesses);
        println!("hits       {:>14}  ({rate:.2} %)", report.hits);
        println!("misses     {:>14}", report.misses);
        println!("evictions  {:>14}", report.evictions);
    }
    ExitCode::SUCCESS
}
