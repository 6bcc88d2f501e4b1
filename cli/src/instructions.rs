//! `warpscope instructions`: what the optimiser saves. Every library workload is compiled
//! unoptimised (`-O0`: the code as generated, with `fma` contraction) and optimised, run
//! in the timing-free reference runner, and each kernel's static instructions and executed
//! warp instructions are printed as a Markdown table (the one in BENCHMARKS.md).

use std::process::ExitCode;

use warpscope_core::config::presets;
use warpscope_core::exec::reference;
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::workload::Workload;

#[derive(clap::Args)]
pub struct InstructionsArgs {
    /// Run each workload at its default size instead of its smallest.
    #[arg(long)]
    pub default_size: bool,
    /// Only this workload (by id).
    #[arg(long)]
    pub only: Option<String>,
}

pub fn run(args: &InstructionsArgs) -> ExitCode {
    let config = presets::fermi_gtx480();
    println!(
        "| workload | kernel | static -O0 | static -O3 | warp instructions -O0 | warp instructions -O3 | -O0 / -O3 |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|");
    let (mut total_plain, mut total_optimised) = (0u64, 0u64);
    for entry in library::all().filter(|e| args.only.as_deref().is_none_or(|id| id == e.id)) {
        let size = if args.default_size { entry.size.default } else { entry.size.min };
        let defines = [entry.size_define(size)];
        let build = |optimize| compile(entry.source, &CompileOptions { config: &config, defines: &defines, optimize });
        let (plain, optimised) = match (build(false), build(true)) {
            (Ok(p), Ok(o)) => (p.workload, o.workload),
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("warpscope: {} does not compile: {}", entry.id, e[0]);
                return ExitCode::FAILURE;
            }
        };
        let (Some(counts_plain), Some(counts_optimised)) = (executed(&plain), executed(&optimised)) else {
            eprintln!("warpscope: {} does not run in the reference runner", entry.id);
            return ExitCode::FAILURE;
        };
        for (k, kernel) in plain.kernels.iter().enumerate() {
            let (a, b) = (counts_plain[k], counts_optimised[k]);
            total_plain += a;
            total_optimised += b;
            let ratio = if b == 0 { "—".to_string() } else { format!("{:.2}", a as f64 / b as f64) };
            println!(
                "| {} ({size}) | {} | {} | {} | {a} | {b} | {ratio} |",
                entry.id,
                kernel.name,
                kernel.code.len(),
                optimised.kernels[k].code.len()
            );
        }
    }
    println!(
        "| all | | | | {total_plain} | {total_optimised} | {:.2} |",
        total_plain as f64 / total_optimised.max(1) as f64
    );
    ExitCode::SUCCESS
}

/// Warp instructions each kernel executed.
fn executed(w: &Workload) -> Option<Vec<u64>> {
    reference::run_workload(w, 32, 1 << 40).ok().map(|run| run.per_kernel)
}
