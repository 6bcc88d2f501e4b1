//! The memory estimate that validation checks against its budget ([`footprint`]) agrees with
//! what the engine really allocates: counted by a global allocator that adds up every live
//! allocation, for machines where one part of the estimate dominates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use warpscope_core::config::{presets, GpuConfig, SetIndex};
use warpscope_core::footprint::{self, MEMORY_BUDGET};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::workload::Workload;
use warpscope_core::{Policies, RunOptions, Simulation};

/// Bytes live now, and the most live since the last reset.
struct Counting;
static LIVE: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size() as u64, Ordering::SeqCst) + layout.size() as u64;
        PEAK.fetch_max(live, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as u64, Ordering::SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Tests in this file measure one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A kernel of many registers, in blocks enough to fill every warp slot of every SM.
const KERNEL: &str = r#"
__global__ void k(float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = a[i], x1 = a[i + 1], x2 = a[i + 2], x3 = a[i + 3], x4 = a[i + 4], x5 = a[i + 5];
    float x6 = a[i + 6], x7 = a[i + 7], x8 = a[i + 8], x9 = a[i + 9];
    a[i] = x0 * x1 + x2 * x3 + x4 * x5 + x6 * x7 + x8 * x9;
}
#define BLOCKS 1
host {
    float a[65536];
    k<<<BLOCKS, 128>>>(a);
}
"#;

fn workload(config: &GpuConfig, blocks: u32) -> Workload {
    let defines = [("BLOCKS".to_owned(), blocks.to_string())];
    compile(KERNEL, &CompileOptions { config, defines: &defines, optimize: true }).expect("compiles").workload
}

/// What `work` returns, and the most bytes live while it ran beyond what was live before.
fn peak_while<T>(work: impl FnOnce() -> T) -> (T, u64) {
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let result = work();
    (result, PEAK.load(Ordering::SeqCst) - before)
}

/// Bytes allocated at the peak of building `config` and running `workload` `cycles` cycles,
/// beyond what was live before; and the estimate's total.
fn measured_and_estimated(config: GpuConfig, workload: Workload, cycles: u64) -> (u64, u64) {
    let estimate = footprint::total(&footprint::estimate(&config, &workload, 0));
    let (sim, peak) = peak_while(|| {
        let mut sim = Simulation::new(config, workload, &Policies::default(), RunOptions::default()).expect("valid");
        sim.step_until(cycles);
        sim
    });
    drop(sim);
    (peak, estimate)
}

fn assert_close(what: &str, (measured, estimated): (u64, u64)) {
    let ratio = estimated as f64 / measured as f64;
    assert!((0.8..=1.25).contains(&ratio), "{what}: estimated {estimated} B, allocated {measured} B ({ratio:.2})");
}

#[test]
fn the_estimate_follows_the_l1s_the_l2_and_the_registers() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut big_l1 = presets::fermi_gtx480();
    (big_l1.l1.size_bytes, big_l1.l1.index, big_l1.core.sm_count) = (8 << 20, SetIndex::Linear, 16);
    let w = workload(&big_l1, 1);
    assert_close("8 MiB L1s on 16 SMs", measured_and_estimated(big_l1, w, 1));

    let mut wide_l1 = presets::h100();
    (wide_l1.l1.size_bytes, wide_l1.l1.ways) = (4 << 20, 1024);
    let w = workload(&wide_l1, 1);
    assert_close("4 MiB L1s of 1024 ways on 132 SMs", measured_and_estimated(wide_l1, w, 1));

    let mut big_l2 = presets::fermi_gtx480();
    (big_l2.l2.size_bytes, big_l2.l2.index) = (192 << 20, SetIndex::Linear);
    let w = workload(&big_l2, 1);
    assert_close("a 192 MiB L2", measured_and_estimated(big_l2, w, 1));

    // 1024 SMs of 48 warp slots and no L1: once every slot holds a warp, its registers are
    // most of what is allocated.
    let mut many_slots = presets::fermi_gtx480();
    (many_slots.core.sm_count, many_slots.l1.size_bytes) = (1024, 0);
    many_slots.core.max_tbs_per_sm = many_slots.core.max_warps_per_sm / 4;
    let blocks = 1024 * many_slots.core.max_warps_per_sm / 4;
    let w = workload(&many_slots, blocks);
    assert_close("registers of 1024 SMs' warp slots", measured_and_estimated(many_slots, w, 2_000));
}

#[test]
fn a_machine_over_the_budget_is_refused_naming_the_field_that_makes_it_so() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // The case that aborted natively and crashed the worker: a 1 GiB L1 on each of 64 SMs.
    let mut config = presets::fermi_gtx480();
    (config.l1.size_bytes, config.l1.index, config.core.sm_count) = (1 << 30, SetIndex::Linear, 64);
    let w = workload(&config, 1);
    let (err, peak) =
        peak_while(|| Simulation::new(config.clone(), w.clone(), &Policies::default(), RunOptions::default()).err());
    assert!(peak < 1 << 20, "refused before anything large is allocated");
    let err = err.expect("refused");
    assert_eq!(err.field, "l1.size_bytes");
    assert!(err.reason.contains("more than the 1.0 GiB a run may use"), "{}", err.reason);

    // A 256 MiB L2 is within the budget; the largest presets are far within it.
    config = presets::fermi_gtx480();
    config.l2.size_bytes = 256 << 20;
    assert!(footprint::check(&config, &w, 0).is_ok());
    for preset in presets::ALL {
        let config = (preset.build)();
        let total = footprint::total(&footprint::estimate(&config, &workload(&config, 1), 0));
        assert!(total < MEMORY_BUDGET / 10, "{}: {total} B", preset.id);
    }
}
