//! How much global data a parent thread block shares with the child blocks it launches, and
//! children with their siblings: the shared-footprint ratios of the LaPerm paper (Fig. 2),
//! which its schedulers' premise rests on. A workload without this sharing cannot gain from
//! binding children to their parent's SM, whatever the policy.
//!
//! The footprint of a block is the set of 128-byte lines its threads touch in global memory
//! (loads, stores and atomics), recorded during a [`reference`](super::reference) run. That run
//! orders blocks one after another, so for programs whose work depends on the schedule (graph
//! relaxations with atomics) the footprints are those of that one order.
//!
//! The ratios, each averaged over the blocks it is defined for:
//! - **parent-child**, per *direct parent* P (a block one of whose threads launched a grid):
//!   `|p ∩ c| / |c|`, p = P's lines, c = the union of the lines of every block of every grid
//!   P's threads launched. Skipped when c is empty.
//! - **child-sibling**, per child block x (a block of a device-launched grid): `|co ∩ cs| / |cs|`,
//!   co = x's lines, cs = the union of the lines of its siblings, the other blocks launched by
//!   the same direct parent (whichever of its threads and grids). Skipped when cs is empty.
//! - **parent-parent**, per direct parent P: `|p ∩ ps| / |ps|`, ps = the union of the lines of
//!   the other blocks of P's own grid (the paper's "parent TBs", direct parents or not). The
//!   paper gives only its average (9.3 %); this is the child-sibling formula applied to the
//!   parent's grid, our choice. Skipped when ps is empty (a one-block grid).
//!
//! A block can be both a child and a direct parent (nested launches): it counts in both roles.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use super::reference::{run_workload_observed, RunBlock, RunError, RunObserver};
use super::{MemAccess, LANES};
use crate::isa::Space;
use crate::workload::Workload;

/// Bytes per line: the paper's 128-byte cache block.
pub const LINE_BYTES: u32 = 128;

/// One ratio averaged over the blocks it is defined for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeanRatio {
    /// The mean, `None` when no block counted.
    pub mean: Option<f64>,
    /// Blocks averaged over.
    pub counted: u64,
}

/// The shared-footprint ratios of a workload (see the module notes for the definitions).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SharingReport {
    /// Blocks one of whose threads launched a grid.
    pub direct_parents: u64,
    /// Blocks of device-launched grids.
    pub child_blocks: u64,
    /// Mean lines a direct parent touches.
    pub lines_per_parent: f64,
    /// Mean lines a child block touches.
    pub lines_per_child: f64,
    /// `|p ∩ c| / |c|` over direct parents.
    pub parent_child: MeanRatio,
    /// `|co ∩ cs| / |cs|` over child blocks.
    pub child_sibling: MeanRatio,
    /// `|p ∩ ps| / |ps|` over direct parents, ps from the other blocks of the parent's grid.
    pub parent_parent: MeanRatio,
}

/// Runs `workload` in the reference runner (as [`run_workload`](super::reference::run_workload)
/// with the same `warp_size` and `limit`) and measures its shared-footprint ratios.
pub fn sharing(workload: &Workload, warp_size: u32, limit: u64) -> Result<SharingReport, RunError> {
    let mut recorder = FootprintRecorder::default();
    run_workload_observed(workload, warp_size, limit, &mut recorder)?;
    recorder.close_tree();
    Ok(recorder.totals.report())
}

/// The lines one block touched: appended as they come, sorted and deduplicated from time to
/// time so a block that loops over a few lines stays small.
#[derive(Clone, Debug, Default)]
struct BlockLines {
    lines: Vec<u32>,
    /// How many of `lines`, from the front, are sorted and distinct.
    settled: usize,
}

impl BlockLines {
    fn push(&mut self, line: u32) {
        if self.lines.last() == Some(&line) {
            return;
        }
        self.lines.push(line);
        if self.lines.len() >= 2 * self.settled + 64 {
            self.settle();
        }
    }

    fn settle(&mut self) {
        self.lines.sort_unstable();
        self.lines.dedup();
        self.settled = self.lines.len();
    }
}

/// One grid of the launch tree being recorded.
#[derive(Debug)]
struct GridLines {
    launched_by: Option<RunBlock>,
    blocks: Vec<BlockLines>,
}

/// Records every block's lines for one host launch and the grids it led to (its launch tree),
/// then folds the tree into the running sums and forgets it, so memory stays bounded by one
/// tree: device grids only ever come from the tree of the host launch that precedes them.
#[derive(Debug, Default)]
struct FootprintRecorder {
    /// The current tree's grids; `grids[i]` is run `first_run + i`.
    grids: Vec<GridLines>,
    first_run: u32,
    totals: Totals,
}

impl RunObserver for FootprintRecorder {
    fn grid_started(&mut self, run: u32, launched_by: Option<RunBlock>, blocks: u32) {
        if launched_by.is_none() {
            self.close_tree();
            self.first_run = run;
        }
        self.grids.push(GridLines { launched_by, blocks: vec![BlockLines::default(); blocks as usize] });
    }

    fn memory_access(&mut self, block: u32, access: &MemAccess, addresses: &[u32; LANES]) {
        // A thread's local memory (spilled registers) is its own: only data is footprint.
        let first = addresses[access.mask.trailing_zeros() as usize % LANES];
        if access.space != Space::Global || crate::isa::is_local_address(first) {
            return;
        }
        let Some(lines) = self.grids.last_mut().and_then(|g| g.blocks.get_mut(block as usize)) else { return };
        let mut mask = access.mask;
        while mask != 0 {
            lines.push(addresses[mask.trailing_zeros() as usize] / LINE_BYTES);
            mask &= mask - 1;
        }
    }
}

impl FootprintRecorder {
    /// Folds the recorded tree into the totals and clears it.
    fn close_tree(&mut self) {
        let mut grids = core::mem::take(&mut self.grids);
        for grid in &mut grids {
            grid.blocks.iter_mut().for_each(BlockLines::settle);
        }
        // Each direct parent with the grids it launched, in run order (deterministic).
        let mut launched: BTreeMap<RunBlock, Vec<usize>> = BTreeMap::new();
        for (i, grid) in grids.iter().enumerate() {
            if let Some(parent) = grid.launched_by {
                launched.entry(parent).or_default().push(i);
                self.totals.child_blocks += grid.blocks.len() as u64;
            }
        }
        let mut parent_grid_counts: Option<(usize, LineCounts)> = None;
        for (parent, child_grids) in &launched {
            let grid = (parent.run - self.first_run) as usize;
            let p = &grids[grid].blocks[parent.block as usize].lines;
            self.totals.direct_parents += 1;
            self.totals.parent_lines += p.len() as u64;

            let children: Vec<&[u32]> =
                child_grids.iter().flat_map(|&g| grids[g].blocks.iter().map(|b| b.lines.as_slice())).collect();
            let family = LineCounts::of(&children);
            if !family.is_empty() {
                let shared = family.lines_also_in(p);
                self.totals.parent_child.add(shared as f64 / family.len() as f64);
            }
            for co in &children {
                self.totals.child_lines += co.len() as u64;
                if let Some(ratio) = family.share_with_others(co) {
                    self.totals.child_sibling.add(ratio);
                }
            }

            if parent_grid_counts.as_ref().is_none_or(|(g, _)| *g != grid) {
                let blocks: Vec<&[u32]> = grids[grid].blocks.iter().map(|b| b.lines.as_slice()).collect();
                parent_grid_counts = Some((grid, LineCounts::of(&blocks)));
            }
            if let Some((_, counts)) = &parent_grid_counts {
                if let Some(ratio) = counts.share_with_others(p) {
                    self.totals.parent_parent.add(ratio);
                }
            }
        }
    }
}

/// The union of a group of blocks' lines, with how many of the blocks touched each line:
/// enough to compare any member with the union of all the *others* without building it.
struct LineCounts {
    /// `(line, blocks touching it)`, sorted by line.
    counts: Vec<(u32, u32)>,
}

impl LineCounts {
    /// Counts over `blocks`, each a sorted, distinct line list.
    fn of(blocks: &[&[u32]]) -> LineCounts {
        let mut all: Vec<u32> = blocks.iter().flat_map(|b| b.iter().copied()).collect();
        all.sort_unstable();
        let mut counts: Vec<(u32, u32)> = Vec::new();
        for line in all {
            match counts.last_mut() {
                Some((last, n)) if *last == line => *n += 1,
                _ => counts.push((line, 1)),
            }
        }
        LineCounts { counts }
    }

    fn len(&self) -> usize {
        self.counts.len()
    }

    fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// How many of the union's lines are in `lines` (sorted, distinct).
    fn lines_also_in(&self, lines: &[u32]) -> usize {
        self.counts_of(lines).count()
    }

    /// For a member of the group with lines `own`: `|own ∩ others| / |others|`, others the
    /// union of the other members, or `None` when the others touch nothing. A line of `own`
    /// counted twice or more is also some other member's; one counted once is `own`'s alone.
    fn share_with_others(&self, own: &[u32]) -> Option<f64> {
        let (mut shared, mut only_own) = (0usize, 0usize);
        for n in self.counts_of(own) {
            if n >= 2 {
                shared += 1;
            } else {
                only_own += 1;
            }
        }
        let others = self.counts.len() - only_own;
        (others > 0).then(|| shared as f64 / others as f64)
    }

    /// The counts of the lines of `lines` (sorted, distinct) that the union holds.
    fn counts_of<'a>(&'a self, lines: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
        let mut at = 0usize;
        lines.iter().filter_map(move |&line| {
            // Both sorted: walk forward, never back.
            at += self.counts[at..].partition_point(|&(l, _)| l < line);
            self.counts.get(at).filter(|&&(l, _)| l == line).map(|&(_, n)| n)
        })
    }
}

/// Running sums over all launch trees.
#[derive(Debug, Default)]
struct Totals {
    direct_parents: u64,
    child_blocks: u64,
    parent_lines: u64,
    child_lines: u64,
    parent_child: RatioSum,
    child_sibling: RatioSum,
    parent_parent: RatioSum,
}

impl Totals {
    fn report(&self) -> SharingReport {
        let per = |lines: u64, blocks: u64| if blocks == 0 { 0.0 } else { lines as f64 / blocks as f64 };
        SharingReport {
            direct_parents: self.direct_parents,
            child_blocks: self.child_blocks,
            lines_per_parent: per(self.parent_lines, self.direct_parents),
            lines_per_child: per(self.child_lines, self.child_blocks),
            parent_child: self.parent_child.mean(),
            child_sibling: self.child_sibling.mean(),
            parent_parent: self.parent_parent.mean(),
        }
    }
}

#[derive(Debug, Default)]
struct RatioSum {
    sum: f64,
    counted: u64,
}

impl RatioSum {
    fn add(&mut self, ratio: f64) {
        self.sum += ratio;
        self.counted += 1;
    }

    fn mean(&self) -> MeanRatio {
        MeanRatio { mean: (self.counted > 0).then(|| self.sum / self.counted as f64), counted: self.counted }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_member_is_compared_with_the_union_of_the_others() {
        let (a, b, c): (&[u32], &[u32], &[u32]) = (&[0, 1, 8], &[1, 2, 9], &[2, 3, 10]);
        let counts = LineCounts::of(&[a, b, c]);
        assert_eq!(counts.len(), 7);
        // a against {1, 2, 3, 9, 10}: shares 1.
        assert_eq!(counts.share_with_others(a), Some(1.0 / 5.0));
        // b against {0, 1, 2, 3, 8, 10}: shares 1 and 2.
        assert_eq!(counts.share_with_others(b), Some(2.0 / 6.0));
        assert_eq!(counts.lines_also_in(&[0, 3, 4, 10, 11]), 3);
        assert_eq!(LineCounts::of(&[a]).share_with_others(a), None, "no others");
    }

    #[test]
    fn a_block_settles_its_lines_as_it_goes() {
        let mut lines = BlockLines::default();
        for i in 0..1000u32 {
            lines.push(i % 7);
            lines.push(i % 5);
        }
        assert!(lines.lines.len() < 100, "repeats are folded while recording");
        lines.settle();
        assert_eq!(lines.lines, [0, 1, 2, 3, 4, 5, 6]);
    }
}
