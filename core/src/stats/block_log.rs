//! The record of every thread block's life, bounded: a grid may have two billion blocks, and a
//! report that kept one record each would need more memory than the machine (or a browser tab)
//! has. Up to [`MAX_BLOCK_RECORDS`] blocks every record is kept; beyond it the log keeps every
//! `stride`-th finished block, doubling the stride each time the log fills, so the records kept
//! stay spread evenly over the whole run and the log never holds more than the limit. Which
//! records are kept depends only on the order blocks finish in, so it is deterministic.

use alloc::vec::Vec;

use super::BlockRecord;

/// Most block records a report keeps (a power of two, so halving keeps the stride exact).
/// 65 536 records are 2 MiB, far more boxes than the timeline can draw apart, and more blocks
/// than any workload in the library runs at its default size.
pub const MAX_BLOCK_RECORDS: usize = 1 << 16;

/// Finished blocks' records, every `stride`-th kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockLog {
    /// Records of finished blocks number 0, `stride`, 2 × `stride`, … in finishing order.
    records: Vec<BlockRecord>,
    /// Keeps the finished block numbered `n` when `n % stride == 0`.
    stride: u64,
    /// Blocks finished, kept or not.
    finished: u64,
    limit: usize,
}

impl Default for BlockLog {
    fn default() -> Self {
        BlockLog::with_limit(MAX_BLOCK_RECORDS)
    }
}

impl BlockLog {
    /// A log keeping at most `limit` records (rounded up to an even number, at least 2).
    pub fn with_limit(limit: usize) -> Self {
        BlockLog { records: Vec::new(), stride: 1, finished: 0, limit: limit.max(2).next_multiple_of(2) }
    }

    /// A block finished.
    pub fn push(&mut self, record: BlockRecord) {
        let number = self.finished;
        self.finished += 1;
        if number % self.stride != 0 {
            return;
        }
        if self.records.len() == self.limit {
            // Record at position p is block number p × stride; the even positions are the
            // multiples of twice the stride.
            let mut position = 0;
            self.records.retain(|_| {
                position += 1;
                position % 2 == 1
            });
            self.stride *= 2;
            if number % self.stride != 0 {
                return;
            }
        }
        self.records.push(record);
    }

    /// The records kept, in finishing order.
    pub fn records(&self) -> &[BlockRecord] {
        &self.records
    }

    /// One record is kept for every `stride()` finished blocks (1: every block has its record).
    pub fn stride(&self) -> u64 {
        self.stride
    }

    /// Blocks finished, whether their record was kept or not.
    pub fn finished(&self) -> u64 {
        self.finished
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::*;

    fn record(n: u32) -> BlockRecord {
        BlockRecord { kernel: 0, block: n, sm: n % 3, start: n as u64, end: n as u64 + 10 }
    }

    fn kept(log: &BlockLog) -> Vec<u32> {
        log.records().iter().map(|r| r.block).collect()
    }

    #[test]
    fn keeps_every_record_up_to_the_limit() {
        let mut log = BlockLog::with_limit(8);
        (0..8).for_each(|n| log.push(record(n)));
        assert_eq!((kept(&log), log.stride(), log.finished()), ((0..8).collect(), 1, 8));
    }

    #[test]
    fn beyond_the_limit_keeps_every_stride_th_block_and_never_more_than_the_limit() {
        // Worked by hand: at 8 records the 9th block (number 8) halves the log to 0 2 4 6 and
        // is kept (8 is even); blocks 9..15 add 10 12 14; block 16 finds the log full again
        // (0 2 4 6 8 10 12 14), halves it to 0 4 8 12 and is kept as a multiple of 4.
        let mut log = BlockLog::with_limit(8);
        (0..17).for_each(|n| log.push(record(n)));
        assert_eq!((kept(&log), log.stride(), log.finished()), (vec![0, 4, 8, 12, 16], 4, 17));
        // At any count the kept set is exactly the multiples of the stride, within the limit.
        let mut log = BlockLog::with_limit(8);
        for n in 0..1000 {
            log.push(record(n));
            let expected: Vec<u32> = (0..=n).filter(|m| *m as u64 % log.stride() == 0).collect();
            assert_eq!(kept(&log), expected, "after block {n}");
            assert!(log.records().len() <= 8);
        }
    }

    #[test]
    fn an_odd_limit_is_rounded_up_so_halving_stays_exact() {
        let mut log = BlockLog::with_limit(3);
        (0..9).for_each(|n| log.push(record(n)));
        assert_eq!(kept(&log), vec![0, 4, 8]);
    }
}
