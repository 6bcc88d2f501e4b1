//! The memory side's pending events, in the order they fall due: by cycle, and within a cycle
//! in the order they were scheduled.
//!
//! Almost every event falls due within a few hundred cycles of being scheduled, so the queue
//! is a calendar in two levels. Time is cut into buckets of [`BUCKET`] cycles. The bucket of
//! the cycle being drained and the next one are the near window: one FIFO list per cycle. The
//! [`BUCKETS`] buckets after those are far: one FIFO list per bucket, in scheduling order. The
//! rare event beyond those waits in a binary heap. When the window moves on, each far bucket it
//! now covers is spread into the per-cycle lists, and each heap event it now covers joins its
//! bucket (or cycle), before anything else can be scheduled there; so the order is exactly that
//! of one heap keyed on (cycle, scheduling order). Scheduling an event costs O(1), and taking
//! one O(1) amortised; nodes are recycled, so once the queue has reached its peak size it
//! allocates nothing. (Where stores come faster than the L2 banks' network ports take them, as
//! in memcached's first two kernels, their arrivals are scheduled up to 260 000 cycles ahead:
//! those are the far buckets' business, not a heap's.)

use alloc::boxed::Box;
use alloc::collections::BinaryHeap;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// Cycles per bucket (a power of two).
const BUCKET: u64 = 1024;
/// Cycles covered by the per-cycle lists: the current bucket and the next.
const WINDOW: usize = 2 * BUCKET as usize;
const WORDS: usize = WINDOW / 64;
/// Far buckets, after the window's two (a power of two).
const BUCKETS: u64 = 512;
const NIL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<T> {
    event: T,
    /// Next node of the same list, or of the free list.
    next: u32,
    /// In a far bucket, the node's cycle within it. (It fits in padding: no memory of its own.)
    in_bucket: u32,
}

#[derive(Clone, Copy, Debug)]
struct List {
    head: u32,
    tail: u32,
}

const EMPTY: List = List { head: NIL, tail: NIL };

/// log2 of the nodes in a chunk (in unit tests, small chunks, so that the tests cross them).
#[cfg(not(test))]
const CHUNK_BITS: u32 = 12;
#[cfg(test)]
const CHUNK_BITS: u32 = 5;
const CHUNK: usize = 1 << CHUNK_BITS;

/// Every node, in chunks of `1 << CHUNK_BITS` that never move: grown a chunk at a time, the
/// pool never copies itself into a larger block and frees the old one. (In WebAssembly freed
/// blocks stay part of the memory, which never shrinks: a doubling vector of a million pending
/// events would leave 3 + 6 + 12 + 24 MiB behind its last 48.)
#[derive(Clone, Debug)]
struct Nodes<T> {
    chunks: Vec<Box<[Node<T>; CHUNK]>>,
    len: u32,
}

impl<T: Copy> Nodes<T> {
    /// Adds `node`, returning its index.
    fn push(&mut self, node: Node<T>) -> u32 {
        let index = self.len;
        if index as usize >> CHUNK_BITS == self.chunks.len() {
            let chunk: Box<[Node<T>]> = vec![node; CHUNK].into_boxed_slice();
            self.chunks.push(chunk.try_into().unwrap_or_else(|_| unreachable!("a chunk's length")));
        }
        self[index] = node;
        self.len += 1;
        index
    }
}

impl<T> core::ops::Index<u32> for Nodes<T> {
    type Output = Node<T>;
    #[inline]
    fn index(&self, i: u32) -> &Node<T> {
        &self.chunks[(i >> CHUNK_BITS) as usize][i as usize % CHUNK]
    }
}

impl<T> core::ops::IndexMut<u32> for Nodes<T> {
    #[inline]
    fn index_mut(&mut self, i: u32) -> &mut Node<T> {
        &mut self.chunks[(i >> CHUNK_BITS) as usize][i as usize % CHUNK]
    }
}

/// A far bucket: its events in scheduling order.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    list: List,
    /// The earliest cycle of its events.
    earliest: u64,
}

const EMPTY_BUCKET: Bucket = Bucket { list: EMPTY, earliest: u64::MAX };

/// An event beyond the far buckets; `seq` keeps the scheduling order among those of one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Beyond {
    at: u64,
    seq: u64,
    node: u32,
}

impl Ord for Beyond {
    // Reversed: the heap's top is the earliest.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

impl PartialOrd for Beyond {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Events of type `T` keyed by the cycle they fall due.
#[derive(Clone, Debug)]
pub struct EventQueue<T> {
    nodes: Nodes<T>,
    free: u32,
    /// List `c % WINDOW` holds the events due at cycle `c`, for `c` in the window: the buckets
    /// `base / BUCKET` and the one after.
    lists: Vec<List>,
    /// Bit `i` is set while list `i` is not empty.
    occupied: [u64; WORDS],
    /// The earliest cycle any event can still be due (events are never scheduled before it).
    base: u64,
    /// The first bucket after the window (`base / BUCKET + 2`).
    first_far: u64,
    /// Events in the lists.
    near: usize,
    /// Bucket `b % BUCKETS` holds the events due in bucket `b`, for the `BUCKETS` buckets after
    /// the window.
    buckets: Vec<Bucket>,
    /// Events in the far buckets.
    bucketed: usize,
    /// Events due after the far buckets.
    beyond: BinaryHeap<Beyond>,
    beyond_seq: u64,
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
            nodes: Nodes { chunks: Vec::new(), len: 0 },
            free: NIL,
            lists: vec![EMPTY; WINDOW],
            occupied: [0; WORDS],
            base: 0,
            first_far: 2,
            near: 0,
            buckets: vec![EMPTY_BUCKET; BUCKETS as usize],
            bucketed: 0,
            beyond: BinaryHeap::new(),
            beyond_seq: 0,
        }
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.near == 0 && self.bucketed == 0 && self.beyond.is_empty()
    }

    /// Schedules `event` at cycle `at`, after every event already scheduled for `at`. `at` must
    /// not be earlier than the cycle last passed to [`EventQueue::pop_due`] (the engine never
    /// schedules into the past).
    pub fn push(&mut self, at: u64, event: T) {
        debug_assert!(at >= self.base, "event scheduled at {at}, before cycle {}", self.base);
        let at = at.max(self.base);
        let node = self.alloc(event);
        self.place(at, node);
    }

    /// Puts `node`, due at `at`, in its cycle's list if the window covers `at`, else further.
    #[inline]
    fn place(&mut self, at: u64, node: u32) {
        if at / BUCKET < self.first_far {
            self.link(at, node);
        } else {
            self.place_far(at, node);
        }
    }

    /// Puts `node`, due at `at` after the window, in its far bucket or beyond. (Kept out of
    /// line: the common push stays small.)
    #[inline(never)]
    fn place_far(&mut self, at: u64, node: u32) {
        let bucket = at / BUCKET;
        if bucket < self.first_far + BUCKETS {
            self.nodes[node].in_bucket = (at % BUCKET) as u32;
            let b = &mut self.buckets[(bucket % BUCKETS) as usize];
            b.earliest = b.earliest.min(at);
            append(&mut self.nodes, &mut b.list, node);
            self.bucketed += 1;
        } else {
            self.beyond_seq += 1;
            self.beyond.push(Beyond { at, seq: self.beyond_seq, node });
        }
    }

    /// The cycle of the earliest pending event.
    #[inline]
    pub fn next_due(&self) -> Option<u64> {
        if self.near > 0 {
            return self.next_near();
        }
        self.next_far()
    }

    /// The earliest cycle of an event after the window, the lists being empty.
    #[inline(never)]
    fn next_far(&self) -> Option<u64> {
        if self.bucketed > 0 {
            let first = self.first_far;
            let found = (first..first + BUCKETS)
                .map(|b| self.buckets[(b % BUCKETS) as usize].earliest)
                .find(|&e| e != u64::MAX);
            debug_assert!(found.is_some(), "{} events in far buckets but none found", self.bucketed);
            return found;
        }
        self.beyond.peek().map(|f| f.at)
    }

    /// The earliest cycle with an event in the lists, of which there is one at least.
    #[inline]
    fn next_near(&self) -> Option<u64> {
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
                let Node { event, next, .. } = self.nodes[head];
                self.lists[i].head = next;
                if next == NIL {
                    self.lists[i].tail = NIL;
                    self.occupied[i / 64] &= !(1 << (i % 64));
                }
                self.nodes[head].next = self.free;
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

    /// Moves the window to start at `to` (every list before it is empty): the far buckets it
    /// now covers are spread into the lists, then the events beyond that the far buckets now
    /// cover join them, each in its order.
    fn advance(&mut self, to: u64) {
        self.base = to;
        let first = to / BUCKET + 2;
        if first != self.first_far {
            self.move_window(first);
        }
    }

    /// The window's far edge moves to bucket `first`.
    #[inline(never)]
    fn move_window(&mut self, first: u64) {
        let (old_first, old_end) = (self.first_far, self.first_far + BUCKETS);
        self.first_far = first;
        if self.bucketed > 0 {
            for bucket in old_first..first.min(old_end) {
                let slot = (bucket % BUCKETS) as usize;
                let list = core::mem::replace(&mut self.buckets[slot], EMPTY_BUCKET).list;
                let mut node = list.head;
                while node != NIL {
                    let Node { next, in_bucket, .. } = self.nodes[node];
                    self.nodes[node].next = NIL;
                    self.bucketed -= 1;
                    self.link(bucket * BUCKET + u64::from(in_bucket), node);
                    node = next;
                }
            }
        }
        let end = first + BUCKETS;
        while let Some(f) = self.beyond.peek().copied() {
            if f.at / BUCKET >= end {
                break;
            }
            self.beyond.pop();
            self.place(f.at, f.node);
        }
    }

    fn alloc(&mut self, event: T) -> u32 {
        if self.free == NIL {
            return self.nodes.push(Node { event, next: NIL, in_bucket: 0 });
        }
        let node = self.free;
        self.free = self.nodes[node].next;
        self.nodes[node] = Node { event, next: NIL, in_bucket: 0 };
        node
    }

    /// Appends `node` to the list of cycle `at` (inside the window).
    fn link(&mut self, at: u64, node: u32) {
        let i = at as usize % WINDOW;
        if self.lists[i].tail == NIL {
            self.occupied[i / 64] |= 1 << (i % 64);
        }
        append(&mut self.nodes, &mut self.lists[i], node);
        self.near += 1;
    }
}

/// Appends `node` (whose `next` is NIL) to `list`.
fn append<T: Copy>(nodes: &mut Nodes<T>, list: &mut List, node: u32) {
    if list.tail == NIL {
        list.head = node;
    } else {
        nodes[list.tail].next = node;
    }
    list.tail = node;
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
            // Mostly near events, some at the current cycle, some at the window's edge, some
            // in the far buckets and some beyond them.
            let beyond = (BUCKETS + 2) * BUCKET;
            for _ in 0..rng.next_u64() % 4 {
                let delay = match rng.next_u64() % 12 {
                    0 => 0,
                    1 => WINDOW as u64 - 1 + rng.next_u64() % 3,
                    2 => rng.next_u64() % (5 * WINDOW as u64),
                    3 => beyond - 2 * BUCKET + rng.next_u64() % (4 * BUCKET),
                    4 => rng.next_u64() % (2 * beyond),
                    _ => rng.next_u64() % 300,
                };
                seq += 1;
                q.push(now + delay, step);
                heap.push(Reverse((now + delay, seq, step)));
            }
            drain(&mut q, &mut heap, now);
            // Step by one, or jump to the next event as the engine does when idle, or further.
            now = match (rng.next_u64() % 40, q.next_due()) {
                (0, _) => now + rng.next_u64() % (3 * beyond),
                (1..=12, Some(at)) => at.max(now + 1),
                _ => now + 1,
            };
        }
        assert!(q.nodes.chunks.len() > 1, "the nodes fit one chunk");
        drain(&mut q, &mut heap, u64::MAX);
        assert!(q.is_empty());
    }

    /// A node's cycle within its bucket sits in what would otherwise be padding after the
    /// link, for events like the engine's (8-byte aligned, a multiple of 8 bytes long).
    #[test]
    fn a_node_is_no_larger_for_its_cycle_in_a_bucket() {
        #[allow(dead_code)]
        struct Event(u64, u32, u32, u32, u32, u32, u32, u8, u8);
        #[allow(dead_code)]
        struct LinkOnly<T> {
            event: T,
            next: u32,
        }
        assert_eq!(size_of::<Node<Event>>(), size_of::<LinkOnly<Event>>());
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

    #[test]
    fn same_cycle_events_keep_their_order_from_beyond_through_a_far_bucket_to_the_window() {
        let mut q = EventQueue::new();
        let at = (BUCKETS + 5) * BUCKET + 7;
        q.push(at, 1);
        q.push(at, 2);
        assert_eq!(q.beyond.len(), 2, "scheduled beyond the far buckets");
        // The far buckets now reach `at`: the heap's two join their bucket, the new one after.
        assert_eq!(q.pop_due(4 * BUCKET), None);
        q.push(at, 3);
        assert_eq!((q.beyond.len(), q.bucketed), (0, 3));
        // The window now reaches `at`.
        assert_eq!(q.pop_due(at - BUCKET), None);
        q.push(at, 4);
        assert_eq!((q.bucketed, q.near), (0, 4));
        assert_eq!(q.next_due(), Some(at));
        let order: Vec<_> = core::iter::from_fn(|| q.pop_due(at)).collect();
        assert_eq!(order, [(at, 1), (at, 2), (at, 3), (at, 4)]);
        assert!(q.is_empty());
    }
}
