//! F, Flip (`ikra.md` §1.4): Reset with every SM's chunk run in the opposite direction at each
//! launch, whichever kernel it is. The blocks a kernel ran last have their data in the L1 most
//! recently, so the next kernel runs their consumers first. The paper keeps one direction bit
//! per SM; they all toggle together at every launch, so one bit stands for them here.

use super::chunks::{ChunkedRuns, Remainder};
use super::{Dispatch, KernelLaunch, TbCx, TbScheduler};
use crate::sched::{ParamValues, Tunable};
use crate::stats::ChunkView;

/// State: the runs' chunks and the direction of the last launch.
#[derive(Clone, Debug, Default)]
pub struct Flip {
    runs: ChunkedRuns,
    /// The last launch ran backward (starts true, so the first launch, toggled, runs forward).
    backward: Option<bool>,
}

impl TbScheduler for Flip {
    fn on_kernel_launch(&mut self, cx: &TbCx, launch: &KernelLaunch) {
        let backward = !self.backward.unwrap_or(true);
        self.backward = Some(backward);
        self.runs.add(launch.kernel, launch.blocks, cx.sm_count, 0, Remainder::InAssignmentOrder, backward);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        self.runs.dispatch(d, &mut |_| {});
    }

    fn chunk_view(&self) -> Option<ChunkView> {
        Some(self.runs.view())
    }
}

impl Tunable for Flip {
    fn tuned(_: &ParamValues) -> Self {
        Self::default()
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::super::chunks::tests::Bench;
    use super::*;
    use crate::isa::Dim3;

    #[test]
    fn each_launch_runs_every_chunk_in_the_other_direction() {
        let mut f = Flip::default();
        let mut bench = Bench::new(3, 8);
        let forward = vec![vec![0, 1, 2], vec![3, 4], vec![5, 6]];
        let backward = vec![vec![2, 1, 0], vec![4, 3], vec![6, 5]];
        for (kernel, expected) in [forward.clone(), backward, forward].into_iter().enumerate() {
            bench.launch(&mut f, kernel as u32, Dim3::linear(7));
            assert_eq!(bench.drain(&mut f), expected, "kernel {kernel}");
            for (sm, blocks) in [(0, 0..3), (1, 3..5), (2, 5..7)] {
                blocks.for_each(|b| bench.finish(&mut f, sm, kernel as u32, b));
            }
        }
    }

    #[test]
    fn the_view_pictures_the_oldest_run_and_its_direction() {
        let mut f = Flip::default();
        let mut bench = Bench::new(3, 1);
        bench.launch(&mut f, 0, Dim3::linear(7));
        bench.launch(&mut f, 1, Dim3::linear(7));
        assert_eq!(bench.cycle(&mut f), [(0, 0, 0), (1, 0, 3), (2, 0, 5)]);
        let view = f.chunk_view().expect("Flip keeps chunks");
        assert_eq!((view.run, view.blocks, view.later_runs), (Some(0), 7, 1), "run 1 is cut but not pictured");
        let sms: Vec<_> = view.sms.iter().map(|s| (s.chunk.clone(), s.left.clone(), s.backward)).collect();
        assert_eq!(sms, [(0..3, 1..3, false), (3..5, 4..5, false), (5..7, 6..7, false)]);
        // Once run 0 is fully placed, run 1 is pictured, run backward.
        for (sm, done, next) in [(0, 0, 1), (0, 1, 2), (1, 3, 4), (2, 5, 6)] {
            bench.finish(&mut f, sm, 0, done);
            assert_eq!(bench.cycle(&mut f), [(sm, 0, next)]);
        }
        let view = f.chunk_view().expect("Flip keeps chunks");
        assert_eq!((view.run, view.later_runs), (Some(1), 0));
        let sms: Vec<_> = view.sms.iter().map(|s| (s.left.clone(), s.backward)).collect();
        assert_eq!(sms, [(0..3, true), (3..5, true), (5..7, true)]);
    }
}
