//! Round-robin thread-block dispatch (GPGPU-Sim's baseline): each cycle, scan the SMs starting
//! after the one that received the last block, and give each SM with room the next block of
//! the oldest kernel that still has blocks. Once SMs are full, a block goes wherever a slot
//! frees first, so block *i* lands on a different SM from one kernel to the next.
//!
//! Where a new kernel's scan starts is ambiguous in the inter-kernel reuse paper ("the CU that
//! finished last", `ikra.md` §6): by default the SM after the one that received the last
//! block, as GPGPU-Sim does; with `rotate_from_finished` the SM after the one whose block
//! finished last.

use super::{Dispatch, KernelLaunch, TbCx, TbScheduler};
use crate::sched::{ParamInfo, ParamValues, Tunable};

/// State: the SM that received the last block (persists across kernels).
#[derive(Clone, Debug, Default)]
pub struct RoundRobin {
    last_sm: Option<u32>,
    /// Start a new kernel after the SM whose block finished last.
    rotate_from_finished: bool,
    last_finished_sm: Option<u32>,
}

impl TbScheduler for RoundRobin {
    fn on_kernel_launch(&mut self, _cx: &TbCx, _launch: &KernelLaunch) {
        if self.rotate_from_finished && self.last_finished_sm.is_some() {
            self.last_sm = self.last_finished_sm;
        }
    }

    fn on_tb_finish(&mut self, _cx: &TbCx, sm: u32, _kernel: u32, _block: u32) {
        self.last_finished_sm = Some(sm);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        let n = d.sm_count();
        // The scan order is fixed at the start of the cycle; the first block goes to SM 0.
        let start = self.last_sm.map_or(0, |l| (l + 1) % n);
        for i in 0..n {
            let sm = (start + i) % n;
            let Some(index) = (0..d.pending().len()).find(|&k| d.pending()[k].next_block < d.pending()[k].blocks)
            else {
                return;
            };
            // In order, no bypass: if the oldest kernel's block does not fit here, this SM waits.
            if d.fits(sm, index) && d.place(sm, index, d.pending()[index].next_block) {
                self.last_sm = Some(sm);
            }
        }
    }
}

impl Tunable for RoundRobin {
    const PARAMS: &'static [ParamInfo] = &[ParamInfo {
        name: "rotate_from_finished",
        label: "New kernel after the last SM to finish",
        unit: "",
        description: "0: a new kernel's first block goes to the SM after the one that received the last block (GPGPU-Sim); 1: after the SM whose block finished last (the IKRA paper's wording).",
        min: 0,
        max: 1,
        default: 0,
    }];

    fn tuned(values: &ParamValues) -> Self {
        RoundRobin { rotate_from_finished: values.get("rotate_from_finished") == 1, ..Self::default() }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::super::*;
    use super::*;

    /// Runs one dispatch cycle on `free` for one kernel of `blocks` blocks, each needing `needs`.
    fn cycle(
        rr: &mut RoundRobin,
        free: &mut [SmFree],
        pending: &mut [PendingKernel],
        placed: &mut [PlacedBlocks],
        needs: BlockNeeds,
    ) -> Vec<Placement> {
        let mut out = Vec::new();
        let mut budget = vec![1; free.len()];
        let needs = [needs];
        let mut d = Dispatch {
            now: 0,
            wake: u64::MAX,
            free,
            pending,
            needs: &needs,
            placed,
            out: &mut out,
            budget_per_sm: &mut budget,
            budget_total: u32::MAX,
            fully_placed: 0,
        };
        rr.dispatch(&mut d);
        out
    }

    #[test]
    fn fills_sms_in_turn_then_follows_freed_slots() {
        // 3 SMs with room for 2 blocks each, 10 blocks.
        let room = SmFree { tbs: 2, warps: 8, threads: 256, registers: 8192, shared_bytes: 0 };
        let needs = BlockNeeds { warps: 4, threads: 128, registers: 4096, shared_bytes: 0 };
        let mut free = vec![room; 3];
        let mut pending = [PendingKernel { kernel: 0, blocks: 10, next_block: 0 }];
        let mut placed = [PlacedBlocks::new(10)];
        let mut rr = RoundRobin::default();
        let sms = |p: Vec<Placement>| p.iter().map(|p| (p.sm, p.block)).collect::<Vec<_>>();
        assert_eq!(sms(cycle(&mut rr, &mut free, &mut pending, &mut placed, needs)), [(0, 0), (1, 1), (2, 2)]);
        assert_eq!(sms(cycle(&mut rr, &mut free, &mut pending, &mut placed, needs)), [(0, 3), (1, 4), (2, 5)]);
        assert!(cycle(&mut rr, &mut free, &mut pending, &mut placed, needs).is_empty(), "all full");
        // SM 1 frees a slot first: block 6 goes there, not to SM 0.
        free[1].tbs += 1;
        free[1].warps += 4;
        free[1].threads += 128;
        free[1].registers += 4096;
        assert_eq!(sms(cycle(&mut rr, &mut free, &mut pending, &mut placed, needs)), [(1, 6)]);
        assert_eq!(pending[0].next_block, 7);
    }

    #[test]
    fn a_new_kernel_starts_after_the_last_sm_served_or_the_last_to_finish() {
        use super::super::chunks::tests::Bench;
        use crate::isa::Dim3;
        // 3 SMs with room for 4 blocks; 6 blocks land on SMs 0, 1, 2, 0, 1, 2. The last block
        // finishes on SM 0.
        let first_sm_of_next_kernel = |rotate_from_finished| {
            let mut rr = RoundRobin { rotate_from_finished, ..RoundRobin::default() };
            let mut bench = Bench::new(3, 4);
            bench.launch(&mut rr, 0, Dim3::linear(6));
            assert_eq!(bench.drain(&mut rr), vec![vec![0, 3], vec![1, 4], vec![2, 5]]);
            for (sm, block) in [(2, 5), (1, 4), (2, 2), (1, 1), (0, 3), (0, 0)] {
                bench.finish(&mut rr, sm, 0, block);
            }
            bench.launch(&mut rr, 1, Dim3::linear(6));
            bench.cycle(&mut rr)[0]
        };
        assert_eq!(first_sm_of_next_kernel(false), (0, 1, 0), "after SM 2, which received block 5");
        assert_eq!(first_sm_of_next_kernel(true), (1, 1, 0), "after SM 0, whose block finished last");
    }
}
