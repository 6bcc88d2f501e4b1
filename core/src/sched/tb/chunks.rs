//! Static chunks: a grid's blocks cut into one contiguous range per SM, the mechanism under the
//! IKRA schedulers (Chunk, Reset, Flip and Steal; `ikra.md` §1.2–1.5). Blocks are linear ids,
//! x fastest, so "the next block" is the next id.
//!
//! [`split`] cuts a grid; [`ChunkedRuns`] hands each SM the blocks of its own chunk, one end
//! or the other, for every run in flight, and is what Chunk, Reset and Flip dispatch with.
//! Steal keeps chunks of its own, which persist from kernel to kernel.

use alloc::vec::Vec;
use core::ops::Range;

use super::Dispatch;
use crate::stats::{ChunkView, SmChunk};

/// Which chunks get the grid's leftover blocks when it does not divide evenly by the SMs
/// (`ikra.md` §6: "the first r CUs" can be read both ways; it matters only for Chunk, whose
/// assignment rotates).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Remainder {
    /// The first r chunks in assignment order, starting at the first SM served (the notes'
    /// reading and the default).
    #[default]
    InAssignmentOrder,
    /// SMs 0 to r − 1, wherever the assignment starts.
    LowestSms,
}

/// Cuts `blocks` blocks into one contiguous chunk per SM, `sm_count` of them. Chunks are
/// assigned in SM order starting at `first` (wrapping), each `blocks / sm_count` blocks long
/// and `remainder` deciding which take one more; block 0 opens the chunk of `first`. Returns
/// each SM's range, indexed by SM (empty when there are fewer blocks than SMs).
pub fn split(blocks: u32, sm_count: u32, first: u32, remainder: Remainder) -> Vec<Range<u32>> {
    let n = sm_count.max(1);
    let (q, r) = (blocks / n, blocks % n);
    let mut ranges = alloc::vec![0..0; n as usize];
    let mut base = 0;
    for j in 0..n {
        let sm = (first % n + j) % n;
        let extra = match remainder {
            Remainder::InAssignmentOrder => j < r,
            Remainder::LowestSms => sm < r,
        };
        let size = q + u32::from(extra);
        ranges[sm as usize] = base..base + size;
        base += size;
    }
    ranges
}

/// The blocks of one SM's chunk not yet handed out, taken from one end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chunk {
    /// Blocks left.
    pub left: Range<u32>,
    /// Taken from the high end (Flip's backward direction).
    pub backward: bool,
}

impl Chunk {
    /// The block the SM runs next.
    pub fn peek(&self) -> Option<u32> {
        if self.left.is_empty() {
            None
        } else if self.backward {
            Some(self.left.end - 1)
        } else {
            Some(self.left.start)
        }
    }

    /// Takes the block the SM would run last (what a thief takes, so that it never takes
    /// the block the SM is about to run).
    pub fn take_far(&mut self) -> Option<u32> {
        if self.left.is_empty() {
            None
        } else if self.backward {
            self.left.start += 1;
            Some(self.left.start - 1)
        } else {
            self.left.end -= 1;
            Some(self.left.end)
        }
    }

    /// Takes [`Chunk::peek`]'s block.
    pub fn take(&mut self) -> Option<u32> {
        let block = self.peek()?;
        if self.backward {
            self.left.end -= 1;
        } else {
            self.left.start += 1;
        }
        Some(block)
    }
}

/// One run's chunks.
#[derive(Clone, Debug)]
struct RunChunks {
    kernel: u32,
    chunks: Vec<Chunk>,
    /// Blocks not yet handed out, over every chunk.
    left: u32,
    /// How the grid was cut, so a view can cut it again: its blocks, the first SM served and
    /// the leftovers' rule.
    blocks: u32,
    first: u32,
    remainder: Remainder,
}

/// The runs in flight, each cut into chunks at its launch, oldest first. Each cycle every SM
/// takes the next block of its own chunk in the oldest run where its chunk has any; if that
/// block does not fit, the SM waits (no younger run overtakes it), as round-robin waits. An SM
/// whose chunks are spent idles until a run gives it a chunk: no block ever moves to another
/// SM, which is what makes a static chunk static.
#[derive(Clone, Debug, Default)]
pub struct ChunkedRuns {
    runs: Vec<RunChunks>,
}

impl ChunkedRuns {
    /// Run `kernel` of `blocks` blocks, cut by [`split`] from `first`, each chunk taken from
    /// its high end when `backward`.
    pub fn add(&mut self, kernel: u32, blocks: u32, sm_count: u32, first: u32, remainder: Remainder, backward: bool) {
        let chunks =
            split(blocks, sm_count, first, remainder).into_iter().map(|left| Chunk { left, backward }).collect();
        if blocks > 0 {
            self.runs.push(RunChunks { kernel, chunks, left: blocks, blocks, first, remainder });
        }
    }

    /// The oldest run's chunks, as they stand, for playback (the grid is cut again here rather
    /// than kept, so dispatch never pays for the view).
    pub fn view(&self) -> ChunkView {
        let Some(run) = self.runs.first() else { return ChunkView::default() };
        let cut = split(run.blocks, run.chunks.len() as u32, run.first, run.remainder);
        let sms = run
            .chunks
            .iter()
            .zip(cut)
            .map(|(c, chunk)| SmChunk { chunk, left: c.left.clone(), backward: c.backward, ..SmChunk::default() })
            .collect();
        ChunkView {
            run: Some(run.kernel),
            blocks: run.blocks,
            later_runs: self.runs.len() as u32 - 1,
            queue_capacity: 0,
            sms,
        }
    }

    /// Places this cycle's blocks; `placed(sm)` hears of each placement.
    pub fn dispatch(&mut self, d: &mut Dispatch<'_>, placed: &mut dyn FnMut(u32)) {
        for sm in 0..d.sm_count() {
            for run in self.runs.iter_mut() {
                let Some(block) = run.chunks.get(sm as usize).and_then(Chunk::peek) else { continue };
                let Some(index) = d.pending().iter().position(|p| p.kernel == run.kernel) else { break };
                if d.place(sm, index, block) {
                    run.chunks[sm as usize].take();
                    run.left -= 1;
                    placed(sm);
                }
                break;
            }
        }
        self.runs.retain(|r| r.left > 0);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::super::*;
    use super::*;

    #[test]
    fn a_grid_splits_into_contiguous_chunks_with_the_leftovers_first() {
        // 10 blocks on 4 SMs: 3, 3, 2, 2 in assignment order.
        assert_eq!(split(10, 4, 0, Remainder::InAssignmentOrder), [0..3, 3..6, 6..8, 8..10]);
        // Starting at SM 2: SM 2 gets blocks 0–2, SM 3 3–5, SM 0 6–7, SM 1 8–9.
        assert_eq!(split(10, 4, 2, Remainder::InAssignmentOrder), [6..8, 8..10, 0..3, 3..6]);
        // The other reading: SMs 0 and 1 take the extra blocks wherever the assignment starts.
        assert_eq!(split(10, 4, 2, Remainder::LowestSms), [4..7, 7..10, 0..2, 2..4]);
        // Fewer blocks than SMs: the last SMs get nothing.
        assert_eq!(split(2, 4, 0, Remainder::InAssignmentOrder), [0..1, 1..2, 2..2, 2..2]);
        // The paper's Fig. 2: a 6×4 grid on 4 SMs is one grid row per SM.
        assert_eq!(split(24, 4, 0, Remainder::InAssignmentOrder), [0..6, 6..12, 12..18, 18..24]);
    }

    #[test]
    fn a_chunk_is_taken_from_either_end() {
        let mut forward = Chunk { left: 3..6, backward: false };
        let mut backward = Chunk { left: 3..6, backward: true };
        let f: Vec<u32> = core::iter::from_fn(|| forward.take()).collect();
        let b: Vec<u32> = core::iter::from_fn(|| backward.take()).collect();
        assert_eq!((f, b), (vec![3, 4, 5], vec![5, 4, 3]));
        let mut forward = Chunk { left: 3..6, backward: false };
        let mut backward = Chunk { left: 3..6, backward: true };
        assert_eq!((forward.take_far(), backward.take_far()), (Some(5), Some(3)), "the far end");
        assert_eq!((forward.peek(), backward.peek()), (Some(3), Some(5)), "the near end stays");
    }

    /// A test bench for a TB policy: `sm_count` SMs holding `room` blocks each, one block per
    /// SM per cycle, and the runs given by their block counts.
    pub(crate) struct Bench {
        pub free: Vec<SmFree>,
        pub pending: Vec<PendingKernel>,
        pub placed: Vec<PlacedBlocks>,
        pub needs: Vec<BlockNeeds>,
        pub now: u64,
        /// What an empty SM offers.
        pub capacity: SmFree,
    }

    /// What one block of the benches' kernels needs: one warp.
    pub(crate) const ONE_WARP: BlockNeeds = BlockNeeds { warps: 1, threads: 32, registers: 0, shared_bytes: 0 };

    impl Bench {
        pub(crate) fn new(sm_count: u32, room: u32) -> Self {
            let free = SmFree { tbs: room, warps: room, threads: 32 * room, registers: 0, shared_bytes: 0 };
            Bench {
                free: vec![free; sm_count as usize],
                pending: Vec::new(),
                placed: Vec::new(),
                needs: Vec::new(),
                now: 0,
                capacity: free,
            }
        }

        /// Adds a run of `blocks` blocks and tells `policy` of its launch.
        pub(crate) fn launch(&mut self, policy: &mut dyn TbScheduler, kernel: u32, grid: Dim3) {
            self.launch_from(policy, kernel, grid, Origin::Host { launch: kernel, stream: 0 });
        }

        /// [`Bench::launch`] of a run launched from `origin` (a host stream, a device thread).
        pub(crate) fn launch_from(&mut self, policy: &mut dyn TbScheduler, kernel: u32, grid: Dim3, origin: Origin) {
            let blocks = grid.count() as u32;
            self.pending.push(PendingKernel { kernel, blocks, next_block: 0 });
            self.placed.push(PlacedBlocks::new(blocks));
            self.needs.push(ONE_WARP);
            let launch = KernelLaunch {
                kernel,
                code: 0,
                blocks,
                grid,
                block: Dim3::linear(32),
                sm_count: self.free.len() as u32,
                origin,
                depth: 0,
                needs: ONE_WARP,
                sm_capacity: self.capacity,
            };
            policy.on_kernel_launch(&TbCx { now: self.now, sm_count: self.free.len() as u32 }, &launch);
        }

        /// One dispatch cycle: the (SM, run, block) placements, in order.
        pub(crate) fn cycle(&mut self, policy: &mut dyn TbScheduler) -> Vec<(u32, u32, u32)> {
            let mut out = Vec::new();
            let mut budget = vec![1; self.free.len()];
            let mut d = Dispatch {
                now: self.now,
                wake: u64::MAX,
                free: &mut self.free,
                pending: &mut self.pending,
                needs: &self.needs,
                placed: &mut self.placed,
                out: &mut out,
                budget_per_sm: &mut budget,
                budget_total: u32::MAX,
                fully_placed: 0,
            };
            policy.dispatch(&mut d);
            // The engine drops fully placed runs from the pending list.
            for i in (0..self.pending.len()).rev() {
                if self.pending[i].next_block >= self.pending[i].blocks {
                    self.pending.remove(i);
                    self.placed.remove(i);
                    self.needs.remove(i);
                }
            }
            self.now += 1;
            out.iter().map(|p| (p.sm, p.kernel, p.block)).collect()
        }

        /// Block `block` of run `kernel` finished on `sm`: its slot frees.
        pub(crate) fn finish(&mut self, policy: &mut dyn TbScheduler, sm: u32, kernel: u32, block: u32) {
            self.free[sm as usize].give_back(&ONE_WARP);
            policy.on_tb_finish(&TbCx { now: self.now, sm_count: self.free.len() as u32 }, sm, kernel, block);
        }

        /// Cycles until nothing more is placed; every block placed, by SM in placement order.
        pub(crate) fn drain(&mut self, policy: &mut dyn TbScheduler) -> Vec<Vec<u32>> {
            let mut by_sm = vec![Vec::new(); self.free.len()];
            loop {
                let placed = self.cycle(policy);
                if placed.is_empty() {
                    return by_sm;
                }
                for (sm, _, block) in placed {
                    by_sm[sm as usize].push(block);
                }
            }
        }
    }
}
