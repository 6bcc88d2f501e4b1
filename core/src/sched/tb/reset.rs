//! R, Reset (`ikra.md` §1.3): Chunk with the assignment always starting at SM 0, so chunk *j*
//! is SM *j*'s in every kernel and, for grids of one size, block *i* runs on the same SM each
//! time: what it wrote the launch before may still be in that SM's L1.

use super::chunks::{ChunkedRuns, Remainder};
use super::{Dispatch, KernelLaunch, TbCx, TbScheduler};
use crate::sched::{ParamValues, Tunable};
use crate::stats::ChunkView;

/// State: the runs' chunks.
#[derive(Clone, Debug, Default)]
pub struct Reset {
    runs: ChunkedRuns,
}

impl TbScheduler for Reset {
    fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
        // From SM 0 the two readings of the leftover rule agree.
        self.runs.add(launch.kernel, launch.blocks, cx.sm_count, 0, Remainder::InAssignmentOrder, false);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        self.runs.dispatch(d, &mut |_| {});
    }

    fn chunk_view(&self) -> Option<ChunkView> {
        Some(self.runs.view())
    }
}

impl Tunable for Reset {
    fn tuned(_: &ParamValues) -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::super::chunks::tests::Bench;
    use super::*;
    use crate::isa::Dim3;

    #[test]
    fn block_i_runs_on_the_same_sm_in_every_kernel() {
        let mut r = Reset::default();
        let mut bench = Bench::new(3, 8);
        for kernel in 0..3 {
            bench.launch(&mut r, kernel, Dim3::linear(7));
            assert_eq!(bench.drain(&mut r), vec![vec![0, 1, 2], vec![3, 4], vec![5, 6]], "kernel {kernel}");
            for (sm, blocks) in [(0, 0..3), (1, 3..5), (2, 5..7)] {
                blocks.for_each(|b| bench.finish(&mut r, sm, kernel, b));
            }
        }
    }
}
