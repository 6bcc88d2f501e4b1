//! CCWS's locality scoring system (paper §3.3.4–3.3.5): a lost-locality score (LLS) per warp,
//! raised on a VTA hit to the lost-locality detected score (LLDS, Eq. 1), decaying one point a
//! cycle back to the base score; and the cutoff test, which lets the warps with the largest
//! scores load and holds back those pushed past `live warps × base score`.
//!
//! Eq. 1: `LLDS = VTA hits / instructions issued × K_THROTTLE × cutoff`, where the two counts
//! are kept per warp and summed over the SM's resident warps (the artifact; an exiting warp
//! takes its counts with it), or over the SM's whole run (`counter_scope = 1`). It is worked
//! out in `f64` as `hits × K × cutoff / instructions` and truncated: `⌊H·K·cutoff / I⌋`
//! exactly while the product stays below 2^53. No instruction yet gives 0.
//!
//! On a VTA hit the warp's score is *set* to `max(BASE, LLDS)`: the paper raises it to LLDS
//! and caps it there, so repeated hits do not accumulate, and a later, lower LLDS lowers it.
//! The artifact does not floor at BASE and so can push a score below the base; we floor.
//!
//! Decay happens at the end of every cycle: each score above BASE drops by one, never below
//! BASE; with `decay_clamps_to_llds` (the artifact) each step also re-applies the cap,
//! `min(lls − 1, LLDS at the current ratio)`, so a falling VTA-hit rate brings every raised
//! score down at once. The policy is not called every cycle (the engine skips idle ones), so
//! the steps are applied lazily, in closed form ([`decayed`]), whenever something is about to
//! change the ratio or read the scores: between two such moments the ratio, and so the cap,
//! is constant.

use alloc::vec;
use alloc::vec::Vec;

use super::super::WarpSlot;

/// A score `x0 > base` after `steps` decay steps with the cap `cap` (LLDS at a constant ratio,
/// `None` without the clamp): `max(base, min(x0, cap + 1) − steps)`, or `max(base, x0 −
/// steps)`. A score at or below the base does not move.
///
/// With the clamp, one step is `max(base, min(x − 1, L))` = `max(base, min(x, L + 1) − 1)`;
/// after it the score is at most `L`, so further steps only subtract one each.
pub fn decayed(x0: u64, steps: u64, base: u64, cap: Option<u64>) -> u64 {
    if x0 <= base || steps == 0 {
        return x0;
    }
    let top = match cap {
        Some(l) => x0.min(l.saturating_add(1)),
        None => x0,
    };
    top.saturating_sub(steps).max(base)
}

/// The scores, the counters of Eq. 1 and the warps they belong to, for one SM.
#[derive(Clone, Debug)]
pub struct LostLocality {
    base: u64,
    k_throttle: u64,
    clamp: bool,
    /// Counters over the SM's whole run instead of its resident warps.
    cumulative: bool,
    /// Equal scores rank the older warp first (else the lower slot, as the artifact).
    ties_by_age: bool,
    /// Per slot: when its warp arrived (a count of arrivals on the SM: smaller is older).
    arrival: Vec<u64>,
    arrivals: u64,
    /// Per slot: its score (0 when no warp is there, as the artifact sets an exited warp's).
    score: Vec<u64>,
    live: Vec<bool>,
    n_live: u64,
    /// Per slot: VTA hits and instructions since the warp arrived.
    hits: Vec<u64>,
    issued: Vec<u64>,
    /// The sums Eq. 1 divides.
    hits_total: u64,
    issued_total: u64,
    /// Every VTA hit of the run (for reports; not Eq. 1's count).
    victim_tag_hits: u64,
    /// Decay steps are applied for every cycle before this one.
    decayed_to: u64,
    /// Whether some live score may be above the base (when not, decay is a no-op).
    raised: bool,
}

impl LostLocality {
    /// Scores of base `base`, raised by Eq. 1 with `k_throttle`; `clamp`: decay re-applies the
    /// cap; `cumulative`: Eq. 1 counts since the SM started rather than over resident warps.
    pub fn new(base: u32, k_throttle: u32, clamp: bool, cumulative: bool, ties_by_age: bool) -> Self {
        LostLocality {
            base: base.max(1) as u64,
            k_throttle: k_throttle as u64,
            clamp,
            cumulative,
            ties_by_age,
            arrival: Vec::new(),
            arrivals: 0,
            score: Vec::new(),
            live: Vec::new(),
            n_live: 0,
            hits: Vec::new(),
            issued: Vec::new(),
            hits_total: 0,
            issued_total: 0,
            victim_tag_hits: 0,
            decayed_to: 0,
            raised: false,
        }
    }

    /// Sizes the per-slot state for `slots` warp slots, all empty.
    pub fn attach(&mut self, slots: usize) {
        self.score = vec![0; slots];
        self.arrival = vec![0; slots];
        self.live = vec![false; slots];
        self.hits = vec![0; slots];
        self.issued = vec![0; slots];
    }

    /// The base score.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Warps on the SM, as the admissions and exits heard say.
    pub fn live_warps(&self) -> u64 {
        self.n_live
    }

    /// Whether a warp occupies `slot`.
    pub fn is_live(&self, slot: usize) -> bool {
        self.live.get(slot).copied().unwrap_or(false)
    }

    /// Every VTA hit so far.
    pub fn victim_tag_hits(&self) -> u64 {
        self.victim_tag_hits
    }

    /// The cumulative cutoff for `n_active` warps: `n_active × base`.
    pub fn cutoff(&self, n_active: u64) -> u64 {
        n_active * self.base
    }

    /// LLDS (Eq. 1) at the current counts and live warps.
    pub fn llds(&self) -> u64 {
        llds(self.hits_total, self.issued_total, self.k_throttle, self.cutoff(self.n_live))
    }

    /// Applies the decay steps of every cycle before `now`.
    pub fn catch_up(&mut self, now: u64) {
        if now <= self.decayed_to {
            return;
        }
        let steps = now - self.decayed_to;
        self.decayed_to = now;
        if !self.raised {
            return;
        }
        let cap = self.clamp.then(|| self.llds());
        let mut raised = false;
        for (s, &live) in self.score.iter_mut().zip(&self.live) {
            if live {
                *s = decayed(*s, steps, self.base, cap);
                raised |= *s > self.base;
            }
        }
        self.raised = raised;
    }

    /// `slot`'s score at `now` without applying anything (for views).
    pub fn score_at(&self, slot: usize, now: u64) -> u64 {
        let s = self.score.get(slot).copied().unwrap_or(0);
        let cap = self.clamp.then(|| self.llds());
        decayed(s, now.saturating_sub(self.decayed_to), self.base, cap)
    }

    /// Warp `slot` missed on one of its own victim tags at `now`: its score becomes
    /// `max(BASE, LLDS)`.
    pub fn vta_hit(&mut self, slot: usize, now: u64) {
        self.catch_up(now);
        self.victim_tag_hits += 1;
        if !self.is_live(slot) {
            return;
        }
        self.hits[slot] += 1;
        self.hits_total += 1;
        let s = self.llds().max(self.base);
        self.score[slot] = s;
        self.raised |= s > self.base;
    }

    /// Warp `slot` issued an instruction at `now`.
    pub fn issue(&mut self, slot: usize, now: u64) {
        self.catch_up(now);
        if let Some(n) = self.issued.get_mut(slot) {
            *n += 1;
            self.issued_total += 1;
        }
    }

    /// A warp took `slot` at `now`: it starts at the base score, with no counts of its own.
    pub fn admit(&mut self, slot: usize, now: u64) {
        self.catch_up(now);
        if slot >= self.live.len() {
            return;
        }
        self.drop_counts(slot);
        if !self.live[slot] {
            self.live[slot] = true;
            self.n_live += 1;
        }
        self.score[slot] = self.base;
        self.arrivals += 1;
        self.arrival[slot] = self.arrivals;
    }

    /// What ranks `slot` among warps of equal score (smaller first): its arrival with
    /// `ties_by_age`, else the slot itself.
    fn tie(&self, slot: usize) -> u64 {
        if self.ties_by_age {
            self.arrival[slot]
        } else {
            slot as u64
        }
    }

    /// The warp in `slot` exited at `now`: it leaves the scores, the cutoff and (over resident
    /// warps) the counts.
    pub fn exit(&mut self, slot: usize, now: u64) {
        self.catch_up(now);
        if !self.is_live(slot) {
            return;
        }
        self.live[slot] = false;
        self.n_live -= 1;
        self.score[slot] = 0;
        self.drop_counts(slot);
    }

    /// Takes `slot`'s counts out of Eq. 1's sums (over resident warps) and zeroes them.
    fn drop_counts(&mut self, slot: usize) {
        if !self.cumulative {
            self.hits_total -= self.hits[slot];
            self.issued_total -= self.issued[slot];
        }
        self.hits[slot] = 0;
        self.issued[slot] = 0;
    }

    /// The cutoff test over the scores as they are: writes into `allowed` (by slot) which
    /// warps may load and returns the cutoff. `live(slot)` says which slots hold a warp and
    /// `n_active` how many; `order` is scratch.
    pub fn gate(
        &self,
        live: impl Fn(usize) -> bool,
        n_active: u64,
        straddler_allowed: bool,
        order: &mut Vec<WarpSlot>,
        allowed: &mut [bool],
    ) -> u64 {
        let scores = |slot: usize| self.score[slot];
        let tie = |slot: usize| self.tie(slot);
        gate(&scores, &tie, live, self.cutoff(n_active), straddler_allowed, order, allowed, !self.raised)
    }

    /// [`LostLocality::gate`] with the scores as they will be at `now` (for views).
    pub fn gate_at(&self, now: u64, straddler_allowed: bool, allowed: &mut [bool]) -> u64 {
        let mut order = Vec::new();
        let scores = |slot: usize| self.score_at(slot, now);
        let live = |slot: usize| self.is_live(slot);
        let tie = |slot: usize| self.tie(slot);
        gate(&scores, &tie, live, self.cutoff(self.n_live), straddler_allowed, &mut order, allowed, false)
    }
}

/// Eq. 1: `⌊hits × k × cutoff / issued⌋`, worked out in `f64`; 0 before any instruction.
pub fn llds(hits: u64, issued: u64, k_throttle: u64, cutoff: u64) -> u64 {
    if issued == 0 {
        return 0;
    }
    // `as` saturates: an absurd ratio gives u64::MAX, not a wrap.
    (hits as f64 * k_throttle as f64 * cutoff as f64 / issued as f64) as u64
}

/// The cutoff test: live slots sorted by score, largest first (ties: smaller `tie` first), then
/// prefix-summed; a warp may load when the sum *before* it is below the cutoff (the warp that
/// straddles the cutoff keeps permission, as in the artifact) or, without `straddler_allowed`,
/// when the sum *through* it is within the cutoff. The first-ranked warp may always load, so
/// that a single score above the whole cutoff cannot stop every load. `all_base`: every live
/// score is the base, so every warp fits and nothing needs sorting.
#[allow(clippy::too_many_arguments)]
fn gate(
    score: &dyn Fn(usize) -> u64,
    tie: &dyn Fn(usize) -> u64,
    live: impl Fn(usize) -> bool,
    cutoff: u64,
    straddler_allowed: bool,
    order: &mut Vec<WarpSlot>,
    allowed: &mut [bool],
    all_base: bool,
) -> u64 {
    if all_base {
        // n warps at the base sum to exactly the cutoff: each starts below it and ends within it.
        for (slot, a) in allowed.iter_mut().enumerate() {
            *a = live(slot);
        }
        return cutoff;
    }
    order.clear();
    order.extend((0..allowed.len()).filter(|&s| live(s)).map(|s| s as WarpSlot));
    order.sort_unstable_by_key(|&s| (core::cmp::Reverse(score(s as usize)), tie(s as usize), s));
    allowed.fill(false);
    let mut before = 0u64;
    for (rank, &s) in order.iter().enumerate() {
        let through = before.saturating_add(score(s as usize));
        allowed[s as usize] = rank == 0 || if straddler_allowed { before < cutoff } else { through <= cutoff };
        before = through;
    }
    cutoff
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One decay step as the artifact takes it.
    fn step(x: u64, base: u64, cap: Option<u64>) -> u64 {
        if x <= base {
            return x;
        }
        let x = x - 1;
        let x = match cap {
            Some(l) => x.min(l),
            None => x,
        };
        x.max(base)
    }

    #[test]
    fn the_closed_form_decay_matches_step_by_step() {
        for base in [1, 7, 100] {
            for cap in [None, Some(0), Some(1), Some(50), Some(99), Some(100), Some(101), Some(150), Some(600)] {
                for x0 in (0..700).step_by(7).chain([base, base + 1, 512, 513]) {
                    let mut x = x0;
                    for k in 0..700 {
                        assert_eq!(decayed(x0, k, base, cap), x, "x0 {x0} after {k} steps, base {base}, cap {cap:?}");
                        x = step(x, base, cap);
                    }
                }
            }
        }
    }

    #[test]
    fn eq1_with_the_papers_numbers() {
        // §1.5.6: N = 32 warps at BASE 100, cutoff 3200; K = 8: LLDS = H/I × 25 600.
        assert_eq!(llds(1, 256, 8, 3200), 100, "H/I = 1/256: exactly the base, no raise");
        assert_eq!(llds(1, 257, 8, 3200), 99, "below 1/256: under the base");
        assert_eq!(llds(1, 253, 8, 3200), 101, "just above 1/256 (25 600 / 253 = 101.2)");
        assert_eq!(llds(1, 50, 8, 3200), 512, "H/I = 0.02");
        assert_eq!(llds(3, 0, 8, 3200), 0, "no instruction yet");
        assert_eq!(llds(u64::MAX, 1, 1024, u64::MAX), u64::MAX, "saturates");
    }

    fn scored(scores: &[u64], base: u32) -> LostLocality {
        let mut l = LostLocality::new(base, 8, true, false, false);
        l.attach(scores.len());
        for (slot, &s) in scores.iter().enumerate() {
            l.admit(slot, 0);
            l.score[slot] = s;
        }
        l.raised = true;
        l
    }

    fn allowed(l: &LostLocality, straddler_allowed: bool) -> Vec<bool> {
        let mut allowed = vec![false; l.score.len()];
        let mut order = Vec::new();
        l.gate(|s| l.live[s], l.n_live, straddler_allowed, &mut order, &mut allowed);
        allowed
    }

    fn count(allowed: &[bool]) -> usize {
        allowed.iter().filter(|&&a| a).count()
    }

    #[test]
    fn with_every_score_at_the_base_every_warp_loads() {
        let l = scored(&[100; 32], 100);
        assert_eq!(l.cutoff(32), 3200);
        assert_eq!(count(&allowed(&l, true)), 32);
        assert_eq!(count(&allowed(&l, false)), 32, "the sum reaches the cutoff exactly at the last warp");
    }

    #[test]
    fn one_raised_warp_blocks_the_last_ranked_one_from_twice_the_base() {
        // §1.5.6: under the inclusive rule one warp at S blocks the last-ranked warp only when
        // S ≥ 2·BASE; if the straddling warp were blocked, any S > BASE would.
        for (s, inclusive, strict) in [(101, 32, 31), (199, 32, 31), (200, 31, 31), (301, 30, 29)] {
            let mut scores = [100; 32];
            scores[5] = s;
            let l = scored(&scores, 100);
            let (a, b) = (allowed(&l, true), allowed(&l, false));
            assert_eq!((count(&a), count(&b)), (inclusive, strict), "S = {s}");
            assert!(a[5] && b[5], "the raised warp ranks first");
            // Ties go to the lower slot: the blocked ones are the highest slots.
            if inclusive == 31 {
                assert!(!a[31] && a[30]);
            }
        }
    }

    #[test]
    fn every_warp_at_llds_for_two_percent_lets_seven_load() {
        // §1.5.6: H/I = 0.02 and K = 8 give LLDS 512; 32 warps at 512 against 3200: sums
        // before the ranks are 0, 512, ..., 3072 (7 below the cutoff), then 3584.
        let l = scored(&[llds(1, 50, 8, 3200); 32], 100);
        let a = allowed(&l, true);
        assert_eq!(count(&a), 7);
        assert!(a[..7].iter().all(|&x| x), "the lowest slots win the ties");
        assert_eq!(count(&allowed(&l, false)), 6, "3584 > 3200: the seventh straddles");
    }

    #[test]
    fn equal_scores_rank_by_slot_or_by_age() {
        // Four slots; the warp in slot 3 arrived first, then slots 0, 1, 2 were refilled (their
        // first warps exited). Slot 1's warp lost locality: 250 against a cutoff of 400 blocks
        // one warp of the three at the base (sums before: 0, 250, 350, 450).
        for (ties_by_age, expected) in [(false, [true, true, true, false]), (true, [true, true, false, true])] {
            let mut l = LostLocality::new(100, 8, true, false, ties_by_age);
            l.attach(4);
            l.admit(3, 0);
            for slot in 0..3 {
                l.admit(slot, 0);
            }
            l.score[1] = 250;
            l.raised = true;
            // By slot, the oldest warp (slot 3) ranks last and may not load, however long it
            // has waited; by age, the newest warp at the base (slot 2, refilled last) ranks last instead.
            assert_eq!(allowed(&l, true), expected, "ties by age: {ties_by_age}");
        }
    }

    #[test]
    fn the_first_ranked_warp_always_loads() {
        let l = scored(&[100, 5000, 100], 100);
        assert_eq!(allowed(&l, false), [false, true, false], "5000 alone exceeds 300 but keeps its loads");
        assert_eq!(allowed(&l, true), [false, true, false]);
    }

    #[test]
    fn decay_is_lazy_and_stops_at_the_base() {
        // A score of 512 returns to the base after 412 cycles of pure decay (no clamp).
        let mut l = LostLocality::new(100, 8, false, false, false);
        l.attach(2);
        l.admit(0, 0);
        l.admit(1, 0);
        l.score[0] = 512;
        l.raised = true;
        assert_eq!(l.score_at(0, 411), 101);
        assert_eq!(l.score_at(0, 412), 100);
        l.catch_up(300);
        assert_eq!(l.score[0], 212);
        l.catch_up(1000);
        assert_eq!((l.score[0], l.score[1], l.raised), (100, 100, false));
    }

    #[test]
    fn an_exit_takes_its_counts_out_of_eq1_unless_counted_since_the_start() {
        for (cumulative, expected) in [(false, (1, 10)), (true, (3, 30))] {
            let mut l = LostLocality::new(100, 8, true, cumulative, false);
            l.attach(2);
            l.admit(0, 0);
            l.admit(1, 0);
            for _ in 0..20 {
                l.issue(0, 1);
            }
            for _ in 0..10 {
                l.issue(1, 1);
            }
            l.vta_hit(0, 2);
            l.vta_hit(0, 2);
            l.vta_hit(1, 2);
            l.exit(0, 3);
            assert_eq!((l.hits_total, l.issued_total), expected, "cumulative {cumulative}");
            assert_eq!((l.live_warps(), l.cutoff(l.live_warps())), (1, 100));
            assert_eq!(l.victim_tag_hits(), 3);
        }
    }
}
