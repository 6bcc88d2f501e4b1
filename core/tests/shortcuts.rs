//! The engine's shortcuts — skipping idle cycles, sleeping schedulers, dormant SMs, LSUs that
//! wait for the event that unblocks them — never change a result, under every registered
//! policy: each runs a few library workloads with the shortcuts on and off, on machines of one
//! and of four schedulers per SM, and the reports must be identical byte for byte.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::sched::tb::TB_POLICIES;
use warpscope_core::sched::warp::WARP_POLICIES;
use warpscope_core::sched::PolicyInfo;
use warpscope_core::{Policies, RunOptions, Simulation};

/// Divergent cache-sensitive lookups, two streams sharing SMs, device-side launches.
const WORKLOADS: &[&str] = &["memcached", "pair-compute-memory", "bfs-dp"];

fn machines() -> [GpuConfig; 2] {
    let mut one = presets::ccws_fermi();
    one.core.sm_count = 4;
    // The four-scheduler machine also has the H100-like memory side's mechanisms: a sectored
    // L2 with a narrower data path, atomics applied one update of a word per cycle, and fills
    // that take the L1's data array from the LSU.
    let mut four = presets::cke_maxwell();
    four.core.sm_count = 4;
    (four.l1.sector_bytes, four.l1.fill_bytes_per_cycle) = (32, 64);
    (four.l2.sector_bytes, four.l2.bytes_per_cycle, four.l2.atomic_update_cycles) = (32, 64, 1);
    [one, four]
}

/// Every policy's spec with its defaults, and with each parameter at its smallest value (its
/// largest where the smallest is the default, so that a switch that is off by default is
/// also tried on).
fn specs(registry: &[PolicyInfo]) -> Vec<String> {
    let mut out = Vec::new();
    for info in registry {
        out.push(info.id.to_string());
        for p in info.params {
            let value = if p.min == p.default { p.max } else { p.min };
            out.push(format!("{}:{}={}", info.id, p.name, value));
        }
    }
    out
}

fn report(config: &GpuConfig, workload: &str, policies: &Policies, skip_idle: bool) -> String {
    let entry = library::by_id(workload).expect("a library workload");
    let defines = [entry.size_define(entry.size.min)];
    let program =
        compile(entry.source, &CompileOptions { config, defines: &defines, optimize: true }).expect("compiles");
    let options = RunOptions { skip_idle, max_cycles: 2_000_000, ..RunOptions::default() };
    let mut sim = Simulation::new(config.clone(), program.workload, policies, options).expect("valid");
    let outcome = sim.run();
    format!("{outcome:?} {}", serde_json::to_string(&sim.report()).expect("encodes"))
}

/// Runs `policies` on every machine and workload, with and without the shortcuts.
fn same_either_way(policies: &Policies) -> usize {
    let mut runs = 0;
    for config in &machines() {
        for &workload in WORKLOADS {
            let fast = report(config, workload, policies, true);
            let reference = report(config, workload, policies, false);
            assert!(fast == reference, "{} / {} on {} running {workload}", policies.tb, policies.warp, config.name);
            runs += 1;
        }
    }
    runs
}

/// Every warp policy under round-robin dispatch, and every thread-block policy under two warp
/// policies: one that issues whenever it can and CCWS, which gates loads and sleeps. A full
/// cross product of the two registries would take minutes and exercise little more: the
/// thread-block scheduler only decides where blocks start.
#[test]
fn every_registered_policy_gives_the_same_report_with_or_without_shortcuts() {
    let mut runs = 0;
    for warp in specs(WARP_POLICIES) {
        runs += same_either_way(&Policies { tb: "rr".into(), warp });
    }
    for tb in specs(TB_POLICIES).into_iter().filter(|tb| tb != "rr") {
        for warp in ["gto", "ccws"] {
            runs += same_either_way(&Policies { tb: tb.clone(), warp: warp.into() });
        }
    }
    assert!(runs >= 24);
}

/// The memory-issue gates layered on GTO, each with its parameters at their extremes, and an
/// arbiter with a limit and on another base, under SMK's shared SMs on the two-stream workload
/// (whose kernels compete for the LSU).
#[test]
fn every_memory_issue_gate_gives_the_same_report_with_or_without_shortcuts() {
    use warpscope_core::sched::warp::gated::MEMORY_GATES;
    let mut runs = 0;
    let mut warps: Vec<String> = specs(MEMORY_GATES).iter().map(|gate| format!("gto+{gate}")).collect();
    warps.extend(["gto+qbmi+dmil".into(), "lrr+rbmi".into(), "2lvl-gto+qbmi".into()]);
    for warp in warps {
        let policies = Policies { tb: "smk".into(), warp };
        for config in &machines() {
            let fast = report(config, "pair-compute-memory", &policies, true);
            let reference = report(config, "pair-compute-memory", &policies, false);
            assert!(fast == reference, "{} on {}", policies.warp, config.name);
            runs += 1;
        }
    }
    assert!(runs >= 22);
}

/// `pair-compute-memory` under SMK and round-robin on every machine changed by `tweak`, with
/// and without the shortcuts.
fn two_streams_same_either_way(tweak: impl Fn(&mut GpuConfig)) -> usize {
    let mut runs = 0;
    for mut config in machines() {
        tweak(&mut config);
        for tb in ["smk", "rr"] {
            let policies = Policies { tb: tb.into(), warp: "gto".into() };
            let fast = report(&config, "pair-compute-memory", &policies, true);
            let reference = report(&config, "pair-compute-memory", &policies, false);
            assert!(fast == reference, "{tb} on {}", config.name);
            runs += 1;
        }
    }
    runs
}

/// Per-kernel MSHR shares: a kernel at its share fails, and the LSU waits, while entries of
/// the other kernel stay free.
#[test]
fn per_kernel_mshr_shares_give_the_same_report_with_or_without_shortcuts() {
    let runs = two_streams_same_either_way(|config| {
        config.l1.mshr_partition = warpscope_core::config::MshrPartition::PerKernel;
        config.l1.mshr_entries = 8;
    });
    assert_eq!(runs, 4);
}

/// UCP's way partition: the LSU retries every cycle under it, and the shadow tags and splits
/// must not depend on which cycles the engine skips.
#[test]
fn ucp_gives_the_same_report_with_or_without_shortcuts() {
    let runs = two_streams_same_either_way(|config| {
        config.l1.partition = warpscope_core::config::L1Partition::Ucp;
        config.l1.ucp_period = 5_000;
    });
    assert_eq!(runs, 4);
}

/// DeNovo's messages (registrations, forwarded reads answered by another SM, revocations,
/// write-backs of owned data), with and without its read-only data kept, and the what-if that
/// keeps every line, on the IKRA machine
/// shrunk to 4 SMs with 4 KB L1s, so that owned lines are evicted and written back and
/// atomics move ownership between SMs.
#[test]
fn every_coherence_model_gives_the_same_report_with_or_without_shortcuts() {
    use warpscope_core::config::Coherence;
    let mut config = presets::ikra_denovo();
    config.core.sm_count = 4;
    config.l1.size_bytes = 4 * 1024;
    let mut runs = 0;
    let mut read_only = GpuConfig { coherence: Coherence::DeNovo, ..config.clone() };
    read_only.denovo.read_only = warpscope_core::config::ReadOnlyData::Keep;
    for config in [
        GpuConfig { coherence: Coherence::DeNovo, ..config.clone() },
        read_only,
        GpuConfig { coherence: Coherence::KeepL1, ..config.clone() },
        GpuConfig { coherence: Coherence::InvalidateL1, ..config.clone() },
    ] {
        let coherence = (config.coherence, config.denovo.read_only);
        for workload in ["stencil", "bfs-dp", "memcached", "ubench-ws"] {
            for tb in ["rr", "flip", "steal"] {
                let policies = Policies { tb: tb.into(), warp: "gto".into() };
                let fast = report(&config, workload, &policies, true);
                let reference = report(&config, workload, &policies, false);
                assert!(fast == reference, "{tb} under {coherence:?} running {workload}");
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 48);
}

/// The launch paths: CDP with a KDU small enough that kernels wait in the KMU (and the
/// runtime's stalls scaled down so the runs stay short), and DTBL with group tables small
/// enough to overflow and the insert search modelled, under every thread-block policy.
#[test]
fn every_launch_path_gives_the_same_report_with_or_without_shortcuts() {
    use warpscope_core::config::LaunchPath;
    let mut config = presets::laperm_k20c();
    config.core.sm_count = 4;
    let mut cdp = config.clone();
    (cdp.device_launch.path, cdp.device_launch.kdu_entries, cdp.device_launch.cdp_latency_percent) =
        (LaunchPath::Cdp, 4, 5);
    let mut dtbl = config.clone();
    (dtbl.device_launch.path, dtbl.device_launch.group_entries_per_sm) = (LaunchPath::Dtbl, 2);
    dtbl.device_launch.insert_search = warpscope_core::config::InsertSearch::Linear;
    let mut runs = 0;
    for config in [cdp, dtbl] {
        for workload in ["bfs-dp", "amr"] {
            for info in TB_POLICIES {
                let policies = Policies { tb: info.id.into(), warp: "gto".into() };
                let fast = report(&config, workload, &policies, true);
                let reference = report(&config, workload, &policies, false);
                assert!(fast == reference, "{} on {:?} running {workload}", info.id, config.device_launch.path);
                runs += 1;
            }
        }
    }
    assert!(runs >= 20);
}
