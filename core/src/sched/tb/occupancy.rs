//! Occupancy: how many blocks of one launch shape an empty SM holds at once, and which of its
//! resources runs out first.
//!
//! This is the engine's own admission rule ([`SmFree::fits`] then [`SmFree::take`], block after
//! block, on [`SmFree::whole_sm`]) in closed form: a block fits while every resource has at
//! least what it needs, so `k` blocks fit exactly when `k × need ≤ have` for every resource and
//! `k` is within the thread-block slots. A test replays the engine's rule on random shapes to
//! keep the two from drifting apart.

use serde::{Deserialize, Serialize};

use super::{BlockNeeds, SmFree};
use crate::config::CoreConfig;

/// A per-SM resource that can bound how many blocks are resident.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    /// Thread-block slots.
    TbSlots,
    /// Warp slots.
    Warps,
    /// Thread slots.
    Threads,
    /// The register file.
    Registers,
    /// Shared memory.
    SharedMemory,
}

impl Limit {
    /// Every limit, in the order [`Occupancy::allowed`] lists them and ties are broken.
    pub const ALL: [Limit; 5] = [Limit::TbSlots, Limit::Warps, Limit::Threads, Limit::Registers, Limit::SharedMemory];

    /// Its name for people.
    pub fn label(self) -> &'static str {
        match self {
            Limit::TbSlots => "thread-block slots",
            Limit::Warps => "warp slots",
            Limit::Threads => "thread slots",
            Limit::Registers => "registers",
            Limit::SharedMemory => "shared memory",
        }
    }
}

/// How one block shape fills an empty SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occupancy {
    /// Blocks resident at once on one SM (0: a block does not fit at all).
    pub blocks_per_sm: u32,
    /// The resource that runs out first; on a tie, the first in [`Limit::ALL`] order (so a
    /// block of whole warps that fills both the warp and the thread slots is limited by warps).
    pub limited_by: Limit,
    /// How many blocks each resource alone would allow, in [`Limit::ALL`] order; `None` where
    /// the block needs none of it (no shared memory, say).
    pub allowed: [Option<u32>; 5],
    /// Warps resident at that occupancy.
    pub warps_per_sm: u32,
}

impl Occupancy {
    /// How many blocks `limit` alone would allow (`None`: the block needs none of it).
    pub fn allowed_by(&self, limit: Limit) -> Option<u32> {
        self.allowed[limit as usize]
    }
}

/// The occupancy of blocks with `needs` on an SM of `core`.
pub fn occupancy(core: &CoreConfig, needs: &BlockNeeds) -> Occupancy {
    let have = SmFree::whole_sm(core);
    let room = |have: u32, need: u32| (need > 0).then(|| have / need);
    let allowed = [
        Some(have.tbs),
        room(have.warps, needs.warps),
        room(have.threads, needs.threads),
        room(have.registers, needs.registers),
        room(have.shared_bytes, needs.shared_bytes),
    ];
    // `min_by_key` keeps the first of equal minima: ties go to the earlier limit.
    let (limited_by, blocks_per_sm) = Limit::ALL
        .into_iter()
        .zip(allowed)
        .filter_map(|(limit, blocks)| Some((limit, blocks?)))
        .min_by_key(|&(_, blocks)| blocks)
        .unwrap_or((Limit::TbSlots, have.tbs));
    Occupancy { blocks_per_sm, limited_by, allowed, warps_per_sm: blocks_per_sm.saturating_mul(needs.warps) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;
    use crate::isa::Dim3;
    use crate::rng::SplitMix64;

    /// Fermi (GTX 480): 48 warps, 8 blocks, 1536 threads, 32768 registers, 48 KiB shared.
    fn fermi() -> CoreConfig {
        presets::fermi_gtx480().core
    }

    fn of(threads: u32, regs: u32, shared: u32) -> Occupancy {
        occupancy(&fermi(), &BlockNeeds::of(&fermi(), Dim3::linear(threads), regs, shared))
    }

    #[test]
    fn hand_worked_fermi_shapes() {
        // 256 threads = 8 warps: 48 / 8 = 6 by warps (and threads); 20 regs × 256 = 5120 per
        // block, 32768 / 5120 = 6.4 → 6 too; the tie goes to warps.
        let o = of(256, 20, 0);
        assert_eq!((o.blocks_per_sm, o.limited_by, o.warps_per_sm), (6, Limit::Warps, 48));
        assert_eq!(o.allowed, [Some(8), Some(6), Some(6), Some(6), None]);
        // 40 regs: 10240 per block, 32768 / 10240 = 3.2 → 3, registers bind.
        let o = of(256, 40, 0);
        assert_eq!((o.blocks_per_sm, o.limited_by, o.warps_per_sm), (3, Limit::Registers, 24));
        // 22 regs: 5632 per block, 5.8 → 5, one below the warp limit.
        assert_eq!((of(256, 22, 0).blocks_per_sm, of(256, 22, 0).limited_by), (5, Limit::Registers));
        // 12 KiB of shared memory per block: 48 / 12 = 4.
        let o = of(256, 16, 12 * 1024);
        assert_eq!((o.blocks_per_sm, o.limited_by), (4, Limit::SharedMemory));
        assert_eq!(o.allowed_by(Limit::SharedMemory), Some(4));
        // 64 threads = 2 warps at 8 regs: warps would allow 24, registers 64; the 8 slots bind.
        let o = of(64, 8, 0);
        assert_eq!((o.blocks_per_sm, o.limited_by, o.warps_per_sm), (8, Limit::TbSlots, 16));
        // 100 threads take 4 warps (registers for 128 threads): 12 by warps, 15 by threads.
        let o = of(100, 8, 0);
        assert_eq!((o.allowed_by(Limit::Warps), o.allowed_by(Limit::Threads)), (Some(12), Some(15)));
        assert_eq!(o.allowed_by(Limit::Registers), Some(32));
    }

    #[test]
    fn a_block_that_does_not_fit_has_none_and_says_why() {
        let o = of(256, 160, 0); // 40960 registers per block, 32768 per SM
        assert_eq!((o.blocks_per_sm, o.limited_by, o.warps_per_sm), (0, Limit::Registers, 0));
        let o = of(32, 8, 64 * 1024);
        assert_eq!((o.blocks_per_sm, o.limited_by), (0, Limit::SharedMemory));
    }

    /// The engine admits blocks one by one with `fits` and `take`; the closed form must count
    /// the same, on every preset, for any shape.
    #[test]
    fn agrees_with_the_engines_admission_rule() {
        let mut rng = SplitMix64::new(480);
        for preset in presets::ALL {
            let core = (preset.build)().core;
            for _ in 0..500 {
                let block =
                    Dim3 { x: 1 + rng.below(1024) as u32, y: 1 + rng.below(4) as u32, z: 1 + rng.below(2) as u32 };
                let shared = [0, 1 + rng.below(64 * 1024)][rng.below(2) as usize] as u32;
                let needs = BlockNeeds::of(&core, block, 1 + rng.below(128) as u32, shared);
                let mut free = SmFree::whole_sm(&core);
                let mut admitted = 0;
                while free.fits(&needs) {
                    free.take(&needs);
                    admitted += 1;
                }
                let o = occupancy(&core, &needs);
                assert_eq!(o.blocks_per_sm, admitted, "{block:?} {needs:?} on {}", preset.id);
                let binding = o.allowed_by(o.limited_by).unwrap();
                assert_eq!(binding, admitted, "the named limit is the one that binds");
            }
        }
    }
}
