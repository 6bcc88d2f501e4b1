//! Who held up whose memory instructions, among co-running kernels (host streams, the
//! concurrent-kernel paper's §2): SM cycles in which some warp of kernel `victim` had a memory
//! instruction ready to issue, operands and all, that the LSU did not take because it was busy
//! with an access of kernel `holder` (the same kernel included), whether or not its scheduler
//! issued something else meanwhile.
//!
//! Each scheduler's last look is kept, as its last stall reason is: everything that changes
//! who waits (an operand becoming ready, the LSU emptying or taking a new access) wakes a
//! sleeping scheduler, so idle skipping counts what stepping does.

use alloc::vec;
use alloc::vec::Vec;

/// Most co-running kernels counted (a bit each in a byte); later streams are left out.
pub const MAX_KERNELS: usize = 8;

/// The counts of one SM.
#[derive(Clone, Debug)]
pub struct BlockedBy {
    /// Kernels counted.
    kernels: usize,
    /// `[victim * kernels + holder]`: SM cycles.
    counts: Vec<u64>,
    /// Per scheduler, what its last look saw: the waiting kernels (a bit each) and the holder.
    last: Vec<(u8, u8)>,
}

impl BlockedBy {
    /// Counts among `kernels` co-running kernels (at most [`MAX_KERNELS`]) for an SM of
    /// `schedulers` schedulers, none waiting.
    pub fn new(kernels: usize, schedulers: usize) -> BlockedBy {
        let kernels = kernels.min(MAX_KERNELS);
        BlockedBy { kernels, counts: vec![0; kernels * kernels], last: vec![(0, 0); schedulers] }
    }

    /// Kernels counted.
    pub fn kernels(&self) -> usize {
        self.kernels
    }

    /// Scheduler `s` looked this cycle: kernels `waiting` (a bit each) had memory instructions
    /// ready that the LSU, busy with kernel `holder`'s access, did not take. `waiting` 0: none
    /// (or the LSU was free).
    pub fn look(&mut self, s: usize, waiting: u8, holder: usize) {
        self.last[s] = (waiting, holder.min(u8::MAX as usize) as u8);
    }

    /// `cycles` SM cycles passed as the schedulers last looked: each (victim, holder) that some
    /// scheduler saw counts them once. Returns the kernels that waited (a bit each).
    pub fn count(&mut self, cycles: u64) -> u8 {
        let mut pairs = 0u64;
        for &(waiting, holder) in &self.last {
            if waiting != 0 && (holder as usize) < self.kernels {
                for victim in 0..self.kernels {
                    if waiting & (1 << victim) != 0 {
                        pairs |= 1 << (victim * MAX_KERNELS + holder as usize);
                    }
                }
            }
        }
        let mut waited = 0u8;
        while pairs != 0 {
            let bit = pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            let (victim, holder) = (bit / MAX_KERNELS, bit % MAX_KERNELS);
            self.counts[victim * self.kernels + holder] += cycles;
            waited |= 1 << victim;
        }
        waited
    }

    /// SM cycles so far in which kernel `victim` waited behind kernel `holder`.
    pub fn waited(&self, victim: usize, holder: usize) -> u64 {
        if victim < self.kernels && holder < self.kernels {
            self.counts[victim * self.kernels + holder]
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_counts_once_for_each_waiting_kernel_and_holder_whichever_schedulers_saw_it() {
        let mut b = BlockedBy::new(3, 3);
        // Schedulers 0 and 1 both see kernel 0 wait behind kernel 1: one SM cycle, not two.
        b.look(0, 0b011, 1);
        b.look(1, 0b001, 1);
        b.look(2, 0b100, 0);
        assert_eq!(b.count(1), 0b111);
        assert_eq!([b.waited(0, 1), b.waited(1, 1), b.waited(2, 0), b.waited(0, 0)], [1, 1, 1, 0]);
        // The SM sleeps 4 cycles: every scheduler's last look holds.
        b.look(2, 0, 0);
        b.count(4);
        assert_eq!([b.waited(0, 1), b.waited(1, 1), b.waited(2, 0)], [5, 5, 1]);
        b.look(0, 0b1, 7);
        b.look(1, 0, 0);
        b.count(1);
        assert_eq!(b.waited(0, 1), 5, "a holder past the kernels counted is left out");
        assert_eq!(b.waited(9, 0), 0);
    }
}
