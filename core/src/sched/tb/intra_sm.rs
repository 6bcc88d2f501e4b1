//! Intra-SM sharing (`cke.md` §1.3): every SM holds up to `target[k]` blocks of each
//! co-running kernel `k`, the split SMK and Warped-Slicer choose (the same vector on every SM).
//!
//! Each cycle each SM looks at the kernels round-robin, starting after the one it gave a block
//! to last (the notes' suggestion), and takes a block of the first that is below its target,
//! has blocks waiting and fits; a kernel's oldest launch with blocks left goes first, in order.
//! A finished block's place goes back to its own kernel, and a relaunch refills the same
//! target, so the split holds however often the kernels relaunch.

use alloc::vec;
use alloc::vec::Vec;

use super::kernel_slots::KernelSlots;
use super::Dispatch;

/// Blocks per SM and kernel, against the targets.
#[derive(Clone, Debug, Default)]
pub struct IntraSmSharing {
    /// Blocks each SM holds of each kernel: `resident[sm * kernels + k]`.
    resident: Vec<u32>,
    /// Kernels `resident` is laid out for.
    kernels: usize,
    /// The kernel each SM gave a block to last.
    last: Vec<usize>,
}

impl IntraSmSharing {
    /// Blocks SM `sm` holds of kernel `k`.
    pub fn resident(&self, sm: u32, k: usize) -> u32 {
        if k >= self.kernels {
            return 0;
        }
        self.resident.get(sm as usize * self.kernels + k).copied().unwrap_or(0)
    }

    /// Lays the counts out for `kernels` kernels on `sms` SMs, keeping those already counted.
    fn grow(&mut self, sms: usize, kernels: usize) {
        if kernels <= self.kernels && self.last.len() == sms {
            return;
        }
        let kernels = kernels.max(self.kernels);
        let mut resident = vec![0; sms * kernels];
        for sm in 0..sms.min(self.last.len()) {
            for k in 0..self.kernels {
                resident[sm * kernels + k] = self.resident[sm * self.kernels + k];
            }
        }
        self.resident = resident;
        self.kernels = kernels;
        self.last.resize(sms, usize::MAX);
    }

    /// A block of run `run` finished on `sm`.
    pub fn on_tb_finish(&mut self, slots: &KernelSlots, sm: u32, run: u32) {
        if let Some(k) = slots.slot(run) {
            if let Some(count) = self.resident.get_mut(sm as usize * self.kernels + k) {
                *count = count.saturating_sub(1);
            }
        }
    }

    /// One cycle's placements: each SM takes at most one block, of the next kernel round-robin
    /// that is below `targets` (by slot), has a block waiting and fits.
    pub fn dispatch(&mut self, d: &mut Dispatch<'_>, slots: &KernelSlots, targets: &[u32]) {
        let sms = d.sm_count() as usize;
        let kernels = slots.len();
        if kernels == 0 {
            return;
        }
        self.grow(sms, kernels);
        for sm in 0..sms {
            let start = self.last[sm].wrapping_add(1) % kernels;
            for i in 0..kernels {
                let k = (start + i) % kernels;
                if self.resident[sm * self.kernels + k] >= targets.get(k).copied().unwrap_or(0) {
                    continue;
                }
                // The kernel's oldest launch with blocks left.
                let Some(index) = (0..d.pending().len()).find(|&p| {
                    let run = d.pending()[p];
                    run.next_block < run.blocks && slots.slot(run.kernel) == Some(k)
                }) else {
                    continue;
                };
                let block = d.pending()[index].next_block;
                if d.place(sm as u32, index, block) {
                    self.resident[sm * self.kernels + k] += 1;
                    self.last[sm] = k;
                    break;
                }
            }
        }
    }
}
