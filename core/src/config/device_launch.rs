//! How a kernel launched from the device reaches the thread-block dispatcher: the idealised
//! fixed delay, CUDA Dynamic Parallelism (a new kernel through the kernel management unit and a
//! kernel distributor of limited entries) or Dynamic Thread Block Launch (thread-block groups
//! coalesced into a kernel already running). `laperm.md` §3.3–3.4 and §4.4–4.5 give the
//! mechanisms; every number the LaPerm paper does not state says where it comes from.

use serde::{Deserialize, Serialize};

/// The path a device-side launch takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LaunchPath {
    /// Idealised: the child grid is a new run `latency` cycles after the launch, the launching
    /// warp does not wait and nothing limits how many kernels run at once.
    #[default]
    Fixed,
    /// CUDA Dynamic Parallelism: the launching warp stalls in the device runtime's calls, the
    /// child kernel then waits `kernel_launch_latency` cycles and for a free KDU entry.
    Cdp,
    /// Dynamic Thread Block Launch: the launching warp stalls `latency` cycles, then the group
    /// joins a kernel in the KDU with the same function and block shape (no entry needed), or
    /// becomes a new kernel there if none matches.
    Dtbl,
}

/// When a kernel gives its KDU entry back (`laperm.md` §9, "CDP KDU accounting").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum KduRelease {
    /// Once every block of the kernel (and of the groups that joined it) has completed.
    #[default]
    AllCompleted,
    /// Once every such block has been dispatched.
    AllDispatched,
}

/// What inserting a DTBL group into its SM's table costs (`laperm.md` §4.5: the search for its
/// place, at most 128 cycles, is hidden behind the group's set-up, the paper says).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum InsertSearch {
    /// Nothing visible (the paper's reading).
    #[default]
    Hidden,
    /// A cycle for each record already in the table before the group reaches the dispatcher.
    Linear,
}

/// Timing and capacities of device-side launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceLaunchConfig {
    /// Which path launches take.
    #[serde(default)]
    pub path: LaunchPath,
    /// `Fixed`: cycles until the child grid may be dispatched. `Dtbl`: cycles the launching warp
    /// stalls, after which the group is queued.
    pub latency: u32,
    /// Kernels the kernel distributor (KDU) holds at once, host kernels included (`Cdp`,
    /// `Dtbl`).
    #[serde(default = "defaults::kdu_entries")]
    pub kdu_entries: u32,
    /// When a kernel leaves the KDU.
    #[serde(default)]
    pub kdu_release: KduRelease,
    /// `Cdp`: cycles from the end of the launch call until the kernel may take a KDU entry.
    #[serde(default = "defaults::kernel_launch_latency")]
    pub kernel_launch_latency: u32,
    /// `Cdp`: the launching warp's stall in `cudaStreamCreateWithFlags`, once per launching
    /// instruction (every child gets a stream of its own, as the LaPerm benchmarks do).
    #[serde(default = "defaults::cdp_stream_create")]
    pub cdp_stream_create: u32,
    /// `Cdp`: `cudaGetParameterBufferV2`'s stall, fixed part.
    #[serde(default = "defaults::cdp_parameter_buffer")]
    pub cdp_parameter_buffer: u32,
    /// `Cdp`: `cudaGetParameterBufferV2`'s stall per lane making the call.
    #[serde(default = "defaults::cdp_parameter_buffer_per_lane")]
    pub cdp_parameter_buffer_per_lane: u32,
    /// `Cdp`: `cudaLaunchDeviceV2`'s stall, fixed part.
    #[serde(default = "defaults::cdp_launch")]
    pub cdp_launch: u32,
    /// `Cdp`: `cudaLaunchDeviceV2`'s stall per lane making the call.
    #[serde(default = "defaults::cdp_launch_per_lane")]
    pub cdp_launch_per_lane: u32,
    /// `Cdp`: the device runtime's stalls scaled by this percentage (the notes' sweep: 0, 25,
    /// 100).
    #[serde(default = "defaults::cdp_latency_percent")]
    pub cdp_latency_percent: u32,
    /// `Dtbl`: group records each SM's on-chip table holds (0: unbounded).
    #[serde(default = "defaults::group_entries_per_sm")]
    pub group_entries_per_sm: u32,
    /// `Dtbl`: extra cycles before a group that found its SM's table full is queued (its record
    /// goes through global memory).
    #[serde(default = "defaults::overflow_latency")]
    pub overflow_latency: u32,
    /// `Dtbl`: whether finding a group's place in its SM's table costs visible cycles.
    #[serde(default)]
    pub insert_search: InsertSearch,
}

/// The defaults and their sources.
mod defaults {
    /// The LaPerm paper's KDU: 32 concurrent kernels (§II-B).
    pub fn kdu_entries() -> u32 {
        32
    }
    /// The LaPerm authors' public GPGPU-Sim configuration (`laperm.md` §3.3).
    pub fn kernel_launch_latency() -> u32 {
        100
    }
    // The device runtime's costs: GPGPU-Sim's CDP model, which the LaPerm paper follows
    // (`laperm.md` §3.3): one launching lane costs 28 900 cycles before the child is visible.
    pub fn cdp_stream_create() -> u32 {
        7200
    }
    pub fn cdp_parameter_buffer() -> u32 {
        8000
    }
    pub fn cdp_parameter_buffer_per_lane() -> u32 {
        100
    }
    pub fn cdp_launch() -> u32 {
        12000
    }
    pub fn cdp_launch_per_lane() -> u32 {
        1600
    }
    pub fn cdp_latency_percent() -> u32 {
        100
    }
    /// The LaPerm paper's on-chip queue: 128 entries of 24 B per SMX (§IV-E).
    pub fn group_entries_per_sm() -> u32 {
        128
    }
    /// A suggestion (`laperm.md` §4.5): about one global-memory round trip.
    pub fn overflow_latency() -> u32 {
        400
    }
}

impl Default for DeviceLaunchConfig {
    fn default() -> Self {
        DeviceLaunchConfig {
            path: LaunchPath::Fixed,
            // DTBL's cost is "modelled directly" but not given; 500 cycles is the notes'
            // suggestion (`laperm.md` §3.4). CDP's is tens of thousands (below).
            latency: 500,
            kdu_entries: defaults::kdu_entries(),
            kdu_release: KduRelease::AllCompleted,
            kernel_launch_latency: defaults::kernel_launch_latency(),
            cdp_stream_create: defaults::cdp_stream_create(),
            cdp_parameter_buffer: defaults::cdp_parameter_buffer(),
            cdp_parameter_buffer_per_lane: defaults::cdp_parameter_buffer_per_lane(),
            cdp_launch: defaults::cdp_launch(),
            cdp_launch_per_lane: defaults::cdp_launch_per_lane(),
            cdp_latency_percent: defaults::cdp_latency_percent(),
            group_entries_per_sm: defaults::group_entries_per_sm(),
            overflow_latency: defaults::overflow_latency(),
            insert_search: InsertSearch::Hidden,
        }
    }
}

impl DeviceLaunchConfig {
    /// Cycles a warp whose `lanes` active lanes each launch a grid in one instruction stalls
    /// before its next instruction.
    pub fn warp_stall(&self, lanes: u32) -> u64 {
        let lanes = lanes as u64;
        match self.path {
            LaunchPath::Fixed => 0,
            LaunchPath::Dtbl => self.latency as u64,
            LaunchPath::Cdp => {
                let calls = self.cdp_stream_create as u64
                    + self.cdp_parameter_buffer as u64
                    + self.cdp_parameter_buffer_per_lane as u64 * lanes
                    + self.cdp_launch as u64
                    + self.cdp_launch_per_lane as u64 * lanes;
                calls * self.cdp_latency_percent as u64 / 100
            }
        }
    }

    /// Cycles from such an instruction until its grids reach the launch path's queue (CDP: the
    /// KMU; DTBL: a KDU kernel or the KMU), or, `Fixed`, the dispatcher. At least 1.
    pub fn arrival_after(&self, lanes: u32) -> u64 {
        let after = match self.path {
            LaunchPath::Fixed => self.latency as u64,
            LaunchPath::Dtbl => self.warp_stall(lanes),
            LaunchPath::Cdp => self.warp_stall(lanes) + self.kernel_launch_latency as u64,
        };
        after.max(1)
    }

    /// Whether kernels need a KDU entry.
    pub fn limits_kernels(&self) -> bool {
        self.path != LaunchPath::Fixed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdp_costs_follow_the_notes_worked_figures() {
        let cdp = DeviceLaunchConfig { path: LaunchPath::Cdp, ..DeviceLaunchConfig::default() };
        // laperm.md §3.3: one lane 7200 + 8100 + 13600 = 28 900 cycles; 32 lanes 81 600.
        assert_eq!(cdp.warp_stall(1), 28_900);
        assert_eq!(cdp.warp_stall(32), 81_600);
        assert_eq!(cdp.arrival_after(1), 29_000, "plus the kernel launch latency");
        let quarter = DeviceLaunchConfig { cdp_latency_percent: 25, ..cdp };
        assert_eq!(quarter.warp_stall(1), 7_225);
        let dtbl = DeviceLaunchConfig { path: LaunchPath::Dtbl, ..DeviceLaunchConfig::default() };
        assert_eq!((dtbl.warp_stall(32), dtbl.arrival_after(32)), (500, 500));
        let fixed = DeviceLaunchConfig::default();
        assert_eq!((fixed.warp_stall(32), fixed.arrival_after(32)), (0, 500));
        let instant = DeviceLaunchConfig { path: LaunchPath::Dtbl, latency: 0, ..DeviceLaunchConfig::default() };
        assert_eq!(instant.arrival_after(1), 1, "a launch is never seen in its own cycle");
    }
}
