//! The geometry of a warp policy's scores (CCWS's lost-locality scores, [`WarpScores`]): the
//! paper's Fig. 6 picture — live warps' scores sorted largest first and stacked, against the
//! cutoff, the warps whose share starts past it held back — and the per-snapshot counts the
//! panel charts over time.

use std::rc::Rc;

use warpscope_core::stats::{Snapshot, WarpScores};

/// One warp's share of the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Its warp slot.
    pub slot: usize,
    /// Its score.
    pub score: u64,
    /// The sum of the scores ranked before it.
    pub start: u64,
    /// `start + score`.
    pub end: u64,
    /// Whether the policy lets it issue global loads.
    pub may_load: bool,
}

/// The live warps' scores, largest first, stacked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stack {
    /// In rank order.
    pub segments: Vec<Segment>,
    /// The sum of every live score (the stack's end).
    pub total: u64,
    /// The cutoff.
    pub cutoff: u64,
}

impl Stack {
    /// The stack of `scores`: live slots by score, largest first, ties by the lower slot first
    /// (the order CCWS's gate ranks them in, so the held-back warps are the stack's last).
    pub fn of(scores: &WarpScores) -> Stack {
        let mut slots: Vec<usize> = (0..scores.live.len()).filter(|&s| scores.live[s]).collect();
        let score = |s: usize| scores.score.get(s).copied().unwrap_or(0);
        slots.sort_by_key(|&s| (std::cmp::Reverse(score(s)), s));
        let mut start = 0u64;
        let segments = slots
            .into_iter()
            .map(|slot| {
                let end = start.saturating_add(score(slot));
                let segment = Segment {
                    slot,
                    score: score(slot),
                    start,
                    end,
                    may_load: scores.may_load.get(slot) == Some(&true),
                };
                start = end;
                segment
            })
            .collect();
        Stack { segments, total: start, cutoff: scores.cutoff }
    }

    /// The right end of the picture: the stack or the cutoff, whichever is further.
    pub fn extent(&self) -> u64 {
        self.total.max(self.cutoff)
    }

    /// The slots held back, in rank order.
    pub fn held_back(&self) -> Vec<usize> {
        self.segments.iter().filter(|s| !s.may_load).map(|s| s.slot).collect()
    }

    /// The base score every warp's score starts from (`cutoff / live warps`; CCWS's cutoff is
    /// live warps × base). `None` without live warps.
    pub fn base(&self) -> Option<u64> {
        let live = self.segments.len() as u64;
        (live > 0).then(|| self.cutoff / live)
    }
}

/// `slots` as short ranges for people: `[3, 4, 5, 9]` → `"3–5, 9"`.
pub fn slot_ranges(slots: &[usize]) -> String {
    let mut sorted = slots.to_vec();
    sorted.sort_unstable();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(match j - i {
            0 => sorted[i].to_string(),
            1 => format!("{}, {}", sorted[i], sorted[j]),
            _ => format!("{}–{}", sorted[i], sorted[j]),
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// One snapshot's counts, for the charts over time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreSample {
    /// The snapshot's cycle.
    pub cycle: u64,
    /// Warps the policy counts.
    pub live: usize,
    /// Of which may issue global loads.
    pub loading: usize,
    /// Detections so far (CCWS: victim-tag hits).
    pub detections: u64,
}

/// The counts of every snapshot that carries scores, in cycle order.
pub fn samples(snapshots: &[Rc<Snapshot>]) -> Vec<ScoreSample> {
    snapshots
        .iter()
        .filter_map(|s| {
            let scores = s.warp_scores.as_ref()?;
            Some(ScoreSample {
                cycle: s.cycle,
                live: scores.live_warps(),
                loading: scores.loading_warps(),
                detections: scores.detections,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Five slots, slot 3 empty: scores 100, 320, 100, –, 200; cutoff 4 × 100.
    fn scores() -> WarpScores {
        WarpScores {
            live: vec![true, true, true, false, true],
            score: vec![100, 320, 100, 0, 200],
            may_load: vec![false, true, false, false, true],
            cutoff: 400,
            detection_score: 320,
            detections: 7,
        }
    }

    #[test]
    fn live_scores_stack_largest_first_with_ties_by_slot() {
        let stack = Stack::of(&scores());
        let ranked: Vec<(usize, u64, u64)> = stack.segments.iter().map(|s| (s.slot, s.start, s.end)).collect();
        assert_eq!(ranked, [(1, 0, 320), (4, 320, 520), (0, 520, 620), (2, 620, 720)]);
        assert_eq!((stack.total, stack.cutoff, stack.extent()), (720, 400, 720));
        assert_eq!(stack.held_back(), [0, 2], "the warps whose share starts past the cutoff");
        assert_eq!(stack.base(), Some(100));
        // As the engine's gate with the straddler allowed: a warp may load iff its share starts
        // below the cutoff (the first always may).
        for s in &stack.segments {
            assert_eq!(s.may_load, s.start < stack.cutoff, "slot {}", s.slot);
        }
    }

    #[test]
    fn an_sm_without_warps_has_an_empty_stack() {
        let empty = WarpScores { live: vec![false; 4], score: vec![0; 4], may_load: vec![false; 4], ..scores() };
        let stack = Stack::of(&WarpScores { cutoff: 0, ..empty });
        assert!(stack.segments.is_empty());
        assert_eq!((stack.total, stack.extent(), stack.base()), (0, 0, None));
    }

    #[test]
    fn slot_lists_read_as_ranges() {
        assert_eq!(slot_ranges(&[9, 3, 4, 5]), "3–5, 9");
        assert_eq!(slot_ranges(&[1, 2]), "1, 2");
        assert_eq!(slot_ranges(&[]), "");
        assert_eq!(slot_ranges(&[0, 2, 4]), "0, 2, 4");
    }

    #[test]
    fn samples_count_the_snapshots_that_carry_scores() {
        let with =
            |cycle, scores: Option<WarpScores>| Rc::new(Snapshot { cycle, warp_scores: scores, ..Snapshot::default() });
        let snapshots =
            [with(0, None), with(50, Some(scores())), with(100, Some(WarpScores { detections: 9, ..scores() }))];
        let samples = samples(&snapshots);
        assert_eq!(
            samples,
            [
                ScoreSample { cycle: 50, live: 4, loading: 2, detections: 7 },
                ScoreSample { cycle: 100, live: 4, loading: 2, detections: 9 },
            ]
        );
    }
}
