//! Fetch groups for the two-level schedulers (Narasiman et al., MICRO'11, as the CCWS paper
//! uses them): each scheduler's warp slots are cut, in slot order, into groups of a fixed
//! size; the scheduler keeps issuing from one group until none of its warps can issue.

use super::WarpSlot;
use crate::sched::ParamInfo;

/// The two-level schedulers' one parameter, the group size, with its default.
pub const fn group_param(default: u32) -> ParamInfo {
    ParamInfo {
        name: "group",
        label: "Fetch group",
        unit: "warps",
        description: "Warps per fetch group; the scheduler leaves a group only when none of its warps can issue.",
        min: 1,
        max: 64,
        default,
    }
}

/// How a scheduler's warp slots fall into fetch groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchGroups {
    /// Warps per group.
    pub size: u16,
    /// Schedulers of the SM: slot `s` belongs to scheduler `s % schedulers` and is its
    /// `s / schedulers`-th slot.
    pub schedulers: u16,
}

impl FetchGroups {
    /// Groups of `size` warps, on one scheduler until [`FetchGroups::schedulers`] is set from
    /// the SM's shape.
    pub fn new(size: u32) -> Self {
        FetchGroups { size: size.clamp(1, u16::MAX as u32) as u16, schedulers: 1 }
    }

    /// The group of `slot` among its scheduler's groups.
    pub fn of(&self, slot: WarpSlot) -> u16 {
        slot / self.schedulers.max(1) / self.size.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_consecutive_slots_of_one_scheduler() {
        // Two schedulers, groups of 2: scheduler 0 owns slots 0, 2, 4, 6 → groups {0, 2}, {4, 6}.
        let g = FetchGroups { size: 2, schedulers: 2 };
        let groups: alloc::vec::Vec<u16> = (0..8).map(|s| g.of(s)).collect();
        assert_eq!(groups, [0, 0, 0, 0, 1, 1, 1, 1]);
        let one = FetchGroups { size: 8, schedulers: 1 };
        assert_eq!((one.of(7), one.of(8), one.of(23)), (0, 1, 2));
    }
}
