//! C, Chunk (`ikra.md` §1.2): each SM runs one contiguous chunk of every grid, so neighbouring
//! blocks, which share halo lines, share an L1. The assignment rotates like round-robin's: the
//! first chunk goes to the SM after the one that received the last block, so block *i* still
//! lands on a different SM from kernel to kernel and only reuse within a kernel is gained. An
//! SM whose chunk is spent idles until the next kernel: static chunks can be unbalanced.

use super::chunks::{ChunkedRuns, Remainder};
use super::{Dispatch, KernelLaunch, TbCx, TbScheduler};
use crate::sched::{ParamInfo, ParamValues, Tunable};
use crate::stats::ChunkView;

/// State: the runs' chunks, and the SM that received the last block (kept across kernels, the
/// hardware's one global register).
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    runs: ChunkedRuns,
    last_sm: Option<u32>,
    remainder: Remainder,
}

impl TbScheduler for Chunk {
    fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
        let first = self.last_sm.map_or(0, |l| (l + 1) % cx.sm_count.max(1));
        self.runs.add(launch.kernel, launch.blocks, cx.sm_count, first, self.remainder, false);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        let last_sm = &mut self.last_sm;
        self.runs.dispatch(d, &mut |sm| *last_sm = Some(sm));
    }

    fn chunk_view(&self) -> Option<ChunkView> {
        Some(self.runs.view())
    }
}

impl Tunable for Chunk {
    const PARAMS: &'static [ParamInfo] = &[ParamInfo {
        name: "remainder_low_sms",
        label: "Leftover blocks to SMs 0…r−1",
        unit: "",
        description: "0: a grid's r leftover blocks lengthen the first r chunks in assignment order (the notes' reading of \"the first r CUs\"); 1: they lengthen the chunks of SMs 0 to r−1.",
        min: 0,
        max: 1,
        default: 0,
    }];

    fn tuned(values: &ParamValues) -> Self {
        let remainder =
            if values.get("remainder_low_sms") == 1 { Remainder::LowestSms } else { Remainder::InAssignmentOrder };
        Chunk { remainder, ..Chunk::default() }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;
    use core::ops::Range;

    use super::super::chunks::tests::Bench;
    use super::*;
    use crate::isa::Dim3;

    #[test]
    fn chunks_rotate_from_the_sm_after_the_last_one_served() {
        // 3 SMs with room for 2 blocks; 7 blocks: chunks of 3, 2, 2 from SM 0.
        let mut c = Chunk::default();
        let mut bench = Bench::new(3, 2);
        bench.launch(&mut c, 0, Dim3::linear(7));
        assert_eq!(bench.cycle(&mut c), [(0, 0, 0), (1, 0, 3), (2, 0, 5)]);
        assert_eq!(lefts(&c), [(0..3, 1..3), (3..5, 4..5), (5..7, 6..7)], "the view: one block placed from each");
        assert_eq!(bench.cycle(&mut c), [(0, 0, 1), (1, 0, 4), (2, 0, 6)]);
        assert!(bench.cycle(&mut c).is_empty(), "every SM is full");
        // SM 1 frees a slot, but its chunk is spent: it idles although block 2 waits.
        bench.finish(&mut c, 1, 0, 3);
        assert!(bench.cycle(&mut c).is_empty(), "a chunk never moves");
        bench.finish(&mut c, 0, 0, 0);
        assert_eq!(bench.cycle(&mut c), [(0, 0, 2)]);
        // The last block went to SM 0, so the next kernel's first chunk goes to SM 1.
        for (sm, block) in [(0, 1), (0, 2), (1, 4), (2, 5), (2, 6)] {
            bench.finish(&mut c, sm, 0, block);
        }
        bench.launch(&mut c, 1, Dim3::linear(7));
        // The view cuts the grid as the launch did: from SM 1.
        assert_eq!(lefts(&c), [(5..7, 5..7), (0..3, 0..3), (3..5, 3..5)]);
        // SM 1 takes blocks 0–2 (two fit at once), SM 2 3–4, SM 0 5–6.
        assert_eq!(bench.drain(&mut c), vec![vec![5, 6], vec![0, 1], vec![3, 4]]);
        assert_eq!(lefts(&c), [(5..7, 7..7), (0..3, 2..3), (3..5, 5..5)], "SM 1 waits to place block 2");
        bench.finish(&mut c, 1, 1, 0);
        assert_eq!(bench.cycle(&mut c), [(1, 1, 2)]);
        let view = c.chunk_view().expect("Chunk keeps chunks");
        assert_eq!((view.run, view.sms.len()), (None, 0), "every run fully placed: nothing pictured");
    }

    /// Each SM's chunk and what is left of it in the view.
    fn lefts(c: &Chunk) -> Vec<(Range<u32>, Range<u32>)> {
        let view = c.chunk_view().expect("Chunk keeps chunks");
        assert_eq!((view.queue_capacity, view.later_runs), (0, 0));
        view.sms.into_iter().map(|s| (s.chunk, s.left)).collect()
    }
}
