//! Kernel runs and when they may start: the host's launch sequence with its streams, and grids
//! launched from the device.
//!
//! A *run* is one grid in flight, launched by the host or by a device thread; runs are numbered
//! in the order they are created, and that number is the kernel id reports and policies see.
//! A run is *complete* once its own blocks have finished and every run it launched is complete,
//! so a host launch waits for its whole tree of child grids, as in CUDA.

pub mod kdu;
pub mod paths;
pub mod streams;
pub mod undispatched;

use alloc::vec::Vec;

use crate::isa::Dim3;
use crate::sched::tb::BlockNeeds;

pub use kdu::Kdu;
pub use paths::{LaunchPaths, NewRun, Occupancy, Ready};
pub use streams::HostQueue;
pub use undispatched::Undispatched;

/// Who launched a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Host launch number `launch` of the workload, in stream `stream`.
    Host {
        /// Index in the workload's launch sequence.
        launch: u32,
        /// Its stream (0 is the default stream).
        stream: u32,
    },
    /// A device thread of block `block` of run `run`, executing on `sm`.
    Device {
        /// The parent run.
        run: u32,
        /// The parent's block index.
        block: u32,
        /// The SM the parent block ran on when it launched.
        sm: u32,
    },
}

/// A grid launched by a device thread, waiting to become a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceLaunch {
    /// The SM of the launching thread.
    pub sm: u32,
    /// The launching thread's run.
    pub parent: u32,
    /// The launching thread's block.
    pub parent_block: u32,
    /// The launching instruction.
    pub pc: u32,
    /// The launching lane.
    pub lane: u32,
    /// Lanes of the instruction that launched a grid each (the device runtime's cost grows
    /// with them).
    pub lanes: u32,
    /// The launching warp's stall, on the instruction's first launch only (0 on the others).
    pub stall: u64,
    /// Index of the child kernel's code in the workload.
    pub code: u32,
    /// Grid dimensions.
    pub grid: Dim3,
    /// Block dimensions.
    pub block: Dim3,
    /// Argument words.
    pub args: Vec<u32>,
}

/// One grid in flight or done.
#[derive(Clone, Debug)]
pub struct Run {
    /// Index of its code in the workload.
    pub code: u32,
    /// Grid dimensions.
    pub grid: Dim3,
    /// Block dimensions.
    pub block: Dim3,
    /// Argument words, copied into every thread's first registers.
    pub args: Vec<u32>,
    /// Resources one block takes.
    pub needs: BlockNeeds,
    /// Who launched it.
    pub origin: Origin,
    /// Nesting depth: 0 for host launches, parent + 1 for device launches.
    pub depth: u32,
    /// Blocks in the grid.
    pub blocks: u32,
    /// Blocks that have finished.
    pub finished_blocks: u32,
    /// Device launches made by its threads whose runs are not complete yet.
    pub children_left: u32,
    /// The host launch's run at the root of its tree of launches (itself for a host launch).
    pub root: u32,
    /// For a root: blocks in its grid and in every grid of its tree launched so far (counted
    /// when the launch instruction runs, before the launch latency).
    pub tree_blocks: u64,
    /// For a root: blocks of its tree that have finished.
    pub tree_finished: u64,
    /// The cycle its launch instruction issued (a host launch: the cycle it started).
    pub launched: u64,
    /// Blocks dispatched so far.
    pub dispatched: u32,
    /// The KDU entry its blocks count against (CDP and DTBL paths).
    pub kdu_entry: Option<u32>,
    /// The SM whose DTBL group table holds its record until its last block is dispatched.
    pub group_sm: Option<u32>,
}

impl Run {
    /// Whether its blocks and all its descendants are done.
    pub fn complete(&self) -> bool {
        self.finished_blocks == self.blocks && self.children_left == 0
    }
}
