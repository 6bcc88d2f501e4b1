//! `cargo run --profile fuzz -p warpscope-fuzz -- [TARGET...] [--cases N] [--seed S] [--record]`
//! (the `fuzz` profile unwinds panics, which release aborts on): runs the fuzz targets
//! (all of them by default) for N cases each (default 10 000) from seed S (default 1).
//! Inputs that panic are written to `fuzz/crashes/` and make it exit 1. `--record` also writes
//! the run's counts into `fuzz/RUNS.md` (one row per target, replaced on each recorded run)
//! and the seeds the encoders made into `fuzz/corpus/<target>/`, so the repository says what
//! was fuzzed and how much.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use warpscope_fuzz::{fuzz, seeds, Findings, TARGETS};
use warpscope_wasm::catalog::catalog;

fn main() -> ExitCode {
    let mut targets = Vec::new();
    let (mut cases, mut seed, mut record) = (10_000u64, 1u64, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let number = |value: Option<String>, what: &str| -> Result<u64, String> {
            value.and_then(|v| v.parse().ok()).ok_or_else(|| format!("{what} takes a whole number"))
        };
        let parsed = match arg.as_str() {
            "--cases" => number(args.next(), "--cases").map(|n| cases = n),
            "--seed" => number(args.next(), "--seed").map(|n| seed = n),
            "--record" => {
                record = true;
                Ok(())
            }
            target if TARGETS.contains(&target) => {
                targets.push(target.to_string());
                Ok(())
            }
            other => Err(format!("unknown argument `{other}`; targets are {}", TARGETS.join(", "))),
        };
        if let Err(message) = parsed {
            eprintln!("warpscope-fuzz: {message}");
            return ExitCode::from(2);
        }
    }
    if targets.is_empty() {
        targets = TARGETS.iter().map(|t| t.to_string()).collect();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failed = false;
    for target in &targets {
        let corpus = root.join("corpus").join(target);
        if record {
            write_seeds(&corpus, target);
        }
        let extra = read_corpus(&corpus);
        let started = Instant::now();
        let findings = fuzz(target, seed, cases, &extra, |so_far| {
            if so_far.cases % 100_000 == 0 {
                eprintln!("  {target}: {} cases, {:.0} s", so_far.cases, started.elapsed().as_secs_f64());
                if record {
                    // A long run's count so far, so that an interrupted run still says how far it got.
                    record_row(&root.join("RUNS.md"), target, &row(target, seed, so_far));
                }
            }
        });
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{target:<7} {} cases in {seconds:.0} s: {} accepted, {} simulated, {} panics",
            findings.cases,
            findings.accepted,
            findings.simulated,
            findings.panics.len()
        );
        for (i, (input, message)) in findings.panics.iter().enumerate().take(20) {
            let path = root.join("crashes").join(format!("{target}-{seed}-{i}.txt"));
            let _ = std::fs::create_dir_all(root.join("crashes"));
            let _ = std::fs::write(&path, input);
            println!("  panic: {message}\n    input: {}", path.display());
        }
        failed |= !findings.panics.is_empty();
        if record {
            record_row(&root.join("RUNS.md"), target, &row(target, seed, &findings));
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A target's row of `RUNS.md`.
fn row(target: &str, seed: u64, findings: &Findings) -> String {
    format!(
        "| {target} | {} | {seed} | {} | {} | {} | {} |",
        findings.cases,
        findings.accepted,
        findings.simulated,
        findings.panics.len(),
        findings.inputs
    )
}

/// The files of a target's corpus, in name order.
fn read_corpus(dir: &Path) -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    paths.iter().filter(|p| !is_generated(p)).filter_map(|p| std::fs::read_to_string(p).ok()).collect()
}

/// Seeds written by `--record` from the encoders are read from the encoders, not twice.
fn is_generated(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("generated-"))
}

/// Writes the seeds the encoders make (not the library's kernel files, which are in the
/// repository already) beside the hand-written ones.
fn write_seeds(dir: &Path, target: &str) {
    if target == "kernel" {
        return;
    }
    let _ = std::fs::create_dir_all(dir);
    for (i, seed) in seeds(target, &catalog()).iter().enumerate() {
        let _ = std::fs::write(dir.join(format!("generated-{i:02}.txt")), seed);
    }
}

const HEADER: &str = "# Fuzzing runs\n\n\
Written by `cargo run --profile fuzz -p warpscope-fuzz -- --cases N --record` (see `fuzz/src/lib.rs` for \
what each target does with an input). A case is one mutated input; *accepted* ones got past the \
boundary's checks, *simulated* ones ran on the engine for a while. The test command runs a short \
bounded run of every target (`fuzz/tests/bounded.rs`).\n\n\
| target | cases | seed | accepted | simulated | panics | seed inputs |\n|---|---|---|---|---|---|---|\n";

/// Replaces (or adds) `target`'s row of the table in `path`.
fn record_row(path: &Path, target: &str, row: &str) {
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let mut rows: Vec<String> = old
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| target") && !l.starts_with(&format!("| {target} |")))
        .map(str::to_string)
        .collect();
    rows.push(row.to_string());
    rows.sort_by_key(|r| TARGETS.iter().position(|t| r.starts_with(&format!("| {t} |"))));
    let _ = std::fs::write(path, format!("{HEADER}{}\n", rows.join("\n")));
}
