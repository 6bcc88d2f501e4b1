//! Runs with blocks left to place, oldest first, as the parallel lists the thread-block
//! scheduler borrows through [`crate::sched::tb::Dispatch`].
//!
//! A run leaves the lists once every block of it is placed. Blocks are mostly placed in
//! launch order, so the runs that leave are mostly the oldest: they are dropped by moving a
//! head past them, and the lists are compacted only when the dropped head is as long as the
//! rest, so a storm of small device-launched grids costs constant time per grid rather than a
//! pass over every waiting run each cycle.

use alloc::vec::Vec;

use crate::sched::tb::{BlockNeeds, PendingKernel, PlacedBlocks};

/// Runs with blocks left to place: `pending[head..]` and the same range of the other lists.
#[derive(Debug, Default)]
pub struct Undispatched {
    pending: Vec<PendingKernel>,
    needs: Vec<BlockNeeds>,
    placed: Vec<PlacedBlocks>,
    head: usize,
}

/// The lists a dispatch borrows, from the oldest run with blocks left.
pub struct Lists<'a> {
    /// What the dispatcher knows of each run.
    pub pending: &'a mut [PendingKernel],
    /// What one block of each run needs.
    pub needs: &'a [BlockNeeds],
    /// Each run's placed blocks.
    pub placed: &'a mut [PlacedBlocks],
}

impl Undispatched {
    /// A run became ready: it joins the end of the lists.
    pub fn push(&mut self, pending: PendingKernel, needs: BlockNeeds) {
        self.pending.push(pending);
        self.needs.push(needs);
        self.placed.push(PlacedBlocks::new(pending.blocks));
    }

    /// Whether no run has blocks left to place.
    pub fn is_empty(&self) -> bool {
        self.head == self.pending.len()
    }

    /// The lists, oldest run first.
    pub fn lists(&mut self) -> Lists<'_> {
        Lists {
            pending: &mut self.pending[self.head..],
            needs: &self.needs[self.head..],
            placed: &mut self.placed[self.head..],
        }
    }

    /// Drops the runs whose every block is placed, of which a dispatch just made
    /// `fully_placed`.
    pub fn drop_placed(&mut self, fully_placed: u32) {
        let mut left = fully_placed as usize;
        while left > 0 && self.head < self.pending.len() && Self::done(&self.pending[self.head]) {
            self.head += 1;
            left -= 1;
        }
        if left > 0 {
            // Placed out of launch order: one pass keeps the others, in order.
            let mut keep = self.head;
            for i in self.head..self.pending.len() {
                if !Self::done(&self.pending[i]) {
                    self.pending.swap(keep, i);
                    self.needs.swap(keep, i);
                    self.placed.swap(keep, i);
                    keep += 1;
                }
            }
            self.pending.truncate(keep);
            self.needs.truncate(keep);
            self.placed.truncate(keep);
        }
        if self.head > 0 && self.head * 2 >= self.pending.len() {
            self.pending.drain(..self.head);
            self.needs.drain(..self.head);
            self.placed.drain(..self.head);
            self.head = 0;
        }
    }

    fn done(run: &PendingKernel) -> bool {
        run.next_block >= run.blocks
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    fn run(kernel: u32, blocks: u32) -> PendingKernel {
        PendingKernel { kernel, blocks, next_block: 0 }
    }

    fn waiting(u: &mut Undispatched) -> Vec<u32> {
        u.lists().pending.iter().map(|p| p.kernel).collect()
    }

    /// Places every block of the runs at `indices` of the lists; returns how many it did.
    fn place_all(u: &mut Undispatched, indices: &[usize]) -> u32 {
        let lists = u.lists();
        for &i in indices {
            for b in 0..lists.pending[i].blocks {
                assert!(lists.placed[i].insert(b));
            }
            lists.pending[i].next_block = lists.placed[i].next();
        }
        indices.len() as u32
    }

    #[test]
    fn placed_runs_leave_in_order_from_the_front_or_the_middle() {
        let mut u = Undispatched::default();
        for k in 0..6 {
            u.push(run(k, k + 1), BlockNeeds::default());
        }
        let n = place_all(&mut u, &[0, 1]);
        u.drop_placed(n);
        assert_eq!(waiting(&mut u), [2, 3, 4, 5]);
        // From the middle: the rest keep their order, and their lists stay aligned.
        let n = place_all(&mut u, &[1, 3]);
        u.drop_placed(n);
        assert_eq!(waiting(&mut u), [2, 4]);
        let lists = u.lists();
        assert_eq!(lists.placed.iter().map(|p| p.next()).collect::<Vec<_>>(), [0, 0]);
        assert_eq!(lists.pending.iter().map(|p| p.blocks).collect::<Vec<_>>(), [3, 5]);
        let n = place_all(&mut u, &[0, 1]);
        u.drop_placed(n);
        assert!(u.is_empty());
        u.push(run(9, 1), BlockNeeds::default());
        assert_eq!(waiting(&mut u), [9]);
    }

    #[test]
    fn dropping_the_oldest_one_at_a_time_compacts_rarely() {
        let mut u = Undispatched::default();
        for k in 0..1000 {
            u.push(run(k, 1), BlockNeeds::default());
        }
        for k in 0..1000 {
            let n = place_all(&mut u, &[0]);
            u.drop_placed(n);
            assert_eq!(u.lists().pending.first().map(|p| p.kernel), (k < 999).then_some(k + 1));
            assert!(u.head <= 500, "the dropped head never outgrows the rest");
        }
    }
}
