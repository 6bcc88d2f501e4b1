//! `warpscope sweep` and `warpscope merge`: the rows are the runs' own numbers, the same
//! whatever the threads and shards, and merging shards gives the whole sweep back.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the warpscope binary runs")
}

fn ok(out: Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Two small workloads under two warp schedulers: four points, a second or so in all.
const GRID: [&str; 7] = ["sweep", "--workload", "vecadd,pathfinder", "--size", "1024", "--warp", "gto,lrr"];

fn sweep(extra: &[&str]) -> Output {
    let mut args = GRID.to_vec();
    args.extend_from_slice(extra);
    warpscope(&args)
}

fn rows(text: &str) -> Vec<Value> {
    let mut rows: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    rows.sort_by_key(|r| r["index"].as_u64());
    rows
}

/// A scratch folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpscope-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn rows_are_the_same_on_one_thread_or_two_and_are_what_run_measures() {
    let one = ok(sweep(&["--jobs", "1"]));
    let two = ok(sweep(&["--jobs", "2"]));
    let mut sorted_one: Vec<&str> = one.lines().collect();
    let mut sorted_two: Vec<&str> = two.lines().collect();
    sorted_one.sort();
    sorted_two.sort();
    assert_eq!(sorted_one, sorted_two, "the same rows, whatever order they finished in");

    let rows = rows(&one);
    let points: Vec<(u64, &str, &str)> = rows
        .iter()
        .map(|r| (r["index"].as_u64().unwrap(), r["workload"].as_str().unwrap(), r["warp"].as_str().unwrap()))
        .collect();
    assert_eq!(
        points,
        [(0, "vecadd", "gto"), (1, "vecadd", "lrr"), (2, "pathfinder", "gto"), (3, "pathfinder", "lrr")]
    );
    assert!(rows.iter().all(|r| r["total"] == 4 && r["outcome"] == "finished" && r["message"].is_null()));

    // Point 3 is `run --workload pathfinder --size 1024 --warp lrr`.
    let report: Value = serde_json::from_str(&ok(warpscope(&[
        "run",
        "--workload",
        "pathfinder",
        "--size",
        "1024",
        "--warp",
        "lrr",
        "--json",
    ])))
    .unwrap();
    let row = &rows[3];
    assert_eq!(row["cycles"], report["cycles"]);
    assert_eq!(row["warp_instructions"], report["warp_instructions"]);
    assert_eq!(row["ipc"], report["ipc"]);
    assert_eq!(row["l1_accesses"], report["l1"]["accesses"]);
    assert_eq!(row["l1_hits"], report["l1"]["hits"]);
    assert_eq!(row["l2_hits"], report["l2"]["hits"]);
    assert_eq!(row["dram_reads"], report["dram"]["reads"]);
    assert_ne!(rows[2]["cycles"], rows[3]["cycles"], "the warp scheduler changes the timing");

    // --full carries the report itself.
    let full = ok(warpscope(&["sweep", "--workload", "pathfinder", "--size", "1024", "--warp", "lrr", "--full"]));
    let row: Value = serde_json::from_str(full.trim()).unwrap();
    assert_eq!(row["report"], report);
}

#[test]
fn each_define_axis_is_a_column_and_each_value_the_program_run_compiles_with_it() {
    let grid = ["sweep", "--workload", "hotspot", "--size", "32", "-D", "STEPS=2,5"];
    let rows = rows(&ok(warpscope(&grid)));
    assert_eq!(rows.len(), 2);
    for (row, steps) in rows.iter().zip(["2", "5"]) {
        assert_eq!(row["D:STEPS"], steps);
        let report: Value = serde_json::from_str(&ok(warpscope(&[
            "run",
            "--workload",
            "hotspot",
            "--size",
            "32",
            "-D",
            &format!("STEPS={steps}"),
            "--json",
        ])))
        .unwrap();
        assert_eq!(row["cycles"], report["cycles"], "STEPS={steps}");
        assert_eq!(row["warp_instructions"], report["warp_instructions"], "STEPS={steps}");
    }
    assert_ne!(rows[0]["warp_instructions"], rows[1]["warp_instructions"], "more steps, more instructions");
    let mut csv_grid = grid.to_vec();
    csv_grid.extend(["--format", "csv"]);
    let csv = ok(warpscope(&csv_grid));
    assert!(csv.starts_with("index,total,grid,workload,size,D:STEPS,gpu,tb,warp,"), "{csv}");
}

#[test]
fn shards_merged_are_the_whole_sweep() {
    let dir = scratch("shards");
    let path = |name: &str| dir.join(name).display().to_string();
    for format in ["jsonl", "csv"] {
        let whole = path(&format!("whole.{format}"));
        let (a, b) = (path(&format!("a.{format}")), path(&format!("b.{format}")));
        ok(sweep(&["--format", format, "--out", &whole]));
        ok(sweep(&["--format", format, "--shard", "1/2", "--jobs", "1", "--out", &a]));
        ok(sweep(&["--format", format, "--shard", "2/2", "--out", &b]));
        let merged_whole = ok(warpscope(&["merge", &whole]));
        let merged_shards = ok(warpscope(&["merge", &b, &a]));
        assert_eq!(merged_whole, merged_shards, "{format}");
        assert_eq!(merged_whole.lines().count(), if format == "csv" { 5 } else { 4 });
        // Shard 1 of 2 holds the even points.
        let first = std::fs::read_to_string(&a).unwrap();
        let indices: Vec<&str> = first
            .lines()
            .filter(|l| !l.starts_with("index"))
            .map(|l| l.trim_start_matches("{\"index\":"))
            .map(|l| &l[..1])
            .collect();
        assert_eq!(indices.len(), 2);
        assert!(indices.iter().all(|i| *i == "0" || *i == "2"), "{first}");
    }
    // The merged CSV's header is the columns in order, a row's numbers the JSON line's.
    let csv = ok(warpscope(&["merge", &path("whole.csv")]));
    let json = rows(&ok(warpscope(&["merge", &path("whole.jsonl")])));
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..9], ["index", "total", "grid", "workload", "size", "gpu", "tb", "warp", "outcome"]);
    let first: Vec<&str> = lines.next().unwrap().split(',').collect();
    let cycles = header.iter().position(|c| *c == "cycles").unwrap();
    assert_eq!(first[cycles], json[0]["cycles"].to_string());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn merge_refuses_conflicting_rows_and_other_grids_and_lists_missing_points() {
    let dir = scratch("merge");
    let path = |name: &str| dir.join(name).display().to_string();
    ok(sweep(&["--out", &path("whole.jsonl")]));
    ok(sweep(&["--shard", "1/2", "--out", &path("a.jsonl")]));

    // Only shard 1 of 2: its rows, and the odd points named as missing.
    let out = warpscope(&["merge", &path("a.jsonl")]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("2 points missing") && stderr.contains(": 1, 3"), "{stderr}");

    // The same point with other numbers.
    let whole = std::fs::read_to_string(path("whole.jsonl")).unwrap();
    let changed =
        whole.lines().find(|l| l.starts_with("{\"index\":0,")).unwrap().replace("\"cycles\":", "\"cycles\":1");
    std::fs::write(path("changed.jsonl"), format!("{changed}\n")).unwrap();
    let out = warpscope(&["merge", &path("whole.jsonl"), &path("changed.jsonl")]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("changed.jsonl:1: point 0 differs from its row in"), "{stderr}");
    assert!(out.stdout.is_empty());

    // A shard of another grid (another cycle limit).
    ok(sweep(&["--shard", "2/2", "--max-cycles", "1000000", "--out", &path("other.jsonl")]));
    let out = warpscope(&["merge", &path("a.jsonl"), &path("other.jsonl")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not shards of one sweep"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_that_stops_early_says_so_in_its_row() {
    let text = ok(warpscope(&["sweep", "--workload", "pathfinder", "--size", "1024", "--max-cycles", "1000"]));
    let row: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(row["outcome"], "cycle-limit");
    assert_eq!(row["cycles"], 1000);
    assert!(row["message"].as_str().unwrap().contains("cycle limit (1000 cycles)"), "{row}");
}

#[test]
fn bad_flags_are_named_before_anything_runs() {
    let refused = |args: &[&str], message: &str| {
        let out = warpscope(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing ran");
    };
    refused(&["sweep", "--workload", "vecadd,nope"], "--workload nope: no library workload nope; choose one of");
    refused(&["sweep", "--workload", "vecadd", "--size", "8"], "--workload vecadd: size 8: vecadd takes");
    refused(&["sweep", "--workload", "vecadd", "--gpu", "h100,zzz"], "--gpu zzz: unknown machine preset zzz");
    refused(
        &["sweep", "--workload", "vecadd", "--set", "l1.colour=blue,red"],
        "--set l1.colour=blue: l1.colour: is not a hardware setting",
    );
    refused(
        &["sweep", "--workload", "vecadd", "--warp", "lrr,gto:limit=3"],
        "--warp gto:limit=3: `gto` has no parameters",
    );
    refused(&["sweep", "--workload", "vecadd", "--tb", "psychic"], "--tb psychic: unknown policy `psychic`");
    refused(&["sweep", "--workload", "vecadd", "--shard", "0/4"], "--shard 0/4: shards count from 1 to 4");
    refused(&["sweep", "--workload", "vecadd", "--shard", "5/4"], "--shard 5/4: shards count from 1 to 4");
    refused(&["sweep", "--workload", "vecadd", "--shard", "x/y"], "--shard x/y: `x` is not a whole number");
    refused(
        &["sweep", "--workload", "vecadd", "--format", "csv", "--full"],
        "--full adds each report to its JSON line",
    );
}
