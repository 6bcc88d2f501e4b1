//! Per-kernel MSHR partitioning (`l1.mshr_partition = PerKernel`, `cke.md` §3.6): each
//! co-running kernel may hold at most its share of the L1's MSHRs, `entries / kernels`, and a
//! miss of a kernel whose share is full fails for want of an MSHR although others are free. The
//! paper shows it brings nothing: the LSU is in order, so the failing request of a kernel at
//! its share blocks the head for every kernel.

use alloc::vec;
use alloc::vec::Vec;

/// The shares of one L1.
#[derive(Clone, Debug, Default)]
pub(super) struct MshrShare {
    /// Entries each kernel may hold; 0: not partitioned.
    limit: u32,
    /// Entries each kernel holds, by group.
    in_use: Vec<u32>,
}

impl MshrShare {
    /// `entries` split among `kernels` co-running kernels (at least one each); one kernel or none
    /// leaves the L1 unpartitioned.
    pub(super) fn new(entries: u32, kernels: u32) -> Self {
        if kernels < 2 {
            return MshrShare::default();
        }
        MshrShare { limit: (entries / kernels).max(1), in_use: vec![0; kernels as usize] }
    }

    /// Whether kernel `group` holds its whole share.
    pub(super) fn full(&self, group: u8) -> bool {
        self.limit > 0 && self.in_use.get(group as usize).is_some_and(|&n| n >= self.limit)
    }

    /// Kernel `group` takes an entry.
    pub(super) fn take(&mut self, group: u8) {
        if let Some(n) = self.in_use.get_mut(group as usize) {
            *n += 1;
        }
    }

    /// An entry of `group` is free again.
    pub(super) fn give_back(&mut self, group: u8) {
        if let Some(n) = self.in_use.get_mut(group as usize) {
            *n = n.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{config, fill, ALL};
    use super::super::{FailReason, L1Cache, L1Outcome, RequestKind};
    use crate::config::{L1Config, MshrPartition};

    /// Four MSHRs, misses queued freely, shared out between two kernels: two each.
    fn split(partition: MshrPartition) -> L1Cache {
        let config = L1Config { mshr_entries: 4, miss_queue_entries: 8, mshr_partition: partition, ..config() };
        let mut l1 = L1Cache::new(&config);
        l1.share_mshrs(2);
        l1
    }

    fn miss(l1: &mut L1Cache, kernel: u8, line: u64) -> L1Outcome {
        l1.set_requester_kernel(kernel);
        l1.access(line, ALL, RequestKind::Load, u32::from(kernel), line as u32)
    }

    /// Kernel 0 takes its two entries; its third miss fails for want of an MSHR although two
    /// are free, which kernel 1 then takes; a fill of kernel 0's line gives it one back.
    #[test]
    fn a_kernel_at_its_share_fails_while_entries_of_the_other_stay_free() {
        let mut l1 = split(MshrPartition::PerKernel);
        assert!(matches!(miss(&mut l1, 0, 0), L1Outcome::Miss { .. }));
        assert!(matches!(miss(&mut l1, 0, 1), L1Outcome::Miss { .. }));
        assert_eq!(miss(&mut l1, 0, 2), L1Outcome::ReservationFail(FailReason::MshrEntry));
        assert_eq!(l1.load_doomed(l1.set_of(2), 2), Some(FailReason::MshrEntry), "foreseen as the engine waits");
        assert!(matches!(miss(&mut l1, 1, 5), L1Outcome::Miss { .. }));
        assert!(matches!(miss(&mut l1, 1, 6), L1Outcome::Miss { .. }));
        assert_eq!(miss(&mut l1, 1, 7), L1Outcome::ReservationFail(FailReason::MshrEntry));
        fill(&mut l1, 1, ALL);
        assert!(matches!(miss(&mut l1, 0, 2), L1Outcome::Miss { .. }), "its entry came back");
        assert_eq!(miss(&mut l1, 1, 7), L1Outcome::ReservationFail(FailReason::MshrEntry), "not kernel 1's");
        // Shared, the third miss of one kernel takes a free entry.
        let mut shared = split(MshrPartition::Shared);
        for line in 0..4 {
            assert!(matches!(miss(&mut shared, 0, line), L1Outcome::Miss { .. }));
        }
    }
}
