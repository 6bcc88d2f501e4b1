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
        "cache-sweep",
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
    let out = warpscope(&["cache-sweep", "--ways", "0"]);
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

#[test]
fn dump_writes_a_buffer_and_checksums_go_into_the_report() {
    let dir = std::env::temp_dir().join(format!("warpscope-dump-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("scale.cu");
    // y[i] = 1.5 * i - 2 for 8 elements; n[i] = 3 - i.
    std::fs::write(
        &file,
        "__global__ void k(float* y, int* n) { int i = threadIdx.x; y[i] = 1.5f * i - 2.0f; n[i] = 3 - i; }\n\
         host { float y[8]; int n[8]; k<<<1, 8>>>(y, n); }\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let expected_y: Vec<f32> = (0..8).map(|i| 1.5 * i as f32 - 2.0).collect();
    let expected_n: Vec<i32> = (0..8).map(|i| 3 - i).collect();

    // To standard output: one element per line, by its type.
    let out = warpscope(&["run", file, "--dump", "n"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<i32> = text.lines().rev().take(8).map(|l| l.parse().unwrap()).collect::<Vec<_>>();
    assert_eq!(lines.into_iter().rev().collect::<Vec<_>>(), expected_n);

    // To files: text, and raw little-endian words for `.bin`.
    let (txt, bin) = (dir.join("y.txt"), dir.join("y.bin"));
    let out = warpscope(&[
        "run",
        file,
        "--json",
        "--checksums",
        "--dump",
        &format!("y={}", txt.display()),
        "--dump",
        &format!("y={}", bin.display()),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let floats: Vec<f32> = std::fs::read_to_string(&txt).unwrap().lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(floats, expected_y);
    let raw = std::fs::read(&bin).unwrap();
    let words: Vec<f32> = raw.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(words, expected_y);
    // The checksum is FNV-1a 64 of those bytes, computed here.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in &raw {
        hash ^= *b as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let y = report["buffers"].as_array().unwrap().iter().find(|b| b["name"] == "y").unwrap();
    assert_eq!(y["words"], 8);
    assert_eq!(y["fnv1a64"], format!("{hash:016x}"));

    // A buffer that does not exist is named with those that do.
    let out = warpscope(&["run", file, "--dump", "z"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--dump z: there is no buffer `z`; the buffers are y, n"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_run_stopped_at_the_cycle_limit_names_what_is_still_running_and_where() {
    let dir = std::env::temp_dir().join(format!("warpscope-spin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("spin.cu");
    // Every warp spins on a flag nobody sets: the loop's load is on line 4.
    std::fs::write(
        &file,
        "__global__ void spin(int* flag, int* out) {\n    int i = threadIdx.x;\n    int n = 0;\n    while (flag[0] == 0) {\n        n++;\n    }\n    out[i] = n;\n}\nhost { int flag[1]; int out[64]; spin<<<2, 64>>>(flag, out); }\n",
    )
    .unwrap();
    let out = warpscope(&["run", file.to_str().unwrap(), "--max-cycles", "20000"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stopped at the cycle limit (20000 cycles) before the workload finished"), "{stderr}");
    // 2 blocks of 2 warps each, all resident on the GTX 480's SMs, all in the loop.
    assert!(stderr.contains("still running: spin (0 of 2 blocks done; 4 warps near line 4)"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
