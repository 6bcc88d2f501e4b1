//! Where each thread block's index ran in the previous launch, for the timeline: inter-kernel
//! reuse (IKRA's schedulers) comes from the immediately preceding launch, so a block that lands
//! on the SM its index ran on the launch before may find its data still in that SM's L1.
//!
//! The previous run of block *b* of a host-launched run is the nearest earlier host-launched
//! run (runs are numbered in launch order) whose grid has a block *b*; a grid launched from
//! the device has none. Built once per report, answered per record.

use warpscope_core::stats::{BlockRecord, KernelReport};

/// Where a block's index ran in its previous run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Previous {
    /// The previous run (an index into the report's kernels).
    pub run: u32,
    /// The SM the block ran on there; `None` when the report did not keep that block's record
    /// (a thinned report keeps one record in so many).
    pub sm: Option<u32>,
}

/// How many of a run's blocks ran on the SM their index ran on in the previous run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SameSm {
    /// Blocks on the same SM as before.
    pub same: u64,
    /// Blocks compared: those whose record and whose previous run's record are both kept.
    pub compared: u64,
}

/// The previous run of every block record of a report, and the counts per run and in all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PreviousSm {
    /// Per block record: its index's previous run, if it has one.
    per_record: Vec<Option<Previous>>,
    /// Per kernel run: its blocks' comparison with the previous run.
    per_run: Vec<SameSm>,
    /// Over every run.
    pub total: SameSm,
    /// Runs with at least one block compared.
    pub runs_compared: u64,
    /// Records whose previous run's record of their index was not kept (not compared).
    pub not_kept: u64,
}

impl PreviousSm {
    /// Finds each record's previous run among `kernels` (a run past the kernels' records, one
    /// the report summarised, is not known to be a host launch and gets none).
    pub fn build(blocks: &[BlockRecord], kernels: &[KernelReport]) -> Self {
        // (run, block, record) sorted: a run's records are a slice, a block's a binary search.
        let mut keyed: Vec<(u32, u32, u32)> = blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| (b.kernel as usize) < kernels.len())
            .map(|(i, b)| (b.kernel, b.block, i as u32))
            .collect();
        keyed.sort_unstable();
        let find = |run: u32, block: u32| {
            keyed.binary_search_by(|&(r, b, _)| (r, b).cmp(&(run, block))).ok().map(|i| keyed[i].2 as usize)
        };
        let mut per_record = vec![None; blocks.len()];
        let mut per_run = vec![SameSm::default(); kernels.len()];
        // Earlier host runs that may still be the nearest with some block index: grids strictly
        // shrinking from bottom to top, so those with a block b are a bottom part and the
        // nearest of them is that part's top. A run hides every earlier one whose grid is no
        // larger than its own.
        let mut stack: Vec<(u32, u32)> = Vec::new();
        let mut not_kept = 0;
        for (run, kernel) in kernels.iter().enumerate() {
            if kernel.parent.is_some() {
                continue;
            }
            let run = run as u32;
            let from = keyed.partition_point(|k| k.0 < run);
            let to = keyed.partition_point(|k| k.0 <= run);
            for &(_, block, record) in &keyed[from..to] {
                let with_block = stack.partition_point(|&(_, grid)| grid > block);
                let Some(&(previous, _)) = with_block.checked_sub(1).and_then(|top| stack.get(top)) else { continue };
                let sm = find(previous, block).map(|i| blocks[i].sm);
                per_record[record as usize] = Some(Previous { run: previous, sm });
                match sm {
                    Some(sm) => {
                        let counts = &mut per_run[run as usize];
                        counts.compared += 1;
                        counts.same += u64::from(sm == blocks[record as usize].sm);
                    }
                    None => not_kept += 1,
                }
            }
            while stack.last().is_some_and(|&(_, grid)| grid <= kernel.blocks) {
                stack.pop();
            }
            stack.push((run, kernel.blocks));
        }
        let total =
            SameSm { same: per_run.iter().map(|c| c.same).sum(), compared: per_run.iter().map(|c| c.compared).sum() };
        let runs_compared = per_run.iter().filter(|c| c.compared > 0).count() as u64;
        PreviousSm { per_record, per_run, total, runs_compared, not_kept }
    }

    /// The previous run of block record `record` (an index into the report's blocks).
    pub fn of(&self, record: usize) -> Option<Previous> {
        self.per_record.get(record).copied().flatten()
    }

    /// Run `run`'s blocks compared with their previous run (`None` when none could be).
    pub fn run(&self, run: u32) -> Option<SameSm> {
        self.per_run.get(run as usize).copied().filter(|c| c.compared > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(kernel: u32, block: u32, sm: u32) -> BlockRecord {
        BlockRecord { kernel, block, sm, start: 0, end: 1 }
    }

    fn host(blocks: u32) -> KernelReport {
        KernelReport { blocks, ..KernelReport::default() }
    }

    fn device(parent: u32, blocks: u32) -> KernelReport {
        KernelReport { blocks, parent: Some(parent), depth: 1, ..KernelReport::default() }
    }

    /// Runs 0 and 1 (host, 4 blocks), 2 (device, launched by run 1, 4 blocks), 3 (host,
    /// 4 blocks), 4 (host, 2 blocks), 5 (host, 4 blocks). Run 1's block 2 record was not kept.
    fn report() -> (Vec<BlockRecord>, Vec<KernelReport>) {
        let kernels = vec![host(4), host(4), device(1, 4), host(4), host(2), host(4)];
        let mut blocks = Vec::new();
        // Run 0 on SMs 0 1 2 3; run 1 keeps blocks 0, 1 and 3, block 1 moved.
        blocks.extend([block(0, 0, 0), block(0, 1, 1), block(0, 2, 2), block(0, 3, 3)]);
        blocks.extend([block(1, 0, 0), block(1, 1, 2), block(1, 3, 3)]);
        // The device run lands anywhere: it is no host launch and compares with nothing.
        blocks.extend([block(2, 0, 3), block(2, 1, 3), block(2, 2, 3), block(2, 3, 3)]);
        // Run 3 on SMs 0 2 2 1.
        blocks.extend([block(3, 0, 0), block(3, 1, 2), block(3, 2, 2), block(3, 3, 1)]);
        // Run 4: two blocks, both on SM 0.
        blocks.extend([block(4, 0, 0), block(4, 1, 0)]);
        // Run 5: block 0 and 1 follow run 4, blocks 2 and 3 run 3 (run 4 has no such blocks).
        blocks.extend([block(5, 0, 0), block(5, 1, 1), block(5, 2, 2), block(5, 3, 1)]);
        (blocks, kernels)
    }

    #[test]
    fn each_block_finds_the_nearest_earlier_host_run_with_its_index() {
        let (blocks, kernels) = report();
        let p = PreviousSm::build(&blocks, &kernels);
        let answers: Vec<Option<Previous>> = (0..blocks.len()).map(|i| p.of(i)).collect();
        let kept = |run, sm| Some(Previous { run, sm: Some(sm) });
        let not_kept = |run| Some(Previous { run, sm: None });
        assert_eq!(
            answers,
            [
                // Run 0: the first launch.
                None,
                None,
                None,
                None,
                // Run 1 against run 0.
                kept(0, 0),
                kept(0, 1),
                kept(0, 3),
                // Run 2, from the device: nothing.
                None,
                None,
                None,
                None,
                // Run 3 against run 1 (not the device run 2): block 2's record was not kept.
                kept(1, 0),
                kept(1, 2),
                not_kept(1),
                kept(1, 3),
                // Run 4 against run 3.
                kept(3, 0),
                kept(3, 2),
                // Run 5: blocks 0 and 1 against run 4, blocks 2 and 3 against run 3.
                kept(4, 0),
                kept(4, 0),
                kept(3, 2),
                kept(3, 1),
            ]
        );
    }

    #[test]
    fn counts_blocks_on_the_same_sm_where_both_records_are_kept() {
        let (blocks, kernels) = report();
        let p = PreviousSm::build(&blocks, &kernels);
        let counts: Vec<Option<(u64, u64)>> = (0..7).map(|r| p.run(r).map(|c| (c.same, c.compared))).collect();
        // Run 1: blocks 0 and 3 stayed, 1 moved. Run 3: 0 stayed, 1 stayed (2 → 2), 2 not
        // kept, 3 moved. Run 4: 0 stayed, 1 moved. Run 5: 0 stayed, 1 moved, 2 stayed, 3 stayed.
        assert_eq!(counts, [None, Some((2, 3)), None, Some((2, 3)), Some((1, 2)), Some((3, 4)), None]);
        assert_eq!((p.total, p.runs_compared, p.not_kept), (SameSm { same: 8, compared: 12 }, 4, 1));
    }

    #[test]
    fn summarised_runs_and_empty_reports_have_no_previous_run() {
        let (mut blocks, kernels) = report();
        // A record of run 6, which the report summarised (no kernel record): not known as a host run.
        blocks.push(block(6, 0, 0));
        let p = PreviousSm::build(&blocks, &kernels);
        assert_eq!(p.of(blocks.len() - 1), None);
        assert_eq!(p.of(blocks.len()), None, "past the records");
        let empty = PreviousSm::build(&[], &[]);
        assert_eq!((empty.total, empty.runs_compared, empty.run(0)), (SameSm::default(), 0, None));
    }
}
