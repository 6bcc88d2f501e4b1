//! The CIAO stand-ins behave as the paper classes them (Table II), where the class is about the
//! shared-memory cache: redirected, the interfering warps of a small-working-set (SWS) kernel
//! find their data there again, while those of a large-working-set (LWS) kernel "thrash the
//! shared memory as well" (§V-B). Measured as the hit rate of redirected loads in the first
//! stretch of each run, on the claims' machine (the GTX 480 cut to 2 SMs, `claims/ciao.rs`),
//! with every active warp examined at each high boundary so that many warps are redirected early.
//!
//! What decides the class here is the paper's linear index (slot = line mod 256), and that can
//! be worked out by hand. In a row walk (atax, bicg, mvt, and also gesummv) lane `i` of a warp
//! reads row `i` of a 1024-float matrix: lines 32 apart, which fall on only 256 / 32 = 8 slots.
//! Four lanes of one load instruction share each slot, so a lane's line is pushed out before
//! the lane comes back for its next float: practically every redirected load misses. In syr2k
//! the lanes read rows of 128 floats (4 lines apart): 32 distinct slots a matrix, which hold. A
//! mapreduce lane scans its own record, a few consecutive lines. With the XOR-folded index the
//! row walks' lines spread over the slots and atax's redirected warps find their rows again:
//! the crowding, not the capacity, makes these kernels LWS.
//!
//! Two stand-ins do not behave as the paper classes them (rows ciao-8-1 and ciao-8-3 say so):
//! gesummv (SWS) walks rows like atax, so it thrashes too; kmn (LWS) fits, because its lanes
//! read their own line's 32 floats one after another, so a redirected line is re-read at once.

use warpscope_core::config::{presets, GpuConfig};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::library;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

/// The claims' machine for CIAO: a GTX 480 cut to 2 SMs and their share of memory.
fn two_sms() -> GpuConfig {
    let mut c = presets::fermi_gtx480();
    for (path, value) in warpscope_core::claims::CIAO_TWO_SMS {
        c.set_field(path, value).expect("the rows' settings are valid");
    }
    c
}

/// Long enough for dozens of high epochs on each SM.
const CYCLES: u64 = 1_000_000;

/// The hit rate, in percent, of the loads redirected to the shared-memory cache in the first
/// [`CYCLES`] of library workload `id` at its default size under CIAO-P with `extra` settings.
fn redirected_hit_rate(id: &str, extra: &str) -> u64 {
    let entry = library::by_id(id).expect("a library workload");
    let config = two_sms();
    let program = compile(entry.source, &CompileOptions { config: &config, defines: &[], optimize: true })
        .unwrap_or_else(|e| panic!("{id}: {}", e[0]));
    let policies = Policies { warp: format!("ciao-p:exam_high=2{extra}"), ..Policies::default() };
    let options = RunOptions { max_cycles: CYCLES, ..RunOptions::default() };
    let mut sim = Simulation::new(config, program.workload, &policies, options).expect("valid");
    let outcome = sim.run();
    assert!(matches!(outcome, StepOutcome::Finished | StepOutcome::CycleLimit { .. }), "{id}: {outcome:?}");
    let l1 = sim.report().l1;
    let redirected = l1.redirected_loads();
    assert!(redirected > 10_000, "{id}: CIAO-P redirects plenty ({redirected} loads)");
    100 * l1.smc_hits / redirected
}

/// Per stand-in: the paper's class, and whether its redirected loads find their lines again in
/// the shared-memory cache here (as small working sets do).
const STAND_INS: &[(&str, &str, bool)] = &[
    ("atax", "LWS", false),
    ("bicg", "LWS", false),
    ("mvt", "LWS", false),
    // Mars's k-means: a lane reads its point's 32 floats back to back, so its line, once
    // redirected, serves 31 of every 32 reads from there.
    ("kmn", "LWS", true),
    // A row walk like atax's: 8 slots for a warp's 32 rows.
    ("gesummv", "SWS", false),
    ("syr2k", "SWS", true),
    ("mapreduce", "SWS", true),
];

#[test]
fn large_working_sets_thrash_the_shared_memory_cache_and_small_ones_fit() {
    for &(id, class, fits) in STAND_INS {
        let rate = redirected_hit_rate(id, "");
        if fits {
            assert!(rate > 70, "{id} ({class}): its data should fit, yet only {rate} % of redirected loads hit");
        } else {
            assert!(rate < 10, "{id} ({class}): a row walk crowds 8 slots, yet {rate} % of redirected loads hit");
        }
    }
}

#[test]
fn the_folded_index_lets_a_row_walk_fit() {
    let rate = redirected_hit_rate("atax", ",smc_xor_fold=1");
    assert!(rate > 70, "atax with the folded index: only {rate} % of redirected loads hit");
}
