//! Scheduling policies: which thread block goes to which SM ([`tb`]), and which ready warp
//! issues next ([`warp`]). Each policy is one file behind a small trait; a registry lists
//! every policy once with a stable id and its parameters ([`params`]), and the UI's menus and
//! share links read it.

pub mod params;
pub mod tb;
pub mod warp;

pub use params::{ParamInfo, ParamValues, PolicySpec, SpecError, Tunable};

/// A registry row: how people and links refer to a policy.
#[derive(Clone, Copy, Debug)]
pub struct PolicyInfo {
    /// Stable id used in links and on the command line; never reused or renamed.
    pub id: &'static str,
    /// Name in menus.
    pub label: &'static str,
    /// One sentence on what it does.
    pub description: &'static str,
    /// What it can be tuned by (empty for most).
    pub params: &'static [ParamInfo],
}
