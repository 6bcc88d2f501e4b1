//! Spatial multitasking (`cke.md` §1.2): the SMs are split between the co-running kernels, and
//! an SM takes blocks only of the kernel that owns it, up to its full occupancy.
//!
//! A co-running kernel is a host stream ([`KernelSlots`]); the SMs are split into equal
//! contiguous sets among the streams seen so far, the first sets taking one SM more when the
//! split is uneven (16 SMs: 8 + 8; 6 + 5 + 5 for three), the notes' suggestion (the paper states
//! no rule). Programs side by side start together, so the split is settled at the first
//! dispatch and does not change while they run. With more kernels than SMs the last kernels get
//! none, and the run reports them stuck.
//!
//! Inside its SMs a kernel is dispatched as the baseline does: the oldest of its launches with
//! blocks left first, in order, no bypass.

use super::kernel_slots::KernelSlots;
use super::{Dispatch, KernelLaunch, TbCx, TbScheduler};
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// State: the co-running kernels and each run's.
#[derive(Clone, Debug, Default)]
pub struct Spatial {
    slots: KernelSlots,
}

impl Spatial {
    /// The co-running kernel SM `sm` of `sms` belongs to, among `kernels`.
    pub fn owner(sm: u32, sms: u32, kernels: u32) -> u32 {
        let kernels = kernels.clamp(1, sms.max(1));
        let (base, extra) = (sms / kernels, sms % kernels);
        // The first `extra` kernels own `base + 1` SMs each.
        let wide = extra * (base + 1);
        if sm < wide {
            sm / (base + 1)
        } else {
            extra + (sm - wide) / base.max(1)
        }
    }
}

impl TbScheduler for Spatial {
    fn on_kernel_launch(&mut self, _cx: &TbCx, launch: &KernelLaunch) {
        self.slots.on_launch(launch);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        let sms = d.sm_count();
        let kernels = self.slots.len().max(1) as u32;
        for sm in 0..sms {
            let owner = Spatial::owner(sm, sms, kernels) as usize;
            // The owner's oldest launch with blocks left; in order, so if it does not fit, the SM waits.
            let Some(index) = (0..d.pending().len()).find(|&k| {
                let p = d.pending()[k];
                p.next_block < p.blocks && self.slots.slot(p.kernel) == Some(owner)
            }) else {
                continue;
            };
            let block = d.pending()[index].next_block;
            d.place(sm, index, block);
        }
    }
}

impl Tunable for Spatial {
    const PARAMS: &'static [ParamInfo] = &[];

    fn tuned(_values: &ParamValues) -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::*;
    use crate::isa::Dim3;
    use crate::sched::tb::chunks::tests::Bench;
    use crate::sched::tb::Origin;

    #[test]
    fn the_sms_split_into_equal_contiguous_sets_the_first_taking_the_remainder() {
        let owners = |sms: u32, kernels: u32| (0..sms).map(|sm| Spatial::owner(sm, sms, kernels)).collect::<Vec<_>>();
        assert_eq!(owners(16, 2), [[0; 8], [1; 8]].concat());
        assert_eq!(owners(16, 3), [vec![0; 6], vec![1; 5], vec![2; 5]].concat());
        assert_eq!(owners(4, 1), [0; 4]);
        assert_eq!(owners(2, 3), [0, 1], "more kernels than SMs: the last ones get none");
    }

    #[test]
    fn each_sm_takes_only_its_owners_blocks_and_children_belong_to_their_parents_kernel() {
        let mut bench = Bench::new(4, 4);
        let mut spatial = Spatial::default();
        // Stream 7's kernel (run 0) and stream 3's (run 1), then a child of run 1 (run 2).
        bench.launch_from(&mut spatial, 0, Dim3::linear(8), Origin::Host { launch: 0, stream: 7 });
        bench.launch_from(&mut spatial, 1, Dim3::linear(1), Origin::Host { launch: 1, stream: 3 });
        bench.launch_from(&mut spatial, 2, Dim3::linear(8), Origin::Device { run: 1, block: 0, sm: 2 });
        let mut placements = Vec::new();
        for _ in 0..3 {
            placements.extend(bench.cycle(&mut spatial));
        }
        // SMs 0-1 run stream 7's kernel; SMs 2-3 stream 3's, then its child once it has no blocks left.
        assert_eq!(
            placements,
            [
                (0, 0, 0),
                (1, 0, 1),
                (2, 1, 0),
                (3, 2, 0),
                (0, 0, 2),
                (1, 0, 3),
                (2, 2, 1),
                (3, 2, 2),
                (0, 0, 4),
                (1, 0, 5),
                (2, 2, 3),
                (3, 2, 4)
            ]
        );
    }
}
