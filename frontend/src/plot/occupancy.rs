//! Counts read off a [`Snapshot`]: resident blocks per SM and the machine's warp-state shares.

use warpscope_core::stats::snapshot::NONE;
use warpscope_core::stats::{Snapshot, WarpState};

/// Distinct thread blocks with a warp resident on SM `sm`.
pub fn resident_blocks(snapshot: &Snapshot, sm: usize) -> usize {
    let stride = snapshot.warps_per_sm as usize;
    let range = sm * stride..((sm + 1) * stride).min(snapshot.warp_run.len().min(snapshot.warp_block.len()));
    let mut blocks: Vec<(u32, u32)> = range
        .filter_map(|i| {
            let (run, block) = (snapshot.warp_run[i], snapshot.warp_block[i]);
            (run != NONE && block != NONE).then_some((run, block))
        })
        .collect();
    blocks.sort_unstable();
    blocks.dedup();
    blocks.len()
}

/// Warp slots in each state over the whole machine, indexed by `state as usize`.
pub fn state_counts(snapshot: &Snapshot) -> [u64; WarpState::ALL.len()] {
    let mut counts = [0u64; WarpState::ALL.len()];
    for &code in &snapshot.warp_state {
        let state = WarpState::from_code(code).unwrap_or(WarpState::Empty);
        counts[state as usize] += 1;
    }
    counts
}

/// The block `(kernel run, block)` whose warp now sits in slot `slot` of SM `sm`, if any.
pub fn block_in_slot(snapshot: &Snapshot, sm: usize, slot: usize) -> Option<(u32, u32)> {
    let i = sm * snapshot.warps_per_sm as usize + slot;
    let run = *snapshot.warp_run.get(i)?;
    let block = *snapshot.warp_block.get(i)?;
    (run != NONE && block != NONE).then_some((run, block))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_sms() -> Snapshot {
        Snapshot {
            warps_per_sm: 4,
            warp_state: vec![1, 3, 3, 0, 7, 0, 0, 0],
            warp_run: vec![0, 0, 1, NONE, 0, NONE, NONE, NONE],
            warp_block: vec![0, 0, 5, NONE, 2, NONE, NONE, NONE],
            ..Snapshot::default()
        }
    }

    #[test]
    fn counts_distinct_resident_blocks() {
        let s = two_sms();
        assert_eq!(resident_blocks(&s, 0), 2);
        assert_eq!(resident_blocks(&s, 1), 1);
        assert_eq!(resident_blocks(&s, 7), 0, "out of range");
    }

    #[test]
    fn counts_states_over_the_machine() {
        let c = state_counts(&two_sms());
        assert_eq!(c[WarpState::Empty as usize], 4);
        assert_eq!(c[WarpState::Memory as usize], 2);
        assert_eq!(c.iter().sum::<u64>(), 8);
    }

    #[test]
    fn finds_the_block_in_a_slot() {
        let s = two_sms();
        assert_eq!(block_in_slot(&s, 0, 2), Some((1, 5)));
        assert_eq!(block_in_slot(&s, 0, 3), None);
        assert_eq!(block_in_slot(&s, 9, 0), None);
        assert_eq!(block_in_slot(&Snapshot::default(), 0, 0), None);
    }
}
