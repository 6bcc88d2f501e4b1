//! The command-line tool prints what the engine computes and refuses bad input clearly.

use std::process::Command;

use warpscope_core::mem::cache::{CacheGeometry, Replacement};
use warpscope_core::sweep::AccessPattern;
use warpscope_core::{CacheSweep, CacheSweepReport, CacheSweepSpec};

fn warpscope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the warpscope binary runs")
}

#[test]
fn json_output_is_the_core_report() {
    let out = warpscope(&[
        "sweep",
        "--cache-bytes",
        "8192",
        "--ways",
        "2",
        "--replacement",
        "fifo",
        "--pattern",
        "random",
        "--footprint-bytes",
        "50000",
        "--accesses-per-pass",
        "30000",
        "--seed",
        "77",
        "--passes",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed: CacheSweepReport = serde_json::from_slice(&out.stdout).unwrap();
    let spec = CacheSweepSpec {
        cache: CacheGeometry { size_bytes: 8192, line_bytes: 128, ways: 2 },
        replacement: Replacement::Fifo,
        pattern: AccessPattern::Random { footprint_bytes: 50000, accesses_per_pass: 30000, seed: 77 },
        passes: 2,
    };
    assert_eq!(printed, CacheSweep::new(spec).unwrap().run_to_end());
}

#[test]
fn a_bad_value_names_the_field_and_exits_with_2() {
    let out = warpscope(&["sweep", "--ways", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cache.ways: must be between 1 and 64, got 0"), "{stderr}");
}

#[test]
fn import_config_applies_options_and_lists_the_rest() {
    let dir = std::env::temp_dir().join(format!("warpscope-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("gpgpusim.config");
    std::fs::write(&file, "# a test machine\n-gpgpu_n_clusters 4\n-gpgpu_shader_cta 6\n-visualizer_enabled 0\n")
        .unwrap();
    let out = warpscope(&["import-config", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let config: warpscope_core::config::GpuConfig = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((config.core.sm_count, config.core.max_tbs_per_sm), (4, 6));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(":4: -visualizer_enabled not applied"), "{stderr}");

    std::fs::write(&file, "-gpgpu_shader_cta many\n").unwrap();
    let out = warpscope(&["import-config", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(":1:19: line 1: -gpgpu_shader_cta: expected a whole number"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_language_reference_page_is_up_to_date() {
    let out = warpscope(&["docs"]);
    assert!(out.status.success());
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../static/language.html"))
        .expect("static/language.html exists");
    assert!(
        committed == String::from_utf8_lossy(&out.stdout),
        "static/language.html is stale: run `cargo run -p warpscope-cli -- docs > static/language.html`"
    );
}

#[test]
fn set_changes_a_hardware_field_and_refuses_bad_ones_by_name() {
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--workload", "vecadd", "--size", "1024", "--json"];
        args.extend_from_slice(extra);
        warpscope(&args)
    };
    let report = |out: std::process::Output| -> serde_json::Value {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // vecadd streams: every line misses once, so doubling the DRAM latency must lengthen it.
    let plain = report(run(&[]));
    let slow = report(run(&["--set", "dram.latency=2000"]));
    assert!(slow["cycles"].as_u64() > plain["cycles"].as_u64(), "{} vs {}", slow["cycles"], plain["cycles"]);
    assert_eq!(slow["warp_instructions"], plain["warp_instructions"]);

    let bad = run(&["--set", "l1.ways=0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--set l1.ways=0: l1.ways: must be between"));
    let unknown = run(&["--set", "l1.colour=blue"]);
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("l1.colour: is not a hardware setting"));
}

#[test]
fn policies_are_listed_and_a_bad_spec_names_the_field() {
    let list = warpscope(&["policies"]);
    assert!(list.status.success());
    let text = String::from_utf8_lossy(&list.stdout);
    for id in warpscope_core::sched::tb::TB_POLICIES.iter().chain(warpscope_core::sched::warp::WARP_POLICIES) {
        assert!(text.contains(&format!("  {:<8} {}", id.id, id.label)), "{} missing from\n{text}", id.id);
    }
    let bad = warpscope(&["run", "--workload", "vecadd", "--size", "1024", "--warp", "gto:limit=3"]);
    assert_eq!(bad.status.code(), Some(2));
    let message = String::from_utf8_lossy(&bad.stderr);
    assert!(message.contains("policies.warp: `gto` has no parameters, but `limit` was given"), "{message}");
    let unknown = warpscope(&["run", "--workload", "vecadd", "--size", "1024", "--tb", "psychic"]);
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("policies.tb: unknown policy `psychic`; choose one of rr")
    );
}

#[test]
#[cfg(unix)]
fn a_reader_that_leaves_early_ends_the_output_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    // A report far larger than a pipe's buffer, so the writer is still writing when the reader
    // has gone (as with `| head -c1`).
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["run", "--workload", "hotspot", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the warpscope binary runs");
    let mut first = [0u8; 1];
    child.stdout.take().expect("piped").read_exact(&mut first).expect("one byte");
    assert_eq!(&first, b"{");
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        // 13: SIGPIPE.
        out.status.success() || out.status.signal() == Some(13),
        "ended by the closed pipe, not by an error: {:?}",
        out.status
    );
}

#[test]
fn bench_refuses_a_workload_it_does_not_have() {
    let out = warpscope(&["bench", "--only", "zzz"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no benchmark workload named zzz") && stderr.contains("streaming"), "{stderr}");
    assert!(out.stdout.is_empty(), "no empty table");
}
