//! A chunked thread-block scheduler's state for playback (IKRA's Chunk, Reset, Flip and Steal,
//! `sched/tb/chunks.rs` and `sched/tb/steal.rs`): for the kernel run it is placing, each SM's
//! chunk — the blocks still to place from it and the end they are taken from — and under Steal
//! each SM's steal queue. Given by `TbScheduler::chunk_view` and taken only with a snapshot,
//! never in the cycle loop.

use alloc::vec::Vec;
use core::ops::Range;

use serde::{Deserialize, Serialize};

/// Steal-queue entries a view keeps per SM, oldest first (a queue may hold up to 1 024; the
/// count and which entries are still to run are kept whole).
pub const QUEUE_ENTRIES_KEPT: usize = 64;

/// The chunks (and steal queues) of one kernel run at a snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkView {
    /// The kernel run pictured: for Chunk, Reset and Flip the oldest run with blocks left to
    /// place, for Steal the run it is placing (one at a time, kept once fully placed until the
    /// next begins); `None` when there is none.
    pub run: Option<u32>,
    /// Blocks in its grid (0 without a run).
    pub blocks: u32,
    /// Runs after it whose chunks are cut (Chunk, Reset, Flip) or that wait their turn
    /// (Steal), not pictured.
    pub later_runs: u32,
    /// Entries a steal queue holds (0: the policy keeps none).
    pub queue_capacity: u32,
    /// Per SM (empty without a run).
    pub sms: Vec<SmChunk>,
}

/// One SM's part of the pictured run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SmChunk {
    /// Its chunk: the contiguous blocks it owns (under Steal, outside its steal queue; the
    /// chunk shrinks when a thief takes from its far end).
    pub chunk: Range<u32>,
    /// The part of `chunk` not yet placed in this run.
    pub left: Range<u32>,
    /// Placed from the high end down (Flip's and Steal's backward launches).
    pub backward: bool,
    /// Steal: entries in its steal queue (blocks it stole, in this or an earlier run).
    pub queue_len: u32,
    /// Steal: the first [`QUEUE_ENTRIES_KEPT`] entries of its steal queue, oldest first.
    pub queue: Vec<u32>,
    /// Steal: the entries (positions in the queue, oldest 0) not yet run in this run.
    pub queue_left: Range<u32>,
}

impl SmChunk {
    /// Blocks of its chunk still to place.
    pub fn blocks_left(&self) -> u32 {
        self.left.end.saturating_sub(self.left.start)
    }

    /// Steal-queue entries still to run in this run.
    pub fn queue_entries_left(&self) -> u32 {
        self.queue_left.end.saturating_sub(self.queue_left.start)
    }

    /// Steal: the blocks of the entries still to run, of those the view keeps.
    pub fn queued_to_run(&self) -> impl Iterator<Item = u32> + '_ {
        self.queue_left.clone().filter_map(|i| self.queue.get(i as usize).copied())
    }
}

impl ChunkView {
    /// Every block the view says is still to place, in increasing order: each SM's chunk left
    /// and, under Steal, its queue entries still to run (of those kept).
    pub fn blocks_to_place(&self) -> Vec<u32> {
        let mut blocks: Vec<u32> = self.sms.iter().flat_map(|c| c.left.clone().chain(c.queued_to_run())).collect();
        blocks.sort_unstable();
        blocks
    }
}
