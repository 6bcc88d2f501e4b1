//! A set-associative tag array: the part of a cache that decides hit or miss and whom to evict.
//!
//! Data values are not stored here (functional memory lives elsewhere); what is stored per line
//! is its tag, its replacement stamp and the id of the warp or thread block that brought it in.
//! Owner ids are what CCWS's victim tags and CIAO's interference detector need, and what the
//! UI's heat map colours lines by.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::error::ConfigError;

/// Which line of a full set is evicted to make room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Replacement {
    /// Least recently used: every hit refreshes the line.
    Lru,
    /// First in, first out: hits do not change the order of eviction.
    Fifo,
    /// Belady's optimal replacement (MIN): evict the line used again furthest in the future.
    /// An oracle, for the L1 only: it needs the whole access stream, which depends on the
    /// timing, so the run is timed with LRU and its L1 access stream is replayed afterwards
    /// with optimal replacement ([`crate::mem::replay`]). Caches that time with it reject it.
    Belady,
}

/// Size and shape of a cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheGeometry {
    /// Total data capacity in bytes.
    pub size_bytes: u32,
    /// Bytes per line (GPU L1s use 128-byte lines).
    pub line_bytes: u32,
    /// Lines per set.
    pub ways: u32,
}

/// Largest associativity accepted; real caches stop far below this.
pub const MAX_WAYS: u32 = 64;

impl CacheGeometry {
    /// Number of sets, valid once [`CacheGeometry::validate`] has passed.
    pub fn sets(&self) -> u32 {
        self.size_bytes / self.line_bytes / self.ways
    }

    /// Number of lines the cache holds.
    pub fn lines(&self) -> u32 {
        self.size_bytes / self.line_bytes
    }

    /// Checks that the geometry describes a buildable cache. `prefix` is the field path of this
    /// geometry in the enclosing configuration, e.g. `"cache"`.
    pub fn validate(&self, prefix: &str) -> Result<(), ConfigError> {
        let field = |name: &str| format!("{prefix}.{name}");
        if self.line_bytes < 4 || !self.line_bytes.is_power_of_two() {
            return Err(ConfigError::new(
                field("line_bytes"),
                format!("must be a power of two of at least 4 bytes, got {}", self.line_bytes),
            ));
        }
        if self.ways == 0 || self.ways > MAX_WAYS {
            return Err(ConfigError::new(
                field("ways"),
                format!("must be between 1 and {MAX_WAYS}, got {}", self.ways),
            ));
        }
        let set_bytes = self.line_bytes as u64 * self.ways as u64;
        if self.size_bytes == 0 || self.size_bytes as u64 % set_bytes != 0 {
            return Err(ConfigError::new(
                field("size_bytes"),
                format!(
                    "must be a non-zero multiple of line size x ways = {} x {} = {set_bytes} bytes, got {}",
                    self.line_bytes, self.ways, self.size_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// What a lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The line was present.
    Hit,
    /// The line was absent and has now been filled; `evicted` is the line it displaced, if the
    /// set was full.
    Miss {
        /// The valid line that made room, with the id of whoever filled it.
        evicted: Option<Evicted>,
    },
}

/// A line pushed out of the cache by a fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evicted {
    /// Line address (byte address / line size) of the victim.
    pub line: u64,
    /// Owner id recorded when the victim was filled.
    pub owner: u32,
}

const INVALID: u64 = u64::MAX;

/// Fermi's L1/L2 set-index hash (as in GPGPU-Sim): the 5 index bits above a 128-byte line
/// offset, `addr[11:7]`, XORed with `{addr[19], addr[17], addr[15], addr[14], addr[13]}`;
/// with 64 sets, `addr[12]` becomes the top index bit. Defined for 32 and 64 sets only
/// (configuration validation enforces it); other counts fall back to linear indexing.
pub fn fermi_hash_set(byte_addr: u64, sets: u32) -> u32 {
    let low = ((byte_addr >> 7) & 0x1F) as u32;
    // Bits 13..=15 land in 0..=2, bit 17 in 3, bit 19 in 4: three shifts, not five.
    let high = ((byte_addr >> 13) & 0b111 | (byte_addr >> 14) & 0b1000 | (byte_addr >> 15) & 0b1_0000) as u32;
    match sets {
        32 => low ^ high,
        64 => (low ^ high) | ((byte_addr >> 7) & 0b10_0000) as u32,
        _ => ((byte_addr >> 7) % sets.max(1) as u64) as u32,
    }
}

/// The tag store of a set-associative cache, kept flat: entry `set * ways + way`.
#[derive(Clone, Debug)]
pub struct TagArray {
    sets: u32,
    ways: u32,
    line_shift: u32,
    replacement: Replacement,
    /// Line address held by each way, or `INVALID`.
    lines: Vec<u64>,
    /// Replacement stamp: last use (LRU) or fill time (FIFO). Smallest is evicted.
    stamps: Vec<u64>,
    /// Id of the warp / thread block that filled each way.
    owners: Vec<u32>,
    /// Monotonic access counter that produces stamps.
    clock: u64,
}

impl TagArray {
    /// An empty cache of the given (validated) geometry.
    pub fn new(geometry: CacheGeometry, replacement: Replacement) -> Self {
        let entries = geometry.lines() as usize;
        TagArray {
            sets: geometry.sets(),
            ways: geometry.ways,
            line_shift: geometry.line_bytes.trailing_zeros(),
            // The sweep refuses Belady (an oracle needs a replay); were it given, it is LRU.
            replacement: if replacement == Replacement::Belady { Replacement::Lru } else { replacement },
            lines: vec![INVALID; entries],
            stamps: vec![0; entries],
            owners: vec![0; entries],
            clock: 0,
        }
    }

    /// Number of sets.
    pub fn sets(&self) -> u32 {
        self.sets
    }

    /// Lines per set.
    pub fn ways(&self) -> u32 {
        self.ways
    }

    /// The line address containing byte address `addr`.
    pub fn line_of(&self, addr: u64) -> u64 {
        addr >> self.line_shift
    }

    /// The set a line address maps to (low-order line bits, as in GPGPU-Sim's linear indexing).
    pub fn set_of(&self, line: u64) -> u32 {
        (line % self.sets as u64) as u32
    }

    /// Looks up byte address `addr`; on a miss, fills it on behalf of `owner`.
    pub fn access(&mut self, addr: u64, owner: u32) -> Lookup {
        let line = self.line_of(addr);
        let base = (self.set_of(line) * self.ways) as usize;
        let ways = base..base + self.ways as usize;
        self.clock += 1;

        if let Some(way) = self.lines[ways.clone()].iter().position(|&l| l == line) {
            if self.replacement == Replacement::Lru {
                self.stamps[base + way] = self.clock;
            }
            return Lookup::Hit;
        }

        // Prefer an invalid way; otherwise the smallest stamp (oldest use or oldest fill).
        // Ties cannot happen: stamps are unique per fill, and invalid ways are taken first.
        let victim = match self.lines[ways.clone()].iter().position(|&l| l == INVALID) {
            Some(way) => base + way,
            None => {
                let (way, _) = self.stamps[ways].iter().enumerate().min_by_key(|&(_, s)| *s).unwrap_or((0, &0));
                base + way
            }
        };
        let evicted =
            (self.lines[victim] != INVALID).then(|| Evicted { line: self.lines[victim], owner: self.owners[victim] });
        self.lines[victim] = line;
        self.stamps[victim] = self.clock;
        self.owners[victim] = owner;
        Lookup::Miss { evicted }
    }

    /// Drops every line (a kernel-boundary invalidation under GPU coherence).
    pub fn invalidate_all(&mut self) {
        self.lines.fill(INVALID);
    }

    /// Owner of each way in `set`, `None` where the way is empty. For the heat map.
    pub fn owners_of_set(&self, set: u32) -> impl Iterator<Item = Option<u32>> + '_ {
        let base = (set * self.ways) as usize;
        (base..base + self.ways as usize).map(|i| (self.lines[i] != INVALID).then_some(self.owners[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(size_bytes: u32, line_bytes: u32, ways: u32) -> CacheGeometry {
        CacheGeometry { size_bytes, line_bytes, ways }
    }

    #[test]
    fn validation_names_the_field_and_the_reason() {
        let err = geometry(1000, 128, 4).validate("l1").unwrap_err();
        assert_eq!(err.field, "l1.size_bytes");
        assert!(err.reason.contains("128 x 4 = 512"), "{}", err.reason);
        assert_eq!(geometry(4096, 100, 4).validate("l1").unwrap_err().field, "l1.line_bytes");
        assert_eq!(geometry(4096, 128, 0).validate("l1").unwrap_err().field, "l1.ways");
        assert_eq!(geometry(16 * 1024, 128, 4).sets(), 32);
        assert!(geometry(16 * 1024, 128, 4).validate("l1").is_ok());
    }

    #[test]
    fn lru_keeps_the_recently_used_line_and_fifo_does_not() {
        // One set of two ways. Access A, B, A, C: LRU evicts B (A was just used), FIFO evicts A.
        let (a, b, c) = (0u64, 64, 128);
        for (replacement, victim) in [(Replacement::Lru, b), (Replacement::Fifo, a)] {
            let mut t = TagArray::new(geometry(128, 64, 2), replacement);
            assert_eq!(t.access(a, 1), Lookup::Miss { evicted: None });
            assert_eq!(t.access(b, 2), Lookup::Miss { evicted: None });
            assert_eq!(t.access(a, 3), Lookup::Hit);
            let owner = if victim == a { 1 } else { 2 };
            assert_eq!(
                t.access(c, 4),
                Lookup::Miss { evicted: Some(Evicted { line: victim / 64, owner }) },
                "{replacement:?}"
            );
        }
    }

    #[test]
    fn cyclic_sweep_larger_than_a_set_always_misses_under_lru() {
        // ways+1 lines that map to one set, swept cyclically: LRU always evicts the line needed
        // next, so after the cold misses every access misses too (the classic LRU cliff).
        let g = geometry(4 * 128 * 8, 128, 4); // 8 sets of 4 ways
        let mut t = TagArray::new(g, Replacement::Lru);
        let stride = 128 * 8; // same set every time
        let mut hits = 0;
        for _pass in 0..10 {
            for i in 0..5u64 {
                if t.access(i * stride, 0) == Lookup::Hit {
                    hits += 1;
                }
            }
        }
        assert_eq!(hits, 0);
    }

    #[test]
    fn the_fermi_hash_spreads_power_of_two_strides() {
        // Linear indexing maps a 4 KiB stride (32 sets × 128 B) to one set; the hash does not.
        let sets: alloc::vec::Vec<u32> = (0..8u64).map(|i| fermi_hash_set(i * 4096, 32)).collect();
        // addr = i * 4096 sets bits 12..14: bit 13 -> high bit 0, bit 14 -> high bit 1.
        assert_eq!(sets, [0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(fermi_hash_set(1 << 12, 64), 32, "bit 12 is the top index bit with 64 sets");
        assert_eq!(fermi_hash_set((1 << 19) | (5 << 7), 32), 5 ^ 16);
    }

    #[test]
    fn the_fermi_hash_gathers_the_documented_bits() {
        let bit = |a: u64, n: u32| ((a >> n) & 1) as u32;
        for a in (0..1u64 << 21).step_by(128).chain([u64::MAX - 127]) {
            let low = ((a >> 7) & 0x1F) as u32;
            let high = bit(a, 13) | bit(a, 14) << 1 | bit(a, 15) << 2 | bit(a, 17) << 3 | bit(a, 19) << 4;
            assert_eq!(fermi_hash_set(a, 32), low ^ high, "{a:#x}");
            assert_eq!(fermi_hash_set(a, 64), (low ^ high) | bit(a, 12) << 5, "{a:#x}");
        }
    }

    #[test]
    fn invalidate_all_empties_every_way() {
        let mut t = TagArray::new(geometry(1024, 128, 2), Replacement::Lru);
        t.access(0, 9);
        assert_eq!(t.owners_of_set(0).collect::<Vec<_>>(), [Some(9), None]);
        t.invalidate_all();
        assert_eq!(t.owners_of_set(0).collect::<Vec<_>>(), [None, None]);
        assert!(matches!(t.access(0, 1), Lookup::Miss { evicted: None }));
    }
}
