//! The kernel distributor (KDU): the table of kernels whose blocks the dispatcher may see,
//! `device_launch.kdu_entries` of them, host kernels included (`laperm.md` §3.1, §3.3). A kernel
//! holds its entry until every block of it, and of the DTBL groups that joined it, has completed
//! (or, with `KduRelease::AllDispatched`, been dispatched). Kernels that find the table full wait
//! in the kernel management unit, the `Kmu` lists beside it.

use alloc::vec::Vec;

use crate::isa::Dim3;

/// One occupied entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    /// The kernel's code and block shape, which a DTBL group must match to join it.
    code: u32,
    block: Dim3,
    /// Blocks of the kernel and of its joined groups not yet released.
    open_blocks: u64,
}

/// The table. Entries are found by index, which runs keep.
#[derive(Clone, Debug, Default)]
pub struct Kdu {
    entries: Vec<Option<Entry>>,
    used: u32,
    peak: u32,
}

impl Kdu {
    /// A table of `entries` free entries.
    pub fn new(entries: u32) -> Self {
        Kdu { entries: alloc::vec![None; entries as usize], used: 0, peak: 0 }
    }

    /// Whether an entry is free.
    pub fn has_room(&self) -> bool {
        (self.used as usize) < self.entries.len()
    }

    /// Entries in use.
    pub fn used(&self) -> u32 {
        self.used
    }

    /// The most entries ever in use at once.
    pub fn peak(&self) -> u32 {
        self.peak
    }

    /// Takes a free entry for a kernel of `blocks` blocks; `None` when the table is full.
    pub fn take(&mut self, code: u32, block: Dim3, blocks: u32) -> Option<u32> {
        let index = self.entries.iter().position(Option::is_none)?;
        self.entries[index] = Some(Entry { code, block, open_blocks: blocks as u64 });
        self.used += 1;
        self.peak = self.peak.max(self.used);
        Some(index as u32)
    }

    /// The entry a DTBL group of `code` with blocks of `block` joins, adding its `blocks`: the
    /// lowest-numbered kernel of that function and shape (the first launched of them when
    /// entries are taken in order). `None` if no kernel matches.
    pub fn join(&mut self, code: u32, block: Dim3, blocks: u32) -> Option<u32> {
        let index = self.entries.iter().position(|e| e.is_some_and(|e| e.code == code && e.block == block))?;
        if let Some(entry) = &mut self.entries[index] {
            entry.open_blocks += blocks as u64;
        }
        Some(index as u32)
    }

    /// One block counted against entry `index` is released; the entry frees with its last.
    /// Returns whether it freed.
    pub fn release_block(&mut self, index: u32) -> bool {
        let Some(slot) = self.entries.get_mut(index as usize) else { return false };
        let Some(entry) = slot else { return false };
        entry.open_blocks = entry.open_blocks.saturating_sub(1);
        if entry.open_blocks > 0 {
            return false;
        }
        *slot = None;
        self.used -= 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_frees_with_the_last_block_of_its_kernel_and_joined_groups() {
        let mut kdu = Kdu::new(2);
        let (f, g, warp) = (0, 1, Dim3::linear(32));
        let parent = kdu.take(f, Dim3::linear(128), 2).unwrap();
        let child = kdu.take(g, warp, 1).unwrap();
        assert!(!kdu.has_room() && kdu.take(g, warp, 1).is_none(), "two entries, both taken");
        assert_eq!(kdu.join(g, warp, 3), Some(child), "same function and shape");
        assert_eq!(kdu.join(g, Dim3::linear(64), 1), None, "another shape does not join");
        for _ in 0..3 {
            assert!(!kdu.release_block(child));
        }
        assert!(kdu.release_block(child), "the kernel's own block and the group's three");
        assert_eq!((kdu.used(), kdu.peak()), (1, 2));
        assert!(kdu.has_room());
        assert!(!kdu.release_block(parent));
        assert!(kdu.release_block(parent));
        assert_eq!(kdu.used(), 0);
    }
}
