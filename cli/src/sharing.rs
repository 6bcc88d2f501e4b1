//! `warpscope sharing`: the LaPerm paper's shared-footprint ratios (Fig. 2) of a workload,
//! measured in the timing-free reference runner: how much of what child blocks touch their
//! direct parent touched too, and how much siblings share. Its schedulers can only gain what
//! this sharing allows.

use std::process::ExitCode;

use warpscope_core::exec::footprint_sharing::{sharing, MeanRatio, LINE_BYTES};
use warpscope_core::exec::reference::RunError;

use crate::run::{prepare, RunArgs};

#[derive(clap::Args)]
pub struct SharingArgs {
    /// A kernel file (`.cu`); or use --workload.
    #[arg(required_unless_present = "workload", conflicts_with = "workload")]
    file: Option<std::path::PathBuf>,
    /// A library workload id (see `warpscope workloads`).
    #[arg(long)]
    workload: Option<String>,
    /// The library workload's size knob.
    #[arg(long, requires = "workload")]
    size: Option<u32>,
    /// Override a #define, like a compiler's -D (repeatable): -D N=4096.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    define: Vec<String>,
    /// Machine preset id (its warp size is used, and its limits when compiling).
    #[arg(long, default_value = "fermi-gtx480")]
    gpu: String,
    /// Change a hardware setting of the preset (repeatable), as for `warpscope run`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    settings: Vec<String>,
    /// Stop after this many warp instructions.
    #[arg(long, default_value_t = 1 << 40)]
    limit: u64,
}

/// The paper's averages (LaPerm §II, Fig. 2), printed beside ours.
const PAPER: [(&str, f64); 3] = [("parent-child", 38.4), ("child-sibling", 30.5), ("parent-parent", 9.3)];

pub fn run(args: &SharingArgs) -> ExitCode {
    let as_run = RunArgs {
        file: args.file.clone(),
        workload: args.workload.clone(),
        size: args.size,
        define: args.define.clone(),
        gpu: args.gpu.clone(),
        settings: args.settings.clone(),
        tb: "rr".into(),
        warp: "gto".into(),
        max_cycles: 0,
        json: false,
        dump: Vec::new(),
        checksums: false,
    };
    let prepared = match prepare(&as_run) {
        Ok(prepared) => prepared,
        Err(code) => return code,
    };
    let warp_size = prepared.config.core.warp_size;
    let report = match sharing(&prepared.workload, warp_size, args.limit) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("warpscope: the reference run stopped: {}", describe(&e));
            return ExitCode::FAILURE;
        }
    };
    let name = match (&args.workload, &args.file) {
        (Some(id), _) => id.clone(),
        (None, Some(file)) => file.display().to_string(),
        (None, None) => unreachable!("clap requires a file or --workload"),
    };
    println!("{name}: shared footprint in {LINE_BYTES}-byte lines (reference run, warp size {warp_size})");
    println!("direct parent blocks {:>9}   {:.1} lines each", report.direct_parents, report.lines_per_parent);
    println!("child blocks         {:>9}   {:.1} lines each", report.child_blocks, report.lines_per_child);
    let rows = [
        (report.parent_child, "direct parents"),
        (report.child_sibling, "child blocks with siblings"),
        (report.parent_parent, "direct parents in grids of 2+ blocks"),
    ];
    for ((ratio, over), (what, paper)) in rows.into_iter().zip(PAPER) {
        println!("{what:<14} {:>7}   over {} {over}   (paper: {paper:.1} %)", percent(ratio), ratio.counted);
    }
    ExitCode::SUCCESS
}

fn percent(ratio: MeanRatio) -> String {
    ratio.mean.map_or_else(|| "—".to_string(), |m| format!("{:.1} %", 100.0 * m))
}

fn describe(e: &RunError) -> String {
    match e {
        RunError::Fault { block, warp, fault } => format!("block {block}, warp {warp} faulted: {fault:?}"),
        RunError::TooLong { limit } => format!("more than {limit} warp instructions (raise --limit)"),
        RunError::BadLaunch { kernel, problem } => {
            format!("a device launch of kernel {kernel} cannot run: {}", problem.describe())
        }
    }
}
