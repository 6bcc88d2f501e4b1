//! The memory side's pending events, in the order they fall due: by cycle, and within a cycle
//! in the order they were scheduled.
//!
//! Almost every event falls due within a few hundred cycles of being scheduled, so the queue
//! is a calendar: one FIFO list per cycle for a window of [`WINDOW`] cycles starting at the
//! cycle being drained, plus a binary heap for the rare event beyond the window. A far event
//! joins its cycle's list the moment the window reaches that cycle, before anything else can
//! be scheduled for it, so the order is exactly that of one heap keyed on (cycle, scheduling
//! order). Scheduling and taking an event cost O(1); nodes are recycled, so once the queue has
//! reached its peak size it allocates nothing.

use alloc::collections::BinaryHeap;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// Cycles covered by the per-cycle lists (a power of two).
const WINDOW: usize = 2048;
const WORDS: usize = WINDOW / 64;
const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<T> {
    event: T,
    /// Next node of the same cycle's list, or of the free list.
    next: u32,
}

#[derive(Clone, Copy, Debug)]
struct List {
    head: u32,
    tail: u32,
}

const EMPTY: List = List { head: NIL, tail: NIL };

/// An event beyond the window; `seq` keeps the scheduling order among those of one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Far {
    at: u64,
    seq: u64,
    node: u32,
}

impl Ord for Far {
    // Reversed: the heap's top is the earliest.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

impl PartialOrd for Far {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Events of type `T` keyed by the cycle they fall due.
#[derive(Clone, Debug)]
pub struct EventQueue<T> {
    nodes: Vec<Node<T>>,
    free: u32,
    /// List `c % WINDOW` holds the events due at cycle `c`, for `c` in `[base, base + WINDOW)`.
    lists: Vec<List>,
    /// Bit `i` is set while list `i` is not empty.
    occupied: [u64; WORDS],
    /// The earliest cycle any event can still be due (events are never scheduled before it).
    base: u64,
    /// Events in the lists.
    near: usize,
    /// Events due at `base + WINDOW` or later.
    far: BinaryHeap<Far>,
    far_seq: u64,
}

impl<T: Copy> Default for EventQueue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> EventQueue<T> {
    /// An empty queue at cycle 0.
    pub fn new() -> Self {
        EventQueue {
            nodes: Vec::new(),
            free: NIL,
            lists: vec![EMPTY; WINDOW],
            occupied: [0; WORDS],
            base: 0,
            near: 0,
            far: BinaryHeap::new(),
            far_seq: 0,
        }
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.near == 0 && self.far.is_empty()
    }

    /// Schedules `event` at cycle `at`, after every event already scheduled for `at`. `at` must
    /// not be earlier than the cycle last passed to [`EventQueue::pop_due`] (the engine never
    /// schedules into the past).
    pub fn push(&mut self, at: u64, event: T) {
        debug_assert!(at >= self.base, "event scheduled at {at}, before cycle {}", self.base);
        let at = at.max(self.base);
        let node = self.alloc(event);
        if at - self.base < WINDOW as u64 {
            self.link(at, node);
        } else {
            self.far_seq += 1;
            self.far.push(Far { at, seq: self.far_seq, node });
        }
    }

    /// The cycle of the earliest pending event.
    pub fn next_due(&self) -> Option<u64> {
        if self.near == 0 {
            return self.far.peek().map(|f| f.at);
        }
        let start = self.base as usize % WINDOW;
        let (word, bit) = (start / 64, start % 64);
        // From `start` to the end of the window's ring, then around to `start` again.
        let mut bits = self.occupied[word] & (!0u64 << bit);
        for k in 0..=WORDS {
            let w = (word + k) % WORDS;
            if k > 0 {
                bits = self.occupied[w];
            }
            if k == WORDS {
                bits &= !(!0u64 << bit);
            }
            if bits != 0 {
                let index = w * 64 + bits.trailing_zeros() as usize;
                return Some(self.base + ((index + WINDOW - start) % WINDOW) as u64);
            }
        }
        debug_assert!(false, "{} events in lists but none marked", self.near);
        None
    }

    /// Takes the earliest event due at or before `now`, with its cycle; afterwards nothing can
    /// be scheduled before the returned cycle (or `now`, once this returns `None`).
    pub fn pop_due(&mut self, now: u64) -> Option<(u64, T)> {
        loop {
            let i = self.base as usize % WINDOW;
            let head = self.lists[i].head;
            if head != NIL {
                let Node { event, next } = self.nodes[head as usize];
                self.lists[i].head = next;
                if next == NIL {
                    self.lists[i].tail = NIL;
                    self.occupied[i / 64] &= !(1 << (i % 64));
                }
                self.nodes[head as usize].next = self.free;
                self.free = head;
                self.near -= 1;
                return Some((self.base, event));
            }
            if self.base >= now {
                return None;
            }
            // Nothing left at `base`: move the window to the next cycle with events, or to `now`.
            let next = self.next_due().map_or(now, |c| c.min(now));
            self.advance(next);
        }
    }

    /// Moves the window to start at `to` (every list before it is empty), pulling in the far
    /// events it now covers, in their order.
    fn advance(&mut self, to: u64) {
        self.base = to;
        while let Some(f) = self.far.peek().copied() {
            if f.at - to >= WINDOW as u64 {
                break;
            }
            self.far.pop();
            self.link(f.at, f.node);
        }
    }

    fn alloc(&mut self, event: T) -> u32 {
        if self.free == NIL {
            self.nodes.push(Node { event, next: NIL });
            return self.nodes.len() as u32 - 1;
        }
        let node = self.free;
        self.free = self.nodes[node as usize].next;
        self.nodes[node as usize] = Node { event, next: NIL };
        node
    }

    /// Appends `node` to the list of cycle `at` (inside the window).
    fn link(&mut self, at: u64, node: u32) {
        let i = at as usize % WINDOW;
        let list = &mut self.lists[i];
        if list.tail == NIL {
            list.head = node;
            self.occupied[i / 64] |= 1 << (i % 64);
        } else {
            self.nodes[list.tail as usize].next = node;
        }
        list.tail = node;
        self.near += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use alloc::collections::BinaryHeap;
    use core::cmp::Reverse;

    /// Drains both queues up to `now`, checking they agree.
    fn drain(q: &mut EventQueue<u32>, heap: &mut BinaryHeap<Reverse<(u64, u64, u32)>>, now: u64) {
        loop {
            let expected = match heap.peek() {
                Some(Reverse((at, _, e))) if *at <= now => Some((*at, *e)),
                _ => None,
            };
            assert_eq!(q.pop_due(now), expected, "at cycle {now}");
            if expected.is_none() {
                break;
            }
            heap.pop();
        }
        assert_eq!(q.next_due(), heap.peek().map(|Reverse((at, _, _))| *at));
    }

    #[test]
    fn matches_a_heap_keyed_on_cycle_and_scheduling_order() {
        let mut rng = SplitMix64::new(11);
        let mut q = EventQueue::new();
        let mut heap = BinaryHeap::new();
        let mut seq = 0u64;
        let mut now = 0u64;
        for step in 0..20_000u32 {
            // Mostly near events, some at the current cycle, some far beyond the window.
            for _ in 0..rng.next_u64() % 4 {
                let delay = match rng.next_u64() % 10 {
                    0 => 0,
                    1 => WINDOW as u64 - 1 + rng.next_u64() % 3,
                    2 => rng.next_u64() % (5 * WINDOW as u64),
                    _ => rng.next_u64() % 300,
                };
                seq += 1;
                q.push(now + delay, step);
                heap.push(Reverse((now + delay, seq, step)));
            }
            drain(&mut q, &mut heap, now);
            // Step by one, or jump to the next event as the engine does when idle.
            now = match (rng.next_u64() % 3, q.next_due()) {
                (0, Some(at)) => at.max(now + 1),
                _ => now + 1,
            };
        }
        drain(&mut q, &mut heap, u64::MAX);
        assert!(q.is_empty());
    }

    #[test]
    fn same_cycle_events_keep_their_order_across_the_window_edge() {
        let mut q = EventQueue::new();
        let far = WINDOW as u64 + 5;
        q.push(far, 1);
        q.push(far, 2);
        assert_eq!(q.pop_due(10), None);
        // The window now covers `far`: a new event for it goes after the far ones.
        q.push(far, 3);
        q.push(far - 1, 0);
        assert_eq!(q.next_due(), Some(far - 1));
        let order: Vec<_> = core::iter::from_fn(|| q.pop_due(far)).collect();
        assert_eq!(order, [(far - 1, 0), (far, 1), (far, 2), (far, 3)]);
        assert!(q.is_empty());
    }
}
