//! Scalability curves (`cke.md` §1.5): how fast each co-running kernel runs alone at each
//! number of its blocks per SM, from one block up to its occupancy. Warped-Slicer chooses its
//! split of an SM from them.
//!
//! The paper profiles dynamically, early in the co-run, giving each SM one kernel at a different
//! block count, with correction factors for the L2 and DRAM that it does not define. Here the
//! curves are profiled statically, as the notes suggest: each kernel (a host stream) runs
//! alone on the whole machine with at most `n` of its blocks on every SM, for a window of
//! `cycles`, relaunched whenever it completes. Every SM then runs at the occupancy measured,
//! so the shared L2 and DRAM see the traffic that occupancy makes, which is what the paper's
//! correction factors stand in for. The profile runs use the base warp policy without memory
//! gates: the split is the one Warped-Slicer would choose on the baseline, and the same for
//! WS, WS-QBMI and WS-DMIL, so that comparing them isolates the gates.

use alloc::string::String;
use alloc::vec::Vec;

use crate::config::GpuConfig;
use crate::gpu::{RunOptions, Simulation};
use crate::sched::tb::{occupancy, BlockNeeds, TbPolicy};
use crate::sched::warp::WarpPolicy;
use crate::workload::Workload;

/// One profile run: the machine (its block cap and window set), the program alone and the
/// warp policy's spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileKey {
    /// The machine as profiled.
    pub config: GpuConfig,
    /// The program alone.
    pub workload: Workload,
    /// The warp policy's spec.
    pub warp: String,
}

/// Profile runs already made, so that runs needing the same one (a pair under Warped-Slicer
/// with each of several gates) make it once. The engine is deterministic, so a remembered
/// count is what the run would give; a runner shares one memo among its threads.
pub trait ProfileMemo {
    /// The warp instructions of the run `key` names, if it was made.
    fn recall(&self, key: &ProfileKey) -> Option<u64>;
    /// Keeps what the run `key` names gave.
    fn remember(&self, key: ProfileKey, instructions: u64);
}

/// A memo that remembers nothing.
pub struct NoMemo;

impl ProfileMemo for NoMemo {
    fn recall(&self, _key: &ProfileKey) -> Option<u64> {
        None
    }

    fn remember(&self, _key: ProfileKey, _instructions: u64) {}
}

/// One kernel's curve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Curve {
    /// Its host stream.
    pub stream: u32,
    /// Warp instructions it completed in the window with at most `n` blocks per SM, at index
    /// `n - 1`, up to its occupancy alone.
    pub instructions: Vec<u64>,
}

impl Curve {
    /// Performance at `blocks` per SM over performance at full occupancy (1 for a kernel that
    /// did no work at all, which then never decides a split); past the curve's end, its last.
    pub fn normalised(&self, blocks: u32) -> f64 {
        let full = self.instructions.last().copied().unwrap_or(0);
        if full == 0 || blocks == 0 {
            return if full == 0 { 1.0 } else { 0.0 };
        }
        let at = (blocks as usize).min(self.instructions.len()) - 1;
        self.instructions[at] as f64 / full as f64
    }
}

/// The curves of `workload`'s host streams, in order of each one's first launch, profiled on
/// `config` under `warp` with a window of `cycles` per point.
pub fn curves(config: &GpuConfig, workload: &Workload, warp: &str, cycles: u32, memo: &dyn ProfileMemo) -> Vec<Curve> {
    workload.host_streams().into_iter().map(|stream| curve(config, workload, warp, cycles, stream, memo)).collect()
}

/// Each host stream's warp instructions per SM per cycle alone at full occupancy, over a window
/// of `cycles` (SMK-W's quotas): the last point of its curve, measured on its own.
pub fn alone(
    config: &GpuConfig,
    workload: &Workload,
    warp: &str,
    cycles: u32,
    memo: &dyn ProfileMemo,
) -> Vec<(u32, f64)> {
    workload
        .host_streams()
        .into_iter()
        .map(|stream| {
            let alone = workload.only_stream(stream);
            let instructions = profile(config, &alone, warp, cycles, config.core.max_tbs_per_sm, memo);
            let per_sm_cycle = instructions as f64 / (f64::from(cycles) * f64::from(config.core.sm_count.max(1)));
            (stream, per_sm_cycle)
        })
        .collect()
}

/// Warp instructions `alone` completes in a window of `cycles` with at most `blocks` per SM
/// under warp policy `warp` (a valid spec).
fn profile(config: &GpuConfig, alone: &Workload, warp: &str, cycles: u32, blocks: u32, memo: &dyn ProfileMemo) -> u64 {
    let mut profile = config.clone();
    profile.core.max_tbs_per_sm = blocks;
    profile.window.cycles = cycles;
    let key = ProfileKey { config: profile, workload: alone.clone(), warp: warp.into() };
    if let Some(instructions) = memo.recall(&key) {
        return instructions;
    }
    let options =
        RunOptions { max_cycles: u64::from(cycles) + 1, series_every: u64::from(cycles), ..RunOptions::default() };
    let tb = TbPolicy::from_spec("rr").expect("round-robin is registered");
    let Ok(policy) = WarpPolicy::from_spec(warp) else { return 0 };
    let mut sim = Simulation::with_policies(key.config.clone(), alone.clone(), tb, policy, options);
    // A fault or a deadlock ends the profile where it stood: its count so far is the kernel's
    // performance here, as the co-run would meet the same end.
    sim.run();
    let instructions = sim.report().warp_instructions;
    memo.remember(key, instructions);
    instructions
}

fn curve(
    config: &GpuConfig,
    workload: &Workload,
    warp: &str,
    cycles: u32,
    stream: u32,
    memo: &dyn ProfileMemo,
) -> Curve {
    let alone = workload.only_stream(stream);
    // Up to the largest occupancy among the stream's kernels.
    let most = alone
        .launches
        .iter()
        .map(|l| {
            let kernel = &alone.kernels[l.kernel as usize];
            let needs = BlockNeeds::of(
                &config.core,
                l.block,
                kernel.regs_per_thread,
                kernel.block_shared_bytes(l.dynamic_shared),
            );
            occupancy(&config.core, &needs).blocks_per_sm
        })
        .max()
        .unwrap_or(0);
    let instructions = (1..=most).map(|blocks| profile(config, &alone, warp, cycles, blocks, memo)).collect();
    Curve { stream, instructions }
}
