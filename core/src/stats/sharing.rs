//! How an intra-SM sharing scheme split every SM among the co-running kernels (SMK's Dominant
//! Resource Fairness, Warped-Slicer's sweet point), for the report: the blocks per SM each
//! kernel was allowed and, under Warped-Slicer, the scalability curves the split came from and
//! the weighted speedup they predict for it (the paper's "theoretical" one).

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

/// The split, as it stood at the end of the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SharingReport {
    /// Each co-running kernel, in order of first launch.
    pub kernels: Vec<SharedKernel>,
    /// The sum of the kernels' normalised performances at the split, by their curves (only
    /// under Warped-Slicer, when the split is its sweet point).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theoretical_speedup: Option<f64>,
}

/// One co-running kernel's share.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SharedKernel {
    /// Its host stream.
    pub stream: u32,
    /// Blocks each SM may hold of it.
    pub blocks_per_sm: u32,
    /// Its scalability curve: warp instructions alone over the profile window at 1, 2, …
    /// blocks per SM (empty when the scheme profiles none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curve: Vec<u64>,
    /// Its performance at the split over its performance at full occupancy, by the curve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normalised: Option<f64>,
}
