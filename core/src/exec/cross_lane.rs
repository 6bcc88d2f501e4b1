//! Instructions whose lanes see each other: warp shuffles and votes.
//!
//! The source lane of a shuffle follows PTX's `shfl.sync` definition, with the clamp and
//! segment mask that CUDA's `__shfl_*_sync(…, width)` pass it: a segment of `width` lanes
//! (`32 - width` as the segment mask, so any width gives a defined result, as on hardware),
//! and a source outside the lane's segment gives the lane its own value.

use super::LANES;
use crate::isa::{ShuffleMode, VoteMode};

/// The lane that `lane` reads in a shuffle, or `None` where it keeps its own value.
pub fn shuffle_source(mode: ShuffleMode, lane: u32, b: u32, width: u32) -> Option<u32> {
    let segment_mask = 32u32.wrapping_sub(width) & 0x1f;
    // CUDA passes a clamp of 31 for every mode but `up`, whose bound is the segment's start.
    let clamp = if mode == ShuffleMode::Up { 0 } else { 0x1f };
    let first = lane & segment_mask;
    let bound = first | (clamp & !segment_mask);
    let b = b & 0x1f;
    let (source, inside) = match mode {
        ShuffleMode::Idx => {
            let j = first | (b & !segment_mask);
            (j, j <= bound)
        }
        ShuffleMode::Up => {
            let j = lane as i32 - b as i32;
            (j as u32, j >= bound as i32)
        }
        ShuffleMode::Down => (lane + b, lane + b <= bound),
        ShuffleMode::Xor => (lane ^ b, (lane ^ b) <= bound),
    };
    inside.then_some(source)
}

/// A shuffle's result in every lane of `active` (others are left as they are in `out`).
pub fn shuffle(
    mode: ShuffleMode,
    values: &[u32; LANES],
    b: &[u32; LANES],
    width: &[u32; LANES],
    active: u32,
    out: &mut [u32; LANES],
) {
    for lane in 0..LANES {
        if active >> lane & 1 == 1 {
            let from = shuffle_source(mode, lane as u32, b[lane], width[lane]).unwrap_or(lane as u32);
            out[lane] = values[from as usize];
        }
    }
}

/// A vote's result in every lane of `active` (others are left as they are in `out`): each
/// lane's over the active lanes of its own `mask`, so that tiles of a warp, each passing its
/// own lanes, vote apart.
pub fn vote(mode: VoteMode, pred: &[u32; LANES], mask: &[u32; LANES], active: u32, out: &mut [u32; LANES]) {
    let mut holds = 0u32;
    for (lane, &p) in pred.iter().enumerate() {
        holds |= ((p != 0) as u32) << lane;
    }
    holds &= active;
    for lane in 0..LANES {
        if active >> lane & 1 == 1 {
            let (taking_part, yes) = (active & mask[lane], holds & mask[lane]);
            out[lane] = match mode {
                VoteMode::All => (yes == taking_part) as u32,
                VoteMode::Any => (yes != 0) as u32,
                VoteMode::Ballot => yes,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(mode: ShuffleMode, b: u32, width: u32) -> [u32; LANES] {
        core::array::from_fn(|l| shuffle_source(mode, l as u32, b, width).unwrap_or(l as u32))
    }

    #[test]
    fn shuffles_follow_cudas_documented_segments() {
        // `__shfl_down_sync(…, 1)` over the whole warp: lane l reads l + 1, the last its own.
        let down = sources(ShuffleMode::Down, 1, 32);
        assert_eq!(&down[..3], &[1, 2, 3]);
        assert_eq!(down[31], 31);
        // Width 8: lane 7 is the end of its segment and keeps its value; lane 8 reads 9.
        let down8 = sources(ShuffleMode::Down, 1, 8);
        assert_eq!((down8[6], down8[7], down8[8]), (7, 7, 9));
        // Up by 2 in segments of 16: lanes 16 and 17 keep theirs, 18 reads 16.
        let up = sources(ShuffleMode::Up, 2, 16);
        assert_eq!((up[0], up[1], up[2], up[16], up[17], up[18]), (0, 1, 0, 16, 17, 16));
        // Idx: source lane modulo the width, within the lane's own segment.
        let idx = sources(ShuffleMode::Idx, 3, 8);
        assert_eq!((idx[0], idx[7], idx[8], idx[31]), (3, 3, 11, 27));
        assert!(sources(ShuffleMode::Idx, 35, 32).iter().all(|&s| s == 3), "lane 35 is lane 3");
        // Xor may read an earlier segment but not a later one (the CUDA guide's rule).
        let xor = sources(ShuffleMode::Xor, 16, 16);
        assert_eq!((xor[0], xor[16]), (0, 0), "lane 0 keeps its own; lane 16 reads lane 0");
        let butterfly = sources(ShuffleMode::Xor, 5, 32);
        assert!(butterfly.iter().enumerate().all(|(l, &s)| s == l as u32 ^ 5));
    }

    #[test]
    fn votes_count_only_active_lanes_in_the_mask() {
        let lane0 = |mode, pred: &[u32; LANES], mask: &[u32; LANES], active| {
            let mut out = [0; LANES];
            vote(mode, pred, mask, active, &mut out);
            out[active.trailing_zeros() as usize]
        };
        let pred: [u32; LANES] = core::array::from_fn(|l| (l % 2 == 0) as u32);
        let all = [u32::MAX; LANES];
        assert_eq!(lane0(VoteMode::Ballot, &pred, &all, u32::MAX), 0x5555_5555);
        assert_eq!(lane0(VoteMode::Ballot, &pred, &all, 0xF0), 0x50);
        assert_eq!(lane0(VoteMode::All, &pred, &all, 0x55), 1, "the even lanes all hold");
        assert_eq!(lane0(VoteMode::All, &pred, &all, 0x3), 0);
        assert_eq!(lane0(VoteMode::Any, &pred, &all, 0xAAAA_AAAA), 0, "no odd lane holds");
        assert_eq!(lane0(VoteMode::Any, &pred, &[0x2; LANES], u32::MAX), 0, "only lane 1 takes part");
        assert_eq!(lane0(VoteMode::All, &pred, &[0; LANES], u32::MAX), 1, "no lane: all holds vacuously");
        // Two halves, each voting over its own lanes.
        let halves: [u32; LANES] = core::array::from_fn(|l| if l < 16 { 0xFFFF } else { 0xFFFF_0000 });
        let low_only: [u32; LANES] = core::array::from_fn(|l| (l < 16) as u32);
        let mut out = [0; LANES];
        vote(VoteMode::All, &low_only, &halves, u32::MAX, &mut out);
        assert_eq!((out[0], out[31]), (1, 0));
    }
}
