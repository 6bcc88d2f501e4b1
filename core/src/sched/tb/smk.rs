//! SMK's static-resource split, SMK-P (`cke.md` §1.4): the co-running kernels share every SM,
//! each up to a block target chosen by Dominant Resource Fairness over the SM's registers,
//! shared memory, threads and block slots.
//!
//! Progressive filling: starting from no blocks, repeatedly give one more block to the kernel
//! whose dominant share (the largest fraction of any resource its blocks would hold) is
//! smallest among those whose block still fits, ties to the lower slot, until none fits. The
//! targets are recomputed when a kernel first launches or launches a block of another shape.
//! Admission against the targets is [`IntraSmSharing`]; SMK's warp-instruction quotas (SMK-W)
//! are a warp-scheduler gate of their own.

use alloc::vec;
use alloc::vec::Vec;

use super::intra_sm::IntraSmSharing;
use super::kernel_slots::{KernelSlots, SlotChange};
use super::{BlockNeeds, Dispatch, KernelLaunch, SmFree, TbCx, TbScheduler};
use crate::sched::{ParamInfo, ParamValues, Tunable};
use crate::stats::sharing::{SharedKernel, SharingReport};

/// State: the kernels, their targets, and the blocks each SM holds.
#[derive(Clone, Debug, Default)]
pub struct Smk {
    slots: KernelSlots,
    targets: Vec<u32>,
    sharing: IntraSmSharing,
}

impl Smk {
    /// The targets now, by slot (host streams in the order they first launched).
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }
}

/// Dominant Resource Fairness by progressive filling: blocks per SM of each kernel whose
/// blocks need `needs`, on an SM offering `capacity`.
pub fn drf_targets(capacity: &SmFree, needs: &[BlockNeeds]) -> Vec<u32> {
    let mut targets = vec![0u32; needs.len()];
    let mut free = *capacity;
    let share = |n: &BlockNeeds, blocks: u32| {
        let of =
            |need: u32, cap: u32| if cap == 0 { 0.0 } else { f64::from(blocks) * f64::from(need) / f64::from(cap) };
        let shares = [
            of(1, capacity.tbs),
            of(n.threads, capacity.threads),
            of(n.registers, capacity.registers),
            of(n.shared_bytes, capacity.shared_bytes),
        ];
        shares.into_iter().fold(0.0f64, f64::max)
    };
    loop {
        let mut best: Option<(usize, f64)> = None;
        for (k, n) in needs.iter().enumerate() {
            if !free.fits(n) {
                continue;
            }
            let s = share(n, targets[k]);
            if best.is_none_or(|(_, b)| s < b) {
                best = Some((k, s));
            }
        }
        let Some((k, _)) = best else { return targets };
        targets[k] += 1;
        free.take(&needs[k]);
    }
}

impl TbScheduler for Smk {
    fn on_kernel_launch(&mut self, _cx: &TbCx, launch: &KernelLaunch) {
        if self.slots.on_launch(launch) != SlotChange::Same {
            self.targets = drf_targets(&launch.sm_capacity, self.slots.needs());
        }
    }

    fn on_tb_finish(&mut self, _cx: &TbCx, sm: u32, kernel: u32, _block: u32) {
        self.sharing.on_tb_finish(&self.slots, sm, kernel);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        self.sharing.dispatch(d, &self.slots, &self.targets);
    }

    fn sharing(&self) -> Option<SharingReport> {
        let kernels = self.slots.streams().iter().zip(&self.targets);
        let kernels = kernels
            .map(|(&stream, &blocks_per_sm)| SharedKernel { stream, blocks_per_sm, ..SharedKernel::default() })
            .collect();
        Some(SharingReport { kernels, theoretical_speedup: None })
    }
}

impl Tunable for Smk {
    const PARAMS: &'static [ParamInfo] = &[];

    fn tuned(_values: &ParamValues) -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sched::tb::chunks::tests::Bench;

    /// The concurrent-kernel paper's SM (Table 1): 3072 threads, 16 blocks, 96 KB of shared
    /// memory, 65,536 registers.
    const MAXWELL_SM: SmFree = SmFree { tbs: 16, warps: 96, threads: 3072, registers: 65536, shared_bytes: 96 * 1024 };

    const fn block(threads: u32, regs_per_thread: u32, shared_bytes: u32) -> BlockNeeds {
        BlockNeeds { warps: threads / 32, threads, registers: threads * regs_per_thread, shared_bytes }
    }

    #[test]
    fn dominant_resource_fairness_splits_bp_and_sv_six_to_eight() {
        // The notes' worked example (§1.4): bp's 256-thread blocks and sv's 192-thread ones are
        // both thread-dominated (8.33 % and 6.25 % of the SM a block); filling ends at 6 + 8,
        // 1536 threads each.
        let bp = block(256, 12, 1024);
        let sv = block(192, 16, 0);
        assert_eq!(drf_targets(&MAXWELL_SM, &[bp, sv]), [6, 8]);
        assert_eq!(drf_targets(&MAXWELL_SM, &[sv, bp]), [8, 6], "the split does not depend on the order");
        // Alone, a kernel takes the whole SM: 12 of bp's blocks fill its threads.
        assert_eq!(drf_targets(&MAXWELL_SM, &[bp]), [12]);
    }

    #[test]
    fn a_block_slot_bound_kernel_and_a_register_bound_one_share_by_their_own_dominant_resource() {
        // cp (128 threads, 28 registers: bound by the 16 block slots alone) beside hs (256
        // threads, 36 registers: 7 blocks fill the registers alone). Per block cp holds 1/16 of
        // the block slots and hs 9216/65536 = 14.1 % of the registers; filling alternates by
        // share and ends when no block of either fits.
        let cp = block(128, 28, 4096);
        let hs = block(256, 36, 3072);
        let targets = drf_targets(&MAXWELL_SM, &[cp, hs]);
        let used = |t: &[u32]| {
            let mut free = MAXWELL_SM;
            for (n, &k) in [cp, hs].iter().zip(t) {
                for _ in 0..k {
                    assert!(free.fits(n), "the targets fit one SM");
                    free.take(n);
                }
            }
            free
        };
        let left = used(&targets);
        assert!(!left.fits(&cp) && !left.fits(&hs), "filling stops only when nothing fits: {targets:?}");
        // Worked by hand: cp gets a block while its share is the smaller (6.25 % a block against
        // hs's 14.06 %), so the order runs cp, hs, cp, cp, hs, cp, cp, hs, cp, cp, hs, cp; the
        // twelfth block (cp's eighth) uses the last of the registers: 8 × 3584 + 4 × 9216 = 65,536.
        assert_eq!(targets, [8, 4]);
    }

    #[test]
    fn each_sm_holds_each_kernel_up_to_its_target_and_a_finished_block_makes_room_for_its_own_kernel() {
        use crate::isa::Dim3;
        use crate::sched::tb::Origin;
        // Two SMs of 4 one-warp blocks; two kernels in streams 1 and 2, both one-warp blocks:
        // DRF gives each 2 per SM.
        let mut bench = Bench::new(2, 4);
        let mut smk = Smk::default();
        for (run, stream) in [(0u32, 1u32), (1, 2)] {
            bench.launch_from(&mut smk, run, Dim3::linear(6), Origin::Host { launch: run, stream });
        }
        assert_eq!(smk.targets(), [2, 2]);
        // Round-robin over the kernels on each SM: (SM, run, block).
        let mut placed = Vec::new();
        for _ in 0..5 {
            placed.extend(bench.cycle(&mut smk));
        }
        assert_eq!(placed, [(0, 0, 0), (1, 0, 1), (0, 1, 0), (1, 1, 1), (0, 0, 2), (1, 0, 3), (0, 1, 2), (1, 1, 3)]);
        // SM 1 finishes a block of run 1: the place goes back to run 1, although run 0 waits too.
        bench.finish(&mut smk, 1, 1, 1);
        assert_eq!(bench.cycle(&mut smk), [(1, 1, 4)]);
    }
}
