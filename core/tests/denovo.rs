//! DeNovo coherence in the engine (`ikra.md` §1.9), on a producer and a consumer kernel whose
//! traffic can be counted by hand: on the paper's 15-SM machine with Reset, block b of every
//! launch runs on SM b, each block is one warp, and each block's slice is one 128-byte line
//! (4 sectors of 32 bytes).
//!
//! `produce` writes slice b in block b. `consume` then reads slice (b + SHIFT) mod 15 in block b
//! and writes its own slice of `out`. With SHIFT = 0 every read finds data its own L1 owns;
//! with SHIFT = 1 every read finds data the next SM's L1 owns.

use warpscope_core::config::{presets, Coherence, GpuConfig, ReadOnlyData};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::stats::Report;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

const SOURCE: &str = r#"
#define SHIFT 0
__global__ void produce(float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = i * 2.0f;
}
__global__ void consume(float* a, float* out) {
    int from = (blockIdx.x + SHIFT) % gridDim.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = a[from * blockDim.x + threadIdx.x] + 1.0f;
}
host {
    float a[15 * 32];
    float out[15 * 32];
    produce<<<15, 32>>>(a);
    consume<<<15, 32>>>(a, out);
}
"#;

/// Blocks, and line requests of each kind per kernel: 15 one-line stores, then 15 one-line
/// loads and 15 one-line stores.
const BLOCKS: u64 = 15;

fn run(coherence: Coherence, shift: u32) -> (Report, Vec<u32>) {
    let config = GpuConfig { coherence, ..presets::ikra_denovo() };
    let defines = [("SHIFT".to_string(), shift.to_string())];
    let program =
        compile(SOURCE, &CompileOptions { config: &config, defines: &defines, optimize: true }).expect("compiles");
    let policies = Policies { tb: "reset".into(), warp: "gto".into() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    let out = sim.buffer(1).to_vec();
    let report = sim.report();
    for b in &report.blocks {
        assert_eq!(b.sm, b.block, "Reset with 15 blocks on 15 SMs runs block b on SM b");
    }
    (report, out)
}

fn expected_out(shift: u32) -> Vec<u32> {
    (0..15u32)
        .flat_map(|b| (0..32u32).map(move |t| (((b + shift) % 15 * 32 + t) as f32 * 2.0 + 1.0).to_bits()))
        .collect()
}

#[test]
fn a_block_rereading_what_its_sm_wrote_hits_in_its_l1_across_the_kernel_boundary() {
    let (report, out) = run(Coherence::DeNovo, 0);
    assert_eq!(out, expected_out(0));
    let consume = &report.kernels[1];
    // Its 15 loads hit data the L1 owns: nothing reaches an L2 bank for them.
    assert_eq!((consume.l1.hits, consume.l1.misses), (BLOCKS, 0));
    assert_eq!((consume.l2.accesses, consume.l2.forwarded), (0, 0));
    // Every store, in either kernel, registered a line not owned before (one per block).
    assert_eq!(report.kernels[0].l1.registrations, BLOCKS);
    assert_eq!(consume.l1.registrations, BLOCKS);
    // The first kernel's registrations reached their banks while the second ran (the run
    // ends when the last block does, with the second's still on their way).
    assert_eq!(report.kernels[0].l2.registrations, BLOCKS);
    // Nothing was evicted, so nothing was written back, and no data was read from anywhere.
    assert_eq!((report.l1.owned_writebacks, report.network.writeback.packets), (0, 0));
    assert_eq!(report.network.read.packets, 0);
    // A registration and its acknowledgement are one header flit each.
    let produced = report.kernels[0].network.ownership;
    assert_eq!((produced.packets, produced.flits), (2 * BLOCKS, 2 * BLOCKS));
}

#[test]
fn a_read_of_data_another_l1_owns_is_answered_by_that_l1() {
    let (report, out) = run(Coherence::DeNovo, 1);
    assert_eq!(out, expected_out(1));
    let consume = &report.kernels[1];
    assert_eq!((consume.l1.hits, consume.l1.misses), (0, BLOCKS));
    // Each load goes to its home bank, which forwards it whole to the owning SM: three legs.
    assert_eq!(consume.l2.forwarded, BLOCKS);
    assert_eq!(consume.l2.accesses, 0, "the bank serves no sector itself");
    // Read traffic: 15 one-flit requests to the banks, 15 replies of 1 + 128/16 flits from the
    // owners; the forwarded requests are ownership traffic, beside 2 × 15 registrations and
    // their acknowledgements.
    assert_eq!(consume.network.read.packets, 2 * BLOCKS);
    assert_eq!(consume.network.read.flits, BLOCKS * (1 + 9));
    // The forwarded requests (one header flit each, bank to owner) are ownership traffic,
    // with the kernel's 15 registrations and the acknowledgements of those that arrived.
    let ownership = consume.network.ownership.packets;
    assert!((2 * BLOCKS..=3 * BLOCKS).contains(&ownership), "{ownership}");
}

#[test]
fn under_gpu_coherence_the_same_reads_are_l2_hits() {
    for shift in [0, 1] {
        let (report, out) = run(Coherence::InvalidateL1, shift);
        assert_eq!(out, expected_out(shift));
        let consume = &report.kernels[1];
        // The boundary emptied the L1s; the produced lines were written through to the L2.
        assert_eq!((consume.l1.hits, consume.l1.misses), (0, BLOCKS), "shift {shift}");
        assert_eq!((consume.l2.hits, consume.l2.forwarded), (BLOCKS, 0), "shift {shift}");
        assert_eq!(report.l1.registrations, 0);
        assert_eq!(report.network.ownership.packets, 0);
        // Stores carry their 128 bytes: 1 + 8 flits each, two kernels' worth.
        assert_eq!(report.network.write.flits, 2 * BLOCKS * 9);
    }
}

#[test]
fn the_keep_everything_what_if_hits_even_on_lines_it_never_wrote() {
    // Under the what-if nothing is invalidated and stores write through: SM b still holds
    // nothing of slice b + 1 (it never read it), so SHIFT = 1 misses to the L2, while SHIFT = 0
    // misses too, since write-through stores do not allocate. It shows what the what-if is not.
    let (report, _) = run(Coherence::KeepL1, 0);
    assert_eq!(report.kernels[1].l1.hits, 0);
    assert_eq!(report.kernels[1].l2.hits, BLOCKS);
}

/// DeNovo's read-only data (`denovo.read_only = Keep`, ikra.md §6): `first` reads `input` (never
/// written) and writes `a`; `second` re-reads `input` and reads the next SM's slice of `a`;
/// `bump` writes `a` again where its data is owned (no registration, no traffic); `second`
/// runs once more. With Keep, `input` survives every boundary, and the next SM's slice of `a`
/// (valid here since `second`) survives the boundary after `second`, which wrote no `a`, but
/// not the one after `bump`, which did, though only as writes to owned data.
const READ_ONLY: &str = r#"
__global__ void first(float* input, float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = input[i] * 2.0f;
}
__global__ void second(float* input, float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int next = (blockIdx.x + 1) % gridDim.x * blockDim.x + threadIdx.x;
    out[i] = input[i] + a[next];
}
__global__ void bump(float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = a[i] + 1.0f;
}
host {
    float input[15 * 32] = iota();
    float a[15 * 32];
    float out[15 * 32];
    first<<<15, 32>>>(input, a);
    second<<<15, 32>>>(input, a, out);
    second<<<15, 32>>>(input, a, out);
    bump<<<15, 32>>>(a);
    second<<<15, 32>>>(input, a, out);
}
"#;

fn run_read_only(read_only: ReadOnlyData) -> (Report, Vec<u32>) {
    let mut config = presets::ikra_denovo();
    config.denovo.read_only = read_only;
    let program =
        compile(READ_ONLY, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let policies = Policies { tb: "reset".into(), warp: "gto".into() };
    let mut sim = Simulation::new(config, program.workload, &policies, RunOptions::default()).expect("valid");
    assert_eq!(sim.run(), StepOutcome::Finished);
    let out = sim.buffer(2).to_vec();
    (sim.report(), out)
}

#[test]
fn read_only_data_survives_boundaries_until_a_kernel_writes_its_buffer() {
    let (keep, out) = run_read_only(ReadOnlyData::Keep);
    let (plain, plain_out) = run_read_only(ReadOnlyData::SelfInvalidate);
    // input[i] = i; a = 2i, then 2i + 1; out[i] = i + a[next].
    let expected: Vec<u32> = (0..15u32)
        .flat_map(|b| {
            (0..32u32).map(move |t| ((b * 32 + t) as f32 + ((b + 1) % 15 * 32 + t) as f32 * 2.0 + 1.0).to_bits())
        })
        .collect();
    assert_eq!(out, expected);
    assert_eq!(plain_out, expected);
    // Per `second` run (runs 1, 2 and 4): L1 hits of its 15 + 15 loads, and forwarded reads.
    let seen = |r: &Report, run: usize| (r.kernels[run].l1.hits, r.kernels[run].l2.forwarded);
    // Plain DeNovo: `input` is refetched every time and `a`'s next slice is always forwarded.
    assert_eq!([seen(&plain, 1), seen(&plain, 2), seen(&plain, 4)], [(0, 15), (0, 15), (0, 15)]);
    // Keep: `input` hits from the second run on; `a`'s next slice hits in the second `second`
    // (nothing wrote `a` in the first) and is forwarded again after `bump` wrote it.
    assert_eq!([seen(&keep, 1), seen(&keep, 2), seen(&keep, 4)], [(15, 15), (30, 0), (15, 15)]);
}
