//! Which of one scheduler's warps can issue, kept as sets of its members (bits in age order,
//! see [`crate::sched::warp::set`]) and updated by the events that change them: an issue, a
//! register released, a barrier, a warp arriving or leaving. A scheduler's cycle then looks
//! only at the warps whose state changed or whose wait ran out, instead of at all of them.

use alloc::vec::Vec;

use crate::isa::Unit;
use crate::sched::warp::{Members, WarpSet, WarpSlot, Words};
use crate::stats::StallReason;

/// A register whose value is not known yet (a load in flight).
pub(super) const NOT_READY: u64 = u64::MAX;

/// The units a next instruction can need, as indices of [`Readiness::units`].
const ALU: usize = 0;
const SFU: usize = 1;
const CONTROL: usize = 2;
const FP64: usize = 3;
const MEMORY: usize = 4;

fn unit_set(unit: Unit) -> usize {
    match unit {
        Unit::Alu => ALU,
        Unit::Sfu => SFU,
        Unit::Control => CONTROL,
        Unit::Fp64 => FP64,
        Unit::Memory => MEMORY,
    }
}

/// When a warp's next instruction can issue, as far as the warp itself goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Next {
    /// The first cycle its registers are ready ([`NOT_READY`] while a load is in flight) and
    /// the warp is out of any device launch call's stall.
    pub wait: u64,
    /// The unit it needs.
    pub unit: Unit,
    /// Whether the launch stall is what it waits for (it ends after the registers are ready).
    pub launch: bool,
}

/// The issue stage's view of one scheduler's warps.
#[derive(Clone, Debug)]
pub(super) struct Readiness {
    /// The scheduler's warps, oldest first; every set below is by position in this list.
    pub members: Members,
    all: WarpSet,
    /// Next instruction or registers changed: `wait_until` and the sets below are out of date.
    stale: WarpSet,
    barrier: WarpSet,
    /// Operands wait for a load in flight (`wait_until == NOT_READY`).
    loading: WarpSet,
    /// Operands ready at `wait_until`, later than the cycle last looked at.
    waiting: WarpSet,
    /// Of those, the ones whose wait is a device launch call's stall rather than their
    /// operands (meaningful only while in `waiting`).
    launching: WarpSet,
    /// No wait in `waiting` ends before this cycle.
    next_wait: u64,
    /// Members whose next instruction goes to each unit: ALU, SFU, control, FP64, memory.
    units: [WarpSet; 5],
    /// By position: the index in `units` of its set.
    unit: Vec<u8>,
    /// By position: first cycle at which the next instruction's registers are ready.
    wait_until: Vec<u64>,
    /// Finished this cycle; they leave the list once the scheduler's cycle is over, so that
    /// positions stay put while it picks.
    exited: WarpSet,
    /// More than 64 warps: the scans below look at all the words of the sets, not just one.
    wide: bool,
}

/// What a scheduler's warps are waiting for, judged at one cycle (over the first `W` words of
/// the sets: see [`Readiness::wide`]).
pub(super) struct Look<const W: usize> {
    /// Members not at a barrier whose operands are ready.
    pub candidates: Words<W>,
    /// Of those, the ones whose unit is free: they can issue.
    pub ready: Words<W>,
}

impl Readiness {
    /// A scheduler of up to `capacity` warps, without any yet, on an SM with `slots` warp slots.
    pub fn new(slots: usize, capacity: usize) -> Self {
        Readiness {
            members: Members::new(slots),
            all: WarpSet::EMPTY,
            stale: WarpSet::EMPTY,
            barrier: WarpSet::EMPTY,
            loading: WarpSet::EMPTY,
            waiting: WarpSet::EMPTY,
            launching: WarpSet::EMPTY,
            next_wait: u64::MAX,
            units: [WarpSet::EMPTY; 5],
            unit: Vec::with_capacity(slots),
            wait_until: Vec::with_capacity(slots),
            exited: WarpSet::EMPTY,
            wide: capacity > 64,
        }
    }

    /// Whether the scheduler may hold more than 64 warps. The scans of a scheduler's cycle are
    /// generic over the words `W` of the sets they look at: 1 when it is not wide, else all 4,
    /// chosen once per cycle so that every set operation is straight-line code.
    pub fn wide(&self) -> bool {
        self.wide
    }

    /// The position of `slot`, which the engine only asks of its own live warps.
    fn position(&self, slot: WarpSlot) -> Option<usize> {
        let i = self.members.position(slot);
        debug_assert!(i.is_some(), "warp {slot} is not a member");
        i
    }

    /// A new warp, the youngest.
    pub fn admit(&mut self, slot: WarpSlot) {
        let i = self.members.push(slot);
        self.wait_until.push(0);
        self.unit.push(ALU as u8);
        self.units[ALU].insert(i);
        self.all.insert(i);
        self.stale.insert(i);
    }

    /// `slot` issued, or one of its registers was released: look at it again.
    pub fn touch(&mut self, slot: WarpSlot) {
        if let Some(i) = self.position(slot) {
            self.stale.insert(i);
        }
    }

    /// `slot` arrived at a barrier (`true`) or the barrier opened.
    pub fn set_barrier(&mut self, slot: WarpSlot, at: bool) {
        if let Some(i) = self.position(slot) {
            self.barrier.set(i, at);
        }
    }

    /// Whether `slot` waits at a barrier.
    pub fn at_barrier(&self, slot: WarpSlot) -> bool {
        self.members.position(slot).is_some_and(|i| self.barrier.contains(i))
    }

    /// `slot` finished; it leaves at [`Readiness::drop_exited`].
    pub fn exit(&mut self, slot: WarpSlot) {
        if let Some(i) = self.position(slot) {
            self.exited.insert(i);
        }
    }

    /// Removes the warps that finished, moving the younger ones up.
    #[inline]
    pub fn drop_exited(&mut self) {
        if !self.exited.is_empty() {
            self.remove_exited();
        }
    }

    #[cold]
    fn remove_exited(&mut self) {
        // A narrow scheduler's positions all lie in the sets' first word.
        let words = if self.wide { usize::MAX } else { 1 };
        // Ascending: each removal moves the later positions down by one.
        for (removed, i) in self.exited.iter().enumerate() {
            let i = i - removed;
            self.members.remove_at(i);
            self.wait_until.remove(i);
            self.unit.remove(i);
            for set in [
                &mut self.all,
                &mut self.stale,
                &mut self.barrier,
                &mut self.loading,
                &mut self.waiting,
                &mut self.launching,
            ] {
                set.remove_at_within(i, words);
            }
            for set in &mut self.units {
                set.remove_at_within(i, words);
            }
        }
        self.exited = WarpSet::EMPTY;
    }

    /// Records at cycle `now` that position `i`'s next instruction has its registers ready at
    /// `wait` and needs `unit`.
    #[inline]
    fn set_next(&mut self, i: usize, now: u64, Next { wait, unit, launch }: Next) {
        self.wait_until[i] = wait;
        let (old, new) = (self.unit[i] as usize, unit_set(unit));
        if old != new {
            self.units[old].remove(i);
            self.units[new].insert(i);
            self.unit[i] = new as u8;
        }
        self.loading.set(i, wait == NOT_READY);
        let later = wait != NOT_READY && wait > now;
        self.waiting.set(i, later);
        self.launching.set(i, launch);
        if later {
            self.next_wait = self.next_wait.min(wait);
        }
    }

    /// The warp at position `i` just issued at `now`, and its next instruction is `next`: what
    /// [`Readiness::refresh`] would find, given while the warp's state is still in the host's
    /// cache.
    pub fn looked_at(&mut self, i: usize, now: u64, next: Next) {
        debug_assert!(i < self.members.len(), "position {i} holds no warp");
        self.set_next(i, now, next);
        self.stale.remove(i);
    }

    /// Brings the sets up to date for cycle `now`: `next(slot)` says when a stale warp's next
    /// instruction can issue and the unit it needs.
    pub fn refresh<const W: usize>(&mut self, now: u64, mut next: impl FnMut(WarpSlot) -> Next) {
        let stale = self.stale.words::<W>();
        if !stale.is_empty() {
            stale.for_each(|i| {
                let n = next(self.members.slot(i));
                self.set_next(i, now, n);
            });
            self.stale = WarpSet::EMPTY;
        }
        if now >= self.next_wait {
            let mut next_wait = u64::MAX;
            self.waiting.words::<W>().for_each(|i| match self.wait_until[i] {
                at if at <= now => self.waiting.remove(i),
                at => next_wait = next_wait.min(at),
            });
            self.next_wait = next_wait;
        }
    }

    /// Who can issue once [`Readiness::refresh`]ed: `busy` says which units (ALU, SFU, control, FP64,
    /// memory) take no instruction this cycle.
    pub fn look<const W: usize>(&self, busy: [bool; 5]) -> Look<W> {
        let candidates = self.candidates::<W>();
        let mut blocked = Words::default();
        for (set, busy) in self.units.iter().zip(busy) {
            if busy {
                blocked = blocked | set.words::<W>();
            }
        }
        Look { candidates, ready: candidates & !blocked }
    }

    /// Members not at a barrier whose operands are ready and whose next instruction goes to
    /// the LSU, once [`Readiness::refresh`]ed.
    pub fn memory_candidates<const W: usize>(&self) -> Words<W> {
        self.candidates::<W>() & self.units[MEMORY].words()
    }

    /// Members not at a barrier whose operands are ready.
    fn candidates<const W: usize>(&self) -> Words<W> {
        self.all.words() & !self.barrier.words() & !self.loading.words() & !self.waiting.words()
    }

    /// Why nothing can issue, when [`Look::ready`] is empty.
    pub fn stall_reason<const W: usize>(&self, look: &Look<W>, lsu_busy: bool) -> StallReason {
        if self.members.is_empty() {
            StallReason::NoWarp
        } else if self.barrier.words::<W>() == self.all.words() {
            StallReason::Barrier
        } else if lsu_busy && !(look.candidates & self.units[MEMORY].words()).is_empty() {
            StallReason::MemoryPipeline
        } else if self.all_launching::<W>() {
            StallReason::DeviceLaunch
        } else {
            StallReason::Scoreboard
        }
    }

    /// Whether every member not at a barrier is stalled in a device launch call (and one is).
    fn all_launching<const W: usize>(&self) -> bool {
        let launching = self.launching.words::<W>() & self.waiting.words();
        let others = self.all.words::<W>() & !self.barrier.words() & !launching;
        !launching.is_empty() && others.is_empty()
    }

    /// The first cycle after `now` at which some warp's next instruction could issue, judging
    /// by its registers and its unit (`u64::MAX` if only a release or a new block can help).
    /// `unit_free` is when the ALU, SFU, control and FP64 units take their next instruction.
    pub fn earliest_issue<const W: usize>(&self, now: u64, unit_free: [u64; 4], lsu_busy: bool) -> u64 {
        let mut earliest = u64::MAX;
        // Waiting for operands: until they are ready, and for a busy unit (blocked by the busy
        // LSU, the LSU emptying wakes the SM; until its operands are ready a memory
        // instruction stalls on the scoreboard instead, so wake when that changes).
        (self.waiting.words::<W>() & !self.barrier.words()).for_each(|i| {
            let wait = self.wait_until[i];
            let at = match self.unit[i] as usize {
                MEMORY => wait,
                unit => wait.max(unit_free[unit]),
            };
            earliest = earliest.min(at.max(now + 1));
        });
        // Operands ready: until the unit is free.
        let candidates = self.candidates::<W>();
        for (unit, free) in unit_free.iter().enumerate() {
            if !(candidates & self.units[unit].words()).is_empty() {
                earliest = earliest.min((*free).max(now + 1));
            }
        }
        if !lsu_busy && !(candidates & self.units[MEMORY].words()).is_empty() {
            earliest = earliest.min(now + 1);
        }
        earliest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alu(wait: u64, launch: bool) -> Next {
        Next { wait, unit: Unit::Alu, launch }
    }

    /// A stall is the device launch's only while every warp that could issue is in a launch
    /// call: one warp waiting for an operand makes it the scoreboard's, and warps at a barrier
    /// do not count.
    #[test]
    fn a_stall_is_the_launch_calls_only_when_every_other_warp_is_at_a_barrier() {
        let reason = |ready: &mut Readiness, now: u64, next: &dyn Fn(WarpSlot) -> Next| {
            ready.refresh::<1>(now, next);
            let look = ready.look::<1>([false; 5]);
            assert!(look.ready.is_empty());
            ready.stall_reason::<1>(&look, false)
        };
        let mut ready = Readiness::new(8, 8);
        for slot in 0..3 {
            ready.admit(slot);
        }
        // Warps 0 and 1 stall in launch calls until cycle 500; warp 2 waits for a result.
        let launching = |slot: WarpSlot| if slot < 2 { alu(500, true) } else { alu(20, false) };
        assert_eq!(reason(&mut ready, 10, &launching), StallReason::Scoreboard);
        ready.set_barrier(2, true);
        assert_eq!(reason(&mut ready, 11, &launching), StallReason::DeviceLaunch);
        ready.set_barrier(2, false);
        ready.touch(2);
        let waiting = |slot: WarpSlot| if slot < 2 { alu(500, true) } else { alu(NOT_READY, false) };
        assert_eq!(reason(&mut ready, 12, &waiting), StallReason::Scoreboard, "a load in flight");
        // Once the stall is over, the launch bit of a warp no longer waiting counts for nothing.
        ready.touch(2);
        ready.set_barrier(2, true);
        ready.refresh::<1>(600, &launching);
        assert_eq!(WarpSet::from(ready.look::<1>([false; 5]).ready).iter().count(), 2);
    }

    /// A scheduler of more than 64 warps whose exited warps sit in both of the sets' first two
    /// words: the younger members move up one place per exit, across the word boundary, and
    /// every set moves with them.
    #[test]
    fn exits_in_a_wide_scheduler_move_the_younger_warps_across_words() {
        let mut ready = Readiness::new(160, 160);
        assert!(ready.wide());
        for slot in 0..100 {
            ready.admit(slot);
        }
        ready.refresh::<4>(0, |_| alu(0, false));
        ready.exit(2);
        ready.exit(70);
        ready.drop_exited();
        ready.refresh::<4>(1, |_| alu(0, false));
        let look = ready.look::<4>([false; 5]);
        let positions: Vec<usize> = WarpSet::from(look.ready).iter().collect();
        assert_eq!(positions, (0..98).collect::<Vec<_>>(), "98 members left, every one ready");
        let slots: Vec<WarpSlot> = positions.iter().map(|&i| ready.members.slot(i)).collect();
        let expected: Vec<WarpSlot> = (0..100).filter(|&s| s != 2 && s != 70).collect();
        assert_eq!(slots, expected, "oldest first, without the two that left");
        // A warp younger than both exits, now at position 97, waits on a load: only it leaves
        // the ready set.
        ready.looked_at(97, 1, alu(NOT_READY, false));
        let look = ready.look::<4>([false; 5]);
        assert!(!look.ready.contains(97) && look.ready.contains(96) && look.ready.contains(63));
    }
}
