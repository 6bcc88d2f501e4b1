//! `l1.replacement = Belady`: the run is timed with LRU, its L1 accesses recorded and replayed
//! after it with optimal and with LRU replacement ([`warpscope_core::mem::replay`]). Checked
//! here on the engine: the timing is exactly LRU's, the replay sees every accepted access,
//! the LRU replay reproduces the timed L1's misses (exactly where nothing is in flight when a
//! line is chosen for eviction, within 1% on the CCWS paper's workloads), and Belady's counts on
//! a hand-worked sweep.

use warpscope_core::claims::Metric;
use warpscope_core::config::{presets, Coherence, GpuConfig, Replacement, SetIndex};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::mem::replay::AccessKind;
use warpscope_core::stats::{KernelReport, L1Replay, Report};
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

fn simulate(source: &str, config: GpuConfig, defines: &[(String, String)], warp: &str) -> Simulation {
    let program = compile(source, &CompileOptions { config: &config, defines, optimize: true }).expect("compiles");
    let policies = Policies { tb: "rr".into(), warp: warp.into() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    sim
}

fn belady(mut config: GpuConfig) -> GpuConfig {
    config.l1.replacement = Replacement::Belady;
    config
}

/// The report without its replay, as a run with plain LRU would give it.
fn without_replay(r: &Report) -> Report {
    let kernels = r.kernels.iter().map(|k| KernelReport { l1_replay: None, ..k.clone() }).collect();
    Report { l1_replay: None, kernels, ..r.clone() }
}

fn library_run(id: &str, config: GpuConfig, warp: &str) -> Simulation {
    let entry = library::by_id(id).unwrap();
    simulate(entry.source, config, &[], warp)
}

/// The CCWS paper validated its replayer with LRU against the timing simulator (0.1%). Ours,
/// on two of its most cache-sensitive workloads under GTO and LRR, on its machine: within 1%,
/// but for memcached under GTO (1.4%). The replay has instant fills, as the paper's; the timed
/// L1 does not: it never evicts a line with a fetch in flight (it takes the least recently
/// used line of those with none), and keeps such a line through a store (write-evict) and an
/// invalidation until its fill, where the replay does whatever LRU says.
#[test]
fn the_lru_replay_reproduces_the_timed_l1_on_the_papers_workloads() {
    // (workload, scheduler, largest difference allowed). Measured: bfs -0.004 % (GTO) and
    // 0.000 % (LRR); memcached -1.42 % (GTO) and -0.03 % (LRR); coloring 0.000 % both ways.
    // memcached under GTO keeps many lines of a set in flight at once (89 849 attempts found
    // every way of the set reserved): in 6 243 of its evictions the least recently used line was
    // reserved, so the timed L1 evicted a more recent one and missed more than LRU would.
    for (id, warp, tolerance) in
        [("bfs", "gto", 0.01), ("bfs", "lrr", 0.01), ("memcached", "gto", 0.02), ("memcached", "lrr", 0.01)]
    {
        let lru = library_run(id, presets::ccws_fermi(), warp).report();
        let sim = library_run(id, belady(presets::ccws_fermi()), warp);
        let r = sim.report();
        assert_eq!(without_replay(&r), lru, "{id} {warp}: Belady is timed exactly as LRU");
        let replay = r.l1_replay.expect("a Belady run replays its L1");
        assert_eq!(replay.accesses, r.l1.accesses, "{id}: every accepted access is replayed");
        assert_eq!(replay.loads, r.l1.accesses - r.l1.forwarded, "{id}");
        assert_eq!(
            (replay.belady_hits + replay.belady_misses, replay.lru_hits + replay.lru_misses),
            (replay.loads, replay.loads)
        );
        let timed = r.l1.misses as f64;
        let difference = (replay.lru_misses as f64 - timed) / timed;
        eprintln!(
            "{id} {warp}: timed L1 {} misses, LRU replay {} ({:+.3} %), Belady {} ({:.1} % fewer than LRU)",
            r.l1.misses,
            replay.lru_misses,
            100.0 * difference,
            replay.belady_misses,
            100.0 * (1.0 - replay.belady_misses as f64 / replay.lru_misses as f64)
        );
        assert!(difference.abs() < tolerance, "{id} {warp}: LRU replay {} vs timed {}", replay.lru_misses, r.l1.misses);
        assert!(replay.belady_misses < replay.lru_misses, "{id}: optimal replacement saves something");
        // The runs' replays add up to the whole run's.
        let runs: Vec<L1Replay> = r.kernels.iter().map(|k| k.l1_replay.expect("every run has its replay")).collect();
        let sum = |f: fn(&L1Replay) -> u64| runs.iter().map(f).sum::<u64>();
        assert_eq!(
            (sum(|x| x.accesses), sum(|x| x.belady_misses), sum(|x| x.lru_misses), sum(|x| x.lru_hits)),
            (replay.accesses, replay.belady_misses, replay.lru_misses, replay.lru_hits),
            "{id}"
        );
        for k in &r.kernels {
            assert_eq!(k.l1_replay.unwrap().accesses, k.l1.accesses, "{id}: run {}", k.name);
        }
        // The MPKI of a Belady run is Belady's.
        let mpki = Metric::L1Mpki.measure(&r).unwrap();
        assert_eq!(mpki, 1000.0 * (replay.belady_misses as f64 / r.warp_instructions as f64));
        assert!(mpki < Metric::L1Mpki.measure(&lru).unwrap());
        // The stream holds a flush for each host launch (ccws-fermi invalidates L1s).
        let flushes = sim.l1_accesses(0).iter().filter(|a| a.kind == AccessKind::Flush).count();
        assert_eq!(flushes, r.kernels.len(), "{id}");
    }
}

/// One SM of the CCWS paper's machine with linear set indexing: 32 sets of 8 ways.
fn one_sm() -> GpuConfig {
    let mut c = presets::ccws_fermi();
    c.core.sm_count = 1;
    c.l1.index = SetIndex::Linear;
    c
}

/// One warp sweeps `lines` lines of one set (4 KiB apart) `passes` times, each load waiting for
/// the one before, so nothing is ever in flight when a victim is chosen.
const SWEEP: &str = "
    #define LINES 9
    #define PASSES 5
    __global__ void sweep(const int* a, int* out) {
        int x = 0;
        for (int p = 0; p < PASSES; p++)
            for (int l = 0; l < LINES; l++) x += a[l * 1024 + threadIdx.x + (x >> 30)];
        out[threadIdx.x] = x;
    }
    host {
        int a[LINES * 1024] = iota();
        int out[32];
        sweep<<<1, 32>>>(a, out);
    }";

#[test]
fn belady_on_a_cyclic_sweep_one_line_too_big_misses_once_per_set_of_ways() {
    // 9 lines cycled through 8 ways, 5 passes = 45 loads. LRU misses every one (the timing
    // tests' closed form). Belady: 8 cold misses; then each miss evicts the line needed
    // furthest ahead, the one just before it in the cycle, which is needed again 8 loads
    // later: a miss every 8 loads, at loads 8, 16, 24, 32 and 40: 13 misses.
    let r = simulate(SWEEP, belady(one_sm()), &[], "gto").report();
    assert_eq!((r.l1.misses, r.l1.hits), (45, 0), "timed with LRU");
    let replay = r.l1_replay.unwrap();
    assert_eq!((replay.loads, replay.lru_misses), (45, 45), "the replay agrees exactly");
    assert_eq!((replay.belady_misses, replay.belady_hits), (13, 32));
    // A sweep that fits: both replays see only the 8 cold misses.
    let fits = [("LINES".to_string(), "8".to_string())];
    let r = simulate(SWEEP, belady(one_sm()), &fits, "gto").report();
    let replay = r.l1_replay.unwrap();
    assert_eq!((r.l1.misses, replay.lru_misses, replay.belady_misses), (8, 8, 8));
}

/// A kernel reading 32 lines, launched twice: the replay flushes between the launches exactly
/// when the machine invalidates its L1s.
#[test]
fn the_replay_flushes_at_kernel_boundaries_only_under_gpu_coherence() {
    let source = "
        __global__ void reread(const int* a, int* out) {
            out[threadIdx.x] = a[threadIdx.x * 32];
        }
        host {
            int a[1024] = iota();
            int out[32];
            reread<<<1, 32>>>(a, out);
            reread<<<1, 32>>>(a, out);
        }";
    for (coherence, misses) in [(Coherence::InvalidateL1, 64), (Coherence::KeepL1, 32)] {
        let mut c = one_sm();
        c.coherence = coherence;
        let r = simulate(source, belady(c), &[], "gto").report();
        let replay = r.l1_replay.unwrap();
        assert_eq!((r.l1.misses, replay.lru_misses, replay.belady_misses), (misses, misses, misses), "{coherence:?}");
        // 32 loads and one store request per launch.
        assert_eq!((replay.accesses, replay.loads), (66, 64));
        assert_eq!(r.kernels[1].l1_replay.unwrap().belady_misses, misses - 32);
    }
}

#[test]
fn a_write_evict_store_drops_the_line_in_the_replay_too() {
    // Load a line, store to it (write-evict drops it), load it again: two misses each way.
    // `volatile` makes the second load read memory (else it is forwarded from the store).
    let source = "
        __global__ void rmw(volatile int* a) {
            int x = a[threadIdx.x];
            a[threadIdx.x] = x + 1;
            a[threadIdx.x + 32] = a[threadIdx.x] + (x >> 30);
        }
        host { int a[64] = iota(); rmw<<<1, 32>>>(a); }";
    let r = simulate(source, belady(one_sm()), &[], "gto").report();
    let replay = r.l1_replay.unwrap();
    assert_eq!((r.l1.misses, r.l1.forwarded), (2, 2));
    assert_eq!((replay.accesses, replay.loads, replay.lru_misses, replay.belady_misses), (4, 2, 2, 2));
}

#[test]
fn other_replacements_record_nothing_and_report_no_replay() {
    let sim = simulate(SWEEP, one_sm(), &[], "gto");
    assert!(sim.l1_accesses(0).is_empty());
    let r = sim.report();
    assert_eq!(r.l1_replay, None);
    assert!(r.kernels.iter().all(|k| k.l1_replay.is_none()));
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains("l1_replay"), "reports of other runs are unchanged");
}

#[test]
fn the_l2_and_the_cache_sweep_refuse_belady_naming_the_field() {
    let mut c = presets::ccws_fermi();
    c.l2.replacement = Replacement::Belady;
    assert_eq!(c.validate().unwrap_err().field, "l2.replacement");
    let mut c = presets::ccws_fermi();
    let e = c.set_field("l2.replacement", "Belady").unwrap_err();
    assert_eq!(e.field, "l2.replacement");
    c.set_field("l1.replacement", "Belady").unwrap();
    assert_eq!(c.validate(), Ok(()));
    let sweep = warpscope_core::sweep::CacheSweepSpec { replacement: Replacement::Belady, ..Default::default() };
    assert_eq!(sweep.validate().unwrap_err().field, "replacement");
}

#[test]
fn the_replay_is_the_same_whether_idle_cycles_are_skipped_or_not() {
    // The recorded stream is the accepted accesses in order, which the shortcuts never change.
    let entry = library::by_id("memcached").unwrap();
    let defines = [entry.size_define(entry.size.min)];
    let config = belady(presets::ccws_fermi());
    let program =
        compile(entry.source, &CompileOptions { config: &config, defines: &defines, optimize: true }).unwrap();
    let report = |skip_idle| {
        let options = RunOptions { skip_idle, ..RunOptions::default() };
        let mut sim = Simulation::new(config.clone(), program.workload.clone(), &Policies::default(), options).unwrap();
        assert_eq!(sim.run(), StepOutcome::Finished);
        sim.report()
    };
    let (fast, plain) = (report(true), report(false));
    assert!(fast.l1_replay.is_some_and(|r| r.belady_misses > 0));
    assert_eq!(fast, plain);
}
