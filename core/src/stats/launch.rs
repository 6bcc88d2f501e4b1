//! What device-side launches did on their way to the dispatcher (`laperm.md` §7's diagnostics):
//! how many took each path, how full the KDU, the KMU and the DTBL group tables got, how long
//! kernels waited, and how many child blocks ran on their direct parent's SM.

use serde::{Deserialize, Serialize};

/// Counts over a whole run. All zero when nothing was launched from the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchStats {
    /// Grids launched by device threads (one per launching lane).
    pub device_launches: u64,
    /// Of those, the ones that became kernels of their own with a KDU entry (every CDP launch;
    /// under DTBL a group no running kernel matched).
    pub new_kernels: u64,
    /// DTBL groups that joined a kernel already in the KDU.
    pub coalesced_groups: u64,
    /// DTBL groups whose SM's table was full, queued through global memory.
    pub overflowed_groups: u64,
    /// Warp-cycles launching warps stalled in launch calls.
    pub launch_stall_cycles: u64,
    /// The most KDU entries in use at once.
    pub kdu_peak: u32,
    /// The most kernels waiting in the KMU at once.
    pub kmu_peak: u32,
    /// The most group records one SM's table held at once.
    pub group_table_peak: u32,
    /// Kernels that left the KMU for a KDU entry (host kernels that found the KDU full too).
    pub kmu_waits: u64,
    /// Cycles kernels waited in the KMU, summed.
    pub kmu_wait_cycles: u64,
    /// Device-launched runs whose first block was dispatched.
    pub children_dispatched: u64,
    /// Cycles from each such run's launch instruction to its first block's dispatch, summed.
    pub launch_to_dispatch_cycles: u64,
    /// The longest such gap.
    pub launch_to_dispatch_max: u64,
    /// Blocks of device-launched runs dispatched.
    pub child_blocks: u64,
    /// Of which on the SM their direct parent ran on when it launched them.
    pub child_blocks_on_parent_sm: u64,
}

impl LaunchStats {
    /// Whether nothing was launched from the device (the report then leaves the counts out).
    pub fn is_empty(&self) -> bool {
        *self == LaunchStats::default()
    }

    /// Mean cycles from a launch instruction to its grid's first dispatched block.
    pub fn mean_launch_to_dispatch(&self) -> f64 {
        if self.children_dispatched == 0 {
            return 0.0;
        }
        self.launch_to_dispatch_cycles as f64 / self.children_dispatched as f64
    }

    /// Share of child blocks run on their direct parent's SM (0 when there were none).
    pub fn on_parent_sm_share(&self) -> f64 {
        if self.child_blocks == 0 {
            return 0.0;
        }
        self.child_blocks_on_parent_sm as f64 / self.child_blocks as f64
    }
}
