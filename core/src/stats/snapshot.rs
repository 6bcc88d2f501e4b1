//! A picture of the machine at one cycle, for animated playback: what every warp slot is
//! doing, which thread blocks are resident, and the L1 of one SM line by line.
//!
//! Arrays are flat and SM-major so that a frame is a handful of numeric arrays rather than
//! thousands of small objects when it crosses to the page.

use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::chunk_view::ChunkView;

/// What a warp slot is doing at the snapshot's cycle, most specific reason first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum WarpState {
    /// No warp in this slot.
    Empty = 0,
    /// Issued an instruction in the cycle just before the snapshot's (the last one simulated).
    Issued = 1,
    /// Could issue now: operands ready, unit free, not held back; its scheduler may still
    /// pick another warp.
    Ready = 2,
    /// Waiting for a load (or atomic) to come back from memory.
    Memory = 3,
    /// Waiting for an ALU/SFU result (scoreboard) or for its unit to accept an instruction
    /// (the ALU/SFU interval, or the memory pipeline occupied by another access).
    Dependency = 4,
    /// Waiting at a barrier for the rest of its block.
    Barrier = 5,
    /// Held back by the warp scheduler's load gate (throttling policies).
    Throttled = 6,
    /// Finished; its slot frees when its block does.
    Done = 7,
    /// Stalled in a device launch call (the device runtime's CDP costs, DTBL's launch latency).
    Launching = 8,
}

impl WarpState {
    /// Every state, in code order (`state as u8` indexes this list).
    pub const ALL: [WarpState; 9] = [
        WarpState::Empty,
        WarpState::Issued,
        WarpState::Ready,
        WarpState::Memory,
        WarpState::Dependency,
        WarpState::Barrier,
        WarpState::Throttled,
        WarpState::Done,
        WarpState::Launching,
    ];

    /// The state with code `code`, if any.
    pub fn from_code(code: u8) -> Option<WarpState> {
        WarpState::ALL.get(code as usize).copied()
    }

    /// A word for legends.
    pub fn label(self) -> &'static str {
        match self {
            WarpState::Empty => "empty",
            WarpState::Issued => "issuing",
            WarpState::Ready => "ready",
            WarpState::Memory => "waiting on memory",
            WarpState::Dependency => "waiting on a result",
            WarpState::Barrier => "at a barrier",
            WarpState::Throttled => "throttled",
            WarpState::Done => "done",
            WarpState::Launching => "in a launch call",
        }
    }
}

/// Marks "no block" in [`Snapshot::warp_run`] / [`Snapshot::warp_block`] and "no data" in
/// [`Snapshot::l1_owner`].
pub const NONE: u32 = u32::MAX;

/// The machine at the start of one cycle: every cycle before it simulated, none of it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The cycle.
    pub cycle: u64,
    /// Warp slots per SM (`config.core.max_warps_per_sm`): the stride of the warp arrays.
    pub warps_per_sm: u32,
    /// Per warp slot, SM-major (`sm * warps_per_sm + slot`): a [`WarpState`] code.
    pub warp_state: Vec<u8>,
    /// Per warp slot: the kernel run id of its block ([`NONE`] for an empty slot).
    pub warp_run: Vec<u32>,
    /// Per warp slot: the linear index of its block in its grid ([`NONE`] for an empty slot).
    pub warp_block: Vec<u32>,
    /// Totals so far, for live charts while the run goes on.
    pub warp_instructions: u64,
    /// L1 hits so far, all SMs.
    pub l1_hits: u64,
    /// L1 misses so far, all SMs: misses and sector misses, as the time series counts them.
    pub l1_misses: u64,
    /// L2 hits so far.
    pub l2_hits: u64,
    /// L2 misses so far.
    pub l2_misses: u64,
    /// Thread blocks finished so far.
    pub blocks_finished: u64,
    /// The SM whose L1 is pictured (the one asked for, clamped to the last SM).
    pub l1_sm: u32,
    /// Its sets.
    pub l1_sets: u32,
    /// Its ways (stride of the line arrays).
    pub l1_ways: u32,
    /// Per line, set-major (`set * ways + way`): the warp slot that filled it, or [`NONE`]
    /// where the way holds no data.
    pub l1_owner: Vec<u32>,
    /// Per line: hits since the previous snapshot of this SM. Summed over all snapshots of an
    /// SM (the last taken at the end), equals that SM's `L1Stats::hits`.
    pub l1_hits_since: Vec<u32>,
    /// Per line: lines allocated in this way since the previous snapshot of this SM — misses
    /// that took the way, evicting what it held. The data arrives later, so a way can show an
    /// allocation while its owner is still [`NONE`]. Summed over all snapshots of an SM (the
    /// last taken at the end), equals that SM's `L1Stats::misses`.
    pub l1_fills_since: Vec<u32>,
    /// The warp policy's own per-slot scores on SM [`Snapshot::l1_sm`], for a policy that keeps
    /// them (CCWS's lost-locality scores); `None` (and absent when serialised) for the others,
    /// whose snapshots are exactly as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warp_scores: Option<WarpScores>,
    /// Per line of SM [`Snapshot::l1_sm`]'s shared-memory cache (CIAO-P, CIAO-C), in slot
    /// order: the warp slot that filled it, or [`NONE`] where it holds no data; empty (and
    /// absent when serialised) without one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub smc_owner: Vec<u32>,
    /// CIAO's interference picture of SM [`Snapshot::l1_sm`] (who evicts whom, which warps are
    /// isolated or stalled); `None` (and absent when serialised) under other policies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interference: Option<InterferenceView>,
    /// A chunked thread-block scheduler's chunks and steal queues (IKRA's Chunk, Reset, Flip
    /// and Steal), every SM's; `None` (and absent when serialised) under other TB policies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunks: Option<ChunkView>,
    /// LaPerm's priority queues (TB-Pri, SMX-Bind, Adaptive-Bind); `None` (and absent when
    /// serialised) under other TB policies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_queues: Option<crate::sched::tb::PriorityQueueView>,
}

/// A warp policy's view of one SM's warp slots for playback: a score per warp, the cutoff
/// the scores are held against, and which warps its gate lets issue global loads. Policies
/// that rank warps by a score of their own and throttle by it give one through
/// `WarpScheduler::scores` (CCWS; CIAO's interference scores can use the same picture).
///
/// Arrays are per warp slot of the SM (`0..warps_per_sm`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarpScores {
    /// Whether the policy counts a warp in the slot (arrived and not yet exited).
    pub live: Vec<bool>,
    /// The slot's score (CCWS: lost-locality score, in points; 0 without a warp).
    pub score: Vec<u64>,
    /// Whether the policy's gate lets the slot's warp issue global loads now.
    pub may_load: Vec<bool>,
    /// The cutoff the scores, summed largest first, are held against (CCWS: live warps ×
    /// base score): the warps whose share starts past it are held back.
    pub cutoff: u64,
    /// The score a warp gets when the policy detects it losing locality now (CCWS: LLDS,
    /// Eq. 1).
    pub detection_score: u64,
    /// Detections on this SM since it started (CCWS: victim-tag hits).
    pub detections: u64,
}

impl WarpScores {
    /// Warps the policy counts.
    pub fn live_warps(&self) -> usize {
        self.live.iter().filter(|&&l| l).count()
    }

    /// Live warps whose loads may issue.
    pub fn loading_warps(&self) -> usize {
        self.live.iter().zip(&self.may_load).filter(|(&l, &m)| l && m).count()
    }
}

impl Snapshot {
    /// The state of warp slot `slot` of SM `sm`.
    pub fn warp(&self, sm: usize, slot: usize) -> WarpState {
        let index = sm * self.warps_per_sm as usize + slot;
        self.warp_state.get(index).and_then(|&c| WarpState::from_code(c)).unwrap_or(WarpState::Empty)
    }

    /// Number of SMs pictured.
    pub fn sm_count(&self) -> usize {
        self.warp_state.len().checked_div(self.warps_per_sm as usize).unwrap_or(0)
    }
}

/// What CIAO does with the warp in a slot, for playback ([`InterferenceView::role`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum WarpRole {
    /// No warp in the slot.
    Empty = 0,
    /// Issues as under GTO, its loads to the L1.
    Active = 1,
    /// Isolated: its global loads go to the shared-memory cache.
    Isolated = 2,
    /// Stalled: it issues nothing.
    Stalled = 3,
}

/// CIAO's picture of one SM for playback: each warp's state, the interferer its interference
/// list names (who evicts whom), the list's confidence in it, the warp's victim-tag hits and
/// whether its interference score passes the high cutoff. Given by
/// `WarpScheduler::interference`, as the policy stands after its last decision (an epoch
/// reached in the snapshot's last cycle is decided in the next).
///
/// Arrays are per warp slot of the SM (`0..warps_per_sm`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterferenceView {
    /// Per slot: a [`WarpRole`] code.
    pub role: Vec<u8>,
    /// Per slot: the slot of the live warp its interference list names as its worst
    /// interferer; [`NONE`] when none is named, or only itself.
    pub interferer: Vec<u32>,
    /// Per slot: the list entry's 2-bit counter (0 to 3).
    pub confidence: Vec<u8>,
    /// Per slot: victim-tag hits in the counting window.
    pub vta_hits: Vec<u64>,
    /// Per slot: whether its interference score is above the high cutoff.
    pub above_high: Vec<bool>,
    /// Lines of the shared-memory cache (0: none).
    pub smc_lines: u32,
    /// Victim-tag hits on the SM so far.
    pub detections: u64,
}

impl InterferenceView {
    /// The state of the warp in `slot` (`Empty` past the last slot).
    pub fn role(&self, slot: usize) -> WarpRole {
        match self.role.get(slot) {
            Some(1) => WarpRole::Active,
            Some(2) => WarpRole::Isolated,
            Some(3) => WarpRole::Stalled,
            _ => WarpRole::Empty,
        }
    }
}
