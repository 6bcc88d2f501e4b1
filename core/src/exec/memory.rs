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

use crate::isa::Width;

/// Alignment of every buffer's base address, and size of the gap after it.
pub const BUFFER_ALIGN: u32 = 256;

/// Largest total size of device memory, so that a run stays within a browser tab's means.
pub const MAX_GLOBAL_BYTES: u64 = 1 << 30;

/// Why an access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AccessError {
    /// The address is in no buffer.
    Unmapped,
    /// The address is not a multiple of the access's size.
    Misaligned,
}

/// Where a buffer of `bytes` goes when the words array ends at byte `end`: its region (its
/// size rounded up to whole words) and the array's new end (the guard gap included); `None` past
/// [`MAX_GLOBAL_BYTES`].
fn place(end: u64, bytes: u32) -> Option<(Region, u64)> {
    let bytes = (bytes as u64).div_ceil(4) * 4;
    let base = end.max(BUFFER_ALIGN as u64).next_multiple_of(BUFFER_ALIGN as u64);
    let end = base + bytes + BUFFER_ALIGN as u64;
    (end <= MAX_GLOBAL_BYTES).then_some((Region { base: base as u32, bytes: bytes as u32 }, end))
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
        let (region, end) = place(self.words.len() as u64 * 4, bytes)?;
        self.words.resize((end / 4) as usize, 0);
        self.regions.push(region);
        Some(region)
    }

    /// Reserves room for buffers of `sizes` bytes each, to be mapped next by
    /// [`GlobalMemory::alloc`], so that the words array is allocated once at its final size:
    /// grown buffer by buffer it would double, and a browser's WebAssembly memory, which never
    /// shrinks, would keep the discarded smaller arrays' room besides (3.4× the device memory
    /// for two large matrices). Sizes past [`MAX_GLOBAL_BYTES`] reserve nothing more.
    pub fn reserve(&mut self, sizes: impl IntoIterator<Item = u32>) {
        let mut end = self.words.len() as u64 * 4;
        for bytes in sizes {
            let Some((_, next)) = place(end, bytes) else { break };
            end = next;
        }
        self.words.reserve_exact((end / 4) as usize - self.words.len());
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
        self.check_sized(addr, 4)
    }

    /// Checks that an access of `bytes` (1, 2 or 4) at `addr` is aligned and inside a buffer.
    pub fn check_sized(&self, addr: u32, bytes: u32) -> Result<(), AccessError> {
        self.region_of(addr, bytes).map(|_| ())
    }

    /// The buffer an access of `bytes` (a power of two up to 4) at `addr` falls in, if it is
    /// aligned and inside one. An aligned access starting in an allocation ends in it too.
    fn region_of(&self, addr: u32, bytes: u32) -> Result<Region, AccessError> {
        debug_assert!(bytes.is_power_of_two());
        if addr & (bytes - 1) != 0 {
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

    /// Checks the accesses of `bytes` each (1, 2 or 4) of the lanes of `mask` at `addresses`,
    /// lowest lane first; the first that fails gives its lane and error. Lanes of a warp mostly
    /// hit one buffer, so a lane inside the buffer of the lane before it needs no search.
    /// `block` is the first address when the lanes are 32 consecutive words
    /// ([`super::consecutive_words`]; `None` also serves, slower).
    pub fn check_lanes(
        &self,
        addresses: &[u32; 32],
        mask: u32,
        block: Option<u32>,
        bytes: u32,
    ) -> Result<(), (u32, AccessError)> {
        debug_assert!(block.is_none() || block == super::consecutive_words(addresses).filter(|_| mask == u32::MAX));
        if mask == u32::MAX {
            if let Some(base) = block {
                // 32 consecutive words: the first and the last decide.
                // (`region_of` refuses a misaligned `base`, and the others are `base` + 4k.)
                if self.region_of(base, 4).is_ok_and(|r| r.contains(base + 4 * 31)) {
                    return Ok(());
                }
            }
            // Converged: every lane aligned and the lowest and highest address in one buffer
            // means all of them are (vectorised); otherwise find the first bad lane below.
            let (any_bits, low, high) = lane_span(addresses, u32::MAX);
            if any_bits % bytes == 0 && self.region_of(low, bytes).is_ok_and(|r| r.contains(high)) {
                return Ok(());
            }
        }
        let mut last: Option<Region> = None;
        let mut m = mask;
        while m != 0 {
            let lane = m.trailing_zeros();
            m &= m - 1;
            let addr = addresses[lane as usize];
            if addr % bytes == 0 && last.is_some_and(|r| r.contains(addr)) {
                continue;
            }
            last = Some(self.region_of(addr, bytes).map_err(|e| (lane, e))?);
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

    /// The value `width` reads at `addr`, which [`GlobalMemory::check_sized`] has accepted.
    pub fn narrow(&self, addr: u32, width: Width) -> u32 {
        width.extract(self.word(addr & !3), addr)
    }

    /// Stores the low bytes of `value` that `width` covers at `addr`, which
    /// [`GlobalMemory::check_sized`] has accepted.
    pub fn set_narrow(&mut self, addr: u32, width: Width, value: u32) {
        let word = self.word(addr & !3);
        self.set_word(addr & !3, width.insert(word, addr, value));
    }
}

/// The addresses of the lanes in `mask` summed up for a check of the whole warp at once: every
/// bit any of them sets (for alignment), the lowest and the highest (`(0, u32::MAX, 0)` for
/// none). Branch-free, so the compiler vectorises it.
#[inline]
fn lane_span(addresses: &[u32; super::LANES], mask: u32) -> (u32, u32, u32) {
    let (mut bits, mut low, mut high) = (0, u32::MAX, 0);
    for (lane, &address) in addresses.iter().enumerate() {
        let on = (mask >> lane & 1).wrapping_neg();
        bits |= address & on;
        low = low.min(address | !on);
        high = high.max(address & on);
    }
    (bits, low, high)
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

    /// The index of the (first) word an access of `bytes` (1, 2, 4 or 8) at `addr` falls in.
    fn word_index(&self, addr: u32, bytes: u32) -> Result<usize, AccessError> {
        debug_assert!(bytes.is_power_of_two());
        if addr & (bytes - 1) != 0 {
            return Err(AccessError::Misaligned);
        }
        let i = (addr / 4) as usize;
        // The last word it touches (a double word's second) must be inside too.
        if ((addr + bytes - 1) / 4) < self.words.len() as u32 {
            Ok(i)
        } else {
            Err(AccessError::Unmapped)
        }
    }

    /// Checks that an access of `bytes` (1, 2 or 4) at `addr` is aligned and inside.
    pub fn check(&self, addr: u32, bytes: u32) -> Result<(), AccessError> {
        self.word_index(addr, bytes).map(|_| ())
    }

    /// Checks the access of `bytes` of every lane in `mask`; the first lane that fails, and
    /// why, if one does.
    pub fn check_lanes(
        &self,
        addresses: &[u32; super::LANES],
        mask: u32,
        bytes: u32,
    ) -> Result<(), (u32, AccessError)> {
        // All lanes at once (the common case passes): any misaligned bit, and the furthest
        // address; lane by lane only to name the lane that fails.
        let (any_bits, _, furthest) = lane_span(addresses, mask);
        let inside = u64::from(furthest) + u64::from(bytes) <= 4 * self.words.len() as u64;
        if any_bits & (bytes - 1) == 0 && inside {
            return Ok(());
        }
        let mut m = mask;
        while m != 0 {
            let lane = m.trailing_zeros();
            m &= m - 1;
            self.check(addresses[lane as usize], bytes).map_err(|error| (lane, error))?;
        }
        Ok(())
    }

    /// The word at `addr`, which [`SharedMemory::check`] has accepted (0 otherwise).
    pub fn word(&self, addr: u32) -> u32 {
        self.words.get((addr / 4) as usize).copied().unwrap_or(0)
    }

    /// Stores the word at `addr`, which [`SharedMemory::check`] has accepted (nothing otherwise).
    pub fn set_word(&mut self, addr: u32, value: u32) {
        if let Some(w) = self.words.get_mut((addr / 4) as usize) {
            *w = value;
        }
    }

    /// Reads a word.
    pub fn read(&self, addr: u32) -> Result<u32, AccessError> {
        self.word_index(addr, 4).map(|i| self.words[i])
    }

    /// Writes a word.
    pub fn write(&mut self, addr: u32, value: u32) -> Result<(), AccessError> {
        let i = self.word_index(addr, 4)?;
        self.words[i] = value;
        Ok(())
    }

    /// Reads `width` at `addr`, extended to a word.
    pub fn read_narrow(&self, addr: u32, width: Width) -> Result<u32, AccessError> {
        self.word_index(addr, width.bytes()).map(|i| width.extract(self.words[i], addr))
    }

    /// Writes the low bytes of `value` that `width` covers at `addr`.
    pub fn write_narrow(&mut self, addr: u32, width: Width, value: u32) -> Result<(), AccessError> {
        let i = self.word_index(addr, width.bytes())?;
        self.words[i] = width.insert(self.words[i], addr, value);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserving_maps_the_same_buffers_in_one_allocation_of_the_final_size() {
        let sizes = [1 << 22, 1 << 20, 4096, 10, 3];
        let mut grown = GlobalMemory::default();
        let mut reserved = GlobalMemory::default();
        reserved.reserve(sizes);
        let capacity = reserved.words.capacity();
        for bytes in sizes {
            assert_eq!(reserved.alloc(bytes), grown.alloc(bytes));
        }
        assert_eq!(reserved.words, grown.words);
        assert_eq!(reserved.words.capacity(), capacity, "no buffer made the array grow");
        assert_eq!(capacity, reserved.words.len(), "the room reserved is exactly what the buffers take");
        assert!(grown.words.capacity() > grown.words.len(), "grown buffer by buffer, the array doubles");
        // Past the limit, the buffers that fit are reserved and the rest are not.
        let mut full = GlobalMemory::default();
        full.reserve([1 << 20, u32::MAX]);
        assert_eq!(full.words.capacity(), ((1 << 20) + 2 * BUFFER_ALIGN as usize) / 4);
    }

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
        assert_eq!(m.check_lanes(&addresses, u32::MAX, None, 4), Ok(()));
        addresses[9] = a.base + 256;
        addresses[12] = a.base + 2;
        assert_eq!(m.check_lanes(&addresses, u32::MAX, None, 4), Err((9, AccessError::Unmapped)));
        assert_eq!(m.check_lanes(&addresses, !(1 << 9), None, 4), Err((12, AccessError::Misaligned)));
        assert_eq!(m.check_lanes(&addresses, 0b11, None, 4), Ok(()));
        // Half-word accesses need only two-byte alignment.
        assert_eq!(m.check_lanes(&addresses, !(1 << 9), None, 2), Ok(()));
        m.set_word(b.base + 4, 5);
        assert_eq!(m.word(b.base + 4), 5);
    }

    #[test]
    fn narrow_accesses_read_and_write_their_bytes_only() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(8).unwrap();
        m.set_word(a.base, 0x8070_6050);
        assert_eq!(m.narrow(a.base + 3, Width::S8), -128i32 as u32);
        assert_eq!(m.narrow(a.base + 3, Width::U8), 0x80);
        assert_eq!(m.narrow(a.base + 2, Width::S16), 0xFFFF_8070);
        assert_eq!(m.narrow(a.base, Width::U16), 0x6050);
        m.set_narrow(a.base + 1, Width::U8, 0x1FF);
        assert_eq!(m.word(a.base), 0x8070_FF50, "only byte 1 changes, to the value's low byte");
        m.set_narrow(a.base + 6, Width::U16, 0xABCD);
        assert_eq!(m.word(a.base + 4), 0xABCD_0000);
        assert_eq!(m.check_sized(a.base + 1, 2), Err(AccessError::Misaligned));
        assert_eq!(m.check_sized(a.base + 255, 1), Ok(()), "the allocation's last byte");
        assert_eq!(m.check_sized(a.base + 256, 1), Err(AccessError::Unmapped));
        let mut s = SharedMemory::new(4);
        s.write_narrow(2, Width::S16, 0xFFFF_8001).unwrap();
        assert_eq!((s.read(0), s.read_narrow(2, Width::S16)), (Ok(0x8001_0000), Ok(0xFFFF_8001)));
        assert_eq!(s.read_narrow(3, Width::U16), Err(AccessError::Misaligned));
        assert_eq!(s.read_narrow(4, Width::U8), Err(AccessError::Unmapped));
    }

    #[test]
    fn a_block_of_consecutive_words_is_checked_by_its_ends() {
        let mut m = GlobalMemory::default();
        let a = m.alloc(64 * 4).unwrap();
        let block = |first: u32| core::array::from_fn::<u32, 32, _>(|l| first + 4 * l as u32);
        let second_half = a.base + 128;
        assert_eq!(m.check_lanes(&block(second_half), u32::MAX, Some(second_half), 4), Ok(()));
        // One word further: the last lane falls past the buffer's end (and allocation unit).
        let shifted = second_half + 4;
        assert_eq!(m.check_lanes(&block(shifted), u32::MAX, Some(shifted), 4), Err((31, AccessError::Unmapped)));
    }

    #[test]
    fn device_memory_is_bounded() {
        let mut m = GlobalMemory::default();
        assert!(m.alloc(u32::MAX).is_none());
        assert!(m.alloc(1 << 20).is_some());
    }

    #[test]
    fn a_lane_span_counts_only_the_lanes_of_its_mask() {
        let addresses: [u32; 32] = core::array::from_fn(|l| 0x100 + 4 * l as u32);
        assert_eq!(lane_span(&addresses, u32::MAX), (0x17C, 0x100, 0x17C));
        // Lanes 1 and 3 only: 0x104 and 0x10C.
        assert_eq!(lane_span(&addresses, 0b1010), (0x10C, 0x104, 0x10C));
        assert_eq!(lane_span(&addresses, 0), (0, u32::MAX, 0));
    }

    /// Checking a warp's shared accesses at once names the lane a lane-by-lane check names
    /// first, and passes when that passes.
    #[test]
    fn shared_lanes_are_checked_as_one_by_one() {
        let s = SharedMemory::new(1000);
        let mut rng = crate::rng::SplitMix64::new(0x1234_5678_9abc_def1);
        let mut next = || rng.next_u64() as u32;
        for case in 0..4000 {
            let bytes = [1, 2, 4, 8][case % 4];
            let mask = if case % 3 == 0 { u32::MAX } else { next() };
            let reach = [1004, 1100, 4000][case / 4 % 3];
            let align = if case % 7 == 0 { 1 } else { bytes };
            let addresses: [u32; 32] = core::array::from_fn(|_| next() % reach / align * align);
            let one_by_one = (0..32u32)
                .filter(|l| mask >> l & 1 == 1)
                .find_map(|l| s.check(addresses[l as usize], bytes).err().map(|e| (l, e)));
            assert_eq!(s.check_lanes(&addresses, mask, bytes), one_by_one.map_or(Ok(()), Err), "case {case}");
        }
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
