//! The SIMT reconvergence stack of one warp (post-dominator reconvergence, as in GPGPU-Sim).
//!
//! The top entry says which lanes run and where. A divergent branch turns the top entry into
//! the reconvergence entry and pushes one entry per path; a path's entry is popped when it
//! reaches the reconvergence point, and the lanes continue together.

use alloc::vec::Vec;

/// One level of the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// Next instruction of these lanes.
    pc: u32,
    /// Where these lanes wait for the others (`NEVER` for the bottom entry).
    reconverge: u32,
    /// Lanes of this entry.
    mask: u32,
}

const NEVER: u32 = u32::MAX;

/// No entry: the value of [`SimtStack::top`] once every lane has exited.
const EMPTY: Entry = Entry { pc: 0, reconverge: NEVER, mask: 0 };

/// The stack; empty once every lane has exited. The top entry is kept apart from the ones
/// below it, in the warp itself: the issue stage reads the next pc of every warp it looks at,
/// and that should not cost a trip to another allocation.
#[derive(Clone, Debug)]
pub struct SimtStack {
    /// The top entry, [`EMPTY`] (no lanes) when the stack is empty.
    top: Entry,
    /// The entries below it, bottom first.
    below: Vec<Entry>,
}

impl Default for SimtStack {
    fn default() -> Self {
        SimtStack { top: EMPTY, below: Vec::new() }
    }
}

impl SimtStack {
    /// Starts `mask`'s lanes at instruction 0, reusing the allocation.
    pub fn reset(&mut self, mask: u32) {
        self.below.clear();
        self.top = Entry { pc: 0, reconverge: NEVER, mask };
    }

    /// The next instruction, or `None` once every lane has exited.
    #[inline]
    pub fn pc(&self) -> Option<u32> {
        (self.top.mask != 0).then_some(self.top.pc)
    }

    /// The lanes that execute the next instruction.
    #[inline]
    pub fn active_mask(&self) -> u32 {
        self.top.mask
    }

    /// Depth of divergence (1 when converged), for statistics and tests.
    pub fn depth(&self) -> usize {
        if self.top.mask == 0 {
            0
        } else {
            self.below.len() + 1
        }
    }

    fn push(&mut self, entry: Entry) {
        self.below.push(self.top);
        self.top = entry;
    }

    fn pop(&mut self) {
        self.top = self.below.pop().unwrap_or(EMPTY);
    }

    /// Moves past a non-branching instruction.
    pub fn advance(&mut self) {
        if self.top.mask != 0 {
            self.top.pc += 1;
        }
        self.pop_reconverged();
    }

    /// Executes a branch: lanes of `taken` (a subset of the active mask) go to `target`, the
    /// rest fall through; both meet at `reconverge`.
    pub fn branch(&mut self, taken: u32, target: u32, reconverge: u32) {
        if self.top.mask == 0 {
            return;
        }
        let not_taken = self.top.mask & !taken;
        let fallthrough = self.top.pc + 1;
        if not_taken == 0 {
            self.top.pc = target;
        } else if taken == 0 {
            self.top.pc = fallthrough;
        } else {
            self.top.pc = reconverge;
            // Pushed second, so the taken path runs first. A path that starts at the
            // reconvergence point has nothing to run and just waits there.
            if fallthrough != reconverge {
                self.push(Entry { pc: fallthrough, reconverge, mask: not_taken });
            }
            if target != reconverge {
                self.push(Entry { pc: target, reconverge, mask: taken });
            }
        }
        self.pop_reconverged();
    }

    /// Retires `lanes` for good; entries left without lanes disappear.
    pub fn exit(&mut self, lanes: u32) {
        for entry in &mut self.below {
            entry.mask &= !lanes;
        }
        self.below.retain(|e| e.mask != 0);
        self.top.mask &= !lanes;
        if self.top.mask == 0 {
            self.pop();
        }
        self.pop_reconverged();
    }

    fn pop_reconverged(&mut self) {
        while self.top.mask != 0 && self.top.pc == self.top.reconverge {
            self.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_if_else_runs_both_paths_then_reconverges() {
        // 0: branch (lanes 0-1 taken) -> 3, reconverge 5
        // 1..2: else path, 2 jumps to 5;  3..4: then path;  5: join
        let mut s = SimtStack::default();
        s.reset(0b1111);
        s.branch(0b0011, 3, 5);
        assert_eq!((s.pc(), s.active_mask(), s.depth()), (Some(3), 0b0011, 3));
        s.advance(); // 3 -> 4
        s.advance(); // 4 -> 5 = reconvergence: pop, the else path runs
        assert_eq!((s.pc(), s.active_mask()), (Some(1), 0b1100));
        s.advance(); // 1 -> 2
        s.branch(0b1100, 5, 5); // the else path's jump to the join
        assert_eq!((s.pc(), s.active_mask(), s.depth()), (Some(5), 0b1111, 1));
    }

    #[test]
    fn lanes_leaving_a_loop_early_wait_at_its_exit() {
        // 0: loop head: branch out (to 2) for lanes that are done, reconverge 2; 1: jump 0.
        let mut s = SimtStack::default();
        s.reset(0b111);
        s.branch(0b001, 2, 2); // lane 0 leaves after iteration 0
        assert_eq!((s.pc(), s.active_mask()), (Some(1), 0b110));
        s.branch(0b110, 0, 0); // back edge, uniform
        s.branch(0b010, 2, 2); // lane 1 leaves
        assert_eq!((s.pc(), s.active_mask()), (Some(1), 0b100));
        s.branch(0b100, 0, 0);
        s.branch(0b100, 2, 2); // lane 2 leaves: everybody is at 2 together
        assert_eq!((s.pc(), s.active_mask(), s.depth()), (Some(2), 0b111, 1));
    }

    #[test]
    fn exiting_lanes_vanish_from_every_level() {
        let mut s = SimtStack::default();
        s.reset(0b11);
        s.branch(0b01, 5, 9);
        s.exit(0b01); // the taken lane returns early
        assert_eq!((s.pc(), s.active_mask()), (Some(1), 0b10));
        s.exit(0b10);
        assert_eq!(s.pc(), None);
    }
}
