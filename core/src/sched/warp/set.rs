//! A scheduler's warps by age: [`Members`] lists them oldest first and knows each one's
//! position in that list; a [`WarpSet`] is a set of members as one bit per position, so the
//! oldest warp of a set is its lowest bit. The issue stage keeps who is at a barrier, waiting or
//! ready in such sets, and a policy picks from the set of ready warps, [`ReadyWarps`].

use alloc::vec;
use alloc::vec::Vec;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::WarpSlot;

/// Most members one scheduler can have (the configuration's limit on warps per SM).
pub const MAX_MEMBERS: usize = 256;
const WORDS: usize = MAX_MEMBERS / 64;

/// The word of position `i`: masked rather than bounds-checked on the issue path (positions
/// are below [`MAX_MEMBERS`], which the configuration's limit on warps per SM guarantees).
#[inline]
fn word_of(i: usize) -> usize {
    debug_assert!(i < MAX_MEMBERS, "position {i}");
    (i / 64) & (WORDS - 1)
}

/// A set of member positions (`0..MAX_MEMBERS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarpSet([u64; WORDS]);

impl WarpSet {
    /// No member.
    pub const EMPTY: WarpSet = WarpSet([0; WORDS]);

    /// Adds position `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[word_of(i)] |= 1 << (i % 64);
    }

    /// Removes position `i` (the positions after it keep theirs).
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[word_of(i)] &= !(1 << (i % 64));
    }

    /// Adds or removes position `i`.
    #[inline]
    pub fn set(&mut self, i: usize, on: bool) {
        let word = &mut self.0[word_of(i)];
        *word = (*word & !(1 << (i % 64))) | (on as u64) << (i % 64);
    }

    /// Whether position `i` is in the set.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[word_of(i)] >> (i % 64) & 1 != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Number of positions in the set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The lowest position (the oldest member).
    pub fn first(&self) -> Option<usize> {
        self.0.iter().position(|&w| w != 0).map(|i| i * 64 + self.0[i].trailing_zeros() as usize)
    }

    /// Positions in increasing order (oldest first).
    pub fn iter(&self) -> Positions {
        Positions { words: self.0, word: 0 }
    }

    /// Removes position `i` and moves every later position down by one: the member at `i`
    /// left the list and the ones after it moved up.
    pub fn remove_at(&mut self, i: usize) {
        self.remove_at_within(i, WORDS);
    }

    /// [`WarpSet::remove_at`] for a set whose positions all lie in its first `words` words.
    pub fn remove_at_within(&mut self, i: usize, words: usize) {
        let (word, bit) = (i / 64, i % 64);
        let low = (1u64 << bit) - 1;
        let w = self.0[word];
        self.0[word] = (w & low) | ((w >> 1) & !low);
        for k in word + 1..words.min(WORDS) {
            let carry = self.0[k] & 1;
            self.0[k - 1] |= carry << 63;
            self.0[k] >>= 1;
        }
    }
}

impl BitAnd for WarpSet {
    type Output = WarpSet;
    fn bitand(mut self, other: WarpSet) -> WarpSet {
        self &= other;
        self
    }
}

impl BitAndAssign for WarpSet {
    fn bitand_assign(&mut self, other: WarpSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
    }
}

impl BitOr for WarpSet {
    type Output = WarpSet;
    fn bitor(mut self, other: WarpSet) -> WarpSet {
        self |= other;
        self
    }
}

impl BitOrAssign for WarpSet {
    fn bitor_assign(&mut self, other: WarpSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

impl Not for WarpSet {
    type Output = WarpSet;
    fn not(self) -> WarpSet {
        WarpSet(self.0.map(|w| !w))
    }
}

impl WarpSet {
    /// Its first `W` words: a view for the hot path of a scheduler whose positions all fall in
    /// them (`W = 1` for up to 64 warps), where every operation is then straight-line code.
    pub fn words<const W: usize>(&self) -> Words<W> {
        Words(core::array::from_fn(|k| self.0[k]))
    }
}

impl<const W: usize> From<Words<W>> for WarpSet {
    fn from(words: Words<W>) -> WarpSet {
        let mut set = WarpSet::EMPTY;
        set.0[..W].copy_from_slice(&words.0);
        set
    }
}

/// The first `W` words of a [`WarpSet`] (see [`WarpSet::words`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words<const W: usize>([u64; W]);

impl<const W: usize> Default for Words<W> {
    fn default() -> Self {
        Words([0; W])
    }
}

impl<const W: usize> Words<W> {
    /// Whether no position is set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }

    /// Whether position `i` is set.
    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    /// Clears position `i`.
    pub fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// Calls `f` with each position, in increasing order.
    #[inline(always)]
    pub fn for_each(self, mut f: impl FnMut(usize)) {
        for (k, &word) in self.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                f(k * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
    }
}

impl<const W: usize> BitAnd for Words<W> {
    type Output = Words<W>;
    fn bitand(self, other: Words<W>) -> Words<W> {
        Words(core::array::from_fn(|k| self.0[k] & other.0[k]))
    }
}

impl<const W: usize> BitOr for Words<W> {
    type Output = Words<W>;
    fn bitor(self, other: Words<W>) -> Words<W> {
        Words(core::array::from_fn(|k| self.0[k] | other.0[k]))
    }
}

impl<const W: usize> Not for Words<W> {
    type Output = Words<W>;
    fn not(self) -> Words<W> {
        Words(self.0.map(|w| !w))
    }
}

/// The positions of a [`WarpSet`], in increasing order.
pub struct Positions {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Positions {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
            let w = &mut self.words[self.word];
            if *w != 0 {
                let bit = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + bit);
            }
            self.word += 1;
        }
        None
    }

    // Internal iteration (`for_each`, `min_by_key`, ...) walks the words in a straight loop
    // the compiler unrolls, which is what makes sets cheap to scan.
    fn fold<B, F: FnMut(B, usize) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = init;
        for (k, &word) in self.words.iter().enumerate().skip(self.word) {
            let mut w = word;
            while w != 0 {
                acc = f(acc, k * 64 + w.trailing_zeros() as usize);
                w &= w - 1;
            }
        }
        acc
    }
}

const NOT_MEMBER: u16 = u16::MAX;

/// One scheduler's warps, oldest first.
#[derive(Clone, Debug)]
pub struct Members {
    order: Vec<WarpSlot>,
    /// Position in `order` of each warp slot of the SM (`NOT_MEMBER` for the slots of other
    /// schedulers and empty ones).
    position: Vec<u16>,
}

impl Members {
    /// No members yet, on an SM with `slots` warp slots.
    pub fn new(slots: usize) -> Self {
        Members { order: Vec::with_capacity(slots), position: vec![NOT_MEMBER; slots] }
    }

    /// The members, oldest first.
    pub fn slots(&self) -> &[WarpSlot] {
        &self.order
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Every position.
    pub fn all(&self) -> WarpSet {
        let mut set = WarpSet::EMPTY;
        let n = self.order.len();
        for (i, word) in set.0.iter_mut().enumerate() {
            let bits = n.saturating_sub(i * 64).min(64);
            *word = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        }
        set
    }

    /// The member at position `i`.
    pub fn slot(&self, i: usize) -> WarpSlot {
        self.order[i]
    }

    /// The position of `slot`, if it is a member.
    pub fn position(&self, slot: WarpSlot) -> Option<usize> {
        match self.position.get(slot as usize) {
            Some(&p) if p != NOT_MEMBER => Some(p as usize),
            _ => None,
        }
    }

    /// Appends `slot` as the youngest member; returns its position.
    pub fn push(&mut self, slot: WarpSlot) -> usize {
        let i = self.order.len();
        self.position[slot as usize] = i as u16;
        self.order.push(slot);
        i
    }

    /// Removes the member at position `i`; the younger ones move up one place.
    pub fn remove_at(&mut self, i: usize) {
        let slot = self.order.remove(i);
        self.position[slot as usize] = NOT_MEMBER;
        for (p, &s) in self.order.iter().enumerate().skip(i) {
            self.position[s as usize] = p as u16;
        }
    }
}

/// The warps of one scheduler that can issue now, for its policy to pick from.
#[derive(Clone, Copy, Debug)]
pub struct ReadyWarps<'a> {
    // Borrowed, not copied: the issue stage has just cleared a bit of it, and reading a fresh
    // copy back in wider loads than it was stored with stalls the load.
    set: &'a WarpSet,
    members: &'a Members,
}

impl<'a> ReadyWarps<'a> {
    /// The members at the positions of `set`.
    pub fn new(set: &'a WarpSet, members: &'a Members) -> Self {
        ReadyWarps { set, members }
    }

    /// The oldest ready warp.
    pub fn oldest(&self) -> Option<WarpSlot> {
        self.set.first().map(|i| self.members.slot(i))
    }

    /// Whether `slot` is ready.
    pub fn contains(&self, slot: WarpSlot) -> bool {
        self.members.position(slot).is_some_and(|i| self.set.contains(i))
    }

    /// The ready warps, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = WarpSlot> + 'a {
        let members = self.members;
        self.set.iter().map(move |i| members.slot(i))
    }

    /// How many warps are ready.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(positions: &[usize]) -> WarpSet {
        let mut s = WarpSet::EMPTY;
        for &p in positions {
            s.insert(p);
        }
        s
    }

    #[test]
    fn remove_at_shifts_later_positions_across_words() {
        let mut s = set(&[0, 5, 63, 64, 130, 255]);
        s.remove_at(5);
        assert_eq!(s.iter().collect::<Vec<_>>(), [0, 62, 63, 129, 254]);
        s.remove_at(0);
        assert_eq!(s.iter().collect::<Vec<_>>(), [61, 62, 128, 253]);
        s.remove_at(100);
        assert_eq!(s.iter().collect::<Vec<_>>(), [61, 62, 127, 252]);
        assert_eq!(s.first(), Some(61));
        assert_eq!(s.len(), 4);
    }

    #[test]
    fn a_view_of_the_first_words_agrees_with_the_set() {
        let (a, b) = (set(&[0, 3, 63]), set(&[3, 5]));
        let (x, y) = (a.words::<1>(), b.words::<1>());
        assert_eq!(WarpSet::from(x & !y), set(&[0, 63]));
        assert_eq!(WarpSet::from(x | y), set(&[0, 3, 5, 63]));
        let mut seen = Vec::new();
        (x & y).for_each(|i| seen.push(i));
        assert_eq!(seen, [3]);
        let wide = set(&[1, 200]).words::<4>();
        assert!(wide.contains(200) && !wide.is_empty());
        assert_eq!(WarpSet::from(wide), set(&[1, 200]));
    }

    #[test]
    fn members_keep_positions_in_age_order() {
        // Scheduler 1 of 2: slots 1, 3, 5, …
        let mut m = Members::new(48);
        for slot in [7, 1, 9] {
            m.push(slot);
        }
        assert_eq!(m.position(1), Some(1));
        assert_eq!(m.position(3), None, "not admitted");
        m.remove_at(0);
        assert_eq!(m.slots(), [1, 9]);
        assert_eq!((m.position(7), m.position(1), m.position(9)), (None, Some(0), Some(1)));
        assert_eq!(m.all(), set(&[0, 1]));
        let ready_set = set(&[1]);
        let ready = ReadyWarps::new(&ready_set, &m);
        assert!(ready.contains(9) && !ready.contains(1));
        assert_eq!(ready.oldest(), Some(9));
    }
}
