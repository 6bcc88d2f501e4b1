//! The coalescer: turns one warp's memory instruction into line requests.
//!
//! Active lanes whose addresses fall in the same line are served by one request; within a
//! line, the request names the sectors (32-byte units) the lanes touch. Requests come out in
//! the order of the first lane that touches each line, as the LSU would send them.

use alloc::vec::Vec;

use crate::exec::{consecutive_words, LANES};

/// One line's worth of a warp access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRequest {
    /// Line address (byte address / line size).
    pub line: u64,
    /// Sectors of the line touched (bit `i` = sector `i`).
    pub sectors: u32,
    /// Lanes served by this request.
    pub lanes: u32,
    /// For an atomic, the most lanes updating one address ([`most_updates_of_one_address`]);
    /// 1 otherwise.
    pub updates: u32,
    /// The L1 set of the line, filled in by the LSU (see [`crate::mem::l1::L1Cache::set_of`]) so
    /// that a request retried many times is hashed once.
    pub set: u32,
}

/// Groups the 4-byte accesses of the lanes in `mask` by line, appending to `out` (cleared first).
/// `block` is the first address when every lane accesses one of 32 consecutive words, as
/// [`consecutive_words`] finds it (the executor already has; `None` also serves, slower).
/// `line_bytes` and `sector_bytes` are powers of two.
pub fn coalesce(
    mask: u32,
    addresses: &[u32; LANES],
    block: Option<u32>,
    line_bytes: u32,
    sector_bytes: u32,
    out: &mut Vec<LineRequest>,
) {
    debug_assert!(block.is_none() || block == consecutive_words(addresses).filter(|_| mask == u32::MAX));
    out.clear();
    let line_shift = line_bytes.trailing_zeros();
    let sector_shift = sector_bytes.trailing_zeros();
    let sector_mask = line_bytes / sector_bytes - 1;
    let sector_of = |addr: u32| 1u32 << ((addr >> sector_shift) & sector_mask);
    if mask == u32::MAX {
        // Converged on 32 consecutive words in one line (the common `a[i]`): one request whose
        // sectors are every one from the first word's to the last word's (sectors are at least
        // a word, so none in between is skipped).
        if let Some(base) = block {
            let last = base + 4 * (LANES as u32 - 1);
            if base >> line_shift == last >> line_shift {
                let (first, last) = ((base >> sector_shift) & sector_mask, (last >> sector_shift) & sector_mask);
                let sectors = ((2u64 << last) - (1u64 << first)) as u32;
                out.push(LineRequest {
                    line: (base >> line_shift) as u64,
                    sectors,
                    lanes: u32::MAX,
                    set: 0,
                    updates: 1,
                });
                return;
            }
        }
        // Converged and all in one line (a coalesced access): one request (vectorised).
        let line = addresses[0] >> line_shift;
        if addresses.iter().all(|&a| a >> line_shift == line) {
            let sectors = addresses.iter().fold(0, |acc, &a| acc | sector_of(a));
            out.push(LineRequest { line: line as u64, sectors, lanes: u32::MAX, set: 0, updates: 1 });
            return;
        }
    }
    // Where each line's request is in `out`: an open-addressed table (a warp touches at most
    // 32 lines, so 64 slots stay at most half full), indexed by a multiplicative hash.
    let mut slots = [u8::MAX; 64];
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        let addr = addresses[lane as usize];
        let line = (addr >> line_shift) as u64;
        let sector = sector_of(addr);
        // Neighbouring lanes mostly share the line of the request before; otherwise the table
        // finds the line's request, or where a new one goes.
        let i = match out.last() {
            Some(r) if r.line == line => out.len() - 1,
            _ => {
                let mut slot = ((addr >> line_shift).wrapping_mul(0x9E37_79B1) >> 26) as usize;
                loop {
                    match slots[slot] {
                        u8::MAX => {
                            slots[slot] = out.len() as u8;
                            out.push(LineRequest { line, sectors: 0, lanes: 0, set: 0, updates: 1 });
                            break out.len() - 1;
                        }
                        i if out[i as usize].line == line => break i as usize,
                        _ => slot = (slot + 1) % 64,
                    }
                }
            }
        };
        out[i].sectors |= sector;
        out[i].lanes |= 1 << lane;
    }
}

/// The most lanes of `lanes` whose `addresses` are one address (0 for no lanes): how many
/// updates an atomic request makes to its most contended word, which the L2 applies one after
/// another.
pub fn most_updates_of_one_address(lanes: u32, addresses: &[u32; LANES]) -> u32 {
    let mut words = [0u32; LANES];
    let mut n = 0;
    let mut m = lanes;
    while m != 0 {
        words[n] = addresses[m.trailing_zeros() as usize];
        m &= m - 1;
        n += 1;
    }
    let words = &mut words[..n];
    words.sort_unstable();
    words.chunk_by(|a, b| a == b).map(|run| run.len() as u32).max().unwrap_or(0)
}

/// Cycles a shared-memory access occupies the banks: the largest number of distinct words
/// any one bank must deliver (lanes reading the same word share it, a broadcast).
pub fn bank_conflict_degree(mask: u32, addresses: &[u32; LANES], banks: u32) -> u32 {
    // Most accesses are conflict-free, and most of those have each lane in a bank of its own
    // (a row of a tile): a bit per bank finds that without a table.
    if banks <= 64 {
        let mut seen = 0u64;
        let mut m = mask;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            seen |= 1 << bank_of(addresses[lane] / 4, banks);
        }
        if seen.count_ones() == mask.count_ones() {
            return 1;
        }
    }
    // Otherwise one pass finds whether each bank sees at most one distinct word (a broadcast,
    // lanes sharing words); the first second word in a bank hands over to the exact count.
    let mut first_word = [u32::MAX; 64];
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        let word = addresses[lane] / 4;
        let bank = bank_of(word, banks);
        match first_word[bank] {
            u32::MAX => first_word[bank] = word,
            seen if seen == word => {}
            _ => return conflicted_degree(mask, addresses, banks),
        }
    }
    1
}

/// The bank of a word: its index modulo the banks (a mask when they are a power of two).
fn bank_of(word: u32, banks: u32) -> usize {
    match banks.is_power_of_two() {
        true => (word & (banks - 1)) as usize,
        false => (word % banks) as usize,
    }
}

/// [`bank_conflict_degree`] when some bank holds two distinct words: counts every bank's,
/// the words sorted so that each distinct one is counted once.
fn conflicted_degree(mask: u32, addresses: &[u32; LANES], banks: u32) -> u32 {
    let mut words = [0u32; LANES];
    let mut count = 0usize;
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        m &= m - 1;
        words[count] = addresses[lane] / 4;
        count += 1;
    }
    let words = &mut words[..count];
    words.sort_unstable();
    let mut per_bank = [0u32; 64];
    let mut degree = 0;
    let mut previous = None;
    for &word in words.iter() {
        if previous == Some(word) {
            continue;
        }
        previous = Some(word);
        let bank = bank_of(word, banks);
        per_bank[bank] += 1;
        degree = degree.max(per_bank[bank]);
    }
    degree.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addresses(f: impl Fn(u32) -> u32) -> [u32; LANES] {
        core::array::from_fn(|lane| f(lane as u32))
    }

    /// Coalesces as the engine does (with the block found when there is one) and checks that
    /// the general path, without it, makes the same requests.
    fn coalesce(mask: u32, addresses: &[u32; LANES], line_bytes: u32, sector_bytes: u32, out: &mut Vec<LineRequest>) {
        let block = consecutive_words(addresses).filter(|_| mask == u32::MAX);
        super::coalesce(mask, addresses, block, line_bytes, sector_bytes, out);
        let mut general = Vec::new();
        super::coalesce(mask, addresses, None, line_bytes, sector_bytes, &mut general);
        if block.is_some() {
            assert_eq!(*out, general, "the block shortcut and the general path disagree");
        }
    }

    #[test]
    fn consecutive_words_coalesce_into_one_line() {
        let mut out = Vec::new();
        coalesce(u32::MAX, &addresses(|l| 0x1000 + 4 * l), 128, 32, &mut out);
        assert_eq!(out, [LineRequest { line: 0x1000 / 128, sectors: 0b1111, lanes: u32::MAX, set: 0, updates: 1 }]);
    }

    #[test]
    fn consecutive_words_name_every_sector_they_cross() {
        let mut out = Vec::new();
        // 32 words from byte 40 of a 256-byte line with 32-byte sectors: bytes 40..168,
        // sectors 1 to 5.
        coalesce(u32::MAX, &addresses(|l| 0x1000 + 40 + 4 * l), 256, 32, &mut out);
        assert_eq!(out, [LineRequest { line: 0x1000 / 256, sectors: 0b11_1110, lanes: u32::MAX, set: 0, updates: 1 }]);
        // A whole 128-byte line of 4-byte sectors: all 32 of them.
        coalesce(u32::MAX, &addresses(|l| 0x1000 + 4 * l), 128, 4, &mut out);
        assert_eq!(out, [LineRequest { line: 0x1000 / 128, sectors: u32::MAX, lanes: u32::MAX, set: 0, updates: 1 }]);
    }

    #[test]
    fn a_misaligned_warp_touches_two_lines() {
        let mut out = Vec::new();
        coalesce(u32::MAX, &addresses(|l| 0x1040 + 4 * l), 128, 32, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0], LineRequest { line: 0x1000 / 128, sectors: 0b1100, lanes: 0xFFFF, set: 0, updates: 1 });
        assert_eq!(out[1], LineRequest { line: 0x1080 / 128, sectors: 0b0011, lanes: 0xFFFF_0000, set: 0, updates: 1 });
    }

    #[test]
    fn a_strided_warp_makes_one_request_per_lane() {
        let mut out = Vec::new();
        coalesce(u32::MAX, &addresses(|l| 256 + 128 * l), 128, 32, &mut out);
        assert_eq!(out.len(), 32);
        assert!(out.iter().enumerate().all(|(i, r)| r.line == 2 + i as u64 && r.sectors == 1 && r.lanes == 1 << i));
        // Inactive lanes make no requests.
        coalesce(0b101, &addresses(|l| 256 + 128 * l), 128, 32, &mut out);
        assert_eq!(out.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 4]);
    }

    /// On random accesses the coalescer makes the requests a plain grouping does: one per
    /// line, in the order of the first lane to touch it, with the union of sectors and lanes.
    #[test]
    fn requests_match_a_plain_grouping() {
        let mut rng = crate::rng::SplitMix64::new(0x9e37_79b9_7f4a_7c15);
        let mut next = || rng.next_u64() as u32;
        let mut out = Vec::new();
        for case in 0..3000 {
            let spread = [256, 4096, 1 << 16, 1 << 30][case % 4];
            let stride = [4, 128, 4096][case / 4 % 3];
            let mask = if case % 3 == 0 { u32::MAX } else { next() };
            let base = next() % spread;
            let addresses: [u32; LANES] = core::array::from_fn(|lane| match case % 5 {
                0 => base.wrapping_add(stride * lane as u32) & !3,
                _ => (next() % spread) & !3,
            });
            let (line_bytes, sector_bytes) = [(128, 32), (64, 32), (128, 4)][case % 3];
            coalesce(mask, &addresses, line_bytes, sector_bytes, &mut out);
            let mut expected: Vec<LineRequest> = Vec::new();
            for lane in (0..LANES).filter(|l| mask >> l & 1 == 1) {
                let line = u64::from(addresses[lane] / line_bytes);
                let sector = 1 << (addresses[lane] % line_bytes / sector_bytes);
                match expected.iter_mut().find(|r| r.line == line) {
                    Some(r) => (r.sectors, r.lanes) = (r.sectors | sector, r.lanes | 1 << lane),
                    None => expected.push(LineRequest { line, sectors: sector, lanes: 1 << lane, set: 0, updates: 1 }),
                }
            }
            assert_eq!(out, expected, "case {case}");
        }
    }

    #[test]
    fn bank_conflicts_count_distinct_words_per_bank() {
        assert_eq!(bank_conflict_degree(u32::MAX, &addresses(|l| 4 * l), 32), 1, "one word per bank");
        assert_eq!(bank_conflict_degree(u32::MAX, &addresses(|_| 64), 32), 1, "broadcast");
        assert_eq!(bank_conflict_degree(u32::MAX, &addresses(|l| 8 * l), 32), 2, "stride 2: two-way conflict");
        assert_eq!(bank_conflict_degree(u32::MAX, &addresses(|l| 128 * l), 32), 32, "stride 32: all in bank 0");
    }

    /// The one-pass shortcut agrees with a plain count (distinct words per bank, by set) on
    /// random accesses, masks and bank counts, power of two or not.
    #[test]
    fn bank_conflicts_match_a_plain_count() {
        let mut rng = crate::rng::SplitMix64::new(0x2545_f491_4f6c_dd1d);
        let mut next = || rng.next_u64() as u32;
        for case in 0..4000 {
            let banks = [1, 3, 7, 16, 32, 48, 64][case % 7];
            let spread = [2, 40, 300][case / 7 % 3];
            let mask = if case % 5 == 0 { u32::MAX } else { next() };
            let addresses: [u32; LANES] = core::array::from_fn(|_| 4 * (next() % spread) + next() % 4);
            let mut per_bank = alloc::collections::BTreeMap::<u32, alloc::collections::BTreeSet<u32>>::new();
            for lane in (0..32).filter(|l| mask >> l & 1 == 1) {
                let word = addresses[lane] / 4;
                per_bank.entry(word % banks).or_default().insert(word);
            }
            let expected = per_bank.values().map(|words| words.len() as u32).max().unwrap_or(0).max(1);
            assert_eq!(
                bank_conflict_degree(mask, &addresses, banks),
                expected,
                "case {case}: {banks} banks, mask {mask:#x}"
            );
        }
    }

    #[test]
    fn the_most_updated_address_counts_its_lanes() {
        // A 256-bin histogram's worst warp: every lane on one bin.
        assert_eq!(most_updates_of_one_address(u32::MAX, &addresses(|_| 0x40)), 32);
        // Distinct words: one update each.
        assert_eq!(most_updates_of_one_address(u32::MAX, &addresses(|l| 4 * l)), 1);
        // Lanes l and l + 8 share a word (bins of 8 words): 4 lanes per word; only masked lanes count.
        assert_eq!(most_updates_of_one_address(u32::MAX, &addresses(|l| 4 * (l % 8))), 4);
        assert_eq!(most_updates_of_one_address(0x0101, &addresses(|l| 4 * (l % 8))), 2);
        assert_eq!(most_updates_of_one_address(0, &addresses(|_| 0)), 0);
    }
}
