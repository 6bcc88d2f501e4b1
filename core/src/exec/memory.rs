//! Device memory as the kernels see it: buffers in one 32-bit byte address space.
//!
//! Buffers are placed at 256-byte-aligned addresses with an unmapped guard gap after each, and
//! nothing is mapped below the first buffer, so a null pointer or a stray index faults with the
//! address rather than silently reading a neighbour. A buffer's allocation is rounded up to
//! those 256 bytes, the granularity `cudaMalloc` guarantees: an access just past the end but
//! within it reads or writes that padding (zeros to start with), as a GPU does without a
//! fault, and ported kernels that read one element past their arrays run as they do there.

use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Alignment of every buffer's base address, and size of the gap after it.
pub const BUFFER_ALIGN: u32 = 256;

/// Largest total size of device memory, so that a run stays within a browser tab's means.
pub const MAX_GLOBAL_BYTES: u64 = 1 << 30;

/// Why an access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessError {
    /// The address is in no buffer.
    Unmapped,
    /// The address is not a multiple of 4.
    Misaligned,
}

/// A buffer's place in the address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    /// First byte address.
    pub base: u32,
    /// Size in bytes (a multiple of 4).
    pub bytes: u32,
}

impl Region {
    /// Whether byte `addr` is in the buffer's allocation (its bytes rounded up to
    /// [`BUFFER_ALIGN`]).
    fn contains(&self, addr: u32) -> bool {
        addr >= self.base && addr - self.base < self.bytes.next_multiple_of(BUFFER_ALIGN)
    }
}

/// All buffers, backed by one flat word array indexed by `address / 4`.
#[derive(Clone, Debug, Default)]
pub struct GlobalMemory {
    words: Vec<u32>,
    regions: Vec<Region>,
    /// With [`GlobalMemory::track_writes`]: per region, whether a store or atomic wrote it since
    /// [`GlobalMemory::forget_writes`] (DeNovo's read-only data); empty otherwise.
    written: Vec<bool>,
    /// The region the last tracked write fell in: a warp's lanes mostly write one buffer.
    last_written: usize,
}

impl GlobalMemory {
    /// Maps a zeroed buffer of `bytes` (rounded up to whole words) and returns its region, or
    /// `None` if device memory would exceed [`MAX_GLOBAL_BYTES`].
    pub fn alloc(&mut self, bytes: u32) -> Option<Region> {
        let bytes = (bytes as u64).div_ceil(4) * 4;
        let base = (self.words.len() as u64 * 4).max(BUFFER_ALIGN as u64).next_multiple_of(BUFFER_ALIGN as u64);
        let end = base + bytes + BUFFER_ALIGN as u64;
        if end > MAX_GLOBAL_BYTES {
            return None;
        }
        self.words.resize((end / 4) as usize, 0);
        let region = Region { base: base as u32, bytes: bytes as u32 };
        self.regions.push(region);
        Some(region)
    }

    /// The mapped buffers in allocation order.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The words of `region`.
    pub fn words(&self, region: Region) -> &[u32] {
        let start = (region.base / 4) as usize;
        &self.words[start..start + (region.bytes / 4) as usize]
    }

    /// The words of `region`, writable (for initialising buffers).
    pub fn words_mut(&mut self, region: Region) -> &mut [u32] {
        let start = (region.base / 4) as usize;
        &mut self.words[start..start + (region.bytes / 4) as usize]
    }

    /// Checks that a word access at `addr` is aligned and inside a buffer.
    pub fn check(&self, addr: u32) -> Result<(), AccessError> {
        self.region_of(addr).map(|_| ())
    }

    /// The buffer a word access at `addr` falls in, if it is aligned and inside one.
    fn region_of(&self, addr: u32) -> Result<Region, AccessError> {
        if addr % 4 != 0 {
            return Err(AccessError::Misaligned);
        }
        self.region_index(addr).map(|i| self.regions[i]).ok_or(AccessError::Unmapped)
    }

    /// The index of the buffer holding byte `addr`, if any.
    fn region_index(&self, addr: u32) -> Option<usize> {
        // Regions are sorted by base: find the last one starting at or below `addr`.
        let i = self.regions.partition_point(|r| r.base <= addr).checked_sub(1)?;
        self.regions[i].contains(addr).then_some(i)
    }

    /// Checks the word accesses of the lanes of `mask` at `addresses`, lowest lane first; the
    /// first that fails gives its lane and error. Lanes of a warp mostly hit one buffer, so a
    /// lane inside the buffer of the lane before it needs no search. `block` is the first
    /// address when the lanes are 32 consecutive words ([`super::consecutive_words`]; `None`
    /// also serves, slower).
    pub fn check_lanes(&self, addresses: &[u32; 32], mask: u32, block: Option<u32>) -> Result<(), (u32, AccessError)> {
        debug_assert!(block.is_none() || block == super::consecutive_words(addresses).filter(|_| mask == u32::MAX));
        if mask == u32::MAX {
            if let Some(base) = block {
                // 32 consecutive words: the first and the last decide.
                // (`region_of` refuses a misaligned `base`, and the others are `base` + 4k.)
                if self.region_of(base).is_ok_and(|r| r.contains(base + 4 * 31)) {
                    return Ok(());
                }
            }
            // Converged: every lane aligned and the lowest and highest address in one buffer
            // means all of them are (vectorised); otherwise find the first bad lane below.
            let any_bits = addresses.iter().fold(0, |acc, &a| acc | a);
            let low = addresses.iter().fold(u32::MAX, |acc, &a| acc.min(a));
            let high = addresses.iter().fold(0, |acc, &a| acc.max(a));
            if any_bits % 4 == 0 && self.region_of(low).is_ok_and(|r| r.contains(high)) {
                return Ok(());
            }
        }
        let mut last: Option<Region> = None;
        let mut m = mask;
        while m != 0 {
            let lane = m.trailing_zeros();
            m &= m - 1;
            let addr = addresses[lane as usize];
            if addr % 4 == 0 && last.is_some_and(|r| r.contains(addr)) {
                continue;
            }
            last = Some(self.region_of(addr).map_err(|e| (lane, e))?);
        }
        Ok(())
    }

    /// The word at `addr`, which [`GlobalMemory::check`] has accepted.
    pub fn word(&self, addr: u32) -> u32 {
        self.words.get((addr / 4) as usize).copied().unwrap_or(0)
    }

    /// Reads the words from `addr` on into `out`, which [`GlobalMemory::check`] has accepted
    /// for every word.
    pub fn get_words(&self, addr: u32, out: &mut [u32]) {
        let start = (addr / 4) as usize;
        if let Some(words) = self.words.get(start..start + out.len()) {
            out.copy_from_slice(words);
        }
    }

    /// Writes `values` from `addr` on, which [`GlobalMemory::check`] has accepted for every
    /// word.
    pub fn set_words(&mut self, addr: u32, values: &[u32]) {
        let start = (addr / 4) as usize;
        if let Some(words) = self.words.get_mut(start..start + values.len()) {
            words.copy_from_slice(values);
        }
        // The words are one buffer's: a range across two would have faulted.
        self.note_write(addr);
    }

    /// Sets the word at `addr`, which [`GlobalMemory::check`] has accepted.
    pub fn set_word(&mut self, addr: u32, value: u32) {
        if let Some(w) = self.words.get_mut((addr / 4) as usize) {
            *w = value;
        }
        self.note_write(addr);
    }

    /// From now on, notes which buffers kernels' stores and atomics write.
    pub fn track_writes(&mut self) {
        self.written = vec![false; self.regions.len()];
    }

    /// Forgets which buffers were written.
    pub fn forget_writes(&mut self) {
        self.written.fill(false);
    }

    /// Whether a store or atomic wrote the buffer holding byte `addr` since writes were last
    /// forgotten; `true` when writes are not tracked or `addr` is in no buffer.
    pub fn written_since(&self, addr: u32) -> bool {
        self.region_index(addr).and_then(|i| self.written.get(i).copied()).unwrap_or(true)
    }

    fn note_write(&mut self, addr: u32) {
        if self.written.is_empty() {
            return;
        }
        if !self.regions.get(self.last_written).is_some_and(|r| r.contains(addr)) {
            let Some(i) = self.region_index(addr) else { return };
            self.last_written = i;
        }
        self.written[self.last_written] = true;
    }

    /// Reads the word at a checked address.
    pub fn read(&self, addr: u32) -> Result<u32, AccessError> {
        self.check(addr)?;
        Ok(self.words[(addr / 4) as usize])
    }

    /// Writes the word at a checked address.
    pub fn write(&mut self, addr: u32, value: u32) -> Result<(), AccessError> {
        self.check(addr)?;
        self.words[(addr / 4) as usize] = value;
        Ok(())
    }
}

/// One thread block's shared memory.
#[derive(Clone, Debug)]
pub struct SharedMemory {
    words: Vec<u32>,
}

impl SharedMemory {
    /// `bytes` of zeroed shared memory.
    pub fn new(bytes: u32) -> Self {
        SharedMemory { words: vec![0; bytes.div_ceil(4) as usize] }
    }

    /// Zeroes it and resizes it for a new thread block, keeping the allocation.
    pub fn reset(&mut self, bytes: u32) {
        self.words.clear();
        self.words.resize(bytes.div_ceil(4) as usize, 0);
    }

    fn index(&self, addr: u32) -> Result<usize, AccessError> {
        if addr % 4 != 0 {
            return Err(AccessError::Misaligned);
        }
        let i = (addr / 4) as usize;
        if i < self.words.len() {
            Ok(i)
        } else {
            Err(AccessError::Unmapped)
        }
    }

    /// Reads a word.
    pub fn read(&self, addr: u32) -> Result<u32, AccessError> {
        self.index(addr).map(|i| self.words[i])
    }

    /// Writes a word.
    pub fn write(&mut self, addr: u32, value: u32) -> Result<(), AccessError> {
        let i = self.index(addr)?;
        self.words[i] = value;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_aligned_and_guarded() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(10).unwrap();
        let b = m.alloc(4).unwrap();
        assert_eq!(a, Region { base: 256, bytes: 12 });
        assert_eq!(b.base % BUFFER_ALIGN, 0);
        assert!(b.base >= a.base + a.bytes + BUFFER_ALIGN);
        assert_eq!(m.read(0), Err(AccessError::Unmapped), "null is never mapped");
        assert_eq!(m.read(a.base + 12), Ok(0), "one past the end: the allocation's padding");
        assert_eq!(m.read(a.base + 252), Ok(0), "the last word of the allocation unit");
        assert_eq!(m.read(a.base + 256), Err(AccessError::Unmapped), "past the allocation unit");
        assert_eq!(m.read(a.base + 2), Err(AccessError::Misaligned));
        m.write(a.base + 8, 7).unwrap();
        assert_eq!(m.words(a), [0, 0, 7]);
        assert_eq!(m.read(b.base), Ok(0));
        assert_eq!(m.read(b.base + 256), Err(AccessError::Unmapped));
    }

    #[test]
    fn lanes_are_checked_in_order_and_the_first_fault_named() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(64).unwrap();
        let b = m.alloc(64).unwrap();
        let mut addresses = [a.base; 32];
        for (lane, addr) in addresses.iter_mut().enumerate() {
            *addr = if lane % 2 == 0 { a.base } else { b.base } + (lane as u32 % 16) * 4;
        }
        assert_eq!(m.check_lanes(&addresses, u32::MAX, None), Ok(()));
        addresses[9] = a.base + 256;
        addresses[12] = a.base + 2;
        assert_eq!(m.check_lanes(&addresses, u32::MAX, None), Err((9, AccessError::Unmapped)));
        assert_eq!(m.check_lanes(&addresses, !(1 << 9), None), Err((12, AccessError::Misaligned)));
        assert_eq!(m.check_lanes(&addresses, 0b11, None), Ok(()));
        m.set_word(b.base + 4, 5);
        assert_eq!(m.word(b.base + 4), 5);
    }

    #[test]
    fn a_block_of_consecutive_words_is_checked_by_its_ends() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(64 * 4).unwrap();
        let block = |first: u32| core::array::from_fn::<u32, 32, _>(|l| first + 4 * l as u32);
        let second_half = a.base + 128;
        assert_eq!(m.check_lanes(&block(second_half), u32::MAX, Some(second_half)), Ok(()));
        // One word further: the last lane falls past the buffer's end (and allocation unit).
        let shifted = second_half + 4;
        assert_eq!(m.check_lanes(&block(shifted), u32::MAX, Some(shifted)), Err((31, AccessError::Unmapped)));
    }

    #[test]
    fn device_memory_is_bounded() {
        let mut m = GlobalMemory::default();
        assert!(m.alloc(u32::MAX).is_none());
        assert!(m.alloc(1 << 20).is_some());
    }

    #[test]
    fn shared_memory_faults_past_its_size() {
        let mut s = SharedMemory::new(8);
        s.write(4, 9).unwrap();
        assert_eq!(s.read(4), Ok(9));
        assert_eq!(s.read(8), Err(AccessError::Unmapped));
        s.reset(4);
        assert_eq!(s.read(0), Ok(0));
        assert_eq!(s.read(4), Err(AccessError::Unmapped));
    }
}
