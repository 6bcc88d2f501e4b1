//! S, Steal (`ikra.md` §1.5, the paper's Algorithm 1): Flip plus work stealing that keeps a
//! stolen block on its thief. Each SM owns a chunk of the grid and a steal queue of the blocks
//! it has stolen; both persist from kernel to kernel, so at the next launch an SM runs its chunk
//! *and* its steal queue, and a block stolen once keeps running on the thief, where its data is.
//!
//! - **Ownership moves for good.** A steal shrinks the victim's chunk (or steal queue) and
//!   appends the block to the thief's queue, so the SMs' chunks and queues always partition
//!   the grid ([`Steal::partitions`]) until a queue overflows.
//! - **Order.** Each launch flips every chunk's direction (as Flip) and which of the two lists
//!   runs first; the steal queue runs youngest-first when it runs first, oldest-first after
//!   the chunk, so each SM's sequence is roughly the last kernel's reversed.
//! - **Stealing.** An SM with nothing of its own left takes one block: from a steal queue
//!   before any chunk, looking left (SM − 1), right (SM + 1), then on around the ring, and from
//!   the end the victim would reach last. Only blocks not yet dispatched are stolen.
//! - **Re-chunking.** The grid is cut afresh (and every queue emptied) at the first launch, when
//!   a kernel's dimensions differ from the last launch's, and after a queue overflowed. A
//!   different kernel with the same dimensions keeps the chunks and queues.
//!
//! The paper runs one kernel at a time; so does this policy: runs wait, in launch order, until
//! the one before them is fully dispatched. Steals are free and instantaneous, as the paper
//! models them.

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::ops::Range;

use serde::{Deserialize, Serialize};

use super::chunks::{split, Chunk, Remainder};
use super::{Dispatch, KernelLaunch, TbCx, TbScheduler};
use crate::isa::Dim3;
use crate::sched::{ParamInfo, ParamValues, Tunable};
use crate::stats::chunk_view::QUEUE_ENTRIES_KEPT;
use crate::stats::{ChunkView, SmChunk};

/// What one SM owns and has left to run in the current kernel.
#[derive(Clone, Debug, Default)]
struct SmWork {
    /// Its chunk: the blocks it owns outside its steal queue (shrinks when stolen from).
    owned: Range<u32>,
    /// The part of `owned` it has not run in this kernel, and the end it runs from.
    chunk: Chunk,
    /// Blocks it stole, oldest first.
    queue: Vec<u32>,
    /// The entries of `queue` not run in this kernel.
    queue_left: Range<usize>,
}

/// Why the grid was cut afresh, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rechunks {
    /// The first launch.
    pub first: u64,
    /// A launch whose dimensions differ from the last one's.
    pub new_dimensions: u64,
    /// A launch after a steal queue overflowed.
    pub after_overflow: u64,
}

/// Counts of what the policy did, in the report as [`crate::stats::Report::steal`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StealStats {
    /// Blocks taken from another SM's steal queue.
    pub steals_from_queues: u64,
    /// Blocks taken from another SM's chunk.
    pub steals_from_chunks: u64,
    /// Steal-queue overflows (each sets the re-chunk flag).
    pub overflows: u64,
    /// Stolen blocks a full queue could not record (forgotten until the re-chunk).
    pub forgotten: u64,
    /// Times the grid was cut afresh, by reason.
    pub rechunks: Rechunks,
    /// Launches begun without a re-chunk whose chunks and queues did not hold every block
    /// exactly once (checked at every such launch; the paper's invariant says 0).
    pub unpartitioned_launches: u64,
}

/// The policy's switches (`ikra.md` §6), each defaulting to the notes' recommendation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Switches {
    queue_entries: usize,
    /// Overflow only when a steal finds the queue already full (the text's "overflow"), not
    /// when an insert fills it (Algorithm 1).
    overflow_when_full: bool,
    /// Steal a queue's youngest pending entry (Algorithm 1 literally) rather than the end its
    /// owner reaches last.
    steal_queue_tail: bool,
    /// Re-chunk on a change of grid dimensions only, ignoring block dimensions.
    rechunk_on_grid_only: bool,
}

impl Default for Switches {
    fn default() -> Self {
        Switches { queue_entries: 32, overflow_when_full: false, steal_queue_tail: false, rechunk_on_grid_only: false }
    }
}

/// State: every SM's chunk and steal queue, the launches waiting their turn, and the bits
/// that carry from one launch to the next.
#[derive(Clone, Debug, Default)]
pub struct Steal {
    switches: Switches,
    sms: Vec<SmWork>,
    /// Launches not yet begun, oldest first.
    waiting: VecDeque<KernelLaunch>,
    /// The run being dispatched.
    current: Option<u32>,
    /// Blocks in its grid.
    current_blocks: u32,
    /// Dimensions of the last launch begun (`None` before the first).
    last_dims: Option<(Dim3, Dim3)>,
    /// A queue overflowed: cut the grid afresh at the next launch.
    rechunk: bool,
    /// Chunks run forward in the current kernel (false before the first launch, which
    /// toggles it: the first kernel runs forward).
    forward: bool,
    /// The chunk runs before the steal queue in the current kernel (likewise: the first
    /// kernel runs its chunk first).
    chunk_first: bool,
    stats: StealStats,
    /// Scratch for the partition check at each launch.
    seen: Vec<bool>,
}

impl Steal {
    /// What the policy has done so far.
    pub fn stats(&self) -> StealStats {
        self.stats
    }

    /// Whether the SMs' chunks and steal queues together hold each of the grid's `blocks`
    /// blocks exactly once (true from every launch until a queue overflows).
    pub fn partitions(&self, blocks: u32) -> bool {
        partition(&self.sms, blocks, &mut Vec::new())
    }

    /// Starts the next launch: cuts the grid afresh if it must, flips the order bits and lays
    /// out what each SM runs.
    fn begin(&mut self, launch: &KernelLaunch) {
        let block_dims = if self.switches.rechunk_on_grid_only { Dim3::linear(1) } else { launch.block };
        let dims = (launch.grid, block_dims);
        let n = launch.sm_count.max(1);
        let reason = match self.last_dims {
            None => Some(&mut self.stats.rechunks.first),
            Some(last) if last != dims => Some(&mut self.stats.rechunks.new_dimensions),
            _ if self.rechunk => Some(&mut self.stats.rechunks.after_overflow),
            _ => None,
        };
        if let Some(count) = reason {
            *count += 1;
            let chunks = split(launch.blocks, n, 0, Remainder::InAssignmentOrder);
            self.sms = chunks.into_iter().map(|owned| SmWork { owned, ..SmWork::default() }).collect();
        } else if !partition(&self.sms, launch.blocks, &mut self.seen) {
            self.stats.unpartitioned_launches += 1;
        }
        self.rechunk = false;
        self.last_dims = Some(dims);
        self.forward = !self.forward;
        self.chunk_first = !self.chunk_first;
        for sm in &mut self.sms {
            sm.chunk = Chunk { left: sm.owned.clone(), backward: !self.forward };
            sm.queue_left = 0..sm.queue.len();
        }
        self.current = Some(launch.kernel);
        self.current_blocks = launch.blocks;
    }

    /// The next block of `sm`'s own lists, in this kernel's order.
    fn own_next(&mut self, sm: usize) -> Option<u32> {
        let queue_first = !self.chunk_first;
        let work = &mut self.sms[sm];
        let from_queue = |w: &mut SmWork| {
            if w.queue_left.is_empty() {
                None
            } else if queue_first {
                // Youngest first.
                w.queue_left.end -= 1;
                Some(w.queue[w.queue_left.end])
            } else {
                w.queue_left.start += 1;
                Some(w.queue[w.queue_left.start - 1])
            }
        };
        if queue_first {
            from_queue(work).or_else(|| work.chunk.take())
        } else {
            work.chunk.take().or_else(|| from_queue(work))
        }
    }

    /// Takes one block for `thief`: steal queues before chunks, left, right, then on around.
    fn steal_for(&mut self, thief: usize) -> Option<u32> {
        let n = self.sms.len();
        let victims = || {
            let (left, right) = ((thief + n - 1) % n, (thief + 1) % n);
            let around = (2..n).map(move |k| (thief + k) % n);
            [left, right]
                .into_iter()
                .chain(around.filter(move |&v| v != left && v != right))
                .filter(move |&v| v != thief)
        };
        if let Some(victim) = victims().find(|&v| !self.sms[v].queue_left.is_empty()) {
            self.stats.steals_from_queues += 1;
            let queue_first = !self.chunk_first;
            let tail = self.switches.steal_queue_tail;
            let w = &mut self.sms[victim];
            // The owner runs its queue youngest-first when it runs first, so its far end is the
            // oldest pending entry; Algorithm 1 as written always takes the youngest.
            let at = if queue_first && !tail { w.queue_left.start } else { w.queue_left.end - 1 };
            w.queue_left.end -= 1;
            return Some(w.queue.remove(at));
        }
        let victim = victims().find(|&v| !self.sms[v].chunk.left.is_empty())?;
        self.stats.steals_from_chunks += 1;
        let w = &mut self.sms[victim];
        let block = w.chunk.take_far()?;
        // The end its owner reaches last is an end of what it owns: ownership shrinks there.
        if w.chunk.backward {
            w.owned.start += 1;
        } else {
            w.owned.end -= 1;
        }
        Some(block)
    }

    /// Records a stolen block in `thief`'s queue.
    fn enqueue(&mut self, thief: usize, block: u32) {
        let capacity = self.switches.queue_entries;
        let queue = &mut self.sms[thief].queue;
        if queue.len() < capacity {
            queue.push(block);
            if queue.len() == capacity && !self.switches.overflow_when_full {
                self.stats.overflows += 1;
                self.rechunk = true;
            }
            return;
        }
        // Full: the block runs but its ownership is forgotten; the next launch re-chunks.
        self.stats.forgotten += 1;
        if self.switches.overflow_when_full && !self.rechunk {
            self.stats.overflows += 1;
        }
        self.rechunk = true;
    }
}

/// Whether `sms`' chunks and queues hold each of `blocks` blocks exactly once (`seen` is
/// scratch, reused between launches).
fn partition(sms: &[SmWork], blocks: u32, seen: &mut Vec<bool>) -> bool {
    seen.clear();
    seen.resize(blocks as usize, false);
    for block in sms.iter().flat_map(|s| s.owned.clone().chain(s.queue.iter().copied())) {
        match seen.get_mut(block as usize) {
            Some(s) if !*s => *s = true,
            _ => return false,
        }
    }
    seen.iter().all(|&s| s)
}

impl TbScheduler for Steal {
    fn on_kernel_launch(&mut self, _cx: &TbCx, launch: &KernelLaunch) {
        self.waiting.push_back(*launch);
    }

    fn steal_stats(&self) -> Option<StealStats> {
        Some(self.stats)
    }

    fn chunk_view(&self) -> Option<ChunkView> {
        let Some(run) = self.current else { return Some(ChunkView::default()) };
        let sms = self
            .sms
            .iter()
            .map(|w| SmChunk {
                chunk: w.owned.clone(),
                left: w.chunk.left.clone(),
                backward: w.chunk.backward,
                queue_len: w.queue.len() as u32,
                queue: w.queue.iter().take(QUEUE_ENTRIES_KEPT).copied().collect(),
                queue_left: w.queue_left.start as u32..w.queue_left.end as u32,
            })
            .collect();
        Some(ChunkView {
            run: Some(run),
            blocks: self.current_blocks,
            later_runs: self.waiting.len() as u32,
            queue_capacity: self.switches.queue_entries as u32,
            sms,
        })
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        // The current run, or the next waiting one once it is fully dispatched.
        let index = loop {
            if let Some(index) = self.current.and_then(|k| d.pending().iter().position(|p| p.kernel == k)) {
                break index;
            }
            let Some(launch) = self.waiting.pop_front() else { return };
            self.begin(&launch);
        };
        for sm in 0..self.sms.len() {
            if !d.fits(sm as u32, index) {
                continue;
            }
            let (block, stolen) = match self.own_next(sm) {
                Some(block) => (block, false),
                None => match self.steal_for(sm) {
                    Some(block) => (block, true),
                    None => continue,
                },
            };
            let placed = d.place(sm as u32, index, block);
            debug_assert!(placed, "block {block} was owned by exactly one SM and fits");
            if stolen {
                self.enqueue(sm, block);
            }
        }
    }
}

impl Tunable for Steal {
    const PARAMS: &'static [ParamInfo] = &[
        ParamInfo {
            name: "queue",
            label: "Steal-queue entries",
            unit: "blocks",
            description: "Blocks each SM's steal queue can record (the paper's 32).",
            min: 1,
            max: 1024,
            default: 32,
        },
        ParamInfo {
            name: "overflow_when_full",
            label: "Overflow only past a full queue",
            unit: "",
            description: "0: a steal that fills a queue triggers the re-chunk (Algorithm 1); 1: only a steal that finds it already full does (the text's \"overflow\").",
            min: 0,
            max: 1,
            default: 0,
        },
        ParamInfo {
            name: "steal_queue_tail",
            label: "Steal a queue's youngest entry",
            unit: "",
            description: "0: a thief takes the entry the owner would run last; 1: always the youngest pending entry, as Algorithm 1 is written (it ignores the queue's direction).",
            min: 0,
            max: 1,
            default: 0,
        },
        ParamInfo {
            name: "rechunk_on_grid_only",
            label: "Re-chunk on grid shape only",
            unit: "",
            description: "0: a launch whose grid or block dimensions differ from the last one's cuts the grid afresh; 1: only a change of grid dimensions does.",
            min: 0,
            max: 1,
            default: 0,
        },
    ];

    fn tuned(values: &ParamValues) -> Self {
        let switches = Switches {
            queue_entries: values.get("queue") as usize,
            overflow_when_full: values.get("overflow_when_full") == 1,
            steal_queue_tail: values.get("steal_queue_tail") == 1,
            rechunk_on_grid_only: values.get("rechunk_on_grid_only") == 1,
        };
        Steal { switches, ..Steal::default() }
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::super::chunks::tests::{Bench, ONE_WARP};
    use super::*;

    fn grid(x: u32, y: u32) -> Dim3 {
        Dim3 { x, y, z: 1 }
    }

    #[test]
    fn the_papers_fig_3_steal_and_the_next_kernels_order() {
        // A 6×4 grid on 4 SMs: one grid row each. SMs 0–2 run one block at a time, SM 3 all six
        // of its row at once; SM 0's blocks finish at once, the others' never.
        let mut s = Steal::default();
        let mut bench = Bench::new(4, 1);
        bench.free[3].tbs = 6;
        bench.free[3].warps = 6;
        bench.free[3].threads = 6 * 32;
        bench.launch(&mut s, 0, grid(6, 4));
        let mut on_sm0 = Vec::new();
        for _ in 0..7 {
            for (sm, _, block) in bench.cycle(&mut s) {
                if sm == 0 {
                    on_sm0.push(block);
                    bench.finish(&mut s, 0, 0, block);
                }
            }
        }
        // SM 0 runs its row, then steals from SM 1 (SM 3, its left, has nothing left to
        // dispatch) the end of SM 1's chunk: block (5,1,0) = 11.
        assert_eq!(on_sm0, [0, 1, 2, 3, 4, 5, 11]);
        assert_eq!(s.sms[1].owned, 6..11, "SM 1 no longer owns block 11");
        assert_eq!(s.sms[0].queue, [11]);
        assert!(s.partitions(24));
        assert_eq!(s.stats().steals_from_chunks, 1);
        // The view for playback, worked by hand: SMs 1 and 2 placed one block each (their slot
        // never frees), SM 3 one a cycle for six cycles; SM 0's queue holds block 11, run.
        let sm = |chunk: Range<u32>, left: Range<u32>, queue: Vec<u32>, queue_left: Range<u32>| SmChunk {
            chunk,
            left,
            backward: false,
            queue_len: queue.len() as u32,
            queue,
            queue_left,
        };
        let expected = ChunkView {
            run: Some(0),
            blocks: 24,
            later_runs: 0,
            queue_capacity: 32,
            sms: vec![
                sm(0..6, 6..6, vec![11], 0..0),
                sm(6..11, 7..11, vec![], 0..0),
                sm(12..18, 13..18, vec![], 0..0),
                sm(18..24, 24..24, vec![], 0..0),
            ],
        };
        assert_eq!(s.chunk_view(), Some(expected));

        // The next kernel, same shape: steal queues first (youngest first), chunks backward.
        // (SMs 1 and 2 still hold blocks of kernel 0; a fresh bench has room for all.)
        let mut bench = Bench::new(4, 8);
        bench.launch(&mut s, 1, grid(6, 4));
        // One cycle: SM 0 runs its queue's block 11, the others their chunk's high end.
        assert_eq!(bench.cycle(&mut s), [(0, 1, 11), (1, 1, 10), (2, 1, 17), (3, 1, 23)]);
        let view = s.chunk_view().expect("Steal keeps chunks");
        assert_eq!((view.run, view.later_runs), (Some(1), 0));
        let lefts: Vec<_> = view.sms.iter().map(|c| (c.chunk.clone(), c.left.clone(), c.backward)).collect();
        assert_eq!(lefts, [(0..6, 0..6, true), (6..11, 6..10, true), (12..18, 12..17, true), (18..24, 18..23, true)]);
        assert_eq!((view.sms[0].queue_left.clone(), view.sms[0].queue_entries_left()), (0..0, 0), "block 11 has run");
        let mut order = bench.drain(&mut s);
        for (sm, first) in [11, 10, 17, 23].into_iter().enumerate() {
            order[sm].insert(0, first);
        }
        // SM 1's chunk is a block shorter, so it finishes first and steals from its left
        // neighbour's chunk the end SM 0 would reach last: block 0.
        assert_eq!(order[0], [11, 5, 4, 3, 2, 1]);
        assert_eq!(order[1], [10, 9, 8, 7, 6, 0]);
        assert_eq!((s.sms[0].owned.clone(), s.sms[1].queue.clone()), (1..6, vec![0]));
        assert!(s.partitions(24));
        // A third launch waits its turn while run 1 is pictured, fully placed.
        bench.launch(&mut s, 2, grid(6, 4));
        let view = s.chunk_view().expect("Steal keeps chunks");
        assert_eq!((view.run, view.later_runs), (Some(1), 1), "run 2 waits its turn");
        assert!(view.sms.iter().all(|c| c.blocks_left() == 0 && c.queue_entries_left() == 0), "{view:?}");
        // It begins at the next dispatch: chunks first and forward, queues after them, so SM
        // 1's block 0 is still to run.
        assert_eq!(bench.cycle(&mut s), [(0, 2, 1), (1, 2, 6), (2, 2, 12), (3, 2, 18)]);
        let view = s.chunk_view().expect("Steal keeps chunks");
        assert_eq!((view.run, view.later_runs), (Some(2), 0));
        assert_eq!((view.sms[1].queue.clone(), view.sms[1].queue_left.clone()), (vec![0], 0..1));
        assert_eq!((view.sms[0].chunk.clone(), view.sms[0].left.clone(), view.sms[0].backward), (1..6, 2..6, false));
        assert_eq!(s.stats().rechunks, Rechunks { first: 1, ..Rechunks::default() }, "same shape: no re-chunk");
    }

    /// A deterministic run of `kernels` launches of `shapes[k]` on `sm_count` SMs holding
    /// `room` blocks each, where block b takes (b × 7 + kernel) % 5 + 1 cycles (unbalanced),
    /// checking after every cycle that the chunks and queues partition the grid while no queue
    /// has overflowed.
    fn run(mut s: Steal, sm_count: u32, room: u32, shapes: &[Dim3]) -> Steal {
        let mut bench = Bench::new(sm_count, room);
        for (kernel, &shape) in shapes.iter().enumerate() {
            let kernel = kernel as u32;
            bench.launch(&mut s, kernel, shape);
            let blocks = shape.count() as u32;
            let mut running: Vec<(u64, u32, u32)> = Vec::new();
            let mut unplaced: Vec<u32> = (0..blocks).collect();
            let mut finished = 0;
            while finished < blocks {
                let overflowed = s.rechunk;
                for (sm, _, block) in bench.cycle(&mut s) {
                    running.push((bench.now + ((block * 7 + kernel) % 5) as u64, sm, block));
                    unplaced.retain(|&b| b != block);
                }
                // The view's chunks still to place and queue entries still to run are exactly
                // the blocks not yet placed, overflow or not.
                let view = s.chunk_view().expect("Steal keeps chunks");
                assert_eq!(view.run, Some(kernel));
                assert_eq!(view.blocks_to_place(), unplaced, "kernel {kernel}, cycle {}", bench.now);
                if !overflowed && !s.rechunk {
                    assert!(s.partitions(blocks), "kernel {kernel}, cycle {}", bench.now);
                }
                let now = bench.now;
                running.retain(|&(done, sm, _)| {
                    if done <= now {
                        bench.free[sm as usize].give_back(&ONE_WARP);
                        finished += 1;
                        false
                    } else {
                        true
                    }
                });
            }
        }
        s
    }

    #[test]
    fn chunks_and_queues_partition_the_grid_and_rechunks_come_only_from_a_new_shape() {
        let shapes = [grid(37, 1), grid(37, 1), grid(37, 1), grid(20, 2), grid(20, 2), grid(37, 1)];
        let s = run(Steal::default(), 5, 2, &shapes);
        let stats = s.stats();
        assert!(stats.steals_from_chunks + stats.steals_from_queues > 0, "unbalanced work is stolen: {stats:?}");
        assert_eq!(stats.overflows, 0);
        assert_eq!(stats.rechunks, Rechunks { first: 1, new_dimensions: 2, after_overflow: 0 });
    }

    #[test]
    fn a_full_steal_queue_forces_a_rechunk_at_the_next_launch() {
        // Queues of one entry overflow at the first steal; the launch after it re-chunks.
        let tuned = |queue, when_full| {
            let values = ParamValues::defaults(Steal::PARAMS);
            let mut s = Steal::tuned(&values);
            s.switches.queue_entries = queue;
            s.switches.overflow_when_full = when_full;
            s
        };
        let shapes = vec![grid(37, 1); 6];
        let s = run(tuned(1, false), 5, 2, &shapes);
        let stats = s.stats();
        assert!(stats.overflows > 0, "{stats:?}");
        assert!(stats.rechunks.after_overflow > 0 && stats.rechunks.new_dimensions == 0, "{stats:?}");
        // Counting an overflow only past a full queue never counts more of them.
        let when_full = run(tuned(1, true), 5, 2, &shapes).stats();
        assert!(when_full.overflows <= stats.overflows && when_full.forgotten >= when_full.overflows, "{when_full:?}");
        // With the paper's 32 entries the same runs never overflow.
        assert_eq!(run(Steal::default(), 5, 2, &shapes).stats().overflows, 0);
    }
}
