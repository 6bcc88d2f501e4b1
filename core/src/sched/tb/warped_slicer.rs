//! Warped-Slicer (`cke.md` §1.5): the co-running kernels share every SM, each up to a block
//! target chosen from their scalability curves at the *sweet point*, the split in which the
//! kernel that loses most against running alone loses least.
//!
//! A kernel's curve is its performance alone at 1, 2, … blocks per SM ([`crate::scalability`],
//! profiled statically before the run, which the simulation does when this policy asks). Every
//! split that gives each kernel at least one block and fits one SM is scored by each kernel's
//! performance there over its performance at full occupancy alone; the split with the largest
//! smallest score wins, ties to the larger sum (the notes' water-filling reading), or with
//! `objective=1` the largest sum. The sum at the split is the theoretical weighted speedup the
//! paper plots beside the achieved one. Admission against the targets is [`IntraSmSharing`],
//! as for SMK. Without curves, or when no split gives every kernel a block, the targets are
//! SMK's Dominant Resource Fairness.

use alloc::vec;
use alloc::vec::Vec;

use super::intra_sm::IntraSmSharing;
use super::kernel_slots::{KernelSlots, SlotChange};
use super::smk::drf_targets;
use super::{BlockNeeds, Dispatch, KernelLaunch, SmFree, TbCx, TbScheduler};
use crate::scalability::Curve;
use crate::sched::{ParamInfo, ParamValues, Tunable};
use crate::stats::sharing::{SharedKernel, SharingReport};

/// What the sweet point maximises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// The smallest normalised performance, then the sum (water-filling).
    #[default]
    Fairest,
    /// The sum (theoretical weighted speedup), then the smallest.
    Fastest,
}

/// A split of one SM and what the curves predict for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// Blocks per SM of each kernel, by slot.
    pub blocks: Vec<u32>,
    /// Each kernel's performance there over its performance alone at full occupancy.
    pub normalised: Vec<f64>,
}

impl Split {
    /// The theoretical weighted speedup: the sum of the normalised performances.
    pub fn theoretical_speedup(&self) -> f64 {
        self.normalised.iter().sum()
    }

    fn key(&self, objective: Objective) -> (f64, f64) {
        let least = self.normalised.iter().copied().fold(f64::INFINITY, f64::min);
        let sum = self.theoretical_speedup();
        match objective {
            Objective::Fairest => (least, sum),
            Objective::Fastest => (sum, least),
        }
    }
}

/// The sweet point of kernels whose blocks need `needs` and whose curves are `curves` (by
/// slot; `None`: unknown, counted as 1 at any block count), on an SM offering `capacity`:
/// `None` when no split gives every kernel a block. Splits are tried in ascending order of the
/// first kernel's blocks, then the second's, and so on; the first of equal keys wins.
pub fn sweet_point(
    capacity: &SmFree,
    needs: &[BlockNeeds],
    curves: &[Option<&Curve>],
    objective: Objective,
) -> Option<Split> {
    let mut best: Option<Split> = None;
    let mut blocks = vec![0u32; needs.len()];
    search(0, *capacity, needs, curves, objective, &mut blocks, &mut best);
    best
}

fn search(
    k: usize,
    free: SmFree,
    needs: &[BlockNeeds],
    curves: &[Option<&Curve>],
    objective: Objective,
    blocks: &mut [u32],
    best: &mut Option<Split>,
) {
    if k == needs.len() {
        let normalised =
            blocks.iter().enumerate().map(|(i, &n)| curves.get(i).copied().flatten().map_or(1.0, |c| c.normalised(n)));
        let split = Split { blocks: blocks.to_vec(), normalised: normalised.collect() };
        if best.as_ref().is_none_or(|b| split.key(objective) > b.key(objective)) {
            *best = Some(split);
        }
        return;
    }
    // More blocks than the curve's end (the kernel's occupancy alone) cannot score higher.
    let most = curves.get(k).copied().flatten().map_or(u32::MAX, |c| c.instructions.len() as u32);
    let mut free = free;
    for n in 1..=most {
        if !free.fits(&needs[k]) {
            break;
        }
        free.take(&needs[k]);
        blocks[k] = n;
        search(k + 1, free, needs, curves, objective, blocks, best);
    }
    blocks[k] = 0;
}

/// State: the curves, the kernels, their targets, and the blocks each SM holds.
#[derive(Clone, Debug, Default)]
pub struct WarpedSlicer {
    profile_cycles: u32,
    objective: Objective,
    curves: Vec<Curve>,
    slots: KernelSlots,
    split: Option<Split>,
    targets: Vec<u32>,
    sharing: IntraSmSharing,
}

impl WarpedSlicer {
    /// The targets now, by slot (host streams in the order they first launched).
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// The sweet point the targets come from (`None`: they are Dominant Resource Fairness').
    pub fn split(&self) -> Option<&Split> {
        self.split.as_ref()
    }

    fn choose(&mut self, capacity: &SmFree) {
        let needs = self.slots.needs();
        let curves: Vec<Option<&Curve>> =
            self.slots.streams().iter().map(|&s| self.curves.iter().find(|c| c.stream == s)).collect();
        self.split = match curves.iter().all(Option::is_some) {
            true => sweet_point(capacity, needs, &curves, self.objective),
            false => None,
        };
        self.targets = match &self.split {
            Some(split) => split.blocks.clone(),
            None => drf_targets(capacity, needs),
        };
    }
}

impl TbScheduler for WarpedSlicer {
    fn on_kernel_launch(&mut self, _cx: &TbCx, launch: &KernelLaunch) {
        if self.slots.on_launch(launch) != SlotChange::Same {
            self.choose(&launch.sm_capacity);
        }
    }

    fn on_tb_finish(&mut self, _cx: &TbCx, sm: u32, kernel: u32, _block: u32) {
        self.sharing.on_tb_finish(&self.slots, sm, kernel);
    }

    fn dispatch(&mut self, d: &mut Dispatch<'_>) {
        self.sharing.dispatch(d, &self.slots, &self.targets);
    }

    fn profile_cycles(&self) -> Option<u32> {
        Some(self.profile_cycles)
    }

    fn set_curves(&mut self, curves: Vec<Curve>) {
        self.curves = curves;
    }

    fn sharing(&self) -> Option<SharingReport> {
        let kernels = self.slots.streams().iter().zip(&self.targets).enumerate();
        let kernels = kernels
            .map(|(k, (&stream, &blocks_per_sm))| SharedKernel {
                stream,
                blocks_per_sm,
                curve: self
                    .curves
                    .iter()
                    .find(|c| c.stream == stream)
                    .map(|c| c.instructions.clone())
                    .unwrap_or_default(),
                normalised: self.split.as_ref().and_then(|s| s.normalised.get(k).copied()),
            })
            .collect();
        Some(SharingReport { kernels, theoretical_speedup: self.split.as_ref().map(Split::theoretical_speedup) })
    }
}

impl Tunable for WarpedSlicer {
    const PARAMS: &'static [ParamInfo] = &[
        ParamInfo {
            name: "profile_cycles",
            label: "Profile window",
            unit: "cycles",
            description: "How long each kernel runs alone at each block count to draw its scalability curve (the notes suggest 10,000 to 20,000 cycles; the paper's own profiling window is not given).",
            min: 1_000,
            max: 1_000_000,
            default: 20_000,
        },
        ParamInfo {
            name: "objective",
            label: "Sweet point",
            unit: "",
            description: "0: the split in which the kernel that loses most loses least, ties to the larger sum (water-filling, the notes' reading of the paper); 1: the split with the largest sum of normalised performances (theoretical weighted speedup).",
            min: 0,
            max: 1,
            default: 0,
        },
    ];

    fn tuned(values: &ParamValues) -> Self {
        WarpedSlicer {
            profile_cycles: values.get("profile_cycles"),
            objective: if values.get("objective") == 1 { Objective::Fastest } else { Objective::Fairest },
            ..Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The concurrent-kernel paper's SM (Table 1).
    const MAXWELL_SM: SmFree = SmFree { tbs: 16, warps: 96, threads: 3072, registers: 65536, shared_bytes: 96 * 1024 };

    const fn block(threads: u32, regs_per_thread: u32) -> BlockNeeds {
        BlockNeeds { warps: threads / 32, threads, registers: threads * regs_per_thread, shared_bytes: 0 }
    }

    fn curve(stream: u32, instructions: &[u64]) -> Curve {
        Curve { stream, instructions: instructions.to_vec() }
    }

    /// The paper's Fig. 3 in shape: bp scales linearly to its 12 blocks (n/12 at n); sv rises
    /// to a peak at 4 of its 16 blocks (1.6 times its full-occupancy rate) and falls. Worked by
    /// hand: 256- and 192-thread blocks fit while `4 bp + 3 sv <= 48`. bp at 10 leaves room for
    /// 2 sv blocks, scoring min(0.833, 0.667); bp at 9 leaves 4, min(0.75, 1.6) = 0.75, the
    /// largest smallest score, and of the sv counts with it, 4 has the largest sum: (9, 4), the
    /// paper's split, with theoretical weighted speedup 2.35.
    #[test]
    fn the_sweet_point_of_a_linear_kernel_and_a_peaking_one_is_the_papers_nine_and_four() {
        let bp = curve(1, &(1..=12).map(|n| 100 * n).collect::<Vec<_>>());
        let sv = curve(2, &[20, 40, 70, 96, 94, 90, 86, 82, 78, 74, 70, 67, 64, 62, 61, 60]);
        let needs = [block(256, 12), block(192, 16)];
        let split = sweet_point(&MAXWELL_SM, &needs, &[Some(&bp), Some(&sv)], Objective::Fairest).expect("a split");
        assert_eq!(split.blocks, [9, 4]);
        assert_eq!(split.normalised, [0.75, 1.6]);
        assert!((split.theoretical_speedup() - 2.35).abs() < 1e-12);
        // The largest sum is there too: sv's peak needs bp <= 9, and bp 10 with sv 2 sums 1.5.
        let fastest = sweet_point(&MAXWELL_SM, &needs, &[Some(&bp), Some(&sv)], Objective::Fastest).expect("a split");
        assert_eq!(fastest.blocks, [9, 4]);
    }

    /// Two kernels that both scale linearly, a at n/12 and b at n/16. The smallest score is at
    /// most 0.5 (a at 12x and b at 16x blocks need 48x + 48x <= 48 thread units), reached only
    /// at (6, 8). The sum is (4a + 3b) / 48 <= 1, reached by (3, 12), (6, 8) and (9, 4); the
    /// smallest score breaks the tie for (6, 8).
    #[test]
    fn fairness_and_throughput_agree_on_halving_an_sm_between_two_linear_kernels() {
        let a = curve(1, &(1..=12).map(|n| 10 * n).collect::<Vec<_>>());
        let b = curve(2, &(1..=16).map(|n| 10 * n).collect::<Vec<_>>());
        let needs = [block(256, 12), block(192, 16)];
        let fair = sweet_point(&MAXWELL_SM, &needs, &[Some(&a), Some(&b)], Objective::Fairest).expect("a split");
        assert_eq!(fair.blocks, [6, 8]);
        let fast = sweet_point(&MAXWELL_SM, &needs, &[Some(&a), Some(&b)], Objective::Fastest).expect("a split");
        assert_eq!(fast.blocks, [6, 8]);
        assert_eq!(fast.theoretical_speedup(), 1.0);
        // Without a's curve it counts as 1 at any count: the smallest score is b's, largest at
        // b's most blocks beside one of a (14, since 4 + 3 x 14 = 46).
        let blind = sweet_point(&MAXWELL_SM, &needs, &[None, Some(&b)], Objective::Fairest).expect("a split");
        assert_eq!(blind.blocks, [1, 14]);
        // Two blocks that do not fit one SM together: no split.
        let huge = [block(2048, 1), block(1536, 1)];
        assert_eq!(sweet_point(&MAXWELL_SM, &huge, &[Some(&a), Some(&b)], Objective::Fairest), None);
    }
}
