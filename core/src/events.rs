//! The event stream of an SM: what its memory pipeline and its warps did, in the order they did
//! it. Warp policies hear every event of their SM ([`crate::sched::warp::WarpScheduler::on_event`]);
//! with [`crate::RunOptions::record`] on, each SM also keeps its stream, stamped with cycles, so
//! that a run's L1 access stream can be replayed. (The Belady oracle does not need all this: it
//! keeps a compact stream of its own, 16 bytes per access, [`crate::mem::replay::L1Access`].)
//!
//! Events of one SM are in the order things happened; several in one cycle keep the engine's
//! order within the cycle (the memory pipeline, then fills, then issue). Failed attempts of a
//! request the LSU waits out instead of retrying are reported when counted, with how many.

use crate::mem::l1::FailReason;

/// Warp slot within an SM.
pub type Slot = u16;

/// One thing an SM did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmEvent {
    /// A load of warp `slot` found its sectors valid in the L1, in a line warp `owner` brought in.
    Hit {
        /// The requesting warp.
        slot: Slot,
        /// Its kernel run.
        kernel: u32,
        /// Line address.
        line: u64,
        /// The warp slot whose miss allocated the line.
        owner: u32,
    },
    /// A load of warp `slot` missed a line absent from the L1: a new fetch (its victim, if
    /// valid, follows as [`SmEvent::Eviction`]).
    Miss {
        /// The requesting warp.
        slot: Slot,
        /// Its kernel run.
        kernel: u32,
        /// Line address.
        line: u64,
    },
    /// A load merged into a fetch in flight that already requests all its sectors.
    MshrMerge {
        /// The requesting warp.
        slot: Slot,
        /// Its kernel run.
        kernel: u32,
        /// Line address.
        line: u64,
    },
    /// A load found the line present or in flight but some sectors missing: those are fetched.
    SectorMiss {
        /// The requesting warp.
        slot: Slot,
        /// Its kernel run.
        kernel: u32,
        /// Line address.
        line: u64,
    },
    /// A store or an atomic was forwarded towards the L2.
    Store {
        /// The requesting warp.
        slot: Slot,
        /// Its kernel run.
        kernel: u32,
        /// Line address.
        line: u64,
        /// An atomic rather than a store.
        atomic: bool,
    },
    /// `attempts` attempts of warp `slot`'s request for `line` were turned away for `cause`.
    ReservationFail {
        /// The requesting warp.
        slot: Slot,
        /// Its kernel run.
        kernel: u32,
        /// Line address.
        line: u64,
        /// Why.
        cause: FailReason,
        /// How many attempts (more than one for retries the LSU counted without making).
        attempts: u64,
    },
    /// The data of `line` arrived from the L2.
    Fill {
        /// Line address.
        line: u64,
    },
    /// A miss of warp `by` pushed out the valid `line` that warp `owner` had brought in.
    Eviction {
        /// Line address of the victim.
        line: u64,
        /// The warp slot that allocated the victim.
        owner: u32,
        /// The warp slot whose miss evicted it.
        by: Slot,
    },
    /// A load of the isolated warp `by` moved the valid `line`, which warp `owner` had brought
    /// into the L1, out of the L1 and into the shared-memory cache (CIAO's migration); or, with
    /// exclusive copies, a load of `by` through the L1 moved it back the other way, from the
    /// shared-memory cache, where `owner` had brought it.
    Migration {
        /// Line address.
        line: u64,
        /// The warp slot that had allocated it in the L1.
        owner: u32,
        /// The isolated warp whose load moved it.
        by: Slot,
    },
    /// The shared-memory cache was sized for kernel run `kernel`'s blocks: `lines` lines (0:
    /// none; told only to a policy that redirects loads).
    SmcSized {
        /// The run.
        kernel: u32,
        /// Its lines.
        lines: u32,
    },
    /// Every line of a load or atomic of warp `slot` is answered: its register is readable from
    /// cycle `at`.
    LoadComplete {
        /// The warp.
        slot: Slot,
        /// When its data is ready.
        at: u64,
    },
    /// A warp of kernel run `kernel` took slot `slot`.
    WarpAdmit {
        /// The slot.
        slot: Slot,
        /// Its kernel run.
        kernel: u32,
    },
    /// The warp in slot `slot` exited.
    WarpExit {
        /// The slot.
        slot: Slot,
        /// Its kernel run.
        kernel: u32,
    },
    /// Kernel run `kernel` became ready for dispatch (told to every SM).
    KernelStart {
        /// The run.
        kernel: u32,
    },
    /// Every block of kernel run `kernel` finished (told to every SM).
    KernelEnd {
        /// The run.
        kernel: u32,
    },
}

/// An event with the cycle it happened in, as a recorder keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamped {
    /// The cycle.
    pub cycle: u64,
    /// What happened.
    pub event: SmEvent,
}

impl SmEvent {
    /// For an accepted L1 access (hit, miss, merge, sector miss, store), the warp and line:
    /// the access stream a replacement oracle replays.
    pub fn l1_access(&self) -> Option<(Slot, u64)> {
        match *self {
            SmEvent::Hit { slot, line, .. }
            | SmEvent::Miss { slot, line, .. }
            | SmEvent::MshrMerge { slot, line, .. }
            | SmEvent::SectorMiss { slot, line, .. }
            | SmEvent::Store { slot, line, .. } => Some((slot, line)),
            _ => None,
        }
    }
}
