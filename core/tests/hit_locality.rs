//! The L1's hit breakdown (the CCWS paper's intra-/inter-warp and intra-/inter-thread hits) on
//! hand-built kernels whose every hit can be counted by hand. One SM of the CCWS paper's
//! machine: 32 KB, 8 ways, 128-byte lines of one sector, so a warp's 32 consecutive words are
//! one line request. Each kernel makes a load wait for the one before (`x >> 30` is 0 for the
//! small values read, but the compiler cannot know), so a re-read finds its line filled: a
//! hit, never a merge into a fetch in flight.

use warpscope_core::config::{presets, Coherence, GpuConfig};
use warpscope_core::kernel::{compile, CompileOptions};
use warpscope_core::stats::Report;
use warpscope_core::{Policies, RunOptions, Simulation, StepOutcome};

fn one_sm(coherence: Coherence) -> GpuConfig {
    let mut c = presets::ccws_fermi();
    c.core.sm_count = 1;
    c.coherence = coherence;
    c
}

fn run(source: &str, config: GpuConfig) -> Report {
    let program = compile(source, &CompileOptions { config: &config, defines: &[], optimize: true }).expect("compiles");
    let mut sim = Simulation::new(config, program.workload, &Policies::default(), RunOptions::default()).unwrap();
    assert_eq!(sim.run(), StepOutcome::Finished);
    sim.report()
}

/// (hits, intra-warp, inter-warp, intra-thread) of the whole run.
fn breakdown(r: &Report) -> (u64, u64, u64, u64) {
    (r.l1.hits, r.l1.intra_warp_hits, r.l1.inter_warp_hits, r.l1.intra_thread_hits)
}

#[test]
fn warps_rereading_their_own_lines_hit_intra_warp_and_intra_thread() {
    // 4 warps, each reading its own line 4 times: 1 miss and 3 hits a warp.
    let source = "
        __global__ void own(const int* a, int* out) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            int x = 0;
            for (int r = 0; r < 4; r++) x += a[i + (x >> 30)];
            out[i] = x;
        }
        host {
            int a[128] = iota();
            int out[128];
            own<<<1, 128>>>(a, out);
        }";
    let r = run(source, one_sm(Coherence::InvalidateL1));
    assert_eq!((r.l1.misses, r.l1.hit_reserved), (4, 0));
    assert_eq!(breakdown(&r), (12, 12, 0, 12));
    assert_eq!(r.kernels[0].l1.intra_warp_hits, 12, "the run counts them too");
}

#[test]
fn warps_reading_lines_other_warps_fetched_hit_inter_warp() {
    // 4 warps each load their own line and wait for it; after the barrier every line is in
    // the L1. Each warp then reads its neighbour's line (an inter-warp hit), then its own
    // again (intra-warp, intra-thread): 4 misses, 4 + 4 hits.
    let source = "
        __global__ void neighbour(const int* a, int* out) {
            int t = threadIdx.x;
            int w = t / 32;
            int lane = t % 32;
            int x = a[t];
            int s = x >> 30;
            __syncthreads();
            int y = a[((w + 1) % 4) * 32 + lane + s];
            int z = a[t + (y >> 30)];
            out[t] = x + y + z;
        }
        host {
            int a[128] = iota();
            int out[128];
            neighbour<<<1, 128>>>(a, out);
        }";
    let r = run(source, one_sm(Coherence::InvalidateL1));
    assert_eq!((r.l1.misses, r.l1.hit_reserved), (4, 0));
    assert_eq!(breakdown(&r), (8, 4, 4, 4));
}

#[test]
fn lanes_reading_what_other_lanes_of_their_warp_fetched_hit_inter_thread() {
    // One warp: lanes 0-15 load the line; then lanes 16-31 read it (intra-warp, but no lane of
    // theirs touched it: inter-thread); then all 32 lanes (lanes that touched it: intra-thread).
    let source = "
        __global__ void halves(const int* a, int* out) {
            int t = threadIdx.x;
            int x = 0;
            if (t < 16) x = a[t];
            int s = x >> 30;
            int y = 0;
            if (t >= 16) y = a[t + s];
            int z = a[t + (y >> 30) + s];
            out[t] = x + y + z;
        }
        host {
            int a[32] = iota();
            int out[32];
            halves<<<1, 32>>>(a, out);
        }";
    let r = run(source, one_sm(Coherence::InvalidateL1));
    assert_eq!(r.l1.misses, 1);
    assert_eq!(breakdown(&r), (2, 2, 0, 1));
}

#[test]
fn a_new_warp_in_a_reused_slot_is_another_warp() {
    // Two launches of one warp each, the L1 kept between kernels: the second warp runs in the
    // slot the first left, and hits on the line the first brought in. Same slot, other warp:
    // an inter-warp hit (counting by slot would call it intra-warp).
    let source = "
        __global__ void once(const int* a, int* out) {
            out[threadIdx.x] = a[threadIdx.x];
        }
        host {
            int a[32] = iota();
            int out[32];
            once<<<1, 32>>>(a, out);
            once<<<1, 32>>>(a, out);
        }";
    let r = run(source, one_sm(Coherence::KeepL1));
    assert_eq!(r.l1.misses, 1);
    assert_eq!(breakdown(&r), (1, 0, 1, 0));
    assert_eq!((r.kernels[1].l1.hits, r.kernels[1].l1.inter_warp_hits), (1, 1));
}
